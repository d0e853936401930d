//! The palette a Quake MDL's 8-bit skins index.
//!
//! In order: the palette the caller gives (the command line's
//! `--palette`); else Quake's `gfx/palette.lmp` found through the texture
//! source (beside the model or in a folder the user allowed: for a model
//! at `id1/progs/x.mdl` the command line allows `id1/`, so
//! `id1/gfx/palette.lmp` is found as the game finds it); else none, and a
//! [`TextureWarning::NoPalette`] with advice: the skins then have no
//! image, never a guessed grey.
//!
//! **No built-in palette.** The Quake palette is id Software's game data
//! (`gfx/palette.lmp` in `id1/pak0.pak`, under Quake's end-user licence,
//! which allows no redistribution outside the game). Copies embedded in
//! GPL'd source (DarkPlaces' `palette.c`, ericw-tools' light) are under
//! the GPL, which this crate (MIT OR Apache-2.0) cannot take in. A claim
//! that the palette is in the public domain (quakewiki.org, "Quake
//! palette") cites no grant from id, and 1996 list correspondence with
//! id treated the palette lump as id data. LibreQuake ships a
//! `lq1/gfx/palette.lmp` under its BSD-3-Clause licence, but whether that
//! file is its own or id's palette renamed could not be established, so
//! it is not shipped either. Users have the palette with their game.

use crate::scene::TextureWarning;
use crate::texture::{Palette, TextureSource};

/// Where Quake keeps its palette, relative to the game folder.
pub const QUAKE_PALETTE_PATH: &str = "gfx/palette.lmp";

/// The palette for an MDL's skins: `given`, else `gfx/palette.lmp`
/// through `source` (768 bytes of RGB, or an 8-bit PCX's palette), else
/// `None` with the warning saying why.
pub(crate) fn mdl_palette(
    given: Option<&Palette>,
    source: Option<&dyn TextureSource>,
) -> (Option<Palette>, Option<TextureWarning>) {
    if let Some(p) = given {
        return (Some(p.clone()), None);
    }
    let Some(source) = source else {
        return (None, Some(TextureWarning::NoPalette { error: None }));
    };
    match source.load(QUAKE_PALETTE_PATH) {
        Ok(found) => {
            let palette = if found.bytes.len() == 768 {
                Palette::from_raw_768(&found.bytes)
            } else {
                Palette::from_pcx(&found.bytes)
            };
            match palette {
                Ok(p) => (Some(p), None),
                Err(error) => (
                    None,
                    Some(TextureWarning::BadPalette {
                        path: found.path,
                        error,
                    }),
                ),
            }
        }
        Err(error) => (None, Some(TextureWarning::NoPalette { error: Some(error) })),
    }
}
