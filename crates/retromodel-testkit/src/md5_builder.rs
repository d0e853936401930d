//! Hand-made MD5 files (md5mesh, md5anim, .md5scale), written as text from
//! the format's description, and an independent evaluator of them (its own
//! tokenizer, f64 arithmetic, none of the library's code): what the MD5
//! reader, its validation and the glTF it converts to are checked against.
//!
//! The rig: five joints (`root`, `spine`, `arm`, `head`, `hand`: a chain
//! with a branch), two meshes (two shaders), vertices with one to five
//! weights, and an 8-frame anim at 10 fps whose hierarchy flags take the
//! root's position, the spine's orientation, all six components of the
//! arm, nothing of the head and the hand's position y and orientation z.

/// A quaternion `[x, y, z, w]` (Hamilton).
type Q = [f64; 4];
type V = [f64; 3];

fn qmul(a: Q, b: Q) -> Q {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

fn conj(q: Q) -> Q {
    [-q[0], -q[1], -q[2], q[3]]
}

/// `q v q*`.
pub fn rotate(q: Q, v: V) -> V {
    let r = qmul(qmul(q, [v[0], v[1], v[2], 0.0]), conj(q));
    [r[0], r[1], r[2]]
}

fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: V, s: f64) -> V {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn axis_angle(axis: V, degrees: f64) -> Q {
    let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let h = degrees.to_radians() / 2.0;
    let s = h.sin() / n;
    [axis[0] * s, axis[1] * s, axis[2] * s, h.cos()]
}

/// The `x y z` an MD5 file stores for `q`: the quaternion with `w ≤ 0`
/// (the file's `w` is `-√(1 − x² − y² − z²)`).
fn stored(q: Q) -> V {
    if q[3] > 0.0 {
        [-q[0], -q[1], -q[2]]
    } else {
        [q[0], q[1], q[2]]
    }
}

/// The quaternion the file's `x y z` stands for.
pub fn from_stored(v: V) -> Q {
    let t = 1.0 - v[0] * v[0] - v[1] * v[1] - v[2] * v[2];
    [v[0], v[1], v[2], if t < 0.0 { 0.0 } else { -t.sqrt() }]
}

struct RigJoint {
    name: &'static str,
    parent: i32,
    position: V,
    orientation: Q,
}

fn rig_joints() -> Vec<RigJoint> {
    let j = |name, parent, position, axis, degrees| RigJoint {
        name,
        parent,
        position,
        orientation: axis_angle(axis, degrees),
    };
    vec![
        j("root", -1, [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], 30.0),
        j("spine", 0, [0.0, 0.0, 2.0], [1.0, 0.0, 0.0], 20.0),
        j("arm", 1, [1.0, 0.0, 3.0], [0.0, 1.0, 0.0], 40.0),
        j("head", 1, [0.0, 0.0, 4.0], [0.0, 0.0, 1.0], 0.0),
        j("hand", 2, [2.0, 0.0, 3.0], [1.0, 1.0, 0.0], 25.0),
    ]
}

/// The rig's vertices: model-space bind position, UV and `(joint, bias)`s.
type RigVertex = (V, [f64; 2], Vec<(usize, f64)>);

/// A mesh of the rig: shader, vertices, triangles.
type RigMesh = (&'static str, Vec<RigVertex>, Vec<[usize; 3]>);

/// A `.md5scale` by joint index: `scale_positions` and `(frame, scale)`s.
pub type ScaleTable = [(bool, Vec<(usize, f64)>)];

fn rig_meshes() -> Vec<RigMesh> {
    let weights: [&[(usize, f64)]; 6] = [
        &[(0, 1.0)],
        &[(0, 0.5), (1, 0.5)],
        &[(1, 0.25), (2, 0.5), (3, 0.25)],
        &[(1, 0.125), (2, 0.375), (3, 0.25), (4, 0.25)],
        &[(0, 0.25), (1, 0.25), (2, 0.125), (3, 0.125), (4, 0.25)],
        &[(4, 1.0)],
    ];
    let mut meshes = Vec::new();
    for (m, shader) in ["models/rig/body", "models/rig/arm"]
        .into_iter()
        .enumerate()
    {
        let mut vertices = Vec::new();
        for i in 0..8usize {
            let a = i as f64 * std::f64::consts::FRAC_PI_4;
            let z = m as f64 * 1.5 + (i % 3) as f64;
            let p = [a.cos() * (1.0 + m as f64), a.sin(), z];
            let w = weights[(i + m) % weights.len()].to_vec();
            vertices.push((p, [i as f64 / 8.0, m as f64 / 2.0], w));
        }
        let triangles = (0..6).map(|i| [0, i + 1, i + 2]).collect();
        meshes.push((shader, vertices, triangles));
    }
    meshes
}

fn num(x: f64) -> String {
    format!("{x:.10}")
}

fn vec3(v: V) -> String {
    format!("( {} {} {} )", num(v[0]), num(v[1]), num(v[2]))
}

/// The rig's md5mesh.
pub fn rig_md5mesh() -> String {
    let joints = rig_joints();
    let mut s = String::from("MD5Version 10\ncommandline \"testkit md5_builder\"\n\n");
    s += &format!("numJoints {}\nnumMeshes 2\n\njoints {{\n", joints.len());
    for j in &joints {
        s += &format!(
            "\t\"{}\"\t{} {} {}\t\t// {}\n",
            j.name,
            j.parent,
            vec3(j.position),
            vec3(stored(j.orientation)),
            if j.parent < 0 {
                ""
            } else {
                joints[j.parent as usize].name
            }
        );
    }
    s += "}\n";
    for (shader, vertices, triangles) in rig_meshes() {
        s += &format!(
            "\nmesh {{\n\t// meshes: {shader}\n\tshader \"{shader}\"\n\n\tnumverts {}\n",
            vertices.len()
        );
        let mut first = 0;
        let mut weights = Vec::new();
        for (i, (p, uv, w)) in vertices.iter().enumerate() {
            s += &format!(
                "\tvert {i} ( {} {} ) {first} {}\n",
                num(uv[0]),
                num(uv[1]),
                w.len()
            );
            for &(joint, bias) in w {
                let j = &joints[joint];
                // The vertex seen from the joint: R⁻¹ (p − position).
                let local = rotate(conj(j.orientation), sub(*p, j.position));
                weights.push((joint, bias, local));
            }
            first += w.len();
        }
        s += &format!("\n\tnumtris {}\n", triangles.len());
        for (i, t) in triangles.iter().enumerate() {
            s += &format!("\ttri {i} {} {} {}\n", t[0], t[1], t[2]);
        }
        s += &format!("\n\tnumweights {}\n", weights.len());
        for (i, (joint, bias, p)) in weights.iter().enumerate() {
            s += &format!("\tweight {i} {joint} {} {}\n", num(*bias), vec3(*p));
        }
        s += "}\n";
    }
    s
}

/// Number of frames of the rig's anim.
pub const RIG_FRAMES: usize = 8;
/// Its frame rate.
pub const RIG_FPS: f64 = 10.0;

/// Flags per joint: root position, spine orientation, arm everything,
/// head nothing, hand position y and orientation z.
const FLAGS: [u32; 5] = [7, 56, 63, 0, 2 | 32];

/// Joint `i`'s local position and orientation at frame `k`.
fn local_at(i: usize, k: usize) -> (V, Q) {
    let joints = rig_joints();
    let j = &joints[i];
    let (pos, rot) = if j.parent < 0 {
        (j.position, j.orientation)
    } else {
        let p = &joints[j.parent as usize];
        let inv = conj(p.orientation);
        (
            rotate(inv, sub(j.position, p.position)),
            qmul(inv, j.orientation),
        )
    };
    let t = k as f64;
    match i {
        0 => (add(pos, [0.1 * t, 0.05 * t, 0.0]), rot),
        1 => (pos, qmul(rot, axis_angle([1.0, 0.0, 0.0], 10.0 * t))),
        2 => (
            add(pos, [0.0, 0.02 * t, 0.1 * t]),
            qmul(rot, axis_angle([0.3, 1.0, 0.2], 15.0 * t)),
        ),
        4 => (
            add(pos, [0.0, -0.1 * t, 0.0]),
            qmul(rot, axis_angle([0.0, 0.0, 1.0], 12.0 * t)),
        ),
        _ => (pos, rot),
    }
}

/// The six components of joint `i` at frame `k` (base frame: `k = 0`).
fn components(i: usize, k: usize) -> [f64; 6] {
    let (p, q) = local_at(i, k);
    let q = stored(q);
    [p[0], p[1], p[2], q[0], q[1], q[2]]
}

/// The rig's md5anim (bounds from [`reference_pose`] of the text's own
/// numbers, without scales).
pub fn rig_md5anim() -> String {
    let joints = rig_joints();
    let mut starts = Vec::new();
    let mut total = 0;
    for f in FLAGS {
        starts.push(total);
        total += f.count_ones() as usize;
    }
    let mut body = String::new();
    for k in 0..RIG_FRAMES {
        body += &format!("frame {k} {{\n\t");
        for (i, f) in FLAGS.iter().enumerate() {
            let c = components(i, k);
            for (bit, v) in c.iter().enumerate() {
                if f & (1 << bit) != 0 {
                    body += &format!("{} ", num(*v));
                }
            }
        }
        body += "\n}\n\n";
    }
    let mut head = String::from("MD5Version 10\ncommandline \"testkit md5_builder\"\n\n");
    head += &format!(
        "numFrames {RIG_FRAMES}\nnumJoints {}\nframeRate {}\nnumAnimatedComponents {total}\n\nhierarchy {{\n",
        joints.len(),
        RIG_FPS
    );
    for (i, j) in joints.iter().enumerate() {
        head += &format!(
            "\t\"{}\"\t{} {} {}\n",
            j.name, j.parent, FLAGS[i], starts[i]
        );
    }
    head += "}\n\nbounds {\n";
    let mut base = String::from("baseframe {\n");
    for i in 0..joints.len() {
        let c = components(i, 0);
        base += &format!(
            "\t{} {}\n",
            vec3([c[0], c[1], c[2]]),
            vec3([c[3], c[4], c[5]])
        );
    }
    base += "}\n\n";
    // Bounds from the text without them: evaluate with placeholder bounds.
    let mut placeholder = head.clone();
    for _ in 0..RIG_FRAMES {
        placeholder += "\t( 0 0 0 ) ( 0 0 0 )\n";
    }
    placeholder += "}\n\n";
    let without = format!("{placeholder}{base}{body}");
    let mesh = rig_md5mesh();
    for k in 0..RIG_FRAMES {
        let posed = reference_pose(&mesh, &without, None, k);
        let (mut lo, mut hi) = ([f64::MAX; 3], [f64::MIN; 3]);
        for p in posed.iter().flatten() {
            for c in 0..3 {
                lo[c] = lo[c].min(p[c]);
                hi[c] = hi[c].max(p[c]);
            }
        }
        head += &format!("\t{} {}\n", vec3(lo), vec3(hi));
    }
    head += "}\n\n";
    format!("{head}{base}{body}")
}

/// A `.md5scale` for the rig: the arm (which holds the hand) grows at
/// frames 3 and 4, the head's position and size scale at frame 5.
pub fn rig_md5scale() -> String {
    r#"{
  "arm": { "scale_positions": false, "3": 1.5, "4": 2.0 },
  "head": { "scale_positions": true, "5": 0.5 }
}"#
    .to_string()
}

/// Tokens of an MD5 text: parentheses and braces split off, `//`
/// comments dropped, a quoted string one token that keeps its quotes (so
/// a name never reads as a keyword or a number, whatever it holds).
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut word = String::new();
        let mut chars = line.chars().peekable();
        let flush = |word: &mut String, out: &mut Vec<String>| {
            if !word.is_empty() {
                out.push(std::mem::take(word));
            }
        };
        while let Some(c) = chars.next() {
            match c {
                '"' => {
                    flush(&mut word, &mut out);
                    let mut quoted = String::from('"');
                    for d in chars.by_ref() {
                        quoted.push(d);
                        if d == '"' {
                            break;
                        }
                    }
                    out.push(quoted);
                }
                '/' if chars.peek() == Some(&'/') => break,
                '(' | ')' | '{' | '}' => {
                    flush(&mut word, &mut out);
                    out.push(c.to_string());
                }
                c if c.is_whitespace() => flush(&mut word, &mut out),
                c => word.push(c),
            }
        }
        flush(&mut word, &mut out);
    }
    out
}

