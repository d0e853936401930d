//! Materials (metallic-roughness factors, base colour texture, alpha,
//! double-sidedness, emissive factor and map, extras), the images their
//! base colour and emissive textures use (as PNG), and
//! `KHR_texture_transform`.

use std::collections::BTreeMap;

use super::container::{parse_uri, Uri};
use super::json::{err, At, Path};
use super::Ctx;
use crate::error::Result;
use crate::scene::{AlphaMode, Material, Scene, Texture, TextureImage};

/// What primitives need to know of their material.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Use {
    /// Whether the material has a base colour texture.
    pub textured: bool,
    /// The texture coordinate set it reads.
    pub tex_coord: usize,
    /// `KHR_texture_transform` as `[a, b, c, d, e, f]`:
    /// `u' = a·u + b·v + c`, `v' = d·u + e·v + f`.
    pub transform: Option<[f32; 6]>,
}

/// The document's materials, converted.
pub(crate) struct Materials {
    /// Per document material.
    uses: Vec<Use>,
    /// The scene index of the default material, once added.
    default: std::cell::Cell<Option<usize>>,
    /// How many materials the scene has before the default is added.
    count: usize,
}

impl Materials {
    /// Adds every material of the document (and the textures they use) to
    /// `scene`.
    pub fn new(ctx: &Ctx, scene: &mut Scene) -> Result<Materials> {
        let list = ctx.list("materials")?;
        let mut uses = Vec::with_capacity(list.len());
        // Document texture used by each material's base colour.
        let mut textures: Vec<Option<usize>> = Vec::with_capacity(list.len());
        // Document texture of each material's emissive map.
        let mut emissive: Vec<Option<usize>> = Vec::with_capacity(list.len());
        for i in 0..list.len() {
            let at = ctx.item("materials", i, String::new)?;
            let (material, texture, glow, usage) = material(ctx, &at, i)?;
            scene.materials.push(material);
            textures.push(texture);
            emissive.push(glow);
            uses.push(usage);
        }
        // The images those textures show, in document order.
        let mut images: BTreeMap<usize, Option<usize>> = BTreeMap::new();
        let mut image_of: Vec<Option<usize>> = Vec::with_capacity(2 * textures.len());
        let referrers = textures
            .iter()
            .map(|&t| (t, "pbrMetallicRoughness/baseColorTexture"))
            .chain(emissive.iter().map(|&t| (t, "emissiveTexture")));
        for (k, (t, slot)) in referrers.enumerate() {
            let i = k % textures.len().max(1);
            let image = match t {
                None => None,
                Some(t) => {
                    let referrer = || format!("/materials/{i}/{slot}/index");
                    let tex = ctx.item("textures", t, referrer)?;
                    let source = tex.opt_usize("source")?;
                    if source.is_none() {
                        ctx.warn(
                            format!("/textures/{t}"),
                            "the texture has no source image (one from an unsupported extension?); the material is untextured",
                        );
                    }
                    let count = ctx.list("images")?.len();
                    if let Some(image) = source.filter(|&s| s >= count) {
                        return Err(err(
                            format!("/textures/{t}/source"),
                            format!("image {image} does not exist ({count} images)"),
                        ));
                    }
                    source
                }
            };
            if let Some(image) = image {
                images.insert(image, None);
            }
            image_of.push(image);
        }
        for (&image, slot) in images.iter_mut() {
            *slot = Some(scene.textures.len());
            let texture = load_image(ctx, image)?;
            scene.textures.push(texture);
        }
        let (base_of, glow_of) = image_of.split_at(textures.len());
        let first = scene.materials.len() - textures.len();
        for (k, m) in scene.materials[first..].iter_mut().enumerate() {
            let scene_texture =
                |image: Option<usize>| image.and_then(|i| images.get(&i).copied().flatten());
            m.texture = scene_texture(base_of[k]);
            m.emissive_texture = scene_texture(glow_of[k]);
        }
        let image_of = base_of;
        for (u, image) in uses.iter_mut().zip(image_of) {
            u.textured = image.is_some();
        }
        Ok(Materials {
            uses,
            default: std::cell::Cell::new(None),
            count: scene.materials.len(),
        })
    }

    /// What a primitive with material `index` needs to know (`None`: the
    /// default material).
    pub fn usage(&self, index: Option<usize>) -> Use {
        index
            .and_then(|i| self.uses.get(i).copied())
            .unwrap_or_default()
    }

    /// The number of document materials.
    pub fn len(&self) -> usize {
        self.uses.len()
    }

    /// The scene index of the default material (glTF's: white, metallic
    /// and rough factors 1), which is added after the document's.
    pub fn default_index(&self) -> usize {
        self.default.set(Some(self.count));
        self.count
    }

    /// Adds the default material if a primitive used it.
    pub fn add_default_if_needed(&self, scene: &mut Scene) {
        if self.default.get().is_some() {
            scene.materials.push(Material {
                name: "default".to_string(),
                metallic: 1.0,
                roughness: 1.0,
                ..Material::default()
            });
        }
    }
}

