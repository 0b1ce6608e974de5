//! File-system helpers shared by every layer: a safe open for reading (no final
//! symlink followed, no FIFO blocked on) and an atomic write. The lowest layer of the
//! pipeline: it imports nothing from the crate.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// Opens a path for reading without following a final symlink and without
/// blocking on a FIFO that might have been swapped in after the walk.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let f = o.open(path)?;
    let m = f.metadata()?;
    if !m.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(f)
}

/// A character device or a FIFO: written through in place, never replaced.
fn is_device_or_fifo(ft: &fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        ft.is_char_device() || ft.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = ft;
        false
    }
}

/// Writes what `fill` produces to `path`. A character device (`/dev/null`,
/// `/dev/stdout`) or a FIFO is written through in place and never replaced.
/// Anything else — a new file, a regular file, a symbolic link — is replaced
/// atomically (a temporary file in the same directory, fsync, rename): a reader
/// never sees a half-written report, and a symlink planted where the report goes
/// (for instance inside a scanned repository) is replaced, never followed.
pub fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if is_device_or_fifo(&m.file_type()) => {
            let f = fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(path)?;
            let mut w = io::BufWriter::new(f);
            fill(&mut w)?;
            return w.flush();
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("report");
    let tmp = dir.join(format!(".{name}.skillguard-{}.tmp", std::process::id()));
    let res = (|| {
        let f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        let mut w = io::BufWriter::new(f);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if res.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    res
}
