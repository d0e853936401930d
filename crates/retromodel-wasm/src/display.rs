//! What the page draws: the scene that `retromodel convert MODEL STEM.glb`
//! exports, as a GLB without the images the library decoded, and those
//! images as RGBA pixels for the page to hand to three.js directly; an
//! MD2's scene as the arrays that GLB would hold ([`MorphMesh`]), from
//! which the page builds three.js's objects without writing or parsing a
//! GLB.
//!
//! The downloaded `.glb` embeds every texture as PNG (and is byte-identical
//! to the command line's); drawing it meant encoding the decoded skin as
//! PNG here and decoding it again in the browser. For display the PNG
//! round trip is skipped (PNG is lossless: the pixels are the same), and
//! the download is made only when asked for ([`Session::convert`]).
//!
//! The scene comes decoded from the session ([`crate::decoded`]).

use retromodel::gltf::GltfOptions;
use retromodel::scene::{Interpolation, Material, Scene, Target, TextureImage};
use retromodel::texture::Rgba8Image;
use retromodel::Format;

use crate::options::WebOptions;
use crate::session::{warning_entry, Session, WarningEntry};

/// One animation of a [`MorphMesh`]: one channel of morph weights, as
/// the GLB's animation stores it.
#[derive(Debug, Clone, PartialEq)]
pub struct MorphClip {
    /// The name (empty when the scene's animation has none; GLTFLoader
    /// then names it `animation_INDEX`).
    pub name: String,
    /// Key times in seconds.
    pub times: Vec<f32>,
    /// For each key, one weight per morph target.
    pub values: Vec<f32>,
    /// `LINEAR` or `STEP`, glTF's name of the channel's interpolation.
    pub interpolation: &'static str,
}

/// A scene of one morphing mesh (an MD2's) as the arrays of the GLB the
/// scene exports, for the page to build three.js's objects from directly
/// (a `BufferGeometry` with relative morph attributes, a
/// `MeshStandardMaterial`, `AnimationClip`s of morph weights), as
/// GLTFLoader builds them from that GLB, without writing and parsing one.
#[derive(Debug, Clone, PartialEq)]
pub struct MorphMesh {
    /// The mesh's name.
    pub name: String,
    /// Base positions, 3 numbers a vertex.
    pub positions: Vec<f32>,
    /// Base normals, 3 numbers a vertex.
    pub normals: Vec<f32>,
    /// Texture coordinates, 2 numbers a vertex (`v` top-down, as glTF's).
    pub uvs: Vec<f32>,
    /// Three vertex indices a triangle.
    pub indices: Vec<u32>,
    /// The morph targets' names (the GLB's `extras.targetNames`).
    pub target_names: Vec<String>,
    /// Every target's position displacements, target after target (3
    /// numbers a vertex).
    pub target_positions: Vec<f32>,
    /// Every target's normal displacements, laid out alike (empty when the
    /// targets have no normals).
    pub target_normals: Vec<f32>,
    /// The default weight of each target (the GLB mesh's `weights`).
    pub weights: Vec<f32>,
    /// The smallest box holding the base and every pose with one target
    /// at weight 1 (an MD2's frames; their blends lie between), as (min,
    /// max).
    pub bounds: ([f32; 3], [f32; 3]),
    /// The mesh's material; `None` for none (GLTFLoader's default one).
    pub material: Option<Material>,
    /// The index of that material in the scene (and the GLB).
    pub material_index: Option<usize>,
    /// The animations the GLB has, in its order (those with a channel).
    pub clips: Vec<MorphClip>,
}

