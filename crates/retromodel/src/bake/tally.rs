//! The error tally: how far each frame's decoded positions are from the
//! baked ones, in units and in steps of its grid.

use super::grid::{self, FrameGrid};

/// How far one frame's decoded positions are from the baked ones.
#[derive(Clone, Copy)]
pub(crate) struct FrameErrors {
    /// Sum of the squared errors, over every axis of every vertex.
    pub(crate) squares: f32,
    /// The largest error on an axis.
    pub(crate) max_error: f32,
    /// The largest error as a fraction of its axis' step (infinite for an
    /// error on a flat axis).
    pub(crate) max_step_fraction: f32,
    /// Vertices more than half a step off on some axis (clamped).
    pub(crate) clamped: usize,
}

/// How errors on an axis with grid step `scale` become fractions of a
/// step: `(per_step, pre_scale)` with `fraction = error · pre_scale ·
/// per_step`. A step is as long whichever way it points (records and
/// `grid_from` grids may mirror an axis); a step so small that its
/// reciprocal overflows (a subnormal one) is measured with both sides
/// scaled by 2⁶⁴; a zero step makes any error infinitely many steps.
fn per_step(scale: f32) -> (f32, f32) {
    const PRE: f32 = 18_446_744_073_709_551_616.0; // 2^64
    let step = scale.abs();
    // Zero or NaN: no step to measure in.
    if step.is_nan() || step == 0.0 {
        return (f32::INFINITY, 1.0);
    }
    let r = 1.0 / step;
    if r.is_finite() {
        (r, 1.0)
    } else {
        (1.0 / (step * PRE), PRE)
    }
}

/// [`FrameErrors`] summed up point by point, as the points are quantised
/// (so they are read once).
pub(crate) struct ErrorTally {
    /// Per axis, steps per unit of (pre-scaled) error.
    per_step: [f32; 3],
    /// Per axis, what an error is multiplied by before `per_step`.
    pre_scale: [f32; 3],
    squares: f32,
    max_error: [f32; 3],
    max_fraction: [f32; 3],
    clamped: usize,
}

impl ErrorTally {
    pub(crate) fn new(grid: &FrameGrid) -> ErrorTally {
        ErrorTally {
            per_step: grid.scale.map(|s| per_step(s).0),
            pre_scale: grid.scale.map(|s| per_step(s).1),
            squares: 0.0,
            max_error: [0.0; 3],
            max_fraction: [0.0; 3],
            clamped: 0,
        }
    }

    /// Adds point `p`, which decodes to `d`. The squares are summed in
    /// order (point by point, x, y, z), so the report is the same on any
    /// machine and any split of the work; the largest values are kept per
    /// axis (a maximum does not depend on the order).
    #[inline(always)]
    pub(crate) fn add(&mut self, p: &[f32; 3], d: [f32; 3]) {
        let mut off = false;
        for k in 0..3 {
            let e = (d[k] - p[k]).abs();
            self.squares += e * e;
            // `a.max(b)` for a maximum that is never NaN: a NaN `e` or
            // `fraction` leaves it as it is, as `f32::max` does.
            self.max_error[k] = if e > self.max_error[k] {
                e
            } else {
                self.max_error[k]
            };
            let fraction = if e == 0.0 {
                0.0
            } else {
                e * self.pre_scale[k] * self.per_step[k]
            };
            off |= fraction > 0.5 + 1e-3 && e > 1e-5 * (1.0 + p[k].abs());
            self.max_fraction[k] = if fraction > self.max_fraction[k] {
                fraction
            } else {
                self.max_fraction[k]
            };
        }
        self.clamped += usize::from(off);
    }

    pub(crate) fn finish(self) -> FrameErrors {
        FrameErrors {
            squares: self.squares,
            max_error: self.max_error.into_iter().fold(0.0, f32::max),
            max_step_fraction: self.max_fraction.into_iter().fold(0.0, f32::max),
            clamped: self.clamped,
        }
    }
}

