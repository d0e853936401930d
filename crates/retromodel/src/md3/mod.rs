//! Quake III MD3 models (`IDP3` version 15): the types that mirror the
//! file.
//!
//! An [`Md3`] keeps everything the file holds: the header's fields, the
//! frames (bounds, local origin, radius, raw 16-byte name), the tags of
//! every frame (raw 64-byte name, origin, axes), and the surfaces, each
//! with its shaders, triangles, texture coordinates and per-frame vertices
//! (16-bit positions in 1/64 units and a two-byte latitude/longitude
//! normal). The section offsets as stored and every byte no section
//! covers (padding, gaps, bytes after the end) are kept too, so that
//! [`Layout::Original`] rewrites a file read byte for byte, whatever order
//! its sections are in; [`Layout::Standard`] writes the sections packed in
//! the order id's `q3data` writes them.
//!
//! The layout follows ioquake3's `code/qcommon/qfiles.h` (`md3Header_t`,
//! `md3Frame_t`, `md3Tag_t`, `md3Surface_t`, `md3Shader_t`,
//! `md3Triangle_t`, `md3St_t`, `md3XyzNormal_t`).
//!
//! ```
//! use retromodel::md3::{XyzNormal, MD3_XYZ_SCALE};
//!
//! let v = XyzNormal { xyz: [64, -128, 32], normal: 0 };
//! assert_eq!(v.position(), [1.0, -2.0, 0.5]);
//! assert_eq!(MD3_XYZ_SCALE, 1.0 / 64.0);
//! // Latitude 0, longitude 0: straight up (to ioquake3's table's
//! // precision).
//! assert!((v.decode_normal()[2] - 1.0).abs() < 1e-5);
//! ```

mod animation_cfg;
#[cfg(feature = "scene")]
mod companion_files;
mod decode;
mod engine;
mod gzdoom;
mod info;
#[cfg(feature = "scene")]
mod lift;
mod lod;
#[cfg(feature = "scene")]
pub mod player;
mod player_check;
mod read;
mod shader_script;
mod skin_file;
mod validate;
mod write;

#[cfg(feature = "scene")]
pub mod compile;

pub use animation_cfg::{
    AnimationCfg, CfgAnimation, Part, ANIMATION_NAMES, MAX_ANIMATION_CFG_BYTES, REQUIRED_ANIMATIONS,
};
pub use skin_file::{skin_text, SkinFile, SkinSurface, MAX_SKIN_FILE_BYTES};

#[cfg(feature = "scene")]
pub use companion_files::{
    folder_file_names, is_player_listing, Md3FilePlan, Md3FileRequest, Md3FilesProblem, WholePlayer,
};
pub use engine::{Md3EngineLimits, Md3Over};
pub use gzdoom::{GZDOOM_MAX_FRAME_NAME, GZDOOM_MAX_SURFACES};
pub use info::{Info, SurfaceInfo, TagInfo};
#[cfg(feature = "scene")]
pub use lift::{
    animation_frames, cfg_animations, md3_axes, tag_transform, AnimationSpec, Md3SceneOptions,
    PlayerPart, DEFAULT_FPS, MAX_MORPH_BYTES, ORTHONORMAL_TOLERANCE,
};
pub use lod::lod_file_names;
#[cfg(feature = "scene")]
pub use player::{skin_file_names, Md3Companions, Player};
pub use player_check::check_player;
pub use shader_script::{ShaderScripts, MAX_SHADER_TEXT_BYTES};
pub use validate::limits;
pub use write::Layout;

