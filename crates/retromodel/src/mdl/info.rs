//! A summary of an MDL model: what `retromodel info` shows.

use std::fmt;

use super::{flags, Frame, Mdl, Skin, Variant};
use crate::quake::animations_from_runs;

/// The names of the header's effect flags a variant's engines know, by
/// bit: Quake's `EF_*` (`WinQuake/gl_model.h`) and QuakeSpasm's `MF_HOLEY`
/// (`Quake/gl_model.h`: index 255 transparent); for Hexen II its own
/// (uhexen2 `engine/h2shared/gl_model.h`).
pub fn flag_names(variant: Variant, value: i32) -> (Vec<&'static str>, i32) {
    const QUAKE: &[(i32, &str)] = &[
        (flags::ROCKET, "rocket"),
        (flags::GRENADE, "grenade"),
        (flags::GIB, "gib"),
        (flags::ROTATE, "rotate"),
        (flags::TRACER, "tracer"),
        (flags::ZOMGIB, "zomgib"),
        (flags::TRACER2, "tracer2"),
        (flags::TRACER3, "tracer3"),
    ];
    const QUAKE_PORTS: &[(i32, &str)] = &[(flags::HOLEY, "holey")];
    const HEXEN2: &[(i32, &str)] = &[
        (1 << 8, "fireball"),
        (1 << 9, "ice"),
        (1 << 10, "mip_map"),
        (1 << 11, "spit"),
        (1 << 12, "transparent"),
        (1 << 13, "spell"),
        (1 << 14, "holey"),
        (1 << 15, "special_trans"),
        (1 << 16, "face_view"),
        (1 << 17, "vorp_missile"),
        (1 << 18, "set_staff"),
        (1 << 19, "magicmissile"),
        (1 << 20, "boneshard"),
        (1 << 21, "scarab"),
        (1 << 22, "acidball"),
        (1 << 23, "bloodshot"),
        (1 << 24, "mip_map_far"),
    ];
    let extra = if variant == Variant::Hexen2 {
        HEXEN2
    } else {
        QUAKE_PORTS
    };
    let mut names = Vec::new();
    let mut rest = value;
    for &(bit, name) in QUAKE.iter().chain(extra) {
        if value & bit != 0 {
            names.push(name);
            rest &= !bit;
        }
    }
    (names, rest)
}

/// One skin entry in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SkinInfo {
    /// Images: 1 for a single skin, the group's size for an animated one.
    pub images: usize,
    /// Whether it is a group (an animated skin), even of one image.
    pub group: bool,
    /// The group's intervals (end times in seconds); empty for a single
    /// skin.
    pub intervals: Vec<f32>,
}

/// One frame group in an [`Info`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GroupInfo {
    /// Its index in the frame list (what QuakeC's `self.frame` selects).
    pub frame: usize,
    /// The name of its first frame.
    pub name: String,
    /// How many frames it plays.
    pub frames: usize,
    /// Its intervals (end times in seconds).
    pub intervals: Vec<f32>,
}

/// One animation in an [`Info`]: a run of frames whose names share a
/// prefix (`run1`..`run8`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnimationInfo {
    /// Name.
    pub name: String,
    /// Index of its first frame.
    pub first_frame: usize,
    /// Number of frames.
    pub frame_count: usize,
}

/// A summary of an MDL model and the file it came from. `Display` gives
/// the text report (without the file name); with feature `serde` it
/// serialises as `info --json` prints it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// Always `"mdl"`.
    pub format: &'static str,
    /// `Quake`, `Hexen II`, `QuakeForge 16-bit` or `QTest`.
    pub variant: &'static str,
    /// The version word.
    pub version: i32,
    /// The grid's scale.
    pub scale: [f32; 3],
    /// The grid's origin.
    pub origin: [f32; 3],
    /// The header's bounding radius.
    pub bounding_radius: f32,
    /// The header's eye position.
    pub eye_position: [f32; 3],
    /// Skin width in pixels.
    pub skin_width: i32,
    /// Skin height in pixels.
    pub skin_height: i32,
    /// Each skin entry.
    pub skins: Vec<SkinInfo>,
    /// Vertices per frame.
    pub vertices: usize,
    /// Texture coordinates.
    pub texcoords: usize,
    /// Texture coordinates on the seam.
    pub onseam: usize,
    /// Triangles.
    pub triangles: usize,
    /// Triangles that face back (their onseam vertices take the skin's
    /// back half).
    pub back_triangles: usize,
    /// Frame entries (a group counts once).
    pub frames: usize,
    /// Simple frames, groups' frames counted one by one.
    pub simple_frames: usize,
    /// Every frame entry's name (a group's: its first frame's).
    pub frame_names: Vec<String>,
    /// The frame groups.
    pub groups: Vec<GroupInfo>,
    /// `sync` (0) or `random` (1); other values as a number.
    pub sync_type: String,
    /// The flags word as stored.
    pub flags: i32,
    /// The names of the flags set.
    pub flag_names: Vec<&'static str>,
    /// Bits set that no engine this crate knows names.
    pub unknown_flags: i32,
    /// The header's `size` field.
    pub size: f32,
    /// Animations from the frame names (`run1`..`run8` is `run`), over
    /// the frame entries.
    pub animations: Vec<AnimationInfo>,
    /// Length of the file in bytes.
    pub file_size: u64,
    /// Bytes after the last frame.
    pub trailing_bytes: usize,
    /// Every problem `validate` finds, as text.
    pub warnings: Vec<String>,
}

