//! Quake III player models: `lower.md3`, `upper.md3` and `head.md3`
//! joined at their tags, with `animation.cfg`, as one [`Scene`].
//!
//! The game draws the legs at the entity, the torso at the legs'
//! `tag_torso` and the head at the torso's `tag_head`
//! (`CG_PositionRotatedEntityOnTag` in ioquake3's `code/cgame/cg_players.c`,
//! `CG_Player`), each with the tag of the parent's current frame. The
//! scene has the same tree, with these node names (what a compiler back
//! to three files reads):
//!
//! ```text
//! lower                 the legs (meshes: lower.md3's surfaces)
//! ├── tag_torso         lower.md3's tags, animated per frame
//! │   └── upper         the torso (upper.md3's surfaces)
//! │       ├── tag_head  upper.md3's tags (tag_weapon, tag_torso, ...)
//! │       │   └── head  the head (head.md3's surfaces)
//! │       │       └── tag_head    head.md3's own tags
//! │       └── tag_weapon
//! └── ...
//! ```
//!
//! A weapon given ([`Player::weapon`]) hangs below `upper`'s `tag_weapon`
//! as a part node `weapon` (not animated: its first frame).
//!
//! Part nodes carry `{"md3_part": "lower"}` (etc.) in their extras and
//! have the identity transform: each follows its parent tag.
//! `animation.cfg`'s `BOTH_` animations key the lower and upper parts,
//! `TORSO_` ones the upper, `LEGS_` ones the lower (at their frames in
//! `lower.md3`, [`AnimationCfg::first_frame_in_part`]); each animation is
//! named as in the cfg (`LEGS_RUN`). Its keywords and every line as
//! written (`lines`: first, count, looping, fps) are kept in the scene's
//! extras (`md3_player`).

use serde_json::json;

use super::lift::{self, add_model, check_morph_size, Lifted};
use super::{AnimationCfg, Md3, PlayerPart, ShaderScripts, SkinFile};
use crate::problem::Problem;
use crate::scene::{Animation, Node, Scene};

/// The three models of a player, its `animation.cfg` and `.skin` files.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Player {
    /// `lower.md3`.
    pub lower: Md3,
    /// `upper.md3`.
    pub upper: Md3,
    /// `head.md3`.
    pub head: Md3,
    /// `animation.cfg`, when there is one.
    pub animation_cfg: Option<AnimationCfg>,
    /// `lower_NAME.skin`, `upper_NAME.skin`, `head_NAME.skin`, in that
    /// order, those that are given.
    pub skins: [Option<SkinFile>; 3],
    /// A weapon (`models/weapons2/NAME/NAME.md3`) to hold at `upper.md3`'s
    /// `tag_weapon`, as `CG_AddPlayerWeapon` places it.
    pub weapon: Option<Md3>,
    /// Shader scripts: surfaces naming a scripted shader get its image.
    pub shaders: Option<ShaderScripts>,
}

/// The file names of a skin set (`default` → `lower_default.skin`,
/// `upper_default.skin`, `head_default.skin`), in [`Player::skins`]'
/// order.
///
/// ```
/// assert_eq!(retromodel::md3::skin_file_names("red")[1], "upper_red.skin");
/// ```
pub fn skin_file_names(set: &str) -> [String; 3] {
    [PlayerPart::Lower, PlayerPart::Upper, PlayerPart::Head]
        .map(|p| format!("{}_{set}.skin", p.name()))
}

impl Player {
    /// Reads a player from its files' bytes: the three models, the
    /// `animation.cfg` and the three `.skin` files (each optional).
    pub fn from_bytes(
        lower: &[u8],
        upper: &[u8],
        head: &[u8],
        animation_cfg: Option<&[u8]>,
        skins: [Option<&[u8]>; 3],
    ) -> crate::Result<Player> {
        let [a, b, c] = skins;
        Ok(Player {
            lower: Md3::from_bytes(lower)?,
            upper: Md3::from_bytes(upper)?,
            head: Md3::from_bytes(head)?,
            animation_cfg: animation_cfg.map(AnimationCfg::parse).transpose()?,
            skins: [
                a.map(SkinFile::parse).transpose()?,
                b.map(SkinFile::parse).transpose()?,
                c.map(SkinFile::parse).transpose()?,
            ],
            weapon: None,
            shaders: None,
        })
    }
}

