//! The append-only, tamper-evident ledger of scan snapshots.
//!
//! Layout of a ledger directory (default `.skillguard/ledger` under the scanned repository or
//! workspace root):
//!
//! ```text
//! lock                                   advisory lock serialising writers
//! HEAD.json                              {seq, id, sha256} of the newest snapshot
//! snapshots/00000001-<id>.json           one file per snapshot, never rewritten
//! snapshots/00000001-<id>.lines          line hashes of the text files new in that snapshot
//! ```
//!
//! Every snapshot records the SHA-256 of the exact bytes of its predecessor (`prev`), and
//! `HEAD.json` records the hash of the newest one, so [`verify`] can tell an edited, deleted,
//! inserted or reordered snapshot and name it. An append writes the line pack, then the
//! snapshot, then `HEAD.json`, each to a temporary file that is fsynced and renamed into place
//! (and the directory fsynced), under an exclusive lock: a writer killed at any instant leaves
//! either the previous ledger (plus an ignored temporary file) or the new snapshot with `HEAD`
//! one behind, which verifies and is completed by the next writer. An append first checks that
//! `HEAD.json` matches the newest snapshot, so an edit of the newest snapshot cannot be
//! laundered by chaining a new snapshot onto it.
//!
//! What a hash chain cannot do without a secret: someone who rewrites every snapshot *and*
//! `HEAD.json` consistently is not detected locally. Keep the ledger in version control or pin
//! the head hash that `baseline verify` prints (`--expect-head`).

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use super::evalsnap::EvalsRecord;
use crate::fsutil;
use crate::hash::sha256_hex;
use crate::inventory::Provenance;
use crate::skill_hashes::HashOptions;

/// `format` of a snapshot file.
pub const FORMAT: &str = "skillguard-ledger";
/// `format` of `HEAD.json`.
pub const HEAD_FORMAT: &str = "skillguard-ledger-head";
/// The newest format version this build reads and the one it writes.
pub const VERSION: u32 = 1;
/// `kind` of a snapshot that records an `evals grade` result (absent: a scan snapshot).
pub const KIND_EVALS: &str = "evals";
const SNAPSHOTS: &str = "snapshots";
const HEAD: &str = "HEAD.json";
const LOCK: &str = "lock";
/// The ledger folder's `.gitignore`: its lock files (the snapshots are committed).
const GITIGNORE: &str =
    "# Written by skillguard: the ledger's lock files are not part of it.\n/lock\n/batch.lock\n";
/// Snapshot files larger than this are refused (a 2,000-skill snapshot is about 2 MB).
pub const MAX_SNAPSHOT_BYTES: u64 = 512 * 1024 * 1024;
const PACK_MAGIC: &[u8; 8] = b"SGLINES1";

/// One scan, as recorded in the ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub format: String,
    pub version: u32,
    /// 1, 2, 3, … in append order.
    pub seq: u64,
    /// 32 lowercase hex characters.
    pub id: String,
    /// The previous snapshot (absent for the first).
    pub prev: Option<PrevLink>,
    /// UTC, RFC 3339 with milliseconds.
    pub captured_at: String,
    /// `skillguard X.Y.Z`.
    pub tool: String,
    /// `evals` for an eval snapshot ([`KIND_EVALS`]); absent for a scan snapshot, and in
    /// every snapshot written before eval snapshots existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub root: ScannedRoot,
    pub hash_options: HashOptions,
    /// The line-hash pack written with this snapshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<PackRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Set when the snapshot was imported from another tool's ledger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<Imported>,
    /// One entry per skill location, sorted by location.
    pub skills: Vec<SkillEntry>,
    /// One entry per agent, prompt, instructions, MCP or hook file, sorted by location.
    /// `None` in snapshots that predate agent recording (written by an older skillguard, or
    /// imported from AgentEval): they say nothing about agents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<SkillEntry>>,
    /// The graded result of an eval snapshot (its `skills` are empty, its `agents` absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evals: Option<EvalsRecord>,
}

impl Snapshot {
    /// Every entry: the skills, then the agents.
    pub fn entries(&self) -> impl Iterator<Item = &SkillEntry> {
        self.skills.iter().chain(self.agents.iter().flatten())
    }

    /// An eval snapshot (`kind: evals`), not a scan.
    pub fn is_evals(&self) -> bool {
        is_evals_kind(self.kind.as_deref())
    }
}

/// Is a snapshot of this `kind` an eval snapshot?
pub fn is_evals_kind(kind: Option<&str>) -> bool {
    kind == Some(KIND_EVALS)
}

/// Link to the previous snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrevLink {
    pub seq: u64,
    pub id: String,
    /// SHA-256 of the previous snapshot file's exact bytes.
    pub sha256: String,
}

/// What was scanned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScannedRoot {
    /// `path`, `repo` or `workspace`.
    pub mode: String,
    /// The scanned root relative to the ledger's home (the repository or workspace root),
    /// `/`-separated; `.` for the home itself. Portable between machines.
    pub relative: String,
    /// The absolute path at capture time (information only; never compared).
    pub absolute: String,
}

/// A line-hash pack file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackRef {
    pub file: String,
    pub sha256: String,
    pub size: u64,
    /// Line-hash function (`lines-v1`).
    pub hash: String,
}

/// Origin of an imported snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    pub tool: String,
    pub file: String,
    pub id: String,
}

/// One skill location in a snapshot, or one agent file (in `agents`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillEntry {
    /// Skill directory (or agent file) relative to the ledger's home, `/`-separated (the key
    /// of diffs).
    pub location: String,
    pub name: String,
    /// Agent entries: `agent`, `prompt`, `instructions`, `mcp-config` or `hooks`; absent
    /// for skills.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Agent entries: the file's format (`copilot-agent`, `claude-agent`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convention: Option<String>,
    /// A strict loader would not load it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub excluded: bool,
    /// AgentEval structural fingerprint (absent in imported entries that lack it, and in
    /// agent entries: agents have none).
    #[serde(default)]
    pub structural: Option<String>,
    /// AgentEval content hash under the snapshot's `hash_options`.
    #[serde(default)]
    pub content: Option<String>,
    /// Why `content` is absent for a scanned entry: what could not be read. Such an entry is
    /// never "unchanged": it is not comparable (`baseline diff`, `baseline history`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
    #[serde(default)]
    pub files: Vec<FileRecord>,
    /// rule id → severity → count.
    #[serde(default)]
    pub findings: BTreeMap<String, BTreeMap<String, u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl SkillEntry {
    /// Was this entry scanned without reading all of it (no content hash, though its files
    /// were recorded)? Its content cannot be compared with anything.
    pub fn content_unknown(&self) -> bool {
        self.incomplete.is_some() || (self.content.is_none() && !self.files.is_empty())
    }

    /// Does the file at `path` count in content hashes under `h`? Every file of an agent
    /// entry does (an agent is its one file); a skill's file unless `--hash-ignore` leaves
    /// it out.
    pub fn hashes(&self, path: &str, h: &crate::skill_hashes::Hasher) -> bool {
        self.kind.is_some() || !h.ignored(path)
    }

    /// Number of stored findings of `severity` or above (`high` counts high and critical).
    pub fn count_at_least(&self, severity: crate::finding::Severity) -> u32 {
        self.findings
            .values()
            .flat_map(|m| m.iter())
            .filter(|(s, _)| crate::finding::Severity::parse(s).is_some_and(|s| s >= severity))
            .fold(0u32, |sum, (_, n)| sum.saturating_add(*n))
    }
}

/// One file of a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRecord {
    /// Relative to the skill directory.
    pub path: String,
    pub size: u64,
    /// SHA-256 of the bytes (or the stand-in digest of an entry that cannot be read).
    pub sha256: String,
    /// SHA-256 with CRLF read as LF, for text files that contain CRLF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256_lf: Option<String>,
    /// Where this text file's line hashes are stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<LineRef>,
}

/// A run of line hashes inside a snapshot's pack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineRef {
    /// The snapshot whose pack holds them.
    pub seq: u64,
    /// Offset in hashes (4-byte units) after the pack header.
    pub offset: u64,
    pub count: u32,
}

