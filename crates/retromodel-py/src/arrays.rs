//! NumPy arrays filled in place, and library values as Python objects.

use numpy::{PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;

use crate::errors::Error;

/// A new float32 array of `shape` (whose last axis is 3), filled by
/// `fill` straight in its memory, without the GIL: the one write of the
/// data, no copy after.
pub fn new_vec3_array<'py>(
    py: Python<'py>,
    shape: &[usize],
    fill: impl FnOnce(&mut [[f32; 3]]) + Send,
) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
    let array = PyArrayDyn::<f32>::zeros(py, shape, false);
    {
        let mut write = array.readwrite();
        let flat = write.as_slice_mut()?;
        let points: &mut [[f32; 3]] = bytemuck::try_cast_slice_mut(flat)
            .map_err(|e| Error::new_err(format!("array of shape {shape:?}: {e}")))?;
        py.detach(|| fill(points));
    }
    Ok(array)
}

/// A serialisable value as the Python object its JSON is (dicts, lists,
/// str, int, float, bool, None).
pub fn to_python<'py>(
    py: Python<'py>,
    value: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| Error::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}
