//! File-system helpers shared by every layer: a safe open for reading (no final
//! symlink followed, no FIFO blocked on) and an atomic write. The lowest layer of the
//! pipeline: it imports nothing from the crate.
//!
//! Every atomic write of skillguard goes through one routine: [`stage`]
//! writes a temporary file beside the destination and fsyncs it, [`Staged::replace`]
//! renames it into place (or [`Staged::create`] links it, never replacing), and
//! [`sync_dir`] fsyncs the folder; [`write_atomic`] and [`write_replacing`] do all three.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The start of every temporary file skillguard writes: `.skillguard-tmp-PID-NANOS-SEQ-NAME`
/// beside the file NAME it becomes (NAME cut to 100 bytes). A writer killed mid-write
/// leaves one behind; the ledger removes its own on the next append, and the walk never
/// counts a ledger's as a skill's file.
pub const TMP_PREFIX: &str = ".skillguard-tmp-";

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

/// Opens a file the operator named on the command line (`--config`, `--accepted`, shard
/// reports, `--evals`, `--trace`, pin files, evals files and transcripts): a symbolic link is
/// followed, since the operator chose the path (Kubernetes mounts a ConfigMap as links),
/// unlike the files of a scanned repository ([`open_regular`]). What it reaches must still
/// be a regular file, and a FIFO never blocks the open.
pub fn open_named(path: &Path) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(f)
}

/// [`open_regular`], with a refused link said in words instead of the OS's "too many levels
/// of symbolic links": a file of a scanned repository is never read through a link.
pub fn open_regular_explained(path: &Path) -> io::Result<File> {
    open_regular(path).map_err(|e| {
        let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        if link {
            io::Error::other(
                "it is a symbolic link, which skillguard does not follow in a scanned repository (name the file on the command line to use it)",
            )
        } else {
            e
        }
    })
}

/// Reads a regular file of at most `limit` bytes, never through a final symlink and never
/// blocking on a FIFO ([`open_regular_explained`]). Errors say what went wrong in words: a
/// symbolic link (not followed), not a regular file, larger than the limit, or the OS error.
pub fn read_regular_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_bounded(open_regular_explained(path)?, limit)
}

/// Reads a file the operator named ([`open_named`]: a link is followed) of at most `limit`
/// bytes.
pub fn read_named_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_bounded(open_named(path)?, limit)
}

fn read_bounded(f: File, limit: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut buf = Vec::new();
    f.take(limit + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(io::Error::other(format!("it is larger than {limit} bytes")));
    }
    Ok(buf)
}

/// Takes an exclusive lock for read-modify-write updates of `path`, which is then replaced
/// by [`write_atomic`]. The lock ends when the returned file is dropped, also when the
/// process dies, so a `kill -9` never leaves it held.
///
/// On Unix the lock is the operating system's lock (`flock`) on the folder holding `path`:
/// nothing is created, so no lock file is left in a repository for `git add -A` to commit.
/// The file itself cannot carry the lock, since the atomic write replaces it
/// with another inode. Every writer of that folder's files through this function is
/// serialised, which costs nothing (they are small, rare writes). Elsewhere it is a
/// sidecar file `.NAME.lock` beside `path` (never through a link).
pub fn lock_beside(path: &Path) -> io::Result<File> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    #[cfg(unix)]
    {
        let f = File::open(dir)?;
        if !f.metadata()?.is_dir() {
            return Err(io::Error::other(format!(
                "{} is not a directory",
                dir.display()
            )));
        }
        f.lock()?;
        Ok(f)
    }
    #[cfg(not(unix))]
    lock_sidecar(dir, path)
}

#[cfg(not(unix))]
fn lock_sidecar(dir: &Path, path: &Path) -> io::Result<File> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let lock = dir.join(format!(".{name}.lock"));
    let mut o = OpenOptions::new();
    o.read(true).write(true).create(true).truncate(false);
    let f = o.open(&lock)?;
    f.lock()?;
    Ok(f)
}

