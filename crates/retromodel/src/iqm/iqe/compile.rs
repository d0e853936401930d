//! Compiling an [`Iqe`] into an [`Iqm`] as the reference compiler does
//! for IQE input (`iqm.cpp`: `makemeshes`, `makeneighbors`, `makeanims`,
//! `makebounds`, `calcanimdata`).

use std::collections::HashMap;

use glam::{DMat4, DQuat, DVec3};

use super::{error, Blend, Iqe, IqePose, MAX_FRAME_VALUES};
use crate::iqm::{
    compute_adjacency, Anim, ArrayFormat, Bounds, Iqm, Joint, Mesh, Pose, VertexArray, CHANNELS,
    LOOP,
};
use crate::Result;

/// Which attribute a vertex array comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Position,
    Texcoord,
    Normal,
    Tangent,
    BlendIndexes,
    BlendWeights,
    Color,
    Custom(usize),
}

impl Source {
    /// The IQM type code (custom ones before their name is added).
    fn code(self) -> u32 {
        match self {
            Source::Position => 0,
            Source::Texcoord => 1,
            Source::Normal => 2,
            Source::Tangent => 3,
            Source::BlendIndexes => 4,
            Source::BlendWeights => 5,
            Source::Color => 6,
            Source::Custom(n) => 0x10 + n as u32,
        }
    }

    /// The name `vertexarray` gives it.
    fn name(self) -> String {
        match self {
            Source::Position => "position".into(),
            Source::Texcoord => "texcoord".into(),
            Source::Normal => "normal".into(),
            Source::Tangent => "tangent".into(),
            Source::BlendIndexes => "blendindexes".into(),
            Source::BlendWeights => "blendweights".into(),
            Source::Color => "color".into(),
            Source::Custom(n) => format!("custom{n}"),
        }
    }
}

/// A `vertexarray` format name's format.
fn format_named(name: &str) -> Option<ArrayFormat> {
    Some(match name.to_ascii_lowercase().as_str() {
        "byte" => ArrayFormat::Byte,
        "ubyte" => ArrayFormat::Ubyte,
        "short" => ArrayFormat::Short,
        "ushort" => ArrayFormat::Ushort,
        "int" => ArrayFormat::Int,
        "uint" => ArrayFormat::Uint,
        "half" => ArrayFormat::Half,
        "float" => ArrayFormat::Float,
        "double" => ArrayFormat::Double,
        _ => return None,
    })
}

/// The string table as it grows: each name once, found by a hash
/// rather than by searching the text (a file may hold many joints).
#[derive(Default)]
struct Names(HashMap<String, u32>);

impl Names {
    /// The offset of `name` in the model's text, adding it if new.
    fn share(&mut self, iqm: &mut Iqm, name: &str) -> u32 {
        // A NUL would end the name early in the table: cut it there.
        let name = name.split('\0').next().unwrap_or("");
        if let Some(&at) = self.0.get(name) {
            return at;
        }
        let at = iqm.text.len() as u32;
        iqm.text.extend_from_slice(name.as_bytes());
        iqm.text.push(0);
        self.0.insert(name.to_string(), at);
        at
    }
}

/// The bits of a value for comparing vertices (`0.0` and `-0.0` equal,
/// as `==` has them).
fn bits(v: f64) -> u64 {
    if v == 0.0 {
        0
    } else {
        v.to_bits()
    }
}

