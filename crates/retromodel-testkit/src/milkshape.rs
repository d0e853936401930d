//! An MS3D evaluator written from `/work/shared/formats/MS3D.md` and
//! nothing else: it reads the file's bytes itself (the 1.4 core, the
//! keyframer, the joints and their keys, and the 1.8 extras' model
//! comment and vertex weights) and poses and skins the vertices as
//! MilkShape's own model viewer does (Euler keys slerped, position keys
//! Hermite with looped tangents, key times in seconds sampled in frames).
//! It shares no code with the library's `ms3d` module, so a test can hold
//! the library's MS3D writer and compiler to it.
//!
//! ```
//! use retromodel_testkit::milkshape::parse;
//! // A file that ends inside its header is refused, with where.
//! assert!(parse(b"MS3D000000\x04\0").unwrap_err().contains("header"));
//! ```

use glam::{DMat4, DQuat, DVec3};

/// A key of a joint: its time in seconds and its Euler angles (radians)
/// or its translation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key {
    /// Seconds on the timeline.
    pub time: f32,
    /// `x, y, z`.
    pub value: [f32; 3],
}

/// A vertex: its position and its own bone (`-1`: none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vertex {
    /// Bind-pose position.
    pub position: [f32; 3],
    /// The vertex's own bone id.
    pub bone_id: i8,
}

/// A group: its name and its triangles.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The name as stored, up to its NUL.
    pub name: Vec<u8>,
    /// Indices into the file's triangles.
    pub triangles: Vec<u16>,
}

/// A joint with its keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// The name as stored, up to its NUL.
    pub name: Vec<u8>,
    /// The parent's name as stored, up to its NUL (empty: a root).
    pub parent: Vec<u8>,
    /// Bind rotation, Euler radians.
    pub rotation: [f32; 3],
    /// Bind position.
    pub position: [f32; 3],
    /// Rotation keys.
    pub rotation_keys: Vec<Key>,
    /// Position keys.
    pub position_keys: Vec<Key>,
}

/// A clip of the model comment's `retromodel clips:` line (frames).
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// Its name.
    pub name: String,
    /// First frame on the timeline.
    pub first_frame: f32,
    /// Last frame.
    pub last_frame: f32,
}

/// What an MS3D file says, as far as posing and skinning need.
#[derive(Debug, Clone, PartialEq)]
pub struct Milkshape {
    /// The keyframer's frames per second.
    pub fps: f32,
    /// The keyframer's total frames.
    pub total_frames: i32,
    /// Every vertex.
    pub vertices: Vec<Vertex>,
    /// Every triangle's three vertex indices.
    pub triangles: Vec<[u16; 3]>,
    /// Every group.
    pub groups: Vec<Group>,
    /// Every joint, in file order.
    pub joints: Vec<Joint>,
    /// Per vertex, the 1.8 extras' `bone ids[3]` and `weights[3]`; empty
    /// when the file has no vertex extras.
    pub weights: Vec<([i8; 3], [u8; 3])>,
    /// The model comment, when the file has one.
    pub model_comment: Option<Vec<u8>>,
}

