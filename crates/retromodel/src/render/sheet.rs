//! Contact sheets: thumbnails in a grid, each labelled underneath.
//!
//! Labels are drawn with the pre-rasterised Noto Sans Mono glyphs of the
//! `noto-sans-mono-bitmap` crate (the font is under the SIL Open Font
//! Licence, the crate MIT; 16-pixel raster, regular weight, Basic Latin,
//! anything else shown as `?`): grey-level glyphs, so small text stays
//! legible, and no font file or font rasteriser is needed.

use noto_sans_mono_bitmap::{get_raster, get_raster_width, FontWeight, RasterHeight};

use super::renderer::check_size;
use crate::error::Result;

const WEIGHT: FontWeight = FontWeight::Regular;
const SIZE: RasterHeight = RasterHeight::Size16;

/// Height of a line of label text, in pixels.
pub const LINE_HEIGHT: u32 = 16;

/// Lines of label under each thumbnail.
pub const LABEL_LINES: u32 = 2;

/// Space between cells and around the sheet, in pixels.
pub const GAP: u32 = 8;

/// Width of one character of label text, in pixels.
pub fn char_width() -> u32 {
    get_raster_width(WEIGHT, SIZE) as u32
}

/// An RGBA8 image to compose on (straight alpha, row 0 at the top).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Canvas {
    /// A canvas filled with `background` (straight RGBA). Fails for sizes
    /// [`check_size`] refuses.
    pub fn new(width: u32, height: u32, background: [u8; 4]) -> Result<Canvas> {
        check_size(width, height)?;
        let pixels = background.repeat(width as usize * height as usize);
        Ok(Canvas {
            width,
            height,
            pixels,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels, straight RGBA8.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// `src` (straight RGBA) composited over the pixel at `(x, y)`, with its
    /// alpha scaled by `coverage` (0–255); outside the canvas, nothing.
    fn blend(&mut self, x: i64, y: i64, src: [u8; 4], coverage: u8) {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return;
        }
        let at = (y as usize * self.width as usize + x as usize) * 4;
        let dst = &mut self.pixels[at..at + 4];
        let sa = f32::from(src[3]) / 255.0 * f32::from(coverage) / 255.0;
        let da = f32::from(dst[3]) / 255.0;
        let oa = sa + da * (1.0 - sa);
        if oa <= 0.0 {
            dst.copy_from_slice(&[0; 4]);
            return;
        }
        for k in 0..3 {
            let c = (f32::from(src[k]) * sa + f32::from(dst[k]) * da * (1.0 - sa)) / oa;
            dst[k] = (c + 0.5).clamp(0.0, 255.0) as u8;
        }
        dst[3] = (oa * 255.0 + 0.5).clamp(0.0, 255.0) as u8;
    }

    /// Composites the `width × height` straight RGBA8 image `image` over
    /// the canvas with its top-left corner at `(x, y)` (clipped to the
    /// canvas).
    pub fn draw_image(&mut self, x: i64, y: i64, width: u32, height: u32, image: &[u8]) {
        let (canvas_w, canvas_h) = (i64::from(self.width), i64::from(self.height));
        for (row, line) in image
            .chunks_exact(width as usize * 4)
            .take(height as usize)
            .enumerate()
        {
            let cy = y + row as i64;
            if cy < 0 || cy >= canvas_h {
                continue;
            }
            for (col, p) in line.chunks_exact(4).enumerate() {
                let cx = x + col as i64;
                if cx < 0 || cx >= canvas_w {
                    continue;
                }
                let at = (cy as usize * self.width as usize + cx as usize) * 4;
                // What `blend` gives, without its arithmetic: an opaque
                // pixel replaces the canvas's, a clear one leaves it (or
                // makes a clear canvas pixel all zero).
                match p[3] {
                    255 => self.pixels[at..at + 4].copy_from_slice(p),
                    0 if self.pixels[at + 3] == 0 => self.pixels[at..at + 4].fill(0),
                    0 => {}
                    _ => self.blend(cx, cy, [p[0], p[1], p[2], p[3]], 255),
                }
            }
        }
    }

    /// Fills a rectangle with `colour` (composited).
    pub fn fill(&mut self, x: i64, y: i64, width: u32, height: u32, colour: [u8; 4]) {
        for row in 0..i64::from(height) {
            for col in 0..i64::from(width) {
                self.blend(x + col, y + row, colour, 255);
            }
        }
    }

    /// Draws `text` on one line from `(x, y)` (its top-left corner) in
    /// `colour`; characters the font lacks are drawn as `?`.
    pub fn draw_text(&mut self, x: i64, y: i64, text: &str, colour: [u8; 4]) {
        let w = i64::from(char_width());
        for (i, c) in text.chars().enumerate() {
            let glyph = get_raster(c, WEIGHT, SIZE).or_else(|| get_raster('?', WEIGHT, SIZE));
            let Some(glyph) = glyph else { continue };
            for (row, line) in glyph.rows().enumerate() {
                for (col, &v) in line.iter().enumerate() {
                    if v > 0 {
                        self.blend(x + i as i64 * w + col as i64, y + row as i64, colour, v);
                    }
                }
            }
        }
    }
}

/// Characters after which a label may break onto the next line.
fn breaks_after(c: char) -> bool {
    matches!(c, '/' | '\\' | ' ' | '_' | '-' | '.')
}

/// `text` cut into at most `lines` lines of at most `width` characters:
/// each line ends at the last break (after `/`, a space, `_`, `-` or `.`)
/// that still lets the rest fit in the lines left, or is filled to
/// `width` when none does; what does not fit on the last line is elided
/// in its middle with `...`, keeping its end (the file name).
pub fn wrap(text: &str, width: usize, lines: usize) -> Vec<String> {
    let width = width.max(4);
    let lines = lines.max(1);
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while out.len() + 1 < lines && chars.len() - at > width {
        let left = lines - out.len() - 1;
        let fits = |cut: usize| chars.len() - (at + cut) <= left * width;
        let cut = (1..=width)
            .rev()
            .find(|&cut| breaks_after(chars[at + cut - 1]) && fits(cut))
            .unwrap_or(width);
        out.push(chars[at..at + cut].iter().collect());
        at += cut;
    }
    let rest = &chars[at..];
    if rest.len() <= width {
        if !rest.is_empty() || out.is_empty() {
            out.push(rest.iter().collect());
        }
    } else {
        // Keep the end (the file name) and as much of the start as fits.
        let tail = (width - 3) * 2 / 3;
        let head = width - 3 - tail;
        let mut line: String = rest[..head].iter().collect();
        line.push_str("...");
        line.extend(&rest[rest.len() - tail..]);
        out.push(line);
    }
    out
}

/// How thumbnails are laid out on a sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetLayout {
    /// Number of cells.
    pub cells: u32,
    /// Cells per row.
    pub columns: u32,
    /// Thumbnail width.
    pub thumb_width: u32,
    /// Thumbnail height.
    pub thumb_height: u32,
}

