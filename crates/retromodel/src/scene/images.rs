//! Putting decoded images into a scene's textures as PNG, with alpha maps
//! baked into base colour textures (feature `textures`).

use std::collections::HashMap;

use super::{AlphaMode, Scene, Texture};
use crate::texture::{apply_alpha_map, Rgba8Image, TextureError};

impl Scene {
    /// Fills [`Texture::png`] from decoded images: `images[i]` is the image
    /// of `textures[i]`, `None` (or a missing entry) when it could not be
    /// had; such a texture keeps what PNG it has (none, normally).
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
    /// Then every texture with an image gets its PNG, except those that no
    /// material uses as base texture any more but some did or used as
    /// alpha map before (they live on only inside baked textures; glTF
    /// would otherwise carry them as unused images). Textures no material
    /// ever referenced (an MD2's other skins) keep their PNG as before.
    ///
    /// Fails only if PNG encoding fails; textures before the failure are
    /// filled.
    ///
    /// ```
    /// use retromodel::scene::{AlphaMode, Material, Scene, Texture};
    /// use retromodel::texture::{decode, Rgba8Image};
    ///
    /// let texture = |path: &str| Texture { path: path.into(), png: Vec::new() };
    /// let mut scene = Scene {
    ///     textures: vec![texture("base.png"), texture("alpha.png")],
    ///     materials: vec![Material { texture: Some(0), alpha_texture: Some(1), ..Material::default() }],
    ///     ..Scene::default()
    /// };
    /// let base = Rgba8Image::new(1, 1, vec![200, 100, 50, 255]).unwrap();
    /// let alpha = Rgba8Image::new(1, 1, vec![64, 64, 64, 255]).unwrap();
    /// scene.embed_images(&[Some(base), Some(alpha)])?;
    ///
    /// let m = &scene.materials[0];
    /// assert_eq!((m.texture, m.alpha_mode), (Some(2), AlphaMode::Blend));
    /// let baked = decode(&scene.textures[2].png)?;
    /// assert_eq!(baked.pixel(0, 0), Some([200, 100, 50, 64]));
    /// // The sources are inside the baked texture only.
    /// assert!(scene.textures[0].png.is_empty() && scene.textures[1].png.is_empty());
    /// # Ok::<(), retromodel::texture::TextureError>(())
    /// ```
    pub fn embed_images(&mut self, images: &[Option<Rgba8Image>]) -> Result<(), TextureError> {
        let images = self.bake_alpha_maps(images.to_vec());
        for (texture, image) in self.textures.iter_mut().zip(&images) {
            if let Some(image) = image {
                texture.png = image.to_png()?;
            }
        }
        Ok(())
    }

    /// The first half of [`embed_images`](Self::embed_images), without the
    /// PNG encoding: bakes the alpha maps in (adding the baked textures,
    /// without PNG bytes, and pointing the materials at them as described
    /// there) and returns, for every texture (the baked ones included),
    /// the image that `embed_images` would encode as its PNG, `None` for
    /// those it would leave alone. For a viewer that draws decoded pixels.
    pub fn bake_alpha_maps(&mut self, images: Vec<Option<Rgba8Image>>) -> Vec<Option<Rgba8Image>> {
        let mut images = images;
        images.resize(self.textures.len(), None);
        let referenced: Vec<bool> = (0..self.textures.len())
            .map(|i| {
                self.materials
                    .iter()
                    .any(|m| m.texture == Some(i) || m.alpha_texture == Some(i))
            })
            .collect();
        let mut baked_images: Vec<Option<Rgba8Image>> = Vec::new();
        let mut baked: HashMap<(Option<usize>, usize), usize> = HashMap::new();
        for m in &mut self.materials {
            let Some(a) = m.alpha_texture else { continue };
            let Some(alpha_map) = images.get(a).and_then(Option::as_ref) else {
                continue;
            };
            let base = m
                .texture
                .filter(|&t| images.get(t).is_some_and(Option::is_some));
            let index = match baked.get(&(base, a)) {
                Some(&index) => index,
                None => {
                    let rgba = apply_alpha_map(
                        base.and_then(|t| images.get(t)).and_then(Option::as_ref),
                        alpha_map,
                    );
                    let path = |t: Option<usize>| {
                        t.and_then(|t| self.textures.get(t))
                            .map_or_else(|| "white".to_string(), |t| t.path.clone())
                    };
                    self.textures.push(Texture {
                        path: format!("{} with alpha map {}", path(base), path(Some(a))),
                        png: Vec::new(),
                    });
                    baked_images.push(Some(rgba));
                    let index = self.textures.len() - 1;
                    baked.insert((base, a), index);
                    index
                }
            };
            m.texture = Some(index);
            m.alpha_mode = AlphaMode::Blend;
        }
        for (i, was_referenced) in referenced.into_iter().enumerate() {
            let used = self.materials.iter().any(|m| m.texture == Some(i));
            if was_referenced && !used {
                images[i] = None;
            }
        }
        images.extend(baked_images);
        images
    }
}
