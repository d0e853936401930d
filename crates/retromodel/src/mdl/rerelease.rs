//! The Quake rerelease's MD5 beside an MDL: where the ports that read its
//! content look for it ([`md5_paths`], [`md5_skin_names`]), which MD5
//! frame they draw for an MDL frame ([`md5_frame_drawn`]), and what they
//! require of the pair ([`check_pair`], [`Mdl::validate_for_rerelease`]).
//!
//! The rerelease's own engine is not public; its loading is read from the
//! ports that load its MD5 replacements:
//!
//! - Ironwail 7ff4ec57, `Quake/gl_model.c`: `Mod_LoadAliasModel` (with
//!   `r_enhancedmodels` 1, the default, and `r_enhancedmodels_priority`
//!   "md3,md5") calls `loadMd5Replacement`: `COM_StripExtension` of the
//!   MDL's name plus `.md5mesh`, used when it comes from the MDL's game
//!   directory or a later one (`md5_path_id >= mod->path_id`).
//!   `Mod_LoadMD5MeshModel` then reads `MD5Anim_Begin`'s `NAME.md5anim`
//!   (the MDL's name again): without it, or with no frame, "has no poses"
//!   and the MDL is drawn instead. `MD5Anim_Load` wants the anim's joints
//!   to be the mesh's, in order, with the same names and parents ("has
//!   incorrect bone count", "was renamed", "has wrong parent"). Each anim
//!   frame j becomes frame j (`surf->frames[j]`, one pose each). Triangle
//!   indices are `unsigned short`, joint indices `uint8_t`
//!   (`iqmvert_t.idx`), and `MD5_BakeInfluences` keeps a vertex's 4
//!   strongest weights.
//! - vkQuake 46e5e6dd, `Quake/gl_model.c`: `Mod_LoadModel` looks for the
//!   same `NAME.md5mesh` (`r_allow_replacement_md5models` 1, same
//!   path-id rule; an MD3 of the same priority wins) and loads the MDL
//!   too. `MD5Anim_Begin` reads `NAME.md5anim`, but a missing one leaves
//!   the MD5 in its bind pose; `MD5Anim_Load` matches joints by name
//!   (anim joints not in the mesh are skipped) and wants parents to agree.
//!   `unsigned short` indices, `byte` joint indices, up to 8 weights.
//! - Both draw frame 0 for a frame past the model's (`r_alias.c`,
//!   `R_SetupAliasFrame`), and name a mesh's skin images after its
//!   `shader`: Ironwail's `Mod_LoadMD5Skins` loads
//!   `progs/SHADER_SS_FF` (skin SS, image FF, two digits each, up to 32
//!   skins of 4 images); vkQuake's `MD5_Skin_Name` and
//!   `Mod_LoadMDXSkinTask` try `SHADER_SS_FF`, `progs/SHADER_SS_FF` and
//!   `textures/SHADER_SS_FF`.
//! - FTE (`engine/gl/gl_model.c`, `Mod_LoadModel`) replaces `NAME.mdl`
//!   with `NAME.md5mesh` when `r_replacemodels` lists `md5mesh` (after
//!   md3 and md2), and `com_mesh.c`'s `Mod_LoadMD5MeshModel` unpacks
//!   `NAME.md5anim`'s frames one per frame (`mod_md5_singleanimation`).
//!
//! QuakeSpasm-Spiked's own MD5 loader could not be read: the snapshot of
//! its source here (c4893638, 2021-07-10) predates the rerelease.

use super::{Engine, Mdl};
use crate::md5::Md5Model;
use crate::problem::{Collector, Problem};

/// The files a port looks for beside an MDL: its MD5 replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Md5Paths {
    /// The mesh: `progs/ogre.md5mesh` for `progs/ogre.mdl`.
    pub mesh: String,
    /// The animation: `progs/ogre.md5anim`.
    pub anim: String,
}

/// `COM_StripExtension` (Ironwail's and vkQuake's `common.c`): the path
/// without the extension of its last component.
fn strip_extension(path: &str) -> &str {
    let name_start = path.rfind(['/', '\\']).map_or(0, |i| i + 1);
    match path[name_start..].rfind('.') {
        Some(dot) if name_start + dot > 0 => &path[..name_start + dot],
        _ => path,
    }
}

