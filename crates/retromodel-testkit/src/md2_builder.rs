//! Hand-made MD2 files, written from the format notes (not with the
//! library's writer): a byte-builder that places any header value and any
//! section anywhere, record helpers, a header reader and the standard
//! player animation table.

/// Reads the little-endian `i32` at `at` (for reading headers in tests
/// without going through the library).
pub fn le_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The 15 header fields after magic and version, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// `skin_width`.
    SkinWidth,
    /// `skin_height`.
    SkinHeight,
    /// `frame_size`.
    FrameSize,
    /// `num_skins`.
    NumSkins,
    /// `num_vertices`.
    NumVertices,
    /// `num_texcoords`.
    NumTexCoords,
    /// `num_triangles`.
    NumTriangles,
    /// `num_gl_commands`.
    NumGlCommands,
    /// `num_frames`.
    NumFrames,
    /// `ofs_skins`.
    OfsSkins,
    /// `ofs_texcoords`.
    OfsTexCoords,
    /// `ofs_triangles`.
    OfsTriangles,
    /// `ofs_frames`.
    OfsFrames,
    /// `ofs_gl_commands`.
    OfsGlCommands,
    /// `ofs_end`.
    OfsEnd,
}

impl Field {
    /// All fields in file order.
    pub const ALL: [Field; 15] = [
        Field::SkinWidth,
        Field::SkinHeight,
        Field::FrameSize,
        Field::NumSkins,
        Field::NumVertices,
        Field::NumTexCoords,
        Field::NumTriangles,
        Field::NumGlCommands,
        Field::NumFrames,
        Field::OfsSkins,
        Field::OfsTexCoords,
        Field::OfsTriangles,
        Field::OfsFrames,
        Field::OfsGlCommands,
        Field::OfsEnd,
    ];

    /// Index among the 15 fields.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Byte offset of the field in the file (after 4 bytes of magic and 4
    /// of version).
    pub fn offset(self) -> usize {
        8 + 4 * self.index()
    }

    /// The field's name as the library's messages spell it.
    pub fn name(self) -> &'static str {
        [
            "skin_width",
            "skin_height",
            "frame_size",
            "num_skins",
            "num_vertices",
            "num_texcoords",
            "num_triangles",
            "num_gl_commands",
            "num_frames",
            "ofs_skins",
            "ofs_texcoords",
            "ofs_triangles",
            "ofs_frames",
            "ofs_gl_commands",
            "ofs_end",
        ][self.index()]
    }
}

/// The five sections of an MD2 file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sec {
    /// Skin names (64 bytes each).
    Skins,
    /// Texture coordinates (`s`, `t` as `i16`).
    TexCoords,
    /// Triangles (three vertex and three texture coordinate indices).
    Triangles,
    /// Frames (scale, translate, name, packed vertices).
    Frames,
    /// GL command words.
    GlCommands,
}