/// Checks, before any work is done, that [`write_atomic`] can write `path`: not a folder
/// nor a block device, and its folder exists and takes a new file (a probe file is created
/// there and removed at once). A device, a FIFO or a socket (or a link to one) is accepted
/// without being opened: opening a FIFO would block until a reader comes.
pub fn check_writable(path: &Path) -> io::Result<()> {
    if let Some(why) = redirected(path) {
        return Err(io::Error::other(why));
    }
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => return Err(io::Error::other("it is a directory")),
        Ok(m) if is_block_device(&m.file_type()) => {
            return Err(io::Error::other(
                "refusing to write a report to a block device",
            ));
        }
        Ok(m) if is_device_or_fifo(&m.file_type()) => return Ok(()),
        _ => {}
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(io::Error::other(format!(
                "{} is not a directory",
                dir.display()
            )));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the directory {} does not exist", dir.display()),
            ));
        }
        Err(e) => return Err(e),
    }
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("report");
    let probe = dir.join(format!(".{name}.skillguard-{}.probe", std::process::id()));
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)?;
    fs::remove_file(&probe)
}

/// Why an output path is refused because a link sends it somewhere the operator did not
/// name: a symbolic link (at the path or on the way to it) to a device, a FIFO, a socket, or
/// anything under `/proc`, `/sys` or `/dev`. A scanned repository can commit such a link
/// where the report goes (`skillguard.sarif -> /dev/null` swallows the report while stderr
/// says it was written; `-> /proc/self/fd/0` hangs the scan). A path the operator writes
/// under `/dev/` themselves (`-o /dev/stdout`, `/dev/fd/63` from `>(…)`) is their choice.
pub fn redirected(path: &Path) -> Option<String> {
    if path.starts_with("/dev") {
        return None;
    }
    let lexical = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    // The resolved place: the file itself when it exists, else its folder.
    let resolved = match fs::canonicalize(path) {
        Ok(r) => r,
        Err(_) => fs::canonicalize(parent_dir(path))
            .ok()?
            .join(path.file_name()?),
    };
    // The resolved place, or what the link says it points at (`/proc/self/fd/2` resolves to
    // wherever stderr goes, a pipe or a file, which is still not the operator's choice).
    // Every hop of a chain of links counts (`out -> .hop -> /proc/self/fd/2`), at most 40
    // as the kernel follows.
    let mut linked = Vec::new();
    let mut at = lexical.clone();
    while linked.len() < 40
        && let Ok(target) = fs::read_link(&at)
    {
        let next = match at.parent() {
            Some(dir) if target.is_relative() => dir.join(&target),
            _ => target,
        };
        linked.push(next.clone());
        at = next;
    }
    let system = ["/proc", "/sys", "/dev"].iter().any(|p| {
        (resolved.starts_with(p) || linked.iter().any(|l| l.starts_with(p)))
            && !lexical.starts_with(p)
    });
    let special = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && fs::metadata(path)
            .is_ok_and(|t| is_device_or_fifo(&t.file_type()) || is_block_device(&t.file_type()));
    (system || special).then(|| {
        format!(
            "refusing to write: {} is reached through a symbolic link to {} (a device, a pipe or a system file), which the scanned repository may have planted; remove the link or choose another path",
            path.display(),
            resolved.display()
        )
    })
}

/// A character device, a FIFO or a socket: written through in place, never replaced.
fn is_device_or_fifo(ft: &fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        ft.is_char_device() || ft.is_fifo() || ft.is_socket()
    }
    #[cfg(not(unix))]
    {
        let _ = ft;
        false
    }
}

/// Is the block device one we must never write a report over?
fn is_block_device(ft: &fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        ft.is_block_device()
    }
    #[cfg(not(unix))]
    {
        let _ = ft;
        false
    }
}