/// Where the ports look for the MD5 replacing the MDL the game calls
/// `mdl_path` (`progs/ogre.mdl`): the same path with `.md5mesh` and
/// `.md5anim` for its extension.
///
/// ```
/// use retromodel::mdl::rerelease::md5_paths;
/// let p = md5_paths("progs/ogre.mdl");
/// assert_eq!(p.mesh, "progs/ogre.md5mesh");
/// assert_eq!(p.anim, "progs/ogre.md5anim");
/// ```
pub fn md5_paths(mdl_path: &str) -> Md5Paths {
    let stem = strip_extension(mdl_path);
    Md5Paths {
        mesh: format!("{stem}.md5mesh"),
        anim: format!("{stem}.md5anim"),
    }
}

/// The MDL an `.md5mesh` replaces: `progs/ogre.mdl` for
/// `progs/ogre.md5mesh`.
pub fn mdl_path_for(md5mesh_path: &str) -> String {
    format!("{}.mdl", strip_extension(md5mesh_path))
}

/// The names (without extension: each port tries its image formats) under
/// which `engine` looks for image `image` of skin `skin` of a mesh whose
/// `shader` is `shader`, in search order; empty for an engine that does
/// not load MD5 replacements, or past the 32 skins × 4 images they read.
/// For the rerelease: `progs/SHADER_SS_FF`, the name both Ironwail and
/// vkQuake find.
///
/// ```
/// use retromodel::mdl::{rerelease::md5_skin_names, Engine};
/// assert_eq!(md5_skin_names(Engine::Ironwail, "ogre", 0, 1), ["progs/ogre_00_01"]);
/// assert_eq!(
///     md5_skin_names(Engine::Vkquake, "ogre", 2, 0),
///     ["ogre_02_00", "progs/ogre_02_00", "textures/ogre_02_00"]
/// );
/// ```
pub fn md5_skin_names(engine: Engine, shader: &str, skin: usize, image: usize) -> Vec<String> {
    // MAX_SKINS (32) skins, countof(gltextures[0]) (4) images each.
    if skin >= 32 || image >= 4 {
        return Vec::new();
    }
    let base = format!("{shader}_{skin:02}_{image:02}");
    match engine {
        // The name both ports find (Ironwail looks nowhere else).
        Engine::Ironwail | Engine::QuakeRerelease => vec![format!("progs/{base}")],
        Engine::Vkquake => vec![
            base.clone(),
            format!("progs/{base}"),
            format!("textures/{base}"),
        ],
        _ => Vec::new(),
    }
}

/// The MD5 frame the ports draw when QuakeC sets MDL frame `mdl_frame`
/// and the md5anim has `anim_frames` frames: the same number, or frame 0
/// past the end or below 0 (`R_SetupAliasFrame`); `None` without frames
/// (vkQuake draws the bind pose, Ironwail the MDL).
///
/// ```
/// use retromodel::mdl::rerelease::md5_frame_drawn;
/// assert_eq!(md5_frame_drawn(5, 10), Some(5));
/// assert_eq!(md5_frame_drawn(10, 10), Some(0));
/// assert_eq!(md5_frame_drawn(0, 0), None);
/// ```
pub fn md5_frame_drawn(mdl_frame: i64, anim_frames: usize) -> Option<usize> {
    if anim_frames == 0 {
        return None;
    }
    Some(
        usize::try_from(mdl_frame)
            .ok()
            .filter(|&k| k < anim_frames)
            .unwrap_or(0),
    )
}

/// What the ports require of an MD5 replacement (see the module's
/// sources).
const MAX_MESH_VERTICES: usize = 65536; // unsigned short indices
const MAX_JOINTS: usize = 256; // byte joint indices
const IRONWAIL_INFLUENCES: usize = 4; // iqmvert_t.weight[4]
const VKQUAKE_INFLUENCES: usize = 8; // NUM_JOINT_INFLUENCES_8_WEIGHT