impl Sec {
    /// The sections in the standard order.
    pub const STANDARD: [Sec; 5] = [
        Sec::Skins,
        Sec::TexCoords,
        Sec::Triangles,
        Sec::Frames,
        Sec::GlCommands,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// The header field holding the section's count.
    pub fn count_field(self) -> Field {
        [
            Field::NumSkins,
            Field::NumTexCoords,
            Field::NumTriangles,
            Field::NumFrames,
            Field::NumGlCommands,
        ][self.index()]
    }

    /// The header field holding the section's offset.
    pub fn offset_field(self) -> Field {
        [
            Field::OfsSkins,
            Field::OfsTexCoords,
            Field::OfsTriangles,
            Field::OfsFrames,
            Field::OfsGlCommands,
        ][self.index()]
    }
}

/// A hand-made MD2 file: header fields set one by one, section contents
/// placed at any offset in any order, extra bytes anywhere (gaps, trailing
/// data). Bytes no piece covers are filled with [`Md2Builder::fill`].
#[derive(Debug, Clone)]
pub struct Md2Builder {
    /// The magic (normally `IDP2`).
    pub magic: [u8; 4],
    /// The version (normally 8).
    pub version: i32,
    /// The 15 header fields after magic and version.
    pub fields: [i32; 15],
    /// Contents of each section (indexed like [`Sec`]).
    content: [Vec<u8>; 5],
    /// Offsets the sections were placed at, if placed.
    placed: [Option<usize>; 5],
    /// Raw bytes at absolute offsets (written after the sections).
    extra: Vec<(usize, Vec<u8>)>,
    /// Byte for the places nothing covers.
    pub fill: u8,
    /// Length of the file, when it should differ from the end of the last
    /// piece (longer: filled; shorter: cut).
    pub len: Option<usize>,
}

impl Default for Md2Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Md2Builder {
    /// An empty model: `IDP2`, version 8, skin 64×64, every count 0, every
    /// offset 68, frame size 40.
    pub fn new() -> Self {
        let mut fields = [0i32; 15];
        fields[Field::SkinWidth.index()] = 64;
        fields[Field::SkinHeight.index()] = 64;
        fields[Field::FrameSize.index()] = 40;
        for sec in Sec::STANDARD {
            fields[sec.offset_field().index()] = 68;
        }
        fields[Field::OfsEnd.index()] = 68;
        Md2Builder {
            magic: *b"IDP2",
            version: 8,
            fields,
            content: Default::default(),
            placed: [None; 5],
            extra: Vec::new(),
            fill: 0,
            len: None,
        }
    }

    /// Sets a header field.
    pub fn set(&mut self, field: Field, value: i32) -> &mut Self {
        self.fields[field.index()] = value;
        self
    }

    /// A header field's value.
    pub fn get(&self, field: Field) -> i32 {
        self.fields[field.index()]
    }

    /// Sets the number of vertices per frame.
    pub fn vertices(&mut self, n: i32) -> &mut Self {
        self.set(Field::NumVertices, n)
    }

    /// Sets a section's bytes and its count field.
    pub fn content(&mut self, sec: Sec, count: i32, bytes: Vec<u8>) -> &mut Self {
        self.content[sec.index()] = bytes;
        self.set(sec.count_field(), count)
    }

    /// Skin names, each given as its raw bytes (padded with NULs to 64).
    pub fn skins(&mut self, names: &[&[u8]]) -> &mut Self {
        let bytes = names.iter().flat_map(|n| skin_record(n)).collect();
        self.content(Sec::Skins, names.len() as i32, bytes)
    }

    /// Texture coordinates `(s, t)`.
    pub fn texcoords(&mut self, st: &[(i16, i16)]) -> &mut Self {
        let mut bytes = Vec::new();
        for (s, t) in st {
            bytes.extend_from_slice(&s.to_le_bytes());
            bytes.extend_from_slice(&t.to_le_bytes());
        }
        self.content(Sec::TexCoords, st.len() as i32, bytes)
    }

