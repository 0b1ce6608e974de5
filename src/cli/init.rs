//! `skillguard init`: the commented starter configuration.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{Error, ExitStatus};
use crate::fsutil::write_atomic;

#[derive(Debug, Args)]
pub struct InitCmd {
    /// Repository root to write `.skillguard.toml` into (default: the current directory).
    #[arg(long, value_name = "ROOT")]
    pub repo: Option<PathBuf>,
    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
}

/// `skillguard init`: the commented starter configuration, never over an existing file
/// without `--force`.
pub(super) fn run(cmd: &InitCmd, stderr: &mut dyn Write) -> Result<ExitStatus, Error> {
    let root = cmd.repo.clone().unwrap_or_else(|| PathBuf::from("."));
    if !root.is_dir() {
        return Err(Error::Usage(format!(
            "{} is not a directory",
            root.display()
        )));
    }
    let path = root.join(crate::config::FILE_NAME);
    if std::fs::symlink_metadata(&path).is_ok() && !cmd.force {
        return Err(Error::Usage(format!(
            "{} already exists; --force replaces it",
            path.display()
        )));
    }
    let _lock = crate::fsutil::lock_beside(&path).map_err(|source| Error::Output {
        path: path.display().to_string(),
        source,
    })?;
    write_atomic(&path, |w| w.write_all(crate::config::STARTER.as_bytes())).map_err(|source| {
        Error::Output {
            path: path.display().to_string(),
            source,
        }
    })?;
    writeln!(stderr, "skillguard: wrote {}", path.display())?;
    Ok(ExitStatus::Clean)
}
