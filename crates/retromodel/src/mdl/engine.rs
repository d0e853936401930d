//! What each engine's MDL loader accepts: [`MdlEngineLimits`] and
//! [`Mdl::validate_for`] ("will this load in that engine?").
//!
//! Every number is taken from the engine's own loader, cited by file and
//! function. The versions read: id's 2012 source release (bf4ac42:
//! `WinQuake/model.c` for the software renderer, `WinQuake/gl_model.c`
//! for GLQuake), QuakeSpasm f5fe1786 (2026-08-11), QuakeSpasm-Spiked
//! c4893638 (2021-07-10, `quakespasm/Quake/`), Ironwail 7ff4ec57
//! (2026-08-20), vkQuake 46e5e6dd (2026-08-21), FTEQW 93257c1ac
//! (2026-01-05) and uHexen2 bf2121f75 (2026-08-21).
//!
//! Every loader walks the file the same way; they differ in the counts
//! they take, in what happens past them (the game stops with `Sys_Error`,
//! the model is not drawn, or a fixed array overflows with no check) and
//! in a few rules of their texture upload.

use super::{Frame, Mdl, Skin, Variant, ONSEAM};
use crate::problem::{Collector, Problem, Severity};

pub use crate::engine::Engine;

/// What an engine does with a count past its limit (or below its minimum).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Over {
    /// `Sys_Error`: the game stops with an error message.
    Fatal,
    /// The model is not loaded (a console message); the game goes on.
    Refuses,
    /// No check: a fixed-size array overflows (a crash or corrupt memory).
    Overflows,
    /// The excess is ignored with a console warning.
    Ignored,
}

impl Over {
    /// What the engine does, for a message ("it stops with a fatal
    /// error").
    pub fn words(self) -> &'static str {
        match self {
            Over::Fatal => "it stops with a fatal error",
            Over::Refuses => "it does not load the model",
            Over::Overflows => {
                "it does not check and overflows a fixed-size array (a crash or corrupt memory)"
            }
            Over::Ignored => "it ignores the rest",
        }
    }

    fn severity(self) -> Severity {
        match self {
            Over::Ignored => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// How an engine times a frame group (the frames it plays by itself).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupTiming {
    /// Every interval is read (WinQuake's `R_AliasSetupFrame`).
    AllIntervals,
    /// Only the first interval: pose `(int)(time / first) % count`
    /// (GLQuake's and the GL ports' `R_SetupAliasFrame`), so a first
    /// interval of 0 or below gives a pose outside the group.
    FirstInterval,
    /// Only the first interval, 0.1 s in place of one of 0 or below
    /// (FTE's `Q1MDL_LoadFrameGroup`).
    FirstIntervalOrTenth,
}

/// A largest count and what the engine does past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The largest count the engine takes.
    pub max: i64,
    /// What it does with more.
    pub over: Over,
}

const fn fatal(max: i64) -> Option<Limit> {
    Some(Limit {
        max,
        over: Over::Fatal,
    })
}

const fn overflows(max: i64) -> Option<Limit> {
    Some(Limit {
        max,
        over: Over::Overflows,
    })
}

/// The limits of one engine's MDL loader (see [`Engine::mdl_limits`] for
/// where each comes from). `None` is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MdlEngineLimits {
    /// Fewest vertices (`numverts`).
    pub min_vertices: i64,
    /// Most vertices.
    pub max_vertices: Option<Limit>,
    /// Most triangles (fewest: 1 everywhere).
    pub max_triangles: Option<Limit>,
    /// Most entries of the frame list (`numframes`; fewest: 1 everywhere).
    pub max_frames: Option<Limit>,
    /// Most poses: single frames plus every frame of every group.
    pub max_poses: Option<Limit>,
    /// Most skins (fewest: 1 everywhere).
    pub max_skins: Option<Limit>,
    /// Most texture coordinates (Hexen II's `num_st_verts`).
    pub max_texcoords: Option<Limit>,
    /// Tallest skin in pixels.
    pub max_skin_height: Option<Limit>,
    /// Most pixels in a skin image.
    pub max_skin_pixels: Option<Limit>,
    /// Smallest skin width and height (FTE wants 1).
    pub min_skin_size: Option<i32>,
    /// Whether the skin width must be a multiple of 4 (fatal otherwise).
    pub skin_width_multiple_of_4: bool,
    /// Whether the skin's pixel count must be a multiple of 4 (fatal
    /// otherwise; Hexen II waives it for its transparent flags).
    pub skin_pixels_multiple_of_4: bool,
    /// Whether a group interval of 0 or below is fatal.
    pub positive_intervals: bool,
    /// How the engine times frame groups.
    pub frame_group_timing: GroupTiming,
    /// How many images of a skin group the engine keeps (the GL engines
    /// keep 4 and cycle them at 10 per second, ignoring the intervals).
    pub skin_group_images: Option<usize>,
    /// Whether the engine tests the onseam word for the 0x20 bit alone and
    /// takes its other bits as clipping flags (the software renderer).
    pub onseam_bit_only: bool,
    /// What the engine does with a count below its minimum (no vertices,
    /// triangles, frames or skins).
    pub below_minimum: Over,
}

