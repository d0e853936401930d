//! What the text of a binary model cannot hold: the warnings of an MS3D →
//! MilkShape ASCII conversion.
//!
//! Names keep their bytes ([`Encoding`](super::Encoding)), key times and
//! the frame rate are exact, and 1.8's weights, joint colours, model
//! settings and material modes are kept in `//` lines MilkShape and
//! StepMania skip (see [the module documentation](super)). The rest is
//! listed here, each only when the model has it.

use super::AsciiModel;
use crate::ms3d::{ModelComment, Ms3d};
use crate::problem::{Problem, Severity};

/// How many indices a warning lists before `…`.
const LISTED: usize = 8;

/// `n` items, the first few of `indices` in parentheses: `3 (0, 4, 7)`.
fn listed(indices: &[usize]) -> String {
    let mut shown: Vec<String> = indices.iter().take(LISTED).map(usize::to_string).collect();
    if indices.len() > LISTED {
        shown.push("…".into());
    }
    format!("{} ({})", indices.len(), shown.join(", "))
}

fn warning(path: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        severity: Severity::Warning,
        path: path.into(),
        message: message.into(),
        offset: None,
    }
}

impl AsciiModel {
    /// What [`AsciiModel::from_ms3d`] of `model` cannot carry, each as a
    /// warning naming where and what (only what `model` has): triangles
    /// no group lists (dropped) or that several list (repeated), group
    /// indices that point nowhere, a triangle's group byte other than its
    /// group's, vertices no group uses when no group uses any (dropped),
    /// numbers that are not finite (written as 0), name characters the
    /// quotes cannot hold, empty names, bytes after a name's NUL, a
    /// fractional current time, the comments' subversion and layout and
    /// line breaks other than CRLF, vertex reference counts (recounted),
    /// a weight list of another length than the vertices, the file
    /// version and bytes after the known data.
    ///
    /// ```
    /// use retromodel::ms3d::{ascii::AsciiModel, sample::sample_model};
    ///
    /// let mut model = sample_model();
    /// model.current_time = 2.5;
    /// let losses = AsciiModel::losses(&model);
    /// assert!(losses.iter().any(|p| p.path == "current_time"));
    /// ```
    pub fn losses(model: &Ms3d) -> Vec<Problem> {
        let mut out = Vec::new();
        triangles(model, &mut out);
        vertices(model, &mut out);
        names(model, &mut out);
        numbers(model, &mut out);
        comments(model, &mut out);
        if model.version != 4 {
            out.push(warning(
                "version",
                format!("file version {} comes back as 4", model.version),
            ));
        }
        if !model.trailing.is_empty() {
            out.push(warning(
                "trailing",
                format!(
                    "{} bytes after the data retromodel reads are dropped",
                    model.trailing.len()
                ),
            ));
        }
        out
    }
}

fn triangles(model: &Ms3d, out: &mut Vec<Problem>) {
    let n = model.triangles.len();
    let mut listed_by: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (g, group) in model.groups.iter().enumerate() {
        let mut nowhere = Vec::new();
        for (k, &t) in group.triangles.iter().enumerate() {
            match listed_by.get_mut(usize::from(t)) {
                Some(by) => by.push(g),
                None => nowhere.push(k),
            }
        }
        if !nowhere.is_empty() {
            out.push(warning(
                format!("groups[{g}].triangles"),
                format!(
                    "{} triangle indices point nowhere and are dropped",
                    listed(&nowhere)
                ),
            ));
        }
    }
    let unlisted: Vec<usize> = (0..n).filter(|&t| listed_by[t].is_empty()).collect();
    if !unlisted.is_empty() {
        out.push(warning(
            "triangles",
            format!(
                "{} triangles no group lists are dropped (a text triangle belongs to a mesh)",
                listed(&unlisted)
            ),
        ));
    }
    let repeated: Vec<usize> = (0..n).filter(|&t| listed_by[t].len() > 1).collect();
    if !repeated.is_empty() {
        out.push(warning(
            "triangles",
            format!(
                "{} triangles listed more than once come back once per listing",
                listed(&repeated)
            ),
        ));
    }
    let regrouped: Vec<usize> = (0..n)
        .filter(|&t| {
            let own = usize::from(model.triangles[t].group);
            listed_by[t].first().is_some_and(|&g| g != own)
        })
        .collect();
    if !regrouped.is_empty() {
        out.push(warning(
            "triangles",
            format!(
                "{} triangles' group index is not the group that lists them: it becomes that group",
                listed(&regrouped)
            ),
        ));
    }
    let nowhere: Vec<usize> = (0..n)
        .filter(|&t| {
            model.triangles[t]
                .vertices
                .iter()
                .any(|&v| usize::from(v) >= model.vertices.len())
        })
        .collect();
    if !nowhere.is_empty() {
        out.push(warning(
            "triangles",
            format!(
                "{} triangles have a vertex index that points nowhere: it comes back as 65535",
                listed(&nowhere)
            ),
        ));
    }
}

