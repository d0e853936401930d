//! The name fields of an MS3D file (group, material, joint and parent
//! names, texture and alpha map paths, comments) read straight from its
//! bytes with the offsets of `shared/formats/MS3D.md`, independent of the
//! crate's reader. For well-formed files only: it panics on others.

/// The comments on one kind of item: `(index, text)`.
pub type CommentList = Vec<(i32, Vec<u8>)>;

/// The name fields of an MS3D file, read from its bytes.
#[derive(Debug, Default)]
pub struct Fields {
    /// Per group: name, and whether it has triangles.
    pub groups: Vec<([u8; 32], bool)>,
    /// Per material: name, texture, alpha map.
    pub materials: Vec<([u8; 32], Vec<u8>, Vec<u8>)>,
    /// Per joint: name, parent name.
    pub joints: Vec<([u8; 32], [u8; 32])>,
    /// Comments (groups, materials, joints: `(index, text)`), when the
    /// file has them.
    pub comments: Option<[CommentList; 3]>,
    /// The model comment (`{length, text}` form), when the file has one.
    pub model_comment: Option<Vec<u8>>,
}

fn u16_at(b: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([b[at], b[at + 1]]))
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn field32(b: &[u8], at: usize) -> [u8; 32] {
    b[at..at + 32].try_into().unwrap()
}

/// Reads the fields by MS3D.md's table: header 14, vertices 15 each,
/// triangles 70 each, groups `flags, name[32], n, indices[n], material`,
/// materials 361 each (name 0..32, texture 105..233, alpha map
/// 233..361), keyframer 12, joints `flags, name[32], parent[32],
/// rotation, position (24), nRot, nPos, 16 bytes per key`, then the
/// comments part.
pub fn fields(b: &[u8]) -> Fields {
    let mut f = Fields::default();
    let mut o = 14;
    o += 2 + 15 * u16_at(b, o);
    o += 2 + 70 * u16_at(b, o);
    let groups = u16_at(b, o);
    o += 2;
    for _ in 0..groups {
        let n = u16_at(b, o + 33);
        f.groups.push((field32(b, o + 1), n > 0));
        o += 1 + 32 + 2 + 2 * n + 1;
    }
    let materials = u16_at(b, o);
    o += 2;
    for _ in 0..materials {
        f.materials.push((
            field32(b, o),
            b[o + 105..o + 233].to_vec(),
            b[o + 233..o + 361].to_vec(),
        ));
        o += 361;
    }
    o += 12;
    let joints = u16_at(b, o);
    o += 2;
    for _ in 0..joints {
        f.joints.push((field32(b, o + 1), field32(b, o + 33)));
        let keys = u16_at(b, o + 89) + u16_at(b, o + 91);
        o += 93 + 16 * keys;
    }
    if o + 4 > b.len() {
        return f;
    }
    o += 4; // comment subversion
    let mut lists: [CommentList; 3] = Default::default();
    for list in &mut lists {
        let n = i32_at(b, o) as usize;
        o += 4;
        for _ in 0..n {
            let (index, len) = (i32_at(b, o), i32_at(b, o + 4) as usize);
            list.push((index, b[o + 8..o + 8 + len].to_vec()));
            o += 8 + len;
        }
    }
    f.comments = Some(lists);
    if i32_at(b, o) == 1 {
        let len = i32_at(b, o + 4) as usize;
        f.model_comment = Some(b[o + 8..o + 8 + len].to_vec());
    }
    f
}
