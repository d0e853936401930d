//! The library's advice ([`retromodel::advice`]) in the command line's
//! words: each remedy names the flag that applies it.

use retromodel::advice::{Advice, Remedy};
use retromodel::Error;

/// One remedy, naming its flag.
fn word(remedy: &Remedy) -> String {
    match remedy {
        Remedy::LowerFps => "lower --fps (default 10)".to_string(),
        Remedy::FewerAnimations => "bake fewer animations (--anim NAME, repeatable)".to_string(),
        Remedy::Engine { engine, allows } => format!(
            "--engine {} ({})",
            engine.name(),
            allows.map_or_else(|| "no limit".to_string(), |n| format!("allows {n}"))
        ),
        Remedy::SkinSize => {
            "give the skin's size with --skin-size WxH, or its image with --skin FILE".to_string()
        }
        Remedy::SkinName => "give one short skin name with --skin-name NAME".to_string(),
        Remedy::Palette => "give the palette with --palette FILE (Quake II's is \
                            pics/colormap.pcx, which retromodel does not ship)"
            .to_string(),
        Remedy::SkinPngOrTga => "--skin-format png or --skin-format tga for an engine that \
                                 loads them (yquake2, q2pro, kmquake2, ufoai)"
            .to_string(),
        // Edits of the model itself: the library's words.
        other => other.to_string(),
    }
}

/// The remedies of `advice`, in the command line's words.
pub fn words(advice: &Advice) -> String {
    advice.words(word)
}

/// An advised error's text in the command line's words: the error, then
/// its remedies naming flags; `None` for an error without advice.
pub fn error_text(err: &Error) -> Option<String> {
    let advice = err.advice()?;
    let text = err.unadvised().to_string();
    Some(if advice.remedies.is_empty() {
        text
    } else {
        format!("{text}; {}", words(advice))
    })
}
