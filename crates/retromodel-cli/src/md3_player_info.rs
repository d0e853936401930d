//! `info models/players/NAME/`: a Quake III player's folder at a glance:
//! each part (frames, surfaces, tags, levels of detail), `animation.cfg`
//! (every line with the frames it plays in its part's file, as the game
//! reads it) and the skin sets.

use std::path::Path;

use anyhow::{Context, Result};
use retromodel::md3::{lod_file_names, AnimationCfg, Md3, Part};
use serde_json::{json, Value};

use crate::md3_files::find;

/// The player in `folder` as one JSON value (what `--json` prints; the
/// text is made from it).
pub fn player_info(folder: &Path) -> Result<Value> {
    let mut parts = Vec::new();
    for name in ["lower.md3", "upper.md3", "head.md3"] {
        let path =
            find(folder, name).with_context(|| format!("{}: no {name}", folder.display()))?;
        let bytes =
            std::fs::read(&path).with_context(|| format!("{}: cannot read", path.display()))?;
        let m =
            Md3::from_bytes(&bytes).with_context(|| format!("{}: cannot read", path.display()))?;
        let lods: Vec<Value> = lod_file_names(name)
            .iter()
            .skip(1)
            .filter_map(|n| find(folder, n))
            .map(|p| {
                let frames = std::fs::read(&p)
                    .ok()
                    .and_then(|b| Md3::from_bytes(&b).ok())
                    .map(|l| l.frames.len());
                json!({ "file": crate::load::file_name(&p), "frames": frames })
            })
            .collect();
        parts.push(json!({
            "file": name,
            "frames": m.frames.len(),
            "surfaces": m.surfaces.iter().map(|s| json!({
                "name": s.name.to_string_lossy(),
                "vertices": s.vertex_count(),
                "triangles": s.triangles.len(),
            })).collect::<Vec<_>>(),
            "tags": m.frame_tags(0).unwrap_or(&[]).iter().map(|t| t.name.to_string_lossy()).collect::<Vec<_>>(),
            "lods": lods,
        }));
    }
    let cfg = find(folder, "animation.cfg")
        .map(|p| std::fs::read(&p).map(|b| AnimationCfg::parse(&b)))
        .transpose()?;
    let cfg = match cfg {
        None => Value::Null,
        Some(Err(e)) => json!({ "error": e.to_string() }),
        Some(Ok(cfg)) => json!({
            "sex": cfg.sex.map(String::from),
            "footsteps": cfg.footsteps,
            "headoffset": cfg.head_offset,
            "fixedlegs": cfg.fixed_legs,
            "fixedtorso": cfg.fixed_torso,
            "animations": cfg.animations.iter().enumerate().map(|(i, a)| json!({
                "name": a.name,
                "first_frame": a.first_frame,
                "num_frames": a.num_frames,
                "looping_frames": a.looping_frames,
                "fps": a.fps,
                "first_frame_in_part": cfg.first_frame_in_part(i),
                "files": match a.part() {
                    Part::Both => vec!["lower.md3", "upper.md3"],
                    Part::Legs => vec!["lower.md3"],
                    Part::Torso => vec!["upper.md3"],
                },
            })).collect::<Vec<_>>(),
        }),
    };
    let mut skins: Vec<String> = std::fs::read_dir(folder)?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().to_ascii_lowercase();
            n.strip_prefix("lower_")?
                .strip_suffix(".skin")
                .map(str::to_string)
        })
        .collect();
    skins.sort_by_key(|s| (s != "default", s.clone()));
    Ok(
        json!({ "player": folder.display().to_string(), "parts": parts, "animation_cfg": cfg, "skin_sets": skins }),
    )
}

/// The text `info` prints for a player.
pub fn player_text(v: &Value) -> String {
    use std::fmt::Write as _;
    let mut out = format!("{}: Quake III player\n", v["player"].as_str().unwrap_or(""));
    for p in v["parts"].as_array().into_iter().flatten() {
        let surfaces = p["surfaces"].as_array().map_or(0, Vec::len);
        let sum = |k: &str| -> u64 {
            p["surfaces"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s[k].as_u64())
                .sum()
        };
        let tags: Vec<&str> = p["tags"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let lods: Vec<String> = p["lods"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|l| {
                format!(
                    "{} ({} frames)",
                    l["file"].as_str().unwrap_or(""),
                    l["frames"]
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "  {:<13} {} frames, {surfaces} surfaces ({} vertices, {} triangles), tags {}{}",
            p["file"].as_str().unwrap_or(""),
            p["frames"],
            sum("vertices"),
            sum("triangles"),
            if tags.is_empty() {
                "none".to_string()
            } else {
                tags.join(", ")
            },
            if lods.is_empty() {
                String::new()
            } else {
                format!("; LODs {}", lods.join(", "))
            }
        );
    }
    let cfg = &v["animation_cfg"];
    if cfg.is_null() {
        out.push_str("  animation.cfg none (the game does not load the player without it)\n");
    } else if let Some(e) = cfg["error"].as_str() {
        let _ = writeln!(out, "  animation.cfg {e}");
    } else {
        let animations = cfg["animations"].as_array().map_or(&[][..], Vec::as_slice);
        let _ = writeln!(
            out,
            "  animation.cfg sex {}, footsteps {}; {} animations",
            cfg["sex"].as_str().unwrap_or("-"),
            cfg["footsteps"].as_str().unwrap_or("-"),
            animations.len()
        );
        for a in animations {
            let first = a["first_frame_in_part"].as_i64().unwrap_or(0);
            let count = a["num_frames"].as_i64().unwrap_or(0);
            let files: Vec<&str> = a["files"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let moved = if a["first_frame"].as_i64() != Some(first) {
                format!(" (written {})", a["first_frame"])
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "    {:<17} frames {first}..{} of {}{moved}{}{}, {} fps",
                a["name"].as_str().unwrap_or(""),
                first + count.abs(),
                files.join(" and "),
                if count < 0 { ", backwards" } else { "" },
                match a["looping_frames"].as_i64() {
                    Some(n) if n > 0 => format!(", looping {n}"),
                    _ => String::new(),
                },
                a["fps"]
            );
        }
    }
    let skins: Vec<&str> = v["skin_sets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let _ = writeln!(
        out,
        "  skins         {}",
        if skins.is_empty() {
            "none".to_string()
        } else {
            skins.join(", ")
        }
    );
    out
}