impl SheetLayout {
    /// `cells` thumbnails of `thumb_width × thumb_height`, `columns` to a
    /// row (`None`: about as many columns as rows).
    pub fn new(cells: u32, thumb_width: u32, thumb_height: u32, columns: Option<u32>) -> Self {
        let cells = cells.max(1);
        let columns = columns
            .unwrap_or_else(|| (f64::from(cells).sqrt().ceil()) as u32)
            .clamp(1, cells);
        SheetLayout {
            cells,
            columns,
            thumb_width,
            thumb_height,
        }
    }

    /// Rows of cells.
    pub fn rows(&self) -> u32 {
        self.cells.div_ceil(self.columns)
    }

    /// Height of a cell with its label.
    fn cell_height(&self) -> u64 {
        u64::from(self.thumb_height) + 4 + u64::from(LINE_HEIGHT * LABEL_LINES)
    }

    /// The sheet's size in pixels (as 64-bit numbers, to check before
    /// allocating).
    pub fn size(&self) -> (u64, u64) {
        let w = u64::from(self.columns) * (u64::from(self.thumb_width) + u64::from(GAP))
            + u64::from(GAP);
        let h = u64::from(self.rows()) * (self.cell_height() + u64::from(GAP)) + u64::from(GAP);
        (w, h)
    }

