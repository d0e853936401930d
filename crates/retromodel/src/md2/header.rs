//! The MD2 header's fields, spelled once.
//!
//! After the magic and the version the header holds 15 signed 32-bit
//! fields. Their names, their order in the file, the [`Header`] struct and
//! its conversions to and from the stored words all come from the one list
//! in this module, so the reader, the writer and the validator cannot
//! disagree about them.

use super::HEADER_SIZE;

/// Number of `i32` fields after the magic and the version.
pub(crate) const FIELD_COUNT: usize = 15;

/// Byte offset of the first field (after the 4-byte magic and the 4-byte
/// version).
const FIRST_FIELD_OFFSET: u64 = 8;

/// Defines [`Header`] and its field list from one list of documented
/// field names, in file order.
macro_rules! header_fields {
    ($($(#[doc = $doc:literal])+ $field:ident,)+) => {
        /// The 17 header fields as stored (counts and offsets are signed in
        /// the file); this struct holds the 15 after the magic and the
        /// version.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct Header {
            $($(#[doc = $doc])+ pub $field: i32,)+
        }

        impl Header {
            /// The fields' names, in file order (for paths in errors and
            /// problems, such as `header.num_frames`).
            pub const FIELD_NAMES: [&'static str; FIELD_COUNT] = [$(stringify!($field),)+];

            /// A header from its fields as stored, in file order.
            pub const fn from_fields(fields: [i32; FIELD_COUNT]) -> Header {
                let [$($field,)+] = fields;
                Header { $($field,)+ }
            }

            /// The fields as stored, in file order.
            pub const fn fields(&self) -> [i32; FIELD_COUNT] {
                [$(self.$field,)+]
            }
        }
    };
}

header_fields! {
    /// Skin width in pixels.
    skin_width,
    /// Skin height in pixels.
    skin_height,
    /// Bytes per frame (normally `40 + 4 × num_vertices`).
    frame_size,
    /// Number of skin names.
    num_skins,
    /// Number of vertices per frame.
    num_vertices,
    /// Number of texture coordinates.
    num_texcoords,
    /// Number of triangles.
    num_triangles,
    /// Number of 32-bit words of GL commands.
    num_gl_commands,
    /// Number of frames.
    num_frames,
    /// Offset of the skin names.
    ofs_skins,
    /// Offset of the texture coordinates.
    ofs_texcoords,
    /// Offset of the triangles.
    ofs_triangles,
    /// Offset of the frames.
    ofs_frames,
    /// Offset of the GL commands.
    ofs_gl_commands,
    /// Offset of the end of the data.
    ofs_end,
}

// The fields fill the header exactly.
const _: () = assert!(FIRST_FIELD_OFFSET as usize + 4 * FIELD_COUNT == HEADER_SIZE);

impl Header {
    /// Byte offset in the file of field `index` (an index into
    /// [`Header::FIELD_NAMES`]).
    ///
    /// ```
    /// use retromodel::md2::Header;
    /// assert_eq!(Header::field_offset(0), 8); // skin_width
    /// let ofs_end = Header::field_index("ofs_end").unwrap();
    /// assert_eq!(Header::field_offset(ofs_end), 64);
    /// ```
    pub const fn field_offset(index: usize) -> u64 {
        FIRST_FIELD_OFFSET + 4 * index as u64
    }

    /// Index of the field called `name` in [`Header::FIELD_NAMES`].
    pub const fn field_index(name: &str) -> Option<usize> {
        let mut i = 0;
        while i < FIELD_COUNT {
            if same_bytes(Header::FIELD_NAMES[i].as_bytes(), name.as_bytes()) {
                return Some(i);
            }
            i += 1;
        }
        None
    }
}

/// Index of the field called `name`, for constants: used in a `const`
/// context, a name that is not a field fails to compile.
pub(crate) const fn index_of(name: &str) -> usize {
    match Header::field_index(name) {
        Some(i) => i,
        None => panic!("not an MD2 header field"),
    }
}

/// Byte offset of the field called `name`, for constants (see
/// [`index_of`]).
pub(crate) const fn offset_of(name: &str) -> u64 {
    Header::field_offset(index_of(name))
}

/// Byte-wise equality usable in `const fn`.
const fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip_in_file_order() {
        let words: [i32; FIELD_COUNT] = std::array::from_fn(|i| i as i32 * 7 - 3);
        let h = Header::from_fields(words);
        assert_eq!(h.fields(), words);
        assert_eq!(h.skin_width, words[0]);
        assert_eq!(h.num_frames, words[8]);
        assert_eq!(h.ofs_end, words[14]);
    }

    #[test]
    fn names_and_offsets_match_the_format() {
        assert_eq!(Header::FIELD_NAMES[2], "frame_size");
        assert_eq!(offset_of("skin_width"), 8);
        assert_eq!(offset_of("skin_height"), 12);
        assert_eq!(offset_of("frame_size"), 16);
        assert_eq!(offset_of("num_skins"), 20);
        assert_eq!(offset_of("num_vertices"), 24);
        assert_eq!(offset_of("num_triangles"), 32);
        assert_eq!(offset_of("num_frames"), 40);
        assert_eq!(offset_of("ofs_skins"), 44);
        assert_eq!(offset_of("ofs_end"), HEADER_SIZE as u64 - 4);
        assert_eq!(Header::field_index("magic"), None);
    }
}
