//! The grids shared by the frames of an animation or of the whole model,
//! over the positions of every scene compiled together.

use super::prepared::Prepared;
use super::{grid, FrameGrid, Grid};

/// The grids of every frame, over the positions of all `prepared`.
pub(super) fn shared_grids(prepared: &[Prepared], grid: Grid) -> Vec<FrameGrid> {
    let Some(first) = prepared.first() else {
        return Vec::new();
    };
    let frames = first.plan.frame_count();
    let frame_points = |f: usize| {
        prepared.iter().flat_map(move |p| {
            let n = p.source.vertices.len();
            p.positions[f * n..(f + 1) * n].iter()
        })
    };
    // Each frame's (or animation's) grid is its own: they are found at
    // once.
    match grid {
        Grid::Frame => {
            let work = prepared.iter().map(|p| p.positions.len()).sum();
            let pieces = crate::parallel::ranges(frames, crate::parallel::pieces(frames, work));
            crate::parallel::map(pieces, |range| {
                range
                    .map(|f| grid::grid_of(frame_points(f)))
                    .collect::<Vec<_>>()
            })
            .concat()
        }
        Grid::Animation => {
            let mut ranges = Vec::with_capacity(first.plan.groups.len());
            let mut start = 0;
            for g in &first.plan.groups {
                ranges.push(start..start + g.poses.len());
                start += g.poses.len();
            }
            let grid_of = |range: std::ops::Range<usize>| {
                let grid = grid::grid_of(range.clone().flat_map(frame_points));
                vec![grid; range.len()]
            };
            let work = prepared.iter().map(|p| p.positions.len()).sum();
            let grids: Vec<Vec<FrameGrid>> = if crate::parallel::worth(work) {
                crate::parallel::map(ranges, grid_of)
            } else {
                ranges.into_iter().map(grid_of).collect()
            };
            grids.concat()
        }
        Grid::Model => {
            let grid = grid::grid_of((0..frames).flat_map(frame_points));
            vec![grid; frames]
        }
    }
}