impl Iqe {
    /// Compiles the document into an IQM as lsalzman/iqm's compiler does
    /// for one IQE input and no options:
    ///
    /// * meshes: the runs of triangles with the same name and material
    ///   gathered (only the first run's triangles kept, as `makemeshes`
    ///   keeps them), corners with equal positions, texture coordinates,
    ///   normals, blends, colours and custom values welded into one
    ///   vertex, degenerate triangles dropped; the triangles ordered for
    ///   the vertex cache and the vertices numbered in the order they
    ///   first come, as `maketriangles` orders them;
    /// * vertex arrays in the reference's order and default formats, or
    ///   as `vertexarray` declares them;
    /// * tangents, when the file gives none but has normals and texture
    ///   coordinates, as `calctangents` computes them;
    /// * adjacency ([`compute_adjacency`]);
    /// * joints (when there are meshes) from the base poses, poses and
    ///   frames (when there are animations) with each channel quantised
    ///   over every frame (`calcanimdata`), and each frame's bounds from
    ///   the unquantised poses (`makebounds`).
    ///
    /// Where the reference errs we do not follow it: its adjacency looks
    /// output vertex numbers up among the source vertices and orders edge
    /// ends by an "any component less" test (ours links edges by the
    /// output vertices' positions and blends); it gives output vertex `i`
    /// the file's `i`-th `vx` tangent (ours gives each vertex its own);
    /// it leaves NaN where a generated tangent has no direction (ours
    /// is zero); and it reads out of bounds on faces, parents or blends
    /// that name what is not there (ours is an [`Error::Iqe`]).
    ///
    /// Not done: normals for a file without `vn` (smoothing); the
    /// command-line options (scale, rotation, frame ranges).
    ///
    /// [`Error::Iqe`]: crate::Error::Iqe
    pub fn to_iqm(&self) -> Result<Iqm> {
        self.check()?;
        let mut iqm = Iqm::default();
        let mut names = Names::default();
        names.share(&mut iqm, "");
        let vmap = self.meshes_into(&mut iqm, &mut names)?;
        self.arrays_into(&mut iqm, &vmap, &mut names)?;
        if !iqm.triangles.is_empty() {
            iqm.adjacency = Some(compute_adjacency(&iqm));
        }
        self.anims_into(&mut iqm, &mut names)?;
        if let Some(comment) = &self.comment {
            iqm.comment = comment.clone();
            iqm.comment.push(0);
        }
        Ok(iqm)
    }