fn vertices(model: &Ms3d, out: &mut Vec<Problem>) {
    let used = model.groups.iter().any(|g| {
        g.triangles.iter().any(|&t| {
            model.triangles.get(usize::from(t)).is_some_and(|t| {
                t.vertices
                    .iter()
                    .any(|&v| usize::from(v) < model.vertices.len())
            })
        })
    });
    if !used && !model.vertices.is_empty() {
        out.push(warning(
            "vertices",
            format!(
                "{} vertices are dropped: no group's triangle uses any (text vertices belong to meshes)",
                model.vertices.len()
            ),
        ));
    }
    let mut counts = vec![0u32; model.vertices.len()];
    for t in &model.triangles {
        let [a, b, c] = t.vertices;
        for (k, v) in [a, b, c].into_iter().enumerate() {
            let repeat = (k >= 1 && v == a) || (k == 2 && v == b);
            if let Some(n) = counts.get_mut(usize::from(v)).filter(|_| !repeat) {
                *n += 1;
            }
        }
    }
    let recounted: Vec<usize> = (0..model.vertices.len())
        .filter(|&v| u32::from(model.vertices[v].reference_count) != counts[v].min(255))
        .collect();
    if !recounted.is_empty() {
        out.push(warning(
            "vertices",
            format!(
                "{} vertices' reference counts are not the number of triangles using them: recounted",
                listed(&recounted)
            ),
        ));
    }
    if let Some(x) = &model.extras.vertices {
        if x.records.len() != model.vertices.len() {
            out.push(warning(
                "extras.vertices",
                format!(
                    "{} weight records for {} vertices: one per vertex comes back (bone ids −1, weights 0 for the missing)",
                    x.records.len(),
                    model.vertices.len()
                ),
            ));
        }
    }
}

fn names(model: &Ms3d, out: &mut Vec<Problem>) {
    let mut fields: Vec<(String, &[u8], &[u8], bool)> = Vec::new();
    for (i, g) in model.groups.iter().enumerate() {
        fields.push((
            format!("groups[{i}].name"),
            g.name.as_bytes(),
            &g.name.0,
            true,
        ));
    }
    for (i, m) in model.materials.iter().enumerate() {
        fields.push((
            format!("materials[{i}].name"),
            m.name.as_bytes(),
            &m.name.0,
            true,
        ));
        fields.push((
            format!("materials[{i}].texture"),
            m.texture.as_bytes(),
            &m.texture.0,
            false,
        ));
        fields.push((
            format!("materials[{i}].alphamap"),
            m.alphamap.as_bytes(),
            &m.alphamap.0,
            false,
        ));
    }
    for (i, j) in model.joints.iter().enumerate() {
        fields.push((
            format!("joints[{i}].name"),
            j.name.as_bytes(),
            &j.name.0,
            true,
        ));
        fields.push((
            format!("joints[{i}].parent"),
            j.parent.as_bytes(),
            &j.parent.0,
            false,
        ));
    }
    let mut after_nul: Vec<String> = Vec::new();
    for (path, name, field, item) in fields {
        if item && name.is_empty() {
            out.push(warning(
                path.clone(),
                "an empty name is written as \" \" (MilkShape's and StepMania's readers refuse \"\")",
            ));
        }
        if name.contains(&b'"') || name.contains(&b'\n') {
            out.push(warning(
                path.clone(),
                "a '\"' in it becomes ''' and a line feed a space (the text quotes names on one line)",
            ));
        }
        if field[name.len()..].iter().any(|&b| b != 0) {
            after_nul.push(path);
        }
    }
    if let Some(first) = after_nul.first() {
        // Leftovers of the writer's memory, common (Maverick leaves them
        // in every name): one warning for all of them.
        let mut shown: Vec<&str> = after_nul.iter().take(LISTED).map(String::as_str).collect();
        if after_nul.len() > LISTED {
            shown.push("…");
        }
        out.push(warning(
            first.clone(),
            format!(
                "{} name fields have bytes after their NUL, which come back as zeros ({})",
                after_nul.len(),
                shown.join(", ")
            ),
        ));
    }
}