/// id's GLQuake, the base of the GL ports' numbers.
const GLQUAKE: MdlEngineLimits = MdlEngineLimits {
    min_vertices: 1,
    max_vertices: fatal(1024),
    max_triangles: overflows(2048),
    max_frames: None,
    max_poses: overflows(256),
    max_skins: fatal(32),
    max_texcoords: None,
    max_skin_height: fatal(480),
    max_skin_pixels: overflows(640 * 480),
    min_skin_size: None,
    skin_width_multiple_of_4: false,
    skin_pixels_multiple_of_4: true,
    positive_intervals: false,
    frame_group_timing: GroupTiming::FirstInterval,
    skin_group_images: Some(4),
    onseam_bit_only: false,
    below_minimum: Over::Fatal,
};

impl Engine {
    /// What the engine's MDL loader accepts; `None` for an engine that
    /// does not load MDL files (Quake II's) or whose MDL loader is not
    /// profiled (DarkPlaces).
    pub fn mdl_limits(self) -> Option<MdlEngineLimits> {
        Some(match self {
            // WinQuake/model.c, Mod_LoadAliasModel: skinheight >
            // MAX_LBM_HEIGHT (480, d_iface.h), numverts <= 0 or >
            // MAXALIASVERTS (2000, r_local.h: model.c includes it),
            // numtris <= 0, numframes < 1, numskins < 1 and "skinwidth not
            // multiple of 4" are all Sys_Error; Mod_LoadAliasGroup and
            // Mod_LoadAliasSkinGroup stop on an interval <= 0. Frames,
            // skins and triangles are allocated to fit (no upper bound).
            // r_alias.c, R_AliasTransformFinalVert: fv->flags =
            // pstverts->onseam, and d_polyse.c tests it with ALIAS_ONSEAM
            // (0x20): its other bits are the ALIAS_*_CLIP flags (FTE's
            // Mod_LoadQ1Model warns of such a word: "may crash
            // software-rendered engines").
            Engine::Winquake => MdlEngineLimits {
                max_vertices: fatal(2000),
                max_triangles: None,
                max_poses: None,
                max_skins: None,
                max_skin_pixels: None,
                skin_width_multiple_of_4: true,
                skin_pixels_multiple_of_4: false,
                positive_intervals: true,
                frame_group_timing: GroupTiming::AllIntervals,
                skin_group_images: None,
                onseam_bit_only: true,
                ..GLQUAKE
            },
            // WinQuake/gl_model.c, Mod_LoadAliasModel: skinheight >
            // MAX_LBM_HEIGHT (480, glquake.h), numverts <= 0 or >
            // MAXALIASVERTS (1024, gl_model.h), numtris <= 0, numframes <
            // 1 are Sys_Error; numtris is not checked against
            // MAXALIASTRIS (2048) before filling triangles[MAXALIASTRIS],
            // nor the poses against poseverts[MAXALIASFRAMES] (256)
            // (Mod_LoadAliasFrame, Mod_LoadAliasGroup). Mod_LoadAllSkins:
            // numskins 1..=MAX_SKINS (32) or Sys_Error; a group's image j
            // goes to gl_texturenum[i][j&3]. gl_draw.c, GL_Upload8: a
            // pixel count not a multiple of 4 is Sys_Error ("s&3"), and
            // more than 640 × 480 pixels overflow its trans[640*480].
            // Mod_LoadAliasGroup keeps a group's first interval only and
            // gl_rmain.c's R_SetupAliasFrame steps by it (the ports'
            // r_alias.c R_SetupAliasFrame, uHexen2's hexen2/gl_rmain.c, do
            // the same).
            Engine::Glquake => GLQUAKE,
            // Quake/gl_model.c, Mod_LoadAliasModel: numverts 1..=
            // MAXALIASVERTS (2000), numtris 1..=MAXALIASTRIS (4096),
            // numframes >= 1, all Sys_Error; a skin taller than
            // MAX_LBM_HEIGHT is only a developer warning (Con_DWarning).
            // Mod_LoadAliasFrame and Mod_LoadAliasGroup: "posenum >=
            // MAXALIASFRAMES" (1024, gl_model.h) is Sys_Error.
            // Mod_LoadAllSkins: numskins 1..=MAX_SKINS (32), group images
            // at gltextures[i][j&3]. TexMgr takes any size.
            Engine::Quakespasm => MdlEngineLimits {
                max_vertices: fatal(2000),
                max_triangles: fatal(4096),
                max_poses: fatal(1024),
                max_skin_height: None,
                max_skin_pixels: None,
                skin_pixels_multiple_of_4: false,
                ..GLQUAKE
            },
            // quakespasm/Quake/gl_model.c, Mod_LoadAliasModel: numverts
            // <= 0 is Sys_Error, above MAXALIASVERTS (65536, gl_model.h)
            // a warning and the model is not drawn (mod_ext_invalid);
            // numtris >= 1 (Sys_Error), the triangle buffer grows to fit;
            // numframes >= 1 (Sys_Error), above MAXALIASFRAMES (1024) cut
            // to 1024 with a warning, while a pose past 1024 is Sys_Error
            // in Mod_LoadAliasFrame/Mod_LoadAliasGroup. Mod_LoadAllSkins
            // as QuakeSpasm's (1..=32, j&3).
            Engine::QuakespasmSpiked => MdlEngineLimits {
                max_vertices: Some(Limit {
                    max: 65536,
                    over: Over::Refuses,
                }),
                max_triangles: None,
                max_frames: Some(Limit {
                    max: 1024,
                    over: Over::Ignored,
                }),
                max_poses: fatal(1024),
                max_skin_height: None,
                max_skin_pixels: None,
                skin_pixels_multiple_of_4: false,
                ..GLQUAKE
            },
            // Quake/gl_model.c, Mod_LoadAliasModel: numverts 1..=
            // MAXALIASVERTS (0x7fff, gl_model.h: "16-bit index buffer +
            // onseam duplication"), Sys_Error; over MAXALIASVERTS_QS
            // (2000) and MAXALIASTRIS_QS (4096) only a warning with
            // developer or map_checks on; numtris >= 1 (triangles are read
            // in place); poses <= MAXALIASFRAMES (1024) in
            // Mod_LoadAliasFrame/Group. Mod_LoadAllSkins: 1..=MAX_SKINS
            // (32), j&3.
            Engine::Ironwail => MdlEngineLimits {
                max_vertices: fatal(0x7fff),
                max_triangles: None,
                max_poses: fatal(1024),
                max_skin_height: None,
                max_skin_pixels: None,
                skin_pixels_multiple_of_4: false,
                ..GLQUAKE
            },
            // Quake/gl_model.c, Mod_LoadAliasModel: numverts 1..=
            // MAXALIASVERTS (0x7fff, gl_model.h), numtris >= 1 (the
            // buffer grows, check_tris_size), Sys_Error; poses <=
            // MAXALIASFRAMES (2048) in Mod_LoadAliasFrame/Group;
            // Mod_LoadAllSkins 1..=MAX_SKINS (32), j & 3.
            Engine::Vkquake => MdlEngineLimits {
                max_vertices: fatal(0x7fff),
                max_triangles: None,
                max_poses: fatal(2048),
                max_skin_height: None,
                max_skin_pixels: None,
                skin_pixels_multiple_of_4: false,
                ..GLQUAKE
            },
            // engine/common/com_mesh.c, Mod_LoadQ1Model: numframes,
            // numskins, numtris >= 1, numverts >= 3 and a skin of at least
            // 1 × 1, else "has an invalid quantity" and the model is not
            // loaded (Con_Printf); nothing has an upper bound (every array
            // is allocated to fit) and a skin group keeps all its images
            // (Q1MDL_LoadSkins_GL). Q1MDL_LoadFrameGroup times a group by
            // its first interval, 0.1 s if that is not above 0.
            Engine::Fte => MdlEngineLimits {
                min_vertices: 3,
                max_vertices: None,
                max_triangles: None,
                max_poses: None,
                max_skins: None,
                max_skin_height: None,
                max_skin_pixels: None,
                min_skin_size: Some(1),
                skin_pixels_multiple_of_4: false,
                skin_group_images: None,
                frame_group_timing: GroupTiming::FirstIntervalOrTenth,
                below_minimum: Over::Refuses,
                ..GLQUAKE
            },
            // The rerelease's engine is not public. A model beside its MD5
            // must load in the ports that read the pair (Ironwail's and
            // vkQuake's Mod_LoadAliasModel, above), so the strictest of
            // their numbers: 0x7fff vertices, 1024 poses (Ironwail).
            Engine::QuakeRerelease => MdlEngineLimits {
                max_vertices: fatal(0x7fff),
                max_triangles: None,
                max_poses: fatal(1024),
                max_skin_height: None,
                max_skin_pixels: None,
                skin_pixels_multiple_of_4: false,
                ..GLQUAKE
            },
            // engine/h2shared/gl_model.c, Mod_LoadAliasModel and
            // Mod_LoadAliasModelNew: skinheight > MAX_SKIN_HEIGHT (480,
            // glquake.h), numverts <= 0 or > MAXALIASVERTS (2000,
            // gl_model.h), numtris <= 0, numframes < 1 are Sys_Error;
            // triangles[MAXALIASTRIS] (2048), poseverts[MAXALIASFRAMES]
            // (256) and stverts[MAXALIASVERTS] (2000, filled with
            // num_st_verts) are filled unchecked. Mod_LoadAllSkins:
            // 1..=MAX_SKINS (32), j&3. gl_draw.c, GL_Upload8: "s&3" is
            // Sys_Error unless the texture has alpha (the model's
            // EF_TRANSPARENT, EF_HOLEY or EF_SPECIAL_TRANS flag).
            Engine::Hexen2 => MdlEngineLimits {
                max_vertices: fatal(2000),
                max_texcoords: overflows(2000),
                max_skin_pixels: None,
                ..GLQUAKE
            },
            _ => return None,
        })
    }
}

