//! Reading IQE text line by line into an [`Iqe`], as `iqm.cpp`'s
//! `parseiqe` reads it: numbers a command leaves out take their defaults,
//! a value that is not a number ends the list, unknown commands are kept
//! aside, and poses, faces and frames are resolved as the reference does.

use super::{
    error, ArrayDecl, Blend, Iqe, IqeAnim, IqeJoint, IqeMesh, IqePose, IqeTriangle, Smoothing,
    HEADER,
};
use crate::Result;
use glam::{DMat3, DVec3};

/// The whitespace-separated values after a command, read the way
/// `strtod` and `strtol` read them: a token that is not a number stops
/// the reading (it and the rest take their defaults).
struct Values<'a> {
    rest: &'a str,
    line: usize,
}

impl<'a> Values<'a> {
    fn peek(&self) -> &'a str {
        self.rest.split_whitespace().next().unwrap_or("")
    }

    fn consume(&mut self) {
        let t = self.rest.trim_start();
        let end = t.find(char::is_whitespace).unwrap_or(t.len());
        self.rest = &t[end..];
    }

    /// The next number, if the next token is one.
    fn maybe_f64(&mut self) -> Result<Option<f64>> {
        let Ok(v) = self.peek().parse::<f64>() else {
            return Ok(None);
        };
        if !v.is_finite() {
            return Err(error(
                Some(self.line),
                format!("{:?} is not a finite number", self.peek()),
            ));
        }
        self.consume();
        Ok(Some(v))
    }

    fn f64_or(&mut self, default: f64) -> Result<f64> {
        Ok(self.maybe_f64()?.unwrap_or(default))
    }

    fn vec<const N: usize>(&mut self, defaults: [f64; N]) -> Result<[f64; N]> {
        let mut out = defaults;
        for v in &mut out {
            *v = self.f64_or(*v)?;
        }
        Ok(out)
    }

    /// The next integer, if the next token is one.
    fn index(&mut self) -> Result<Option<i64>> {
        let Ok(v) = self.peek().parse::<i64>() else {
            return Ok(None);
        };
        if i32::try_from(v).is_err() {
            return Err(error(Some(self.line), format!("{v} is out of range")));
        }
        self.consume();
        Ok(Some(v))
    }

    /// A name: quoted (to the next quote) or up to the next blank.
    fn name(&mut self) -> String {
        let t = self.rest.trim_start();
        if let Some(quoted) = t.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            self.rest = quoted.get(end + 1..).unwrap_or("");
            quoted[..end].to_string()
        } else {
            let end = t.find(char::is_whitespace).unwrap_or(t.len());
            self.rest = &t[end..];
            t[..end].to_string()
        }
    }
}

/// State carried from line to line (the reference's `curmesh`,
/// `curmaterial`, `needmesh`, `fmoffset`).
struct State {
    mesh: String,
    material: String,
    need_mesh: bool,
    fm_offset: usize,
}

impl Iqe {
    /// Reads IQE text. The first line must start with
    /// `# Inter-Quake Export`.
    ///
    /// ```
    /// let text = "# Inter-Quake Export\njoint root -1\npq 0 0 1 0 0 0 1\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
    /// let iqe = retromodel::iqm::iqe::Iqe::parse(text.as_bytes()).unwrap();
    /// assert_eq!(iqe.attributes.positions.len(), 3);
    /// assert_eq!(iqe.triangles[0].vertices, [0, 1, 2]);
    /// assert_eq!(iqe.poses[0].rotate, [0.0, 0.0, 0.0, -1.0]); // w ≤ 0
    /// assert!(retromodel::iqm::iqe::Iqe::parse(b"vp 0 0 0\n").is_err());
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Iqe> {
        let mut iqe = Iqe::default();
        let mut state = State {
            mesh: String::new(),
            material: String::new(),
            need_mesh: true,
            fm_offset: 0,
        };
        let mut at = 0usize;
        let mut number = 0usize;
        while at < bytes.len() || number == 0 {
            let end = bytes[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |e| at + e);
            let raw = String::from_utf8_lossy(&bytes[at..end]);
            let next = (end + 1).min(bytes.len());
            number += 1;
            let line = raw.trim_end_matches('\r');
            if number == 1 {
                let first = line.trim_start_matches('\u{feff}').trim_start();
                if !first.starts_with(HEADER) {
                    return Err(error(Some(1), format!("the first line must be {HEADER:?}")));
                }
            } else if iqe.line(line, number, &mut state)? {
                iqe.comment = Some(bytes[next..].to_vec());
                break;
            }
            if end >= bytes.len() {
                break;
            }
            at = next;
        }
        Ok(iqe)
    }