/// `HEAD.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    pub format: String,
    pub version: u32,
    pub seq: u64,
    pub id: String,
    pub sha256: String,
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path}: snapshot {entry} is corrupt or truncated: {msg}")]
    Corrupt {
        path: String,
        entry: String,
        msg: String,
    },
    #[error(
        "{path}: written by a newer skillguard (ledger format version {found}; this version reads up to {VERSION}); upgrade skillguard to read it"
    )]
    Newer { path: String, found: u32 },
    #[error("ledger {root}: {msg}; run `skillguard baseline verify` for details")]
    Integrity { root: String, msg: String },
    #[error(
        "{path} is a symbolic link; skillguard never writes through a link inside the scanned repository, which the repository could have planted (remove the link, or choose a folder outside the repository with --baseline-root)"
    )]
    Symlink { path: String },
    #[error("ledger {root}: {msg}")]
    Lookup { root: String, msg: String },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> LedgerError + '_ {
    move |source| LedgerError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// A snapshot file found in the ledger directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotFile {
    pub seq: u64,
    pub id: String,
    pub path: PathBuf,
}

impl SnapshotFile {
    fn entry(&self) -> String {
        format!("#{} ({})", self.seq, self.id)
    }
}

/// A parsed snapshot with the hash of its bytes.
#[derive(Debug, Clone)]
pub struct Loaded<T> {
    pub file: SnapshotFile,
    /// SHA-256 of the file's bytes; empty unless loaded for a chain check.
    pub sha256: String,
    pub snapshot: T,
}

/// The fields every reader needs, for fast listing.
#[derive(Debug, Clone, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    pub seq: u64,
    pub id: String,
    pub prev: Option<PrevLink>,
    pub captured_at: String,
    pub tool: String,
    #[serde(default)]
    pub kind: Option<String>,
    pub root: ScannedRoot,
    #[serde(default)]
    pub hash_options: HashOptions,
    #[serde(default)]
    pub lines: Option<PackRef>,
    #[serde(default)]
    pub note: Option<String>,
    #[serde(default)]
    pub imported: Option<Imported>,
}

/// Header plus the number of skill entries (`baseline list`).
#[derive(Debug, Clone, Deserialize)]
pub struct Listing {
    pub format: String,
    pub version: u32,
    pub seq: u64,
    pub id: String,
    pub captured_at: String,
    pub tool: String,
    #[serde(default)]
    pub kind: Option<String>,
    pub root: ScannedRoot,
    #[serde(default)]
    pub note: Option<String>,
    #[serde(default)]
    pub imported: Option<Imported>,
    pub skills: Vec<serde::de::IgnoredAny>,
    #[serde(default)]
    pub agents: Option<Vec<serde::de::IgnoredAny>>,
    #[serde(default)]
    pub evals: Option<super::evalsnap::EvalsBrief>,
}