impl MorphMesh {
    /// The arrays of `scene` when it is one MD2-like mesh: no nodes, no
    /// skins, vertices with normals and texture coordinates, morph targets
    /// all with or all without normals, animations of that mesh's weights
    /// only (linear or step), no texture kept as PNG bytes (the GLB would
    /// embed it). `None` for any other scene, and for one the glTF writer
    /// would refuse (arrays of the wrong lengths): that goes through the
    /// GLB, which reports it.
    pub fn of(scene: &Scene) -> Option<MorphMesh> {
        let [mesh] = scene.meshes.as_slice() else {
            return None;
        };
        let n = mesh.positions.len();
        let targets = &mesh.morph_targets;
        let target_normals = targets.first().is_some_and(|t| !t.normals.is_empty());
        let simple = scene.nodes.is_empty()
            && scene.skins.is_empty()
            && mesh.node.is_none()
            && mesh.skin.is_none()
            && n > 0
            && mesh.normals.len() == n
            && mesh.uvs.len() == n
            && !mesh.indices.is_empty()
            && mesh.indices.len() % 3 == 0
            && mesh.indices.iter().all(|&i| (i as usize) < n)
            && mesh.morph_weights.len() <= targets.len()
            && targets.iter().all(|t| {
                t.positions.len() == n && t.normals.len() == if target_normals { n } else { 0 }
            })
            && !scene
                .textures
                .iter()
                .any(|t| matches!(t.image, Some(TextureImage::Png(_))));
        if !simple {
            return None;
        }
        let mut clips = Vec::new();
        for anim in &scene.animations {
            let [channel] = anim.channels.as_slice() else {
                if anim.channels.is_empty() {
                    continue;
                }
                return None;
            };
            let interpolation = match channel.interpolation {
                Interpolation::Linear => "LINEAR",
                Interpolation::Step => "STEP",
                Interpolation::CubicSpline => return None,
            };
            let fits = channel.target == Target::MorphWeights { mesh: 0 }
                && !targets.is_empty()
                && !channel.times.is_empty()
                && channel.values.len() == channel.times.len() * targets.len();
            if !fits {
                return None;
            }
            clips.push(MorphClip {
                name: anim.name.clone(),
                times: channel.times.clone(),
                values: channel.values.clone(),
                interpolation,
            });
        }
        let grow = |(lo, hi): ([f32; 3], [f32; 3]), p: [f32; 3]| {
            (
                std::array::from_fn(|c| lo[c].min(p[c])),
                std::array::from_fn(|c| hi[c].max(p[c])),
            )
        };
        let empty = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
        let base_box = mesh.positions.iter().copied().fold(empty, grow);
        let bounds = targets.iter().fold(base_box, |b, t| {
            mesh.positions
                .iter()
                .zip(&t.positions)
                .fold(b, |b, (p, d)| grow(b, std::array::from_fn(|c| p[c] + d[c])))
        });
        let material_index = mesh.material.filter(|&m| m < scene.materials.len());
        let mut weights = vec![0.0; targets.len()];
        weights[..mesh.morph_weights.len()].copy_from_slice(&mesh.morph_weights);
        Some(MorphMesh {
            name: mesh.name.clone(),
            positions: mesh.positions.as_flattened().to_vec(),
            normals: mesh.normals.as_flattened().to_vec(),
            uvs: mesh.uvs.as_flattened().to_vec(),
            indices: mesh.indices.clone(),
            target_names: targets.iter().map(|t| t.name.clone()).collect(),
            target_positions: targets
                .iter()
                .flat_map(|t| t.positions.as_flattened())
                .copied()
                .collect(),
            target_normals: targets
                .iter()
                .flat_map(|t| t.normals.as_flattened())
                .copied()
                .collect(),
            weights,
            bounds,
            material: material_index.and_then(|m| scene.materials.get(m)).cloned(),
            material_index,
            clips,
        })
    }
}

/// What the page draws.
#[derive(Debug, Clone)]
pub struct Display {
    /// The scene as GLB, without the textures in [`images`](Self::images)
    /// (their materials have no base colour texture in it); empty when the
    /// scene comes as [`morph`](Self::morph) instead.
    pub glb: Vec<u8>,
    /// The scene as arrays, for an MD2 without `--quantize` and
    /// `--compress` (which change the GLB's arrays); then there is no
    /// [`glb`](Self::glb).
    pub morph: Option<MorphMesh>,
    /// Per texture of the scene, its decoded image (`None` for one without,
    /// or one the GLB embeds).
    pub images: Vec<Option<Rgba8Image>>,
    /// Per material of the scene (= of the GLB, in order), the index in
    /// [`images`](Self::images) of its base colour image, if it has one
    /// there.
    pub material_images: Vec<Option<usize>>,
    /// Per material, the index in [`images`](Self::images) of its
    /// emissive image (a Quake MDL skin's fullbright texels), if it has
    /// one there: the GLB leaves it out as it leaves the base colour
    /// image out.
    pub material_emissive_images: Vec<Option<usize>>,
    /// What the conversion passed over (the `.glb` download's warnings).
    pub warnings: Vec<WarningEntry>,
    /// The dropped image given as `--skin`, if any.
    pub skin: Option<String>,
}

