//! Writing output files safely: to a temporary file in the destination
//! folder, then renamed into place, so a failure never leaves a partial
//! file; an existing file is only replaced when the user said `--force`.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically. Without `force`, fails when `path`
/// exists (also when it appears while writing).
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    if !force && path.symlink_metadata().is_ok() {
        bail!(
            "{}: already exists (use --force to replace it)",
            path.display()
        );
    }
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
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
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