/// Header plus each entry's name, location and content hash (trust on first use, drift).
#[derive(Debug, Clone, Deserialize)]
pub struct Presence {
    pub format: String,
    pub version: u32,
    pub seq: u64,
    pub id: String,
    pub captured_at: String,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub hash_options: HashOptions,
    pub skills: Vec<EntryKey>,
    #[serde(default)]
    pub agents: Option<Vec<EntryKey>>,
    /// Imported snapshots: their hashes are the other tool's (AgentEval's content hash).
    #[serde(default)]
    pub imported: Option<Imported>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EntryKey {
    pub location: String,
    pub name: String,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub incomplete: Option<String>,
    /// Whether the entry records files (read without keeping them).
    #[serde(default, rename = "files", deserialize_with = "any_items")]
    pub has_files: bool,
}

impl EntryKey {
    /// [`SkillEntry::content_unknown`] of the key.
    pub fn content_unknown(&self) -> bool {
        self.incomplete.is_some() || (self.content.is_none() && self.has_files)
    }
}

/// Header plus the skill entries without their file lists (history).
#[derive(Debug, Clone, Deserialize)]
pub struct Summary {
    pub format: String,
    pub version: u32,
    pub seq: u64,
    pub id: String,
    pub captured_at: String,
    #[serde(default)]
    pub kind: Option<String>,
    pub root: ScannedRoot,
    #[serde(default)]
    pub hash_options: HashOptions,
    pub skills: Vec<EntrySummary>,
    #[serde(default)]
    pub agents: Option<Vec<EntrySummary>>,
    /// Eval snapshots: the recorded result.
    #[serde(default)]
    pub evals: Option<EvalsRecord>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EntrySummary {
    pub location: String,
    pub name: String,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub repo: Option<String>,
    #[serde(default)]
    pub structural: Option<String>,
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub incomplete: Option<String>,
    /// Whether the entry records files (read without keeping them).
    #[serde(default, rename = "files", deserialize_with = "any_items")]
    pub has_files: bool,
    #[serde(default)]
    pub findings: BTreeMap<String, BTreeMap<String, u32>>,
    #[serde(default)]
    pub provenance: Option<Provenance>,
}

impl EntrySummary {
    /// [`SkillEntry::content_unknown`] of the summary.
    pub fn content_unknown(&self) -> bool {
        self.incomplete.is_some() || (self.content.is_none() && self.has_files)
    }
}

/// Whether a JSON array has any item, its items skipped without being kept.
fn any_items<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let items: Vec<serde::de::IgnoredAny> = serde::Deserialize::deserialize(d)?;
    Ok(!items.is_empty())
}

/// Header plus an eval snapshot's key: tells scan and eval snapshots apart.
#[derive(Debug, Clone, Deserialize)]
pub struct EvalsProbe {
    pub format: String,
    pub version: u32,
    pub seq: u64,
    pub id: String,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub evals: Option<EvalsKey>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EvalsKey {
    pub key: String,
}

/// Something every snapshot type exposes for version checks.
pub trait Versioned {
    fn format_version(&self) -> (&str, u32, u64, &str);
}

macro_rules! versioned {
    ($t:ty) => {
        impl Versioned for $t {
            fn format_version(&self) -> (&str, u32, u64, &str) {
                (&self.format, self.version, self.seq, &self.id)
            }
        }
    };
}
versioned!(Snapshot);
versioned!(Header);
versioned!(Summary);
versioned!(Listing);
versioned!(Presence);
versioned!(EvalsProbe);

#[derive(Deserialize)]
struct Probe {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    version: Option<u32>,
}

/// Parses one snapshot file's bytes into `T`, with precise errors.
pub fn parse<T: DeserializeOwned + Versioned>(
    f: &SnapshotFile,
    bytes: &[u8],
    check_name: bool,
) -> Result<T, LedgerError> {
    let path = f.path.display().to_string();
    match serde_json::from_slice::<T>(bytes) {
        Ok(s) => {
            let (format, version, seq, id) = s.format_version();
            if format != FORMAT {
                return Err(LedgerError::Corrupt {
                    path,
                    entry: f.entry(),
                    msg: format!(
                        "`format` is `{}`, expected `{FORMAT}`",
                        crate::text::sanitize_line(format)
                    ),
                });
            }
            if version > VERSION {
                return Err(LedgerError::Newer {
                    path,
                    found: version,
                });
            }
            if check_name && (seq != f.seq || id != f.id) {
                return Err(LedgerError::Corrupt {
                    path,
                    entry: f.entry(),
                    msg: format!(
                        "the file name says #{} ({}) but the content says #{seq} ({}): snapshots were renamed or reordered (see `skillguard baseline verify`)",
                        f.seq,
                        f.id,
                        crate::text::sanitize_line(id)
                    ),
                });
            }
            Ok(s)
        }
        Err(e) => {
            if let Ok(p) = serde_json::from_slice::<Probe>(bytes)
                && p.format.as_deref() == Some(FORMAT)
                && p.version.is_some_and(|v| v > VERSION)
            {
                return Err(LedgerError::Newer {
                    path,
                    found: p.version.unwrap_or_default(),
                });
            }
            Err(LedgerError::Corrupt {
                path,
                entry: f.entry(),
                msg: e.to_string(),
            })
        }
    }
}

/// Reads a file without following a final symlink, bounded.
fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, LedgerError> {
    let f = crate::fsutil::open_regular(path).map_err(io_err(path))?;
    let len = f.metadata().map_err(io_err(path))?.len();
    if len > max {
        return Err(LedgerError::Io {
            path: path.display().to_string(),
            source: io::Error::other(format!("file is {len} bytes, over the {max}-byte limit")),
        });
    }
    let mut buf = Vec::with_capacity(len as usize);
    f.take(max + 1)
        .read_to_end(&mut buf)
        .map_err(io_err(path))?;
    Ok(buf)
}

/// Parses `00000001-<32 hex>.json` (or `.lines`).
fn parse_name(name: &str, ext: &str) -> Option<(u64, String)> {
    let stem = name.strip_suffix(ext)?;
    let (seq, id) = stem.split_once('-')?;
    if seq.len() != 8 || !seq.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if id.len() != 32 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    Some((seq.parse().ok()?, id.to_owned()))
}

/// A ledger directory.
#[derive(Debug, Clone)]
pub struct Ledger {
    pub root: PathBuf,
    /// No symbolic link may sit between this directory and the ledger (set for the default
    /// location inside a scanned repository).
    pub guard: Option<PathBuf>,
}

/// What an append wrote.
#[derive(Debug, Clone)]
pub struct Appended {
    pub seq: u64,
    pub id: String,
    pub path: PathBuf,
    pub skills: usize,
    pub agents: Option<usize>,
}

/// The newest snapshot as an append needs it.
#[derive(Debug, Clone)]
pub struct Newest {
    pub file: SnapshotFile,
    /// SHA-256 of the file's bytes.
    pub sha256: String,
    pub prev: Option<PrevLink>,
    /// Line-hash references by file SHA-256.
    pub known: std::collections::HashMap<String, LineRef>,
}

/// A snapshot to append; the ledger fills in seq, id, prev, time and the line pack.
#[derive(Debug, Clone)]
pub struct Draft {
    pub root: ScannedRoot,
    pub hash_options: HashOptions,
    pub note: Option<String>,
    pub imported: Option<Imported>,
    /// Entries; a file's `lines` is filled from `line_data` by the ledger.
    pub skills: Vec<SkillEntry>,
    /// Agent entries (`None`: not recorded, as in an AgentEval import).
    pub agents: Option<Vec<SkillEntry>>,
    /// `Some(KIND_EVALS)` with `evals` for an eval snapshot; `None` for a scan.
    pub kind: Option<String>,
    /// The graded result of an eval snapshot.
    pub evals: Option<EvalsRecord>,
    /// Line hashes of text files by their SHA-256.
    pub line_data: std::collections::HashMap<String, std::sync::Arc<[u32]>>,
    /// Capture time; now when absent.
    pub captured_at: Option<String>,
    /// The newest snapshot as read before the scan, if any (re-checked under the lock).
    pub newest: Option<Newest>,
}

fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn new_id(seq: u64, prev: &str) -> String {
    use std::hash::{BuildHasher, Hasher};
    let rnd = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let seed = format!("{seq}\0{prev}\0{nanos}\0{}\0{rnd}", std::process::id());
    sha256_hex(seed.as_bytes())[..32].to_owned()
}

/// Writes `bytes` to `dir/name` atomically and durably: temporary file, fsync, rename, fsync dir.
fn write_durable(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, LedgerError> {
    let p = write_synced(dir, name, bytes)?;
    fsutil::sync_dir(&p).map_err(io_err(dir))?;
    Ok(p)
}

/// Temporary file, fsync, rename — the caller fsyncs the directory.
fn write_synced(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, LedgerError> {
    commit_tmp(write_tmp(dir, name, bytes)?)
}

/// Writes and fsyncs a temporary file next to `dir/name` ([`fsutil::stage`]); dropped
/// without [`commit_tmp`], it is removed.
fn write_tmp(dir: &Path, name: &str, bytes: &[u8]) -> Result<fsutil::Staged, LedgerError> {
    let target = dir.join(name);
    fsutil::stage(&target, |w| w.write_all(bytes)).map_err(io_err(&target))
}

/// Renames a written temporary file into place.
fn commit_tmp(staged: fsutil::Staged) -> Result<PathBuf, LedgerError> {
    let target = staged.path().to_path_buf();
    staged.replace().map_err(io_err(&target))?;
    Ok(target)
}

/// Is `name` a temporary file of the ledger's own (`.skillguard-tmp-PID-NANOS-SEQ-NAME` of
/// `HEAD.json`, a snapshot or a line pack; `…-PID-NANOS-NAME` from before), left by a
/// writer killed mid-write? Only those are ever removed.
fn is_ledger_tmp(name: &str) -> bool {
    name.strip_prefix(fsutil::TMP_PREFIX).is_some_and(|rest| {
        rest.match_indices('-').any(|(i, _)| {
            let n = &rest[i + 1..];
            n == HEAD || parse_name(n, ".json").is_some() || parse_name(n, ".lines").is_some()
        })
    })
}

/// Creates `dir` (and parents) refusing to pass through a symbolic link planted inside
/// `guard` (the scanned repository or workspace: a scanned tree must never choose where we
/// write); without a guard, refusing a link at `dir` itself. A link is inside `guard` when
/// the folder holding it is, by its real location: so a relative `dir`, or one reached
/// through a link the operator chose outside the repository, is judged by where it really
/// is. Links outside the repository (for example /tmp on some systems, or an operator's own
/// link to a ledger folder) are the operator's business.
pub(crate) fn ensure_dir(dir: &Path, guard: Option<&Path>) -> Result<(), LedgerError> {
    let dir = std::path::absolute(dir).map_err(io_err(dir))?;
    // The guard by its real location too (the scan's home already is).
    let guard = guard.map(|g| fs::canonicalize(g).unwrap_or_else(|_| g.to_path_buf()));
    let mut cur = PathBuf::new();
    for c in dir.components() {
        cur.push(c);
        match fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                let refused = match guard.as_deref() {
                    Some(g) => planted_in(&cur, g),
                    None => cur == dir,
                };
                if refused {
                    return Err(LedgerError::Symlink {
                        path: cur.display().to_string(),
                    });
                }
            }
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(LedgerError::Io {
                    path: cur.display().to_string(),
                    source: io::Error::other("exists and is not a directory"),
                });
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::create_dir(&cur) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io_err(&cur)(e)),
            },
            Err(e) => return Err(io_err(&cur)(e)),
        }
    }
    Ok(())
}

/// Is the link `link` inside `guard` (a real path): by its own path, or by the real location
/// of the folder holding it?
fn planted_in(link: &Path, guard: &Path) -> bool {
    if link.starts_with(guard) && link != guard {
        return true;
    }
    link.parent()
        .and_then(|p| fs::canonicalize(p).ok())
        .is_some_and(|p| p.starts_with(guard))
}

/// Serialises a snapshot with one skill entry per line (readable `git diff`s).
pub fn to_bytes(s: &Snapshot) -> Vec<u8> {
    #[derive(Serialize)]
    struct HeaderRef<'a> {
        format: &'a str,
        version: u32,
        seq: u64,
        id: &'a str,
        prev: &'a Option<PrevLink>,
        captured_at: &'a str,
        tool: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        kind: &'a Option<String>,
        root: &'a ScannedRoot,
        hash_options: &'a HashOptions,
        #[serde(skip_serializing_if = "Option::is_none")]
        lines: &'a Option<PackRef>,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: &'a Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        imported: &'a Option<Imported>,
    }
    let h = HeaderRef {
        format: &s.format,
        version: s.version,
        seq: s.seq,
        id: &s.id,
        prev: &s.prev,
        captured_at: &s.captured_at,
        tool: &s.tool,
        kind: &s.kind,
        root: &s.root,
        hash_options: &s.hash_options,
        lines: &s.lines,
        note: &s.note,
        imported: &s.imported,
    };
    let mut out = serde_json::to_vec(&h).expect("serialisable header");
    out.pop(); // the closing brace
    entry_array(&mut out, "skills", &s.skills);
    if let Some(agents) = &s.agents {
        entry_array(&mut out, "agents", agents);
    }
    if let Some(evals) = &s.evals {
        out.extend_from_slice(b",\n\"evals\":");
        super::evalsnap::write_record(&mut out, evals);
    }
    out.extend_from_slice(b"}\n");
    out
}

