//! Refusals of an MD2 compile: an engine limit passed, by how much, and
//! what would help, as [`Advice`] for the front ends to word.

use crate::advice::{Advice, Limit, Quantity, Remedy};
use crate::md2::{Engine, Md2};
use crate::Error;

/// The quantity an engine problem's path counts, if it is a limit.
fn quantity(path: &str) -> Option<Quantity> {
    Some(match path {
        "header.num_vertices" => Quantity::Vertices,
        "header.num_triangles" => Quantity::Triangles,
        "header.num_frames" => Quantity::Frames,
        "header.num_skins" => Quantity::Skins,
        "header.ofs_end" => Quantity::FileBytes,
        "header.skin_width" => Quantity::SkinWidth,
        "header.skin_height" => Quantity::SkinHeight,
        p if p.starts_with("skins[") => Quantity::SkinNameBytes,
        _ => return None,
    })
}

/// The limit `model` passes in `engine` that the problem at `path` is
/// about, if it is a maximum passed.
pub(super) fn limit_of(model: &Md2, engine: Engine, path: &str) -> Option<Limit> {
    let l = engine.limits();
    let quantity = quantity(path)?;
    let (max, actual) = match quantity {
        Quantity::Vertices => (l.max_vertices, model.num_vertices),
        Quantity::Triangles => (l.max_triangles, model.triangles.len()),
        Quantity::Frames => (l.max_frames, model.frames.len()),
        Quantity::Skins => (l.max_skins, model.skins.len()),
        Quantity::FileBytes => (
            l.max_file_size?,
            usize::try_from(crate::md2::engine::file_size(model)).ok()?,
        ),
        Quantity::SkinWidth => (
            usize::try_from(l.max_skin_width?).ok()?,
            usize::try_from(model.skin_width).ok()?,
        ),
        Quantity::SkinHeight => (
            usize::try_from(l.max_skin_height?).ok()?,
            usize::try_from(model.skin_height).ok()?,
        ),
        Quantity::SkinNameBytes => {
            let i: usize = path
                .strip_prefix("skins[")?
                .strip_suffix(']')?
                .parse()
                .ok()?;
            (l.max_skin_name, model.skins.get(i)?.as_bytes().len())
        }
        _ => return None,
    };
    (actual > max).then_some(Limit {
        quantity,
        max: max as u64,
        actual: actual as u64,
    })
}

/// A limit of `max` passed by `actual` of `quantity`.
pub(super) fn limit(quantity: Quantity, max: usize, actual: usize) -> Option<Limit> {
    Some(Limit {
        quantity,
        max: max as u64,
        actual: actual as u64,
    })
}

/// What would help with the problem at `path`: edits and options, then
/// the engines that allow more.
fn remedies(path: &str, engine: Engine, limit: Option<Limit>) -> Vec<Remedy> {
    use Remedy::*;
    let mut remedies = match path {
        "header.num_vertices" if limit.is_some() => vec![MergeVertices, Decimate],
        "header.num_triangles" => vec![Decimate],
        "header.num_frames" => vec![LowerFps, FewerAnimations],
        "header.ofs_end" => vec![LowerFps, FewerAnimations, Decimate],
        "header.skin_width" | "header.skin_height" if limit.is_some() => vec![SmallerTextures],
        "header.num_skins" => vec![SkinName],
        "triangles" => vec![FewerSeams],
        p if p.starts_with("skins[") => vec![SkinName],
        _ => Vec::new(),
    };
    if let Some(l) = limit {
        remedies.extend(better_engines(engine, l.quantity, l.actual));
    }
    remedies
}

/// The error for the engine problem `message` at `path`, with its advice.
pub(super) fn limit_error(
    path: &str,
    message: String,
    engine: Engine,
    limit: Option<Limit>,
) -> Error {
    if path == "header.num_triangles" && message.contains("no triangles") {
        // Not a limit: welding left nothing (every triangle degenerate).
        return Error::unwritable(
            path,
            format!(
                "{message}; every triangle of the scene is degenerate (its corners weld into \
                 one point or a line), so there is nothing to draw"
            ),
        );
    }
    let remedies = remedies(path, engine, limit);
    Error::unwritable(path, message).advised(Advice::new(limit, remedies))
}

/// The engines that allow more of `quantity` than `engine` does and at
/// least `actual`, as [`Remedy::Engine`], in [`Engine::MD2`]'s order.
fn better_engines(engine: Engine, quantity: Quantity, actual: u64) -> Vec<Remedy> {
    let allows = |e: Engine| -> Option<Option<u64>> {
        let l = e.limits();
        let n = |v: usize| Some(Some(v as u64));
        let size = |v: Option<i32>| Some(v.map(|v| v.max(0) as u64));
        match quantity {
            Quantity::Frames => n(l.max_frames),
            Quantity::Vertices => n(l.max_vertices),
            Quantity::Triangles => n(l.max_triangles),
            Quantity::Skins => n(l.max_skins),
            Quantity::SkinNameBytes => n(l.max_skin_name),
            Quantity::SkinWidth => size(l.max_skin_width),
            Quantity::SkinHeight => size(l.max_skin_height),
            Quantity::FileBytes => Some(l.max_file_size.map(|v| v as u64)),
            _ => None,
        }
    };
    let Some(now) = allows(engine) else {
        return Vec::new();
    };
    let more = |a: Option<u64>| match (a, now) {
        (None, Some(_)) => true,
        (Some(a), Some(now)) => a > now && a >= actual,
        _ => false,
    };
    Engine::MD2
        .into_iter()
        .filter(|&e| e != engine)
        .filter_map(|e| allows(e).filter(|&a| more(a)).map(|a| (e, a)))
        .map(|(engine, allows)| Remedy::Engine { engine, allows })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn better_engines_allow_the_count() {
        // yquake2 bounds no frame count (Mod_LoadMD2); Q2PRO's
        // MD2_MAX_FRAMES is 1024 (inc/format/md2.h), `<=`; UFO:AI 2.5's is
        // 1024 (qfiles.h), `< 1024`.
        assert_eq!(
            better_engines(Engine::Quake2, Quantity::Frames, 600),
            [
                Remedy::Engine {
                    engine: Engine::Yquake2,
                    allows: Some(65536)
                },
                Remedy::Engine {
                    engine: Engine::Q2pro,
                    allows: Some(1024)
                },
                Remedy::Engine {
                    engine: Engine::UfoAi,
                    allows: Some(1023)
                }
            ]
        );
        // Past 1024 frames only yquake2 takes them.
        assert_eq!(
            better_engines(Engine::Quake2, Quantity::Frames, 2000),
            [Remedy::Engine {
                engine: Engine::Yquake2,
                allows: Some(65536)
            }]
        );
        assert!(better_engines(Engine::Yquake2, Quantity::Frames, 70000).is_empty());
        // Skin width: only Quake II limits it to 640 among those without
        // a limit; Q2PRO allows 8192 (src/refresh/images.h).
        let w = better_engines(Engine::Quake2, Quantity::SkinWidth, 1024);
        assert!(w.contains(&Remedy::Engine {
            engine: Engine::Q2pro,
            allows: Some(8192)
        }));
        assert!(w.contains(&Remedy::Engine {
            engine: Engine::Yquake2,
            allows: None
        }));
    }
}