/// uHexen2's `EF_TRANSPARENT | EF_HOLEY | EF_SPECIAL_TRANS` (`gl_model.h`):
/// a skin with one of them is uploaded with alpha, where "s&3" is not
/// checked.
const HEXEN2_ALPHA_FLAGS: i32 = (1 << 12) | (1 << 14) | (1 << 15);

/// The 162 normals every engine's table holds (`NUMVERTEXNORMALS`).
const NORMALS: u8 = 162;

impl Mdl {
    /// Every reason the model would not load, or not display right, in
    /// `engine`, with what the engine does (stops with a fatal error,
    /// does not load the model, overflows an array, ignores the rest). An
    /// empty list means the model loads as it is.
    ///
    /// Damage in a part the engine never reads is a warning; what it
    /// refuses is an error naming the engine. These are the engine's own
    /// rules only: the model's structural problems are `validate`'s.
    ///
    /// ```
    /// use retromodel::mdl::{Engine, Mdl};
    /// let mut mdl = Mdl { num_vertices: 1025, num_triangles: 1, num_frames: 1,
    ///     skin_width: 8, skin_height: 8, skins: vec![retromodel::mdl::Skin::Single(vec![0; 64])],
    ///     version: 6, ..Mdl::default() };
    /// let p = mdl.validate_for(Engine::Glquake);
    /// assert!(p.iter().any(|p| p.path == "header.num_vertices"));
    /// assert!(mdl.validate_for(Engine::Quakespasm).is_empty());
    /// ```
    pub fn validate_for(&self, engine: Engine) -> Vec<Problem> {
        let mut c = Collector::default();
        check_engine(self, engine, &mut c);
        c.finish()
    }
}

