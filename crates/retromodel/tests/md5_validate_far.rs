//! `validate` of an md5mesh whose points lie far out (10²⁸ units: f32
//! holds it, its square does not): two weights that meet at one point are
//! not reported apart (the distance overflowed to "inf units apart"), and
//! two that do not meet still are. A `gltf_to_md5` fuzz finding (a glTF
//! position of -7.4e28 compiled exactly, then failed our own check).

use retromodel::md5::Md5Model;

fn mesh(second_weight_y: &str) -> String {
    format!(
        r#"MD5Version 10
commandline ""

numJoints 2
numMeshes 1

joints {{
	"a" -1 ( 0 0 0 ) ( 0 0 0 )
	"b" 0 ( 0 1 0 ) ( 0 0 0 )
}}

mesh {{
	shader "s"
	numverts 3
	vert 0 ( 0 0 ) 0 2
	vert 1 ( 0 0 ) 2 1
	vert 2 ( 0 0 ) 3 1
	numtris 1
	tri 0 0 1 2
	numweights 4
	weight 0 0 0.3 ( -7.3690966e28 0 0 )
	weight 1 1 0.7 ( -7.3690966e28 {second_weight_y} 0 )
	weight 2 0 1 ( 1 0 0 )
	weight 3 0 1 ( 0 0 1 )
}}
"#
    )
}

fn far_warnings(text: &str) -> Vec<String> {
    Md5Model::from_mesh_bytes(text.as_bytes())
        .unwrap()
        .validate()
        .into_iter()
        .filter(|p| p.message.contains("apart"))
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect()
}

#[test]
fn weights_that_meet_far_out_are_not_reported_apart() {
    // Joint b sits 1 above a: a weight 1 below it meets weight 0's point.
    assert_eq!(far_warnings(&mesh("-1")), Vec::<String>::new());
}

#[test]
fn weights_that_do_not_meet_far_out_are_reported_with_a_finite_distance() {
    // 10²⁷ off (more than the tolerance, a share of the 7·10²⁸ extent):
    // the two points are apart, by a finite distance.
    let w = far_warnings(&mesh("1e27"));
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("md5mesh.meshes[0].vertices[0]"), "{w:?}");
    assert!(!w[0].contains("inf"), "{w:?}");
}
