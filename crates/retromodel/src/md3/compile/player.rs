//! Compiling one scene into a Quake III player (see [`compile_player`]).

use crate::bake::{self, plan::Plan};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::md3::{skin_text, AnimationCfg, PlayerPart};
use crate::scene::Scene;

use super::player_plan::{self, PlayerLine};
use super::{
    compile_planned, options, tags, CompileOptions, CompileReport, Compiled, Selection, DEFAULT_FPS,
};

/// How [`compile_player`] makes a player.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerOptions {
    /// Frames per second for animations that carry no rate of their own
    /// ([`DEFAULT_FPS`]).
    pub fps: f32,
    /// Multiply scene units by this (`None`: 1, unless `fit_height`).
    pub scale: Option<f32>,
    /// Scale the whole player so that its rest pose is this many units
    /// tall (Quake III's players are about 56 to 64).
    pub fit_height: Option<f32>,
    /// The engine whose limits each part must meet (ioquake3).
    pub engine: Option<Engine>,
    /// Split a surface past a per-surface limit (see
    /// [`CompileOptions::split_surfaces`]).
    pub split_surfaces: bool,
    /// The player's name (`models/players/NAME/`): texture paths without
    /// a folder are written below that folder in the `.skin` files, and
    /// the models' header names are that folder's files.
    pub name: Option<String>,
    /// `animation.cfg`'s `sex` (`m`, `f`, `n`); `None`: the scene's
    /// (what reading a player kept), else none (the game then takes `m`).
    pub sex: Option<char>,
    /// `animation.cfg`'s `footsteps` (`normal`, `boot`, `flesh`, `mech`,
    /// `energy`); `None`: the scene's, else none.
    pub footsteps: Option<String>,
}

impl Default for PlayerOptions {
    fn default() -> Self {
        PlayerOptions {
            fps: DEFAULT_FPS,
            scale: None,
            fit_height: None,
            engine: Some(Engine::Ioquake3),
            split_surfaces: true,
            name: None,
            sex: None,
            footsteps: None,
        }
    }
}

/// Something [`compile_player`] did that the user should know.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerNote {
    /// A mesh below no part node was left out.
    MeshLeftOut {
        /// The mesh's name.
        mesh: String,
    },
    /// A part had no tag the next part hangs at: one was made from the
    /// next part's node.
    TagMade {
        /// The part the tag was added to.
        part: PlayerPart,
        /// The tag (`tag_torso`, `tag_head`).
        tag: &'static str,
    },
    /// `upper` has no `tag_weapon`: the game draws the weapon at the
    /// torso's origin.
    NoWeaponTag,
    /// A part has no mesh with a triangle below it: its file holds only
    /// tags (OpenArena's mature Angelyss keeps her whole body in
    /// `lower.md3` and `upper.md3` holds only tags).
    NoSurfaces {
        /// The part.
        part: PlayerPart,
    },
    /// Frames of `lower.md3` or `upper.md3` that no line plays (there
    /// were such frames in the player read) are the rest pose.
    UnplayedFrames {
        /// How many.
        count: usize,
    },
}

/// What [`compile_player`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledPlayer {
    /// `lower.md3`.
    pub lower: Compiled,
    /// `upper.md3`.
    pub upper: Compiled,
    /// `head.md3`.
    pub head: Compiled,
    /// `animation.cfg` (write it with [`AnimationCfg::to_text`]).
    pub animation_cfg: AnimationCfg,
    /// Each cfg line and where its frames came from.
    pub lines: Vec<PlayerLine>,
    /// The `.skin` files' text, lower, upper, head (`lower_default.skin`
    /// and so on): each surface's image, then the part's tags.
    pub skins: [String; 3],
    /// The scale applied.
    pub scale: f32,
    /// What the user should know.
    pub notes: Vec<PlayerNote>,
}