/// Offsets of the header's fields (the same in both variants).
mod at {
    pub const VERSION: u64 = 4;
    pub const NUM_SKINS: u64 = 48;
    pub const SKIN_WIDTH: u64 = 52;
    pub const SKIN_HEIGHT: u64 = 56;
    pub const NUM_VERTICES: u64 = 60;
    pub const NUM_TRIANGLES: u64 = 64;
    pub const NUM_FRAMES: u64 = 68;
    pub const NUM_ST_VERTS: u64 = 84;
}

fn check_engine(mdl: &Mdl, engine: Engine, c: &mut Collector) {
    let format = match mdl.variant {
        Variant::Hexen2 => crate::EngineFormat::Hexen2Mdl,
        _ => crate::EngineFormat::Mdl,
    };
    if !engine.loads(format) {
        c.error("format", engine.does_not_load(format), Some(0));
        return;
    }
    // An engine that loads MDL but whose loader is not profiled here
    // (DarkPlaces): only the file itself is checked.
    let Some(l) = engine.mdl_limits() else {
        c.warn(
            "format",
            format!(
                "{} loads {format} files, but its MDL loader's limits are not profiled here: not checked",
                engine.sentence_title()
            ),
            None,
        );
        return;
    };
    let name = engine.title();
    let expected = match mdl.variant {
        Variant::Hexen2 => super::VERSION_HEXEN2,
        _ => super::VERSION_QUAKE,
    };
    if mdl.version != expected {
        // Every Mod_LoadAliasModel: "has wrong version number" (Sys_Error;
        // FTE's Mod_LoadQ1Model refuses it with Con_Printf).
        let over = if engine == Engine::Fte {
            Over::Refuses
        } else {
            Over::Fatal
        };
        c.error(
            "header.version",
            format!(
                "version {} is not {expected}: {name} refuses it ({})",
                mdl.version,
                over.words()
            ),
            Some(at::VERSION),
        );
    }
    let counts = Counts::of(mdl, &l);
    // "1025 vertices exceed GLQuake's limit of 1024 (by 1): it stops ...".
    let mut over = |path: &str, what: &str, n: i64, limit: Option<Limit>, offset: u64| {
        if let Some(limit) = limit.filter(|l| n > l.max) {
            let (subject, verb) = match what {
                "skin height" => (format!("a skin height of {n}"), "exceeds"),
                "skin pixels" => (
                    format!(
                        "a skin of {}×{} = {n} pixels",
                        mdl.skin_width, mdl.skin_height
                    ),
                    "exceeds",
                ),
                _ => (format!("{n} {what}"), "exceed"),
            };
            c.push(
                limit.over.severity(),
                path.to_string(),
                format!(
                    "{subject} {verb} {name}'s limit of {} (by {}): {}",
                    limit.max,
                    n - limit.max,
                    limit.over.words()
                ),
                Some(offset),
            );
        }
    };
    over(
        "header.num_vertices",
        "vertices",
        counts.vertices,
        l.max_vertices,
        at::NUM_VERTICES,
    );
    over(
        "header.num_triangles",
        "triangles",
        counts.triangles,
        l.max_triangles,
        at::NUM_TRIANGLES,
    );
    over(
        "header.num_frames",
        "frames",
        counts.frames,
        l.max_frames,
        at::NUM_FRAMES,
    );
    over(
        "frames",
        "poses (single frames and the frames of every group)",
        counts.poses,
        l.max_poses,
        at::NUM_FRAMES,
    );
    over(
        "header.num_skins",
        "skins",
        counts.skins,
        l.max_skins,
        at::NUM_SKINS,
    );
    if mdl.variant == Variant::Hexen2 {
        over(
            "header.num_st_verts",
            "texture coordinates",
            mdl.texcoords.len() as i64,
            l.max_texcoords,
            at::NUM_ST_VERTS,
        );
    }
    over(
        "header.skin_height",
        "skin height",
        i64::from(mdl.skin_height),
        l.max_skin_height,
        at::SKIN_HEIGHT,
    );
    let pixels = i64::from(mdl.skin_width) * i64::from(mdl.skin_height);
    if counts.skins > 0 {
        over(
            "header.skin_width",
            "skin pixels",
            pixels,
            l.max_skin_pixels,
            at::SKIN_WIDTH,
        );
    }
    let under = l.below_minimum;
    let mut below = |path: &str, what: &str, n: i64, min: i64, offset: u64| {
        if n < min {
            c.error(
                path,
                format!("{n} {what}: {name} needs at least {min}: {}", under.words()),
                Some(offset),
            );
        }
    };
    below(
        "header.num_vertices",
        "vertices",
        counts.vertices,
        l.min_vertices,
        at::NUM_VERTICES,
    );
    below(
        "header.num_triangles",
        "triangles",
        counts.triangles,
        1,
        at::NUM_TRIANGLES,
    );
    below(
        "header.num_frames",
        "frames",
        counts.frames,
        1,
        at::NUM_FRAMES,
    );
    below("header.num_skins", "skins", counts.skins, 1, at::NUM_SKINS);
    if let Some(min) = l.min_skin_size {
        if mdl.skin_width < min || mdl.skin_height < min {
            c.error(
                "header.skin_width",
                format!(
                    "skin size {}×{}: {name} needs at least {min}×{min}: {}",
                    mdl.skin_width,
                    mdl.skin_height,
                    under.words()
                ),
                Some(at::SKIN_WIDTH),
            );
        }
    }
    check_skin_rules(mdl, engine, &l, pixels, counts.skins, c);
    check_groups(mdl, engine, &l, c);
    check_vertices(mdl, engine, &l, c);
}

