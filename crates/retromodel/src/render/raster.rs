//! The rasteriser: triangles in clip space to pixels, as OpenGL draws
//! them. Near-plane clipping, back-face culling (counter-clockwise
//! front faces), pixel centres at `(x + ½, y + ½)` with a top-left fill
//! rule, a depth buffer (`LESS`), perspective-correct interpolation of the
//! vertex attributes and their screen-space derivatives (for mipmap
//! selection), and the colour written over or blended onto a
//! premultiplied RGBA8 buffer. Everything is computed in `f64` from
//! finite inputs; a triangle with any corner that is not finite is not
//! drawn, and no loop runs past the image's pixels.

/// Attributes carried from the vertices to the pixels: `u, v` and the
/// normal `x, y, z`.
pub(crate) const VARYINGS: usize = 5;

/// A vertex after the vertex transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ClipVertex {
    /// Clip-space position `(x, y, z, w)`.
    pub clip: [f64; 4],
    /// The attributes.
    pub varying: [f64; VARYINGS],
}

/// What the shading of one pixel sees.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fragment {
    /// The interpolated attributes.
    pub varying: [f32; VARYINGS],
    /// `(du/dx, dv/dx, du/dy, dv/dy)`: how the texture coordinates change
    /// from pixel to pixel.
    pub uv_derivatives: [f32; 4],
    /// Whether the triangle's front faces the camera.
    pub front: bool,
}

/// How a shaded pixel is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Write {
    /// Replaces the pixel and its depth (opaque and alpha-tested
    /// materials).
    Replace,
    /// Blended over the pixel (`src · α + dst · (1 − α)`, alpha `α + dst ·
    /// (1 − α)`), depth tested but not written (glTF `BLEND`, as three.js
    /// draws it).
    Blend,
}

/// The image being drawn: premultiplied RGBA8 and depth, row 0 at the
/// top.
pub(crate) struct Target<'a> {
    pub width: usize,
    pub height: usize,
    pub color: &'a mut [u8],
    pub depth: &'a mut [f32],
}

/// Rounds a colour value (0–1) to 8 bits.
fn to_u8(v: f32) -> u8 {
    (v * 255.0 + 0.5).clamp(0.0, 255.0) as u8
}

impl Target<'_> {
    /// Writes `rgba` (straight alpha, 0–1) at pixel `at` as `write` says.
    fn put(&mut self, at: usize, rgba: [f32; 4], write: Write, depth: f32) {
        let Some(px) = self.color.get_mut(4 * at..4 * at + 4) else {
            return;
        };
        match write {
            Write::Replace => {
                let a = rgba[3].clamp(0.0, 1.0);
                px.copy_from_slice(&[
                    to_u8(rgba[0] * a),
                    to_u8(rgba[1] * a),
                    to_u8(rgba[2] * a),
                    to_u8(a),
                ]);
                if let Some(d) = self.depth.get_mut(at) {
                    *d = depth;
                }
            }
            Write::Blend => {
                let a = rgba[3].clamp(0.0, 1.0);
                let dst = |k: usize| f32::from(px[k]) / 255.0;
                let out = [
                    rgba[0] * a + dst(0) * (1.0 - a),
                    rgba[1] * a + dst(1) * (1.0 - a),
                    rgba[2] * a + dst(2) * (1.0 - a),
                    a + dst(3) * (1.0 - a),
                ];
                px.copy_from_slice(&out.map(to_u8));
            }
        }
    }
}

