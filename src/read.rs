//! The read stage: every file of a skill is opened once (no final symlink followed, no
//! FIFO blocked on, size-capped), and its bytes are hashed and kept for the parse and the
//! security rules. Nothing later reads a file again.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Read};
use std::path::Path;

use sha2::Digest;

use crate::discover::{Entry, EntryKind, Group, SkillDir};
use crate::finding::Location;
use crate::fsutil::open_regular;
use crate::hash;
use crate::inventory::{FileEntry, FileKind, LinkState, SymlinkInfo, classify};
use crate::rules::ids;
use crate::text::sanitize_line;
use crate::timing::{self, Stage};

/// Limits for reading files.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Files larger than this are not parsed (an oversized entry file is parsed
    /// from its first `max_file_size` bytes) and are reported.
    pub max_file_size: u64,
    /// Files larger than this are not hashed at all (a sparse or huge file is
    /// never read to its end).
    pub max_hash_size: u64,
    /// Keep one hash per line of each text file (for `+N −M` in baseline diffs).
    pub line_hashes: bool,
    /// SHA-256s whose line hashes the ledger already holds (skipped by `line_hashes`).
    pub known_lines: Option<std::sync::Arc<std::collections::HashSet<String>>>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_file_size: 10 * 1024 * 1024,
            max_hash_size: 256 * 1024 * 1024,
            line_hashes: false,
            known_lines: None,
        }
    }
}

struct ReadResult {
    /// Absent for files over [`ReadOptions::max_hash_size`].
    sha256: Option<String>,
    size: u64,
    head: Vec<u8>,
    /// The bytes of a file within the size limit; for an oversized entry file, its
    /// first `max_file_size` bytes, cut at a UTF-8 boundary (other oversized files: none).
    bytes: Option<Vec<u8>>,
    too_large: bool,
    /// SHA-256 with CRLF read as LF (text files containing CRLF).
    sha256_lf: Option<String>,
    line_hashes: Option<std::sync::Arc<[u32]>>,
}

/// Text-only extras computed from a file read whole: the LF-normalised hash when the
/// file has CRLF line ends, and the per-line hashes when asked for.
fn text_extras(
    buf: &[u8],
    sha: &str,
    opts: &ReadOptions,
) -> (Option<String>, Option<std::sync::Arc<[u32]>>) {
    let probe = &buf[..buf.len().min(8192)];
    if memchr::memchr(0, probe).is_some() {
        return (None, None);
    }
    let lf = crate::linediff::has_crlf(buf).then(|| {
        let mut h = sha2::Sha256::new();
        let mut rest = buf;
        while let Some(i) = memchr::memmem::find(rest, b"\r\n") {
            h.update(&rest[..i]);
            rest = &rest[i + 1..];
        }
        h.update(rest);
        hash::hex(&h.finalize())
    });
    // Content the ledger already holds line hashes for is not hashed again.
    let known = opts.known_lines.as_ref().is_some_and(|k| k.contains(sha));
    let lines = (opts.line_hashes && !known)
        .then(|| std::sync::Arc::from(crate::linediff::line_hashes(buf)));
    (lf, lines)
}

/// Drops an incomplete UTF-8 sequence cut off at the end of a truncated buffer.
pub fn trim_partial_utf8(buf: &mut Vec<u8>) {
    if let Err(e) = std::str::from_utf8(buf)
        && e.error_len().is_none()
    {
        buf.truncate(e.valid_up_to());
    }
}

/// What reading a whole file within the size limit gives.
fn whole_file(buf: Vec<u8>, opts: &ReadOptions) -> ReadResult {
    let sha = hash::sha256_hex(&buf);
    let head = buf[..buf.len().min(512)].to_vec();
    let (sha256_lf, line_hashes) = text_extras(&buf, &sha, opts);
    ReadResult {
        sha256: Some(sha),
        size: buf.len() as u64,
        head,
        bytes: Some(buf),
        too_large: false,
        sha256_lf,
        line_hashes,
    }
}