/// The counts an engine reads: the header's, and the skins and poses the
/// lists hold.
struct Counts {
    vertices: i64,
    triangles: i64,
    frames: i64,
    poses: i64,
    skins: i64,
}

impl Counts {
    /// The counts of `mdl` as an engine with limits `l` loads it: where
    /// it ignores frames past its limit (QuakeSpasm-Spiked), the poses of
    /// the frames it keeps.
    fn of(mdl: &Mdl, l: &MdlEngineLimits) -> Counts {
        let kept = match l.max_frames {
            Some(Limit {
                max,
                over: Over::Ignored,
            }) => usize::try_from(max).unwrap_or(usize::MAX),
            _ => usize::MAX,
        };
        let poses: usize = (mdl.frames.iter().take(kept))
            .map(|f| match f {
                Frame::Single(_) => 1,
                Frame::Group { group, .. } => group.frames.len(),
            })
            .sum();
        Counts {
            vertices: i64::from(mdl.num_vertices),
            triangles: i64::from(mdl.num_triangles),
            frames: i64::from(mdl.num_frames),
            poses: poses as i64,
            skins: mdl.skins.len() as i64,
        }
    }
}

fn check_skin_rules(
    mdl: &Mdl,
    engine: Engine,
    l: &MdlEngineLimits,
    pixels: i64,
    skins: i64,
    c: &mut Collector,
) {
    let name = engine.title();
    if l.skin_width_multiple_of_4 && mdl.skin_width % 4 != 0 {
        // WinQuake/model.c, Mod_LoadAliasModel.
        c.error(
            "header.skin_width",
            format!(
                "skin width {} is not a multiple of 4: {name} stops with a fatal error (\"skinwidth not multiple of 4\")",
                mdl.skin_width
            ),
            Some(at::SKIN_WIDTH),
        );
    }
    let waived = engine == Engine::Hexen2 && mdl.flags & HEXEN2_ALPHA_FLAGS != 0;
    if l.skin_pixels_multiple_of_4 && skins > 0 && pixels % 4 != 0 && !waived {
        // GL_Upload8 ("s&3") in GLQuake's and uHexen2's gl_draw.c.
        c.error(
            "header.skin_width",
            format!(
                "the skin's {}×{} = {pixels} pixels are not a multiple of 4: {name} stops with a fatal error uploading it (\"s&3\")",
                mdl.skin_width, mdl.skin_height
            ),
            Some(at::SKIN_WIDTH),
        );
    }
}