/// Every reason the ports would not draw `md5` in place of `mdl`, or
/// would draw it wrong. `anim_name` picks the animation they load (the
/// one named like the MDL, `ogre` for `progs/ogre.mdl`); `None` takes the
/// model's first. Paths are the MD5's (`md5mesh...`, `md5anim ...`).
pub fn check_pair(mdl: &Mdl, md5: &Md5Model, anim_name: Option<&str>) -> Vec<Problem> {
    let mut c = Collector::default();
    let Some(anim) = check_md5_into(md5, anim_name, &mut c) else {
        return c.finish();
    };
    let base = format!("md5anim {:?}", anim.name);
    let a = &anim.anim;
    let mdl_frames = usize::try_from(mdl.num_frames).unwrap_or(0);
    if a.num_frames > 0 && a.num_frames < mdl_frames {
        c.warn(
            format!("{base}.numFrames"),
            format!(
                "{} frames, fewer than the MDL's {mdl_frames}: the ports draw MD5 frame k for MDL frame k, and MD5 frame 0 for MDL frames {} and on",
                a.num_frames, a.num_frames
            ),
            None,
        );
    } else if a.num_frames > mdl_frames {
        c.warn(
            format!("{base}.numFrames"),
            format!(
                "{} frames, more than the MDL's {mdl_frames}: the ports draw MD5 frame k for MDL frame k, so frames {mdl_frames} and on are played only by code that asks for them",
                a.num_frames
            ),
            None,
        );
    }
    for (k, frame) in mdl.frames.iter().enumerate() {
        if let super::Frame::Group { group, .. } = frame {
            if group.frames.len() > 1 {
                c.warn(
                    format!("frames[{k}]"),
                    format!(
                        "MDL frame {k} is a group of {} frames the engine animates by itself; the MD5 has one pose for it (frame {k}), so the replacement does not animate there",
                        group.frames.len()
                    ),
                    None,
                );
            }
        }
    }
    c.finish()
}

/// The MD5 half of [`check_pair`], for an MD5 checked without its MDL
/// (`validate --engine quake-rerelease x.md5mesh`): what Ironwail and
/// vkQuake require of the mesh and of the animation `anim_name` (the
/// model's first when `None`).
pub fn check_md5(md5: &Md5Model, anim_name: Option<&str>) -> Vec<Problem> {
    let mut c = Collector::default();
    check_md5_into(md5, anim_name, &mut c);
    c.finish()
}

/// [`check_md5`] into `c`; the animation the ports play, if any.
fn check_md5_into<'a>(
    md5: &'a Md5Model,
    anim_name: Option<&str>,
    c: &mut Collector,
) -> Option<&'a crate::md5::Animation> {
    let mesh = &md5.mesh;
    let anim = match anim_name {
        Some(n) => md5.animations.iter().find(|a| a.name == n),
        None => md5.animations.first(),
    };
    // Ironwail's Mod_LoadMD5MeshModel: "has no bones", "has no meshes".
    if mesh.joints.is_empty() || mesh.meshes.is_empty() {
        c.error(
            "md5mesh",
            "the md5mesh has no joints or no meshes: Ironwail and vkQuake refuse it and draw the MDL",
            None,
        );
    }
    if mesh.joints.len() > MAX_JOINTS {
        c.error(
            "md5mesh.numJoints",
            format!(
                "{} joints: Ironwail and vkQuake store a vertex's joints in one byte each, so joints past {MAX_JOINTS} move the wrong vertices",
                mesh.joints.len()
            ),
            None,
        );
    }
    for (m, part) in mesh.meshes.iter().enumerate() {
        if part.vertices.len() > MAX_MESH_VERTICES {
            c.error(
                format!("md5mesh.meshes[{m}].numverts"),
                format!(
                    "{} vertices: Ironwail and vkQuake index them in 16 bits, so vertices past {MAX_MESH_VERTICES} make wrong triangles",
                    part.vertices.len()
                ),
                None,
            );
        }
        let most = part
            .vertices
            .iter()
            .map(|v| v.weight_count)
            .max()
            .unwrap_or(0);
        if most > IRONWAIL_INFLUENCES {
            let vk = if most > VKQUAKE_INFLUENCES {
                format!(", vkQuake its {VKQUAKE_INFLUENCES}")
            } else {
                String::new()
            };
            c.warn(
                format!("md5mesh.meshes[{m}]"),
                format!("a vertex has {most} weights: Ironwail keeps its {IRONWAIL_INFLUENCES} strongest{vk}, so it moves a little differently"),
                None,
            );
        }
    }
    let Some(anim) = anim else {
        c.error(
            "md5anim",
            "no md5anim named like the MDL: Ironwail draws the MDL instead of the MD5, vkQuake loads the MD5 without frames (no animation)",
            None,
        );
        return None;
    };
    let base = format!("md5anim {:?}", anim.name);
    let a = &anim.anim;
    if a.num_frames == 0 {
        c.error(
            format!("{base}.numFrames"),
            "the md5anim has no frames: Ironwail and vkQuake refuse it (\"has no poses\")",
            None,
        );
    }
    check_joints(mesh, a, &base, c);
    Some(anim)
}

