//! What each engine's IQM loader does with a model: [`Iqm::validate_for`]
//! ("will this load in that engine, and will it read it right?").
//!
//! Every rule is taken from the engine's own loader, cited by file and
//! function (no code is copied: these are facts about what each loader
//! checks). Read: ioquake3 5956299e (2026-03-09), the Daemon engine
//! b276137b (2026-07-20), fteqw 93257c1a (2026-01-05), QuakeSpasm-Spiked
//! (Shpoike's, as alexey-lysiuk's fork 1aabcb0d carries it; its IQM loader
//! is unchanged since c4893638), DarkPlaces 2f25af65 (2024-08-07), GZDoom
//! 092b9c05 (2025-11-17) and raylib abe23bf8 (2026-08-21).
//!
//! An **error** is what the engine refuses (the model is not loaded) or
//! what stops it (a fatal error, named as such: QuakeSpasm-Spiked's
//! `Sys_Error`, DarkPlaces' `Host_Error`, GZDoom's `I_FatalError`), or a
//! write past the engine's own storage. A **warning** is what it loads
//! but reads wrong, ignores or drops (QuakeSpasm-Spiked ignores the loop
//! flag; raylib ignores the frame rate; FTE makes a joint whose parent
//! comes after it a root).
//!
//! The library's reader already refuses what every engine refuses or
//! reads out of bounds (a section outside the file, version 1), so the
//! section checks below are those a model read here can still fail: the
//! header's `filesize`, zero counts, and indices inside sections.
//!
//! - **ioquake3** (`code/renderergl1/tr_model_iqm.c`, `R_LoadIQM`, picked
//!   by `R_RegisterIQM` for a name ending `.iqm`): refuses (returns
//!   `qfalse`) a header `filesize` past the file or past 16 MiB; more
//!   than `IQM_MAX_JOINTS` (128, `code/renderercommon/iqm.h`) joints; with
//!   meshes, no vertex array, vertex or triangle (`IQM_CheckRange` fails
//!   on a count of 0), an array of size 0 or over 4, of a format other
//!   than byte, ubyte, int, uint or float, a position or normal not float
//!   × 3, a tangent not float × 4, a texcoord not float × 2, blend indexes
//!   not (int or ubyte) × 4, blend weights not (float or ubyte) × 4, a
//!   colour not ubyte × 4; a missing position, normal or texcoord; blend
//!   arrays missing when there are joints; a triangle index greater than
//!   `num_vertexes` (equal passes: one past is read); a mesh of
//!   `SHADER_MAX_VERTEXES` (1000, `code/qcommon/qfiles.h`) vertices or
//!   more, or of `SHADER_MAX_INDEXES` (6000) indices or more; a mesh whose
//!   ranges or names fall outside; poses neither 0 nor the joints' count;
//!   a joint parent below −1 or not a joint, or a name outside the text;
//!   bounds (`ofs_bounds` set) with no frame; and every section whose
//!   end is past the header's `filesize`. It reads no animation (frames
//!   are played by number), and misreads int blend indexes as bytes. The
//!   `opengl2` renderer (`code/renderergl2/tr_model_iqm.c`) also refuses a
//!   model without a tangent array: a warning here (the default renderer
//!   is `opengl1`).
//! - **The Daemon engine** (`src/engine/renderer/tr_model_iqm.cpp`,
//!   `LoadIQMFile` and `R_LoadIQModel`): refuses what ioquake3 refuses
//!   about the header's `filesize`, array sizes, formats and the ranges of
//!   meshes, triangles and joints, with no joint or per-mesh limit; also
//!   a file without a mesh, a vertex array, a vertex or a triangle (each
//!   range check is unconditional: animation-only files are refused),
//!   blend indexes or weights other than ubyte × 4, a joint whose parent
//!   is not an earlier joint, a joint or decoded pose scale that is
//!   negative or not uniform (`(int)` of two components' difference not
//!   0), and an animation with no frames. More poses than joints write
//!   past its pose storage (unchecked). It rewrites the first blend weight
//!   as 255 minus the others; a skeleton of more than `MAX_BONES` (256,
//!   `tr_types.h`) fails to animate (`tr_animation.cpp`,
//!   `IQMCheckSkeleton`).
//! - **FTE** (`engine/common/com_mesh.c`, `Mod_ParseIQMMeshModel`):
//!   refuses a header `filesize` other than the file's; vertices without
//!   position or texcoord; an animated or jointed model with meshes but
//!   no blend arrays; more than `MAX_BONES` (256, `engine/gl/gl_model.h`)
//!   joints or poses; joints and poses both present in different counts;
//!   blend weights without joints; frames without poses. It loads, with a
//!   console warning or silently: a joint whose parent is not an earlier
//!   joint (made a root), frame channels other than the poses' masks take
//!   (the poses are not decoded), a triangle whose index relative to its
//!   mesh is past 65535 (dropped: FTE's own build, `config_fteqw.h`, uses
//!   16-bit indices), blend indexes not below the joints (set to 0),
//!   weights not summing to 1 (renormalised), an animation past the frames
//!   (clamped) or with no frame rate (10 used).
//! - **QuakeSpasm-Spiked** (`Quake/gl_mesh.c`, `Mod_LoadIQMModel`) stops
//!   (`Sys_Error`) on a file without a mesh and on more than 65535
//!   vertices (16-bit indices). It drops the skeleton and animation when
//!   poses and joints differ in count, overflows a 256-entry stack array
//!   past 256 joints (unchecked), ignores `IQM_LOOP` (a `FIXME`), plays an
//!   animation of frame rate 0 at 20, skips an array of a size other than
//!   the expected one, uses the header's flags as Quake model flags, and
//!   skins on the GPU only up to 64 bones (`Quake/r_alias.c`, `MAXBONES`).
//! - **DarkPlaces** (`model_alias.c`, `Mod_INTERQUAKEMODEL_Load`) ends the
//!   game session (`Host_Error`) on a joint whose parent is not an earlier
//!   joint, and leaves the model empty ("missing vertex array data") when
//!   vertices lack a float × 3 position or float × 2 texcoord, or, with
//!   frames or animations, ubyte × 4 blend arrays. It skips arrays of
//!   other formats, sets triangle indices out of range to 0
//!   (`Mod_ValidateElements`), ignores joint and pose scale, and writes
//!   past its pose storage with more poses than joints (unchecked).
//!   Animations can be replaced by a `.framegroups` file
//!   ([`Iqm::apply_framegroups`]).
//! - **GZDoom** (`src/common/models/models_iqm.cpp`, `IQMModel::Load`,
//!   `IQMModel::LoadGeometry`) refuses an empty text, a name outside the
//!   text, and an adjacency or bounds block (always read, from offset 0
//!   when absent) that runs past the file; it stops (`I_FatalError`) on a
//!   joint whose parent is not an earlier joint and on a position,
//!   texcoord or normal not float × 3/2/3, blend indexes not (ubyte or
//!   int) × 4, blend weights not (ubyte or float) × 4. It reads the
//!   animation as if poses and joints were as many, and keeps 8 bits of an
//!   int blend index.
//! - **raylib** (`src/rmodels.c`, `LoadIQM`, `LoadModelAnimationsIQM`)
//!   checks only the magic and version. It reads every array as the
//!   portable format whatever the file says, copies names into 32-byte
//!   buffers (32 bytes or more: no terminating NUL), keeps 16-bit indices
//!   relative to each mesh, skips a joint whose parent comes after it
//!   (`BuildPoseFromParentJoints`), ignores the frame rate and the loop
//!   flag, reads frames assuming `num_framechannels` is the masks' sum, and
//!   pairs an animation with a model only when poses and joints are as
//!   many (`IsModelAnimationValid`).