/// The node of the tag called `name` (without case) among a lifted
/// model's tags.
fn tag_node(scene: &Scene, lifted: &Lifted, name: &str) -> Option<usize> {
    lifted.tags.iter().copied().find(|&n| {
        scene
            .nodes
            .get(n)
            .is_some_and(|node| node.name.eq_ignore_ascii_case(name))
    })
}

fn part_node(scene: &mut Scene, part: PlayerPart, parent: Option<usize>) -> usize {
    scene.nodes.push(Node {
        name: part.name().to_string(),
        parent,
        extras: json!({ "md3_part": part.name() }),
        ..Node::default()
    });
    scene.nodes.len() - 1
}

impl Scene {
    /// One scene of a Quake III player (the [module](crate::md3::player)'s
    /// tree and names): the lower part at the root, the upper at its
    /// `tag_torso`, the head at the upper's `tag_head`; the animations of
    /// its `animation.cfg`, or, without one, each part's own
    /// ([`Scene::from_md3`]'s, named `lower frames` and so on) at `fps`.
    ///
    /// Fails when `lower.md3` has no `tag_torso` or `upper.md3` no
    /// `tag_head`, or when a part's morph targets would take more than
    /// [`MAX_MORPH_BYTES`](crate::md3::MAX_MORPH_BYTES).
    pub fn from_md3_player(player: &Player, name: &str, fps: f32) -> crate::Result<Scene> {
        let cfg = player.animation_cfg.as_ref();
        let parts = [
            (PlayerPart::Lower, &player.lower),
            (PlayerPart::Upper, &player.upper),
            (PlayerPart::Head, &player.head),
        ];
        let specs: Vec<_> = parts
            .iter()
            .map(|&(part, model)| {
                let options = super::Md3SceneOptions {
                    fps,
                    animation_cfg: cfg.cloned(),
                    part: Some(part),
                    ..super::Md3SceneOptions::default()
                };
                let (specs, left_out) = lift::specs(model, &options);
                let file = part.name();
                (
                    specs,
                    left_out
                        .into_iter()
                        .map(move |w| format!("{file}.md3: {w}")),
                )
            })
            .collect();
        let mut warnings: Vec<String> = Vec::new();
        let specs: Vec<_> = specs
            .into_iter()
            .map(|(specs, left_out)| {
                warnings.extend(left_out);
                specs
            })
            .collect();
        for ((_, model), specs) in parts.iter().zip(&specs) {
            check_morph_size(model, specs.iter().map(|s| s.frames.len()).sum())?;
        }
        let mut scene = Scene {
            name: name.to_string(),
            ..Scene::default()
        };
        let lower_node = part_node(&mut scene, PlayerPart::Lower, None);
        let lower = add_model(
            &mut scene,
            &player.lower,
            player.skins[0].as_ref(),
            player.shaders.as_ref(),
            Some(lower_node),
            "lower.md3: ",
            &mut warnings,
        );
        let torso = tag_node(&scene, &lower, "tag_torso")
            .ok_or_else(|| missing_tag("lower", "tag_torso"))?;
        let upper_node = part_node(&mut scene, PlayerPart::Upper, Some(torso));
        let upper = add_model(
            &mut scene,
            &player.upper,
            player.skins[1].as_ref(),
            player.shaders.as_ref(),
            Some(upper_node),
            "upper.md3: ",
            &mut warnings,
        );
        let head_tag =
            tag_node(&scene, &upper, "tag_head").ok_or_else(|| missing_tag("upper", "tag_head"))?;
        let head_node = part_node(&mut scene, PlayerPart::Head, Some(head_tag));
        let head = add_model(
            &mut scene,
            &player.head,
            player.skins[2].as_ref(),
            player.shaders.as_ref(),
            Some(head_node),
            "head.md3: ",
            &mut warnings,
        );
        if let Some(weapon) = &player.weapon {
            let tag = tag_node(&scene, &upper, "tag_weapon")
                .ok_or_else(|| missing_tag("upper", "tag_weapon"))?;
            scene.nodes.push(Node {
                name: "weapon".to_string(),
                parent: Some(tag),
                extras: json!({ "md3_part": "weapon" }),
                ..Node::default()
            });
            let node = scene.nodes.len() - 1;
            add_model(
                &mut scene,
                weapon,
                None,
                player.shaders.as_ref(),
                Some(node),
                "weapon: ",
                &mut warnings,
            );
        }
        let lifted = [
            (&player.lower, &lower),
            (&player.upper, &upper),
            (&player.head, &head),
        ];
        match cfg {
            Some(cfg) => {
                for a in &cfg.animations {
                    let mut animation = Animation {
                        name: a.name.to_string(),
                        ..Animation::default()
                    };
                    for ((model, l), specs) in lifted.iter().zip(&specs) {
                        if let Some(spec) = specs.iter().find(|s| s.name == a.name) {
                            animation
                                .channels
                                .extend(lift::animation(model, l, spec).channels);
                            animation.extras = spec.extras.clone();
                        }
                    }
                    if animation.channels.is_empty() {
                        continue;
                    }
                    scene.animations.push(animation);
                }
            }
            None => {
                for (((model, l), specs), part) in
                    lifted.iter().zip(&specs).zip(["lower", "upper", "head"])
                {
                    for spec in specs {
                        let mut animation = lift::animation(model, l, spec);
                        animation.name = format!("{part} {}", spec.name);
                        scene.animations.push(animation);
                    }
                }
            }
        }
        scene.extras = json!({
            "source": "MD3",
            "md3_player": cfg.map(|c| json!({
                "sex": c.sex.map(String::from),
                "headoffset": c.head_offset,
                "footsteps": c.footsteps,
                "fixedlegs": c.fixed_legs,
                "fixedtorso": c.fixed_torso,
                // Every line as written, those left out too (a line of no
                // frames), for a compile to write back.
                "lines": c.animations.iter().map(|a| json!([
                    a.first_frame, a.num_frames, a.looping_frames, a.fps
                ])).collect::<Vec<_>>(),
            })).unwrap_or(json!({})),
        });
        if !warnings.is_empty() {
            scene.extras["warnings"] = json!(warnings);
        }
        Ok(scene)
    }
}