/// The polygon left of a triangle after clipping it to the near plane
/// (`z ≥ −w`) and to `w > 0`: up to four vertices.
fn clip_near(v: &[ClipVertex; 3], out: &mut [ClipVertex; 4]) -> usize {
    // Distance inside the near plane; a hair inside for w so that no
    // vertex ends at w = 0.
    let d = |c: &ClipVertex| (c.clip[2] + c.clip[3]).min(c.clip[3] - 1e-12);
    let mut n = 0;
    for i in 0..3 {
        let (a, b) = (&v[i], &v[(i + 1) % 3]);
        let (da, db) = (d(a), d(b));
        if da >= 0.0 {
            out[n] = *a;
            n += 1;
        }
        if (da >= 0.0) != (db >= 0.0) {
            let t = da / (da - db);
            let lerp = |x: f64, y: f64| x + (y - x) * t;
            let mut c = *a;
            for k in 0..4 {
                c.clip[k] = lerp(a.clip[k], b.clip[k]);
            }
            for k in 0..VARYINGS {
                c.varying[k] = lerp(a.varying[k], b.varying[k]);
            }
            out[n] = c;
            n += 1;
        }
    }
    n
}

/// A vertex in screen space.
#[derive(Debug, Clone, Copy)]
struct Screen {
    x: f64,
    y: f64,
    /// Normalised device depth, −1 (near) to 1 (far).
    z: f64,
    /// 1 / w.
    inv_w: f64,
    varying: [f64; VARYINGS],
}

fn to_screen(c: &ClipVertex, width: f64, height: f64) -> Screen {
    let inv_w = 1.0 / c.clip[3];
    Screen {
        x: (c.clip[0] * inv_w + 1.0) * 0.5 * width,
        y: (1.0 - c.clip[1] * inv_w) * 0.5 * height,
        z: c.clip[2] * inv_w,
        inv_w,
        varying: c.varying,
    }
}

/// Draws the triangle `v` (counter-clockwise front face) into `target`:
/// back faces are skipped when `cull`; each covered pixel nearer than the
/// depth buffer is shaded by `shade` (`None` discards it) and written as
/// `write` says.
pub(crate) fn draw_triangle(
    target: &mut Target,
    v: &[ClipVertex; 3],
    cull: bool,
    write: Write,
    shade: &mut dyn FnMut(&Fragment) -> Option<[f32; 4]>,
) {
    if !v
        .iter()
        .all(|c| c.clip.iter().chain(&c.varying).all(|x| x.is_finite()))
    {
        return;
    }
    let mut poly = [v[0]; 4];
    let n = clip_near(v, &mut poly);
    if n < 3 {
        return;
    }
    let (w, h) = (target.width as f64, target.height as f64);
    let s = poly.map(|c| to_screen(&c, w, h));
    for k in 1..n - 1 {
        draw_screen_triangle(target, [s[0], s[k], s[k + 1]], cull, write, shade);
    }
}