use super::read::field_offset;
use super::{ArrayFormat, ArrayKind, Iqm, LOOP};
use super::{JOINT_SIZE, MESH_SIZE, TRIANGLE_SIZE, VERTEX_ARRAY_SIZE};
use crate::engine::{Engine, EngineFormat};
use crate::problem::{Collector, Problem, Severity};

mod loaders;
mod ports;

/// `IQM_MAX_JOINTS` (ioquake3 `code/renderercommon/iqm.h`).
pub const IOQUAKE3_MAX_JOINTS: usize = 128;
/// `SHADER_MAX_VERTEXES` (ioquake3 `code/qcommon/qfiles.h`): a mesh of
/// this many vertices or more is refused.
pub const SHADER_MAX_VERTEXES: u64 = 1000;
/// `SHADER_MAX_INDEXES` (`6 * SHADER_MAX_VERTEXES`): a mesh of this many
/// indices (three a triangle) or more is refused.
pub const SHADER_MAX_INDEXES: u64 = 6000;
/// The largest header `filesize` ioquake3's `R_LoadIQM` and the Daemon
/// engine's `LoadIQMFile` accept (16 MiB).
pub const MAX_FILESIZE: u64 = 16 << 20;
/// `MAX_BONES` of FTE (`engine/gl/gl_model.h`) and of the Daemon engine
/// (`src/engine/renderer/tr_types.h`); QuakeSpasm-Spiked's stack array
/// `basepose[256]` in `Mod_LoadIQMModel`.
pub const MAX_BONES: usize = 256;
/// The most vertices QuakeSpasm-Spiked's `Mod_LoadIQMModel` takes
/// (`num_vertexes > 0xffff` stops it).
pub const QSS_MAX_VERTEXES: u64 = 0xffff;
/// `MAXBONES` of QuakeSpasm-Spiked's GPU skinning (`Quake/r_alias.c`).
pub const QSS_GPU_BONES: usize = 64;
/// The largest index relative to its mesh that 16 bits keep (FTE's
/// `MAX_INDICIES` in 16-bit builds, raylib's `unsigned short` indices).
pub const MAX_RELATIVE_INDEX: u64 = 0xffff;
/// raylib's name buffers (`MESH_NAME_LENGTH`, `MATERIAL_NAME_LENGTH`,
/// `BONE_NAME_LENGTH`): 32 bytes copied, so a name must be at most 31.
pub const RAYLIB_NAME_BYTES: usize = 32;

