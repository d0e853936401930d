//! An MD2 as GZDoom loads it (`src/common/models/models_md2.cpp`, read at
//! g4.15pre-645; unchanged but for comments since g4.8.0): what refuses
//! the model, and what it reads without a check (a crash or a misdrawn
//! model, warned about here).

use crate::problem::{Collector, Problem};

/// `avertexnormals[162]`, which `FMD2Model::LoadGeometry` indexes with a
/// vertex's `lightnormalindex` unchecked.
const NORMALS: usize = 162;

fn i32_at(data: &[u8], at: usize) -> Option<i64> {
    data.get(at..at + 4)
        .map(|b| i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])))
}

fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    data.get(at..at + 2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
}

/// Every problem GZDoom has with the MD2 file `data`.
///
/// Refusals (errors; GZDoom prints a message and does not draw the
/// model): a file shorter than its header, or too short for its frames
/// (`FMD2Model::Load`: `offsetFrames + frameSize * numFrames > fileLength`,
/// "file too short"), and a GL-command count of 0 or less (`Load`: "invalid
/// NumGLCommands"). The magic is all it checks besides; the version is
/// not read.
///
/// Warnings, read unchecked in `FMD2Model::LoadGeometry` and
/// `FDMDModel::BuildVertexBuffer`: skin, texcoord or triangle sections past
/// the file's end, triangle indices past the vertex or texcoord counts,
/// normal indices of 162 and more, a skin width or height of 0 (texcoords
/// are divided by them), a frame size below `40 + 4 × vertices`, frame
/// names with no NUL in their 16 bytes (compared with `stricmp` by
/// `FDMDModel::FindFrame`), no frames, and no skin (nothing is drawn
/// unless MODELDEF gives one).
///
/// ```
/// use retromodel::md2::{gzdoom_problems, sample::sample_model};
/// let mut bytes = sample_model().to_bytes().unwrap();
/// assert!(gzdoom_problems(&bytes).is_empty());
/// bytes[36..40].copy_from_slice(&0i32.to_le_bytes()); // num_glcmds
/// assert_eq!(gzdoom_problems(&bytes)[0].path, "header.num_gl_commands");
/// ```
pub fn gzdoom_problems(data: &[u8]) -> Vec<Problem> {
    let mut c = Collector::default();
    let field = |i: usize| i32_at(data, 8 + 4 * i).unwrap_or(0);
    if data.len() < super::HEADER_SIZE {
        c.error(
            "header",
            format!(
                "{} bytes: shorter than the 68-byte header GZDoom reads",
                data.len()
            ),
            Some(0),
        );
        return c.finish();
    }
    let (skin_w, skin_h, frame_size) = (field(0), field(1), field(2));
    let (skins, verts, sts, tris, glcmds, frames) =
        (field(3), field(4), field(5), field(6), field(7), field(8));
    let (ofs_skins, ofs_st, ofs_tris, ofs_frames) = (field(9), field(10), field(11), field(12));
    let len = data.len() as i64;
    // FMD2Model::Load: the one bounds check.
    if ofs_frames + frame_size * frames > len {
        c.error(
            "header.num_frames",
            format!(
                "{frames} frames of {frame_size} bytes from offset {ofs_frames} end past the file's {len} bytes: GZDoom refuses the model (\"file too short\")"
            ),
            Some(8 + 4 * 8),
        );
    }
    // FMD2Model::Load: "invalid NumGLCommands".
    if glcmds <= 0 {
        c.error(
            "header.num_gl_commands",
            format!("{glcmds} GL commands: GZDoom refuses a model without them (\"invalid NumGLCommands\"), though it draws from the triangles"),
            Some(8 + 4 * 7),
        );
    }
    for (name, value, at) in [
        ("num_skins", skins, 3),
        ("num_vertices", verts, 4),
        ("num_texcoords", sts, 5),
        ("num_triangles", tris, 6),
        ("num_frames", frames, 8),
    ] {
        if value < 0 {
            c.warn(
                format!("header.{name}"),
                format!("{value}: a negative count, which GZDoom does not check"),
                Some(8 + 4 * at),
            );
        }
    }
    // LoadGeometry: skins, texcoords and triangles are read where the
    // header says, unchecked.
    for (name, ofs, count, size) in [
        ("skins", ofs_skins, skins, 64),
        ("texcoords", ofs_st, sts, 4),
        ("triangles", ofs_tris, tris, 12),
    ] {
        if count > 0 && (ofs < 0 || ofs + count * size > len) {
            c.warn(
                name,
                format!("{count} {name} from offset {ofs} end past the file's {len} bytes: GZDoom reads them unchecked (a crash or garbage)"),
                Some(ofs.max(0) as u64),
            );
        }
    }
    if skin_w == 0 || skin_h == 0 {
        c.warn(
            "header.skin_width",
            format!("skin size {skin_w}x{skin_h}: GZDoom divides texcoords by it (LoadGeometry)"),
            Some(8),
        );
    }
    if frames > 0 && frame_size < 40 + 4 * verts {
        c.warn(
            "header.frame_size",
            format!(
                "{frame_size} bytes a frame, less than the 40 + 4 x {verts} its vertices take: GZDoom reads each frame's vertices into the next"
            ),
            Some(16),
        );
    }
    if frames == 0 {
        c.warn(
            "header.num_frames",
            "no frames: GZDoom draws nothing",
            Some(40),
        );
    }
    if skins == 0 {
        c.warn(
            "header.num_skins",
            "no skin: GZDoom draws the model only with a MODELDEF Skin line",
            Some(20),
        );
    }
    // Triangles (BuildVertexBuffer indexes vertices and texcoords with
    // them unchecked).
    for t in 0..tris.clamp(0, 1 << 20) {
        let at = ofs_tris + 12 * t;
        let idx: Option<Vec<u16>> = (0..6)
            .map(|k| {
                usize::try_from(at)
                    .ok()
                    .and_then(|a| u16_at(data, a + 2 * k))
            })
            .collect();
        let Some(idx) = idx else { break };
        if idx[..3].iter().any(|&v| i64::from(v) >= verts) {
            c.warn(
                format!("triangles[{t}].vertices"),
                format!("{:?}: an index not below the {verts} vertices, which GZDoom reads unchecked (a crash or garbage)", &idx[..3]),
                Some(at as u64),
            );
        }
        if idx[3..].iter().any(|&v| i64::from(v) >= sts) {
            c.warn(
                format!("triangles[{t}].texcoords"),
                format!(
                    "{:?}: an index not below the {sts} texcoords, which GZDoom reads unchecked",
                    &idx[3..]
                ),
                Some(at as u64 + 6),
            );
        }
    }
    // Frames: names, and normal indices into avertexnormals[162].
    for f in 0..frames.clamp(0, 1 << 16) {
        let at = ofs_frames + frame_size * f;
        let Some(name) = usize::try_from(at)
            .ok()
            .and_then(|a| data.get(a + 24..a + 40))
        else {
            break;
        };
        if !name.contains(&0) {
            c.warn(
                format!("frames[{f}].name"),
                "16 characters and no NUL: GZDoom compares frame names as C strings (FindFrame), so it runs on into the vertices; keep 15 at most",
                Some(at as u64 + 24),
            );
        }
        let mut bad = None;
        for v in 0..verts.clamp(0, 1 << 16) {
            let n = usize::try_from(at + 40 + 4 * v + 3)
                .ok()
                .and_then(|a| data.get(a).copied());
            match n {
                Some(n) if usize::from(n) >= NORMALS => {
                    bad = Some((v, n));
                    break;
                }
                Some(_) => {}
                None => break,
            }
        }
        if let Some((v, n)) = bad {
            c.warn(
                format!("frames[{f}].vertices[{v}].normal"),
                format!("normal index {n}: GZDoom indexes its 162 normals with it unchecked (garbage lighting or a crash)"),
                Some((at + 40 + 4 * v + 3) as u64),
            );
        }
    }
    c.finish()
}