/// Appends `,\n"key":[` and one entry per line, then `]` (`]` right after `[` when empty).
fn entry_array(out: &mut Vec<u8>, key: &str, entries: &[SkillEntry]) {
    out.extend_from_slice(format!(",\n\"{key}\":[").as_bytes());
    // Entries are serialised in parallel, then joined in order.
    let entries: Vec<Vec<u8>> = entries
        .par_iter()
        .map(|e| serde_json::to_vec(e).expect("serialisable entry"))
        .collect();
    out.reserve(entries.iter().map(|e| e.len() + 2).sum::<usize>() + 4);
    for (i, e) in entries.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        out.extend_from_slice(e);
    }
    out.extend_from_slice(if entries.is_empty() { b"]" } else { b"\n]" });
}

impl Ledger {
    pub fn new(root: impl Into<PathBuf>) -> Ledger {
        Ledger {
            root: root.into(),
            guard: None,
        }
    }

    /// A ledger inside `home` that must not be reached through a symbolic link.
    pub fn guarded(root: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Ledger {
        Ledger {
            root: root.into(),
            guard: Some(home.into()),
        }
    }

    fn snapshots_dir(&self) -> PathBuf {
        self.root.join(SNAPSHOTS)
    }

    pub fn exists(&self) -> bool {
        self.snapshots_dir().is_dir()
    }

    /// Snapshot files, ordered by (seq, id). Missing ledger → empty.
    pub fn files(&self) -> Result<Vec<SnapshotFile>, LedgerError> {
        let dir = self.snapshots_dir();
        let rd = match fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_err(&dir)(e)),
        };
        let mut out = Vec::new();
        for e in rd {
            let e = e.map_err(io_err(&dir))?;
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if let Some((seq, id)) = parse_name(name, ".json") {
                out.push(SnapshotFile {
                    seq,
                    id,
                    path: e.path(),
                });
            }
        }
        out.sort_by(|a, b| (a.seq, &a.id).cmp(&(b.seq, &b.id)));
        Ok(out)
    }

    /// Snapshot files for a reader: [`Ledger::files`], refused when `HEAD.json` names a
    /// snapshot that is not there. HEAD is written only after its snapshot, so a missing one
    /// was deleted; a comparison against what is left would pass what was vetted away.
    fn files_for_reading(&self) -> Result<Vec<SnapshotFile>, LedgerError> {
        let files = self.files()?;
        if let Some(h) = self.read_head()?
            && !files.iter().any(|f| f.seq == h.seq && f.id == h.id)
        {
            let left = match files.last() {
                Some(f) => format!("the newest snapshot left is #{}", f.seq),
                None => "no snapshot is left".to_owned(),
            };
            return Err(LedgerError::Integrity {
                root: self.root.display().to_string(),
                msg: format!(
                    "{} names #{} ({}) but {left}: snapshots were deleted. Restore them (from version control or a backup); nothing was compared",
                    self.root.join(HEAD).display(),
                    h.seq,
                    h.id
                ),
            });
        }
        Ok(files)
    }

    /// Loads and parses every snapshot (in parallel), oldest first.
    pub fn load<T: DeserializeOwned + Versioned + Send>(
        &self,
    ) -> Result<Vec<Loaded<T>>, LedgerError> {
        let files = self.files_for_reading()?;
        files.into_par_iter().map(|f| self.load_one(f)).collect()
    }

    /// Loads every snapshot in parallel and maps each through `f` right away, so only the
    /// mapped results stay in memory. Oldest first.
    pub fn load_map<T, R, F>(&self, f: F) -> Result<Vec<R>, LedgerError>
    where
        T: DeserializeOwned + Versioned,
        R: Send,
        F: Fn(Loaded<T>) -> R + Sync,
    {
        let files = self.files_for_reading()?;
        files
            .into_par_iter()
            .map(|file| self.load_one::<T>(file).map(&f))
            .collect()
    }

    pub fn load_one<T: DeserializeOwned + Versioned>(
        &self,
        f: SnapshotFile,
    ) -> Result<Loaded<T>, LedgerError> {
        self.load_file(f, true, false)
    }

    /// `hash`: also compute the SHA-256 of the file (the chain checks need it; readers do
    /// not, and leave [`Loaded::sha256`] empty).
    fn load_file<T: DeserializeOwned + Versioned>(
        &self,
        f: SnapshotFile,
        check_name: bool,
        hash: bool,
    ) -> Result<Loaded<T>, LedgerError> {
        let bytes = read_bounded(&f.path, MAX_SNAPSHOT_BYTES)?;
        let snapshot = parse::<T>(&f, &bytes, check_name)?;
        Ok(Loaded {
            sha256: if hash {
                sha256_hex(&bytes)
            } else {
                String::new()
            },
            file: f,
            snapshot,
        })
    }

    fn read_head(&self) -> Result<Option<Head>, LedgerError> {
        let p = self.root.join(HEAD);
        let bytes = match read_bounded(&p, 64 * 1024) {
            Ok(b) => b,
            Err(LedgerError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        let h: Head = serde_json::from_slice(&bytes).map_err(|e| LedgerError::Corrupt {
            path: p.display().to_string(),
            entry: "HEAD".into(),
            msg: e.to_string(),
        })?;
        if h.format != HEAD_FORMAT {
            return Err(LedgerError::Corrupt {
                path: p.display().to_string(),
                entry: "HEAD".into(),
                msg: format!("`format` is not `{HEAD_FORMAT}`"),
            });
        }
        if h.version > VERSION {
            return Err(LedgerError::Newer {
                path: p.display().to_string(),
                found: h.version,
            });
        }
        Ok(Some(h))
    }

    /// Reads the line hashes a [`LineRef`] points to; `None` when the pack is missing,
    /// damaged or too short (diffs then show sizes only).
    pub fn read_lines(
        &self,
        r: &LineRef,
        packs: &mut BTreeMap<u64, Option<Vec<u8>>>,
    ) -> Option<Vec<u32>> {
        let pack = packs.entry(r.seq).or_insert_with(|| {
            // Only the pack the snapshot itself names, and only if its hash matches.
            let files = self.files().ok()?;
            let mut same_seq = files.iter().filter(|f| f.seq == r.seq);
            let f = same_seq.next()?.clone();
            if same_seq.next().is_some() {
                return None;
            }
            let h: Loaded<Header> = self.load_one(f).ok()?;
            let pr = h.snapshot.lines?;
            if pr.file != format!("{:08}-{}.lines", h.snapshot.seq, h.snapshot.id) {
                return None;
            }
            let bytes =
                read_bounded(&self.snapshots_dir().join(&pr.file), MAX_SNAPSHOT_BYTES).ok()?;
            (bytes.starts_with(PACK_MAGIC) && sha256_hex(&bytes) == pr.sha256).then_some(bytes)
        });
        let pack = pack.as_ref()?;
        let start = PACK_MAGIC.len() + (r.offset as usize).checked_mul(4)?;
        let end = start.checked_add(r.count as usize * 4)?;
        crate::linediff::decode(pack.get(start..end)?)
    }

    /// What an append needs of the newest snapshot. Read once before a scan (to skip line
    /// hashes the ledger already holds) and handed to the append, which re-reads the file
    /// under the lock and reuses this only if its bytes still hash the same.
    pub fn newest(&self) -> Result<Option<Newest>, LedgerError> {
        match self.files()?.pop() {
            Some(f) => self.newest_of(&f).map(Some),
            None => Ok(None),
        }
    }

    fn newest_of(&self, f: &SnapshotFile) -> Result<Newest, LedgerError> {
        let l: Loaded<Snapshot> = self.load_file(f.clone(), true, true)?;
        let mut known = None;
        if l.snapshot.is_evals() {
            // An eval snapshot holds no files: the line hashes to reuse are those of the
            // newest scan snapshot before it (none when it cannot be read).
            for older in self.files()?.into_iter().rev().filter(|x| x.seq < f.seq) {
                match self.load_one::<Snapshot>(older) {
                    Ok(o) if o.snapshot.is_evals() => continue,
                    Ok(o) => known = Some(line_refs(o.snapshot)),
                    Err(_) => {}
                }
                break;
            }
        }
        Ok(Newest {
            file: l.file,
            sha256: l.sha256,
            prev: l.snapshot.prev.clone(),
            known: known.unwrap_or_else(|| line_refs(l.snapshot)),
        })
    }

    fn newest_under_lock(
        &self,
        f: &SnapshotFile,
        cached: Option<Newest>,
    ) -> Result<Newest, LedgerError> {
        if let Some(c) = cached
            && c.file == *f
        {
            let bytes = read_bounded(&f.path, MAX_SNAPSHOT_BYTES)?;
            if sha256_hex(&bytes) == c.sha256 {
                return Ok(c);
            }
        }
        self.newest_of(f)
    }

    /// An exclusive lock held across a multi-snapshot operation (an import checks what was
    /// already imported and appends under it, so two imports never both append the same
    /// snapshots). Separate from the append lock, which each append still takes.
    pub fn batch_lock(&self) -> Result<File, LedgerError> {
        ensure_dir(&self.root, self.guard.as_deref())?;
        self.exclusive("batch.lock")
    }

    /// Opens `root/name` (never through a link) and takes an exclusive lock on it; the lock
    /// ends when the file is closed, also when the process dies.
    fn exclusive(&self, name: &str) -> Result<File, LedgerError> {
        let p = self.root.join(name);
        let mut o = OpenOptions::new();
        o.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.custom_flags(libc::O_NOFOLLOW);
        }
        let f = o.open(&p).map_err(io_err(&p))?;
        f.lock().map_err(io_err(&p))?;
        self.ignore_locks()?;
        Ok(f)
    }

    /// Writes `.gitignore` in the ledger folder, once (under the lock), so that its lock
    /// files are never committed with the ledger (`git add -A`); one that exists (written
    /// before, or the user's own) is left as it is.
    fn ignore_locks(&self) -> Result<(), LedgerError> {
        let p = self.root.join(".gitignore");
        if fs::symlink_metadata(&p).is_ok() {
            return Ok(());
        }
        // `create_new` never follows a link planted there; the file is one small write.
        match OpenOptions::new().write(true).create_new(true).open(&p) {
            Ok(mut f) => f.write_all(GITIGNORE.as_bytes()).map_err(io_err(&p)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
            Err(e) => Err(io_err(&p)(e)),
        }
    }

    /// Appends a snapshot. Serialised with other writers by an exclusive lock.
    pub fn append(&self, draft: Draft) -> Result<Appended, LedgerError> {
        let snap_dir = self.snapshots_dir();
        ensure_dir(&snap_dir, self.guard.as_deref())?;
        let lock = self.exclusive(LOCK)?;

        // Leftovers of writers killed mid-write (we hold the lock: nobody else is writing).
        for dir in [&snap_dir, &self.root] {
            for e in fs::read_dir(dir).into_iter().flatten().flatten() {
                if is_ledger_tmp(&e.file_name().to_string_lossy()) {
                    let _ = fs::remove_file(e.path());
                }
            }
        }

        let files = self.files()?;
        let root_s = self.root.display().to_string();
        let mut draft = draft;
        let cached = draft.newest.take();
        let last = match files.last() {
            Some(f) => {
                let l = self.newest_under_lock(f, cached)?;
                if files.iter().filter(|x| x.seq == f.seq).count() > 1 {
                    return Err(LedgerError::Integrity {
                        root: root_s,
                        msg: format!(
                            "two snapshots carry #{} (a fork, for example from a merge)",
                            f.seq
                        ),
                    });
                }
                // The newest snapshot must be the one HEAD names (or one past it, after an
                // interrupted append): otherwise it was edited or replaced.
                let head = self.read_head()?;
                let current = head
                    .as_ref()
                    .is_some_and(|h| h.seq == f.seq && h.id == f.id && h.sha256 == l.sha256);
                match head {
                    Some(_) if current => {}
                    Some(h)
                        if h.seq.checked_add(1) == Some(f.seq)
                            && l.prev.as_ref().is_some_and(|p| {
                                p.seq == h.seq && p.id == h.id && p.sha256 == h.sha256
                            }) => {}
                    Some(h) => {
                        return Err(LedgerError::Integrity {
                            root: root_s,
                            msg: format!(
                                "HEAD.json names #{} ({}), which does not match the newest snapshot file {}",
                                h.seq,
                                h.id,
                                f.path.display()
                            ),
                        });
                    }
                    // The very first append was interrupted before HEAD was written.
                    None if f.seq == 1 && files.len() == 1 && l.prev.is_none() => {}
                    None => {
                        return Err(LedgerError::Integrity {
                            root: root_s,
                            msg: "HEAD.json is missing while snapshots exist".into(),
                        });
                    }
                }
                if !current {
                    // Complete the interrupted append first, so that at most one snapshot is
                    // ever beyond HEAD.
                    self.write_head(f.seq, &f.id, &l.sha256)?;
                }
                Some(l)
            }
            // No snapshot left. HEAD is written only after its snapshot, so a HEAD here
            // means snapshots were deleted: starting a fresh #1 would overwrite HEAD and
            // launder the wipe into an intact-looking chain.
            None => match self.read_head()? {
                Some(h) => {
                    return Err(LedgerError::Integrity {
                        root: root_s,
                        msg: format!(
                            "HEAD.json names #{} ({}) but no snapshot is left: they were deleted. Restore the snapshots (from version control or a backup), or start a new ledger in an empty folder; nothing was appended",
                            h.seq, h.id
                        ),
                    });
                }
                None => None,
            },
        };
        // Line packs whose snapshot was never written (an append killed in between).
        if let Ok(rd) = fs::read_dir(&snap_dir) {
            for e in rd.flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                // Only packs newer than every snapshot come from an interrupted append; an
                // older orphan is evidence of a deleted snapshot and stays.
                if let Some((seq, id)) = parse_name(&n, ".lines")
                    && !files.iter().any(|f| f.seq == seq && f.id == id)
                    && files.last().is_none_or(|f| seq > f.seq)
                {
                    let _ = fs::remove_file(e.path());
                }
            }
        }

        let seq = match &last {
            None => 1,
            Some(l) => l
                .file
                .seq
                .checked_add(1)
                .ok_or_else(|| LedgerError::Integrity {
                    root: self.root.display().to_string(),
                    msg: "the newest snapshot number is at its maximum".into(),
                })?,
        };
        let prev = last.as_ref().map(|l| PrevLink {
            seq: l.file.seq,
            id: l.file.id.clone(),
            sha256: l.sha256.clone(),
        });
        let id = new_id(seq, prev.as_ref().map_or("", |p| p.sha256.as_str()));

        // Line hashes: reuse the previous snapshot's references for unchanged content,
        // pack the rest.
        let known: std::collections::HashMap<String, LineRef> =
            last.map(|l| l.known).unwrap_or_default();
        let Draft {
            root,
            hash_options,
            note,
            imported,
            mut skills,
            mut agents,
            kind,
            evals,
            line_data,
            captured_at,
            newest: _,
        } = draft;
        skills.sort_by(|a, b| a.location.cmp(&b.location));
        if let Some(a) = &mut agents {
            a.sort_by(|a, b| a.location.cmp(&b.location));
        }
        let mut pack: Vec<u8> = Vec::with_capacity(
            PACK_MAGIC.len() + line_data.values().map(|h| h.len() * 4).sum::<usize>(),
        );
        pack.extend_from_slice(PACK_MAGIC);
        let mut placed: std::collections::HashMap<&str, LineRef> = Default::default();
        for e in skills.iter_mut().chain(agents.iter_mut().flatten()) {
            for f in &mut e.files {
                if let Some(r) = known
                    .get(f.sha256.as_str())
                    .or(placed.get(f.sha256.as_str()))
                {
                    f.lines = Some(*r);
                    continue;
                }
                if let Some((k, h)) = line_data.get_key_value(&f.sha256) {
                    let r = LineRef {
                        seq,
                        offset: ((pack.len() - PACK_MAGIC.len()) / 4) as u64,
                        count: h.len() as u32,
                    };
                    crate::linediff::encode_into(h, &mut pack);
                    placed.insert(k.as_str(), r);
                    f.lines = Some(r);
                }
            }
        }
        drop(known);
        // The pack's hash goes into the snapshot; then pack and snapshot are written in
        // parallel (each fsynced), the directory once, and HEAD last.
        let pack_name = format!("{seq:08}-{id}.lines");
        let lines = (!placed.is_empty()).then(|| PackRef {
            file: pack_name.clone(),
            sha256: sha256_hex(&pack),
            size: pack.len() as u64,
            hash: crate::linediff::LINE_HASH_VERSION.to_owned(),
        });
        let n = skills.len();
        let n_agents = agents.as_ref().map(Vec::len);
        let snap = Snapshot {
            format: FORMAT.into(),
            version: VERSION,
            seq,
            id: id.clone(),
            prev,
            captured_at: captured_at.unwrap_or_else(now_rfc3339),
            tool: format!("skillguard {}", env!("CARGO_PKG_VERSION")),
            kind,
            root,
            hash_options,
            lines,
            note,
            imported,
            skills,
            agents,
            evals,
        };
        let json_name = format!("{seq:08}-{id}.json");
        // The pack is in place (renamed, directory synced) before the snapshot that names it
        // is renamed, so no crash can leave a snapshot without its pack; the snapshot is
        // serialised and written meanwhile.
        let (pack_written, snap_tmp) = rayon::join(
            || {
                if placed.is_empty() {
                    Ok(())
                } else {
                    write_durable(&snap_dir, &pack_name, &pack).map(|_| ())
                }
            },
            || {
                let bytes = to_bytes(&snap);
                let sha256 = sha256_hex(&bytes);
                write_tmp(&snap_dir, &json_name, &bytes).map(|t| (t, sha256))
            },
        );
        let (tmp, sha256) = match (pack_written, snap_tmp) {
            (Ok(()), Ok(t)) => t,
            // The written snapshot is dropped, which removes its temporary file.
            (Err(e), Ok(_)) => return Err(e),
            (_, Err(e)) => return Err(e),
        };
        let path = commit_tmp(tmp)?;
        fsutil::sync_dir(&path).map_err(io_err(&snap_dir))?;
        if std::env::var_os("SKILLGUARD_TEST_PAUSE_BEFORE_HEAD").is_some() {
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        self.write_head(seq, &id, &sha256)?;
        drop(lock);
        Ok(Appended {
            seq,
            id,
            path,
            skills: n,
            agents: n_agents,
        })
    }

    fn write_head(&self, seq: u64, id: &str, sha256: &str) -> Result<(), LedgerError> {
        let head = Head {
            format: HEAD_FORMAT.into(),
            version: VERSION,
            seq,
            id: id.to_owned(),
            sha256: sha256.to_owned(),
        };
        let mut bytes = serde_json::to_vec_pretty(&head).expect("serialisable head");
        bytes.push(b'\n');
        // The file is fsynced before the rename, so HEAD is never torn; the directory is
        // not: losing this rename in a power cut leaves HEAD one snapshot behind, a state
        // `verify` accepts and the next append completes.
        write_synced(&self.root, HEAD, &bytes).map(|_| ())
    }

    /// Finds a snapshot by id, unique id prefix (4+ characters) or `#N`/`N` sequence number.
    pub fn resolve<'a>(
        &self,
        list: &'a [SnapshotFile],
        key: &str,
    ) -> Result<&'a SnapshotFile, LedgerError> {
        let k = key.trim().trim_start_matches('#');
        let root = self.root.display().to_string();
        if !k.is_empty()
            && k.len() < 32
            && k.bytes().all(|b| b.is_ascii_digit())
            && let Ok(n) = k.parse::<u64>()
            && let Some(l) = list.iter().find(|l| l.seq == n)
        {
            return Ok(l);
        }
        let k = k.to_ascii_lowercase();
        if k.len() >= 4 {
            let hits: Vec<&SnapshotFile> = list.iter().filter(|l| l.id.starts_with(&k)).collect();
            match hits.len() {
                1 => return Ok(hits[0]),
                0 => {}
                n => {
                    return Err(LedgerError::Lookup {
                        root,
                        msg: format!(
                            "`{}` matches {n} snapshots; give more characters",
                            crate::text::sanitize_line(key)
                        ),
                    });
                }
            }
        }
        Err(LedgerError::Lookup {
            root,
            msg: format!(
                "no snapshot with id or number `{}` (see `skillguard baseline list`)",
                crate::text::sanitize_line(key)
            ),
        })
    }
}