/// The four bytes an MD3 starts with (`MD3_IDENT`).
pub const MAGIC: [u8; 4] = *b"IDP3";
/// The MD3 version (`MD3_VERSION`).
pub const VERSION: i32 = 15;
/// Size of the file header (`md3Header_t`).
pub const HEADER_SIZE: usize = 108;
/// Size of one frame (`md3Frame_t`).
pub const FRAME_SIZE: usize = 56;
/// Size of one tag (`md3Tag_t`).
pub const TAG_SIZE: usize = 112;
/// Size of a surface's header (`md3Surface_t`).
pub const SURFACE_HEADER_SIZE: usize = 108;
/// Size of one shader (`md3Shader_t`).
pub const SHADER_SIZE: usize = 68;
/// Size of one triangle (`md3Triangle_t`).
pub const TRIANGLE_SIZE: usize = 12;
/// Size of one texture coordinate (`md3St_t`).
pub const TEXCOORD_SIZE: usize = 8;
/// Size of one vertex of one frame (`md3XyzNormal_t`).
pub const XYZ_NORMAL_SIZE: usize = 8;
/// The size of a stored position unit in model units (`MD3_XYZ_SCALE`,
/// 1/64).
pub const MD3_XYZ_SCALE: f32 = 1.0 / 64.0;
/// The length of a path or name field (`MAX_QPATH`).
pub const MAX_QPATH: usize = 64;

/// A 64-byte name as stored (`MAX_QPATH`): the model's, a surface's, a
/// tag's or a shader's. Bytes after the NUL are kept for a byte-exact
/// rewrite.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct QPath(pub [u8; 64]);

fixed_name!(QPath, 64);

/// A 16-byte frame name as stored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameName(pub [u8; 16]);

fixed_name!(FrameName, 16);

/// One frame's bounds and origin (`md3Frame_t`); its vertices are in each
/// surface.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Frame {
    /// Smallest corner of the frame's bounding box.
    pub min: [f32; 3],
    /// Largest corner of the frame's bounding box.
    pub max: [f32; 3],
    /// The local origin (`localOrigin`; `q3data` writes the box's centre
    /// here, engines ignore it).
    pub local_origin: [f32; 3],
    /// Bounding sphere radius (ioquake3 culls with it).
    pub radius: f32,
    /// The raw 16-byte name (`q3data` writes the source file's name).
    pub name: FrameName,
}

/// A tag in one frame (`md3Tag_t`): a named frame of reference other
/// models attach to (`tag_torso`, `tag_head`, `tag_weapon`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tag {
    /// The raw 64-byte name.
    pub name: QPath,
    /// The tag's origin in model units.
    pub origin: [f32; 3],
    /// The tag's axes (forward, left, up), each a unit vector in a sound
    /// file.
    pub axes: [[f32; 3]; 3],
}

/// A shader a surface names (`md3Shader_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shader {
    /// The shader's (or image's) path, raw.
    pub name: QPath,
    /// The index the engine fills in at load time (`shaderIndex`); kept as
    /// stored.
    pub index: i32,
}

/// One vertex of one frame (`md3XyzNormal_t`).
///
/// `#[repr(C)]` and [`bytemuck::Pod`]: eight bytes laid out as the file's
/// record (in native byte order), so a slice of them casts to bytes and
/// the reader fills them with one copy.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct XyzNormal {
    /// Position in 1/64 units ([`MD3_XYZ_SCALE`]).
    pub xyz: [i16; 3],
    /// The normal as stored, a little-endian 16-bit word: the low byte
    /// (first in the file) is the longitude, the high byte the latitude
    /// (ioquake3 `code/renderergl1/tr_surface.c`, `LerpMeshVertexes`:
    /// `lat = (normal >> 8) & 0xff; lng = normal & 0xff`).
    pub normal: u16,
}

impl XyzNormal {
    /// The position in model units: each coordinate × 1/64.
    pub fn position(&self) -> [f32; 3] {
        self.xyz.map(|c| f32::from(c) * MD3_XYZ_SCALE)
    }

    /// The latitude byte (the normal's high byte).
    pub fn lat(&self) -> u8 {
        (self.normal >> 8) as u8
    }

    /// The longitude byte (the normal's low byte).
    pub fn lng(&self) -> u8 {
        (self.normal & 0xff) as u8
    }

    /// The unit normal, as ioquake3 decodes it ([`decode_normal`]).
    pub fn decode_normal(&self) -> [f32; 3] {
        decode_normal(self.normal)
    }
}

