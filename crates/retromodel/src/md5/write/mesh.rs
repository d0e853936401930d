//! `md5mesh` text.

use std::fmt::Write;

use super::{float, quoted, vec3};
use crate::md5::{Md5Mesh, MD5_VERSION};

impl Md5Mesh {
    /// The mesh as `md5mesh` text (floats as the shortest decimal that reads back the same,
    /// never in exponent form): `parse` of it
    /// gives `self` back (the lines aside, and names as the module says).
    ///
    /// ```
    /// use retromodel::md5::Md5Mesh;
    /// let text = "MD5Version 10 commandline \"x\" numJoints 1 numMeshes 1
    /// joints { \"root\" -1 ( 0.1 0 -0 ) ( 0 0 0.70710677 ) }
    /// mesh { shader \"skin\" numverts 1 vert 0 ( 0.25 1 ) 0 1 numtris 0 numweights 1
    ///   weight 0 0 1 ( 1 2 0.000001 ) }";
    /// let mesh = Md5Mesh::parse(text.as_bytes())?;
    /// let written = mesh.to_text();
    /// assert!(written.contains("weight 0 0 1 ( 1 2 0.000001 )"));
    /// let again = Md5Mesh::parse(written.as_bytes())?;
    /// assert_eq!(again.meshes[0].weights, mesh.meshes[0].weights);
    /// assert_eq!(again.joints[0].position, mesh.joints[0].position);
    /// # Ok::<(), retromodel::Error>(())
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(64 + self.meshes.len() * 256);
        let _ = writeln!(out, "MD5Version {MD5_VERSION}");
        out.push_str("commandline ");
        quoted(&mut out, &self.commandline);
        let _ = write!(
            out,
            "\n\nnumJoints {}\nnumMeshes {}\n\njoints {{\n",
            self.joints.len(),
            self.meshes.len()
        );
        for j in &self.joints {
            out.push('\t');
            quoted(&mut out, &j.name);
            let parent = j.parent.map_or(-1, |p| p as i64);
            let _ = write!(out, " {parent} ");
            vec3(&mut out, j.position);
            out.push(' ');
            vec3(&mut out, j.orientation);
            out.push('\n');
        }
        out.push_str("}\n");
        for m in &self.meshes {
            out.push_str("\nmesh {\n\tshader ");
            quoted(&mut out, &m.shader);
            let _ = write!(out, "\n\n\tnumverts {}\n", m.vertices.len());
            for (i, v) in m.vertices.iter().enumerate() {
                let _ = write!(out, "\tvert {i} ( ");
                float(&mut out, v.uv[0]);
                out.push(' ');
                float(&mut out, v.uv[1]);
                let _ = writeln!(out, " ) {} {}", v.first_weight, v.weight_count);
            }
            let _ = write!(out, "\n\tnumtris {}\n", m.triangles.len());
            for (i, t) in m.triangles.iter().enumerate() {
                let _ = writeln!(out, "\ttri {i} {} {} {}", t[0], t[1], t[2]);
            }
            let _ = write!(out, "\n\tnumweights {}\n", m.weights.len());
            for (i, w) in m.weights.iter().enumerate() {
                let _ = write!(out, "\tweight {i} {} ", w.joint);
                float(&mut out, w.bias);
                out.push(' ');
                vec3(&mut out, w.position);
                out.push('\n');
            }
            out.push_str("}\n");
        }
        out
    }

    /// [`Md5Mesh::to_text`] as bytes (UTF-8), for writing a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_text().into_bytes()
    }
}
