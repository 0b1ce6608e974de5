//! Per-skill analysis: read and hash every file once, parse the entry file,
//! run every check. Runs in parallel, one skill per task.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

use sha2::Digest;

use crate::discover::{Entry, EntryKind, Group, SkillDir};
use crate::finding::{Finding, Location, Severity};
use crate::hash;
use crate::inventory::{
    Artifact, ArtifactKind, FileEntry, FileKind, LinkState, SymlinkInfo, classify,
};
use crate::rules::{self, Cx, ids};
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
    let lf = crate::baseline::linediff::has_crlf(buf).then(|| {
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
        .then(|| std::sync::Arc::from(crate::baseline::linediff::line_hashes(buf)));
    (lf, lines)
}

/// Drops an incomplete UTF-8 sequence cut off at the end of a truncated buffer.
fn trim_partial_utf8(buf: &mut Vec<u8>) {
    if let Err(e) = std::str::from_utf8(buf)
        && e.error_len().is_none()
    {
        buf.truncate(e.valid_up_to());
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
            let sha = hash::sha256_hex(&buf);
            let head = buf[..buf.len().min(512)].to_vec();
            let (sha256_lf, line_hashes) = text_extras(&buf, &sha, opts);
            return Ok(ReadResult {
                sha256: Some(sha),
                size: buf.len() as u64,
                head,
                bytes: Some(buf),
                too_large: false,
                sha256_lf,
                line_hashes,
            });
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

/// A finding waiting for the skill's final name: (rule, message, location, anchor).
type Pending = (&'static str, String, Location, String);

/// Records a successful read in the file entry; reports an oversized file.
fn absorb(
    r: ReadResult,
    fe: &mut FileEntry,
    rel: &str,
    is_entry: bool,
    kept: &mut Kept,
    pending: &mut Vec<Pending>,
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
        pending.push((
            ids::FILE_TOO_LARGE,
            format!(
                "`{}` is {} bytes, over the {}-byte limit (--max-file-size); {what}. Shrink or remove it, or raise the limit.",
                sanitize_line(&fe.path),
                r.size,
                opts.max_file_size
            ),
            Location::file(rel.to_owned()),
            format!("large:{}", fe.path),
        ));
    }
    if is_entry {
        kept.entry = r.bytes;
    } else if let Some(b) = r.bytes {
        kept.others.push((fe.path.clone(), b));
    }
}

/// The bytes kept from one skill's reads: the entry file (parsed) and every other
/// file within the size limit (for the security rules).
#[derive(Default)]
struct Kept {
    entry: Option<Vec<u8>>,
    others: Vec<(String, Vec<u8>)>,
}

/// Context shared by all skill analyses of one scan.
pub struct Shared<'a> {
    pub entries: &'a [Entry],
    pub groups: &'a [Group],
    /// Symlinked directories by relative path.
    pub dir_links: &'a BTreeMap<String, SymlinkInfo>,
    pub read: &'a ReadOptions,
    /// Test hook: panic while analysing the skill with this directory name.
    pub panic_on: Option<&'a str>,
}

/// Analyses one skill; returns its artifact record and findings.
pub fn analyze_skill(sd: &SkillDir, shared: &Shared<'_>) -> (Artifact, Vec<Finding>) {
    let group = shared.groups.get(sd.group);
    let dir_name = match group {
        // A skill at the root of a repository is named after the repository folder.
        Some(g) if sd.rel == g.boundary_rel => g
            .boundary
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_owned(),
        _ => sd.rel.rsplit('/').next().unwrap_or(&sd.rel).to_owned(),
    };
    if shared.panic_on == Some(dir_name.as_str()) {
        panic!("test hook: forced panic while analysing `{dir_name}`");
    }
    let prefix_len = if sd.rel.is_empty() {
        0
    } else {
        sd.rel.len() + 1
    };
    let mut files: Vec<FileEntry> = Vec::with_capacity(sd.members.len());
    let mut kept = Kept::default();
    let mut entry_unreadable: Option<String> = None;
    let mut pending: Vec<Pending> = Vec::new();

    for &ei in &sd.members {
        let e = &shared.entries[ei];
        let path = e.rel[prefix_len.min(e.rel.len())..].to_owned();
        if crate::baseline::hashes::is_ledger_state(&path) {
            // skillguard's own ledger inside the skill folder: not part of the skill.
            continue;
        }
        let is_entry = path == sd.entry;
        // Under a symlinked folder of the skill (the skills CLI's hash skips those).
        let via_link = {
            let mut p = e.rel.as_str();
            let mut found = false;
            while let Some(i) = p.rfind('/') {
                p = &p[..i];
                if p.len() <= sd.rel.len() {
                    break;
                }
                if shared.dir_links.contains_key(p) {
                    found = true;
                    break;
                }
            }
            found
        };
        match &e.kind {
            EntryKind::Dir => {}
            EntryKind::Special(kind) => {
                pending.push((
                    ids::SPECIAL_FILE,
                    format!("`{}` is a {kind}; skillguard never opens it, and a skill has no reason to contain one. Remove it.", sanitize_line(&path)),
                    Location::file(e.rel.clone()),
                    format!("special:{path}"),
                ));
                files.push(FileEntry {
                    path,
                    size: 0,
                    kind: FileKind::Special,
                    executable: false,
                    sha256: None,
                    sha256_lf: None,
                    line_hashes: None,
                    symlink: None,
                    via_link,
                });
            }
            EntryKind::Symlink(info) => {
                let shown = sanitize_line(&info.target).into_owned();
                let mut fe = FileEntry {
                    path: path.clone(),
                    size: 0,
                    kind: FileKind::Symlink,
                    executable: false,
                    sha256: None,
                    sha256_lf: None,
                    line_hashes: None,
                    symlink: Some(info.clone()),
                    via_link,
                };
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
                        match real.and_then(|r| timing::time(Stage::ReadHash, || read_file(&r, is_entry, shared.read))) {
                            Ok(r) => {
                                absorb(r, &mut fe, &e.rel, is_entry, &mut kept, &mut pending, shared.read);
                            }
                            Err(err) => {
                                if is_entry {
                                    entry_unreadable = Some(err.to_string());
                                }
                                pending.push((
                                    ids::PATH_UNREADABLE,
                                    format!("symlink `{}` -> `{shown}` could not be read ({err}). Fix the link or the permissions.", sanitize_line(&path)),
                                    Location::file(e.rel.clone()),
                                    format!("unreadable:{path}"),
                                ));
                            }
                        }
                    }
                    LinkState::Inside => {}
                    LinkState::EscapesRoot => pending.push((
                        ids::SYMLINK_ESCAPES_ROOT,
                        format!(
                            "`{}` is a symlink to `{shown}`, outside the scanned root; it was not followed, and a harness that follows it loads unreviewed content. Replace the link with the file itself.",
                            sanitize_line(&path)
                        ),
                        Location::file(e.rel.clone()),
                        format!("escape:{path}"),
                    )),
                    LinkState::Dangling | LinkState::Loop => pending.push((
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
                files.push(fe);
            }
            EntryKind::File => {
                let mut fe = FileEntry {
                    path: path.clone(),
                    size: e.size,
                    kind: FileKind::Unknown,
                    executable: e.executable,
                    sha256: None,
                    sha256_lf: None,
                    line_hashes: None,
                    symlink: None,
                    via_link,
                };
                match timing::time(Stage::ReadHash, || read_file(&e.abs, is_entry, shared.read)) {
                    Ok(r) => {
                        absorb(
                            r,
                            &mut fe,
                            &e.rel,
                            is_entry,
                            &mut kept,
                            &mut pending,
                            shared.read,
                        );
                    }
                    Err(err) => {
                        fe.kind = classify(&path, None);
                        if is_entry {
                            entry_unreadable = Some(err.to_string());
                        }
                        pending.push((
                            ids::PATH_UNREADABLE,
                            format!("`{}` could not be read ({err}); it was not scanned. Fix its permissions.", sanitize_line(&path)),
                            Location::file(e.rel.clone()),
                            format!("unreadable:{path}"),
                        ));
                    }
                }
                files.push(fe);
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));

    // First pass with the directory name; the frontmatter name replaces it once read.
    let skill_path = sd.rel.clone();
    let mut cx = Cx {
        skill: &dir_name,
        skill_path: &skill_path,
        dir_name: &dir_name,
        entry_path: if sd.rel.is_empty() {
            sd.entry.clone()
        } else {
            format!("{}/{}", sd.rel, sd.entry)
        },
        files: &files,
        findings: Vec::new(),
    };
    let Kept {
        entry: entry_bytes,
        others: contents,
    } = kept;
    let doc = entry_bytes
        .as_deref()
        .map(|b| timing::time(Stage::Parse, || rules::parsing::parse_entry(b, &mut cx)));
    let fm_name = doc
        .as_ref()
        .and_then(|d| d.root())
        .and_then(|r| r.get("name"))
        .and_then(|n| n.as_str())
        .filter(|n| !n.trim().is_empty())
        .map(|n| sanitize_line(&crate::text::truncate(n, 128)).into_owned());
    let name = fm_name.clone().unwrap_or_else(|| dir_name.clone());
    let parse_findings = std::mem::take(&mut cx.findings);
    let mut cx = Cx {
        skill: &name,
        skill_path: &skill_path,
        dir_name: &dir_name,
        entry_path: cx.entry_path,
        files: &files,
        findings: parse_findings,
    };
    timing::time(Stage::Compliance, || {
        if let Some(doc) = &doc {
            for (_, check) in rules::CHECKS {
                check(doc, &mut cx);
            }
        }
        for (rule, msg, loc, anchor) in pending {
            cx.emit(rule, msg, loc, &anchor);
        }
        rules::inventory::check_scripts(&mut cx);
        rules::inventory::check_filename(&mut cx, &sd.entry, &sd.variants);
        rules::inventory::check_nested(
            &mut cx,
            &sd.entry,
            sd.nested_in.as_deref(),
            sd.nested_in_entry.as_deref(),
        );
        if group.is_some_and(|g| g.conventions_apply) && sd.convention.is_none() {
            rules::inventory::check_outside_conventions(&mut cx, &sd.entry);
        }
    });

    // Security analysis over every file read (the entry file's text comes from the parse).
    {
        let mut raw: Vec<(&FileEntry, &[u8])> = Vec::with_capacity(contents.len() + 1);
        if let (Some(b), Some(fe)) = (
            entry_bytes.as_deref(),
            files.iter().find(|f| f.path == sd.entry),
        ) {
            raw.push((fe, b));
        }
        for (p, b) in &contents {
            if let Ok(i) = files.binary_search_by(|f| f.path.as_str().cmp(p)) {
                raw.push((&files[i], b));
            }
        }
        let mut scx = timing::time(Stage::SecuritySources, || {
            crate::security::SecCx::new(&mut cx, doc.as_ref(), raw)
        });
        crate::security::analyze(&mut scx);
    }
    drop(contents);

    // The skill folder (or an ancestor below the boundary) or its entry file is a link.
    let mut link: Option<(String, SymlinkInfo)> = None;
    let mut p = sd.rel.as_str();
    loop {
        if let Some(info) = shared.dir_links.get(p) {
            link = Some((p.to_owned(), info.clone()));
            break;
        }
        if group.is_some_and(|g| p == g.boundary_rel) || p.is_empty() {
            break;
        }
        p = p.rfind('/').map(|i| &p[..i]).unwrap_or("");
    }
    let entry_link = files
        .iter()
        .find(|f| f.path == sd.entry)
        .and_then(|f| f.symlink.clone());
    if let Some((at, info)) = &link {
        cx.emit(
            ids::SYMLINKED_SKILL,
            format!(
                "skill folder is reached through the symlink `{}` -> `{}`: Claude Code and Codex follow it, Microsoft Agent Framework 1.18+ skips it. Use a real copy if the skill must load everywhere.",
                sanitize_line(at),
                sanitize_line(&info.target)
            ),
            Location::file(at.clone()),
            "symlinked-dir",
        );
    }
    if let Some(info) = &entry_link
        && info.state == LinkState::Inside
    {
        cx.emit(
                ids::SYMLINKED_SKILL,
                format!(
                    "`{}` is a symlink to `{}`: harnesses that skip links (MAF 1.18+) do not load this skill. Use a real file if it must load everywhere.",
                    sd.entry,
                    sanitize_line(&info.target)
                ),
                Location::file(cx.entry_path.clone()),
                "symlinked-entry",
            );
    }
    // A skill whose entry file cannot be read is excluded everywhere: make sure that is
    // carried by a high finding on the entry file, never by a lower one alone.
    if doc.is_none() {
        let entry_path = cx.entry_path.clone();
        let mut reported = false;
        for f in cx
            .findings
            .iter_mut()
            .filter(|f| f.location.path == entry_path)
        {
            if f.severity < Severity::High {
                f.severity = Severity::High;
                f.message
                    .push_str(" This is the skill file itself, so no harness can load the skill.");
            }
            reported = true;
        }
        if !reported {
            let why = match (&entry_link, entry_unreadable) {
                (Some(info), _) if info.target_is_dir => {
                    format!(
                        "is a symlink to the directory `{}`, not a file",
                        sanitize_line(&info.target)
                    )
                }
                (_, Some(err)) => format!("could not be read ({})", sanitize_line(&err)),
                _ => "could not be read".to_owned(),
            };
            let msg = format!(
                "`{}` {why}, so no harness can load this skill. Make it a readable regular file.",
                sd.entry
            );
            cx.emit(
                ids::PATH_UNREADABLE,
                msg,
                Location::file(entry_path),
                "entry-unreadable",
            );
            if let Some(f) = cx.findings.last_mut() {
                f.severity = Severity::High;
            }
        }
    }

    let mut findings: Vec<Finding> = cx
        .findings
        .into_iter()
        .map(|f| {
            let anchor = f.anchor.clone();
            f.for_skill(Some(&name), Some(&skill_path), &anchor)
        })
        .collect();
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    // The same rule, file and anchor can occur several times (one broken link per line):
    // number the repeats in file order so every finding keeps a distinct fingerprint.
    let mut seen: BTreeMap<(&'static str, String, String), usize> = BTreeMap::new();
    for f in &mut findings {
        let n = seen
            .entry((f.rule_id, f.location.path.clone(), f.anchor.clone()))
            .or_insert(0);
        if *n > 0 {
            let anchor = format!("{}#{}", f.anchor, n);
            *f = f.clone().for_skill(Some(&name), Some(&skill_path), &anchor);
        }
        *n += 1;
    }
    let excluded = findings
        .iter()
        .any(|f| crate::catalog::get(f.rule_id).is_some_and(|m| m.excludes_skill))
        || doc.is_none();
    let frontmatter = doc
        .as_ref()
        .and_then(|d| d.root())
        .map(|r| r.to_json())
        .unwrap_or(serde_json::Value::Null);
    let artifact = Artifact {
        kind: ArtifactKind::Skill,
        path: sd.rel.clone(),
        repo: group.and_then(|g| g.repo.clone()),
        convention: sd.convention.map(|c| c.path.to_owned()),
        convention_root: sd.convention_root.clone(),
        entry: sd.entry.clone(),
        name,
        dir_name,
        frontmatter,
        excluded,
        symlink: link.map(|(_, i)| i),
        nested_in: sd.nested_in.clone(),
        files,
        structural_fingerprint: None,
        content_hash: None,
        hash_incomplete: None,
        provenance: None,
        loaders: Vec::new(),
        entry_bytes: entry_bytes.map(std::sync::Arc::from),
    };
    (artifact, findings)
}