    /// The top-left corner of cell `index`'s thumbnail.
    pub fn origin(&self, index: u32) -> (i64, i64) {
        let (col, row) = (index % self.columns, index / self.columns);
        (
            i64::from(GAP) + i64::from(col) * (i64::from(self.thumb_width) + i64::from(GAP)),
            i64::from(GAP) + i64::from(row) * (self.cell_height() as i64 + i64::from(GAP)),
        )
    }
}

/// A contact sheet being filled.
#[derive(Debug, Clone)]
pub struct Sheet {
    layout: SheetLayout,
    canvas: Canvas,
    text: [u8; 4],
}

impl Sheet {
    /// An empty sheet for `layout` on `background` (opaque backgrounds get
    /// light text, transparent or light ones dark text). Fails when the
    /// sheet would be larger than [`check_size`] allows.
    pub fn new(layout: SheetLayout, background: [u8; 4]) -> Result<Sheet> {
        let (w, h) = layout.size();
        let (w, h) = (
            u32::try_from(w).unwrap_or(u32::MAX),
            u32::try_from(h).unwrap_or(u32::MAX),
        );
        let canvas = Canvas::new(w, h, background)?;
        let luma =
            u32::from(background[0]) * 3 + u32::from(background[1]) * 6 + u32::from(background[2]);
        let dark_background = background[3] >= 128 && luma < 1280;
        let text = if dark_background {
            [230, 230, 230, 255]
        } else {
            [20, 20, 20, 255]
        };
        Ok(Sheet {
            layout,
            canvas,
            text,
        })
    }

    /// The layout.
    pub fn layout(&self) -> &SheetLayout {
        &self.layout
    }

    /// Puts `thumbnail` (straight RGBA8 of the layout's thumbnail size) in
    /// cell `index`, with `label` under it.
    pub fn place(&mut self, index: u32, thumbnail: &[u8], label: &str) {
        let (x, y) = self.layout.origin(index);
        let (w, h) = (self.layout.thumb_width, self.layout.thumb_height);
        self.canvas.draw_image(x, y, w, h, thumbnail);
        self.label(index, label);
    }

    /// Puts a placeholder in cell `index` saying `message` in its middle,
    /// with `label` under it: for a `failed` model a dark red square
    /// crossed out, else (nothing to draw) just the message.
    pub fn place_message(&mut self, index: u32, label: &str, message: &str, failed: bool) {
        let (x, y) = self.layout.origin(index);
        let (w, h) = (self.layout.thumb_width, self.layout.thumb_height);
        if failed {
            self.canvas.fill(x, y, w, h, [90, 20, 20, 255]);
            let n = w.min(h);
            for i in 0..i64::from(n) {
                let (dx, dy) = (
                    i64::from(w) * i / i64::from(n),
                    i64::from(h) * i / i64::from(n),
                );
                self.canvas.fill(x + dx, y + dy, 2, 2, [200, 60, 60, 255]);
                self.canvas
                    .fill(x + i64::from(w) - 1 - dx, y + dy, 2, 2, [200, 60, 60, 255]);
            }
        }
        let cols = (w / char_width()).max(1) as usize;
        let lines = wrap(message, cols, 3);
        let top = y + i64::from(h / 2) - i64::from(LINE_HEIGHT) * lines.len() as i64 / 2;
        for (i, line) in lines.iter().enumerate() {
            let tw = i64::from(char_width()) * line.chars().count() as i64;
            let lx = x + (i64::from(w) - tw) / 2;
            let ly = top + i as i64 * i64::from(LINE_HEIGHT);
            self.canvas
                .fill(lx - 2, ly, (tw + 4) as u32, LINE_HEIGHT, [0, 0, 0, 160]);
            self.canvas.draw_text(lx, ly, line, [255, 255, 255, 255]);
        }
        self.label(index, label);
    }