fn check_groups(mdl: &Mdl, engine: Engine, l: &MdlEngineLimits, c: &mut Collector) {
    let name = engine.title();
    for (i, skin) in mdl.skins.iter().enumerate() {
        let Skin::Group {
            intervals, images, ..
        } = skin
        else {
            continue;
        };
        if let Some(keep) = l.skin_group_images.filter(|&k| images.len() > k) {
            c.warn(
                format!("skins[{i}]"),
                format!(
                    "a skin group of {} images: {name} keeps {keep} (image j in slot j mod {keep}, later ones over earlier) and cycles them 10 times a second, whatever the intervals",
                    images.len()
                ),
                None,
            );
        }
        if l.positive_intervals {
            if let Some(k) = intervals.iter().position(|&t| t.is_nan() || t <= 0.0) {
                c.error(
                    format!("skins[{i}].intervals[{k}]"),
                    format!("interval {} is not above 0: {name} stops with a fatal error (\"Mod_LoadAliasSkinGroup: interval<=0\")", intervals[k]),
                    None,
                );
            }
        }
    }
    for (i, frame) in mdl.frames.iter().enumerate() {
        let Frame::Group { group, .. } = frame else {
            continue;
        };
        if group.frames.len() > 1 {
            check_group_timing(&group.intervals, i, engine, l.frame_group_timing, c);
        }
    }
    if l.positive_intervals {
        for (i, frame) in mdl.frames.iter().enumerate() {
            let Frame::Group { group, .. } = frame else {
                continue;
            };
            if let Some(k) = group.intervals.iter().position(|&t| t.is_nan() || t <= 0.0) {
                c.error(
                    format!("frames[{i}].intervals[{k}]"),
                    format!("interval {} is not above 0: {name} stops with a fatal error (\"Mod_LoadAliasGroup: interval<=0\")", group.intervals[k]),
                    None,
                );
            }
        }
    }
}