    /// The checks the reference leaves to luck: arrays as long as the
    /// positions, faces naming vertices that exist, parents before their
    /// children, blends naming joints that exist.
    fn check(&self) -> Result<()> {
        let a = &self.attributes;
        let n = a.positions.len();
        let lens = [
            ("vt", a.texcoords.len()),
            ("vn", a.normals.len()),
            ("vx", a.tangents.len()),
            ("vb", a.blends.len()),
            ("vc", a.colors.len()),
        ];
        let custom = a.custom.iter().map(Vec::len);
        for (name, len) in lens.into_iter().chain(
            ["v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"]
                .into_iter()
                .zip(custom),
        ) {
            if len != 0 && len != n {
                return Err(error(
                    None,
                    format!("{len} {name} lines but {n} vp lines: every vertex array must be as long as the positions"),
                ));
            }
        }
        if !a.bitangents.is_empty() && a.bitangents.len() != a.tangents.len() {
            return Err(error(None, "some vx lines give bitangents and some do not"));
        }
        for t in &self.triangles {
            if let Some(&v) = t.vertices.iter().find(|&&v| v as usize >= n) {
                return Err(error(
                    Some(t.line),
                    format!("face names vertex {v} but there are {n}"),
                ));
            }
        }
        for (i, j) in self.joints.iter().enumerate() {
            if j.parent >= 0 && j.parent as usize >= i {
                return Err(error(
                    Some(j.line),
                    format!("joint {i} has parent {} (not an earlier joint)", j.parent),
                ));
            }
        }
        if !self.joints.is_empty() {
            for b in &a.blends {
                if let Some(&j) = b.joints[..b.count]
                    .iter()
                    .find(|&&j| j as usize >= self.joints.len())
                {
                    return Err(error(
                        None,
                        format!(
                            "a vb line names joint {j} but there are {}",
                            self.joints.len()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The key two corners must share to be one vertex.
    fn weld_key(&self, v: usize) -> Vec<u64> {
        let a = &self.attributes;
        let mut k = Vec::with_capacity(16);
        k.extend(a.positions[v].iter().map(|&x| bits(x)));
        if let Some(t) = a.texcoords.get(v) {
            k.extend(t.iter().map(|&x| bits(x)));
        }
        if let Some(t) = a.normals.get(v) {
            k.extend(t.iter().map(|&x| bits(x)));
        }
        if let Some(b) = a.blends.get(v) {
            k.extend(b.weights.iter().map(|&x| bits(x)));
            k.extend(b.joints.iter().map(|&j| u64::from(j)));
        }
        if let Some(t) = a.colors.get(v) {
            k.extend(t.iter().map(|&x| bits(x)));
        }
        for c in &a.custom {
            if let Some(t) = c.get(v) {
                k.extend(t.iter().map(|&x| bits(x)));
            }
        }
        k
    }

    /// Meshes and triangles; returns each output vertex's source vertex.
    fn meshes_into(&self, iqm: &mut Iqm, names: &mut Names) -> Result<Vec<usize>> {
        let mut used = vec![false; self.meshes.len()];
        let mut vmap: Vec<usize> = Vec::new();
        for i in 0..self.meshes.len() {
            if used[i] {
                continue;
            }
            let first = &self.meshes[i];
            let mut share: HashMap<Vec<u64>, u32> = HashMap::new();
            let mut mmap: Vec<usize> = Vec::new();
            let mut tris: Vec<[u32; 3]> = Vec::new();
            // The reference's range ends at mesh i + 1's first triangle
            // for every run it gathers, so later runs add nothing.
            let last = self
                .meshes
                .get(i + 1)
                .map_or(self.triangles.len(), |m| m.first_triangle);
            for (j, m) in self.meshes.iter().enumerate().skip(i) {
                if m.name != first.name || m.material != first.material {
                    continue;
                }
                for t in self.triangles.get(m.first_triangle..last).unwrap_or(&[]) {
                    let mut local = [0u32; 3];
                    for (l, &v) in local.iter_mut().zip(&t.vertices) {
                        let next = mmap.len() as u32;
                        *l = *share.entry(self.weld_key(v as usize)).or_insert(next);
                        if *l == next {
                            mmap.push(v as usize);
                        }
                    }
                    tris.push(local);
                }
                used[j] = true;
            }
            if tris.is_empty() {
                continue;
            }
            let name = names.share(iqm, &first.name);
            let material = names.share(iqm, &first.material);
            let first_triangle = iqm.triangles.len() as u32;
            let first_vertex = vmap.len() as u32;
            for out in super::cache::order(&tris, mmap.len(), &mut |l| {
                vmap.push(mmap[l]);
                vmap.len() as u32 - 1
            }) {
                iqm.triangles.push(out);
            }
            iqm.meshes.push(Mesh {
                name,
                material,
                first_vertex,
                num_vertexes: vmap.len() as u32 - first_vertex,
                first_triangle,
                num_triangles: iqm.triangles.len() as u32 - first_triangle,
            });
        }
        iqm.num_vertexes =
            u32::try_from(vmap.len()).map_err(|_| error(None, "too many vertices"))?;
        Ok(vmap)
    }

    /// The vertex arrays, in the reference's order.
    fn arrays_into(&self, iqm: &mut Iqm, vmap: &[usize], names: &mut Names) -> Result<()> {
        let a = &self.attributes;
        let four3 = |v: &[[f64; 3]]| {
            v.iter()
                .map(|x| [x[0], x[1], x[2], 0.0])
                .collect::<Vec<_>>()
        };
        let mut tangents = a.tangents.clone();
        if !a.bitangents.is_empty() && !a.normals.is_empty() {
            for ((t, b), n) in tangents.iter_mut().zip(&a.bitangents).zip(&a.normals) {
                let cross = DVec3::from(*n).cross(DVec3::new(t[0], t[1], t[2]));
                t[3] = if cross.dot(DVec3::from(*b)) < 0.0 {
                    -1.0
                } else {
                    1.0
                };
            }
        }
        let blend_values = |f: fn(&Blend) -> [f64; 4]| a.blends.iter().map(f).collect::<Vec<_>>();
        let mut plan: Vec<(Source, Vec<[f64; 4]>, ArrayFormat, u32)> = Vec::new();
        if !a.positions.is_empty() {
            plan.push((Source::Position, a.positions.clone(), ArrayFormat::Float, 3));
        }
        if !a.texcoords.is_empty() {
            plan.push((Source::Texcoord, a.texcoords.clone(), ArrayFormat::Float, 2));
        }
        if !a.normals.is_empty() {
            plan.push((Source::Normal, four3(&a.normals), ArrayFormat::Float, 3));
        }
        // Tangents the file does not give are computed per output vertex
        // when there are normals and texture coordinates.
        let computed = tangents.is_empty() && !a.normals.is_empty() && !a.texcoords.is_empty();
        if computed {
            tangents = self.tangents(iqm, vmap);
        }
        if !tangents.is_empty() {
            plan.push((Source::Tangent, tangents, ArrayFormat::Float, 4));
        }
        if !a.blends.is_empty() {
            let joints = blend_values(|b| b.joints.map(f64::from));
            plan.push((Source::BlendIndexes, joints, ArrayFormat::Ubyte, 4));
            plan.push((
                Source::BlendWeights,
                blend_values(|b| b.weights),
                ArrayFormat::Ubyte,
                4,
            ));
        }
        if !a.colors.is_empty() {
            plan.push((Source::Color, a.colors.clone(), ArrayFormat::Ubyte, 4));
        }
        for (n, c) in a.custom.iter().enumerate() {
            if !c.is_empty() {
                plan.push((Source::Custom(n), c.clone(), ArrayFormat::Float, 4));
            }
        }
        for (source, values, mut format, mut size) in plan {
            let mut name = String::new();
            if let Some(d) = self
                .vertex_arrays
                .iter()
                .find(|d| d.kind.eq_ignore_ascii_case(&source.name()))
            {
                format = format_named(&d.format).unwrap_or(format);
                size = d.size.clamp(1, 4) as u32;
                name.clone_from(&d.name);
            }
            let kind = match source {
                Source::Custom(n) => {
                    let label = if name.is_empty() {
                        format!("custom{n}")
                    } else {
                        name
                    };
                    0x10 + names.share(iqm, &label)
                }
                s => s.code(),
            };
            let mut data = Vec::with_capacity(vmap.len() * size as usize * format.bytes());
            for (i, &v) in vmap.iter().enumerate() {
                let value = if computed && source == Source::Tangent {
                    values[i]
                } else {
                    values[v]
                };
                if source == Source::BlendWeights && format == ArrayFormat::Ubyte {
                    data.extend_from_slice(&a.blends[v].weight_bytes()[..size as usize]);
                    continue;
                }
                for &x in &value[..size as usize] {
                    put(&mut data, format, x, source == Source::BlendIndexes);
                }
            }
            iqm.vertex_arrays.push(VertexArray {
                kind,
                flags: 0,
                format: format.code(),
                size,
                offset: 0,
                data,
            });
        }
        Ok(())
    }

    /// Each output vertex's tangent as `calctangents` computes it: the
    /// texture-space directions of every triangle using the vertex,
    /// summed (weighted by area), made perpendicular to the normal and
    /// normalised, with the bitangent's handedness in `w`.
    fn tangents(&self, iqm: &Iqm, vmap: &[usize]) -> Vec<[f64; 4]> {
        let a = &self.attributes;
        let mut tangent = vec![DVec3::ZERO; vmap.len()];
        let mut bitangent = vec![DVec3::ZERO; vmap.len()];
        let pos = |v: u32| {
            let p = a.positions[vmap[v as usize]];
            DVec3::new(p[0], p[1], p[2])
        };
        let uv = |v: u32| a.texcoords[vmap[v as usize]];
        for t in &iqm.triangles {
            let v0 = pos(t[0]);
            let (e1, e2) = (pos(t[1]) - v0, pos(t[2]) - v0);
            let (t0, t1, t2) = (uv(t[0]), uv(t[1]), uv(t[2]));
            let (u1, v1) = (t1[0] - t0[0], t1[1] - t0[1]);
            let (u2, v2) = (t2[0] - t0[0], t2[1] - t0[1]);
            let mut u = e2 * v1 - e1 * v2;
            let mut v = e2 * u1 - e1 * u2;
            if e2.cross(e1).dot(v.cross(u)) < 0.0 {
                u = -u;
                v = -v;
            }
            for &c in t {
                tangent[c as usize] += u;
                bitangent[c as usize] += v;
            }
        }
        vmap.iter()
            .enumerate()
            .map(|(i, &src)| {
                let n = DVec3::from(a.normals[src]);
                let t = tangent[i];
                let d = t - n * n.dot(t);
                let length = d.length();
                let d = if length > 0.0 { d * (1.0 / length) } else { d };
                let w = if n.cross(t).dot(bitangent[i]) < 0.0 {
                    -1.0
                } else {
                    1.0
                };
                [d.x, d.y, d.z, w]
            })
            .collect()
    }

    /// Joints, poses, animations, frames and bounds (`makeanims`,
    /// `calcanimdata`).
    fn anims_into(&self, iqm: &mut Iqm, names: &mut Names) -> Result<()> {
        let base = self.base_poses();
        let mut inverse_bind: Vec<DMat4> = Vec::new();
        let mut bind_world: Vec<DMat4> = Vec::new();
        if !iqm.meshes.is_empty() {
            for (i, ej) in self.joints.iter().enumerate() {
                let name = names.share(iqm, &ej.name);
                let mut joint = Joint {
                    name,
                    parent: ej.parent,
                    ..Joint::default()
                };
                let local = match base.get(i) {
                    Some(p) => {
                        joint.translate = p.translate.map(|x| x as f32);
                        joint.rotate = p.rotate.map(|x| x as f32);
                        joint.scale = p.scale.map(|x| x as f32);
                        matrix(p)
                    }
                    None => DMat4::IDENTITY,
                };
                let world = match usize::try_from(ej.parent) {
                    Ok(p) if p < i => bind_world[p] * local,
                    _ => local,
                };
                bind_world.push(world);
                inverse_bind.push(world.inverse());
                iqm.joints.push(joint);
            }
        }
        if self.anims.is_empty() || self.joints.is_empty() {
            return Ok(());
        }
        let nj = self.joints.len();
        iqm.poses = self
            .joints
            .iter()
            .map(|j| Pose {
                parent: j.parent,
                ..Pose::default()
            })
            .collect();
        let frame_count: usize = (0..self.anims.len())
            .map(|a| {
                self.anim_frames(a)
                    .filter(|&f| !self.frame(f).is_empty())
                    .count()
            })
            .sum();
        if frame_count.saturating_mul(nj).saturating_mul(CHANNELS) > MAX_FRAME_VALUES {
            return Err(error(
                None,
                format!(
                    "{frame_count} frames of {nj} joints are more than {MAX_FRAME_VALUES} values"
                ),
            ));
        }
        let bounded = !self.attributes.positions.is_empty()
            && !self.attributes.blends.is_empty()
            && !inverse_bind.is_empty();
        let mut frames: Vec<IqePose> = Vec::with_capacity(frame_count * nj);
        let mut bounds = Vec::new();
        for (a, ea) in self.anims.iter().enumerate() {
            let name = names.share(iqm, &ea.name);
            let first_frame = (frames.len() / nj) as u32;
            for f in self.anim_frames(a) {
                let poses = self.frame(f);
                if poses.is_empty() {
                    continue;
                }
                let start = frames.len();
                frames.extend(poses.iter().take(nj).copied());
                frames.resize(start + nj, IqePose::default());
                if bounded {
                    bounds.push(self.bounds(&frames[start..], &inverse_bind));
                }
            }
            iqm.anims.push(Anim {
                name,
                first_frame,
                num_frames: (frames.len() / nj) as u32 - first_frame,
                framerate: ea.framerate as f32,
                flags: if ea.loops { LOOP } else { 0 },
            });
        }
        quantise(iqm, &frames, nj);
        if bounded {
            iqm.bounds = Some(bounds);
        }
        Ok(())
    }

    /// One frame's bounds as `makebounds` computes them: every vertex
    /// (used or not) skinned by the unquantised pose.
    fn bounds(&self, frame: &[IqePose], inverse_bind: &[DMat4]) -> Bounds {
        let mut world: Vec<DMat4> = Vec::with_capacity(frame.len());
        for (i, (p, j)) in frame.iter().zip(&self.joints).enumerate() {
            let m = matrix(p);
            let w = match usize::try_from(j.parent) {
                Ok(parent) if parent < i => world[parent] * m,
                _ => m,
            };
            world.push(w);
        }
        let skin: Vec<DMat4> = world
            .iter()
            .zip(inverse_bind)
            .map(|(w, b)| *w * *b)
            .collect();
        let mut min = DVec3::ZERO;
        let mut max = DVec3::ZERO;
        let (mut xy, mut r) = (0.0f64, 0.0f64);
        for (i, (p, b)) in self
            .attributes
            .positions
            .iter()
            .zip(&self.attributes.blends)
            .enumerate()
        {
            let mut m = DMat4::ZERO;
            for k in 0..4 {
                if b.weights[k] > 0.0 {
                    if let Some(s) = skin.get(b.joints[k] as usize) {
                        m += *s * b.weights[k];
                    }
                }
            }
            let mut q = m.transform_vector3(DVec3::new(p[0], p[1], p[2]));
            q += m.w_axis.truncate();
            if i == 0 {
                min = q;
                max = q;
            } else {
                min = min.min(q);
                max = max.max(q);
            }
            xy = xy.max(q.x * q.x + q.y * q.y);
            r = r.max(q.x * q.x + q.y * q.y + q.z * q.z);
        }
        Bounds {
            min: min.as_vec3().to_array(),
            max: max.as_vec3().to_array(),
            xy_radius: xy.sqrt() as f32,
            radius: r.sqrt() as f32,
        }
    }
}

/// The matrix `T · R · S` of a pose, the quaternion used as it is (the
/// reference's `Matrix3x4(orient, pos, scale)`).
fn matrix(p: &IqePose) -> DMat4 {
    DMat4::from_scale_rotation_translation(
        DVec3::from(p.scale),
        DQuat::from_array(p.rotate),
        DVec3::from(p.translate),
    )
}

/// `calcanimdata`: per pose and channel, the offset is the least value
/// over every frame and the scale the range over 65535 (0, mask bit
/// clear, when the range is under 1e-10), all in `f32`; each frame then
/// stores `0.5 + (value − offset) / scale` as 16 bits for each masked
/// channel.
fn quantise(iqm: &mut Iqm, frames: &[IqePose], nj: usize) {
    let channels = |p: &IqePose| -> [f32; CHANNELS] {
        let [tx, ty, tz] = p.translate.map(|x| x as f32);
        let [rx, ry, rz, rw] = p.rotate.map(|x| x as f32);
        let [sx, sy, sz] = p.scale.map(|x| x as f32);
        [tx, ty, tz, rx, ry, rz, rw, sx, sy, sz]
    };
    if !frames.is_empty() {
        for pose in &mut iqm.poses {
            pose.channel_offset = [1e16; CHANNELS];
            pose.channel_scale = [-1e16; CHANNELS];
        }
    }
    for (i, f) in frames.iter().enumerate() {
        let pose = &mut iqm.poses[i % nj];
        for (k, c) in channels(f).into_iter().enumerate() {
            pose.channel_offset[k] = pose.channel_offset[k].min(c);
            pose.channel_scale[k] = pose.channel_scale[k].max(c);
        }
    }
    let mut size = 0u32;
    for pose in &mut iqm.poses {
        for k in 0..CHANNELS {
            pose.channel_scale[k] -= pose.channel_offset[k];
            if pose.channel_scale[k] >= 1e-10 {
                size += 1;
                pose.channel_scale[k] /= 65535.0;
                pose.mask |= 1 << k;
            } else {
                pose.channel_scale[k] = 0.0;
            }
        }
    }
    let mut values = Vec::with_capacity(frames.len() / nj.max(1) * size as usize);
    for (i, f) in frames.iter().enumerate() {
        let pose = &iqm.poses[i % nj];
        for (k, c) in channels(f).into_iter().enumerate() {
            if pose.mask & (1 << k) != 0 {
                values.push((0.5 + (c - pose.channel_offset[k]) / pose.channel_scale[k]) as u16);
            }
        }
    }
    iqm.num_frames = (frames.len() / nj.max(1)) as u32;
    iqm.num_framechannels = size;
    iqm.frames = values;
}

/// One component in `format`, as `serializeattrib` writes it: integer
/// formats scaled from 0–1 (or −1–1), except blend indices, stored as
/// themselves.
fn put(data: &mut Vec<u8>, format: ArrayFormat, x: f64, raw: bool) {
    let unsigned = |scale: f64| {
        if raw {
            x
        } else {
            (0.5 + x * scale).clamp(0.0, scale)
        }
    };
    let signed = |scale: f64, low: f64, high: f64| {
        if raw {
            return x;
        }
        let n = x * scale * 0.5;
        (if n < 0.0 { (n - 1.0).ceil() } else { n.floor() }).clamp(low, high)
    };
    match format {
        ArrayFormat::Byte => data.push(signed(255.0, -128.0, 127.0) as i8 as u8),
        ArrayFormat::Ubyte => data.push(unsigned(255.0) as u8),
        ArrayFormat::Short => {
            data.extend_from_slice(&(signed(65535.0, -32768.0, 32767.0) as i16).to_le_bytes())
        }
        ArrayFormat::Ushort => data.extend_from_slice(&(unsigned(65535.0) as u16).to_le_bytes()),
        ArrayFormat::Int => data.extend_from_slice(
            &(signed(4294967295.0, -2147483648.0, 2147483647.0) as i32).to_le_bytes(),
        ),
        ArrayFormat::Uint => data.extend_from_slice(&(unsigned(4294967295.0) as u32).to_le_bytes()),
        ArrayFormat::Half => data.extend_from_slice(&half(x).to_le_bytes()),
        ArrayFormat::Float => data.extend_from_slice(&(x as f32).to_le_bytes()),
        ArrayFormat::Double => data.extend_from_slice(&x.to_le_bytes()),
    }
}

/// A value as an IEEE 754 half the way the reference's `halfdata` makes
/// one: the double's top mantissa bits kept (truncated, not rounded),
/// too small values shifted into subnormals or zero, too large ones (and
/// NaN) made infinite.
fn half(d: f64) -> u16 {
    let bits = d.to_bits();
    let sign = ((bits >> 63) & 1) as u16;
    let mut mantissa = ((bits >> 42) & 0x3ff) as u16;
    let mut exponent = ((bits >> 52) & 0x7ff) as i32 - 1023 + 15;
    if exponent <= 0 {
        mantissa |= 0x400;
        mantissa >>= (1 - exponent).min(11) as u32;
        exponent = 0;
    } else if exponent >= 0x1f {
        mantissa = 0;
        exponent = 0x1f;
    }
    (sign << 15) | ((exponent as u16) << 10) | mantissa
}
