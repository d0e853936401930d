//! The `md5mesh` file: joints in their bind pose (model space) and meshes
//! whose vertices are weighted sums of points held by joints.
//!
//! ```text
//! MD5Version 10
//! commandline ""
//! numJoints 2
//! numMeshes 1
//! joints {
//!     "root" -1 ( 0 0 0 ) ( 0 0 0 )   // name parent ( position ) ( orientation x y z )
//!     ...
//! }
//! mesh {
//!     shader "skin"
//!     numverts 3
//!     vert 0 ( 0 0 ) 0 1                 // index ( u v ) first_weight weight_count
//!     numtris 1
//!     tri 0 0 1 2
//!     numweights 3
//!     weight 0 0 1 ( 1 2 3 )             // index joint bias ( position in the joint's frame )
//! }
//! ```
//!
//! Every count is checked against the bytes left before anything is
//! allocated, every index against what it indexes, and items must come in
//! order (`vert 0`, `vert 1` ...), so that a model read is one Doom 3 and
//! the rerelease's loaders read alike (Q2PRO `src/refresh/models.c`,
//! `MD5_ParseMesh`, accepts items in any order but reads every index).

use super::lexer::{check_count, Lexer};
use crate::error::Result;

/// The only version id Tech 4 writes and the engines read (Q2PRO
/// `MD5_ParseMesh` expects `MD5Version 10`).
pub const MD5_VERSION: u64 = 10;

/// A joint of the bind pose.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Name.
    pub name: String,
    /// Parent joint, always an earlier one; `None` for a root (`-1`).
    pub parent: Option<usize>,
    /// Position in model space.
    pub position: [f32; 3],
    /// Orientation in model space: the quaternion's `x y z` as stored (its
    /// `w` follows, see [`super::quat`]).
    pub orientation: [f32; 3],
    /// The line it is on.
    pub line: usize,
}

/// A vertex: texture coordinates and a range of the mesh's weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vertex {
    /// Texture coordinates (`v` top-down, as id Tech 4 samples them).
    pub uv: [f32; 2],
    /// First weight (index into [`Mesh::weights`]).
    pub first_weight: usize,
    /// Number of weights; `first_weight + weight_count` is checked to be
    /// within [`Mesh::weights`].
    pub weight_count: usize,
}

/// A weight: a point in a joint's frame and its share of a vertex.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weight {
    /// The joint (checked to be one).
    pub joint: usize,
    /// Its share of the vertex (the bias); a vertex's shares sum to 1.
    pub bias: f32,
    /// The point in the joint's frame.
    pub position: [f32; 3],
}

/// One mesh (one shader).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// The shader (material) name.
    pub shader: String,
    /// Vertices.
    pub vertices: Vec<Vertex>,
    /// Triangles: three vertex indices each (checked).
    pub triangles: Vec<[u32; 3]>,
    /// Weights.
    pub weights: Vec<Weight>,
    /// The line of its `mesh {`.
    pub line: usize,
}

/// A whole `md5mesh` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Md5Mesh {
    /// The exporter's command line, as stored.
    pub commandline: String,
    /// Joints; parents come before children.
    pub joints: Vec<Joint>,
    /// Meshes.
    pub meshes: Vec<Mesh>,
}

// Least bytes per item, for `check_count`: one byte per token.
const JOINT_TOKENS: u64 = 10;
const VERT_TOKENS: u64 = 8;
const TRI_TOKENS: u64 = 5;
const WEIGHT_TOKENS: u64 = 9;
const MESH_TOKENS: u64 = 10;

impl Md5Mesh {
    /// Reads an `md5mesh` file.
    ///
    /// ```
    /// use retromodel::md5::Md5Mesh;
    /// let text = "MD5Version 10 commandline \"\" numJoints 1 numMeshes 1
    /// joints { \"root\" -1 ( 0 0 0 ) ( 0 0 0 ) }
    /// mesh { shader \"s\" numverts 1 vert 0 ( 0 0 ) 0 1 numtris 0 numweights 1
    ///   weight 0 0 1 ( 1 2 3 ) }";
    /// let mesh = Md5Mesh::parse(text.as_bytes())?;
    /// assert_eq!(mesh.meshes[0].weights[0].position, [1.0, 2.0, 3.0]);
    /// let err = Md5Mesh::parse(text.replace("0 0 1 (", "0 5 1 (").as_bytes()).unwrap_err();
    /// assert_eq!(err.to_string(), "md5mesh line 4: weight 0: joint 5 is not in 0..1");
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Md5Mesh> {
        let mut lx = Lexer::new(bytes, "md5mesh");
        let commandline = lx.header()?;
        lx.keyword("numJoints")?;
        let (n, line) = lx.uint("numJoints", u64::MAX)?;
        let num_joints = check_count(&lx, line, "numJoints", n, JOINT_TOKENS)?;
        lx.keyword("numMeshes")?;
        let (n, line) = lx.uint("numMeshes", u64::MAX)?;
        let num_meshes = check_count(&lx, line, "numMeshes", n, MESH_TOKENS)?;
        lx.keyword("joints")?;
        lx.punct(b'{')?;
        let mut joints = Vec::with_capacity(num_joints);
        for i in 0..num_joints {
            joints.push(parse_joint(&mut lx, i)?);
        }
        lx.punct(b'}')?;
        let mut meshes = Vec::with_capacity(num_meshes);
        for _ in 0..num_meshes {
            meshes.push(parse_mesh(&mut lx, num_joints)?);
        }
        lx.end()?;
        Ok(Md5Mesh {
            commandline,
            joints,
            meshes,
        })
    }
}