/// Every mesh's vertices at frame `frame` of `anim` (model space, Quake
/// axes), evaluated from the format's description: the frame's components
/// fill the base frame where the hierarchy's flags say, in order from the
/// start index; joints compose with their parents; a vertex is
/// `Σ bias · (joint position + scale · joint orientation · weight)`.
/// `scale` is a `.md5scale`'s per-joint `(scale_positions, [(frame,
/// scale)])` by joint index. For well-formed files only.
pub fn reference_pose(
    mesh: &str,
    anim: &str,
    scale: Option<&ScaleTable>,
    frame: usize,
) -> Vec<Vec<V>> {
    let t = tokens(anim);
    let find = |key: &str| t.iter().position(|x| x == key).unwrap() + 1;
    let n: usize = t[find("numJoints")].parse().unwrap();
    let h = find("hierarchy") + 1;
    let hierarchy: Vec<(i64, u32, usize)> = (0..n)
        .map(|i| {
            let e = &t[h + 4 * i..h + 4 * i + 4];
            (
                e[1].parse().unwrap(),
                e[2].parse().unwrap(),
                e[3].parse().unwrap(),
            )
        })
        .collect();
    let b = find("baseframe") + 1;
    let f: Vec<f64> = t[b..].iter().filter_map(|x| x.parse().ok()).collect();
    let base: Vec<[f64; 6]> = (0..n)
        .map(|i| f[6 * i..6 * i + 6].try_into().unwrap())
        .collect();
    let fr = t
        .iter()
        .enumerate()
        .find(|(i, x)| *x == "frame" && t[i + 1] == frame.to_string())
        .unwrap()
        .0
        + 3;
    let data: Vec<f64> = t[fr..]
        .iter()
        .take_while(|x| *x != "}")
        .map(|x| x.parse().unwrap())
        .collect();
    let mut posed: Vec<(V, Q, f64)> = Vec::new();
    for i in 0..n {
        let (parent, flags, start) = hierarchy[i];
        let mut c = base[i];
        let mut next = start;
        for (bit, v) in c.iter_mut().enumerate() {
            if flags & (1 << bit) != 0 {
                *v = data[next];
                next += 1;
            }
        }
        let (s, sp) = scale
            .and_then(|s| s.get(i))
            .map_or((1.0, false), |(sp, frames)| {
                (
                    frames
                        .iter()
                        .rev()
                        .find(|(k, _)| *k == frame)
                        .map_or(1.0, |x| x.1),
                    *sp,
                )
            });
        let mut p = [c[0], c[1], c[2]];
        if sp {
            p = scale_v(p, s);
        }
        let q = from_stored([c[3], c[4], c[5]]);
        posed.push(if parent < 0 {
            (p, q, s)
        } else {
            let (pp, pq, _) = posed[parent as usize];
            (add(pp, rotate(pq, p)), qmul(pq, q), s)
        });
    }
    skin(mesh, &posed)
}