/// The folder holding `path` (`.` for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A file written in full to a temporary file beside its destination and fsynced, not yet
/// in place ([`stage`]). [`Staged::replace`] or [`Staged::create`] puts it there; dropped
/// without either (an error on the way), its temporary file is removed.
#[derive(Debug)]
#[must_use = "a staged file is removed unless it is put in place"]
pub struct Staged {
    tmp: PathBuf,
    path: PathBuf,
    placed: bool,
}

/// Writes what `fill` produces to a new temporary file ([`TMP_PREFIX`]) in the folder of
/// `path`, created exclusively (never through a link planted there), and fsyncs it. On
/// an error nothing is left behind.
pub fn stage(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<Staged> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let mut cut = name.len().min(100);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let tmp = parent_dir(path).join(format!(
        "{TMP_PREFIX}{}-{nanos}-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed),
        &name[..cut]
    ));
    let f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
    // From here on, dropping `staged` removes the temporary file.
    let staged = Staged {
        tmp,
        path: path.to_path_buf(),
        placed: false,
    };
    let mut w = io::BufWriter::new(f);
    fill(&mut w)?;
    let f = w.into_inner().map_err(|e| e.into_error())?;
    f.sync_all()?;
    Ok(staged)
}

impl Staged {
    /// The destination.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the file into place, replacing what is there (a symbolic link included,
    /// never followed). The folder is not fsynced: [`sync_dir`] does that.
    pub fn replace(mut self) -> io::Result<()> {
        fs::rename(&self.tmp, &self.path)?;
        self.placed = true;
        Ok(())
    }

