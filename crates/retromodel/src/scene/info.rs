//! A summary of a scene, for models of formats read straight into one
//! (glTF, OBJ): what `retromodel info` shows for them.

use std::fmt;

use super::Scene;
use crate::problem::Problem;

/// One mesh in a [`SceneInfo`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MeshInfo {
    /// Name.
    pub name: String,
    /// Vertices.
    pub vertices: usize,
    /// Triangles.
    pub triangles: usize,
    /// Morph targets.
    pub morph_targets: usize,
    /// Whether it is skinned.
    pub skinned: bool,
    /// Its material's name.
    pub material: Option<String>,
}

/// One animation in a [`SceneInfo`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnimationSummary {
    /// Name.
    pub name: String,
    /// Duration in seconds.
    pub seconds: f32,
    /// Channels.
    pub channels: usize,
}

/// A summary of a scene read from a file: its meshes, materials,
/// textures, nodes, skins and animations, and the problems the reader
/// found. `Display` gives the text report; with feature `serde` it
/// serialises as `info --json` prints it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SceneInfo {
    /// The format, lower case (`gltf`, `obj`).
    pub format: String,
    /// The scene's name.
    pub name: String,
    /// Vertices of all meshes.
    pub vertices: usize,
    /// Triangles of all meshes.
    pub triangles: usize,
    /// Every mesh.
    pub meshes: Vec<MeshInfo>,
    /// Material names.
    pub materials: Vec<String>,
    /// Texture paths, and whether each has an image.
    pub textures: Vec<(String, bool)>,
    /// Nodes.
    pub nodes: usize,
    /// Joints of each skin.
    pub skins: Vec<usize>,
    /// Every animation.
    pub animations: Vec<AnimationSummary>,
    /// The file's length in bytes.
    pub file_size: u64,
    /// Every problem the reader found, as text.
    pub warnings: Vec<String>,
}

impl SceneInfo {
    /// The summary of `scene`, read as `format` from `bytes` with
    /// `warnings`.
    pub fn new(format: &str, scene: &Scene, bytes: &[u8], warnings: &[Problem]) -> SceneInfo {
        SceneInfo {
            format: format.to_string(),
            name: scene.name.clone(),
            vertices: scene.meshes.iter().map(|m| m.positions.len()).sum(),
            triangles: scene.meshes.iter().map(|m| m.indices.len() / 3).sum(),
            meshes: scene
                .meshes
                .iter()
                .map(|m| MeshInfo {
                    name: m.name.clone(),
                    vertices: m.positions.len(),
                    triangles: m.indices.len() / 3,
                    morph_targets: m.morph_targets.len(),
                    skinned: m.skin.is_some(),
                    material: m
                        .material
                        .and_then(|i| scene.materials.get(i))
                        .map(|m| m.name.clone()),
                })
                .collect(),
            materials: scene.materials.iter().map(|m| m.name.clone()).collect(),
            textures: scene
                .textures
                .iter()
                .map(|t| (t.path.clone(), t.has_image()))
                .collect(),
            nodes: scene.nodes.len(),
            skins: scene.skins.iter().map(|s| s.joints.len()).collect(),
            animations: scene
                .animations
                .iter()
                .map(|a| AnimationSummary {
                    name: a.name.clone(),
                    seconds: a.duration(),
                    channels: a.channels.len(),
                })
                .collect(),
            file_size: bytes.len() as u64,
            warnings: warnings.iter().map(ToString::to_string).collect(),
        }
    }
}

impl fmt::Display for SceneInfo {
    /// The report `retromodel info` prints after the file name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} scene {:?}", self.format, self.name)?;
        writeln!(f, "  vertices      {}", self.vertices)?;
        writeln!(f, "  triangles     {}", self.triangles)?;
        writeln!(f, "  meshes        {}", self.meshes.len())?;
        for m in &self.meshes {
            let mut notes = Vec::new();
            if m.morph_targets > 0 {
                notes.push(format!("{} morph targets", m.morph_targets));
            }
            if m.skinned {
                notes.push("skinned".to_string());
            }
            if let Some(mat) = &m.material {
                notes.push(format!("material {mat:?}"));
            }
            writeln!(
                f,
                "                  {:<20} {:>6} vertices {:>6} triangles  {}",
                m.name,
                m.vertices,
                m.triangles,
                notes.join(", ")
            )?;
        }
        writeln!(f, "  materials     {}", self.materials.len())?;
        writeln!(f, "  textures      {}", self.textures.len())?;
        for (path, loaded) in &self.textures {
            let note = if *loaded { "" } else { " (no image)" };
            writeln!(f, "                  {path}{note}")?;
        }
        writeln!(f, "  nodes         {}", self.nodes)?;
        writeln!(f, "  skins         {}", self.skins.len())?;
        for joints in &self.skins {
            writeln!(f, "                  {joints} joints")?;
        }
        writeln!(f, "  animations    {}", self.animations.len())?;
        for a in &self.animations {
            writeln!(
                f,
                "                  {:<12} {:.3} s, {} channels",
                a.name, a.seconds, a.channels
            )?;
        }
        writeln!(f, "  file          {} bytes", self.file_size)?;
        crate::problem::write_warning_list(f, &self.warnings, 20)
    }
}