/// A little-endian reader that says where it ran out.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| {
            format!(
                "{what}: needs {n} bytes at offset {} of {}",
                self.at,
                self.bytes.len()
            )
        })?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, String> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn i32(&mut self, what: &str) -> Result<i32, String> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn f32(&mut self, what: &str) -> Result<f32, String> {
        let b = self.take(4, what)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn vec3(&mut self, what: &str) -> Result<[f32; 3], String> {
        Ok([self.f32(what)?, self.f32(what)?, self.f32(what)?])
    }
    /// A fixed `char[n]` field, up to its NUL.
    fn name(&mut self, n: usize, what: &str) -> Result<Vec<u8>, String> {
        let b = self.take(n, what)?;
        Ok(b[..b.iter().position(|&c| c == 0).unwrap_or(n)].to_vec())
    }
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }
    fn peek_i32(&self, skip: usize) -> Option<i32> {
        let at = self.at.checked_add(skip)?;
        let b = self.bytes.get(at..at.checked_add(4)?)?;
        Some(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Reads an MS3D from its bytes (MS3D.md's layout); an error names the
/// part that does not fit.
pub fn parse(bytes: &[u8]) -> Result<Milkshape, String> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(10, "header")? != b"MS3D000000" {
        return Err("header: not MS3D000000".to_string());
    }
    let version = r.i32("header")?;
    if !(3..=4).contains(&version) {
        return Err(format!("header: version {version}"));
    }
    let n = r.u16("vertex count")?;
    let mut vertices = Vec::with_capacity(usize::from(n).min(r.left() / 15));
    for _ in 0..n {
        r.u8("vertex flags")?;
        let position = r.vec3("vertex")?;
        let bone_id = r.u8("vertex bone")? as i8;
        r.u8("vertex references")?;
        vertices.push(Vertex { position, bone_id });
    }
    let n = r.u16("triangle count")?;
    let mut triangles = Vec::with_capacity(usize::from(n).min(r.left() / 70));
    for _ in 0..n {
        r.u16("triangle flags")?;
        let v = [r.u16("triangle")?, r.u16("triangle")?, r.u16("triangle")?];
        if v.iter().any(|&i| usize::from(i) >= vertices.len()) {
            return Err(format!("triangle {}: vertex out of range", triangles.len()));
        }
        r.take(36 + 24 + 2, "triangle normals, uv, groups")?;
        triangles.push(v);
    }
    let n = r.u16("group count")?;
    let mut groups = Vec::new();
    for _ in 0..n {
        r.u8("group flags")?;
        let name = r.name(32, "group name")?;
        let count = r.u16("group triangle count")?;
        let mut list = Vec::with_capacity(usize::from(count).min(r.left() / 2));
        for _ in 0..count {
            let t = r.u16("group triangle")?;
            if usize::from(t) >= triangles.len() {
                return Err(format!("group {}: triangle out of range", groups.len()));
            }
            list.push(t);
        }
        r.u8("group material")?;
        groups.push(Group {
            name,
            triangles: list,
        });
    }
    let n = r.u16("material count")?;
    r.take(361 * usize::from(n), "materials")?;
    let fps = r.f32("keyframer fps")?;
    r.f32("keyframer current time")?;
    let total_frames = r.i32("keyframer total frames")?;
    let n = r.u16("joint count")?;
    let mut joints = Vec::new();
    for _ in 0..n {
        r.u8("joint flags")?;
        let name = r.name(32, "joint name")?;
        let parent = r.name(32, "joint parent")?;
        let rotation = r.vec3("joint rotation")?;
        let position = r.vec3("joint position")?;
        let (nr, np) = (r.u16("joint keys")?, r.u16("joint keys")?);
        let mut keys = |count: u16| -> Result<Vec<Key>, String> {
            (0..count)
                .map(|_| {
                    Ok(Key {
                        time: r.f32("key")?,
                        value: r.vec3("key")?,
                    })
                })
                .collect()
        };
        let rotation_keys = keys(nr)?;
        let position_keys = keys(np)?;
        joints.push(Joint {
            name,
            parent,
            rotation,
            position,
            rotation_keys,
            position_keys,
        });
    }
    let mut model = Milkshape {
        fps,
        total_frames,
        vertices,
        triangles,
        groups,
        joints,
        weights: Vec::new(),
        model_comment: None,
    };
    // 1.8 extras: optional, read while bytes remain.
    if r.left() < 4 {
        return Ok(model);
    }
    r.i32("comment subversion")?;
    for what in ["group comments", "material comments", "joint comments"] {
        let count = r.i32(what)?;
        for _ in 0..count.max(0) {
            r.i32(what)?;
            let length = usize::try_from(r.i32(what)?).map_err(|_| format!("{what}: length"))?;
            r.take(length, what)?;
        }
    }
    if r.i32("has model comment")? != 0 {
        // SDK 1.8.5's `{length, text}`, which the viewer reads; the 1.8.2
        // text's `{index, length, text}` when that reading is the one
        // that leaves a vertex subversion (1-3) after it.
        let plausible = |skip: usize| {
            let length = r.peek_i32(skip).and_then(|l| usize::try_from(l).ok())?;
            let after = skip.checked_add(4)?.checked_add(length)?;
            (after <= r.left()
                && (after == r.left() || r.peek_i32(after).is_some_and(|v| (1..=3).contains(&v))))
            .then_some(length)
        };
        let skip = if plausible(0).is_some() { 0 } else { 4 };
        r.take(skip, "model comment")?;
        let length =
            usize::try_from(r.i32("model comment")?).map_err(|_| "model comment length")?;
        model.model_comment = Some(r.take(length, "model comment")?.to_vec());
    }
    if r.left() < 4 {
        return Ok(model);
    }
    let subversion = r.i32("vertex subversion")?;
    let n = model.vertices.len();
    let size = match subversion {
        1 => 6,
        2 => 10,
        // 14 bytes by the SDK; 10 as Blender and Irrlicht read it: the
        // one that leaves the joint extras' subversion (1 or 2) after.
        3 => {
            let fits = |size: usize| {
                let after = n.checked_mul(size)?;
                (after == r.left() || r.peek_i32(after).is_some_and(|v| (1..=2).contains(&v)))
                    .then_some(size)
            };
            fits(14).or_else(|| fits(10)).unwrap_or(14)
        }
        other => return Err(format!("vertex subversion {other}")),
    };
    for _ in 0..n {
        let b = r.take(size, "vertex weights")?;
        model
            .weights
            .push(([b[0] as i8, b[1] as i8, b[2] as i8], [b[3], b[4], b[5]]));
    }
    Ok(model)
}

impl Milkshape {
    /// The clips the model comment's `retromodel clips: NAME FIRST-LAST;
    /// ...` line lists (the project's convention, documented with the
    /// library's clip line), in order.
    pub fn clips(&self) -> Vec<Clip> {
        let Some(comment) = &self.model_comment else {
            return Vec::new();
        };
        let text = String::from_utf8_lossy(comment);
        let Some(line) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("retromodel clips:"))
        else {
            return Vec::new();
        };
        line.split(';')
            .filter_map(|item| {
                let (name, range) = item.trim().rsplit_once(' ')?;
                let (a, b) = range.split_once('-')?;
                Some(Clip {
                    name: name.trim().to_string(),
                    first_frame: a.parse().ok()?,
                    last_frame: b.parse().ok()?,
                })
            })
            .collect()
    }

    /// Where the clip `name` starts on the timeline, in seconds (its
    /// first frame over the fps).
    pub fn clip_start(&self, name: &str) -> Option<f64> {
        let clip = self.clips().into_iter().find(|c| c.name == name)?;
        Some(f64::from(clip.first_frame) / f64::from(self.fps.max(1.0)))
    }

    /// Every vertex skinned at `seconds` on the timeline (`None`: the
    /// bind pose), as MilkShape's viewer skins it. Panics when a joint's
    /// parent comes after it (the viewer needs parents first).
    pub fn skin(&self, seconds: Option<f32>) -> Vec<[f32; 3]> {
        let fps = f64::from(self.fps.max(1.0));
        let n = self.joints.len();
        let parent: Vec<Option<usize>> = self
            .joints
            .iter()
            .map(|j| self.joints.iter().position(|p| p.name == j.parent))
            .collect();
        let mut bind = vec![DMat4::IDENTITY; n];
        let mut posed = vec![DMat4::IDENTITY; n];
        for (i, j) in self.joints.iter().enumerate() {
            let local = DMat4::from_rotation_translation(
                euler(j.rotation),
                DVec3::from(j.position.map(f64::from)),
            );
            let animated = match seconds {
                Some(s) => {
                    let f = f64::from(s) * fps;
                    local
                        * DMat4::from_rotation_translation(
                            rotation(&j.rotation_keys, fps, f),
                            position(&j.position_keys, fps, f),
                        )
                }
                None => local,
            };
            match parent[i] {
                Some(p) => {
                    assert!(p < i, "joint {i}: parent {p} after it");
                    bind[i] = bind[p] * local;
                    posed[i] = posed[p] * animated;
                }
                None => {
                    bind[i] = local;
                    posed[i] = animated;
                }
            }
        }
        let skinning: Vec<DMat4> = (0..n).map(|i| posed[i] * bind[i].inverse()).collect();
        self.vertices
            .iter()
            .enumerate()
            .map(|(v, vertex)| {
                let p = DVec3::from(vertex.position.map(f64::from));
                let (ids, w) = match self.weights.get(v) {
                    Some((bones, weights)) if *weights != [0, 0, 0] => {
                        let w = weights.map(f64::from);
                        (
                            [
                                i32::from(vertex.bone_id),
                                i32::from(bones[0]),
                                i32::from(bones[1]),
                                i32::from(bones[2]),
                            ],
                            [w[0], w[1], w[2], 100.0 - w[0] - w[1] - w[2]],
                        )
                    }
                    _ => (
                        [i32::from(vertex.bone_id), -1, -1, -1],
                        [100.0, 0.0, 0.0, 0.0],
                    ),
                };
                if ids[0] < 0 || ids[0] as usize >= n {
                    return vertex.position;
                }
                let mut out = DVec3::ZERO;
                let mut used = 0.0;
                for k in 0..4 {
                    if w[k] <= 0.0 || ids[k] < 0 || ids[k] as usize >= n {
                        break;
                    }
                    out += skinning[ids[k] as usize].transform_point3(p) * (w[k] / 100.0);
                    used += w[k];
                }
                if used == 0.0 {
                    out = skinning[ids[0] as usize].transform_point3(p);
                }
                out.to_array().map(|x| x as f32)
            })
            .collect()
    }
}

/// `Rz(z) · Ry(y) · Rx(x)`.
pub fn euler(a: [f32; 3]) -> DQuat {
    let [x, y, z] = a.map(f64::from);
    DQuat::from_rotation_z(z) * DQuat::from_rotation_y(y) * DQuat::from_rotation_x(x)
}

fn slerp(a: DQuat, b: DQuat, t: f64) -> DQuat {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    let d = a.dot(b).clamp(-1.0, 1.0);
    if d > 1.0 - 1e-12 {
        return (a * (1.0 - t) + b * t).normalize();
    }
    let w = d.acos();
    (a * ((1.0 - t) * w).sin() + b * (t * w).sin()) * (1.0 / w.sin())
}

/// The interval `[i, i + 1]` with `time[i] <= f < time[i + 1]`.
fn interval(times: &[f64], f: f64) -> Option<usize> {
    (0..times.len().saturating_sub(1)).find(|&i| f >= times[i] && f < times[i + 1])
}

fn rotation(keys: &[Key], fps: f64, f: f64) -> DQuat {
    if keys.is_empty() {
        return DQuat::IDENTITY;
    }
    let times: Vec<f64> = keys.iter().map(|k| f64::from(k.time) * fps).collect();
    match interval(&times, f) {
        Some(i) => {
            let t = (f - times[i]) / (times[i + 1] - times[i]);
            slerp(euler(keys[i].value), euler(keys[i + 1].value), t)
        }
        None if f < times[0] => euler(keys[0].value),
        None => euler(keys[keys.len() - 1].value),
    }
}

fn position(keys: &[Key], fps: f64, f: f64) -> DVec3 {
    if keys.is_empty() {
        return DVec3::ZERO;
    }
    let n = keys.len();
    let times: Vec<f64> = keys.iter().map(|k| f64::from(k.time) * fps).collect();
    let p = |k: usize| DVec3::from(keys[k].value.map(f64::from));
    let tangent = |k: usize| -> (DVec3, DVec3) {
        if n <= 2 {
            return (DVec3::ZERO, DVec3::ZERO);
        }
        let k0 = if k == 0 { n - 1 } else { k - 1 };
        let k2 = if k + 1 == n { 0 } else { k + 1 };
        let dir = p(k2) - p(k0);
        let (dt1, dt2) = (times[k] - times[k0], times[k2] - times[k]);
        (dir * dt1 / (dt1 + dt2), dir * dt2 / (dt1 + dt2))
    };
    match interval(&times, f) {
        Some(i) => {
            let t = (f - times[i]) / (times[i + 1] - times[i]);
            let (t2, t3) = (t * t, t * t * t);
            p(i) * (2.0 * t3 - 3.0 * t2 + 1.0)
                + tangent(i).1 * (t3 - 2.0 * t2 + t)
                + p(i + 1) * (-2.0 * t3 + 3.0 * t2)
                + tangent(i + 1).0 * (t3 - t2)
        }
        None if f < times[0] => p(0),
        None => p(n - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of one vertex on one joint that turns a quarter turn about
    /// z over one second (two rotation keys), built byte by byte here.
    fn one_joint() -> Vec<u8> {
        let mut b = b"MS3D000000".to_vec();
        b.extend(4i32.to_le_bytes());
        b.extend(1u16.to_le_bytes()); // one vertex
        b.push(0);
        for x in [1.0f32, 0.0, 0.0] {
            b.extend(x.to_le_bytes());
        }
        b.extend([0u8, 1]); // bone 0, one reference
        b.extend(0u16.to_le_bytes()); // no triangles
        b.extend(0u16.to_le_bytes()); // no groups
        b.extend(0u16.to_le_bytes()); // no materials
        for x in [10.0f32, 0.0] {
            b.extend(x.to_le_bytes());
        }
        b.extend(10i32.to_le_bytes());
        b.extend(1u16.to_le_bytes()); // one joint
        b.push(0);
        let mut name = [0u8; 32];
        name[..4].copy_from_slice(b"root");
        b.extend(name);
        b.extend([0u8; 32]);
        b.extend([0u8; 24]); // bind rotation and position 0
        b.extend(2u16.to_le_bytes());
        b.extend(0u16.to_le_bytes());
        for (t, z) in [(0.0f32, 0.0f32), (1.0, std::f32::consts::FRAC_PI_2)] {
            for x in [t, 0.0, 0.0, z] {
                b.extend(x.to_le_bytes());
            }
        }
        b
    }

    #[test]
    fn a_joint_turns_its_vertex_as_its_keys_say() {
        let m = parse(&one_joint()).unwrap();
        assert_eq!((m.fps, m.total_frames, m.joints.len()), (10.0, 10, 1));
        assert_eq!(m.skin(None), [[1.0, 0.0, 0.0]]);
        let end = m.skin(Some(1.0))[0];
        assert!(
            (end[0]).abs() < 1e-6 && (end[1] - 1.0).abs() < 1e-6,
            "{end:?}"
        );
        // Halfway, slerp: 45 degrees.
        let half = m.skin(Some(0.5))[0];
        let s = std::f32::consts::FRAC_1_SQRT_2;
        assert!(
            (half[0] - s).abs() < 1e-6 && (half[1] - s).abs() < 1e-6,
            "{half:?}"
        );
    }

    #[test]
    fn a_cut_file_names_the_part() {
        let b = one_joint();
        let e = parse(&b[..b.len() - 3]).unwrap_err();
        assert!(e.starts_with("key:"), "{e}");
    }
}