/// The angle in radians ioquake3 gives a latitude or longitude byte.
///
/// Its renderers look the byte × 4 up in a 1024-entry sine table whose
/// entry `i` is `sin(i × 360° / 1023)` (ioquake3
/// `code/renderergl1/tr_init.c`, `R_Init`; `tr_surface.c`,
/// `LerpMeshVertexes`; renderergl2's `tr_model.c`, `R_LoadMD3`), so a
/// byte `b` stands for `4b × 2π / 1023`, close to but not exactly the
/// `b × 2π / 256` of the format's design.
pub fn byte_angle(b: u8) -> f32 {
    table_angle(usize::from(b) * 4)
}

/// The angle of entry `i` of ioquake3's sine table.
fn table_angle(i: usize) -> f32 {
    (i as f64 * std::f64::consts::TAU / 1023.0) as f32
}

/// Decodes a stored normal word exactly as ioquake3 does: with `lat` the
/// high byte and `lng` the low byte, each × 4 an entry of its sine table
/// ([`byte_angle`]), the normal is `(cos lat · sin lng, sin lat · sin
/// lng, cos lng)`, where the table's "cos" is the entry 256 further on
/// (`(i + FUNCTABLE_SIZE / 4) & FUNCTABLE_MASK`): 90.09°, not 90°, ahead.
///
/// ```
/// use retromodel::md3::{decode_normal, encode_normal};
/// let up = decode_normal(0);
/// assert!(up[0].abs() < 1e-6 && up[1] == 0.0 && (up[2] - 1.0).abs() < 1e-5);
/// let down = decode_normal(encode_normal([0.0, 0.0, -1.0]));
/// assert!((down[2] + 1.0).abs() < 1e-3);
/// ```
pub fn decode_normal(normal: u16) -> [f32; 3] {
    let table = sine_table();
    let lat = usize::from(normal >> 8) * 4;
    let lng = usize::from(normal & 0xff) * 4;
    let sin = |i: usize| table[i & 1023];
    [
        sin(lat + 256) * sin(lng),
        sin(lat) * sin(lng),
        sin(lng + 256),
    ]
}

/// ioquake3's 1024-entry sine table (entry `i` the sine of
/// [`table_angle`]`(i)`), computed once: decoding a normal is then four
/// look-ups and three products, not three sines.
fn sine_table() -> &'static [f32; 1024] {
    static TABLE: std::sync::OnceLock<[f32; 1024]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0.0f32; 1024];
        for (i, v) in t.iter_mut().enumerate() {
            *v = f64::from(table_angle(i)).sin() as f32;
        }
        t
    })
}

/// Encodes a unit normal to the stored word, the inverse of
/// [`decode_normal`]: latitude `atan2(y, x)` and longitude `acos(z)`, each
/// rounded to the nearest byte on ioquake3's scale ([`byte_angle`]), then
/// of those bytes and their neighbours the word that decodes nearest.
/// `q3data`'s `NormalToLatLong` truncates on a 255/360 scale instead;
/// this gives back the nearer normal. A zero or non-finite vector encodes
/// as straight up (0).
pub fn encode_normal(n: [f32; 3]) -> u16 {
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if !(len.is_finite() && len > 0.0) {
        return 0;
    }
    let [x, y, z] = n.map(|c| c / len);
    let steps = |angle: f32| -> u8 {
        let s = (angle * 1023.0 / (4.0 * std::f32::consts::TAU)).round();
        // 256 steps make a full turn (the table wraps at 1024 entries).
        (s.rem_euclid(256.0)) as u8
    };
    // Straight up and down have no latitude: keep it 0.
    let lat = if x == 0.0 && y == 0.0 {
        0
    } else {
        steps(y.atan2(x))
    };
    let lng = steps(z.clamp(-1.0, 1.0).acos());
    // The decoder's "cos" runs 0.09° ahead: of the rounded bytes and their
    // neighbours, the one that decodes nearest.
    let mut best = (f32::MIN, 0u16);
    for dlat in [0u8, 1, 255] {
        for dlng in [0u8, 1, 255] {
            let word = u16::from(lat.wrapping_add(dlat)) << 8 | u16::from(lng.wrapping_add(dlng));
            let d = decode_normal(word);
            let dot = d[0] * x + d[1] * y + d[2] * z;
            if dot > best.0 {
                best = (dot, word);
            }
        }
    }
    best.1
}