fn draw_screen_triangle(
    target: &mut Target,
    s: [Screen; 3],
    cull: bool,
    write: Write,
    shade: &mut dyn FnMut(&Fragment) -> Option<[f32; 4]>,
) {
    // Twice the signed area in screen space (y down): negative for a
    // triangle counter-clockwise in normalised device coordinates (y up).
    let area = (s[1].x - s[0].x) * (s[2].y - s[0].y) - (s[2].x - s[0].x) * (s[1].y - s[0].y);
    if !area.is_finite() || area == 0.0 {
        return;
    }
    let front = area < 0.0;
    if cull && !front {
        return;
    }
    // Edge i is opposite vertex i: e_i(p) = a_i x + b_i y + c_i, positive
    // inside once divided by `area`.
    let edge = |p: &Screen, q: &Screen| {
        let a = p.y - q.y;
        let b = q.x - p.x;
        let c = p.x * q.y - p.y * q.x;
        (a, b, c)
    };
    let edges = [edge(&s[1], &s[2]), edge(&s[2], &s[0]), edge(&s[0], &s[1])];
    // Top-left rule: a pixel centre exactly on an edge belongs to the
    // triangle on the edge's left or top side only.
    let owns_edge = |(a, b, _): (f64, f64, f64)| {
        let (a, b) = (a / area, b / area);
        a > 0.0 || (a == 0.0 && b > 0.0)
    };
    let owns = [
        owns_edge(edges[0]),
        owns_edge(edges[1]),
        owns_edge(edges[2]),
    ];
    let min_x = s.iter().map(|p| p.x).fold(f64::INFINITY, f64::min);
    let max_x = s.iter().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
    let min_y = s.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
    let max_y = s.iter().map(|p| p.y).fold(f64::NEG_INFINITY, f64::max);
    let clamp = |v: f64, n: usize| v.clamp(0.0, n as f64) as usize;
    let (x0, x1) = (
        clamp((min_x - 0.5).floor(), target.width),
        clamp((max_x + 0.5).ceil(), target.width),
    );
    let (y0, y1) = (
        clamp((min_y - 0.5).floor(), target.height),
        clamp((max_y + 0.5).ceil(), target.height),
    );
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    // Barycentric λ_i = e_i / area; per pixel step dλ_i/dx = a_i / area.
    let dl_dx = edges.map(|(a, _, _)| a / area);
    let dl_dy = edges.map(|(_, b, _)| b / area);
    let inv_w = [s[0].inv_w, s[1].inv_w, s[2].inv_w];
    // d(Σ λ_i / w_i)/dx and d(Σ λ_i u_i / w_i)/dx (same for y, and v).
    let sum3 = |f: &dyn Fn(usize) -> f64| f(0) + f(1) + f(2);
    let bx = sum3(&|i| dl_dx[i] * inv_w[i]);
    let by = sum3(&|i| dl_dy[i] * inv_w[i]);
    let ux = sum3(&|i| dl_dx[i] * inv_w[i] * s[i].varying[0]);
    let uy = sum3(&|i| dl_dy[i] * inv_w[i] * s[i].varying[0]);
    let vx = sum3(&|i| dl_dx[i] * inv_w[i] * s[i].varying[1]);
    let vy = sum3(&|i| dl_dy[i] * inv_w[i] * s[i].varying[1]);
    for y in y0..y1 {
        let py = y as f64 + 0.5;
        for x in x0..x1 {
            let px = x as f64 + 0.5;
            let mut l = [0.0f64; 3];
            let mut inside = true;
            for i in 0..3 {
                let (a, b, c) = edges[i];
                let e = (a * px + b * py + c) / area;
                if e < 0.0 || (e == 0.0 && !owns[i]) {
                    inside = false;
                    break;
                }
                l[i] = e;
            }
            if !inside {
                continue;
            }
            let z = l[0] * s[0].z + l[1] * s[1].z + l[2] * s[2].z;
            if !(-1.0..=1.0).contains(&z) {
                continue;
            }
            let at = y * target.width + x;
            let z32 = z as f32;
            if target.depth.get(at).is_none_or(|&d| z32 >= d) {
                continue;
            }
            let q = [l[0] * inv_w[0], l[1] * inv_w[1], l[2] * inv_w[2]];
            let b = q[0] + q[1] + q[2];
            if b.is_nan() || b <= 0.0 {
                continue;
            }
            let mut varying = [0.0f32; VARYINGS];
            for (k, out) in varying.iter_mut().enumerate() {
                *out = ((q[0] * s[0].varying[k] + q[1] * s[1].varying[k] + q[2] * s[2].varying[k])
                    / b) as f32;
            }
            let (u, v) = (f64::from(varying[0]), f64::from(varying[1]));
            let fragment = Fragment {
                varying,
                uv_derivatives: [
                    ((ux - u * bx) / b) as f32,
                    ((vx - v * bx) / b) as f32,
                    ((uy - u * by) / b) as f32,
                    ((vy - v * by) / b) as f32,
                ],
                front,
            };
            if let Some(rgba) = shade(&fragment) {
                target.put(at, rgba, write, z32);
            }
        }
    }
}