/// The line-hash references of a snapshot's files, by file SHA-256.
fn line_refs(s: Snapshot) -> std::collections::HashMap<String, LineRef> {
    s.skills
        .into_iter()
        .chain(s.agents.into_iter().flatten())
        .flat_map(|e| e.files)
        .filter_map(|f| f.lines.map(|r| (f.sha256, r)))
        .collect()
}

/// One integrity problem found by [`verify`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// `edited`, `deleted`, `inserted`, `reordered`, `fork`, `head`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub message: String,
}

/// Result of [`verify`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct Verification {
    pub snapshots: usize,
    /// `{seq, id, sha256}` of the newest snapshot when the chain is intact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<Head>,
    pub problems: Vec<Problem>,
    /// Harmless observations (an interrupted append, leftover temporary files).
    pub notes: Vec<String>,
}

impl Verification {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks the whole chain. Unreadable, corrupt or newer-version files are errors; tampering
/// is reported as [`Problem`]s naming the snapshot.
pub fn verify(ledger: &Ledger) -> Result<Verification, LedgerError> {
    let loaded: Vec<Loaded<Header>> = ledger
        .files()?
        .into_par_iter()
        .map(|f| ledger.load_file(f, false, true))
        .collect::<Result<_, _>>()?;
    let mut v = Verification {
        snapshots: loaded.len(),
        ..Verification::default()
    };
    let rel = |p: &Path| {
        p.strip_prefix(&ledger.root)
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let by_id: BTreeMap<&str, &Loaded<Header>> =
        loaded.iter().map(|l| (l.file.id.as_str(), l)).collect();
    let mut expected = 1u64;
    for (i, l) in loaded.iter().enumerate() {
        let file = Some(rel(&l.file.path));
        let seq = l.file.seq;
        if i > 0 && loaded[i - 1].file.seq == seq {
            v.problems.push(Problem {
                kind: "fork",
                seq: Some(seq),
                file: file.clone(),
                message: format!(
                    "two snapshots carry #{seq} ({} and {}): one was inserted, or two ledgers were merged",
                    loaded[i - 1].file.id, l.file.id
                ),
            });
            continue;
        }
        if seq > expected {
            let missing = if seq == expected + 1 {
                format!("#{expected}")
            } else {
                format!("#{expected}–#{}", seq - 1)
            };
            v.problems.push(Problem {
                kind: "deleted",
                seq: Some(expected),
                file: None,
                message: format!(
                    "snapshot {missing} is missing (deleted) before {}",
                    rel(&l.file.path)
                ),
            });
        }
        expected = seq.saturating_add(1);
        if l.snapshot.seq != seq || l.snapshot.id != l.file.id {
            v.problems.push(Problem {
                kind: "reordered",
                seq: Some(seq),
                file: file.clone(),
                message: format!(
                    "the file for #{seq} ({}) holds snapshot #{} ({}): snapshots were renamed or reordered",
                    l.file.id,
                    l.snapshot.seq,
                    crate::text::sanitize_line(&l.snapshot.id)
                ),
            });
            continue;
        }
        let prev_file = (i > 0).then(|| &loaded[i - 1]);
        match (&l.snapshot.prev, prev_file) {
            (None, None) => {}
            (None, Some(_)) => v.problems.push(Problem {
                kind: "inserted",
                seq: Some(seq),
                file: file.clone(),
                message: format!("#{seq} claims to be the first snapshot but follows others: it was inserted or rewritten"),
            }),
            (Some(p), None) => {
                if seq == 1 || p.seq == 0 {
                    v.problems.push(Problem {
                        kind: "inserted",
                        seq: Some(seq),
                        file: file.clone(),
                        message: format!("#{seq} names a predecessor #{} ({}) that is not in the ledger", p.seq, p.id),
                    });
                }
                // Otherwise the predecessor's absence is already reported as deleted.
            }
            (Some(p), Some(pf)) => {
                if p.id == pf.file.id && p.seq == pf.file.seq {
                    if p.sha256 != pf.sha256 {
                        v.problems.push(Problem {
                            kind: "edited",
                            seq: Some(pf.file.seq),
                            file: Some(rel(&pf.file.path)),
                            message: format!(
                                "#{} ({}) was modified after it was written: its SHA-256 is {}, but #{seq} recorded {}",
                                pf.file.seq, pf.file.id, pf.sha256, p.sha256
                            ),
                        });
                    }
                } else if let Some(other) = by_id.get(p.id.as_str()) {
                    v.problems.push(Problem {
                        kind: "reordered",
                        seq: Some(seq),
                        file: file.clone(),
                        message: format!(
                            "#{seq} follows {} ({}) but was written after {} ({}): snapshots were renumbered or reordered",
                            pf.file.seq, pf.file.id, other.file.seq, other.file.id
                        ),
                    });
                } else if pf.file.seq.checked_add(1) == Some(seq) {
                    v.problems.push(Problem {
                        kind: "inserted",
                        seq: Some(pf.file.seq),
                        file: Some(rel(&pf.file.path)),
                        message: format!(
                            "#{} ({}) is not the snapshot #{seq} was written after ({}): it was inserted or replaced",
                            pf.file.seq, pf.file.id, p.id
                        ),
                    });
                }
            }
        }
        // The line pack written with this snapshot must be intact.
        if let Some(pack) = &l.snapshot.lines {
            let p = ledger.snapshots_dir().join(&pack.file);
            match read_bounded(&p, MAX_SNAPSHOT_BYTES) {
                Ok(b) if sha256_hex(&b) == pack.sha256 => {}
                Ok(_) => v.problems.push(Problem {
                    kind: "edited",
                    seq: Some(seq),
                    file: Some(rel(&p)),
                    message: format!("the line pack of #{seq} was modified after it was written"),
                }),
                Err(_) => v.problems.push(Problem {
                    kind: "deleted",
                    seq: Some(seq),
                    file: Some(rel(&p)),
                    message: format!("the line pack of #{seq} is missing or unreadable"),
                }),
            }
        }
    }
    // The newest snapshot against HEAD.
    let head = ledger.read_head()?;
    match (loaded.last(), head) {
        (None, None) => {}
        (None, Some(h)) => v.problems.push(Problem {
            kind: "deleted",
            seq: Some(h.seq),
            file: None,
            message: format!(
                "HEAD.json names #{} ({}) but no snapshot is left: they were deleted",
                h.seq, h.id
            ),
        }),
        (Some(l), None) if loaded.len() == 1 && l.file.seq == 1 && l.snapshot.prev.is_none() => {
            v.notes.push(
                "#1 was written by an append that was interrupted before HEAD.json was written; the next append completes it"
                    .into(),
            )
        }
        (Some(l), None) => v.problems.push(Problem {
            kind: "head",
            seq: Some(l.file.seq),
            file: Some(HEAD.into()),
            message: "HEAD.json is missing: the newest snapshot cannot be checked".into(),
        }),
        (Some(l), Some(h)) => {
            if h.seq == l.file.seq && h.id == l.file.id {
                if h.sha256 != l.sha256 {
                    v.problems.push(Problem {
                        kind: "edited",
                        seq: Some(l.file.seq),
                        file: Some(rel(&l.file.path)),
                        message: format!(
                            "#{} ({}), the newest snapshot, was modified after it was written: its SHA-256 is {}, HEAD.json recorded {}",
                            l.file.seq, l.file.id, l.sha256, h.sha256
                        ),
                    });
                }
            } else if h.seq.checked_add(1) == Some(l.file.seq)
                && l.snapshot
                    .prev
                    .as_ref()
                    .is_some_and(|p| p.id == h.id && p.sha256 == h.sha256)
            {
                v.notes.push(format!(
                    "#{} was written by an append that was interrupted before HEAD.json was updated; the next append completes it",
                    l.file.seq
                ));
            } else if h.seq > l.file.seq {
                v.problems.push(Problem {
                    kind: "deleted",
                    seq: Some(l.file.seq.saturating_add(1)),
                    file: None,
                    message: format!(
                        "HEAD.json names #{} ({}) but the newest snapshot is #{}: newer snapshots were deleted",
                        h.seq, h.id, l.file.seq
                    ),
                });
            } else {
                v.problems.push(Problem {
                    kind: "head",
                    seq: Some(l.file.seq),
                    file: Some(HEAD.into()),
                    message: format!(
                        "HEAD.json names #{} ({}), which does not chain to the newest snapshot #{} ({})",
                        h.seq, h.id, l.file.seq, l.file.id
                    ),
                });
            }
        }
    }
    if v.problems.is_empty() {
        v.head = loaded.last().map(|l| Head {
            format: HEAD_FORMAT.into(),
            version: VERSION,
            seq: l.file.seq,
            id: l.file.id.clone(),
            sha256: l.sha256.clone(),
        });
    }
    // Leftovers.
    for dir in [ledger.root.clone(), ledger.snapshots_dir()] {
        if let Ok(rd) = fs::read_dir(&dir) {
            let mut names: Vec<String> = rd
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            for n in names {
                if is_ledger_tmp(&n) {
                    v.notes.push(format!(
                        "{} is a temporary file left by an interrupted write; the next append removes it",
                        crate::text::sanitize_line(&rel(&dir.join(&n)))
                    ));
                } else if let Some((seq, id)) = parse_name(&n, ".lines")
                    && !loaded.iter().any(|l| l.file.seq == seq && l.file.id == id)
                {
                    if loaded.iter().any(|l| l.file.seq == seq) {
                        v.problems.push(Problem {
                            kind: "inserted",
                            seq: Some(seq),
                            file: Some(rel(&dir.join(&n))),
                            message: format!(
                                "a line pack that belongs to no snapshot ({id}) sits beside #{seq}: it was planted"
                            ),
                        });
                        continue;
                    }
                    v.notes.push(format!(
                            "{} belongs to no snapshot (an append interrupted before its snapshot was written, or its snapshot was deleted)",
                            crate::text::sanitize_line(&rel(&dir.join(&n)))
                        ));
                }
            }
        }
    }
    if !v.problems.is_empty() {
        v.head = None;
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_ledgers_own_temporary_files_are_leftovers() {
        let id = "0123456789abcdef0123456789abcdef";
        for n in [
            format!(".skillguard-tmp-12-345-6-00000001-{id}.json"),
            format!(".skillguard-tmp-12-345-00000001-{id}.lines"),
            ".skillguard-tmp-12-345-6-HEAD.json".to_owned(),
            ".skillguard-tmp-1-2-HEAD.json".to_owned(),
        ] {
            assert!(is_ledger_tmp(&n), "{n}");
        }
        for n in [
            ".skillguard-tmp-12-345-6-report.json",
            ".tmp-notes.txt",
            "HEAD.json",
            ".skillguard-tmp-HEAD.json",
        ] {
            assert!(!is_ledger_tmp(n), "{n}");
        }
    }

    fn draft(n: usize) -> Draft {
        Draft {
            root: ScannedRoot {
                mode: "repo".into(),
                relative: ".".into(),
                absolute: "/x".into(),
            },
            hash_options: HashOptions::default(),
            note: None,
            imported: None,
            skills: (0..n)
                .map(|i| SkillEntry {
                    location: format!(".claude/skills/s{i}"),
                    name: format!("s{i}"),
                    kind: None,
                    format: None,
                    repo: None,
                    convention: Some(".claude/skills".into()),
                    excluded: false,
                    structural: Some("aa".into()),
                    content: Some(format!("c{i}")),
                    incomplete: None,
                    files: vec![FileRecord {
                        path: "SKILL.md".into(),
                        size: 3,
                        sha256: format!("f{i}"),
                        sha256_lf: None,
                        lines: None,
                    }],
                    findings: BTreeMap::new(),
                    provenance: None,
                })
                .collect(),
            agents: Some(vec![SkillEntry {
                location: ".github/agents/a.agent.md".into(),
                name: "a".into(),
                kind: Some("agent".into()),
                format: Some("copilot-agent".into()),
                repo: None,
                convention: None,
                excluded: false,
                structural: None,
                content: Some("fa".into()),
                incomplete: None,
                files: vec![FileRecord {
                    path: "a.agent.md".into(),
                    size: 3,
                    sha256: "fa".into(),
                    sha256_lf: None,
                    lines: None,
                }],
                findings: BTreeMap::new(),
                provenance: None,
            }]),
            kind: None,
            evals: None,
            newest: None,
            line_data: (0..n)
                .map(|i| {
                    (
                        format!("f{i}"),
                        std::sync::Arc::from(vec![1u32, 2, i as u32]),
                    )
                })
                .chain([("fa".to_owned(), std::sync::Arc::from(vec![7u32, 8]))])
                .collect(),
            captured_at: None,
        }
    }

    #[test]
    fn append_chain_and_verify() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let a = l.append(draft(2)).unwrap();
        let b = l.append(draft(3)).unwrap();
        assert_eq!((a.seq, b.seq), (1, 2));
        let v = verify(&l).unwrap();
        assert!(v.ok(), "{:?}", v.problems);
        assert_eq!(v.head.as_ref().unwrap().seq, 2);
        let all: Vec<Loaded<Snapshot>> = l.load().unwrap();
        let first = sha256_hex(&fs::read(&all[0].file.path).unwrap());
        assert_eq!(all[1].snapshot.prev.as_ref().unwrap().sha256, first);
        // Unchanged line hashes are referenced, not copied.
        let r = all[1].snapshot.skills[0].files[0].lines.unwrap();
        assert_eq!(r.seq, 1);
        let mut packs = BTreeMap::new();
        assert_eq!(l.read_lines(&r, &mut packs), Some(vec![1, 2, 0]));
        let r3 = all[1].snapshot.skills[2].files[0].lines.unwrap();
        assert_eq!(r3.seq, 2);
        assert_eq!(l.read_lines(&r3, &mut packs), Some(vec![1, 2, 2]));
        // Agent files get line hashes too, and reuse them the same way.
        let agents = all[1].snapshot.agents.as_ref().unwrap();
        let ra = agents[0].files[0].lines.unwrap();
        assert_eq!(ra.seq, 1);
        assert_eq!(l.read_lines(&ra, &mut packs), Some(vec![7, 8]));
    }

    #[test]
    fn verify_names_edited_deleted_and_reordered() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        for _ in 0..4 {
            l.append(draft(1)).unwrap();
        }
        let files = l.files().unwrap();
        // Edit #2 (still valid JSON).
        let p2 = &files[1].path;
        let s = fs::read_to_string(p2)
            .unwrap()
            .replace("\"c0\"", "\"evil\"");
        fs::write(p2, s).unwrap();
        let v = verify(&l).unwrap();
        assert_eq!(v.problems.len(), 1, "{:?}", v.problems);
        assert_eq!((v.problems[0].kind, v.problems[0].seq), ("edited", Some(2)));
        // Delete #3.
        fs::remove_file(&files[2].path).unwrap();
        let v = verify(&l).unwrap();
        assert!(
            v.problems
                .iter()
                .any(|p| p.kind == "deleted" && p.seq == Some(3)),
            "{:?}",
            v.problems
        );
        // Appends refuse nothing here (HEAD still matches #4), but an edit of the newest is caught.
        let p4 = &files[3].path;
        let s = fs::read_to_string(p4)
            .unwrap()
            .replace("\"c0\"", "\"evil\"");
        fs::write(p4, s).unwrap();
        let v = verify(&l).unwrap();
        assert!(
            v.problems
                .iter()
                .any(|p| p.kind == "edited" && p.seq == Some(4)),
            "{:?}",
            v.problems
        );
        assert!(matches!(
            l.append(draft(1)),
            Err(LedgerError::Integrity { .. })
        ));
    }

    #[test]
    fn an_append_refuses_a_wiped_ledger() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        for _ in 0..3 {
            l.append(draft(1)).unwrap();
        }
        for f in l.files().unwrap() {
            fs::remove_file(&f.path).unwrap();
        }
        let head_before = fs::read(d.path().join("ledger").join(HEAD)).unwrap();
        assert!(!verify(&l).unwrap().ok());
        match l.append(draft(1)) {
            Err(LedgerError::Integrity { msg, .. }) => {
                assert!(msg.contains("no snapshot is left"), "{msg}");
            }
            other => panic!("the append went through: {other:?}"),
        }
        // Nothing was written: HEAD still names the lost #3, and verify still fails.
        assert_eq!(
            fs::read(d.path().join("ledger").join(HEAD)).unwrap(),
            head_before
        );
        assert!(l.files().unwrap().is_empty());
        assert!(!verify(&l).unwrap().ok());
    }