impl Iqm {
    /// The problems `engine`'s IQM loader has with the model: an error for
    /// what it refuses or stops on (the message says which), a warning
    /// for what it loads but reads wrong or drops. One error when the
    /// engine loads no IQM.
    ///
    /// ```
    /// use retromodel::Engine;
    /// let mut model = retromodel::iqm::sample::sample_model();
    /// assert!(model.validate_for(Engine::Ioquake3).iter().all(|p| p.severity
    ///     == retromodel::Severity::Warning));
    /// model.meshes[0].num_vertexes = 1000;
    /// let p = model.validate_for(Engine::Ioquake3);
    /// assert!(p.iter().any(|p| p.path == "meshes[0].num_vertexes"));
    /// ```
    pub fn validate_for(&self, engine: Engine) -> Vec<Problem> {
        let mut k = Check::new(self, engine);
        match engine {
            Engine::Ioquake3 => loaders::ioquake3(&mut k),
            Engine::Daemon => loaders::daemon(&mut k),
            Engine::Fte => loaders::fte(&mut k),
            Engine::QuakespasmSpiked => ports::quakespasm_spiked(&mut k),
            Engine::Darkplaces => ports::darkplaces(&mut k),
            Engine::Gzdoom => ports::gzdoom(&mut k),
            Engine::Raylib => ports::raylib(&mut k),
            _ => {
                k.c.error("format", engine.does_not_load(EngineFormat::Iqm), None)
            }
        }
        k.c.finish()
    }
}