/// A frame group timed by its first interval alone.
fn check_group_timing(
    intervals: &[f32],
    i: usize,
    engine: Engine,
    timing: GroupTiming,
    c: &mut Collector,
) {
    let name = engine.title();
    if timing == GroupTiming::AllIntervals {
        return;
    }
    let Some(&first) = intervals.first() else {
        return;
    };
    let path = format!("frames[{i}].intervals[0]");
    if first.is_nan() || first <= 0.0 {
        if timing == GroupTiming::FirstInterval {
            c.error(
                path,
                format!("the group's first interval is {first}: {name} steps through the group by it, so it divides by it and draws a pose outside the group (garbage or a crash)"),
                None,
            );
        } else {
            c.warn(
                path,
                format!("the group's first interval is {first}: {name} plays the group at 10 frames a second instead"),
                None,
            );
        }
        return;
    }
    let uneven = intervals.iter().enumerate().skip(1).any(|(k, &t)| {
        let steady = first * (k + 1) as f32;
        let close = (t - steady).abs() <= 1e-3 * steady.abs().max(1e-6);
        t.is_nan() || !close
    });
    if uneven {
        c.warn(
            format!("frames[{i}].intervals"),
            format!("the group's intervals are not steady steps of its first ({first} s): {name} plays every frame for {first} s, ignoring the others"),
            None,
        );
    }
}

fn check_vertices(mdl: &Mdl, engine: Engine, l: &MdlEngineLimits, c: &mut Collector) {
    let name = engine.title();
    if l.onseam_bit_only {
        // r_alias.c copies the word into the vertex's clip flags.
        let odd: Vec<usize> = (mdl.texcoords.iter().enumerate())
            .filter(|(_, t)| t.onseam != 0 && t.onseam != ONSEAM)
            .map(|(k, _)| k)
            .collect();
        if let Some(&first) = odd.first() {
            c.error(
                format!("texcoords[{first}].onseam"),
                format!(
                    "{} vertices have an onseam word other than 0 and 0x20 (the first: {}): {name} tests only its 0x20 bit for the seam and takes the others as clipping flags, so the seam is wrong and the clipper may crash",
                    odd.len(),
                    mdl.texcoords[first].onseam
                ),
                None,
            );
        }
    }
    // Every engine indexes its 162-entry r_avertexnormals (FTE's
    // com_mesh.c Q1MDL_LoadFrameGroup too) without a check.
    let mut bad = 0usize;
    let mut first = None;
    for (f, frame) in mdl.simple_frames().enumerate() {
        for (v, vertex) in frame.vertices.iter().enumerate() {
            if vertex.normal_index >= NORMALS {
                bad += 1;
                first.get_or_insert((f, v, vertex.normal_index));
            }
        }
    }
    if let Some((f, v, n)) = first {
        c.warn(
            format!("frames[{f}].vertices[{v}].normal_index"),
            format!(
                "{bad} vertices have a normal index of 162 or more (the first: {n}): {name} reads past its table of 162 normals, so they are lit wrong"
            ),
            None,
        );
    }
}
