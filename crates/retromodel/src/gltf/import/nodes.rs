//! The node hierarchy: parents from `children` (a node with two parents,
//! a child out of range and cycles are errors), the default scene's nodes,
//! local transforms (`matrix` decomposed into TRS), and skins.
//!
//! Nothing here recurses: a chain of 100,000 nodes costs no stack.

use glam::{DMat3, DQuat, DVec3};

use super::accessor::allowed;
use super::json::err;
use super::Ctx;
use crate::error::Result;
use crate::scene::{Node, Scene, Skin};

/// The document's node hierarchy.
pub(crate) struct Graph {
    /// Each node's parent.
    pub parent: Vec<Option<usize>>,
    /// Each node's children, in order.
    pub children: Vec<Vec<usize>>,
}

/// The nodes of the default scene: for each document node, its index in
/// the scene (`None` when not in the default scene).
pub(crate) struct Included {
    /// Document node → scene node.
    pub scene_index: Vec<Option<usize>>,
    /// The included document nodes, in document order.
    pub nodes: Vec<usize>,
}

impl Graph {
    /// Reads every node's `children`.
    pub fn new(ctx: &Ctx) -> Result<Graph> {
        let nodes = ctx.list("nodes")?;
        let n = nodes.len();
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut children = Vec::with_capacity(n);
        for i in 0..n {
            let at = ctx.item("nodes", i, String::new)?;
            let kids = at.opt_indices("children")?.unwrap_or_default();
            for (k, &c) in kids.iter().enumerate() {
                let path = || format!("/nodes/{i}/children/{k}");
                if c >= n {
                    return Err(err(path(), format!("node {c} does not exist ({n} nodes)")));
                }
                if c == i {
                    return Err(err(path(), format!("node {i} is its own child")));
                }
                if let Some(p) = parent[c] {
                    let message = if p == i {
                        format!("node {c} is listed twice as a child of node {i}")
                    } else {
                        format!("node {c} is already a child of node {p}: a node has one parent")
                    };
                    return Err(err(path(), message));
                }
                parent[c] = Some(i);
            }
            children.push(kids);
        }
        // Cycles: walk up from every node (each node has one parent, so a
        // walk either reaches a root or comes back to itself).
        let mut state = vec![0u8; n]; // 0 new, 1 on this walk, 2 done
        let mut walk = Vec::new();
        for start in 0..n {
            walk.clear();
            let mut at = Some(start);
            while let Some(i) = at {
                match state[i] {
                    2 => break,
                    1 => {
                        let p = parent[i].unwrap_or(i);
                        let k = children[p].iter().position(|&c| c == i).unwrap_or(0);
                        return Err(err(
                            format!("/nodes/{p}/children/{k}"),
                            format!("node {i} is its own ancestor: the children form a cycle"),
                        ));
                    }
                    _ => {
                        state[i] = 1;
                        walk.push(i);
                        at = parent[i];
                    }
                }
            }
            for &i in &walk {
                state[i] = 2;
            }
        }
        Ok(Graph { parent, children })
    }