    /// Reads one line; `true` for `comment`, which takes the rest.
    fn line(&mut self, text: &str, line: usize, state: &mut State) -> Result<bool> {
        let c = text.trim_start();
        if c.is_empty() || c.starts_with('#') {
            return Ok(false);
        }
        let word_end = c.find(char::is_whitespace).unwrap_or(c.len());
        let (word, rest) = c.split_at(word_end);
        let mut v = Values { rest, line };
        let a = &mut self.attributes;
        match word {
            "vp" => a.positions.push(v.vec([0.0, 0.0, 0.0, 1.0])?),
            "vt" => a.texcoords.push(v.vec([0.0; 4])?),
            "vn" => a.normals.push(v.vec([0.0; 3])?),
            "vx" => {
                let [x, y, z] = v.vec([0.0; 3])?;
                let bx = v.f64_or(0.0)?;
                if let Some(by) = v.maybe_f64()? {
                    let bz = v.f64_or(0.0)?;
                    a.bitangents.push([bx, by, bz]);
                    a.tangents.push([x, y, z, 0.0]);
                } else {
                    a.tangents.push([x, y, z, bx]);
                }
            }
            "vb" => {
                let mut blend = Blend::default();
                while let Some(index) = v.index()? {
                    let weight = v.f64_or(0.0)?;
                    let Ok(joint) = u8::try_from(index) else {
                        return Err(error(
                            Some(line),
                            format!("blend joint {index} is not 0 to 255"),
                        ));
                    };
                    blend.add(weight, joint);
                }
                blend.finish();
                a.blends.push(blend);
            }
            "vc" => a.colors.push(v.vec([0.0, 0.0, 0.0, 1.0])?),
            "v0" | "v1" | "v2" | "v3" | "v4" | "v5" | "v6" | "v7" | "v8" | "v9" => {
                let n = usize::from(word.as_bytes()[1] - b'0');
                a.custom[n].push(v.vec([0.0; 4])?);
            }
            "vs" => a.smooth_indexes.push(v.index()?.unwrap_or(0) as i32),
            "pq" => self.poses.push(pq(&mut v)?),
            "pm" => self.poses.push(pm(&mut v)?),
            "pa" => self.poses.push(pa(&mut v)?),
            "fa" | "fm" => self.face(&mut v, word == "fm", state)?,
            "fs" | "smoothgroup" | "smoothangle" | "smoothuv" => self.smoothing.push(Smoothing {
                text: c.to_string(),
                line,
            }),
            "mesh" => {
                state.mesh = v.name();
                if self.meshes.last().is_none_or(|m| m.name != state.mesh) {
                    state.need_mesh = true;
                }
                state.fm_offset = self.attributes.positions.len();
            }
            "material" => {
                state.material = v.name();
                if self
                    .meshes
                    .last()
                    .is_none_or(|m| m.material != state.material)
                {
                    state.need_mesh = true;
                }
            }
            "joint" => {
                let name = v.name();
                let parent = v.index()?.unwrap_or(-1) as i32;
                self.joints.push(IqeJoint { name, parent, line });
            }
            "vertexarray" => {
                let kind = v.name();
                let format = v.name();
                let size = v.index()?.unwrap_or(0);
                let name = v.name();
                self.vertex_arrays.push(ArrayDecl {
                    kind,
                    format,
                    size,
                    name,
                    line,
                });
            }
            "animation" => {
                let name = v.name();
                self.anims.push(IqeAnim {
                    name,
                    first_frame: self.frame_starts.len(),
                    ..IqeAnim::default()
                });
                if self.frame_starts.last() != Some(&self.poses.len()) {
                    self.frame_starts.push(self.poses.len());
                }
            }
            "frame" => {
                if !self.anims.is_empty()
                    && !self.frame_starts.is_empty()
                    && self.frame_starts.last() != Some(&self.poses.len())
                {
                    self.frame_starts.push(self.poses.len());
                }
            }
            "framerate" => {
                if let Some(anim) = self.anims.last_mut() {
                    anim.framerate = v.f64_or(0.0)?.max(0.0);
                }
            }
            "loop" => {
                if let Some(anim) = self.anims.last_mut() {
                    anim.loops = true;
                }
            }
            "comment" => return Ok(true),
            _ => self.unknown.push((line, c.to_string())),
        }
        Ok(false)
    }