fn numbers(model: &Ms3d, out: &mut Vec<Problem>) {
    let mut bad: Vec<String> = Vec::new();
    let mut check = |path: String, xs: &[f32]| {
        if xs.iter().any(|x| !x.is_finite()) {
            bad.push(path);
        }
    };
    for (i, v) in model.vertices.iter().enumerate() {
        check(format!("vertices[{i}].position"), &v.position);
    }
    for (i, t) in model.triangles.iter().enumerate() {
        check(format!("triangles[{i}].normals"), t.normals.as_flattened());
        check(format!("triangles[{i}].s"), &t.s);
        check(format!("triangles[{i}].t"), &t.t);
    }
    for (i, m) in model.materials.iter().enumerate() {
        let mut all = [m.ambient, m.diffuse, m.specular, m.emissive].concat();
        all.extend([m.shininess, m.transparency]);
        check(format!("materials[{i}]"), &all);
    }
    for (i, j) in model.joints.iter().enumerate() {
        check(format!("joints[{i}].position"), &j.position);
        check(format!("joints[{i}].rotation"), &j.rotation);
        for (what, keys) in [
            ("position_keys", &j.position_keys),
            ("rotation_keys", &j.rotation_keys),
        ] {
            for (k, key) in keys.iter().enumerate() {
                check(format!("joints[{i}].{what}[{k}]"), &[key.time]);
                check(format!("joints[{i}].{what}[{k}]"), &key.value);
            }
        }
    }
    if let Some(j) = &model.extras.joints {
        for (i, c) in j.colors.iter().enumerate() {
            check(format!("extras.joints.colors[{i}]"), c);
        }
    }
    if let Some(m) = &model.extras.model {
        check("extras.model".into(), &[m.joint_size, m.alpha_ref]);
    }
    if let Some(first) = bad.first() {
        out.push(warning(
            first.clone(),
            format!(
                "{} values that are not finite numbers are written as 0 (or, for a joint colour or the model extras, dropped); the first is here",
                bad.len()
            ),
        ));
    }
    if model.current_time.is_finite() && model.current_time.fract() != 0.0 {
        out.push(warning(
            "current_time",
            format!(
                "the current frame {} is written as {} (the text's Frame: is an integer)",
                model.current_time,
                model.current_time.trunc()
            ),
        ));
    }
}

fn comments(model: &Ms3d, out: &mut Vec<Problem>) {
    let Some(c) = &model.extras.comments else {
        return;
    };
    if c.subversion != 1 {
        out.push(warning(
            "extras.comments.subversion",
            format!("subversion {} comes back as 1", c.subversion),
        ));
    }
    if let ModelComment::IndexLengthText { .. } = c.model {
        out.push(warning(
            "extras.comments.model",
            "the model comment's index-length-text layout comes back as length-text (MilkShape 1.8.5's)",
        ));
    }
    if let ModelComment::None(flag) = c.model {
        if flag != 0 {
            out.push(warning(
                "extras.comments.model",
                format!("the model-comment flag {flag} comes back as 0"),
            ));
        }
    }
    let changes = |t: &[u8]| {
        let s = t.windows(2).filter(|w| w == b"\r\n").count();
        let cr = t.iter().filter(|&&b| b == b'\r').count();
        let lf = t.iter().filter(|&&b| b == b'\n').count();
        cr != s || lf != s || t.windows(2).any(|w| w == b"\\n")
    };
    let lists = [
        ("extras.comments.groups", &c.groups),
        ("extras.comments.materials", &c.materials),
        ("extras.comments.joints", &c.joints),
    ];
    for (path, list) in lists {
        for (i, cm) in list.iter().enumerate() {
            if changes(&cm.text) {
                out.push(warning(
                    format!("{path}[{i}]"),
                    "a lone CR or LF, or a literal \\n, comes back as CRLF (the text writes line breaks as \\n)",
                ));
            }
        }
    }
    if c.model.text().is_some_and(changes) {
        out.push(warning(
            "extras.comments.model",
            "a lone CR or LF, or a literal \\n, comes back as CRLF (the text writes line breaks as \\n)",
        ));
    }
}
