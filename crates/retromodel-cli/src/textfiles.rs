//! `convert --qc FILE` and `--modeldef FILE`: the text a mod's code needs
//! beside the model written, made from that file as written (its frame
//! names, skins and frame 0), worded here.

use crate::load::read_file;
use crate::output::{check_free, write_atomic_with};
use anyhow::{bail, Context, Result};
use retromodel::convert::OutputFormat;
use retromodel::textfiles::{modeldef, qc_frames, ModelFacts, ModeldefOptions};
use std::path::{Path, PathBuf};

/// The text files asked for.
#[derive(Debug, Clone, Default)]
pub struct TextFiles {
    /// `--qc FILE`.
    pub qc: Option<PathBuf>,
    /// `--modeldef FILE`.
    pub modeldef: Option<PathBuf>,
    /// `--modeldef-actor NAME`.
    pub actor: Option<String>,
    /// `--modeldef-height UNITS`.
    pub height: Option<f32>,
}

impl TextFiles {
    /// Refuses, before anything is converted, text files the output
    /// cannot have, and files that exist without `--force`.
    pub fn check(&self, format: OutputFormat, player: bool, force: bool) -> Result<()> {
        if self.qc.is_some() && !matches!(format, OutputFormat::Mdl | OutputFormat::Md2) {
            bail!("--qc writes the $frame list of .mdl or .md2 output");
        }
        if self.modeldef.is_some() {
            if !matches!(format, OutputFormat::Md2 | OutputFormat::Md3) {
                bail!("--modeldef writes the MODELDEF block of .md2 or .md3 output");
            }
            if player {
                bail!("--modeldef and --player: a Quake III player's three parts are not one GZDoom model");
            }
        }
        if let Some(actor) = &self.actor {
            if !retromodel::textfiles::modeldef::is_actor_name(actor) {
                bail!("--modeldef-actor {actor}: not a class name (letters, digits and _, not a digit first)");
            }
        }
        if let Some(h) = self.height {
            if !(h.is_finite() && h > 0.0) {
                bail!("--modeldef-height {h}: must be a height in map units above 0");
            }
        }
        let paths: Vec<PathBuf> = self.qc.iter().chain(&self.modeldef).cloned().collect();
        check_free(&paths, force)
    }

    /// Writes the files asked for, for the model written at `output`; the
    /// lines to print (warnings, and what was written).
    pub fn write(&self, output: &Path, force: bool, sync: bool) -> Result<Vec<String>> {
        if self.qc.is_none() && self.modeldef.is_none() {
            return Ok(Vec::new());
        }
        let bytes = read_file(output)?;
        let model = retromodel::Model::from_bytes(&bytes)
            .with_context(|| format!("{}: cannot read the model written", output.display()))?;
        let Some(facts) = ModelFacts::from_model(&model) else {
            bail!("{}: not a model with frames", output.display());
        };
        let file_name = output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut lines = Vec::new();
        if let Some(path) = &self.qc {
            let qc = qc_frames(&facts, &file_name);
            for note in &qc.notes {
                lines.push(format!("{}: warning: {}", path.display(), note));
            }
            write_atomic_with(path, force, sync, |w| w.write_all(qc.text.as_bytes()))?;
            lines.push(format!(
                "{}: {} frames in {} $frame lines",
                path.display(),
                qc.names.len(),
                qc.text.lines().filter(|l| l.starts_with("$frame ")).count()
            ));
        }
        if let Some(path) = &self.modeldef {
            let stem = output
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let actor = match &self.actor {
                Some(a) => a.clone(),
                None => actor_from_stem(&stem),
            };
            let mut options = ModeldefOptions::new(&actor, &file_name);
            if let Some(h) = self.height {
                options.height = h;
            }
            let m = modeldef(&facts, &options)
                .map_err(|e| anyhow::anyhow!("--modeldef {}: {e}", path.display()))?;
            write_atomic_with(path, force, sync, |w| w.write_all(m.text.as_bytes()))?;
            lines.push(format!(
                "{}: MODELDEF for actor {actor}, Path \"{}\"; Scale {:.4}, ZOffset {:.4}; sprite frames per animation:",
                path.display(),
                options.path,
                m.scale,
                m.z_offset
            ));
            for a in &m.sprites {
                lines.push(format!("  {}: {}", a.name, a.states()));
            }
        }
        Ok(lines)
    }
}

/// An actor class name from a file stem: letters, digits and `_`, not a
/// digit first (`Model` for nothing usable).
fn actor_from_stem(stem: &str) -> String {
    let mut name: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        name.insert(0, 'M');
    }
    name
}