    /// Puts the file in place only if nothing is there (`AlreadyExists` otherwise): a hard
    /// link, or on a file system without them a rename after checking that the name is
    /// free. The folder is not fsynced: [`sync_dir`] does that.
    pub fn create(self) -> io::Result<()> {
        match fs::hard_link(&self.tmp, &self.path) {
            // The temporary name is removed when `self` is dropped.
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
            Err(_) => {
                if fs::symlink_metadata(&self.path).is_ok() {
                    return Err(io::ErrorKind::AlreadyExists.into());
                }
                self.replace()
            }
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.placed {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Fsyncs the folder holding `path`, so that a rename or link into it survives a power cut
/// (Unix; elsewhere nothing to do).
pub fn sync_dir(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    File::open(parent_dir(path))?.sync_all()?;
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Writes what `fill` produces to `path`. A character device (`/dev/null`), a FIFO
/// or a socket is written through in place and never replaced, and so is a symbolic
/// link that resolves to one (`/dev/stdout` → `/proc/self/fd/1` → a pipe or a
/// terminal): the link is resolved first, so no device node or link to one is ever
/// renamed over. A block device, or a link to one, is refused. Anything else — a new
/// file, a regular file, a symbolic link to a regular file or to nothing — is replaced
/// atomically and durably ([`write_replacing`]): a reader never sees a half-written
/// report, and a symlink planted where the report goes (for instance inside a scanned
/// repository) is replaced, never followed to a file.
pub fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if let Some(why) = redirected(path) {
        return Err(io::Error::other(why));
    }
    let meta = match fs::symlink_metadata(path) {
        // Resolve a link: what it points at decides, not the link itself.
        Ok(m) if m.file_type().is_symlink() => match fs::metadata(path) {
            Ok(t) if is_device_or_fifo(&t.file_type()) || is_block_device(&t.file_type()) => Ok(t),
            _ => Ok(m),
        },
        other => other,
    };
    match meta {
        Ok(m) if is_block_device(&m.file_type()) => {
            return Err(io::Error::other(
                "refusing to write a report to a block device",
            ));
        }
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
    write_replacing(path, fill)
}

/// Replaces `path` (a file, a symbolic link — never followed — or nothing) with what
/// `fill` produces: [`stage`], rename, [`sync_dir`]. A failure leaves what was there
/// untouched and no temporary file behind.
pub fn write_replacing(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    stage(path, fill)?.replace()?;
    sync_dir(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d =
            std::env::temp_dir().join(format!("skillguard-fsutil-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// A link to a device, a pipe or a `/proc` entry where the report goes is refused
    /// (a repository can plant one), and left as it is; the operator's own `/dev/…` path
    /// is written through.
    #[test]
    fn a_link_to_a_device_or_proc_is_refused_never_replaced() {
        let d = scratch("devlink");
        for (name, target) in [
            ("null", "/dev/null"),
            ("fd2", "/proc/self/fd/2"),
            ("fd0", "/proc/self/fd/0"),
        ] {
            let link = d.join(name);
            std::os::unix::fs::symlink(target, &link).unwrap();
            let e = write_atomic(&link, |w| w.write_all(b"report")).unwrap_err();
            assert!(e.to_string().contains("symbolic link"), "{name}: {e}");
            assert!(check_writable(&link).is_err(), "{name}");
            assert_eq!(fs::read_link(&link).unwrap(), Path::new(target));
        }
        // A folder on the way that is a link into /proc.
        std::os::unix::fs::symlink("/proc/self", d.join("dir")).unwrap();
        assert!(redirected(&d.join("dir/report.sarif")).is_some());
        // A chain of links whose second hop points into /proc (the first is relative).
        std::os::unix::fs::symlink("/proc/self/fd/2", d.join(".hop")).unwrap();
        std::os::unix::fs::symlink(".hop", d.join("chained.out")).unwrap();
        assert!(redirected(&d.join("chained.out")).is_some());
        // The operator's own choice.
        assert!(redirected(Path::new("/dev/null")).is_none());
        write_atomic(Path::new("/dev/null"), |w| w.write_all(b"report")).unwrap();
        // A link to a regular file is replaced as before, not refused.
        fs::write(d.join("real.json"), b"{}").unwrap();
        std::os::unix::fs::symlink(d.join("real.json"), d.join("r.json")).unwrap();
        assert!(redirected(&d.join("r.json")).is_none());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_link_to_a_fifo_is_refused() {
        let d = scratch("fifolink");
        let fifo = d.join("pipe");
        let ok = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        // mkfifo is part of coreutils on every Linux CI image; without it there is no FIFO.
        if !ok {
            return;
        }
        let link = d.join("out");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        // Refused without opening the FIFO (opening it would wait for a reader).
        assert!(write_atomic(&link, |w| w.write_all(b"through the pipe")).is_err());
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(!fs::metadata(&fifo).unwrap().is_file());
        fs::remove_dir_all(&d).unwrap();
    }

    /// One staging routine for every writer: a dropped stage leaves nothing, `replace`
    /// renames over what is there, `create` never does.
    #[test]
    fn staged_files_are_placed_or_removed() {
        let d = scratch("stage");
        let p = d.join("a.json");
        let names = || {
            let mut v: Vec<String> = fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        let s = stage(&p, |w| w.write_all(b"one")).unwrap();
        assert!(names()[0].starts_with(TMP_PREFIX), "{:?}", names());
        drop(s);
        assert!(names().is_empty());
        assert!(stage(&p, |_| Err(io::Error::other("full"))).is_err());
        assert!(names().is_empty());
        stage(&p, |w| w.write_all(b"one"))
            .unwrap()
            .create()
            .unwrap();
        let e = stage(&p, |w| w.write_all(b"two"))
            .unwrap()
            .create()
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_replacing(&p, |w| w.write_all(b"two")).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(names(), ["a.json"]);
        // A long name is cut in the temporary file's name, at a character boundary.
        let long = d.join("é".repeat(120));
        write_atomic(&long, |w| w.write_all(b"x")).unwrap();
        assert_eq!(fs::read(&long).unwrap(), b"x");
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_link_to_a_regular_file_is_replaced_not_followed() {
        let d = scratch("filelink");
        let victim = d.join("victim");
        fs::write(&victim, b"keep").unwrap();
        let link = d.join("report.json");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        write_atomic(&link, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
        assert_eq!(fs::read(&link).unwrap(), b"new");
        assert!(fs::symlink_metadata(&link).unwrap().is_file());
        fs::remove_dir_all(&d).unwrap();
    }
}