    #[test]
    fn a_prefetched_newest_snapshot_is_reused_only_while_unchanged() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        l.append(draft(2)).unwrap();
        // Unchanged: reused, and the chain is intact.
        let mut dr = draft(2);
        dr.newest = l.newest().unwrap();
        l.append(dr).unwrap();
        assert!(verify(&l).unwrap().ok());
        // Edited after it was prefetched: the append re-reads it and refuses.
        let cached = l.newest().unwrap();
        let f = l.files().unwrap().pop().unwrap();
        let t = fs::read_to_string(&f.path)
            .unwrap()
            .replacen("\"c0\"", "\"cX\"", 1);
        fs::write(&f.path, t).unwrap();
        let mut dr = draft(1);
        dr.newest = cached;
        assert!(matches!(l.append(dr), Err(LedgerError::Integrity { .. })));
    }

    #[test]
    fn corrupt_and_newer_files_are_errors() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        l.append(draft(1)).unwrap();
        let f = l.files().unwrap().remove(0);
        let bytes = fs::read(&f.path).unwrap();
        fs::write(&f.path, &bytes[..bytes.len() / 2]).unwrap();
        let e = verify(&l).unwrap_err().to_string();
        assert!(e.contains("#1") && e.contains("corrupt"), "{e}");
        let s = String::from_utf8(bytes)
            .unwrap()
            .replacen("\"version\":1", "\"version\":9", 1);
        fs::write(&f.path, s).unwrap();
        let e = verify(&l).unwrap_err().to_string();
        assert!(e.contains("newer skillguard"), "{e}");
    }

    #[test]
    fn serialised_form_is_one_entry_per_line_and_round_trips() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        l.append(draft(2)).unwrap();
        let f = l.files().unwrap().remove(0);
        let text = fs::read_to_string(&f.path).unwrap();
        // Header, `"skills":[`, two skills, `],`, `"agents":[`, one agent, `]}`.
        assert_eq!(text.lines().count(), 8, "{text}");
        let s: Snapshot = serde_json::from_str(&text).unwrap();
        assert_eq!(to_bytes(&s), text.as_bytes());
        // A snapshot without agent records (an older writer, an import) keeps its shape and
        // reads back as "not recorded", not as "no agents".
        let mut old = s.clone();
        old.agents = None;
        let bytes = to_bytes(&old);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert_eq!(text.lines().count(), 5, "{text}");
        assert!(!text.contains("agents"), "{text}");
        let back: Snapshot = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back.agents, None);
    }
}
