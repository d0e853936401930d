//! Every MD3 in OpenArena's pk3 files (Debian's `openarena-data` and
//! `openarena-081-players`): it reads, rewrites byte for byte, agrees with
//! the test kit's independent reader, passes ioquake3's loader checks
//! (OpenArena runs on an ioquake3 engine), and every truncated prefix
//! sampled errors cleanly. A few are cross-checked with assimp's MD3
//! importer when assimp is installed.

use retromodel::md3::{Layout, Md3, MD3_XYZ_SCALE};
use retromodel::{Engine, Format, Model, Severity};
use retromodel_testkit::md3_facts::{md3_facts, Md3Facts};
use retromodel_testkit::openarena::{md3_files, openarena_dir, Pk3Entry};

fn files() -> Option<Vec<Pk3Entry>> {
    let dir = openarena_dir()?;
    let files = md3_files(&dir);
    assert!(
        !files.is_empty(),
        "no .md3 in the pk3 files of {}",
        dir.display()
    );
    Some(files)
}

/// The library's model against the independent reader's facts.
fn agree(key: &str, m: &Md3, f: &Md3Facts) {
    assert_eq!(m.name.as_bytes(), f.name, "{key}: name");
    assert_eq!(m.frames.len() as i32, f.num_frames, "{key}: frames");
    assert_eq!(m.num_tags, f.num_tags, "{key}: tags");
    let names: Vec<&[u8]> = m.frames.iter().map(|fr| fr.name.as_bytes()).collect();
    assert_eq!(names, f.frame_names, "{key}: frame names");
    assert_eq!(
        m.frames.first().map(|fr| fr.radius.to_bits()),
        f.first_radius.map(f32::to_bits),
        "{key}: radius"
    );
    let tags: Vec<&[u8]> = m
        .frame_tags(0)
        .unwrap_or(&[])
        .iter()
        .map(|t| t.name.as_bytes())
        .collect();
    assert_eq!(tags, f.tag_names, "{key}: tag names");
    assert_eq!(
        m.tags.first().map(|t| t.origin),
        f.first_tag_origin,
        "{key}: tag origin"
    );
    assert_eq!(m.surfaces.len(), f.surfaces.len(), "{key}: surfaces");
    for (i, (s, e)) in m.surfaces.iter().zip(&f.surfaces).enumerate() {
        let p = format!("{key}: surfaces[{i}]");
        assert_eq!(s.name.as_bytes(), e.name, "{p}.name");
        assert_eq!(s.num_frames, e.num_frames, "{p}.num_frames");
        assert_eq!(s.vertex_count() as i32, e.num_verts, "{p}.num_verts");
        assert_eq!(
            s.triangles.len() as i32,
            e.num_triangles,
            "{p}.num_triangles"
        );
        let shaders: Vec<&[u8]> = s.shaders.iter().map(|h| h.name.as_bytes()).collect();
        assert_eq!(shaders, e.shaders, "{p}.shaders");
        assert_eq!(
            s.triangles.first().copied(),
            e.first_triangle,
            "{p}.triangles[0]"
        );
        assert_eq!(s.texcoords.first().copied(), e.first_st, "{p}.texcoords[0]");
        let raw = |v: &retromodel::md3::XyzNormal| (v.xyz, v.normal.to_le_bytes());
        assert_eq!(
            s.xyz_normals.first().map(raw),
            e.first_xyz,
            "{p} first vertex"
        );
        assert_eq!(s.xyz_normals.last().map(raw), e.last_xyz, "{p} last vertex");
        if let (Some(v), Some((xyz, n))) = (s.xyz_normals.first(), e.first_xyz) {
            // Position = i16 / 64; latitude is the second byte, longitude
            // the first (ioquake3's `LerpMeshVertexes`).
            assert_eq!(v.position(), xyz.map(|c| f32::from(c) / 64.0), "{p}");
            assert_eq!((v.lat(), v.lng()), (n[1], n[0]), "{p}");
        }
    }
}