/// What a loader does past one of its checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The model is not loaded; the engine goes on.
    Refuses,
    /// The engine (or the game session) stops.
    Fatal(&'static str),
    /// The loader writes past its own storage (unchecked).
    Overflows,
}

/// One engine's check of one model: the model, the collector, and the
/// words for what the engine does.
pub(super) struct Check<'a> {
    pub(super) m: &'a Iqm,
    pub(super) engine: Engine,
    pub(super) c: Collector,
    /// Whether the model was read from a file (offsets are known).
    pub(super) read: bool,
}

impl<'a> Check<'a> {
    fn new(m: &'a Iqm, engine: Engine) -> Self {
        Check {
            m,
            engine,
            c: Collector::default(),
            read: m.header.file_len > 0,
        }
    }

    /// The engine's words for `outcome`.
    fn words(&self, outcome: Outcome) -> String {
        let name = self.engine.sentence_title();
        match outcome {
            Outcome::Refuses => format!("{name} does not load the model"),
            Outcome::Fatal(how) => format!("{name} stops with a fatal error ({how})"),
            Outcome::Overflows => {
                format!("{name} writes past its own storage (unchecked: it may crash)")
            }
        }
    }

    /// An error: `what`, then what the engine does.
    pub(super) fn fail(&mut self, outcome: Outcome, path: &str, what: &str, at: Option<u64>) {
        let words = self.words(outcome);
        self.c.error(path, format!("{what}: {words}"), at);
    }

    /// A warning: `what`, then what the engine does instead.
    pub(super) fn warn(&mut self, path: &str, what: &str, at: Option<u64>) {
        self.c.warn(path, what, at);
    }

    /// The offset of header field `name`, for a model read from a file.
    pub(super) fn field(&self, name: &str) -> Option<u64> {
        self.read.then(|| field_offset(name))
    }

    /// The offset of byte `within` of record `i` (of `size` bytes) of
    /// the section whose offset is `Header::offsets[section]`.
    pub(super) fn record(
        &self,
        section: usize,
        i: usize,
        size: usize,
        within: usize,
    ) -> Option<u64> {
        self.read
            .then(|| u64::from(self.m.header.offsets[section]) + (i * size + within) as u64)
    }

    /// The offset of mesh `i`'s field at `within`.
    pub(super) fn mesh_at(&self, i: usize, within: usize) -> Option<u64> {
        self.record(1, i, MESH_SIZE, within)
    }

    /// The offset of vertex array record `i`'s field at `within`.
    pub(super) fn array_at(&self, i: usize, within: usize) -> Option<u64> {
        self.record(2, i, VERTEX_ARRAY_SIZE, within)
    }

    /// The offset of triangle `i`.
    pub(super) fn triangle_at(&self, i: usize) -> Option<u64> {
        self.record(3, i, TRIANGLE_SIZE, 0)
    }

    /// The offset of joint `i`'s field at `within`.
    pub(super) fn joint_at(&self, i: usize, within: usize) -> Option<u64> {
        self.record(5, i, JOINT_SIZE, within)
    }

    /// The number of bytes of text (`num_text`).
    pub(super) fn num_text(&self) -> u64 {
        self.m.text.len() as u64
    }

    /// Whether the model has an array of `kind` for which `accepts`
    /// holds (format, size).
    pub(super) fn has(
        &self,
        kind: ArrayKind,
        accepts: impl Fn(Option<ArrayFormat>, u32) -> bool,
    ) -> bool {
        self.m
            .vertex_arrays
            .iter()
            .any(|a| ArrayKind::of(a.kind) == kind && accepts(a.array_format(), a.size))
    }