/// The section offsets of a surface as stored (`md3Surface_t`), each
/// relative to the surface's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SurfaceOffsets {
    /// `ofsTriangles`.
    pub triangles: i32,
    /// `ofsShaders`.
    pub shaders: i32,
    /// `ofsSt`.
    pub texcoords: i32,
    /// `ofsXyzNormals`.
    pub xyz_normals: i32,
    /// `ofsEnd`: where the next surface starts.
    pub end: i32,
}

/// A surface (`md3Surface_t`): one mesh with its own shaders and
/// vertices.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Surface {
    /// The surface's ident as stored (`IDP3` in id's files; ioquake3 does
    /// not check it).
    pub ident: [u8; 4],
    /// The raw 64-byte name (a `.skin` file maps it to an image).
    pub name: QPath,
    /// Flags as stored (unused by the engines).
    pub flags: i32,
    /// Shaders, in file order.
    pub shaders: Vec<Shader>,
    /// Triangles: three indices into the surface's vertices.
    pub triangles: Vec<[i32; 3]>,
    /// Texture coordinates, one per vertex (its count is the surface's
    /// `numVerts`).
    pub texcoords: Vec<[f32; 2]>,
    /// The surface's `numFrames` as stored (the model's frame count in a
    /// sound file).
    pub num_frames: i32,
    /// The vertices of every frame, frame after frame as stored:
    /// `num_frames × numVerts` of them ([`Surface::frame`]).
    pub xyz_normals: Vec<XyzNormal>,
    /// The offsets as stored, used by [`Layout::Original`].
    pub offsets: SurfaceOffsets,
}

impl Surface {
    /// The number of vertices (`numVerts`).
    pub fn vertex_count(&self) -> usize {
        self.texcoords.len()
    }

    /// Decodes every stored frame's positions (model units) and normals
    /// (as ioquake3 decodes them) into `positions` and `normals`, frame
    /// after frame as stored; stops at the shorter of the buffers and the
    /// data, and returns how many vertices it wrote. Allocates nothing: a
    /// loader can call it once per surface into buffers it keeps.
    ///
    /// ```
    /// use retromodel::md3::{Surface, XyzNormal};
    /// let s = Surface {
    ///     texcoords: vec![[0.0, 0.0]],
    ///     xyz_normals: vec![XyzNormal { xyz: [64, -128, 32], normal: 0 }],
    ///     ..Surface::default()
    /// };
    /// let (mut p, mut n) = ([[0.0; 3]; 1], [[0.0; 3]; 1]);
    /// assert_eq!(s.decode_frames(&mut p, &mut n), 1);
    /// assert_eq!(p[0], [1.0, -2.0, 0.5]);
    /// assert!((n[0][2] - 1.0).abs() < 1e-5);
    /// ```
    pub fn decode_frames(&self, positions: &mut [[f32; 3]], normals: &mut [[f32; 3]]) -> usize {
        let count = self
            .xyz_normals
            .len()
            .min(positions.len())
            .min(normals.len());
        decode::decode_into(
            &self.xyz_normals[..count],
            positions[..count].as_flattened_mut(),
            normals[..count].as_flattened_mut(),
        );
        count
    }

    /// The vertices of frame `index`, or `None` past the stored ones.
    pub fn frame(&self, index: usize) -> Option<&[XyzNormal]> {
        let n = self.vertex_count();
        let start = index.checked_mul(n)?;
        self.xyz_normals.get(start..start.checked_add(n)?)
    }
}

/// The header's offsets as stored (`md3Header_t`), from the file's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Offsets {
    /// `ofsFrames`.
    pub frames: i32,
    /// `ofsTags`.
    pub tags: i32,
    /// `ofsSurfaces`.
    pub surfaces: i32,
    /// `ofsEnd` (ioquake3 copies this many bytes of the file).
    pub end: i32,
}

pub use crate::claims::Unclaimed;