/// How long the file is without the bytes after its last section.
fn covered_len(m: &Md3, len: usize) -> usize {
    match m.unclaimed.last() {
        Some(u) if u.offset as usize + u.bytes.len() == len => u.offset as usize,
        _ => len,
    }
}

#[test]
fn every_openarena_md3_reads_rewrites_exactly_and_agrees_with_an_independent_reader() {
    let Some(files) = files() else { return };
    let (mut standard_same, mut unclaimed, mut surfaces, mut frames) = (0, 0, 0, 0);
    let mut over_ioq3 = Vec::new();
    for file in &files {
        let key = &file.key;
        let b = &file.bytes;
        let m = Md3::from_bytes(b).unwrap_or_else(|e| panic!("{key}: {e}"));
        assert_eq!(
            m.to_bytes_with(Layout::Original).unwrap(),
            *b,
            "{key}: Original layout is not byte-exact"
        );
        let facts = md3_facts(b).unwrap_or_else(|| panic!("{key}: the independent reader fails"));
        agree(key, &m, &facts);

        // The packed layout reads back to the same model.
        let packed = m.to_bytes().unwrap();
        let again = Md3::from_bytes(&packed).unwrap();
        assert_eq!(again.frames, m.frames, "{key}");
        assert_eq!(again.tags, m.tags, "{key}");
        for (a, s) in again.surfaces.iter().zip(&m.surfaces) {
            assert_eq!(
                (&a.shaders, &a.triangles, &a.xyz_normals),
                (&s.shaders, &s.triangles, &s.xyz_normals),
                "{key}"
            );
            assert_eq!(a.texcoords.len(), s.texcoords.len());
        }
        assert!(again.unclaimed.is_empty(), "{key}");
        standard_same += usize::from(packed == *b);
        unclaimed += usize::from(!m.unclaimed.is_empty());
        surfaces += m.surfaces.len();
        frames += m.frames.len();

        // Through the format-neutral entry point.
        assert_eq!(Format::detect(b).unwrap(), Format::Md3, "{key}");
        let model = Model::from_bytes(b).unwrap();
        assert_eq!(model.to_bytes().unwrap(), *b, "{key}");
        let _ = model.info(b, &[]).to_string();

        // No structural error.
        let errors: Vec<String> = m
            .validate()
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        assert!(errors.is_empty(), "{key}: {errors:#?}");
        // ioquake3's loader refuses exactly the surfaces the independent
        // reader counts 1000 vertices or 2000 triangles in (OpenArena's
        // own engine raised those limits).
        let refused: Vec<String> = m
            .validate_for(Engine::Ioquake3)
            .into_iter()
            .map(|p| p.path)
            .collect();
        let expected: Vec<String> = facts
            .surfaces
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                let v = (s.num_verts >= 1000).then(|| format!("surfaces[{i}].num_verts"));
                let t = (s.num_triangles >= 2000).then(|| format!("surfaces[{i}].num_triangles"));
                v.into_iter().chain(t)
            })
            .collect();
        assert_eq!(refused, expected, "{key}");
        // ET: Legacy's raised limits take every one.
        let et = m.validate_for(Engine::Etlegacy);
        assert!(et.is_empty(), "{key}: {et:?}");
        // Ironwail and vkQuake (which load MD3 in place of a Quake MDL)
        // stop only on the tags-only models: no surface.
        for engine in [Engine::Ironwail, Engine::Vkquake] {
            let paths: Vec<String> = m.validate_for(engine).into_iter().map(|p| p.path).collect();
            let expected: Vec<&str> = if facts.surfaces.is_empty() {
                vec!["header.num_surfaces"]
            } else {
                vec![]
            };
            assert_eq!(paths, expected, "{key}: {engine}");
        }
        if !refused.is_empty() {
            over_ioq3.push(key.clone());
        }
    }
    eprintln!(
        "{} OpenArena MD3 files ({surfaces} surfaces, {frames} frames): all byte-exact; {standard_same} also in the packed layout, {unclaimed} with bytes outside any section; {} past ioquake3's loader limits: {over_ioq3:?}",
        files.len(),
        over_ioq3.len()
    );
}

