//! The skin a compile makes: kept from an MD2 record, packed from the
//! scene's textures, or only named, and where texture coordinates go.

use super::prepared::Prepared;
use super::refusal::{limit, limit_error};
use super::{bake, source, CompileOptions, CompileWarning, SkinFile};
#[cfg(feature = "textures")]
use super::{skin, SkinFormat};
use crate::advice::Quantity;
use crate::error::Result;
use crate::md2::{Engine, EngineLimits, SkinName};
use crate::scene::Scene;

impl Prepared<'_> {
    pub(super) fn skin(
        &self,
        options: &CompileOptions,
        warnings: &mut Vec<CompileWarning>,
    ) -> Result<SkinPlan> {
        let limits = options.engine.limits();
        let used_materials: Vec<Option<usize>> = {
            let mut seen = Vec::new();
            for m in &self.source.materials {
                if !seen.contains(m) {
                    seen.push(*m);
                }
            }
            seen
        };
        let mut plan = SkinPlan::default();
        #[cfg(feature = "textures")]
        let name_given = options.skin.name.is_some();
        let drawn = &self.source.vertices;
        if let Some((size, names)) =
            source::kept_skins(self.scene, drawn, &used_materials, &options.skin, warnings)
        {
            (plan.size, plan.names) = (size, names);
            plan.check_names(&limits, options.engine)?;
            return Ok(plan);
        }
        #[cfg(feature = "textures")]
        {
            let model_name = {
                let base: String = self
                    .scene
                    .name
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                    .collect();
                if base.is_empty() {
                    "model".to_string()
                } else {
                    base
                }
            };
            // A skin of the materials' colours, when the engine needs one:
            // only if it can be written as asked.
            let unnamed = !name_given
                && (options.skin.format != SkinFormat::Pcx || options.skin.palette.is_some());
            if let Some(atlas) =
                skin::build_atlas(self.scene, &used_materials, &limits, unnamed, warnings)?
            {
                let atlas = atlas.fit(&limits, warnings);
                let name = options
                    .skin
                    .name
                    .clone()
                    .or_else(|| options.skin.default_name.clone())
                    .unwrap_or_else(|| format!("{model_name}.{}", options.skin.format.extension()));
                if limits.pcx_only && options.skin.format != SkinFormat::Pcx {
                    warnings.push(CompileWarning::SkinNotPcx {
                        engine: options.engine.title(),
                        format: options.skin.format.extension(),
                    });
                }
                let file = skin::write_skin(&atlas, name.clone(), &options.skin, warnings)?;
                plan.size = (atlas.image.width() as i32, atlas.image.height() as i32);
                plan.names = vec![SkinName::new(&name)];
                plan.file = Some(file);
                plan.atlas = Some(atlas);
                plan.check_names(&limits, options.engine)?;
                return Ok(plan);
            }
        }
        let textured = self.scene.textures.iter().any(|t| t.has_image());
        if textured && cfg!(not(feature = "textures")) {
            warnings.push(CompileWarning::Skin {
                message: "the scene's texture images need feature `textures` to become a skin; only names are written".to_string(),
            });
        }
        let record = self
            .record
            .as_ref()
            .filter(|r| r.skin_size.0 > 0 && r.skin_size.1 > 0);
        plan.size = match (record, options.skin.size) {
            (_, Some((w, h))) if w > 0 && h > 0 => (
                i32::try_from(w).unwrap_or(i32::MAX),
                i32::try_from(h).unwrap_or(i32::MAX),
            ),
            (Some(r), _) => r.skin_size,
            _ => {
                warnings.push(CompileWarning::SkinSizeAssumed {
                    width: 256,
                    height: 256,
                });
                (256, 256)
            }
        };
        plan.names = if let Some(name) = &options.skin.name {
            vec![SkinName::new(name)]
        } else if let Some(r) = &self.record {
            r.skins.clone()
        } else {
            let paths: Vec<&str> = used_materials
                .iter()
                .filter_map(|m| m.and_then(|m| self.scene.materials.get(m)))
                .filter_map(|m| m.texture.and_then(|t| self.scene.textures.get(t)))
                .map(|t| t.path.as_str())
                .filter(|p| !p.is_empty())
                .collect();
            let mut distinct = paths.clone();
            distinct.dedup();
            if distinct.len() > 1 {
                warnings.push(CompileWarning::Skin {
                    message: format!(
                        "{} textures but no images to pack into one skin; the model names the first",
                        distinct.len()
                    ),
                });
            }
            distinct
                .first()
                .map(|p| vec![SkinName::new(p)])
                .unwrap_or_default()
        };
        plan.check_names(&limits, options.engine)?;
        Ok(plan)
    }
}

/// The skin a compile makes: size, names, file, and where UVs go.
#[derive(Default)]
pub(super) struct SkinPlan {
    pub(super) size: (i32, i32),
    pub(super) names: Vec<SkinName>,
    pub(super) file: Option<SkinFile>,
    #[cfg(feature = "textures")]
    pub(super) atlas: Option<skin::Atlas>,
    pub(super) clamped: usize,
}

impl SkinPlan {
    fn check_names(&self, limits: &EngineLimits, engine: Engine) -> Result<()> {
        for n in &self.names {
            let len = n.as_bytes().len();
            if len > limits.max_skin_name {
                return Err(limit_error(
                    "skins[0]",
                    format!(
                        "skin name of {len} bytes exceeds {}'s {} bytes and a NUL",
                        engine.title(),
                        limits.max_skin_name
                    ),
                    engine,
                    limit(Quantity::SkinNameBytes, limits.max_skin_name, len),
                ));
            }
        }
        Ok(())
    }

    /// The skin pixel position of used vertex `u`'s `uv`.
    pub(super) fn map(
        &mut self,
        u: usize,
        uv: [f32; 2],
        source: &bake::Source,
        scene: &Scene,
    ) -> [f32; 2] {
        #[cfg(feature = "textures")]
        if let Some(atlas) = &self.atlas {
            let material = source
                .vertices
                .get(u)
                .and_then(|&(m, _)| scene.meshes.get(m))
                .and_then(|m| m.material);
            let mut clamped = false;
            let px = atlas.map(material, uv, &mut clamped);
            self.clamped += usize::from(clamped);
            return px;
        }
        let _ = (u, source, scene);
        [uv[0] * self.size.0 as f32, uv[1] * self.size.1 as f32]
    }
}