    /// `fa` (indices from the file's first vertex) or `fm` (from the
    /// mesh's): a polygon, fanned into triangles.
    fn face(&mut self, v: &mut Values, local: bool, state: &mut State) -> Result<()> {
        let (Some(i1), Some(i2)) = (v.index()?, v.index()?) else {
            // The reference skips a face with fewer than two indices.
            return Ok(());
        };
        if state.need_mesh {
            self.meshes.push(IqeMesh {
                name: state.mesh.clone(),
                material: state.material.clone(),
                first_triangle: self.triangles.len(),
            });
            state.need_mesh = false;
        }
        let count = self.attributes.positions.len() as i64;
        let offset = if local { state.fm_offset as i64 } else { 0 };
        let line = v.line;
        let resolve = |i: i64| -> Result<u32> {
            let r = if i < 0 {
                (count + i).max(0)
            } else {
                offset + i
            };
            u32::try_from(r).map_err(|_| error(Some(line), format!("vertex {r} is out of range")))
        };
        let first = resolve(i1)?;
        let mut previous = resolve(i2)?;
        while let Some(i3) = v.index()? {
            let third = resolve(i3)?;
            self.triangles.push(IqeTriangle {
                vertices: [first, previous, third],
                line,
            });
            previous = third;
        }
        Ok(())
    }
}

impl Blend {
    /// Adds a weight as `blendcombo::addweight` does: weights of 0.001 or
    /// less are dropped, the four heaviest kept, heaviest first.
    pub fn add(&mut self, weight: f64, joint: u8) {
        if weight <= 1e-3 {
            return;
        }
        for k in 0..self.count {
            if weight > self.weights[k] {
                let mut l = (self.count.min(4) as isize - 1).min(2);
                while l >= k as isize {
                    let u = l as usize;
                    self.weights[u + 1] = self.weights[u];
                    self.joints[u + 1] = self.joints[u];
                    l -= 1;
                }
                self.weights[k] = weight;
                self.joints[k] = joint;
                if self.count < 4 {
                    self.count += 1;
                }
                return;
            }
        }
        if self.count >= 4 {
            return;
        }
        self.weights[self.count] = weight;
        self.joints[self.count] = joint;
        self.count += 1;
    }

    /// Zeroes the unused slots and normalises the weights to sum 1
    /// (`blendcombo::finalize`).
    pub fn finish(&mut self) {
        for k in self.count..4 {
            self.weights[k] = 0.0;
            self.joints[k] = 0;
        }
        let total: f64 = self.weights[..self.count].iter().sum();
        if self.count > 0 && total > 0.0 {
            for w in &mut self.weights[..self.count] {
                *w /= total;
            }
        }
    }

    /// The weights as bytes summing to 255 (`blendcombo::serialize`).
    pub fn weight_bytes(&self) -> [u8; 4] {
        let mut out = [0u8; 4];
        let mut total = 0i32;
        for (o, w) in out.iter_mut().zip(self.weights) {
            *o = (0.5 + w * 255.0).clamp(0.0, 255.0) as u8;
            total += i32::from(*o);
        }
        if self.count == 0 {
            return out;
        }
        while total > 255 {
            for o in &mut out {
                if *o > 0 && total > 255 {
                    *o -= 1;
                    total -= 1;
                }
            }
        }
        while total < 255 {
            for o in &mut out {
                if *o < 255 && total < 255 {
                    *o += 1;
                    total += 1;
                }
            }
        }
        out
    }
}

/// The quaternion with `w ≤ 0` (the reference flips one with `w > 0`).
fn negative_w(q: [f64; 4]) -> [f64; 4] {
    if q[3] > 0.0 {
        q.map(|c| -c)
    } else {
        q
    }
}