fn missing_tag(part: &str, tag: &str) -> crate::Error {
    crate::Error::InvalidScene {
        path: format!("{part}.md3.tags"),
        message: format!("{part}.md3 has no {tag}, where the next part of the player attaches"),
    }
}

/// The files beside an MD3 that shape its scene, as bytes (the front
/// end finds them; the library reads no files): an `animation.cfg` and a
/// `.skin` for one model, or the three parts of a player.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Md3Companions {
    /// `animation.cfg`.
    pub animation_cfg: Option<Vec<u8>>,
    /// A `.skin` file for a single model.
    pub skin: Option<Vec<u8>>,
    /// Which part of a player a single model is.
    pub part: Option<PlayerPart>,
    /// `lower.md3`, `upper.md3`, `head.md3`: the whole player.
    pub player: Option<[Vec<u8>; 3]>,
    /// The player's `.skin` files, in [`skin_file_names`]' order.
    pub player_skins: [Option<Vec<u8>>; 3],
    /// A weapon for the player to hold at `tag_weapon`.
    pub weapon: Option<Vec<u8>>,
    /// Shader scripts (`scripts/*.shader`), in the order read.
    pub shader_scripts: Vec<Vec<u8>>,
}

impl Md3Companions {
    /// The scene of `model` with these files: the whole player when its
    /// three parts are given ([`Scene::from_md3_player`]), else the model
    /// with the `animation.cfg` and `.skin` ([`Scene::from_md3`]).
    pub fn scene(&self, model: &Md3, name: &str, fps: Option<f32>) -> crate::Result<Scene> {
        self.scene_and_warnings(model, name, fps)
            .map(|(scene, _)| scene)
    }