impl std::fmt::Display for PlayerNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerNote::MeshLeftOut { mesh } => write!(
                f,
                "mesh {mesh:?} hangs below no part node (lower, upper, head): left out"
            ),
            PlayerNote::TagMade { part, tag } => {
                let next = if *tag == "tag_torso" { "upper" } else { "head" };
                write!(
                    f,
                    "{} has no {tag}: one was made where the {next} node is",
                    part.name()
                )
            }
            PlayerNote::NoWeaponTag => write!(
                f,
                "upper has no tag_weapon: the game draws the weapon at the torso's origin"
            ),
            PlayerNote::NoSurfaces { part } => write!(
                f,
                "no mesh with a triangle hangs below {}: {}.md3 holds only tags",
                part.name(),
                part.name()
            ),
            PlayerNote::UnplayedFrames { count } => write!(
                f,
                "{count} frames that no animation.cfg line plays are written as the rest pose"
            ),
        }
    }
}

/// What [`compile_player`] made, in numbers: each part's report and each
/// `animation.cfg` line with where its frames came from.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlayerReport {
    /// `lower.md3`'s, `upper.md3`'s and `head.md3`'s reports.
    pub parts: [CompileReport; 3],
    /// The cfg's lines.
    pub lines: Vec<PlayerLine>,
    /// The scale applied.
    pub scale: f32,
}

impl CompiledPlayer {
    /// The numbers of what was made.
    pub fn report(&self) -> PlayerReport {
        PlayerReport {
            parts: [
                self.lower.report.clone(),
                self.upper.report.clone(),
                self.head.report.clone(),
            ],
            lines: self.lines.clone(),
            scale: self.scale,
        }
    }
}

const PARTS: [PlayerPart; 3] = [PlayerPart::Lower, PlayerPart::Upper, PlayerPart::Head];

/// Whom a node belongs to.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Owner {
    Part(PlayerPart),
    Weapon,
}

/// The part a node itself names, by its name or its `md3_part` extra.
fn names_part(node: &crate::scene::Node) -> Option<Owner> {
    let extra = node.extras.get("md3_part").and_then(|p| p.as_str());
    let name = node.name.trim();
    let name = name
        .len()
        .checked_sub(4)
        .filter(|&k| name.is_char_boundary(k) && name[k..].eq_ignore_ascii_case(".md3"))
        .map_or(name, |k| &name[..k]);
    [extra, Some(name)].into_iter().flatten().find_map(|n| {
        if n.eq_ignore_ascii_case("weapon") {
            return Some(Owner::Weapon);
        }
        PARTS
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(n))
            .map(Owner::Part)
    })
}

/// The part `node` is (or hangs below).
fn owner(scene: &Scene, node: usize) -> Option<Owner> {
    let mut at = Some(node);
    for _ in 0..=scene.nodes.len() {
        let n = scene.nodes.get(at?)?;
        if let Some(o) = names_part(n) {
            return Some(o);
        }
        at = n.parent;
    }
    None
}

fn missing_part(part: &str) -> Error {
    Error::InvalidScene {
        path: "nodes".to_string(),
        message: format!(
            "no node called {part:?}: a Quake III player's scene names its three parts' nodes \
             lower, upper and head (lower > tag_torso > upper > tag_head > head)"
        ),
    }
}

/// The scale to write at.
fn scale_of(scene: &Scene, options: &PlayerOptions, meshes: &[bool]) -> Result<f32> {
    match (options.scale, options.fit_height) {
        (Some(s), _) => Ok(s),
        (None, Some(h)) => {
            let source = bake::Source::of_meshes(scene, "MD3", |m| meshes[m]);
            let rest = Plan {
                groups: vec![bake::plan::Group {
                    name: String::new(),
                    source: String::new(),
                    player_entry: None,
                    kept: None,
                    poses: vec![bake::plan::FramePose {
                        animation: None,
                        time: 0.0,
                    }],
                }],
            };
            let (positions, _) = bake::pose_all(scene, &rest, &source, false)?;
            let height = bake::height(&positions);
            if !(height.is_finite() && height > 0.0) {
                return Err(Error::InvalidOptions {
                    message: "fit_height: the player has no height to scale".to_string(),
                });
            }
            Ok(h / height)
        }
        (None, None) => Ok(1.0),
    }
}

/// An image path as a `.skin` line gives it: below the player's folder
/// when it is a file name (with an extension) without a folder and the
/// player is named; a shader name without a dot (`null`, `nodraw`) as
/// it is.
fn skin_path(path: &str, name: Option<&str>) -> String {
    match name {
        Some(n) if !path.contains(['/', '\\']) && path.contains('.') => {
            format!("models/players/{n}/{path}")
        }
        _ => path.replace('\\', "/"),
    }
}

