//! `Mdl::repair`: fixing from the data what lenient reading lets through.

use super::validate::bounds;
use super::{Frame, Mdl, SimpleFrame, Skin, TriVertex, Variant};
use crate::quake::{nearest_normal_index, vertex_normals, NORMAL_COUNT};

/// The interval a repaired group step takes (id's default frame interval,
/// 0.1 s, as `modelgen.c` writes it).
const DEFAULT_INTERVAL: f32 = 0.1;

/// What [`Mdl::repair`] changed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RepairReport {
    /// Header counts (vertices, triangles, frames) set to the data's.
    pub fixed_counts: usize,
    /// Bounding boxes (of frames and frame groups) that did not hold their
    /// vertices, set to the vertices' (boxes that hold them are kept: id's
    /// tools often stored looser ones).
    pub fixed_bounding_boxes: usize,
    /// The header's bounding radius, when it was smaller than the data's,
    /// as `(stored, new)`.
    pub fixed_radius: Option<(f32, f32)>,
    /// Triangles removed because an index pointed outside the model.
    pub dropped_triangles: usize,
    /// Normal indices ≥ 162 replaced by the table normal nearest to the
    /// vertex's computed normal.
    pub fixed_normals: usize,
    /// Intervals (of skin and frame groups) that were not after the one
    /// before, or not above 0, moved to 0.1 s after it.
    pub fixed_intervals: usize,
    /// Indices (in the model before repair) of frame entries removed: frame
    /// groups without a frame, which no engine can play. Later frames move
    /// down, which QuakeC that selects frames by number sees.
    pub dropped_frames: Vec<usize>,
    /// Indices of skin entries removed: skin groups without an image.
    pub dropped_skins: Vec<usize>,
}

impl RepairReport {
    /// Whether nothing needed repair.
    pub fn is_empty(&self) -> bool {
        *self == RepairReport::default()
    }
}