/// `pq Tx Ty Tz Qx Qy Qz [Qw] [Sx Sy Sz]`: `w` made negative from the
/// others when left out. A given `w` is kept as it is: the reference
/// means to normalise the quaternion then (`t.orient.normalize()`), but
/// that call returns a normalised copy and drops it, so the file's values
/// stay.
fn pq(v: &mut Values) -> Result<IqePose> {
    let translate = v.vec([0.0; 3])?;
    let [x, y, z] = v.vec([0.0; 3])?;
    let restored = -(1.0 - (x * x + y * y + z * z)).max(0.0).sqrt();
    let w = v.f64_or(restored)?;
    let scale = v.vec([1.0; 3])?;
    Ok(IqePose {
        translate,
        rotate: negative_w([x, y, z, w]),
        scale,
    })
}

/// `pm Tx Ty Tz Ax Ay Az Bx By Bz Cx Cy Cz [Sx Sy Sz]`: the matrix's
/// column lengths (negated for a negative determinant) become scale.
fn pm(v: &mut Values) -> Result<IqePose> {
    let translate = v.vec([0.0; 3])?;
    let a = DVec3::from(v.vec([0.0; 3])?);
    let b = DVec3::from(v.vec([0.0; 3])?);
    let c = DVec3::from(v.vec([0.0; 3])?);
    // Rows a, b, c; glam takes columns.
    let m = DMat3::from_cols(a, b, c).transpose();
    let mut mscale = DVec3::new(m.x_axis.length(), m.y_axis.length(), m.z_axis.length());
    if m.determinant() < 0.0 {
        mscale = -mscale;
    }
    if mscale.x == 0.0 || mscale.y == 0.0 || mscale.z == 0.0 {
        return Err(error(Some(v.line), "pm matrix has a zero column"));
    }
    let r = DMat3::from_cols(
        m.x_axis / mscale.x,
        m.y_axis / mscale.y,
        m.z_axis / mscale.z,
    );
    let q = quat_from_rows(r.transpose());
    if q.iter().any(|c| !c.is_finite()) {
        return Err(error(Some(v.line), "pm matrix is not a rotation"));
    }
    let scale = (DVec3::from(v.vec([1.0; 3])?) * mscale).to_array();
    Ok(IqePose {
        translate,
        rotate: negative_w(q),
        scale,
    })
}

/// `pa Tx Ty Tz Rx Ry Rz [Sx Sy Sz]`: Euler angles in radians, combined
/// as `Quat::fromangles` combines them.
fn pa(v: &mut Values) -> Result<IqePose> {
    let translate = v.vec([0.0; 3])?;
    let [rx, ry, rz] = v.vec([0.0; 3])?;
    let (sx, cx) = (rx / 2.0).sin_cos();
    let (sy, cy) = (ry / 2.0).sin_cos();
    let (sz, cz) = (rz / 2.0).sin_cos();
    let q = [
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz,
    ];
    let scale = v.vec([1.0; 3])?;
    Ok(IqePose {
        translate,
        rotate: negative_w(q),
        scale,
    })
}

/// The quaternion of a rotation matrix given by its rows (`m.x_axis` is
/// the first row), from the largest of the trace and the diagonal, as
/// `Quat::convertmatrix` takes it (not normalised).
fn quat_from_rows(m: DMat3) -> [f64; 4] {
    let (a, b, c) = (m.x_axis, m.y_axis, m.z_axis);
    let trace = a.x + b.y + c.z;
    if trace > 0.0 {
        let r = (1.0 + trace).sqrt();
        let inv = 0.5 / r;
        [
            (c.y - b.z) * inv,
            (a.z - c.x) * inv,
            (b.x - a.y) * inv,
            0.5 * r,
        ]
    } else if a.x > b.y && a.x > c.z {
        let r = (1.0 + a.x - b.y - c.z).sqrt();
        let inv = 0.5 / r;
        [
            0.5 * r,
            (b.x + a.y) * inv,
            (a.z + c.x) * inv,
            (c.y - b.z) * inv,
        ]
    } else if b.y > c.z {
        let r = (1.0 + b.y - a.x - c.z).sqrt();
        let inv = 0.5 / r;
        [
            (b.x + a.y) * inv,
            0.5 * r,
            (c.y + b.z) * inv,
            (a.z - c.x) * inv,
        ]
    } else {
        let r = (1.0 + c.z - a.x - b.y).sqrt();
        let inv = 0.5 / r;
        [
            (a.z + c.x) * inv,
            (c.y + b.z) * inv,
            0.5 * r,
            (b.x - a.y) * inv,
        ]
    }
}
