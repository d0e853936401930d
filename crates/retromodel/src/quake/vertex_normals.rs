//! Vertex normals from faces, as id's model tools (qdata, modelgen) make
//! them for Quake's MDL and Quake II's MD2 frames.

/// `v` scaled to unit length, or the zero vector for a zero or non-finite
/// one.
fn normalize(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 0.0 && len.is_finite() {
        [v[0] / len, v[1] / len, v[2] / len]
    } else {
        [0.0; 3]
    }
}

/// Vertex normals as qdata makes them: the normalised mean of the unit
/// normals of the faces around each vertex (triangles with an index out of
/// range are skipped; a vertex on no face gets the zero vector).
///
/// `clockwise` says which winding faces outwards; Quake II's triangles are
/// clockwise seen from the front, as Quake's MDL triangles are.
///
/// ```
/// use retromodel::quake::vertex_normals;
/// let p = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
/// let n = vertex_normals(&p, &[[0, 1, 2]], false);
/// assert_eq!(n[0], [0.0, 0.0, 1.0]);
/// let n = vertex_normals(&p, &[[0, 1, 2]], true);
/// assert_eq!(n[2], [0.0, 0.0, -1.0]);
/// ```
pub fn vertex_normals(
    positions: &[[f32; 3]],
    triangles: &[[u16; 3]],
    clockwise: bool,
) -> Vec<[f32; 3]> {
    let mut sums = vec![[0.0f32; 3]; positions.len()];
    for tri in triangles {
        let (Some(a), Some(b), Some(c)) = (
            positions.get(tri[0] as usize),
            positions.get(tri[1] as usize),
            positions.get(tri[2] as usize),
        ) else {
            continue;
        };
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let mut n = normalize([
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ]);
        if clockwise {
            n = [-n[0], -n[1], -n[2]];
        }
        for &i in tri {
            let s = &mut sums[i as usize];
            for k in 0..3 {
                s[k] += n[k];
            }
        }
    }
    sums.into_iter().map(normalize).collect()
}