    /// The header's `filesize` against the file's length and a cap, as
    /// ioquake3's `R_LoadIQM` and the Daemon engine's `LoadIQMFile` check
    /// it (`filesize > real || filesize > 16 MiB` refuses).
    pub(super) fn filesize_within(&mut self, outcome: Outcome) {
        if !self.read {
            return;
        }
        let (declared, real) = (u64::from(self.m.header.filesize), self.m.header.file_len);
        let at = self.field("filesize");
        if declared > real {
            self.fail(
                outcome,
                "filesize",
                &format!("the header says {declared} bytes but the file is {real}"),
                at,
            );
        } else if declared > MAX_FILESIZE {
            self.fail(
                outcome,
                "filesize",
                &format!("{declared} bytes, more than {MAX_FILESIZE} (16 MiB)"),
                at,
            );
        }
    }

    /// Every array's size (1..=4) and format (byte, ubyte, int, uint or
    /// float), as ioquake3 and the Daemon engine check them.
    pub(super) fn q3_array_formats(&mut self, outcome: Outcome) {
        for (i, a) in self.m.vertex_arrays.iter().enumerate() {
            if a.size == 0 || a.size > 4 {
                let at = self.array_at(i, 12);
                self.fail(
                    outcome,
                    &format!("vertexarrays[{i}].size"),
                    &format!("{} components (1 to 4 are read)", a.size),
                    at,
                );
            }
            let f = a.array_format();
            let readable = matches!(
                f,
                Some(
                    ArrayFormat::Byte
                        | ArrayFormat::Ubyte
                        | ArrayFormat::Int
                        | ArrayFormat::Uint
                        | ArrayFormat::Float
                )
            );
            if !readable {
                let at = self.array_at(i, 8);
                let name = f.map_or("an undefined format", ArrayFormat::name);
                self.fail(
                    outcome,
                    &format!("vertexarrays[{i}].format"),
                    &format!(
                        "{} in {name} (only byte, ubyte, int, uint and float are read)",
                        self.m.array_name(a)
                    ),
                    at,
                );
            }
        }
    }

    /// Each standard array's format and size against `accepts(kind)`:
    /// the combinations the loader takes (an empty list: any). Past them,
    /// `outcome` (an error) or, with `None`, a warning ending `then`.
    pub(super) fn array_kinds(
        &mut self,
        accepts: impl Fn(ArrayKind) -> &'static [(ArrayFormat, u32)],
        outcome: Option<Outcome>,
        then: &str,
    ) {
        for (i, a) in self.m.vertex_arrays.iter().enumerate() {
            let kind = ArrayKind::of(a.kind);
            let allowed = accepts(kind);
            let ok = a
                .array_format()
                .is_some_and(|f| allowed.iter().any(|&(af, s)| af == f && s == a.size));
            if allowed.is_empty() || ok {
                continue;
            }
            let list: Vec<String> = allowed
                .iter()
                .map(|(f, s)| format!("{} × {s}", f.name()))
                .collect();
            let what = format!(
                "{kind} in {} × {} (only {} is read)",
                a.array_format()
                    .map_or("an undefined format", ArrayFormat::name),
                a.size,
                list.join(" or ")
            );
            let path = format!("vertexarrays[{i}].format");
            let at = self.array_at(i, 8);
            match outcome {
                Some(o) => self.fail(o, &path, &what, at),
                None => self.c.warn(path, format!("{what}: {then}"), at),
            }
        }
    }

    /// Triangle indices against `num_vertexes` as ioquake3 and the Daemon
    /// engine check them: greater refuses, equal passes and reads one past.
    pub(super) fn q3_triangle_indices(&mut self, outcome: Outcome) {
        let nv = u64::from(self.m.num_vertexes);
        for (i, t) in self.m.triangles.iter().enumerate() {
            let worst = t.iter().map(|&v| u64::from(v)).max().unwrap_or(0);
            let at = self.triangle_at(i);
            let path = format!("triangles[{i}]");
            if worst > nv {
                self.fail(
                    outcome,
                    &path,
                    &format!("vertex {worst} past the {nv} vertices"),
                    at,
                );
            } else if worst == nv {
                let name = self.engine.sentence_title();
                self.warn(
                    &path,
                    &format!(
                        "vertex {worst} is one past the last: {name}'s check (index > num_vertexes) lets it through and reads past the vertices"
                    ),
                    at,
                );
            }
        }
    }

