//! Fuzz target: id Tech 4 MD5 text. The input as an md5mesh, an md5anim
//! and a `.md5scale`; and split at the first NUL byte into an md5mesh and
//! an md5anim (a `.md5scale` after a second NUL) that, when they parse,
//! make a model that is validated, summarised, posed at every frame and
//! lifted to a scene. Nothing may panic, loop or allocate past what the
//! input justifies.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retromodel::md5::{Md5Anim, Md5Mesh, Md5Model, Md5Scale};

fuzz_target!(|data: &[u8]| {
    let _ = Md5Mesh::parse(data);
    let _ = Md5Anim::parse(data);
    let _ = Md5Scale::parse(data, &["root", "spine"]);
    let mut parts = data.splitn(3, |&b| b == 0);
    let (Some(mesh), Some(anim)) = (parts.next(), parts.next()) else {
        return;
    };
    let scale = parts.next();
    let Ok(mut model) = Md5Model::from_mesh_bytes(mesh) else {
        return;
    };
    let _ = model.add_animation("fuzz", anim, scale);
    let _ = model.validate();
    let _ = model.info(mesh).to_string();
    for a in &model.animations {
        for k in 0..a.anim.num_frames.min(64) {
            let pose = a.anim.pose(k, a.scale.as_ref());
            for m in 0..model.mesh.meshes.len() {
                let _ = model.mesh.posed_vertices(m, &pose);
            }
        }
    }
    let _ = model.to_scene("fuzz");
});