fn read_file(path: &Path, keep: bool, opts: &ReadOptions) -> io::Result<ReadResult> {
    let mut f = open_regular(path)?;
    let len = f.metadata()?.len();
    if len <= opts.max_file_size {
        let mut buf = Vec::with_capacity(len as usize);
        (&mut f)
            .take(opts.max_file_size + 1)
            .read_to_end(&mut buf)?;
        if buf.len() as u64 <= opts.max_file_size {
            return Ok(whole_file(buf, opts));
        }
        // The file grew after its size was read: treat it as oversized from here on.
        let (sha, total) =
            hash::sha256_reader(io::Cursor::new(&buf).chain(f.take(opts.max_hash_size)))?;
        let head = buf[..512].to_vec();
        buf.truncate(opts.max_file_size as usize);
        trim_partial_utf8(&mut buf);
        return Ok(ReadResult {
            sha256: (total <= opts.max_hash_size).then_some(sha),
            size: total,
            head,
            bytes: keep.then_some(buf),
            too_large: true,
            sha256_lf: None,
            line_hashes: None,
        });
    }
    // Oversized: keep the entry file's head for parsing, hash by streaming up to
    // the hash cap (a huge or sparse file is never read to its end).
    let keep_n = if keep { opts.max_file_size } else { 512 };
    let mut buf = Vec::with_capacity(keep_n.min(16 * 1024 * 1024) as usize);
    (&mut f).take(keep_n).read_to_end(&mut buf)?;
    let head = buf[..buf.len().min(512)].to_vec();
    let sha256 = if len <= opts.max_hash_size {
        let (sha, _) = hash::sha256_reader(io::Cursor::new(&buf).chain(f))?;
        Some(sha)
    } else {
        None
    };
    let bytes = keep.then(|| {
        trim_partial_utf8(&mut buf);
        buf
    });
    Ok(ReadResult {
        sha256,
        size: len,
        head,
        bytes,
        too_large: true,
        sha256_lf: None,
        line_hashes: None,
    })
}

/// Context shared by all skill reads and analyses of one scan.
pub struct Shared<'a> {
    pub entries: &'a [Entry],
    pub groups: &'a [Group],
    /// Symlinked directories by relative path.
    pub dir_links: &'a BTreeMap<String, SymlinkInfo>,
    pub read: &'a ReadOptions,
    /// The off-by-default rules this scan runs.
    pub rules: &'a crate::catalog::Enabled,
    /// Test hook: panic while analysing the skill with this directory name.
    pub panic_on: Option<&'a str>,
    /// Skills (relative paths) read, parsed and checked for compliance, but whose content
    /// rules (quality and security) another shard runs: the skills of a split repository
    /// this shard does not own ([`crate::discover::PlanShard`]).
    pub shallow: Option<&'a BTreeSet<String>>,
    /// The result cache, when on ([`crate::cache`]).
    pub cache: Option<&'a crate::cache::Cache>,
    /// Files read once for two stages ([`Preread`]).
    pub preread: &'a Preread,
}

/// Whole files one stage read that a later stage reads too, by path from the scan base: the
/// later stage takes them instead of opening the file again, so that each file is read once
/// per scan (a changed-files run's name check reads the entry files its analysis reads; the
/// skill reader reads the eval files the eval check reads).
#[derive(Default)]
pub struct Preread(std::sync::Mutex<std::collections::HashMap<String, Vec<u8>>>);