/// The `.skin` text of a compiled part.
fn skin_of(scene: &Scene, compiled: &Compiled, name: Option<&str>) -> String {
    let mut lines: Vec<(String, String)> = Vec::new();
    for (s, surface) in compiled.model.surfaces.iter().enumerate() {
        let surface_name = surface.name.to_string_lossy();
        if lines.iter().any(|(n, _)| *n == surface_name) {
            continue;
        }
        let material = compiled
            .triangle_sources
            .get(s)
            .and_then(|t| t.first())
            .and_then(|&(mesh, _)| scene.meshes.get(mesh))
            .and_then(|m| m.material)
            .and_then(|m| scene.materials.get(m));
        // Its texture's path, else the image a player read named (kept in
        // the material's extras when the image was not found); the
        // scripted shader's name where the texture is what its script
        // draws.
        let extra = |key: &str| {
            material
                .and_then(|m| m.extras.get(key))
                .and_then(|p| p.as_str())
        };
        let texture = material
            .and_then(|m| m.texture)
            .and_then(|t| scene.textures.get(t))
            .map(|t| t.path.as_str());
        let image = match texture {
            Some(t) if extra("md3_shader_image") == Some(t) => extra("md3_image"),
            Some(t) => Some(t),
            None => extra("md3_image"),
        }
        .filter(|p| !p.is_empty())
        .map(|p| skin_path(p, name));
        if let Some(image) = image {
            lines.push((surface_name, image));
        }
    }
    let tags: Vec<String> = compiled
        .model
        .frame_tags(0)
        .unwrap_or(&[])
        .iter()
        .map(|t| t.name.to_string_lossy())
        .collect();
    skin_text(&lines, &tags)
}