    /// The default scene (`scene`, else scene 0, else every root node) and
    /// its nodes.
    pub fn default_scene(&self, ctx: &Ctx) -> Result<(Option<usize>, Included)> {
        let n = self.parent.len();
        let scenes = ctx.list("scenes")?;
        let chosen = match ctx.root.opt_usize("scene")? {
            Some(s) if s >= scenes.len() => {
                return Err(err(
                    "/scene",
                    format!("scene {s} does not exist ({} scenes)", scenes.len()),
                ))
            }
            Some(s) => Some(s),
            None if !scenes.is_empty() => Some(0),
            None => None,
        };
        let roots: Vec<usize> = match chosen {
            Some(s) => {
                let at = ctx.item("scenes", s, || "/scene".into())?;
                let listed = at.opt_indices("nodes")?.unwrap_or_default();
                for (k, &r) in listed.iter().enumerate() {
                    let path = || format!("/scenes/{s}/nodes/{k}");
                    if r >= n {
                        return Err(err(path(), format!("node {r} does not exist ({n} nodes)")));
                    }
                    if let Some(p) = self.parent[r] {
                        ctx.warn(
                            path(),
                            format!(
                                "node {r} is a child of node {p}, but a scene lists root nodes only"
                            ),
                        );
                    }
                }
                if listed.is_empty() {
                    ctx.warn(
                        format!("/scenes/{s}/nodes"),
                        "the default scene has no nodes: nothing is imported",
                    );
                }
                listed
            }
            None => (0..n).filter(|&i| self.parent[i].is_none()).collect(),
        };
        let mut inside = vec![false; n];
        let mut stack = roots;
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut inside[i], true) {
                continue;
            }
            stack.extend(self.children[i].iter().copied());
        }
        let mut scene_index = vec![None; n];
        let mut nodes = Vec::new();
        for (i, _) in inside.iter().enumerate().filter(|(_, &x)| x) {
            scene_index[i] = Some(nodes.len());
            nodes.push(i);
        }
        Ok((chosen, Included { scene_index, nodes }))
    }
}

/// Adds a scene node for every included document node.
pub(crate) fn add_nodes(
    ctx: &Ctx,
    graph: &Graph,
    included: &Included,
    scene: &mut Scene,
) -> Result<()> {
    scene.nodes.reserve(included.nodes.len());
    for &i in &included.nodes {
        let at = ctx.item("nodes", i, String::new)?;
        let (translation, rotation, scale) = local_transform(ctx, i)?;
        scene.nodes.push(Node {
            name: at.opt_str("name")?.unwrap_or_default().to_string(),
            parent: graph.parent[i].and_then(|p| included.scene_index[p]),
            translation,
            rotation,
            scale,
            extras: at.extras(),
        });
    }
    Ok(())
}

/// A node's translation, rotation and scale, from TRS or its matrix.
fn local_transform(ctx: &Ctx, i: usize) -> Result<([f32; 3], [f32; 4], [f32; 3])> {
    let at = ctx.item("nodes", i, String::new)?;
    let path = |key: &str| format!("/nodes/{i}/{key}");
    let t = at.opt_floats::<3>("translation")?;
    let r = at.opt_floats::<4>("rotation")?;
    let s = at.opt_floats::<3>("scale")?;
    if let Some(m) = at.opt_floats::<16>("matrix")? {
        if t.is_some() || r.is_some() || s.is_some() {
            ctx.warn(
                path("matrix"),
                "the node has both a matrix and translation/rotation/scale; the matrix is used",
            );
        }
        return Ok(decompose(ctx, &m, &path("matrix")));
    }
    let mut rotation = r.unwrap_or([0.0, 0.0, 0.0, 1.0]);
    let length = rotation.iter().map(|x| x * x).sum::<f32>().sqrt();
    if length == 0.0 {
        ctx.warn(path("rotation"), "a zero quaternion; the identity is used");
        rotation = [0.0, 0.0, 0.0, 1.0];
    } else if (length - 1.0).abs() > 1e-3 {
        ctx.warn(
            path("rotation"),
            format!("the quaternion's length is {length}, not 1; normalised"),
        );
        rotation = rotation.map(|x| x / length);
    }
    Ok((t.unwrap_or([0.0; 3]), rotation, s.unwrap_or([1.0; 3])))
}