fn scale_v(v: V, s: f64) -> V {
    scale(v, s)
}

/// The mesh's vertices with joints at `posed` (model space), or at the
/// md5mesh's bind pose when `posed` is empty.
fn skin(mesh: &str, posed: &[(V, Q, f64)]) -> Vec<Vec<V>> {
    let t = tokens(mesh);
    let nj: usize = t[t.iter().position(|x| x == "numJoints").unwrap() + 1]
        .parse()
        .unwrap();
    let j0 = t.iter().position(|x| x == "joints").unwrap() + 2;
    let bind: Vec<(V, Q, f64)> = (0..nj)
        .map(|i| {
            let e: Vec<f64> = t[j0 + 12 * i..j0 + 12 * i + 12]
                .iter()
                .filter_map(|x| x.parse().ok())
                .collect();
            // name parent ( x y z ) ( x y z ): numbers are parent, then 6.
            ([e[1], e[2], e[3]], from_stored([e[4], e[5], e[6]]), 1.0)
        })
        .collect();
    let joints = if posed.is_empty() { &bind[..] } else { posed };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(m) = t[i..].iter().position(|x| x == "mesh") {
        i += m + 1;
        let at = |key: &str, from: usize| from + t[from..].iter().position(|x| x == key).unwrap();
        let nv = at("numverts", i);
        let verts: usize = t[nv + 1].parse().unwrap();
        let vs: Vec<(usize, usize)> = (0..verts)
            .map(|k| {
                let e = &t[nv + 2 + 8 * k..nv + 2 + 8 * k + 8];
                (e[6].parse().unwrap(), e[7].parse().unwrap())
            })
            .collect();
        let nw = at("numweights", i);
        let count: usize = t[nw + 1].parse().unwrap();
        let ws: Vec<(usize, f64, V)> = (0..count)
            .map(|k| {
                let e = &t[nw + 2 + 9 * k..nw + 2 + 9 * k + 9];
                let f = |x: &String| x.parse::<f64>().unwrap();
                (
                    e[2].parse().unwrap(),
                    f(&e[3]),
                    [f(&e[5]), f(&e[6]), f(&e[7])],
                )
            })
            .collect();
        out.push(
            vs.iter()
                .map(|&(first, n)| {
                    ws[first..first + n]
                        .iter()
                        .fold([0.0; 3], |acc, (j, bias, p)| {
                            let (jp, jq, js) = joints[*j];
                            add(acc, scale(add(jp, scale(rotate(jq, *p), js)), *bias))
                        })
                })
                .collect(),
        );
        i = nw;
    }
    out
}

/// Every mesh's vertices in the md5mesh's bind pose (model space).
pub fn reference_bind(mesh: &str) -> Vec<Vec<V>> {
    skin(mesh, &[])
}

/// [`rig_md5scale`] as [`reference_pose`] takes it (by joint index).
pub fn rig_scale_table() -> Vec<(bool, Vec<(usize, f64)>)> {
    vec![
        (false, vec![]),
        (false, vec![]),
        (false, vec![(3, 1.5), (4, 2.0)]),
        (true, vec![(5, 0.5)]),
        (false, vec![]),
    ]
}