    fn label(&mut self, index: u32, label: &str) {
        let (x, y) = self.layout.origin(index);
        let cols = (self.layout.thumb_width / char_width()).max(1) as usize;
        let ty = y + i64::from(self.layout.thumb_height) + 2;
        for (i, line) in wrap(label, cols, LABEL_LINES as usize).iter().enumerate() {
            let ly = ty + i as i64 * i64::from(LINE_HEIGHT);
            self.canvas.draw_text(x, ly, line, self.text);
        }
    }

    /// The finished sheet.
    pub fn into_canvas(self) -> Canvas {
        self.canvas
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_wrap_at_slashes_and_elide_in_the_middle() {
        assert_eq!(wrap("md2/faerie.md2", 20, 2), ["md2/faerie.md2"]);
        assert_eq!(wrap("", 20, 2), [""]);
        assert_eq!(
            wrap("gametrees/ufoai/models/fern.md2", 16, 2),
            ["gametrees/ufoai/", "models/fern.md2"]
        );
        // The last break that leaves a rest that fits.
        assert_eq!(
            wrap("md2/ufoai_objects_vegi_fern_fern.md2", 27, 2),
            ["md2/ufoai_objects_vegi_", "fern_fern.md2"]
        );
        let long = wrap(
            "a/very/long/path/with/many/parts/and/a/model_name.md2",
            16,
            2,
        );
        assert_eq!(long.len(), 2);
        assert!(long.iter().all(|l| l.chars().count() <= 16), "{long:?}");
        assert!(
            long[1].contains("...") && long[1].ends_with(".md2"),
            "{long:?}"
        );
    }

    #[test]
    fn drawn_images_composite_as_blend_does() {
        // Every canvas alpha under clear, opaque and half-covered image
        // pixels: the shortcuts of `draw_image` give what `blend` gives.
        let colours = [[0, 0, 0], [255, 255, 255], [3, 128, 250], [17, 99, 201]];
        for dst_alpha in 0..=255u8 {
            for dst in colours {
                for src in colours {
                    for src_alpha in [0u8, 1, 128, 254, 255] {
                        let dst = [dst[0], dst[1], dst[2], dst_alpha];
                        let src = [src[0], src[1], src[2], src_alpha];
                        let mut drawn = Canvas::new(1, 1, dst).unwrap();
                        drawn.draw_image(0, 0, 1, 1, &src);
                        let mut blended = Canvas::new(1, 1, dst).unwrap();
                        blended.blend(0, 0, src, 255);
                        assert_eq!(drawn, blended, "{src:?} over {dst:?}");
                    }
                }
            }
        }
        // Clipped to the canvas.
        let mut c = Canvas::new(2, 2, [0; 4]).unwrap();
        c.draw_image(1, -1, 2, 2, &[255; 16]);
        assert_eq!(c.pixels(), [[0; 4], [255; 4], [0; 4], [0; 4]].concat());
    }

    #[test]
    fn text_is_drawn_in_the_font() {
        let mut c = Canvas::new(40, 16, [0, 0, 0, 255]).unwrap();
        c.draw_text(0, 0, "Hi", [255, 255, 255, 255]);
        let lit = c.pixels().chunks_exact(4).filter(|p| p[0] > 128).count();
        assert!(lit > 10, "{lit}");
        // Only within the two characters' boxes.
        let w = char_width() as usize;
        for (i, p) in c.pixels().chunks_exact(4).enumerate() {
            if i % 40 >= 2 * w {
                assert_eq!(p[0], 0);
            }
        }
    }

    #[test]
    fn oversized_sheets_are_refused() {
        let layout = SheetLayout::new(100_000, 8192, 8192, None);
        assert!(Sheet::new(layout, [0; 4]).is_err());
    }
}
