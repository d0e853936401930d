//! What Quake's model formats share: Quake's MDL and its child Quake II's
//! MD2 pack vertices alike, index the same 162 normals, and name their
//! animations only through frame names. Both `mdl` and `md2` build on
//! this module; it names neither.

pub(crate) mod anorms;
pub mod frame_names;
pub(crate) mod nearest;
mod vertex_normals;

pub use anorms::{nearest_normal_index, normal, NORMALS, NORMAL_COUNT};
pub use frame_names::{animations_from_runs, Animation};
pub use vertex_normals::vertex_normals;