/// Decomposes a column-major affine matrix into translation, rotation and
/// scale. A negative determinant (a mirror) becomes a negative x scale,
/// exactly. Shear, which TRS cannot hold, and a projective last row are
/// approximated (the rotation nearest to the linear part, scales along its
/// axes) with a warning that says how far off the result is.
pub(crate) fn decompose(ctx: &Ctx, m: &[f32; 16], path: &str) -> ([f32; 3], [f32; 4], [f32; 3]) {
    let c = |k: usize| {
        DVec3::new(
            f64::from(m[4 * k]),
            f64::from(m[4 * k + 1]),
            f64::from(m[4 * k + 2]),
        )
    };
    let a = DMat3::from_cols(c(0), c(1), c(2));
    let translation = c(3);
    let last_row = [m[3], m[7], m[11], m[15]];
    let mut scale = DVec3::new(a.x_axis.length(), a.y_axis.length(), a.z_axis.length());
    let mut b = a;
    if a.determinant() < 0.0 {
        scale.x = -scale.x;
        b.x_axis = -b.x_axis;
    }
    // The rotation nearest to b (its polar factor), by Newton's iteration
    // Q ← (Q + Q⁻ᵀ) / 2 from b; a singular b (a zero scale) starts from its
    // columns normalised, a zero one rebuilt from the others.
    let det = b.determinant();
    let mut q = if det.is_finite() && det > 1e-12 * scale.abs().max_element().powi(3) {
        b
    } else {
        orthonormal_start(b)
    };
    for _ in 0..32 {
        let inv_t = q.inverse().transpose();
        if !inv_t.is_finite() {
            break;
        }
        let next = (q + inv_t) * 0.5;
        let done = (next - q).to_cols_array().iter().all(|d| d.abs() < 1e-15);
        q = next;
        if done {
            break;
        }
    }
    if !q.is_finite() || q.determinant() <= 0.0 {
        q = DMat3::IDENTITY;
    }
    // Scales along the rotation's axes: the diagonal of qᵀ b (signed, so a
    // mirrored axis keeps its sign).
    let p = q.transpose() * b;
    let mut axis_scale = DVec3::new(p.x_axis.x, p.y_axis.y, p.z_axis.z);
    if a.determinant() < 0.0 {
        axis_scale.x = -axis_scale.x;
    }
    // For a matrix without shear these are the column lengths.
    if (axis_scale - scale).abs().max_element() < 1e-9 * scale.abs().max_element().max(1.0) {
        axis_scale = scale;
    }
    let rotation = DQuat::from_mat3(&q).normalize();
    let rebuilt = {
        let r = DMat3::from_quat(rotation);
        DMat3::from_cols(
            r.x_axis * axis_scale.x,
            r.y_axis * axis_scale.y,
            r.z_axis * axis_scale.z,
        )
    };
    let error = (rebuilt - a)
        .to_cols_array()
        .iter()
        .fold(0.0f64, |e, d| e.max(d.abs()));
    let size = a.to_cols_array().iter().fold(1.0f64, |e, d| e.max(d.abs()));
    if error > 1e-5 * size {
        ctx.warn(
            path,
            format!(
                "the matrix has shear, which translation, rotation and scale cannot hold; approximated (largest difference {error:.3e})"
            ),
        );
    }
    if last_row != [0.0, 0.0, 0.0, 1.0] {
        ctx.warn(
            path,
            format!("the last row is {last_row:?}, not [0, 0, 0, 1]; it is ignored"),
        );
    }
    let f = |v: DVec3| [v.x as f32, v.y as f32, v.z as f32];
    let r = rotation.to_array().map(|x| x as f32);
    (f(translation), r, f(axis_scale))
}

/// `b` with its columns normalised, a zero (or parallel) column replaced
/// so that the result is a right-handed basis.
fn orthonormal_start(b: DMat3) -> DMat3 {
    let cols = [b.x_axis, b.y_axis, b.z_axis];
    let unit: Vec<Option<DVec3>> = cols.iter().map(|c| c.try_normalize()).collect();
    match (unit[0], unit[1], unit[2]) {
        (Some(x), Some(y), Some(z)) if x.cross(y).dot(z).abs() > 1e-12 => DMat3::from_cols(x, y, z),
        (Some(x), Some(y), _) if x.cross(y).length() > 1e-12 => {
            let z = x.cross(y).normalize();
            DMat3::from_cols(x, z.cross(x), z)
        }
        (Some(x), _, Some(z)) if z.cross(x).length() > 1e-12 => {
            let y = z.cross(x).normalize();
            DMat3::from_cols(x, y, x.cross(y))
        }
        (_, Some(y), Some(z)) if y.cross(z).length() > 1e-12 => {
            let x = y.cross(z).normalize();
            DMat3::from_cols(x, y, x.cross(y))
        }
        (Some(x), _, _) => {
            let y = x.any_orthonormal_vector();
            DMat3::from_cols(x, y, x.cross(y))
        }
        (_, Some(y), _) => {
            let z = y.any_orthonormal_vector();
            DMat3::from_cols(y.cross(z), y, z)
        }
        (_, _, Some(z)) => {
            let x = z.any_orthonormal_vector();
            DMat3::from_cols(x, z.cross(x), z)
        }
        _ => DMat3::IDENTITY,
    }
}