/// A Quake III MD3 model, as stored in the file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Md3 {
    /// The raw 64-byte model name.
    pub name: QPath,
    /// Flags as stored (unused by the engines).
    pub flags: i32,
    /// The header's `numSkins` as stored (unused: `q3data` writes 0).
    pub num_skins: i32,
    /// The header's `numTags`: how many tags each frame holds.
    pub num_tags: i32,
    /// The frames.
    pub frames: Vec<Frame>,
    /// The tags of every frame, frame after frame as stored:
    /// `frames × num_tags` of them ([`Md3::frame_tags`]).
    pub tags: Vec<Tag>,
    /// The surfaces, in file order.
    pub surfaces: Vec<Surface>,
    /// The header's offsets as stored, used by [`Layout::Original`].
    pub offsets: Offsets,
    /// Bytes no section covers, used by [`Layout::Original`].
    pub unclaimed: Vec<Unclaimed>,
}

impl Md3 {
    /// The tags of frame `index`, or `None` past the stored ones.
    pub fn frame_tags(&self, index: usize) -> Option<&[Tag]> {
        let n = usize::try_from(self.num_tags).ok()?;
        let start = index.checked_mul(n)?;
        self.tags.get(start..start.checked_add(n)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ioquake3's decode written out from its sine table, independently of
    /// the per-byte tables `decode_frames` uses (`LerpMeshVertexes`).
    fn ioquake3_normal(normal: u16) -> [f32; 3] {
        let sin = |i: usize| (f64::from(table_angle(i & 1023))).sin() as f32;
        let lat = usize::from(normal >> 8) * 4;
        let lng = usize::from(normal & 0xff) * 4;
        [
            sin(lat + 256) * sin(lng),
            sin(lat) * sin(lng),
            sin(lng + 256),
        ]
    }

    #[test]
    fn decode_frames_gives_every_normal_word_bit_for_bit() {
        let words: Vec<XyzNormal> = (0..=u16::MAX)
            .map(|w| XyzNormal {
                xyz: [w as i16, (w ^ 0x5555) as i16, w.rotate_left(7) as i16],
                normal: w,
            })
            .collect();
        let s = Surface {
            texcoords: vec![[0.0; 2]; words.len()],
            xyz_normals: words.clone(),
            ..Surface::default()
        };
        let mut p = vec![[f32::NAN; 3]; words.len()];
        let mut n = vec![[f32::NAN; 3]; words.len()];
        assert_eq!(s.decode_frames(&mut p, &mut n), words.len());
        for (i, v) in words.iter().enumerate() {
            let want = ioquake3_normal(v.normal);
            assert_eq!(n[i].map(f32::to_bits), want.map(f32::to_bits), "word {i}");
            assert_eq!(
                decode_normal(v.normal).map(f32::to_bits),
                want.map(f32::to_bits)
            );
            let pos = v.xyz.map(|c| f32::from(c) / 64.0);
            assert_eq!(p[i].map(f32::to_bits), pos.map(f32::to_bits), "word {i}");
        }
    }

    #[test]
    fn decode_frames_stops_at_the_shortest_and_writes_nothing_past_it() {
        let v = |k: i16| XyzNormal {
            xyz: [k, -k, 2 * k],
            normal: (k as u16) << 8 | 3,
        };
        for len in 0..6usize {
            let s = Surface {
                xyz_normals: (1..=len as i16).map(v).collect(),
                ..Surface::default()
            };
            for room in 0..7usize {
                let mut p = vec![[7.0f32; 3]; room];
                let mut n = vec![[9.0f32; 3]; room + 1];
                let wrote = s.decode_frames(&mut p, &mut n);
                assert_eq!(wrote, len.min(room));
                for i in 0..wrote {
                    let k = i as i16 + 1;
                    assert_eq!(p[i], [k, -k, 2 * k].map(|c| f32::from(c) / 64.0));
                    assert_eq!(n[i], ioquake3_normal(v(k).normal));
                }
                assert!(p[wrote..].iter().all(|x| *x == [7.0; 3]));
                assert!(n[wrote..].iter().all(|x| *x == [9.0; 3]));
            }
        }
    }
}