/// One material, with the document texture of its base colour.
fn material(ctx: &Ctx, at: &At, i: usize) -> Result<(Material, Option<usize>, Option<usize>, Use)> {
    let mut m = Material {
        name: at.opt_str("name")?.unwrap_or_default().to_string(),
        metallic: 1.0,
        roughness: 1.0,
        extras: at.extras(),
        ..Material::default()
    };
    let mut texture = None;
    let mut usage = Use::default();
    if let Some(pbr) = at.opt_object("pbrMetallicRoughness")? {
        if let Some(c) = pbr.opt_floats::<4>("baseColorFactor")? {
            m.base_color = c;
        }
        if let Some(x) = pbr.opt_f32("metallicFactor")? {
            m.metallic = x;
        }
        if let Some(x) = pbr.opt_f32("roughnessFactor")? {
            m.roughness = x;
        }
        if let Some(info) = pbr.opt_object("baseColorTexture")? {
            texture = Some(info.usize("index")?);
            usage.tex_coord = info.opt_usize("texCoord")?.unwrap_or(0);
            if let Some(tt) = info.extension("KHR_texture_transform")? {
                let tt_path = Path::Key(&info.path, "extensions");
                let tt = At {
                    value: tt,
                    path: Path::Key(&tt_path, "KHR_texture_transform"),
                };
                {
                    let offset = tt.opt_floats::<2>("offset")?.unwrap_or([0.0; 2]);
                    let rotation = tt.opt_f32("rotation")?.unwrap_or(0.0);
                    let scale = tt.opt_floats::<2>("scale")?.unwrap_or([1.0; 2]);
                    if let Some(set) = tt.opt_usize("texCoord")? {
                        usage.tex_coord = set;
                    }
                    let (s, c) = (libm::sinf(rotation), libm::cosf(rotation));
                    usage.transform = Some([
                        c * scale[0],
                        s * scale[1],
                        offset[0],
                        -s * scale[0],
                        c * scale[1],
                        offset[1],
                    ]);
                }
            }
        }
        if let Err(e) = texture_info(&pbr, "metallicRoughnessTexture", None) {
            ctx.warn(error_path(&e), format!("{}; ignored", error_message(&e)));
        }
    }
    for (key, extra) in [
        ("normalTexture", Some("scale")),
        ("occlusionTexture", Some("strength")),
        ("emissiveTexture", None),
    ] {
        if let Err(e) = texture_info(at, key, extra) {
            ctx.warn(error_path(&e), format!("{}; ignored", error_message(&e)));
        }
    }
    let emissive = emissive_texture(ctx, at, i, &usage);
    if let Some(e) = at.opt_floats::<3>("emissiveFactor")? {
        m.emissive = e;
    }
    let cutoff = at.opt_f32("alphaCutoff")?;
    m.alpha_mode = match at.opt_str("alphaMode")?.unwrap_or("OPAQUE") {
        "OPAQUE" => AlphaMode::Opaque,
        "MASK" => AlphaMode::Mask {
            cutoff: cutoff.unwrap_or(0.5),
        },
        "BLEND" => AlphaMode::Blend,
        other => {
            ctx.warn(
                format!("/materials/{i}/alphaMode"),
                format!("{other:?} is not OPAQUE, MASK or BLEND; OPAQUE is used"),
            );
            AlphaMode::Opaque
        }
    };
    m.double_sided = at.opt_bool("doubleSided")?.unwrap_or(false);
    Ok((m, texture, emissive, usage))
}

/// The document texture of a material's emissive map, when the scene can
/// show it: read through the base colour's texture coordinates (the
/// scene's meshes carry one set), without a transform of its own.
/// Otherwise a warning, and the material keeps its emissive factor alone.
fn emissive_texture(ctx: &Ctx, at: &At, i: usize, usage: &Use) -> Option<usize> {
    let info = at.opt_object("emissiveTexture").ok().flatten()?;
    let index = info.usize("index").ok()?;
    let set = info.opt_usize("texCoord").ok().flatten().unwrap_or(0);
    let transformed = info
        .extension("KHR_texture_transform")
        .ok()
        .flatten()
        .is_some();
    if set != usage.tex_coord || transformed || usage.transform.is_some() {
        ctx.warn(
            format!("/materials/{i}/emissiveTexture"),
            "the emissive map reads other texture coordinates than the base colour (or a transform); ignored",
        );
        return None;
    }
    Some(index)
}

/// Checks the form of a texture reference that the scene has no slot for
/// (normal, occlusion, emissive, metallic-roughness maps).
fn texture_info(at: &At, key: &'static str, number: Option<&'static str>) -> Result<()> {
    if let Some(info) = at.opt_object(key)? {
        if let Some(n) = number {
            info.opt_f64(n)?;
        }
        info.opt_usize("texCoord")?;
        info.usize("index")?;
    }
    Ok(())
}

fn error_path(e: &crate::Error) -> String {
    match e.unadvised() {
        crate::Error::Gltf { path, .. } => path.clone(),
        _ => String::new(),
    }
}