#[test]
fn every_truncated_prefix_errors_cleanly() {
    let Some(files) = files() else { return };
    let mut tried = 0usize;
    for file in &files {
        let b = &file.bytes;
        let m = Md3::from_bytes(b).unwrap();
        let end = covered_len(&m, b.len());
        // Every length below the header, about 16 evenly spaced, the last
        // few bytes, and one byte either side of every section's start.
        let step = (end / 16).max(1);
        let mut starts = vec![
            m.offsets.frames as usize,
            m.offsets.tags as usize,
            m.offsets.surfaces as usize,
        ];
        let mut base = m.offsets.surfaces as usize;
        for sf in &m.surfaces {
            let o = sf.offsets;
            for ofs in [0, o.triangles, o.shaders, o.texcoords, o.xyz_normals] {
                starts.push(base + ofs as usize);
            }
            base += o.end as usize;
        }
        let lens: Vec<usize> = (0..end.min(110))
            .chain((110..end).step_by(step))
            .chain(end.saturating_sub(8)..end)
            .chain(starts.iter().flat_map(|&s| [s.saturating_sub(1), s, s + 1]))
            .filter(|&l| l < end)
            .collect();
        for len in lens {
            tried += 1;
            match Md3::from_bytes(&b[..len]) {
                Err(e) => {
                    let _ = e.to_string();
                }
                Ok(_) => panic!("{}: the {len}-byte prefix reads", file.key),
            }
        }
    }
    eprintln!("{tried} truncated prefixes, every one an error");
}

#[cfg(feature = "scene")]
#[test]
fn every_openarena_md3_lifts_to_a_scene() {
    let Some(files) = files() else { return };
    let (mut agree, mut disagree) = (0usize, 0usize);
    for file in files.iter().step_by(7) {
        let m = Md3::from_bytes(&file.bytes).unwrap();
        let scene = Model::Md3(m.clone())
            .to_scene(&retromodel::scene::SceneOptions::default())
            .unwrap();
        assert_eq!(scene.meshes.len(), m.surfaces.len(), "{}", file.key);
        for (mesh, s) in scene.meshes.iter().zip(&m.surfaces) {
            assert_eq!(mesh.positions.len(), s.vertex_count());
            assert_eq!(mesh.indices.len(), 3 * s.triangles.len());
            let targets = if m.frames.len() > 1 {
                m.frames.len()
            } else {
                0
            };
            assert_eq!(mesh.morph_targets.len(), targets);
            // The winding (counter-clockwise in the scene) and the stored
            // normals (decoded by lat/long) agree: each triangle's face
            // normal points the way its corners' normals do.
            for t in mesh.indices.chunks(3) {
                let [a, b, c] = [0, 1, 2].map(|k| mesh.positions[t[k] as usize]);
                let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
                let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
                let face = [
                    e1[1] * e2[2] - e1[2] * e2[1],
                    e1[2] * e2[0] - e1[0] * e2[2],
                    e1[0] * e2[1] - e1[1] * e2[0],
                ];
                let n: [f32; 3] =
                    [0, 1, 2].map(|k| (0..3).map(|j| mesh.normals[t[j] as usize][k]).sum());
                let dot: f32 = (0..3).map(|k| face[k] * n[k]).sum();
                agree += usize::from(dot > 0.0);
                disagree += usize::from(dot < 0.0);
            }
        }
    }
    eprintln!("{agree} triangles face their normals' way, {disagree} do not");
    assert!(agree > 20 * disagree, "{agree} agree, {disagree} do not");
}

/// What `assimp info -raw` says of a file.
type AssimpInfo = (Vec<(usize, usize)>, [f32; 3], [f32; 3]);

