//! The arrays a scene carries for an IQM in its meshes' extras (see
//! `iqm::carried`): written again per IQM vertex, from the scene vertex
//! each came from. A standard array (a half-float texcoord) replaces the
//! compile's own when every mesh the vertices come from carries it.

use crate::iqm::carried::{self, Carried};
use crate::iqm::Iqm;
use crate::scene::Scene;

/// Adds the carried arrays to `model` (each IQM vertex `v` from scene
/// vertex `sources[v]`; a mesh without an array gives zeros, a standard
/// array only replaces the compile's when every mesh carries it), and
/// puts the arrays in `iqm.txt`'s order.
pub(super) fn add(scene: &Scene, model: &mut Iqm, sources: &[(usize, usize)]) {
    let per_mesh: Vec<Vec<Carried>> = scene
        .meshes
        .iter()
        .map(|m| carried::read(&m.extras, m.positions.len()))
        .collect();
    let mut templates: Vec<Carried> = Vec::new();
    for c in per_mesh.iter().flatten() {
        if !templates.iter().any(|t| t.key() == c.key()) {
            templates.push(c.clone());
        }
    }
    for t in &templates {
        let key = t.key();
        let standard = !matches!(t.kind.as_str(), "color" | "custom" | "reserved");
        let mut values = Vec::with_capacity(sources.len() * t.size);
        let mut all = true;
        for &(m, i) in sources {
            let found = per_mesh
                .get(m)
                .and_then(|list| list.iter().find(|c| c.key() == key))
                .and_then(|c| c.values.get(i * t.size..(i + 1) * t.size));
            match found {
                Some(v) => values.extend_from_slice(v),
                None => {
                    all = false;
                    values.extend(std::iter::repeat_n(0.0, t.size));
                }
            }
        }
        let array = carried::array(model, t, &values);
        if standard {
            // Only in place of the compile's own, and only whole.
            if let (true, Some(slot)) = (
                all,
                model
                    .vertex_arrays
                    .iter_mut()
                    .find(|a| a.kind == array.kind),
            ) {
                *slot = array;
            }
        } else {
            model.vertex_arrays.push(array);
        }
    }
    // iqm.txt's order: the standard types by number, then custom arrays.
    model
        .vertex_arrays
        .sort_by_key(|a| if a.kind < 0x10 { a.kind } else { 0x10 });
}
