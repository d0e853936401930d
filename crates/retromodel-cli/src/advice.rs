//! The library's advice ([`retromodel::advice`]) and its problems with
//! the options of a conversion ([`retromodel::convert::OptionProblem`]) in
//! the command line's words: each remedy and each option names its flag.

use retromodel::advice::{Advice, Remedy};
use retromodel::convert::ConvertOption;
use retromodel::Error;

/// The flag of a conversion option (`--compile` stands for the MD2
/// compiler's flags, all listed).
fn flag(option: ConvertOption) -> String {
    match option {
        ConvertOption::Compile => "--fps, --player, --scale, --fit-height, --grid, --grid-from, \
                                   --engine, --palette, --skin-format and --skin-name"
            .to_string(),
        ConvertOption::Quantize => "--quantize".to_string(),
        ConvertOption::Compress => "--compress".to_string(),
        ConvertOption::Clip => "--clip".to_string(),
        ConvertOption::Frame => "--frame".to_string(),
        ConvertOption::Anim => "--anim".to_string(),
        ConvertOption::Time => "--time".to_string(),
        ConvertOption::Layout => "--layout".to_string(),
        ConvertOption::Repair => "--repair".to_string(),
        ConvertOption::Skin => "--skin".to_string(),
        ConvertOption::AsciiMaterials => "--materials".to_string(),
        ConvertOption::AsciiBones => "--bones".to_string(),
        ConvertOption::Md5Anim => "--md5anim".to_string(),
        ConvertOption::IqmAnim => "--anim-file".to_string(),
        ConvertOption::Rerelease => "--rerelease".to_string(),
        ConvertOption::MdlCompile => {
            "--frame-group, --mdl-flags, --eye and --random-sync".to_string()
        }
        // An option added to the library before the command line has it.
        other => other.name().to_string(),
    }
}

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
        Remedy::QuakePalette => "give Quake's palette with --palette FILE (gfx/palette.lmp from \
                                 the game's id1/pak0.pak, which retromodel does not ship), or keep \
                                 the model in GAME/progs/ with GAME/gfx/palette.lmp, or add the \
                                 folder holding gfx/palette.lmp with --texture-dir DIR"
            .to_string(),
        Remedy::SkinPngOrTga => "--skin-format png or --skin-format tga for an engine that \
                                 loads them (yquake2, q2pro, kmquake2, ufoai)"
            .to_string(),
        Remedy::FitHeight { units } => format!("--fit-height {units}"),
        // Edits of the model itself: the library's words.
        other => other.to_string(),
    }
}

/// The remedies of `advice`, in the command line's words.
pub fn words(advice: &Advice) -> String {
    advice.words(word)
}

/// An advised error's text in the command line's words: the error, then
/// its remedies naming flags; a problem with the options, naming their
/// flags; `None` for any other error.
pub fn error_text(err: &Error) -> Option<String> {
    if let Error::Option(problem) = err.unadvised() {
        return Some(problem.words(flag));
    }
    let advice = err.advice()?;
    let text = err.unadvised().to_string();
    Some(if advice.remedies.is_empty() {
        text
    } else {
        format!("{text}; {}", words(advice))
    })
}
