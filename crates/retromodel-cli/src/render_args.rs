//! The arguments of `retromodel render`, shared by its images and its
//! contact sheets (`render` and `render_sheet`).

use retromodel::render::{RenderOptions, Shading, View, ViewAngle, DEFAULT_FOV_Y};
use retromodel::scene::UserSkin;
use std::path::PathBuf;
use std::sync::Arc;

/// The wireframe's colour (straight RGBA).
const WIREFRAME: [u8; 4] = [16, 16, 16, 170];

/// `--view`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ViewArg {
    /// From the front: the model faces the viewer.
    Front,
    /// From behind.
    Back,
    /// From the model's left side.
    Left,
    /// From the model's right side.
    Right,
    /// From straight above, the model's front at the bottom.
    Top,
    /// From the front-left and above (yaw 35, pitch 20).
    ThreeQuarter,
}

impl ViewArg {
    fn view(self) -> View {
        match self {
            ViewArg::Front => View::Front,
            ViewArg::Back => View::Back,
            ViewArg::Left => View::Left,
            ViewArg::Right => View::Right,
            ViewArg::Top => View::Top,
            ViewArg::ThreeQuarter => View::ThreeQuarter,
        }
    }
}

/// Arguments of `render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The model to draw, or (with --sheet) a folder of models.
    pub input: PathBuf,
    /// The image to write: `.png` (one pose), `.gif` or `.apng` (the
    /// animations, looping).
    #[arg(required_unless_present = "sheet", conflicts_with = "sheet")]
    pub output: Option<PathBuf>,
    /// Write a contact sheet (PNG) instead: every model below the input
    /// folder, or every frame of every animation of the input model in
    /// rows (a film strip).
    #[arg(long, value_name = "OUT.png")]
    pub sheet: Option<PathBuf>,
    /// The animation to draw (repeatable for .gif/.apng and strips; default
    /// all). For a still, the animation --frame and --time are in. The
    /// camera frames everything the animations drawn reach: for a still,
    /// its animation (without --anim: the one --frame is in, else the
    /// first), so the stills of one animation share one camera.
    #[arg(long, value_name = "NAME")]
    pub anim: Vec<String>,
    /// A still: frame K of --anim (an MD2's key K; at the model's rate for
    /// others), or without --anim the model's frame K (MD2).
    #[arg(long, value_name = "K", conflicts_with = "time")]
    pub frame: Option<usize>,
    /// A still: seconds into --anim (default the first animation).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f32>,
    /// .gif/.apng/strips: frames per second (default the model's rate: 10
    /// for MD2, the file's for MS3D, 30 for glTF). MD2 frames are blended
    /// when it is higher.
    #[arg(long, value_name = "FPS")]
    pub fps: Option<f32>,
    /// Image size, WIDTHxHEIGHT (or one number for a square); of each
    /// thumbnail with --sheet. Default 512x512, 192x192 for folder sheets,
    /// 128x128 for strips.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Where the camera looks from (default three-quarter).
    #[arg(long, value_enum, conflicts_with_all = ["yaw", "pitch"])]
    view: Option<ViewArg>,
    /// Camera angle about the vertical axis in degrees: 0 in front of the
    /// model, 90 at its left, 180 behind.
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    pub yaw: Option<f32>,
    /// Camera angle above the horizontal in degrees (90: from above).
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    pub pitch: Option<f32>,
    /// Vertical field of view in degrees.
    #[arg(long, value_name = "DEG", default_value_t = DEFAULT_FOV_Y)]
    pub fov: f32,
    /// Background colour RRGGBB or RRGGBBAA (hex; default transparent, for
    /// sheets 303030).
    #[arg(long, value_name = "RRGGBB[AA]", value_parser = parse_colour)]
    pub background: Option<[u8; 4]>,
    /// Draw the triangles' edges over the model.
    #[arg(long)]
    pub wireframe: bool,
    /// Texture colours as they are, without the light.
    #[arg(long)]
    pub unlit: bool,
    /// An image to use as the first skin or texture.
    #[arg(long, value_name = "FILE")]
    pub skin: Option<PathBuf>,
    /// A folder to search for textures after the model's own (repeatable).
    #[arg(long = "texture-dir", value_name = "DIR")]
    pub texture_dirs: Vec<PathBuf>,
    /// A Quake MDL's palette: gfx/palette.lmp (768 bytes of RGB) or an
    /// 8-bit PCX. Default: gfx/palette.lmp beside the model, in a
    /// --texture-dir, or in the game folder above progs/.
    #[arg(long, value_name = "FILE")]
    pub palette: Option<PathBuf>,
    /// Sheets: thumbnails per row (default: about square; strips: 10).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub columns: Option<u32>,
    /// Replace the output if it exists.
    #[arg(long)]
    pub force: bool,
    /// Print the camera, light and moment of each image as JSON on stdout.
    #[arg(long, short)]
    pub verbose: bool,
    /// Folder sheets and animations: worker threads (default one per core).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Folder sheets: no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `WxH` or `N`.
fn parse_size(text: &str) -> std::result::Result<(u32, u32), String> {
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("{text:?}: expected WIDTHxHEIGHT, e.g. 512x384"))
    };
    let (w, h) = match text.split_once(['x', 'X']) {
        Some((w, h)) => (parse(w)?, parse(h)?),
        None => {
            let n = parse(text)?;
            (n, n)
        }
    };
    retromodel::render::check_size(w, h).map_err(|e| e.to_string())?;
    Ok((w, h))
}

/// `RRGGBB` or `RRGGBBAA`, with or without `#`.
fn parse_colour(text: &str) -> std::result::Result<[u8; 4], String> {
    let hex = text.trim_start_matches('#');
    let bad = || format!("{text:?}: expected a colour RRGGBB or RRGGBBAA in hex, e.g. 202020");
    if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    Ok([
        byte(0)?,
        byte(2)?,
        byte(4)?,
        if hex.len() == 8 { byte(6)? } else { 255 },
    ])
}

impl Args {
    /// The camera angle asked for.
    pub fn angle(&self) -> ViewAngle {
        if self.yaw.is_some() || self.pitch.is_some() {
            return ViewAngle {
                yaw: self.yaw.unwrap_or(0.0),
                pitch: self.pitch.unwrap_or(0.0),
            };
        }
        self.view.map_or(View::ThreeQuarter, ViewArg::view).angle()
    }

    /// The render options for images of `size`.
    pub fn options(&self, size: (u32, u32), background: [u8; 4]) -> RenderOptions {
        RenderOptions {
            width: size.0,
            height: size.1,
            background,
            shading: if self.unlit {
                Shading::Unlit
            } else {
                Shading::Lit
            },
            wireframe: self.wireframe.then_some(WIREFRAME),
        }
    }

    /// `--skin`, read.
    pub fn user_skin(&self) -> Option<UserSkin> {
        self.skin.as_deref().map(read_user_skin)
    }
}

/// The image file a `--skin` names, read (a read error is kept for the
/// library to report with the model's other problems).
pub fn read_user_skin(path: &std::path::Path) -> UserSkin {
    UserSkin {
        path: path.display().to_string(),
        name: path
            .file_name()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned()),
        data: std::fs::read(path)
            .map(Arc::from)
            .map_err(|e| e.to_string()),
    }
}