impl Preread {
    fn map(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Vec<u8>>> {
        // A panicking analysis (reported as a finding) must not stop the others.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps the whole bytes of the file at `rel`.
    pub fn put(&self, rel: String, bytes: Vec<u8>) {
        self.map().insert(rel, bytes);
    }

    /// The kept bytes of `rel`, removed from the store.
    pub fn take(&self, rel: &str) -> Option<Vec<u8>> {
        self.map().remove(rel)
    }
}

/// A finding waiting for the skill's final name: (rule, message, location, anchor).
pub type Pending = (&'static str, String, Location, String);

/// What reading one skill gives: its file inventory, the bytes kept, and the findings the
/// reads raised (waiting for the skill's final name).
#[derive(Default)]
pub struct SkillFiles {
    /// Every file of the skill, sorted by path.
    pub files: Vec<FileEntry>,
    /// The entry file's bytes (parsed).
    pub entry: Option<Vec<u8>>,
    /// Every other file within the size limit (for the security rules), by path.
    pub others: Vec<(String, Vec<u8>)>,
    /// Why the entry file could not be read, if it could not.
    pub entry_unreadable: Option<String>,
    pub pending: Vec<Pending>,
}

/// Reads and hashes every file of one skill.
pub fn read_skill(sd: &SkillDir, shared: &Shared<'_>) -> SkillFiles {
    let group = shared.groups.get(sd.group);
    let prefix_len = if sd.rel.is_empty() {
        0
    } else {
        sd.rel.len() + 1
    };
    let mut out = SkillFiles {
        files: Vec::with_capacity(sd.members.len()),
        ..SkillFiles::default()
    };
    for &ei in &sd.members {
        let e = &shared.entries[ei];
        let path = e.rel[prefix_len.min(e.rel.len())..].to_owned();
        if crate::discover::is_ledger_state(&path) {
            // skillguard's own ledger inside the skill folder: not part of the skill.
            continue;
        }
        let is_entry = path == sd.entry;
        let via_link = under_linked_dir(&e.rel, &sd.rel, shared.dir_links);
        match &e.kind {
            EntryKind::Dir => {}
            EntryKind::Special(kind) => out.special(e, path, kind, via_link),
            EntryKind::Symlink(info) => {
                out.symlink(e, path, info, is_entry, via_link, group, shared.read)
            }
            EntryKind::File => {
                out.regular(e, path, is_entry, via_link, shared.read, shared.preread)
            }
        }
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The entry file's bytes alone (its first `max_file_size` bytes; `None` for a link, a
/// special file or an unreadable one), and whether they are the whole file: what
/// changed-files mode reads of every skill, to learn their names.
pub fn entry_bytes(sd: &SkillDir, shared: &Shared<'_>) -> Option<(Vec<u8>, bool)> {
    let rel = if sd.rel.is_empty() {
        sd.entry.clone()
    } else {
        format!("{}/{}", sd.rel, sd.entry)
    };
    let e = sd
        .members
        .iter()
        .map(|&i| &shared.entries[i])
        .find(|e| e.rel == rel && matches!(e.kind, EntryKind::File))?;
    let f = open_regular(&e.abs).ok()?;
    let mut buf = Vec::new();
    f.take(shared.read.max_file_size + 1)
        .read_to_end(&mut buf)
        .ok()?;
    let whole = buf.len() as u64 <= shared.read.max_file_size;
    if !whole {
        buf.truncate(shared.read.max_file_size as usize);
        trim_partial_utf8(&mut buf);
    }
    Some((buf, whole))
}

/// Is `rel` under a symlinked folder of the skill at `skill_rel` (the skills CLI's hash
/// skips those)?
fn under_linked_dir(rel: &str, skill_rel: &str, dir_links: &BTreeMap<String, SymlinkInfo>) -> bool {
    let mut p = rel;
    while let Some(i) = p.rfind('/') {
        p = &p[..i];
        if p.len() <= skill_rel.len() {
            break;
        }
        if dir_links.contains_key(p) {
            return true;
        }
    }
    false
}

/// The `content-not-inspected` finding of a file that could not be read (`rel`: its path
/// from the scan base, `path`: from the skill).
fn not_read(rel: &str, path: &str, err: &io::Error) -> Pending {
    (
        ids::CONTENT_NOT_INSPECTED,
        format!(
            "`{}` was not inspected: it could not be read ({}), so no rule saw its content. Fix its permissions (or the link), or lower this finding for this path in the operator's `.skillguard.toml` with a reason.",
            sanitize_line(path),
            sanitize_line(&err.to_string())
        ),
        Location::file(rel.to_owned()),
        format!("{path}:{}unreadable", ids::UNINSPECTED_ANCHOR),
    )
}

/// A file entry before its read: no hashes yet.
fn unread(path: String, size: u64, kind: FileKind, executable: bool, via_link: bool) -> FileEntry {
    FileEntry {
        path,
        size,
        kind,
        executable,
        sha256: None,
        sha256_lf: None,
        line_hashes: None,
        symlink: None,
        via_link,
    }
}

impl SkillFiles {
    /// A FIFO, socket or device: never opened, always reported.
    fn special(&mut self, e: &Entry, path: String, kind: &str, via_link: bool) {
        self.pending.push((
            ids::SPECIAL_FILE,
            format!("`{}` is {}; skillguard never opens it, and a skill has no reason to contain one. Remove it.", sanitize_line(&path), crate::text::with_article(kind)),
            Location::file(e.rel.clone()),
            format!("special:{path}"),
        ));
        self.files
            .push(unread(path, 0, FileKind::Special, false, via_link));
    }

    /// A symlink: a link to a file inside the root is read through; others are reported.
    #[allow(clippy::too_many_arguments)]
    fn symlink(
        &mut self,
        e: &Entry,
        path: String,
        info: &SymlinkInfo,
        is_entry: bool,
        via_link: bool,
        group: Option<&Group>,
        opts: &ReadOptions,
    ) {
        let shown = sanitize_line(&info.target).into_owned();
        let mut fe = unread(path.clone(), 0, FileKind::Symlink, false, via_link);
        fe.symlink = Some(info.clone());
        match info.state {
            LinkState::Inside if !info.target_is_dir => {
                // Re-resolve at read time and re-check the boundary: the tree may
                // have changed since the walk.
                let boundary = group.map(|g| g.boundary.as_path());
                let real = std::fs::canonicalize(&e.abs).and_then(|r| {
                    if boundary.is_none_or(|b| r.starts_with(b)) {
                        Ok(r)
                    } else {
                        Err(io::Error::other("the link now resolves outside the scanned root"))
                    }
                });
                match real.and_then(|r| timing::time(Stage::ReadHash, || read_file(&r, is_entry, opts))) {
                    Ok(r) => self.absorb(r, &mut fe, &e.rel, is_entry, opts),
                    Err(err) => {
                        if is_entry {
                            self.entry_unreadable = Some(err.to_string());
                        }
                        self.pending.push((
                            ids::PATH_UNREADABLE,
                            format!("symlink `{}` -> `{shown}` could not be read ({err}). Fix the link or the permissions.", sanitize_line(&path)),
                            Location::file(e.rel.clone()),
                            format!("unreadable:{path}"),
                        ));
                        self.pending.push(not_read(&e.rel, &path, &err));
                    }
                }
            }
            LinkState::Inside => {}
            LinkState::EscapesRoot => self.pending.push((
                ids::SYMLINK_ESCAPES_ROOT,
                format!(
                    "`{}` is a symlink to `{shown}`, outside the scanned root; it was not followed, and a harness that follows it loads unreviewed content. Replace the link with the file itself.",
                    sanitize_line(&path)
                ),
                Location::file(e.rel.clone()),
                format!("escape:{path}"),
            )),
            LinkState::Dangling | LinkState::Loop => self.pending.push((
                ids::SYMLINK_DANGLING,
                format!(
                    "`{}` is a symlink to `{shown}`, which {}; every harness sees nothing here. Fix or remove the link.",
                    sanitize_line(&path),
                    if info.state == LinkState::Loop { "loops back on itself" } else { "does not exist" }
                ),
                Location::file(e.rel.clone()),
                format!("dangling:{path}"),
            )),
        }
        self.files.push(fe);
    }

    /// A regular file: read, hashed and kept.
    fn regular(
        &mut self,
        e: &Entry,
        path: String,
        is_entry: bool,
        via_link: bool,
        opts: &ReadOptions,
        preread: &Preread,
    ) {
        let mut fe = unread(
            path.clone(),
            e.size,
            FileKind::Unknown,
            e.executable,
            via_link,
        );
        // An entry file the changed-files name check read whole is not read again.
        let kept = is_entry.then(|| preread.take(&e.rel)).flatten();
        let read = || match kept {
            Some(buf) => Ok(whole_file(buf, opts)),
            None => read_file(&e.abs, is_entry, opts),
        };
        match timing::time(Stage::ReadHash, read) {
            Ok(r) => self.absorb(r, &mut fe, &e.rel, is_entry, opts),
            Err(err) => {
                fe.kind = classify(&path, None);
                if is_entry {
                    self.entry_unreadable = Some(err.to_string());
                }
                self.pending.push((
                    ids::PATH_UNREADABLE,
                    format!(
                        "`{}` could not be read ({err}); it was not scanned. Fix its permissions.",
                        sanitize_line(&path)
                    ),
                    Location::file(e.rel.clone()),
                    format!("unreadable:{path}"),
                ));
                self.pending.push(not_read(&e.rel, &path, &err));
            }
        }
        self.files.push(fe);
    }

    /// Records a successful read in the file entry; reports an oversized file.
    fn absorb(
        &mut self,
        r: ReadResult,
        fe: &mut FileEntry,
        rel: &str,
        is_entry: bool,
        opts: &ReadOptions,
    ) {
        fe.size = r.size;
        fe.kind = if is_entry {
            FileKind::Entry
        } else {
            classify(&fe.path, Some(&r.head))
        };
        fe.sha256 = r.sha256.clone();
        fe.sha256_lf = r.sha256_lf;
        fe.line_hashes = r.line_hashes;
        if r.too_large {
            let what = match (is_entry, r.sha256.is_some()) {
                (true, true) => "it was hashed, and only its first part was parsed",
                (true, false) => "it was too large to hash, and only its first part was parsed",
                (false, true) => "it was hashed but not parsed",
                (false, false) => "it was too large to hash or parse (its content is not covered)",
            };
            let (shown, size, limit) = (sanitize_line(&fe.path), r.size, opts.max_file_size);
            let unread = size.saturating_sub(if is_entry { limit } else { 0 });
            let read = if is_entry {
                format!("only its first {limit} bytes were parsed")
            } else {
                "no rule read it".to_owned()
            };
            // The size, and what it left unread (`scan::uninspected` attaches the first to
            // the second).
            for (rule, message, anchor) in [
                (
                    ids::FILE_TOO_LARGE,
                    format!(
                        "`{shown}` is {size} bytes, over the {limit}-byte limit (--max-file-size); {what}. Shrink or remove it, or raise the limit."
                    ),
                    format!("large:{}", fe.path),
                ),
                (
                    ids::CONTENT_NOT_INSPECTED,
                    format!(
                        "`{shown}` was not inspected in full: it is {size} bytes, over the {limit}-byte limit (bound: file size, `--max-file-size`), so {read} and {unread} byte(s) were not inspected. Raise `--max-file-size` if the file is expected, shrink or remove it, or lower this finding for this path in the operator's `.skillguard.toml` with a reason."
                    ),
                    format!("{}:{}size", fe.path, ids::UNINSPECTED_ANCHOR),
                ),
            ] {
                self.pending
                    .push((rule, message, Location::file(rel.to_owned()), anchor));
            }
        }
        if is_entry {
            self.entry = r.bytes;
        } else if let Some(b) = r.bytes {
            self.others.push((fe.path.clone(), b));
        }
    }
}
