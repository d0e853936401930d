//! Putting decoded images into a scene's textures, with alpha maps baked
//! into base colour textures (feature `textures`).

use std::collections::HashMap;

use super::{AlphaMode, Scene, Texture, TextureImage};
use crate::texture::{apply_alpha_map, Rgba8Image};

impl Scene {
    /// Sets [`Texture::image`] from decoded images (as
    /// [`TextureImage::Pixels`]; nothing is encoded here, writers that need
    /// a PNG encode it when they write): `images[i]` is the image of
    /// `textures[i]`, `None` (or a missing entry) when it could not be had;
    /// such a texture keeps what image it has (none, normally).
    ///
    /// Alpha maps are baked in first. For every material with an
    /// [`alpha_texture`](super::Material::alpha_texture) whose image is
    /// there, a texture is added that holds the material's base image with
    /// the alpha map applied ([`apply_alpha_map`]; a white base when the
    /// material has no texture or its image is missing); it becomes the
    /// material's [`texture`](super::Material::texture) and the material
    /// blends ([`AlphaMode::Blend`]: alpha maps hold grey levels, not just
    /// on and off). One such texture is made per (base, alpha map) pair, so
    /// materials sharing a base texture with different alpha maps, or with
    /// none, never see each other's alpha. A material whose alpha map image
    /// is missing keeps its base texture and alpha mode.
    ///
    /// Then every texture with an image gets it, except those that no
    /// material uses as base texture any more but some did or used as
    /// alpha map before (they live on only inside baked textures; glTF
    /// would otherwise carry them as unused images). Textures no material
    /// ever referenced (an MD2's other skins) get theirs as before.
    ///
    /// ```
    /// use retromodel::scene::{AlphaMode, Material, Scene, Texture, TextureImage};
    /// use retromodel::texture::Rgba8Image;
    ///
    /// let texture = |path: &str| Texture { path: path.into(), image: None };
    /// let mut scene = Scene {
    ///     textures: vec![texture("base.png"), texture("alpha.png")],
    ///     materials: vec![Material { texture: Some(0), alpha_texture: Some(1), ..Material::default() }],
    ///     ..Scene::default()
    /// };
    /// let base = Rgba8Image::new(1, 1, vec![200, 100, 50, 255]).unwrap();
    /// let alpha = Rgba8Image::new(1, 1, vec![64, 64, 64, 255]).unwrap();
    /// scene.embed_images(vec![Some(base), Some(alpha)]);
    ///
    /// let m = &scene.materials[0];
    /// assert_eq!((m.texture, m.alpha_mode), (Some(2), AlphaMode::Blend));
    /// let Some(TextureImage::Pixels(baked)) = &scene.textures[2].image else { panic!() };
    /// assert_eq!(baked.pixel(0, 0), Some([200, 100, 50, 64]));
    /// // The sources are inside the baked texture only.
    /// assert!(!scene.textures[0].has_image() && !scene.textures[1].has_image());
    /// ```
    pub fn embed_images(&mut self, mut images: Vec<Option<Rgba8Image>>) {
        let referenced: Vec<bool> = (0..self.textures.len())
            .map(|i| {
                self.materials
                    .iter()
                    .any(|m| m.texture == Some(i) || m.alpha_texture == Some(i))
            })
            .collect();
        let mut baked: HashMap<(Option<usize>, usize), usize> = HashMap::new();
        for m in &mut self.materials {
            let image = |i: usize| images.get(i).and_then(Option::as_ref);
            let Some(a) = m.alpha_texture else { continue };
            let Some(alpha_map) = image(a) else { continue };
            let base = m.texture.filter(|&t| image(t).is_some());
            let index = match baked.get(&(base, a)) {
                Some(&index) => index,
                None => {
                    let rgba = apply_alpha_map(base.and_then(image), alpha_map);
                    let path = |t: Option<usize>| {
                        t.and_then(|t| self.textures.get(t))
                            .map_or_else(|| "white".to_string(), |t| t.path.clone())
                    };
                    self.textures.push(Texture {
                        path: format!("{} with alpha map {}", path(base), path(Some(a))),
                        image: Some(TextureImage::Pixels(rgba)),
                    });
                    let index = self.textures.len() - 1;
                    baked.insert((base, a), index);
                    index
                }
            };
            m.texture = Some(index);
            m.alpha_mode = AlphaMode::Blend;
        }
        for (i, was_referenced) in referenced.into_iter().enumerate() {
            let Some(img) = images.get_mut(i).and_then(Option::take) else {
                continue;
            };
            let used = self.materials.iter().any(|m| m.texture == Some(i));
            if used || !was_referenced {
                self.textures[i].image = Some(TextureImage::Pixels(img));
            }
        }
    }
}
