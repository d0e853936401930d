//! The joint hierarchy: each joint's parent, found by name, and an order
//! that puts every parent before its children (or the cycle that makes
//! one impossible). The skeleton evaluates in that order; the validator
//! reports what it finds.

use super::Ms3d;

/// The parent of each joint: `None` for roots and for joints whose parent
/// name matches no joint. A name is matched by its exact bytes up to the
/// NUL, and the first joint of a name is the one found (as the viewer's
/// `FindJointByName`). Linear in the joint count: the names are indexed
/// once rather than scanned for every joint.
pub(crate) fn parents(model: &Ms3d) -> Vec<Option<usize>> {
    let mut by_name = std::collections::HashMap::with_capacity(model.joints.len());
    for (i, j) in model.joints.iter().enumerate() {
        by_name.entry(j.name.as_bytes()).or_insert(i);
    }
    model
        .joints
        .iter()
        .map(|j| {
            let name = j.parent.as_bytes();
            if name.is_empty() {
                None
            } else {
                by_name.get(name).copied()
            }
        })
        .collect()
}

/// Joint indices ordered parents first, or the joints of a cycle.
pub(crate) fn evaluation_order(
    parents: &[Option<usize>],
) -> std::result::Result<Vec<usize>, Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    /// How far a joint's placement has got.
    enum State {
        /// Not reached yet.
        New,
        /// On the chain being walked up.
        Visiting,
        /// Placed in the order.
        Done,
    }
    let mut state = vec![State::New; parents.len()];
    let mut order = Vec::with_capacity(parents.len());
    for start in 0..parents.len() {
        // Walk up to the first joint already placed (or a root), then
        // place the chain top-down.
        let mut chain = Vec::new();
        let mut j = Some(start);
        while let Some(i) = j {
            match state[i] {
                State::Done => break,
                State::Visiting => {
                    let from = chain.iter().position(|&c| c == i).unwrap_or(0);
                    return Err(chain[from..].to_vec());
                }
                State::New => {
                    state[i] = State::Visiting;
                    chain.push(i);
                    j = parents[i];
                }
            }
        }
        for &i in chain.iter().rev() {
            state[i] = State::Done;
            order.push(i);
        }
    }
    Ok(order)
}

/// What is wrong with a cycle of parents (as [`evaluation_order`] returns
/// it): the joints' names around the loop, back to the first.
pub(crate) fn cycle_message(model: &Ms3d, cycle: &[usize]) -> String {
    let names: Vec<String> = cycle
        .iter()
        .chain(cycle.first())
        .map(|&i| model.joints[i].name.to_string_lossy())
        .collect();
    format!("parents form a cycle: {}", names.join(" → "))
}