impl Mdl {
    /// Repairs what [`Mdl::validate`] finds and the data can fix: header
    /// counts, frame and group bounding boxes that do not hold their vertices
    /// and a bounding radius smaller than the vertices' are set from the
    /// data; triangles with an index
    /// out of range are dropped; normal indices ≥ 162 become the nearest
    /// table normal to the computed vertex normal; group intervals that
    /// are not increasing and positive are moved after the one before;
    /// empty frame and skin groups are dropped (and listed). Everything
    /// else is left as it is.
    pub fn repair(&mut self) -> RepairReport {
        let mut report = RepairReport::default();

        let mut index = 0;
        self.skins.retain(|s| {
            let keep = !matches!(s, Skin::Group { images, .. } if images.is_empty());
            if !keep {
                report.dropped_skins.push(index);
            }
            index += 1;
            keep
        });
        let mut index = 0;
        self.frames.retain(|f| {
            let keep = !matches!(f, Frame::Group { group, .. } if group.frames.is_empty());
            if !keep {
                report.dropped_frames.push(index);
            }
            index += 1;
            keep
        });
        for skin in &mut self.skins {
            if let Skin::Group {
                intervals, images, ..
            } = skin
            {
                intervals.resize(images.len(), 0.0);
                report.fixed_intervals += fix_intervals(intervals);
            }
        }

        let nv = self.vertex_count();
        let nt = self.texcoords.len();
        let before = self.triangles.len();
        let hexen2 = self.variant == Variant::Hexen2;
        self.triangles.retain(|t| {
            let ok = |i: i32, n: usize| usize::try_from(i).is_ok_and(|i| i < n);
            t.vertices.iter().all(|&v| ok(v, nv))
                && (!hexen2 || t.texcoords.iter().all(|&s| ok(s, nt)))
        });
        report.dropped_triangles = before - self.triangles.len();

        // Normals: only frames whose every vertex is there can be measured.
        let tris: Vec<[u16; 3]> = self
            .triangles
            .iter()
            .filter_map(|t| {
                let v = t.vertices.map(|i| u16::try_from(i).ok());
                Some([v[0]?, v[1]?, v[2]?])
            })
            .collect();
        let (scale, origin) = (self.scale, self.origin);
        let decode =
            |v: &TriVertex| [0, 1, 2].map(|a| f32::from(v.position[a]) * scale[a] + origin[a]);
        let fix_frame = |f: &mut SimpleFrame, report: &mut RepairReport| {
            if let Some((lo, hi)) = bounds(f) {
                if !holds(f.bbox_min.position, f.bbox_max.position, lo, hi) {
                    f.bbox_min.position = lo;
                    f.bbox_max.position = hi;
                    report.fixed_bounding_boxes += 1;
                }
            }
            if f.vertices.len() != nv
                || f.vertices
                    .iter()
                    .all(|v| usize::from(v.normal_index) < NORMAL_COUNT)
            {
                return;
            }
            let positions: Vec<[f32; 3]> = f.vertices.iter().map(decode).collect();
            let normals = vertex_normals(&positions, &tris, true);
            for (v, n) in f.vertices.iter_mut().zip(&normals) {
                if usize::from(v.normal_index) >= NORMAL_COUNT {
                    v.normal_index = nearest_normal_index(*n);
                    report.fixed_normals += 1;
                }
            }
        };
        for frame in &mut self.frames {
            match frame {
                Frame::Single(f) => fix_frame(f, &mut report),
                Frame::Group { group, .. } => {
                    for f in &mut group.frames {
                        fix_frame(f, &mut report);
                    }
                    group.intervals.resize(group.frames.len(), 0.0);
                    report.fixed_intervals += fix_intervals(&mut group.intervals);
                    let boxes = group.frames.iter().filter_map(bounds);
                    let joined = boxes.reduce(|(alo, ahi), (blo, bhi)| {
                        (
                            [0, 1, 2].map(|a| alo[a].min(blo[a])),
                            [0, 1, 2].map(|a| ahi[a].max(bhi[a])),
                        )
                    });
                    if let Some((lo, hi)) = joined {
                        if !holds(group.bbox_min.position, group.bbox_max.position, lo, hi) {
                            group.bbox_min.position = lo;
                            group.bbox_max.position = hi;
                            report.fixed_bounding_boxes += 1;
                        }
                    }
                }
            }
        }

        for (stored, actual) in [
            (&mut self.num_vertices, nv),
            (&mut self.num_triangles, self.triangles.len()),
            (&mut self.num_frames, self.frames.len()),
        ] {
            let actual = i32::try_from(actual).unwrap_or(i32::MAX);
            if *stored != actual {
                *stored = actual;
                report.fixed_counts += 1;
            }
        }
        if let Some(r) = self.data_radius() {
            if !(self.bounding_radius.is_finite() && self.bounding_radius >= r) {
                report.fixed_radius = Some((self.bounding_radius, r));
                self.bounding_radius = r;
            }
        }
        report
    }
}

/// Whether the box `min..max` holds `lo..hi`.
fn holds(min: [u8; 3], max: [u8; 3], lo: [u8; 3], hi: [u8; 3]) -> bool {
    (0..3).all(|a| min[a] <= lo[a] && max[a] >= hi[a])
}

/// Makes `intervals` positive and increasing (but after an `f32::MAX`,
/// which nothing can follow); returns how many changed.
fn fix_intervals(intervals: &mut [f32]) -> usize {
    let mut fixed = 0;
    let mut before = 0.0f32;
    for t in intervals {
        if !(t.is_finite() && *t > before) {
            // Past 2^20 s or so 0.1 s is below an `f32` step: the next
            // value up then (found by `mdl_parse`). After `f32::MAX` there
            // is none: the interval stays as it is.
            let step = before + DEFAULT_INTERVAL;
            let next = if step > before {
                step
            } else {
                before.next_up()
            };
            if next.is_finite() {
                *t = next;
                fixed += 1;
            }
        }
        before = before.max(*t);
    }
    fixed
}