///  Compiling one scene into a Quake III player: `lower.md3`, `upper.md3`,
///  `head.md3`, their `.skin` files and `animation.cfg`.
///
///  # The scene's convention
///
///  The scene's nodes name the parts: a node called `lower`, `upper` and
///  `head` (ASCII case-insensitive, a `.md3` ending allowed) or carrying
///  `{"md3_part": "lower"}` in its extras (what reading a player gives).
///  Each mesh belongs to the part it hangs below (its node, or the nearest
///  ancestor that is a part); a node called `weapon` and what hangs below
///  it are left out (the game draws the weapon from its own file). Each
///  node below a part named `tag_*` is one of its tags. The tree reading a
///  player makes, and the one to build in Blender:
///
///  ```text
///  lower                 the legs' meshes; lower.md3
///  └── tag_torso
///      └── upper         the torso's meshes; upper.md3
///          ├── tag_head
///          │   └── head  the head's meshes; head.md3
///          └── tag_weapon
///  ```
///
///  Each part is stored in the frame of what the game draws it at, as it
///  is posed in each frame: `lower` its own node's, `upper` `tag_torso`'s
///  (below `lower`), `head` `tag_head`'s (below `upper`), so the player
///  looks in the game as the scene does wherever the part nodes are. A
///  `lower` without a `tag_torso` gets one made from the `upper` node, an
///  `upper` without a `tag_head` one from the `head` node
///  ([`PlayerNote::TagMade`]).
///
///  Frames and the `animation.cfg` lines come from the scene's animations
///  named after the cfg's lines (`LEGS_RUN`, `TORSO_ATTACK`, ...): see
///  [`LineSource`](super::LineSource) (the rules in full: docs/formats.md, "Writing a Quake III player") for how each line is filled.
///  `head.md3` is one frame, the rest pose: the game draws no other.
///
///  ```
///  use retromodel::md3::compile::{compile_player, PlayerOptions};
///  use retromodel::scene::{Mesh, Node, Scene};
///
///  # fn main() -> Result<(), retromodel::Error> {
///  let triangle = |name: &str, node: usize, y: f32| Mesh {
///      name: name.into(),
///      positions: vec![[0.0, y, 0.0], [1.0, y, 0.0], [0.0, y + 1.0, 0.0]],
///      indices: vec![0, 1, 2],
///      node: Some(node),
///      ..Mesh::default()
///  };
///  let node = |name: &str, parent: Option<usize>, y: f32| Node {
///      name: name.into(),
///      parent,
///      translation: [0.0, y, 0.0],
///      ..Node::default()
///  };
///  let scene = Scene {
///      nodes: vec![
///          node("lower", None, 0.0),
///          node("tag_torso", Some(0), 1.0),
///          node("upper", Some(1), 0.0),
///          node("tag_head", Some(2), 1.0),
///          node("head", Some(3), 0.0),
///      ],
///      meshes: vec![triangle("l_legs", 0, 0.0), triangle("u_torso", 2, 0.0), triangle("h_head", 4, 0.0)],
///      ..Scene::default()
///  };
///  let player = compile_player(&scene, &PlayerOptions::default())?;
///  // The torso sits at tag_torso: stored at its own origin, 1 unit up.
///  assert_eq!(player.upper.model.surfaces[0].frame(0).unwrap()[0].xyz, [0, 0, 0]);
///  assert_eq!(player.lower.model.tags[0].origin, [0.0, 0.0, 1.0]);
///  assert_eq!(player.animation_cfg.animations.len(), 25);
///  // No texture: the .skin lists only the tag.
///  assert_eq!(player.skins[0], "tag_torso,\r\n");
///  # Ok(()) }
///  ```
pub fn compile_player(scene: &Scene, options: &PlayerOptions) -> Result<CompiledPlayer> {
    let mut notes = Vec::new();
    let part_node = |part: PlayerPart| {
        scene
            .nodes
            .iter()
            .position(|n| names_part(n) == Some(Owner::Part(part)))
            .ok_or_else(|| missing_part(part.name()))
    };
    let nodes = [
        part_node(PlayerPart::Lower)?,
        part_node(PlayerPart::Upper)?,
        part_node(PlayerPart::Head)?,
    ];
    let owners: Vec<Option<Owner>> = (0..scene.nodes.len()).map(|n| owner(scene, n)).collect();
    let mesh_owner = |m: usize| {
        scene.meshes[m]
            .node
            .and_then(|n| owners.get(n).copied().flatten())
    };
    for (m, mesh) in scene.meshes.iter().enumerate() {
        if mesh_owner(m).is_none() && !mesh.indices.is_empty() {
            notes.push(PlayerNote::MeshLeftOut {
                mesh: mesh.name.clone(),
            });
        }
    }
    let all: Vec<bool> = (0..scene.meshes.len())
        .map(|m| matches!(mesh_owner(m), Some(Owner::Part(_))))
        .collect();
    let any = all
        .iter()
        .zip(&scene.meshes)
        .any(|(&m, mesh)| m && mesh.indices.len() >= 3);
    if !any {
        return Err(Error::InvalidScene {
            path: "meshes".to_string(),
            message: "no mesh with a triangle hangs below the lower, upper or head node: \
                      the player would draw nothing"
                .to_string(),
        });
    }
    let scale = scale_of(scene, options, &all)?;
    // Each part's tags, and the ones the next part hangs at.
    let mut part_tags: Vec<Vec<(usize, String)>> = PARTS
        .iter()
        .map(|&p| {
            tags::tag_nodes(scene, |n| owners[n] == Some(Owner::Part(p)))
                .into_iter()
                .map(|n| (n, scene.nodes[n].name.clone()))
                .collect()
        })
        .collect();
    let mut origins = [nodes[0], nodes[1], nodes[2]];
    for (k, tag) in [(0, "tag_torso"), (1, "tag_head")] {
        let found = part_tags[k]
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(tag))
            .map(|t| t.0);
        origins[k + 1] = match found {
            Some(t) => t,
            None => {
                part_tags[k].push((nodes[k + 1], tag.to_string()));
                notes.push(PlayerNote::TagMade {
                    part: PARTS[k],
                    tag,
                });
                nodes[k + 1]
            }
        };
    }
    if !part_tags[1]
        .iter()
        .any(|(_, n)| n.eq_ignore_ascii_case("tag_weapon"))
    {
        notes.push(PlayerNote::NoWeaponTag);
    }
    let plan = player_plan::plan(scene, options.fps);
    if plan.unplayed > 0 {
        notes.push(PlayerNote::UnplayedFrames {
            count: plan.unplayed,
        });
    }
    let plans = [&plan.lower, &plan.upper, &plan.head];
    let mut compiled = Vec::with_capacity(3);
    for (k, part) in PARTS.into_iter().enumerate() {
        let meshes: Vec<bool> = (0..scene.meshes.len())
            .map(|m| mesh_owner(m) == Some(Owner::Part(part)))
            .collect();
        let has_triangles = meshes
            .iter()
            .zip(&scene.meshes)
            .any(|(&m, mesh)| m && mesh.indices.len() >= 3);
        if !has_triangles {
            notes.push(PlayerNote::NoSurfaces { part });
        }
        let compile_options = CompileOptions {
            fps: options.fps,
            keep_source_frames: false,
            animations: Vec::new(),
            scale: Some(scale),
            fit_height: None,
            engine: options.engine,
            name: Some(match &options.name {
                Some(n) => format!("models/players/{n}/{}.md3", part.name()),
                None => format!("{}.md3", part.name()),
            }),
            split_surfaces: options.split_surfaces,
        };
        options::check_options(&compile_options)?;
        let selection = Selection {
            meshes,
            tags: std::mem::take(&mut part_tags[k]),
            origin: Some(origins[k]),
            shaders_from_extras: true,
            allow_empty: true,
        };
        let made = compile_planned(scene, &compile_options, plans[k], &selection)
            .map_err(|e| in_part(e, part))?;
        // What the engine's loader refuses that no per-compile limit
        // catches (Ironwail and vkQuake stop on a model of no surface).
        if let Some(engine) = options.engine {
            let refused = made
                .model
                .validate_for(engine)
                .into_iter()
                .find(|p| p.severity == crate::Severity::Error);
            if let Some(p) = refused {
                return Err(Error::unwritable(
                    format!("{}.md3: {}", part.name(), p.path),
                    format!("{} would not load it: {}", engine.title(), p.message),
                ));
            }
        }
        compiled.push(made);
    }
    let kept = scene.extras.get("md3_player");
    let kept_str = |key: &str| kept.and_then(|k| k.get(key)).and_then(|v| v.as_str());
    let head_offset = kept
        .and_then(|k| k.get("headoffset"))
        .and_then(|v| serde_json::from_value::<[f32; 3]>(v.clone()).ok())
        .filter(|v| v.iter().all(|c| c.is_finite()));
    let animation_cfg = AnimationCfg {
        sex: options
            .sex
            .or_else(|| kept_str("sex").and_then(|s| s.chars().next()))
            .filter(char::is_ascii_alphabetic),
        head_offset,
        footsteps: options
            .footsteps
            .clone()
            .or_else(|| kept_str("footsteps").map(str::to_string)),
        fixed_legs: kept
            .and_then(|k| k.get("fixedlegs"))
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
        fixed_torso: kept
            .and_then(|k| k.get("fixedtorso"))
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
        animations: plan.lines.iter().map(|l| l.line.clone()).collect(),
        unknown: Vec::new(),
    };
    let name = options.name.as_deref();
    let mut compiled = compiled.into_iter();
    let (Some(lower), Some(upper), Some(head)) =
        (compiled.next(), compiled.next(), compiled.next())
    else {
        return Err(Error::InvalidOptions {
            message: "a player has three parts".to_string(),
        });
    };
    let skins = [
        skin_of(scene, &lower, name),
        skin_of(scene, &upper, name),
        skin_of(scene, &head, name),
    ];
    Ok(CompiledPlayer {
        lower,
        upper,
        head,
        animation_cfg,
        lines: plan.lines,
        skins,
        scale,
        notes,
    })
}

/// An error of one part's compile, its place prefixed with the part's
/// file (`upper.md3: surfaces[0].num_verts`).
fn in_part(e: Error, part: PlayerPart) -> Error {
    let file = part.name();
    match e {
        Error::Advised { error, advice } => Error::Advised {
            error: Box::new(in_part(*error, part)),
            advice,
        },
        Error::Unwritable { context, message } => Error::Unwritable {
            context: format!("{file}.md3: {context}"),
            message,
        },
        Error::InvalidScene { path, message } => Error::InvalidScene {
            path,
            message: format!("{file}.md3: {message}"),
        },
        other => other,
    }
}