impl Mdl {
    /// Every frame entry's name: a single frame's, or a group's first
    /// frame's (as FTE names a group: `Q1MDL_LoadFrameGroup`).
    pub fn frame_names(&self) -> Vec<String> {
        self.frames
            .iter()
            .map(|f| match f {
                Frame::Single(s) => s.name.to_string_lossy(),
                Frame::Group { group, .. } => group
                    .frames
                    .first()
                    .map_or_else(String::new, |s| s.name.to_string_lossy()),
            })
            .collect()
    }

    /// The summary of this model, read from `bytes` (its file, for the
    /// size).
    pub fn info(&self, bytes: &[u8]) -> Info {
        let (flag_names, unknown_flags) = flag_names(self.variant, self.flags);
        let names = self.frame_names();
        Info {
            format: "mdl",
            variant: self.variant.title(),
            version: self.version,
            scale: self.scale,
            origin: self.origin,
            bounding_radius: self.bounding_radius,
            eye_position: self.eye_position,
            skin_width: self.skin_width,
            skin_height: self.skin_height,
            skins: self
                .skins
                .iter()
                .map(|s| match s {
                    Skin::Single(_) => SkinInfo {
                        images: 1,
                        group: false,
                        intervals: Vec::new(),
                    },
                    Skin::Group {
                        intervals, images, ..
                    } => SkinInfo {
                        images: images.len(),
                        group: true,
                        intervals: intervals.clone(),
                    },
                })
                .collect(),
            vertices: self.vertex_count(),
            texcoords: self.texcoords.len(),
            onseam: self.texcoords.iter().filter(|t| t.onseam != 0).count(),
            triangles: self.triangles.len(),
            back_triangles: self.triangles.iter().filter(|t| t.faces_front == 0).count(),
            frames: self.frames.len(),
            simple_frames: self.simple_frames().count(),
            groups: self
                .frames
                .iter()
                .enumerate()
                .filter_map(|(i, f)| match f {
                    Frame::Group { group, .. } => Some(GroupInfo {
                        frame: i,
                        name: names[i].clone(),
                        frames: group.frames.len(),
                        intervals: group.intervals.clone(),
                    }),
                    Frame::Single(_) => None,
                })
                .collect(),
            animations: animations_from_runs(names.iter().map(String::as_str))
                .into_iter()
                .map(|a| AnimationInfo {
                    name: a.name,
                    first_frame: a.first_frame,
                    frame_count: a.frame_count,
                })
                .collect(),
            frame_names: names,
            sync_type: match self.sync_type {
                0 => "sync".into(),
                1 => "random".into(),
                n => n.to_string(),
            },
            flags: self.flags,
            flag_names,
            unknown_flags,
            size: self.size,
            file_size: bytes.len() as u64,
            trailing_bytes: self.trailing.len(),
            warnings: self.validate().iter().map(ToString::to_string).collect(),
        }
    }
}

/// How many warnings the text report lists.
const SHOWN: usize = 20;

impl fmt::Display for Info {
    /// The report `retromodel info` prints after the file name: starts
    /// with `MDL (Quake) version 6`, one line per fact.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let j = self;
        let v3 = |v: [f32; 3]| format!("{} {} {}", v[0], v[1], v[2]);
        writeln!(f, "MDL ({}) version {}", j.variant, j.version)?;
        writeln!(f, "  scale         {}", v3(j.scale))?;
        writeln!(f, "  origin        {}", v3(j.origin))?;
        writeln!(f, "  radius        {}", j.bounding_radius)?;
        writeln!(f, "  eye position  {}", v3(j.eye_position))?;
        writeln!(f, "  skin size     {} × {}", j.skin_width, j.skin_height)?;
        writeln!(f, "  skins         {}", j.skins.len())?;
        for (i, s) in j.skins.iter().enumerate() {
            if s.group {
                let times: Vec<String> = s.intervals.iter().map(|t| format!("{t}")).collect();
                writeln!(
                    f,
                    "                  {i}: group of {} (ends at {} s)",
                    s.images,
                    times.join(", ")
                )?;
            }
        }
        writeln!(f, "  vertices      {}", j.vertices)?;
        writeln!(
            f,
            "  texcoords     {} ({} on the seam)",
            j.texcoords, j.onseam
        )?;
        writeln!(
            f,
            "  triangles     {} ({} facing back)",
            j.triangles, j.back_triangles
        )?;
        writeln!(
            f,
            "  frames        {} ({} simple frames, {} groups)",
            j.frames,
            j.simple_frames,
            j.groups.len()
        )?;
        for g in &j.groups {
            writeln!(
                f,
                "                  {}: {:<12} group of {}",
                g.frame, g.name, g.frames
            )?;
        }
        writeln!(f, "  sync type     {}", j.sync_type)?;
        let mut flags = j.flag_names.join(", ");
        if j.unknown_flags != 0 {
            if !flags.is_empty() {
                flags.push_str(", ");
            }
            flags.push_str(&format!("unknown bits {:#x}", j.unknown_flags));
        }
        if flags.is_empty() {
            flags.push_str("none");
        }
        writeln!(f, "  flags         {} ({})", j.flags, flags)?;
        writeln!(
            f,
            "  file          {} bytes, {} trailing",
            j.file_size, j.trailing_bytes
        )?;
        writeln!(f, "  animations    {}", j.animations.len())?;
        for a in &j.animations {
            writeln!(
                f,
                "                  {:<12} frames {:>4}..{:<4} ({})",
                a.name,
                a.first_frame,
                a.first_frame + a.frame_count - 1,
                a.frame_count
            )?;
        }
        crate::problem::write_warning_list(f, &j.warnings, SHOWN)
    }
}