/// The anim's joints against the mesh's, as Ironwail's `MD5Anim_Load`
/// (same count, names and parents, in order: else the MDL is drawn) and
/// vkQuake's (joints matched by name, parents agreeing) want them.
fn check_joints(
    mesh: &crate::md5::Md5Mesh,
    anim: &crate::md5::Md5Anim,
    base: &str,
    c: &mut Collector,
) {
    if anim.hierarchy.len() != mesh.joints.len() {
        c.error(
            format!("{base}.numJoints"),
            format!(
                "{} joints, the md5mesh has {}: Ironwail refuses the pair (\"has incorrect bone count\") and draws the MDL",
                anim.hierarchy.len(),
                mesh.joints.len()
            ),
            None,
        );
        return;
    }
    for (j, (h, m)) in anim.hierarchy.iter().zip(&mesh.joints).enumerate() {
        if h.name != m.name {
            c.error(
                format!("{base}.hierarchy[{j}]"),
                format!(
                    "joint {j} is {:?} here and {:?} in the md5mesh: Ironwail refuses the pair (\"was renamed\") and draws the MDL",
                    h.name, m.name
                ),
                None,
            );
            return;
        }
        if h.parent != m.parent {
            c.error(
                format!("{base}.hierarchy[{j}]"),
                format!(
                    "joint {:?} has another parent than in the md5mesh: Ironwail and vkQuake refuse the pair (\"wrong parent\")",
                    h.name
                ),
                None,
            );
            return;
        }
    }
}

impl Mdl {
    /// Every problem of the MDL as the Quake rerelease's content is
    /// loaded ([`Mdl::validate_for`] with [`Engine::QuakeRerelease`]) and,
    /// with its MD5 replacement, the pair's ([`check_pair`], paths under
    /// `md5.`). The front end finds the MD5 ([`md5_paths`]) and names the
    /// animation it read from `NAME.md5anim` (`anim_name`).
    ///
    /// ```
    /// use retromodel::mdl::{Mdl, Skin};
    /// let mdl = Mdl { version: 6, num_vertices: 3, num_triangles: 1, num_frames: 1,
    ///     skin_width: 8, skin_height: 8, skins: vec![Skin::Single(vec![0; 64])],
    ///     ..Mdl::default() };
    /// assert!(mdl.validate_for_rerelease(None, None).is_empty());
    /// ```
    pub fn validate_for_rerelease(
        &self,
        md5: Option<&Md5Model>,
        anim_name: Option<&str>,
    ) -> Vec<Problem> {
        let mut problems = self.validate_for(Engine::QuakeRerelease);
        if let Some(md5) = md5 {
            problems.extend(
                check_pair(self, md5, anim_name)
                    .into_iter()
                    .map(|p| Problem {
                        path: format!("md5.{}", p.path),
                        ..p
                    }),
            );
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_extension_is_com_strip_extension() {
        assert_eq!(strip_extension("progs/ogre.mdl"), "progs/ogre");
        assert_eq!(strip_extension("progs.d/ogre"), "progs.d/ogre");
        assert_eq!(strip_extension("a/b.c.mdl"), "a/b.c");
        assert_eq!(strip_extension(".mdl"), ".mdl");
        assert_eq!(mdl_path_for("progs/ogre.md5mesh"), "progs/ogre.mdl");
    }

    #[test]
    fn skin_names_stop_at_32_skins_of_4_images() {
        assert!(md5_skin_names(Engine::Ironwail, "s", 32, 0).is_empty());
        assert!(md5_skin_names(Engine::Ironwail, "s", 0, 4).is_empty());
        assert_eq!(
            md5_skin_names(Engine::Ironwail, "s", 31, 3),
            ["progs/s_31_03"]
        );
        assert!(md5_skin_names(Engine::Glquake, "s", 0, 0).is_empty());
    }

    #[test]
    fn frames_past_the_anim_draw_frame_0() {
        assert_eq!(md5_frame_drawn(-1, 3), Some(0));
        assert_eq!(md5_frame_drawn(2, 3), Some(2));
        assert_eq!(md5_frame_drawn(3, 3), Some(0));
    }
}
