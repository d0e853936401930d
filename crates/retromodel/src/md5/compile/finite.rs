//! The last check of a compile: every number the files will hold is
//! finite. The readers (ours, Q2PRO's `MD5_ParseFloat` with `strtof`)
//! take no `inf` or `nan`, so a pose that carries a joint or a point
//! beyond what an `f32` holds (a scene whose transforms overflow) is
//! refused, naming where, rather than written as a file nobody reads;
//! so is a texture coordinate that is not a number (which glTF forbids).

use crate::error::{Error, Result};
use crate::md5::{Md5Anim, Md5Mesh, Md5Scale};

/// The first place in `mesh`, `anim` and `scale` holding a number that
/// is not finite, as `(context, what)`.
fn first_not_finite(
    mesh: &Md5Mesh,
    anim: &Md5Anim,
    scale: Option<&Md5Scale>,
) -> Option<(String, &'static str)> {
    let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
    if let Some(j) = mesh
        .joints
        .iter()
        .position(|j| !finite(&j.position) || !finite(&j.orientation))
    {
        return Some((format!("md5mesh joints[{j}]"), "its bind placement"));
    }
    for (m, part) in mesh.meshes.iter().enumerate() {
        if let Some(v) = part.vertices.iter().position(|v| !finite(&v.uv)) {
            return Some((
                format!("md5mesh meshes[{m}].verts[{v}]"),
                "its texture coordinate is not a finite number (the source's is not a number)",
            ));
        }
        if let Some(w) = part
            .weights
            .iter()
            .position(|w| !finite(&w.position) || !w.bias.is_finite())
        {
            return Some((format!("md5mesh meshes[{m}].weights[{w}]"), "its point"));
        }
    }
    if let Some(j) = anim
        .base_frame
        .iter()
        .position(|b| !finite(&b.position) || !finite(&b.orientation))
    {
        return Some((format!("md5anim baseframe[{j}]"), "the joint's first pose"));
    }
    if let Some(c) = anim.components.iter().position(|x| !x.is_finite()) {
        let per_frame = anim.num_animated_components.max(1);
        return Some((format!("md5anim frame {}", c / per_frame), "a joint's pose"));
    }
    if let Some(k) = anim
        .bounds
        .iter()
        .position(|b| !finite(&b[0]) || !finite(&b[1]))
    {
        return Some((format!("md5anim bounds[{k}]"), "the posed mesh's bounds"));
    }
    for j in scale.map_or(&[][..], |s| &s.joints[..]) {
        if let Some(&(k, _)) = j.frames.iter().find(|(_, s)| !s.is_finite()) {
            return Some((
                format!("md5scale {:?} frame {k}", j.joint),
                "the joint's scale",
            ));
        }
    }
    None
}

/// Fails when a number of the files is not finite (see the module
/// documentation).
pub(super) fn check(mesh: &Md5Mesh, anim: &Md5Anim, scale: Option<&Md5Scale>) -> Result<()> {
    match first_not_finite(mesh, anim, scale) {
        None => Ok(()),
        Some((context, what)) => Err(Error::unwritable(
            context,
            if what.contains(" is not ") {
                what.to_string()
            } else {
                format!(
                    "{what} is not a finite number: the source's transforms carry it beyond what an MD5 (32-bit numbers) holds"
                )
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::md5::{BaseJoint, Joint};

    #[test]
    fn the_first_number_not_finite_is_named() {
        let mut mesh = Md5Mesh::default();
        mesh.joints.push(Joint {
            name: "root".to_string(),
            parent: None,
            position: [0.0; 3],
            orientation: [0.0; 3],
            line: 0,
        });
        let mut anim = Md5Anim {
            num_animated_components: 2,
            components: vec![0.0, 1.0, 2.0, f32::NAN],
            num_frames: 2,
            ..Md5Anim::default()
        };
        anim.base_frame.push(BaseJoint {
            position: [0.0; 3],
            orientation: [0.0; 3],
        });
        let err = check(&mesh, &anim, None).unwrap_err().to_string();
        assert!(err.contains("md5anim frame 1"), "{err}");
        anim.components[3] = 3.0;
        assert!(check(&mesh, &anim, None).is_ok());
        mesh.joints[0].position[1] = f32::INFINITY;
        let err = check(&mesh, &anim, None).unwrap_err().to_string();
        assert!(err.contains("md5mesh joints[0]"), "{err}");
    }
}