    /// Each mesh's ranges and names, as ioquake3 and the Daemon engine
    /// check them: a first vertex or triangle not below the total, a run
    /// past it, a name or material not below `num_text`.
    pub(super) fn q3_mesh_ranges(&mut self, outcome: Outcome) {
        let (nv, nt, text) = (
            u64::from(self.m.num_vertexes),
            self.m.triangles.len() as u64,
            self.num_text(),
        );
        for (i, m) in self.m.meshes.iter().enumerate() {
            let (fv, n) = (u64::from(m.first_vertex), u64::from(m.num_vertexes));
            let (ft, t) = (u64::from(m.first_triangle), u64::from(m.num_triangles));
            let fault = if fv >= nv || fv + n > nv {
                Some((
                    "num_vertexes",
                    12,
                    format!("vertices {fv}..{} of {nv}", fv + n),
                ))
            } else if ft >= nt || ft + t > nt {
                Some((
                    "num_triangles",
                    20,
                    format!("triangles {ft}..{} of {nt}", ft + t),
                ))
            } else if u64::from(m.name) >= text {
                Some((
                    "name",
                    0,
                    format!("name at {} outside the {text} bytes of text", m.name),
                ))
            } else if u64::from(m.material) >= text {
                Some((
                    "material",
                    4,
                    format!(
                        "material at {} outside the {text} bytes of text",
                        m.material
                    ),
                ))
            } else {
                None
            };
            if let Some((field, within, what)) = fault {
                let at = self.mesh_at(i, within);
                self.fail(outcome, &format!("meshes[{i}].{field}"), &what, at);
            }
        }
    }

    /// Each joint's parent (−1 or a joint) and name (in the text), as
    /// ioquake3 and the Daemon engine check them.
    pub(super) fn q3_joints(&mut self, outcome: Outcome) {
        let (nj, text) = (self.m.joints.len() as i64, self.num_text());
        for (i, j) in self.m.joints.iter().enumerate() {
            let parent = i64::from(j.parent);
            if parent < -1 || parent >= nj {
                let at = self.joint_at(i, 4);
                self.fail(
                    outcome,
                    &format!("joints[{i}].parent"),
                    &format!("parent {parent} is not one of the {nj} joints"),
                    at,
                );
            } else if u64::from(j.name) >= text {
                let at = self.joint_at(i, 0);
                self.fail(
                    outcome,
                    &format!("joints[{i}].name"),
                    &format!("name at {} outside the {text} bytes of text", j.name),
                    at,
                );
            }
        }
    }

    /// Joints whose parent is not an earlier joint (`parent >= i`), with
    /// what the engine does with each.
    pub(super) fn later_parents(&mut self, severity: Severity, then: &str) {
        for (i, j) in self.m.joints.iter().enumerate() {
            if j.parent >= 0 && j.parent as usize >= i {
                let at = self.joint_at(i, 4);
                let path = format!("joints[{i}].parent");
                let what = format!("parent {} is not an earlier joint: {then}", j.parent);
                self.c.push(severity, path, what, at);
            }
        }
    }

    /// The sum of set mask bits over the poses: what a frame holds.
    pub(super) fn mask_channels(&self) -> u64 {
        self.m
            .poses
            .iter()
            .map(|p| u64::from(p.channel_count()))
            .sum()
    }

    /// Whether any animation is marked to loop.
    pub(super) fn loop_counts(&self) -> (usize, usize) {
        let looping = self.m.anims.iter().filter(|a| a.flags & LOOP != 0).count();
        (looping, self.m.anims.len() - looping)
    }
}