    /// [`Md3Companions::scene`], and a warning for each file beside the
    /// model that does not fit it and was left out: an `animation.cfg` of
    /// another kind (Unvanquished's and Tremulous's weapon files, 12
    /// lines and no player) or with errors, a `.skin` that does not parse.
    /// Such a file never stops the model.
    ///
    /// ```
    /// use retromodel::md3::compile::{compile, CompileOptions};
    /// use retromodel::md3::Md3Companions;
    /// use retromodel::scene::{Mesh, Scene};
    ///
    /// # fn main() -> Result<(), retromodel::Error> {
    /// let triangle = Scene {
    ///     meshes: vec![Mesh {
    ///         positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    ///         indices: vec![0, 1, 2],
    ///         ..Mesh::default()
    ///     }],
    ///     ..Scene::default()
    /// };
    /// let model = compile(&triangle, &CompileOptions::default())?.model;
    /// let companions = Md3Companions {
    ///     animation_cfg: Some(b"0 10 10 15\n".to_vec()),
    ///     ..Md3Companions::default()
    /// };
    /// let (scene, warnings) = companions.scene_and_warnings(&model, "gun", None)?;
    /// assert_eq!(warnings[0].path, "animation.cfg");
    /// assert!(!scene.meshes.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn scene_and_warnings(
        &self,
        model: &Md3,
        name: &str,
        fps: Option<f32>,
    ) -> crate::Result<(Scene, Vec<Problem>)> {
        let fps = fps.unwrap_or(super::DEFAULT_FPS);
        let mut warnings = Vec::new();
        let shaders = (!self.shader_scripts.is_empty()).then(|| {
            let mut s = ShaderScripts::default();
            for script in &self.shader_scripts {
                s.add(script);
            }
            s
        });
        let animation_cfg = fitting(
            self.animation_cfg.as_deref(),
            "animation.cfg",
            AnimationCfg::parse,
            &mut warnings,
        );
        if let Some([lower, upper, head]) = &self.player {
            let [a, b, c] = &self.player_skins;
            let mut fits = |bytes: Option<&[u8]>, part: &str| {
                let what = format!("{part} .skin");
                fitting(bytes, &what, SkinFile::parse, &mut warnings).is_some()
            };
            let skins = [(a, "lower"), (b, "upper"), (c, "head")]
                .map(|(bytes, part)| bytes.as_deref().filter(|b| fits(Some(b), part)));
            let mut player = Player::from_bytes(
                lower,
                upper,
                head,
                animation_cfg.as_ref().and(self.animation_cfg.as_deref()),
                skins,
            )?;
            player.weapon = self.weapon.as_deref().map(Md3::from_bytes).transpose()?;
            player.shaders = shaders;
            return Ok((Scene::from_md3_player(&player, name, fps)?, warnings));
        }
        let options = super::Md3SceneOptions {
            fps,
            name: name.to_string(),
            skin: fitting(
                self.skin.as_deref(),
                ".skin",
                SkinFile::parse,
                &mut warnings,
            ),
            animation_cfg,
            part: self.part,
            shaders,
        };
        Ok((Scene::from_md3(model, &options)?, warnings))
    }
}

/// A file beside the model parsed, or `None` and a warning (path `what`,
/// the parser's own words, "left out") when it does not parse.
fn fitting<T>(
    bytes: Option<&[u8]>,
    what: &str,
    parse: impl Fn(&[u8]) -> crate::Result<T>,
    warnings: &mut Vec<Problem>,
) -> Option<T> {
    match parse(bytes?) {
        Ok(parsed) => Some(parsed),
        Err(err) => {
            warnings.push(Problem {
                severity: crate::problem::Severity::Warning,
                path: what.to_string(),
                message: format!("{err}; left out (the model is read without it)"),
                offset: None,
            });
            None
        }
    }
}