/// Draws the segment from `a` to `b` (clip space) in `rgba` over every
/// pixel whose depth is at least the segment's less `bias` (so it shows on
/// the surfaces it borders, not through them): one pixel wide, about one
/// pixel per step.
pub(crate) fn draw_line(target: &mut Target, a: [f64; 4], b: [f64; 4], rgba: [f32; 4], bias: f32) {
    if !a.iter().chain(&b).all(|v| v.is_finite()) {
        return;
    }
    // Clip to the near plane.
    let d = |c: &[f64; 4]| (c[2] + c[3]).min(c[3] - 1e-12);
    let (da, db) = (d(&a), d(&b));
    if da < 0.0 && db < 0.0 {
        return;
    }
    let lerp = |p: &[f64; 4], q: &[f64; 4], t: f64| [0, 1, 2, 3].map(|k| p[k] + (q[k] - p[k]) * t);
    let (a, b) = if da < 0.0 {
        (lerp(&a, &b, da / (da - db)), b)
    } else if db < 0.0 {
        (a, lerp(&a, &b, da / (da - db)))
    } else {
        (a, b)
    };
    let (w, h) = (target.width as f64, target.height as f64);
    let screen = |c: &[f64; 4]| {
        (
            (c[0] / c[3] + 1.0) * 0.5 * w,
            (1.0 - c[1] / c[3]) * 0.5 * h,
            c[2] / c[3],
        )
    };
    let (p, q) = (screen(&a), screen(&b));
    // Keep only the part over the image (Liang–Barsky), so the number of
    // steps is bounded by the image's size.
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (q, den) in [(p.0, -dx), (w - p.0, dx), (p.1, -dy), (h - p.1, dy)] {
        if den == 0.0 {
            if q < 0.0 {
                return;
            }
        } else {
            let t = q / den;
            if den < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    if t0 > t1 || t0.is_nan() || t1.is_nan() {
        return;
    }
    let steps = ((dx.abs().max(dy.abs()) * (t1 - t0)).ceil() as usize).clamp(1, 1 << 16);
    for i in 0..=steps {
        let t = t0 + (t1 - t0) * i as f64 / steps as f64;
        let (x, y) = (p.0 + dx * t, p.1 + dy * t);
        let z = (p.2 + (q.2 - p.2) * t) as f32;
        if !(x >= 0.0 && y >= 0.0 && x < w && y < h) {
            continue;
        }
        let at = y as usize * target.width + x as usize;
        if target.depth.get(at).is_some_and(|&d| z - bias <= d) {
            target.put(at, rgba, Write::Blend, 0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(x: f64, y: f64, z: f64) -> ClipVertex {
        ClipVertex {
            clip: [x, y, z, 1.0],
            varying: [0.0; VARYINGS],
        }
    }

    fn draw(v: [ClipVertex; 3], cull: bool, size: usize) -> Vec<u8> {
        let mut color = vec![0u8; size * size * 4];
        let mut depth = vec![f32::INFINITY; size * size];
        let mut t = Target {
            width: size,
            height: size,
            color: &mut color,
            depth: &mut depth,
        };
        draw_triangle(&mut t, &v, cull, Write::Replace, &mut |_| Some([1.0; 4]));
        color
    }

    fn coverage(c: &[u8]) -> usize {
        c.chunks_exact(4).filter(|p| p[3] == 255).count()
    }

    #[test]
    fn two_triangles_of_a_square_cover_each_pixel_once() {
        // The whole viewport as two triangles sharing a diagonal through
        // pixel centres: every pixel exactly once (a blend would show a
        // pixel drawn twice; here the count of covered pixels tells).
        let (a, b, c, d) = (
            vertex(-1.0, -1.0, 0.0),
            vertex(1.0, -1.0, 0.0),
            vertex(1.0, 1.0, 0.0),
            vertex(-1.0, 1.0, 0.0),
        );
        let size = 8;
        let mut color = vec![0u8; size * size * 4];
        let mut depth = vec![f32::INFINITY; size * size];
        let mut t = Target {
            width: size,
            height: size,
            color: &mut color,
            depth: &mut depth,
        };
        let mut count = 0;
        for tri in [[a, b, c], [a, c, d]] {
            draw_triangle(&mut t, &tri, true, Write::Replace, &mut |_| {
                count += 1;
                Some([1.0; 4])
            });
        }
        assert_eq!(count, size * size);
        assert_eq!(coverage(&color), size * size);
    }

    #[test]
    fn back_faces_are_culled_and_the_top_is_up() {
        // Counter-clockwise in NDC (y up): a front face, in the top half.
        let tri = [
            vertex(-1.0, 0.0, 0.0),
            vertex(1.0, 0.0, 0.0),
            vertex(0.0, 1.0, 0.0),
        ];
        let c = draw(tri, true, 8);
        assert!(coverage(&c) > 0);
        let top_rows = c[..8 * 4 * 4]
            .chunks_exact(4)
            .filter(|p| p[3] == 255)
            .count();
        assert_eq!(
            top_rows,
            coverage(&c),
            "the triangle with y > 0 is drawn in the top rows"
        );
        let back = [tri[0], tri[2], tri[1]];
        assert_eq!(coverage(&draw(back, true, 8)), 0);
        assert_eq!(coverage(&draw(back, false, 8)), coverage(&c));
    }

    #[test]
    fn hostile_triangles_draw_nothing_or_stay_in_bounds() {
        let n = f64::NAN;
        assert_eq!(
            coverage(&draw(
                [
                    vertex(n, 0.0, 0.0),
                    vertex(1.0, 0.0, 0.0),
                    vertex(0.0, 1.0, 0.0)
                ],
                false,
                4
            )),
            0
        );
        // Degenerate.
        assert_eq!(coverage(&draw([vertex(0.0, 0.0, 0.0); 3], false, 4)), 0);
        // Huge: covers the viewport.
        let big = [
            vertex(-1e30, -1e30, 0.0),
            vertex(1e30, -1e30, 0.0),
            vertex(0.0, 1e30, 0.0),
        ];
        assert_eq!(coverage(&draw(big, false, 4)), 16);
        // Behind the camera (w < 0 everywhere) and straddling it.
        let behind = |w: f64| ClipVertex {
            clip: [0.0, 0.0, -w, w],
            varying: [0.0; VARYINGS],
        };
        assert_eq!(
            coverage(&draw([behind(-1.0), behind(-2.0), behind(-3.0)], false, 4)),
            0
        );
        let straddle = [
            ClipVertex {
                clip: [-1.0, -1.0, 0.5, 1.0],
                varying: [0.0; VARYINGS],
            },
            ClipVertex {
                clip: [1.0, -1.0, 0.5, 1.0],
                varying: [0.0; VARYINGS],
            },
            ClipVertex {
                clip: [0.0, 5.0, 5.0, -5.0],
                varying: [0.0; VARYINGS],
            },
        ];
        let _ = draw(straddle, false, 4);
    }

    #[test]
    fn lines_stay_in_bounds() {
        let mut color = vec![0u8; 16 * 4];
        let mut depth = vec![f32::INFINITY; 16];
        let mut t = Target {
            width: 4,
            height: 4,
            color: &mut color,
            depth: &mut depth,
        };
        draw_line(
            &mut t,
            [-1e300, 0.0, 0.0, 1.0],
            [1e300, 0.5, 0.0, 1.0],
            [1.0; 4],
            0.0,
        );
        draw_line(
            &mut t,
            [-1e6, 0.0, 0.0, 1.0],
            [1e6, 0.0, 0.0, 1.0],
            [1.0; 4],
            0.0,
        );
        draw_line(
            &mut t,
            [f64::NAN, 0.0, 0.0, 1.0],
            [1.0, 0.5, 0.0, 1.0],
            [1.0; 4],
            0.0,
        );
        assert!(coverage(&color) >= 4);
    }
}