/// What `session` shows with `options`: the scene of
/// `convert MODEL STEM.glb` with those options (and, with `auto_skin`, the
/// suggested `--skin`).
pub fn display(
    session: &Session,
    options: &WebOptions,
    auto_skin: bool,
) -> Result<Display, String> {
    let mut options = options.clone();
    if auto_skin && options.skin.is_none() {
        options.skin = session.suggested_skin();
    }
    let convert_options = options.to_convert_options(session.files())?;
    let decoded = session.decoded_scene_taken(&convert_options)?;
    let gltf = GltfOptions {
        quantize: convert_options.quantize,
        compress: convert_options.compress,
    };
    let plain = !gltf.quantize && !gltf.compress;
    let morph = (plain && session.model().format() == Format::Md2)
        .then(|| MorphMesh::of(&decoded.scene))
        .flatten();
    let glb = match morph {
        Some(_) => Vec::new(),
        None => retromodel::gltf::to_glb_with(&decoded.scene, &gltf)
            .map_err(|e| format!("{}: cannot export: {e}", session.file_name()))?,
    };
    let material_images = decoded
        .scene
        .materials
        .iter()
        .map(|m| {
            m.texture
                .filter(|&t| decoded.images.get(t).is_some_and(Option::is_some))
        })
        .collect();
    let material_emissive_images = decoded
        .scene
        .materials
        .iter()
        .map(|m| {
            m.emissive_texture
                .filter(|&t| decoded.images.get(t).is_some_and(Option::is_some))
        })
        .collect();
    Ok(Display {
        glb,
        morph,
        images: decoded.images,
        material_images,
        material_emissive_images,
        warnings: decoded.warnings.iter().map(warning_entry).collect(),
        skin: options.skin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use retromodel::texture::decode;
    use retromodel::texture::MemorySource;

    fn sample_files() -> MemorySource {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/models");
        let mut files = MemorySource::new();
        for name in ["sample.md2", "sample.pcx"] {
            let bytes = std::fs::read(format!("{root}/{name}")).unwrap();
            files.add(name, bytes).unwrap();
        }
        files
    }

    fn import(bytes: &[u8]) -> Scene {
        retromodel::gltf::import(bytes, None, &retromodel::gltf::ImportOptions::default())
            .unwrap()
            .scene
    }

    /// The PNG the download embeds for texture `index`, decoded.
    fn embedded(scene: &Scene, index: usize) -> Rgba8Image {
        match &scene.textures[index].image {
            Some(TextureImage::Png(bytes)) => decode(bytes).unwrap(),
            other => panic!("the download embeds a PNG, not {other:?}"),
        }
    }

    /// With `--quantize`, the display's GLB and pixels against the
    /// download's: the same document but the images, and the images the
    /// download's PNGs decode to.
    #[test]
    fn the_display_is_the_download_without_the_png_round_trip() {
        let files = sample_files();
        let session = Session::load(&files, "sample.md2").unwrap();
        let options = WebOptions {
            quantize: true,
            ..WebOptions::default()
        };
        let shown = display(&session, &options, true).unwrap();
        let download = session.convert("glb", &options, true).unwrap();
        assert_eq!(
            shown.warnings, download.warnings,
            "the same warnings as the download"
        );
        assert_eq!(shown.skin, download.skin);
        assert!(
            shown.morph.is_none(),
            "a quantized GLB is not given as arrays"
        );
        let (_, glb) = download.files.last().unwrap();
        let (full, bare) = (import(glb), import(&shown.glb));
        assert_eq!(full.meshes, bare.meshes);
        assert_eq!(full.animations, bare.animations);
        // The GLB has no image at all: the one texture is given as pixels.
        assert_eq!((full.textures.len(), bare.textures.len()), (1, 0));
        assert!(shown.glb.len() < glb.len());
        // Material 0 draws texture 0, whose pixels are the download's PNG's.
        assert_eq!(shown.material_images, [Some(0)]);
        assert_eq!(shown.images[0].as_ref(), Some(&embedded(&full, 0)));
    }

    /// An MD2 without `--quantize` and `--compress` is given as the
    /// arrays its download's GLB holds (read back by the glTF importer):
    /// the same vertices, triangles, morph targets, material and
    /// animations, and the skin as the pixels of the download's PNG.
    #[test]
    fn an_md2_is_shown_as_the_arrays_of_its_download() {
        let files = sample_files();
        let session = Session::load(&files, "sample.md2").unwrap();
        let options = WebOptions::default();
        let shown = display(&session, &options, true).unwrap();
        let download = session.convert("glb", &options, true).unwrap();
        assert_eq!(shown.warnings, download.warnings);
        assert_eq!(shown.skin, download.skin);
        assert!(shown.glb.is_empty(), "no GLB written for the display");
        let arrays = shown.morph.as_ref().expect("an MD2 comes as arrays");
        let full = import(&download.files.last().unwrap().1);
        let [mesh] = full.meshes.as_slice() else {
            panic!("{} meshes in the download", full.meshes.len());
        };
        assert_eq!(arrays.positions, mesh.positions.as_flattened());
        assert_eq!(arrays.normals, mesh.normals.as_flattened());
        assert_eq!(arrays.uvs, mesh.uvs.as_flattened());
        assert_eq!(arrays.indices, mesh.indices);
        let targets = &mesh.morph_targets;
        assert!(!targets.is_empty());
        let names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(arrays.target_names, names);
        let flat = |f: fn(&retromodel::scene::MorphTarget) -> &Vec<[f32; 3]>| -> Vec<f32> {
            targets
                .iter()
                .flat_map(|t| f(t).as_flattened().to_vec())
                .collect()
        };
        assert_eq!(arrays.target_positions, flat(|t| &t.positions));
        assert_eq!(arrays.target_normals, flat(|t| &t.normals));
        assert_eq!(arrays.weights, vec![0.0; targets.len()]);
        // Every frame's every vertex lies in the bounds, and each side is
        // touched by one (target 0, frame 0, is the base).
        let (lo, hi) = arrays.bounds;
        let mut touched = [[false; 3]; 2];
        for t in targets {
            for (p, d) in mesh.positions.iter().zip(&t.positions) {
                for c in 0..3 {
                    let v = p[c] + d[c];
                    assert!(lo[c] <= v && v <= hi[c], "{v} outside {lo:?}..{hi:?}");
                    touched[0][c] |= v == lo[c];
                    touched[1][c] |= v == hi[c];
                }
            }
        }
        assert_eq!(
            touched, [[true; 3]; 2],
            "bounds {lo:?}..{hi:?} wider than the frames"
        );
        // The material, but its texture (given as pixels).
        assert_eq!(arrays.material_index, mesh.material);
        let material = arrays.material.as_ref().unwrap();
        assert_eq!(
            Material {
                texture: None,
                extras: serde_json::Value::Null,
                ..material.clone()
            },
            Material {
                texture: None,
                extras: serde_json::Value::Null,
                ..full.materials[0].clone()
            }
        );
        assert_eq!(shown.material_images, [Some(0)]);
        assert_eq!(full.materials[0].texture, Some(0));
        assert_eq!(shown.images[0].as_ref(), Some(&embedded(&full, 0)));
        // Every animation, in order, with its one channel of weights.
        assert_eq!(arrays.clips.len(), full.animations.len());
        for (clip, anim) in arrays.clips.iter().zip(&full.animations) {
            let [channel] = anim.channels.as_slice() else {
                panic!("{} channels in {}", anim.channels.len(), anim.name);
            };
            assert_eq!(clip.name, anim.name);
            assert_eq!(channel.target, Target::MorphWeights { mesh: 0 });
            assert_eq!(clip.times, channel.times);
            assert_eq!(clip.values, channel.values);
            assert_eq!(
                (clip.interpolation, channel.interpolation),
                ("LINEAR", Interpolation::Linear)
            );
        }
    }

    #[test]
    fn a_dropped_image_is_the_skin_when_the_model_finds_none() {
        let mut files = MemorySource::new();
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/models");
        files
            .add(
                "model.md2",
                std::fs::read(format!("{root}/sample.md2")).unwrap(),
            )
            .unwrap();
        files
            .add(
                "other.pcx",
                std::fs::read(format!("{root}/sample.pcx")).unwrap(),
            )
            .unwrap();
        let session = Session::load(&files, "model.md2").unwrap();
        let shown = display(&session, &WebOptions::default(), true).unwrap();
        let download = session
            .convert("glb", &WebOptions::default(), true)
            .unwrap();
        assert_eq!(shown.skin.as_deref(), Some("other.pcx"));
        assert_eq!(shown.skin, download.skin);
        assert_eq!(shown.warnings, download.warnings);
        assert!(shown.images[0].is_some());
        assert!(shown.morph.is_some());
        let plain = display(&session, &WebOptions::default(), false).unwrap();
        assert_eq!(plain.skin, None);
        assert!(plain.images.iter().all(Option::is_none));
    }
}
