//! Compares `retromodel render`'s images with three.js's (render_accept.sh).
//!
//! `render_compare CASES.json`: for each case `{name, ours, out}` (`ours`
//! our PNG, `out` three.js's framebuffer as raw RGBA8, top row first,
//! premultiplied), the alpha masks (alpha ≥ 128) must overlap with an
//! intersection over union of at least [`MIN_IOU`], and inside both masks
//! (away from their edges, where one-sample rasterisers differ by a pixel)
//! the mean absolute colour difference must be at most
//! [`MAX_MEAN_DIFFERENCE`] of 255 per channel. A case marked
//! `"mirrored": true` is a negative control (three.js drew the model with
//! its skin flipped left to right): its silhouette must still match and
//! its colours must NOT, which shows the bound catches a mirrored texture.
//!
//! `render_compare flip IN OUT.png`: writes image IN flipped left to right
//! (for the negative control's skin).

use std::process::ExitCode;

use retromodel::render::encode::write_png;
use retromodel::texture::decode;

/// The least intersection over union of the two alpha masks.
const MIN_IOU: f64 = 0.97;

/// The largest mean absolute difference of R, G and B (0 to 255) inside
/// both silhouettes. Two renderers filtering the same texels the same way
/// (bilinear, trilinear mipmaps) differ by a few levels, more where the
/// mipmap level chosen differs; a texture off by a mirror or a wrong `v`
/// differs by tens.
const MAX_MEAN_DIFFERENCE: f64 = 8.0;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, input, output] if flag == "flip" => flip(input, output),
        [cases] => compare_all(cases),
        _ => Err("usage: render_compare CASES.json | render_compare flip IN OUT.png".into()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("render_compare: {e}");
            ExitCode::FAILURE
        }
    }
}

type Result<T> = std::result::Result<T, String>;

fn read_rgba(path: &str) -> Result<(u32, u32, Vec<u8>)> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let image = decode(&bytes).map_err(|e| format!("{path}: {e}"))?;
    Ok((image.width(), image.height(), image.into_pixels()))
}

fn flip(input: &str, output: &str) -> Result<bool> {
    let (w, h, pixels) = read_rgba(input)?;
    let row = w as usize * 4;
    let mut flipped = Vec::with_capacity(pixels.len());
    for line in pixels.chunks_exact(row) {
        for px in line.chunks_exact(4).rev() {
            flipped.extend_from_slice(px);
        }
    }
    let file = std::fs::File::create(output).map_err(|e| format!("{output}: {e}"))?;
    write_png(std::io::BufWriter::new(file), w, h, &flipped, &[])
        .map_err(|e| format!("{output}: {e}"))?;
    Ok(true)
}

/// The numbers of one comparison.
struct Measures {
    iou: f64,
    mean_difference: f64,
    compared: usize,
    ours: usize,
    theirs: usize,
}

fn measure(w: usize, h: usize, ours: &[u8], theirs: &[u8]) -> Measures {
    let inside = |img: &[u8], x: usize, y: usize| img[(y * w + x) * 4 + 3] >= 128;
    let (mut both, mut either, mut n_ours, mut n_theirs) = (0usize, 0usize, 0usize, 0usize);
    let mut sum = 0f64;
    let mut compared = 0usize;
    for y in 0..h {
        for x in 0..w {
            let (a, b) = (inside(ours, x, y), inside(theirs, x, y));
            n_ours += usize::from(a);
            n_theirs += usize::from(b);
            both += usize::from(a && b);
            either += usize::from(a || b);
            // Colours: pixels whose 3 × 3 neighbourhood is inside both.
            let interior = a
                && b
                && x > 0
                && y > 0
                && x + 1 < w
                && y + 1 < h
                && (y - 1..=y + 1).all(|yy| {
                    (x - 1..=x + 1).all(|xx| inside(ours, xx, yy) && inside(theirs, xx, yy))
                });
            if interior {
                let i = (y * w + x) * 4;
                for c in 0..3 {
                    // three.js's framebuffer is premultiplied; ours is straight.
                    let premultiplied = f64::from(ours[i + c]) * f64::from(ours[i + 3]) / 255.0;
                    sum += (premultiplied - f64::from(theirs[i + c])).abs() / 3.0;
                }
                compared += 1;
            }
        }
    }
    Measures {
        iou: if either == 0 {
            1.0
        } else {
            both as f64 / either as f64
        },
        mean_difference: if compared == 0 {
            0.0
        } else {
            sum / compared as f64
        },
        compared,
        ours: n_ours,
        theirs: n_theirs,
    }
}

fn compare_all(cases_path: &str) -> Result<bool> {
    let text = std::fs::read_to_string(cases_path).map_err(|e| format!("{cases_path}: {e}"))?;
    let cases: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{cases_path}: {e}"))?;
    let cases = cases
        .as_array()
        .ok_or(format!("{cases_path}: not an array"))?;
    let field = |c: &serde_json::Value, k: &str| -> Result<String> {
        c[k].as_str()
            .map(str::to_string)
            .ok_or(format!("{cases_path}: a case without \"{k}\""))
    };
    let mut all_ok = true;
    println!(
        "bounds: alpha-mask IoU >= {MIN_IOU}, mean |RGB difference| inside both <= {MAX_MEAN_DIFFERENCE} of 255"
    );
    for c in cases {
        let name = field(c, "name")?;
        let (w, h, ours) = read_rgba(&field(c, "ours")?)?;
        let out = field(c, "out")?;
        let theirs = std::fs::read(&out).map_err(|e| format!("{out}: {e}"))?;
        if theirs.len() != ours.len() {
            return Err(format!(
                "{name}: three.js drew {} bytes, we drew {w}x{h}",
                theirs.len()
            ));
        }
        let m = measure(w as usize, h as usize, &ours, &theirs);
        let mirrored = c["mirrored"].as_bool() == Some(true);
        let colours_match = m.mean_difference <= MAX_MEAN_DIFFERENCE;
        let ok = m.iou >= MIN_IOU && m.ours > 0 && m.compared > 0 && colours_match != mirrored;
        all_ok &= ok;
        println!(
            "{} {name}{}: IoU {:.4} ({} / {} pixels), mean colour difference {:.2} over {} pixels",
            if ok { "ok      " } else { "FAILED  " },
            if mirrored {
                " (three.js with the skin mirrored: colours must differ)"
            } else {
                ""
            },
            m.iou,
            m.ours,
            m.theirs,
            m.mean_difference,
            m.compared
        );
    }
    Ok(all_ok)
}