/// `assimp info -raw`: (faces, vertices) per mesh, and the minimum and
/// maximum point.
fn assimp_info(path: &std::path::Path) -> Option<AssimpInfo> {
    let out = std::process::Command::new("assimp")
        .arg("info")
        .arg(path)
        .arg("-raw")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let point = |label: &str| -> Option<[f32; 3]> {
        let line = text.lines().find(|l| l.starts_with(label))?;
        let inner = line.split('(').nth(1)?.trim_end_matches(')');
        let v: Vec<f32> = inner
            .split_whitespace()
            .filter_map(|t| t.parse().ok())
            .collect();
        Some([*v.first()?, *v.get(1)?, *v.get(2)?])
    };
    let mut meshes = Vec::new();
    let mut in_meshes = false;
    for line in text.lines() {
        if line.starts_with("Meshes:  (name)") {
            in_meshes = true;
            continue;
        }
        if in_meshes {
            let Some(inner) = line.split('[').nth(1) else {
                break;
            };
            let nums: Vec<usize> = inner
                .split(['/', '|'])
                .filter_map(|t| t.trim().parse().ok())
                .collect();
            meshes.push((*nums.get(2)?, *nums.first()?));
        }
    }
    Some((meshes, point("Minimum point")?, point("Maximum point")?))
}

