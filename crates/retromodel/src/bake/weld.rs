//! Welding: vertices whose quantised positions are the same in every
//! frame become one model vertex.

use std::collections::HashMap;

/// Per used vertex, the welded vertex it becomes, and how many there are,
/// from the bytes of `frames` frames of `n` vertices each (frame by
/// frame): vertices with the same bytes in every frame share one welded
/// vertex, numbered in order of first appearance.
pub(crate) fn by_trajectory(bytes: &[[u8; 3]], n: usize, frames: usize) -> (Vec<u32>, usize) {
    // Each vertex's bytes in every frame, contiguous.
    let mut trajectories = vec![0u8; n * frames * 3];
    for f in 0..frames {
        for u in 0..n {
            let at = (u * frames + f) * 3;
            if let Some(b) = bytes.get(f * n + u) {
                trajectories[at..at + 3].copy_from_slice(b);
            }
        }
    }
    let mut ids: HashMap<&[u8], u32> = HashMap::new();
    let mut of = Vec::with_capacity(n);
    for u in 0..n {
        let key = &trajectories[u * frames * 3..(u + 1) * frames * 3];
        let next = ids.len() as u32;
        of.push(*ids.entry(key).or_insert(next));
    }
    let count = ids.len();
    (of, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_weld_only_when_every_frame_agrees() {
        // Three vertices over two frames: 0 and 2 agree in both, 1 agrees
        // with 0 in the first frame only.
        let bytes = [
            [1, 2, 3],
            [1, 2, 3],
            [1, 2, 3], // frame 0
            [4, 5, 6],
            [4, 5, 7],
            [4, 5, 6], // frame 1
        ];
        assert_eq!(by_trajectory(&bytes, 3, 2), (vec![0, 1, 0], 2));
    }
}