/// The scene skins made from document skins, on first use.
#[derive(Default)]
pub(crate) struct Skins {
    /// Document skin → scene skin.
    made: std::collections::HashMap<usize, usize>,
}

impl Skins {
    /// The scene skin of document skin `index` (made on first use): its
    /// joints must all be nodes of the default scene.
    pub fn get(
        &mut self,
        ctx: &Ctx,
        index: usize,
        included: &Included,
        scene: &mut Scene,
        referrer: &dyn Fn() -> String,
    ) -> Result<usize> {
        if let Some(&s) = self.made.get(&index) {
            return Ok(s);
        }
        let at = ctx.item("skins", index, referrer)?;
        let path = |key: &str| format!("/skins/{index}/{key}");
        let joints = at
            .opt_indices("joints")?
            .ok_or_else(|| err(path("joints"), "missing (required)"))?;
        if joints.is_empty() {
            return Err(err(path("joints"), "a skin needs at least one joint"));
        }
        if joints.len() > usize::from(u16::MAX) + 1 {
            return Err(err(
                path("joints"),
                format!(
                    "{} joints, more than JOINTS attributes can address (65536)",
                    joints.len()
                ),
            ));
        }
        let mut scene_joints = Vec::with_capacity(joints.len());
        for (k, &j) in joints.iter().enumerate() {
            let node = included.scene_index.get(j).ok_or_else(|| {
                err(
                    format!("/skins/{index}/joints/{k}"),
                    format!(
                        "node {j} does not exist ({} nodes)",
                        included.scene_index.len()
                    ),
                )
            })?;
            let node = node.ok_or_else(|| {
                err(
                    format!("/skins/{index}/joints/{k}"),
                    format!("joint node {j} is not a node of the default scene"),
                )
            })?;
            scene_joints.push(node);
        }
        ctx.charge(joints.len() as u64 * 72, || path("joints"))?;
        let inverse_bind_matrices = match at.opt_usize("inverseBindMatrices")? {
            None => vec![glam::Mat4::IDENTITY.to_cols_array(); joints.len()],
            Some(a) => {
                let ipath = || path("inverseBindMatrices");
                let accessor = ctx.accessor(a, &ipath)?;
                ctx.check(&accessor, &allowed::INVERSE_BIND, &ipath)?;
                if accessor.count < joints.len() {
                    return Err(err(
                        ipath(),
                        format!(
                            "accessor {a} has {} matrices for {} joints",
                            accessor.count,
                            joints.len()
                        ),
                    ));
                }
                if accessor.count > joints.len() {
                    ctx.warn(
                        ipath(),
                        format!(
                            "accessor {a} has {} matrices for {} joints; the extra ones are ignored",
                            accessor.count,
                            joints.len()
                        ),
                    );
                }
                let mut m = ctx.read_floats::<16>(&accessor)?;
                m.truncate(joints.len());
                m
            }
        };
        let s = scene.skins.len();
        scene.skins.push(Skin {
            name: at.opt_str("name")?.unwrap_or_default().to_string(),
            joints: scene_joints,
            inverse_bind_matrices,
            extras: at.extras(),
        });
        self.made.insert(index, s);
        Ok(s)
    }
}