#[test]
fn counts_and_bounds_agree_with_assimp() {
    if std::process::Command::new("assimp")
        .arg("version")
        .output()
        .is_err()
    {
        eprintln!("note: assimp not installed; skipping");
        return;
    }
    let Some(files) = files() else { return };
    let dir = std::env::temp_dir().join(format!("retromodel-md3-assimp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for file in files.iter().step_by(5) {
        let m = Md3::from_bytes(&file.bytes).unwrap();
        if m.surfaces.is_empty() {
            // A tags-only model (a hand's `tag_weapon`): assimp imports no
            // scene from it.
            continue;
        }
        let stem = file.key.rsplit('/').next().unwrap_or("");
        if ["lower", "upper", "head"]
            .iter()
            .any(|p| stem.starts_with(p))
        {
            // assimp joins a player's three parts into one scene (its
            // `AI_CONFIG_IMPORT_MD3_HANDLE_MULTIPART`, on by default).
            continue;
        }
        let path = dir.join(format!("m{checked}.md3"));
        std::fs::write(&path, &file.bytes).unwrap();
        let (meshes, lo, hi) = assimp_info(&path).unwrap_or_else(|| panic!("{}: assimp", file.key));
        // assimp makes meshes of every surface's triangles, from frame 0
        // (in its own order, and sometimes split: so the totals are
        // compared; its vertex count depends on its own welding).
        let faces: usize = meshes.iter().map(|m| m.0).sum();
        let ours: usize = m.surfaces.iter().map(|s| s.triangles.len()).sum();
        assert_eq!(faces, ours, "{}", file.key);
        assert!(meshes.len() >= m.surfaces.len(), "{}", file.key);
        let (mut min, mut max) = ([f32::MAX; 3], [f32::MIN; 3]);
        for s in &m.surfaces {
            let frame0 = s.frame(0).unwrap();
            for &i in s.triangles.iter().flatten() {
                let p = frame0[i as usize].position();
                for k in 0..3 {
                    min[k] = min[k].min(p[k]);
                    max[k] = max[k].max(p[k]);
                }
            }
        }
        // assimp's MD3 importer turns Quake's Z up into Y up: (x, z, −y).
        let (min, max) = ([min[0], min[2], -max[1]], [max[0], max[2], -min[1]]);
        for k in 0..3 {
            // assimp prints six decimals; 1/64 steps are exact in them.
            assert!(
                (min[k] - lo[k]).abs() < MD3_XYZ_SCALE / 8.0,
                "{}: {min:?} {lo:?}",
                file.key
            );
            assert!(
                (max[k] - hi[k]).abs() < MD3_XYZ_SCALE / 8.0,
                "{}: {max:?} {hi:?}",
                file.key
            );
        }
        checked += 1;
    }
    std::fs::remove_dir_all(&dir).ok();
    eprintln!("{checked} files agree with assimp");
}

#[test]
fn every_openarena_lod_matches_its_model() {
    let Some(files) = files() else { return };
    // By path inside the pk3s (a later pk3 overrides an earlier one, as in
    // the game).
    let mut by_path = std::collections::BTreeMap::new();
    for f in &files {
        let path = f.key.split_once(':').unwrap().1.to_ascii_lowercase();
        by_path.insert(path, f);
    }
    let (mut sets, mut lods, mut flagged) = (0, 0, 0);
    for (path, base) in &by_path {
        let names = retromodel::md3::lod_file_names(path);
        if names[0] != *path {
            continue;
        }
        let m = Md3::from_bytes(&base.bytes).unwrap();
        let base_facts = md3_facts(&base.bytes).unwrap();
        let mut found = 0;
        for (level, name) in names.iter().enumerate().skip(1) {
            let Some(lod) = by_path.get(name) else {
                continue;
            };
            found += 1;
            let l = Md3::from_bytes(&lod.bytes).unwrap();
            let facts = md3_facts(&lod.bytes).unwrap();
            let problems = m.check_lod(&l, level);
            // Warnings (ioquake3 loads every one of them: R_LoadMD3
            // compares no LOD with another) exactly where the independent
            // reader counts other frames; never an error.
            let frames_differ = facts.num_frames != base_facts.num_frames
                || facts
                    .surfaces
                    .iter()
                    .any(|s| s.num_frames != base_facts.num_frames);
            let errors = problems.iter().any(|p| p.severity == Severity::Error);
            assert!(!errors, "{name}: {problems:?}");
            let frames_warned = problems.iter().any(|p| p.path.ends_with("num_frames"));
            assert_eq!(frames_warned, frames_differ, "{name}: {problems:?}");
            let sorted = |v: &[Vec<u8>]| {
                let mut v = v.to_vec();
                v.sort();
                v
            };
            let tags_differ = sorted(&facts.tag_names) != sorted(&base_facts.tag_names);
            let warned = problems.iter().any(|p| p.path.ends_with(".tags"));
            assert_eq!(warned, tags_differ, "{name}: {problems:?}");
            flagged += usize::from(!problems.is_empty());
        }
        sets += usize::from(found > 0);
        lods += found;
    }
    eprintln!("{sets} OpenArena models with LODs ({lods} LOD files, {flagged} with problems)");
    assert!(sets > 0, "no LOD found");
}

/// A sample of OpenArena's models converted to `.glb` pass the Khronos
/// validator with no error and no warning. Skipped without
/// `acceptance/node_modules` (`cd acceptance && npm ci`).
#[cfg(feature = "gltf")]
#[test]
fn openarena_glbs_pass_the_khronos_validator() {
    use retromodel::convert::{ConvertOptions, Converter, OutputFormat};
    let acceptance = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../acceptance");
    if !acceptance.join("node_modules/gltf-validator").is_dir() {
        eprintln!("skipped: no acceptance/node_modules (cd acceptance && npm ci)");
        return;
    }
    let Some(files) = files() else { return };
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("md3_glb");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let options = ConvertOptions::default();
    let mut written = 0;
    for (i, file) in files.iter().enumerate().step_by(25) {
        let conversion = Converter::new(&options)
            .convert(&file.bytes, "m.md3", OutputFormat::Glb, "m.glb")
            .unwrap_or_else(|e| panic!("{}: {e}", file.key));
        let bytes = conversion.files().unwrap().last().unwrap().to_vec();
        std::fs::write(dir.join(format!("m{i}.glb")), bytes).unwrap();
        written += 1;
    }
    let out = std::process::Command::new("node")
        .arg(acceptance.join("validate.mjs"))
        .arg(&dir)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "validator: {text}");
    assert!(text.contains(" 0 errors, 0 warnings"), "{text}");
    eprintln!("{written} glbs: {}", text.lines().last().unwrap_or(""));
}