fn error_message(e: &crate::Error) -> String {
    match e.unadvised() {
        crate::Error::Gltf { message, .. } => message.clone(),
        other => other.to_string(),
    }
}

/// An image as a scene texture: its name (else its URI) as the path, and
/// its image (a PNG as it is, other formats decoded). An image that cannot
/// be read or decoded is a warning and gives a texture without an image; an external image without a
/// resource source to read it is an error.
fn load_image(ctx: &Ctx, index: usize) -> Result<Texture> {
    let at = ctx.item("images", index, String::new)?;
    let path = format!("/images/{index}");
    let name = at.opt_str("name")?.unwrap_or_default().to_string();
    let mut texture = Texture {
        path: name,
        image: None,
    };
    let bytes: std::result::Result<std::borrow::Cow<[u8]>, String> = match (
        at.opt_str("uri")?,
        at.opt_usize("bufferView")?,
    ) {
        (Some(uri), _) => match parse_uri(uri, ctx.options.max_data_uri_bytes) {
            Ok(Uri::Data { bytes, .. }) => Ok(bytes.into()),
            Ok(Uri::Relative(file)) => {
                if texture.path.is_empty() {
                    texture.path = file.clone();
                }
                if ctx.resources.is_none() {
                    return Err(err(
                            format!("{path}/uri"),
                            format!(
                                "image {file:?} is an external file, and no resource source was given to read it"
                            ),
                        ));
                }
                ctx.load_external(&file, "image", &path)
                    .map(|r| r.bytes.into())
                    .map_err(|e| error_message(&e))
            }
            Err(m) => Err(m),
        },
        (None, Some(view)) => ctx
            .view(view, &|| format!("{path}/bufferView"))
            .map(|v| v.bytes.into())
            .map_err(|e| format!("{}: {}", error_path(&e), error_message(&e))),
        (None, None) => Err("the image has neither a uri nor a bufferView".to_string()),
    };
    match bytes {
        Ok(bytes) => match to_image(ctx, &bytes) {
            Ok(image) => texture.image = Some(image),
            Err(m) => ctx.warn(path, format!("{m}; the texture has no image")),
        },
        Err(m) => ctx.warn(path, format!("{m}; the texture has no image")),
    }
    Ok(texture)
}

/// The texture's image: a PNG is kept as it is (after checking that it
/// decodes within the limits, or only its header when
/// [`ImportOptions::check_images`](super::ImportOptions::check_images) is
/// off: re-encoding would lose 16-bit channels and colour information for
/// nothing), other formats are decoded (and encoded as PNG only by a
/// writer that needs a file).
#[cfg(feature = "textures")]
fn to_image(ctx: &Ctx, bytes: &[u8]) -> std::result::Result<TextureImage, String> {
    use crate::texture::{decode_with_limits, DecodeLimits, ImageFormat};
    if !ctx.options.check_images && bytes.starts_with(PNG_SIGNATURE) {
        return png_by_its_header(ctx, bytes);
    }
    let limits = DecodeLimits {
        max_width: ctx.options.max_image_side,
        max_height: ctx.options.max_image_side,
        max_bytes: ctx.options.max_image_bytes,
        ..DecodeLimits::default()
    };
    let image = decode_with_limits(bytes, &limits).map_err(|e| e.to_string())?;
    if ImageFormat::detect(bytes) == Some(ImageFormat::Png) {
        Ok(TextureImage::Png(bytes.to_vec()))
    } else {
        Ok(TextureImage::Pixels(image))
    }
}

/// Without the `textures` feature: a PNG is kept as it is (its size
/// checked against the limits); other formats cannot be decoded.
#[cfg(not(feature = "textures"))]
fn to_image(ctx: &Ctx, bytes: &[u8]) -> std::result::Result<TextureImage, String> {
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Err(
            "the image is not a PNG, and decoding other formats needs the `textures` feature"
                .to_string(),
        );
    }
    png_by_its_header(ctx, bytes)
}

/// The eight bytes every PNG file starts with.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// A PNG kept as it is, checked by its header only: its size (from the
/// `IHDR` chunk, which comes first) within the import's image limits.
fn png_by_its_header(ctx: &Ctx, bytes: &[u8]) -> std::result::Result<TextureImage, String> {
    let dim = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (Some(w), Some(h)) = (dim(16), dim(20)) else {
        return Err("a PNG too short for its header".to_string());
    };
    if bytes.get(12..16) != Some(b"IHDR") {
        return Err("a PNG whose first chunk is not its header (IHDR)".to_string());
    }
    let side = ctx.options.max_image_side;
    if w == 0
        || h == 0
        || w > side
        || h > side
        || u64::from(w) * u64::from(h) * 4 > ctx.options.max_image_bytes
    {
        return Err(format!(
            "a PNG of {w}x{h} pixels is empty or past the image limits"
        ));
    }
    Ok(TextureImage::Png(bytes.to_vec()))
}