/// `"name" parent ( position ) ( orientation )`, the parent `-1` or an
/// earlier joint (what Q2PRO's `MD5_ParseAnim` requires of the anim's
/// hierarchy, so that one pass in order poses every joint).
fn parse_joint(lx: &mut Lexer, i: usize) -> Result<Joint> {
    let (name, line) = lx.string("a joint name")?;
    let (parent, pline) = lx.int("parent", -1, i64::MAX)?;
    let parent = match usize::try_from(parent) {
        Err(_) => None,
        Ok(p) if p < i => Some(p),
        Ok(p) => {
            return Err(lx.error_at(
                pline,
                format!("joint {i} ({name:?}): parent {p} is not an earlier joint"),
            ))
        }
    };
    let position = lx.vec3("joint position")?;
    let orientation = lx.vec3("joint orientation")?;
    Ok(Joint {
        name,
        parent,
        position,
        orientation,
        line,
    })
}

/// `index` must be the item's place in order.
fn check_index(lx: &Lexer, what: &str, found: u64, line: usize, expected: usize) -> Result<()> {
    if found != expected as u64 {
        return Err(lx.error_at(
            line,
            format!("{what} {found} out of order: expected {what} {expected}"),
        ));
    }
    Ok(())
}

fn parse_mesh(lx: &mut Lexer, num_joints: usize) -> Result<Mesh> {
    let line = lx.keyword("mesh")?;
    lx.punct(b'{')?;
    lx.keyword("shader")?;
    let (shader, _) = lx.string("the shader name")?;

    lx.keyword("numverts")?;
    let (n, l) = lx.uint("numverts", u64::MAX)?;
    let count = check_count(lx, l, "numverts", n, VERT_TOKENS)?;
    let mut vertices = Vec::with_capacity(count);
    for i in 0..count {
        lx.keyword("vert")?;
        let (k, l) = lx.uint("vert", u64::MAX)?;
        check_index(lx, "vert", k, l, i)?;
        lx.punct(b'(')?;
        let uv = [lx.float("u")?, lx.float("v")?];
        lx.punct(b')')?;
        let (first, _) = lx.uint("first weight", u32::MAX.into())?;
        let (n, _) = lx.uint("weight count", u32::MAX.into())?;
        vertices.push(Vertex {
            uv,
            first_weight: first as usize,
            weight_count: n as usize,
        });
    }

    lx.keyword("numtris")?;
    let (n, l) = lx.uint("numtris", u64::MAX)?;
    let count = check_count(lx, l, "numtris", n, TRI_TOKENS)?;
    let mut triangles = Vec::with_capacity(count);
    for i in 0..count {
        lx.keyword("tri")?;
        let (k, l) = lx.uint("tri", u64::MAX)?;
        check_index(lx, "tri", k, l, i)?;
        let mut t = [0u32; 3];
        for c in &mut t {
            let (v, l) = lx.uint("vertex index", u32::MAX.into())?;
            if v >= vertices.len() as u64 {
                return Err(lx.error_at(
                    l,
                    format!("tri {i}: vertex {v} is not in 0..{}", vertices.len()),
                ));
            }
            *c = v as u32;
        }
        triangles.push(t);
    }

    lx.keyword("numweights")?;
    let (n, l) = lx.uint("numweights", u64::MAX)?;
    let count = check_count(lx, l, "numweights", n, WEIGHT_TOKENS)?;
    let mut weights = Vec::with_capacity(count);
    for i in 0..count {
        lx.keyword("weight")?;
        let (k, l) = lx.uint("weight", u64::MAX)?;
        check_index(lx, "weight", k, l, i)?;
        let (joint, l) = lx.uint("joint", u64::MAX)?;
        if joint >= num_joints as u64 {
            return Err(lx.error_at(
                l,
                format!("weight {i}: joint {joint} is not in 0..{num_joints}"),
            ));
        }
        let bias = lx.float("bias")?;
        let position = lx.vec3("weight position")?;
        weights.push(Weight {
            joint: joint as usize,
            bias,
            position,
        });
    }
    let end = lx.punct(b'}')?;
    // Weight ranges can only be checked once the weights are counted.
    for (i, v) in vertices.iter().enumerate() {
        if v.first_weight
            .checked_add(v.weight_count)
            .is_none_or(|e| e > weights.len())
        {
            return Err(lx.error_at(
                end,
                format!(
                    "mesh at line {line}: vert {i} uses weights {}..{} but there are {}",
                    v.first_weight,
                    v.first_weight as u64 + v.weight_count as u64,
                    weights.len()
                ),
            ));
        }
    }
    Ok(Mesh {
        shader,
        vertices,
        triangles,
        weights,
        line,
    })
}