    /// Triangles as (vertex indices, texture coordinate indices).
    pub fn triangles(&mut self, tris: &[([u16; 3], [u16; 3])]) -> &mut Self {
        let mut bytes = Vec::new();
        for (v, st) in tris {
            for x in v.iter().chain(st) {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        self.content(Sec::Triangles, tris.len() as i32, bytes)
    }

    /// Frames, each made by [`frame_record`]; sets the frame size to the
    /// length of the first one.
    pub fn frames(&mut self, frames: &[Vec<u8>]) -> &mut Self {
        if let Some(first) = frames.first() {
            self.set(Field::FrameSize, first.len() as i32);
        }
        let bytes = frames.concat();
        self.content(Sec::Frames, frames.len() as i32, bytes)
    }

    /// GL command words.
    pub fn gl_commands(&mut self, words: &[u32]) -> &mut Self {
        let bytes = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.content(Sec::GlCommands, words.len() as i32, bytes)
    }

    /// Puts a section at `offset` (and writes that offset into the header).
    pub fn place(&mut self, sec: Sec, offset: usize) -> &mut Self {
        self.placed[sec.index()] = Some(offset);
        self.set(sec.offset_field(), offset as i32)
    }

    /// Places the sections one after another from offset 68 in `order`,
    /// with `gaps[i]` filler bytes before the i-th (missing entries: none),
    /// and sets `ofs_end` to the end of the last. Sections not listed keep
    /// their offsets.
    pub fn layout(&mut self, order: &[Sec], gaps: &[usize]) -> &mut Self {
        let mut pos = 68;
        for (i, &sec) in order.iter().enumerate() {
            pos += gaps.get(i).copied().unwrap_or(0);
            self.place(sec, pos);
            pos += self.content[sec.index()].len();
        }
        self.set(Field::OfsEnd, pos as i32)
    }

    /// The standard layout: skins, texcoords, triangles, frames, GL
    /// commands, back to back.
    pub fn standard(&mut self) -> &mut Self {
        self.layout(&Sec::STANDARD, &[])
    }

    /// Raw bytes at an absolute offset (over anything else there).
    pub fn bytes_at(&mut self, offset: usize, bytes: &[u8]) -> &mut Self {
        self.extra.push((offset, bytes.to_vec()));
        self
    }

    /// Where a section was placed.
    pub fn offset_of(&self, sec: Sec) -> usize {
        self.placed[sec.index()].unwrap_or_else(|| panic!("{sec:?} not placed"))
    }

    /// The file's bytes.
    pub fn build(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.magic);
        out.extend_from_slice(&self.version.to_le_bytes());
        for f in self.fields {
            out.extend_from_slice(&f.to_le_bytes());
        }
        let mut put = |offset: usize, bytes: &[u8]| {
            if out.len() < offset + bytes.len() {
                out.resize(offset + bytes.len(), self.fill);
            }
            out[offset..offset + bytes.len()].copy_from_slice(bytes);
        };
        for sec in Sec::STANDARD {
            if let Some(offset) = self.placed[sec.index()] {
                put(offset, &self.content[sec.index()]);
            }
        }
        for (offset, bytes) in &self.extra {
            put(*offset, bytes);
        }
        if let Some(len) = self.len {
            out.resize(len, self.fill);
        }
        out
    }
}

/// A 64-byte skin record: `name` then NULs (or cut at 64 bytes).
pub fn skin_record(name: &[u8]) -> [u8; 64] {
    let mut raw = [0u8; 64];
    let n = name.len().min(64);
    raw[..n].copy_from_slice(&name[..n]);
    raw
}

/// A 16-byte frame name field: `name` then NULs (or cut at 16 bytes).
pub fn name16(name: &[u8]) -> [u8; 16] {
    let mut raw = [0u8; 16];
    let n = name.len().min(16);
    raw[..n].copy_from_slice(&name[..n]);
    raw
}

/// One frame record: scale, translate, the raw 16-byte name, packed
/// vertices `[x, y, z, normal_index]`, then `padding`.
pub fn frame_record(
    scale: [f32; 3],
    translate: [f32; 3],
    name: [u8; 16],
    vertices: &[[u8; 4]],
    padding: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    for v in scale.iter().chain(&translate) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&name);
    for v in vertices {
        out.extend_from_slice(v);
    }
    out.extend_from_slice(padding);
    out
}

/// The standard Quake II player table, typed from the format notes
/// (stand 0–39, run 40–45, ..., death1/2/3 178–197), not from the library:
/// `(name, first frame, frame count)`.
pub const PLAYER_TABLE: [(&str, usize, usize); 20] = [
    ("stand", 0, 40),
    ("run", 40, 6),
    ("attack", 46, 8),
    ("pain1", 54, 4),
    ("pain2", 58, 4),
    ("pain3", 62, 4),
    ("jump", 66, 6),
    ("flip", 72, 12),
    ("salute", 84, 11),
    ("taunt", 95, 17),
    ("wave", 112, 11),
    ("point", 123, 12),
    ("crstnd", 135, 19),
    ("crwalk", 154, 6),
    ("crattak", 160, 9),
    ("crpain", 169, 4),
    ("crdeath", 173, 5),
    ("death1", 178, 6),
    ("death2", 184, 6),
    ("death3", 190, 8),
];
