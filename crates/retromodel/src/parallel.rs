//! Independent pieces of work run at once where there are threads: through
//! `rayon` (the caller's pool when it runs inside one, so a batch's `-j`
//! also bounds the work inside each file), or one after the other without
//! the `parallel` feature and on WebAssembly. The results are the same
//! either way, in the same order.

/// Whether work is spread over threads.
const THREADS: bool = cfg!(all(feature = "parallel", not(target_family = "wasm")));

/// Runs `a` and `b`, at once where there are threads and `work` units
/// are [`worth`] it, and returns both results. A panic in either is
/// passed on.
#[cfg_attr(not(feature = "scene"), allow(dead_code))] // used by compiles only
pub(crate) fn join<RA: Send, RB: Send>(
    work: usize,
    a: impl FnOnce() -> RA + Send,
    b: impl FnOnce() -> RB + Send,
) -> (RA, RB) {
    #[cfg(all(feature = "parallel", not(target_family = "wasm")))]
    {
        if !worth(work) {
            return (a(), b());
        }
        rayon::join(a, b)
    }
    #[cfg(not(all(feature = "parallel", not(target_family = "wasm"))))]
    {
        let _ = work;
        (a(), b())
    }
}

/// `f` of every task, at once where there are threads; the results in
/// the tasks' order.
pub(crate) fn map<T: Send, R: Send>(tasks: Vec<T>, f: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(all(feature = "parallel", not(target_family = "wasm")))]
    {
        use rayon::prelude::*;
        if tasks.len() <= 1 {
            // One piece: no need to wake (or start) the pool.
            return tasks.into_iter().map(f).collect();
        }
        tasks.into_par_iter().map(f).collect()
    }
    #[cfg(not(all(feature = "parallel", not(target_family = "wasm"))))]
    {
        tasks.into_iter().map(f).collect()
    }
}

/// Below this many units of work (positions of a compile, say; one is
/// about 25 ns of work, so this is about 6 ms) starting threads costs more
/// than it saves: the work stays on the calling thread. Measured on a
/// two-core virtual machine, where putting a second thread to work costs
/// half a millisecond to a millisecond of wall time (its idle core has to
/// be woken) and two threads run about 1.5 times as fast as one: below
/// this, one thread finishes first (docs/benchmarks-history.md, "Whole
/// process, third pass"). (The library's own
/// tests spread everything, so they check that the pieces give what one
/// thread gives.)
pub(crate) const SMALL: usize = if cfg!(test) { 1 } else { 250_000 };

/// Whether `work` units are worth spreading over threads.
#[cfg_attr(not(feature = "scene"), allow(dead_code))] // used by compiles only
pub(crate) fn worth(work: usize) -> bool {
    THREADS && work >= SMALL && threads() > 1
}

/// Whether `work` units are worth spreading over threads when `small`
/// units (at least) are: for work whose units are dearer than
/// [`SMALL`]'s. In the library's tests everything is spread, as with
/// [`worth`].
pub(crate) fn worth_at(work: usize, small: usize) -> bool {
    THREADS && work >= small.min(SMALL) && threads() > 1
}

/// Into how many pieces to cut `items` items holding `work` units of work
/// in all: one without threads or for small work, else a few per thread
/// (so a slow piece does not hold the others up), never more than
/// `items`.
#[cfg_attr(not(feature = "scene"), allow(dead_code))] // used by compiles only
pub(crate) fn pieces(items: usize, work: usize) -> usize {
    if !worth(work) {
        return 1;
    }
    (threads() * 4).min(items).max(1)
}

#[cfg(all(feature = "parallel", not(target_family = "wasm")))]
fn threads() -> usize {
    rayon::current_num_threads()
}

#[cfg(not(all(feature = "parallel", not(target_family = "wasm"))))]
fn threads() -> usize {
    1
}

/// `0..items` cut into `pieces` ranges of nearly equal length, in order.
#[cfg_attr(not(feature = "scene"), allow(dead_code))] // used by compiles only
pub(crate) fn ranges(items: usize, pieces: usize) -> Vec<std::ops::Range<usize>> {
    let pieces = pieces.clamp(1, items.max(1));
    (0..pieces)
        .map(|k| k * items / pieces..(k + 1) * items / pieces)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_results_come_back_in_order() {
        let data: Vec<u64> = (1..=1000).collect();
        let (sum, max) = join(
            SMALL,
            || data.iter().sum::<u64>(),
            || data.iter().max().copied(),
        );
        assert_eq!(sum, 500_500);
        assert_eq!(max, Some(1000));
    }

    #[test]
    fn map_keeps_the_tasks_order() {
        let squares = map((0..1000u64).collect(), |x| x * x);
        assert_eq!(squares.len(), 1000);
        assert!(squares
            .iter()
            .enumerate()
            .all(|(i, &s)| s == (i * i) as u64));
    }

    #[test]
    fn ranges_cover_every_item_once_in_order() {
        for items in [0, 1, 2, 7, 198, 1000] {
            for pieces in [1, 2, 3, 8, 2000] {
                let r = ranges(items, pieces);
                assert_eq!(r.first().map(|r| r.start), Some(0));
                assert_eq!(r.last().map(|r| r.end), Some(items));
                assert!(r.windows(2).all(|w| w[0].end == w[1].start));
                assert!(r.len() <= pieces.max(1));
            }
        }
    }

    #[test]
    fn a_panic_in_either_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| join(SMALL, || panic!("a failed"), || 1));
        assert!(caught.is_err());
        let caught = std::panic::catch_unwind(|| join(SMALL, || 1, || panic!("b failed")));
        assert!(caught.is_err());
    }
}