/// [`ErrorTally`] for twelve coordinates at a time (four points, x, y, z
/// each), as [`grid::on_grid_fast`] and [`grid::quantize_fast`] hand them
/// over: maxima per lane (folded into axes at the end), the squares
/// summed in the same order as point by point, and, with `CLAMPED`, the
/// positions more than half a step off counted as [`ErrorTally::add`]
/// does (the record check leaves that out: clamped positions are
/// reported only for grids from elsewhere, `grid_from`, never with the
/// record's).
pub(crate) struct LaneTally<const CLAMPED: bool> {
    per_step: [f32; grid::LANES],
    pre_scale: [f32; grid::LANES],
    squares: f32,
    max_error: [f32; grid::LANES],
    max_fraction: [f32; grid::LANES],
    clamped: usize,
}

impl<const CLAMPED: bool> LaneTally<CLAMPED> {
    pub(crate) fn new(tally: &ErrorTally) -> Self {
        LaneTally {
            per_step: std::array::from_fn(|j| tally.per_step[j % 3]),
            pre_scale: std::array::from_fn(|j| tally.pre_scale[j % 3]),
            squares: tally.squares,
            max_error: [0.0; grid::LANES],
            max_fraction: [0.0; grid::LANES],
            clamped: 0,
        }
    }

    /// Adds the first `used` lanes of coordinates `x`, which decode to
    /// `d` (lanes past `used` must decode to themselves).
    #[inline(always)]
    pub(crate) fn add(&mut self, x: &[f32; grid::LANES], d: &[f32; grid::LANES], used: usize) {
        // Coordinates exactly on the grid (all of a scene made from the
        // MD2) add nothing: a zero error raises no maximum and adds +0 to
        // the squares.
        let mut off = false;
        for j in 0..grid::LANES {
            off |= d[j] != x[j];
        }
        if !off {
            return;
        }
        let mut e = [0.0f32; grid::LANES];
        let mut clamped = [false; grid::LANES];
        for j in 0..grid::LANES {
            e[j] = (d[j] - x[j]).abs();
            self.max_error[j] = if e[j] > self.max_error[j] {
                e[j]
            } else {
                self.max_error[j]
            };
            let fraction = if e[j] == 0.0 {
                0.0
            } else {
                e[j] * self.pre_scale[j] * self.per_step[j]
            };
            if CLAMPED {
                clamped[j] = fraction > 0.5 + 1e-3 && e[j] > 1e-5 * (1.0 + x[j].abs());
            }
            self.max_fraction[j] = if fraction > self.max_fraction[j] {
                fraction
            } else {
                self.max_fraction[j]
            };
        }
        if CLAMPED {
            for p in clamped[..used].chunks_exact(3) {
                self.clamped += usize::from(p[0] | p[1] | p[2]);
            }
        }
        if used == grid::LANES {
            for e in e {
                self.squares += e * e;
            }
        } else {
            for &e in &e[..used] {
                self.squares += e * e;
            }
        }
    }

    /// Puts what was added into `tally`.
    pub(crate) fn add_to(self, tally: &mut ErrorTally) {
        tally.squares = self.squares;
        for j in 0..grid::LANES {
            let k = j % 3;
            let e = self.max_error[j];
            tally.max_error[k] = if e > tally.max_error[k] {
                e
            } else {
                tally.max_error[k]
            };
            let f = self.max_fraction[j];
            tally.max_fraction[k] = if f > tally.max_fraction[k] {
                f
            } else {
                tally.max_fraction[k]
            };
        }
        tally.clamped += self.clamped;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_measured_in_steps_of_any_sign_and_size() {
        let fraction = |error: f32, scale: f32| {
            let (per, pre) = per_step(scale);
            error * pre * per
        };
        assert_eq!(fraction(0.25, 0.5), 0.5);
        assert_eq!(fraction(0.25, -0.5), 0.5, "a mirrored axis");
        // A subnormal step, whose reciprocal overflows f32.
        let step = 1e-40f32;
        assert!((1.0 / step).is_infinite());
        let half = fraction(step / 2.0, step);
        assert!((half - 0.5).abs() < 1e-3, "{half}");
        assert!((fraction(step * 0.125, -step) - 0.125).abs() < 1e-3);
        assert_eq!(fraction(1e-3, 0.0), f32::INFINITY, "a flat axis");
        assert_eq!(fraction(1e-3, f32::NAN), f32::INFINITY);
    }
}
