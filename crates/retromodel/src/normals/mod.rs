//! The 162 unit normals that Quake's MDL and Quake II's MD2 vertices index,
//! under the name the compilers and the MD2 decoder use; the table and its
//! nearest-normal cube map live in [`crate::quake`] (merge of the `normals`
//! and `quake` moves: one copy of the table).

pub(crate) use crate::quake::anorms::NORMALS_PADDED;
pub use crate::quake::anorms::{nearest_normal_index, normal, NORMALS, NORMAL_COUNT};
pub(crate) use crate::quake::nearest;
