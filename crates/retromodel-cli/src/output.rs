//! Writing output files safely: every file checked free first (unless
//! `--force`), then each written to a temporary file in the destination
//! folder and renamed into place, so a failure never leaves a partial
//! file and an existing file is only replaced when the user said
//! `--force`.
//!
//! With `sync` (`--sync`), each file's data also reaches the disk before
//! the rename, so that not even a power cut can leave an empty or partial
//! output behind. It is off by default, as for `cp` and most converters:
//! it costs a disk flush per file (about 2 ms here, as long as the whole
//! rest of a one-model conversion).

use anyhow::{bail, Context, Result};
use retromodel::convert::OutputFile;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Whether `path` exists (as anything, a dangling symbolic link too).
pub fn exists(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

/// The one check that outputs may be written: without `force`, fails
/// naming the first of `paths` that exists.
pub fn check_free(paths: &[PathBuf], force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    if let Some(path) = paths.iter().find(|p| exists(p)) {
        bail!(
            "{}: already exists (use --force to replace it)",
            path.display()
        );
    }
    Ok(())
}

/// Writes every file of a conversion into `dir`, the main one (the last)
/// last, so that it only appears once its companions do.
pub fn write_files(dir: &Path, files: &[OutputFile], force: bool, sync: bool) -> Result<()> {
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.join(&f.name)).collect();
    check_free(&paths, force)?;
    for (file, path) in files.iter().zip(&paths) {
        // Files in a folder beside the main one (the rerelease's `md5/`).
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("{}: cannot create the folder", parent.display()))?;
        }
        write_atomic_with(path, force, sync, |w| file.write_to(w))?;
    }
    Ok(())
}

/// Writes what `write` produces (through a buffer) to `path` atomically:
/// a temporary file renamed into place, replacing `path` only with
/// `force` (else the rename fails if `path` appeared meanwhile). With
/// `sync`, the data is flushed to disk before the rename.
pub(crate) fn write_atomic_with(
    path: &Path,
    force: bool,
    sync: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".retromodel-").suffix(".tmp");
    // Temporary files are private (0600); an output is an ordinary file
    // (0666 less the umask), as `cp` or a shell redirection would make it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(dir)
        .with_context(|| format!("{}: cannot create a temporary file", dir.display()))?;
    let written = {
        let mut buffered = BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        write(&mut buffered).and_then(|_| buffered.flush())
    };
    written
        .and_then(|_| {
            if sync {
                tmp.as_file().sync_all()
            } else {
                Ok(())
            }
        })
        .with_context(|| format!("{}: cannot write", tmp.path().display()))?;
    if force {
        tmp.persist(path)
            .map_err(|e| e.error)
            .with_context(|| format!("{}: cannot replace", path.display()))?;
    } else {
        tmp.persist_noclobber(path)
            .map_err(|e| e.error)
            .with_context(|| {
                format!(
                    "{}: cannot create (it may already exist; use --force)",
                    path.display()
                )
            })?;
    }
    Ok(())
}
