//! AgentEval's own ledger, read and written as AgentEval does (`--compat agenteval`).
//!
//! AgentEval keeps one JSON file per snapshot, `skills-baseline-{yyyyMMddHHmmssfff}-{Id}.json`,
//! in `.agenteval/skills-baselines` (`.agenteval/skills-baselines-workspace` for
//! `scan-workspace`) relative to the current directory. This module:
//!
//! - writes such a snapshot ([`write_agenteval_snapshot`]) byte for byte as AgentEval's
//!   `--write-baseline` does (`System.Text.Json` defaults, through [`crate::dotnet_json`]);
//! - reads a ledger ([`load`]) as AgentEval's `baseline` commands do: every
//!   `skills-baseline-*.json`, ordered by `CapturedAt`, a file that does not parse skipped
//!   (AgentEval skips it silently; we also return it so the caller can warn on stderr);
//! - answers AgentEval's `--check-baseline` ([`previously_vetted`]);
//! - prints `baseline list`, `baseline diff` and `baseline history` with AgentEval's texts
//!   ([`render_list`], [`render_diff`], [`render_history`]), documented bugs included
//!   (docs/baselines.md, "AgentEval compatibility").
//!
//! Parsing is [`super::import`]'s (the same raw types); only the validation differs: an
//! import refuses a malformed hash, here it is taken as AgentEval takes it.
//!
//! AgentEval prints names, ids and paths raw; here every one goes through
//! [`crate::text::sanitize_line`] first, so a control character in a ledger cannot drive the
//! terminal (identical output for every name without one).

use std::collections::BTreeMap;
use std::fs;
use std::hash::{BuildHasher, Hasher as _};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::{DateTime, Datelike, Timelike, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::import;
use crate::text::{sanitize_line, utf16_units};

/// AgentEval's default ledger of `skills scan` and `skills baseline …`, relative to the
/// current directory.
pub const DEFAULT_ROOT: &str = ".agenteval/skills-baselines";
/// AgentEval's default ledger of `skills scan-workspace`, relative to the current directory.
pub const DEFAULT_WORKSPACE_ROOT: &str = ".agenteval/skills-baselines-workspace";
/// `SourceKind` of a file skill (AgentEval's `SkillSourceKind.File`).
pub const SOURCE_KIND_FILE: u8 = 0;
/// AgentEval's `Severity.High`.
pub const SEVERITY_HIGH: u8 = 2;

/// AgentEval's default ledger: [`DEFAULT_WORKSPACE_ROOT`] for a workspace scan, else
/// [`DEFAULT_ROOT`] (both relative: AgentEval resolves them against the current directory).
pub fn default_root(workspace: bool) -> PathBuf {
    PathBuf::from(if workspace {
        DEFAULT_WORKSPACE_ROOT
    } else {
        DEFAULT_ROOT
    })
}

/// AgentEval's `SkillBaselineSnapshot`, for writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AeSnapshot {
    /// 32 lower-case hex digits (a GUID in .NET's "N" format); see [`new_snapshot_id`].
    pub id: String,
    pub captured_at: DateTime<Utc>,
    /// The scanned path, absolute.
    pub scanned_root: String,
    pub skills: Vec<AeEntry>,
}

/// AgentEval's `SkillBaselineEntry`, serialised PascalCase in declaration order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct AeEntry {
    pub name: String,
    /// [`SOURCE_KIND_FILE`] for every file skill.
    pub source_kind: u8,
    /// `{dir}`, `{convention}/{dir}` (`--repo`) or `{repo}/{convention}/{dir}` (workspace).
    pub relative_path: String,
    pub structural_fingerprint: String,
    pub content_hash: Option<String>,
    pub source: Option<String>,
    pub source_url: Option<String>,
    #[serde(rename = "Ref")]
    pub reference: Option<String>,
    /// The validator and exclusion findings whose `SkillName` equals `name` (not the drift,
    /// trust-on-first-use or pin findings).
    pub compliance_findings: Vec<AeFinding>,
}

/// AgentEval's `SkillComplianceFinding`: `Rule` is the index in
/// [`import::AGENTEVAL_RULES`], `Severity` 0 Low, 1 Medium, 2 High.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct AeFinding {
    pub skill_name: String,
    pub rule: u8,
    pub severity: u8,
    pub message: String,
    pub field: Option<String>,
}

/// The snapshot as written (field order of AgentEval's record).
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Wire<'a> {
    id: &'a str,
    captured_at: String,
    scanned_root: &'a str,
    skills: &'a [AeEntry],
}

/// Why a ledger could not be read or a snapshot written, or (`Runtime`) one of the errors
/// AgentEval's `baseline` commands end with (exit 3). Strings are sanitised for a terminal.
#[derive(Debug, thiserror::Error)]
pub enum AeLedgerError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path} already exists; a baseline snapshot is never overwritten")]
    Exists { path: String },
    /// The message AgentEval prints after `  Error: `.
    #[error("{0}")]
    Runtime(String),
}

fn show(p: &Path) -> String {
    sanitize_line(&p.display().to_string()).into_owned()
}

fn io_err(p: &Path) -> impl FnOnce(io::Error) -> AeLedgerError + '_ {
    move |source| AeLedgerError::Io {
        path: show(p),
        source,
    }
}

/// A fresh snapshot id: 32 lower-case hex digits shaped like a version-4 GUID in .NET's "N"
/// format (version nibble 4, variant 10xx), from the process's random hash keys, the clock,
/// the process id and a counter.
pub fn new_snapshot_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let mut d = Sha256::new();
    d.update(h.finish().to_le_bytes());
    d.update(nanos.to_le_bytes());
    d.update(std::process::id().to_le_bytes());
    let mut b: [u8; 16] = d.finalize()[..16].try_into().expect("16 of 32 bytes");
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `t` as `System.Text.Json` writes a UTC `DateTimeOffset`: .NET's round-trip ("o") format,
/// `2026-07-17T12:00:00.1234567+00:00`, with trailing zeros of the seven fractional digits
/// trimmed (`…:00.123+00:00`) and no fraction at all when it is zero (`…:00+00:00`), as its
/// writer trims them.
pub fn format_captured_at(t: &DateTime<Utc>) -> String {
    // A leap second (nanoseconds ≥ 10⁹) is written as the last tick of its second.
    let ticks = (t.nanosecond() / 100).min(9_999_999);
    let frac = format!("{ticks:07}");
    let frac = frac.trim_end_matches('0');
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}{frac}+00:00",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        if frac.is_empty() { "" } else { "." }
    )
}

/// The snapshot's file name: `skills-baseline-{yyyyMMddHHmmssfff}-{Id}.json`.
pub fn file_name(snap: &AeSnapshot) -> String {
    let t = &snap.captured_at;
    format!(
        "skills-baseline-{:04}{:02}{:02}{:02}{:02}{:02}{:03}-{}.json",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        (t.nanosecond() / 1_000_000).min(999),
        snap.id
    )
}

/// The snapshot's bytes, as AgentEval writes them (no final line end).
pub fn snapshot_json(snap: &AeSnapshot) -> String {
    let at = format_captured_at(&snap.captured_at);
    let json = crate::dotnet_json::to_string_pretty(&Wire {
        id: &snap.id,
        captured_at: at.clone(),
        scanned_root: &snap.scanned_root,
        skills: &snap.skills,
    });
    // `System.Text.Json` formats a date itself, without its encoder: the offset's `+` stays
    // as it is (a string's `+` is `\u002B`). `CapturedAt` comes before any free text.
    let key = "\"CapturedAt\": \"";
    json.replacen(
        &format!("{key}{}\"", crate::dotnet_json::escape(&at)),
        &format!("{key}{at}\""),
        1,
    )
}

/// AgentEval's `SkillManifestBaseline` as `--save-manifest-baseline` writes it: the
/// structural fingerprint of each name (lower-cased; the first entry of a name wins), in
/// discovery order, `Notes`, and no content hashes.
pub fn pin_json(
    captured_at: &DateTime<Utc>,
    hashes: &[(String, String)],
    notes: Option<&str>,
) -> String {
    struct Ordered<'a>(&'a [(String, String)]);
    impl Serialize for Ordered<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(self.0.len()))?;
            for (k, v) in self.0 {
                m.serialize_entry(k, v)?;
            }
            m.end()
        }
    }
    #[derive(Serialize)]
    #[serde(rename_all = "PascalCase")]
    struct Pin<'a> {
        captured_at: String,
        hashes_by_skill_name: Ordered<'a>,
        notes: Option<&'a str>,
        content_hashes_by_skill_name: Option<()>,
    }
    let mut first: Vec<(String, String)> = Vec::new();
    for (k, v) in hashes {
        let k = k.to_lowercase();
        if !first.iter().any(|(f, _)| *f == k) {
            first.push((k, v.clone()));
        }
    }
    let at = format_captured_at(captured_at);
    let json = crate::dotnet_json::to_string_pretty(&Pin {
        captured_at: at.clone(),
        hashes_by_skill_name: Ordered(&first),
        notes,
        content_hashes_by_skill_name: None,
    });
    let key = "\"CapturedAt\": \"";
    json.replacen(
        &format!("{key}{}\"", crate::dotnet_json::escape(&at)),
        &format!("{key}{at}\""),
        1,
    )
}

/// AgentEval's stderr line after writing: `  Baseline snapshot saved: {Id} ({n} skill(s) ->
/// {root})`.
pub fn saved_line(snap: &AeSnapshot, root: &Path) -> String {
    format!(
        "  Baseline snapshot saved: {} ({} skill(s) -> {})",
        sanitize_line(&snap.id),
        snap.skills.len(),
        show(root)
    )
}

/// Writes `snap` into the AgentEval ledger at `root` (created if missing) and returns the
/// file's path. The file is written to a temporary file, synced, then linked into place
/// ([`crate::fsutil::Staged::create`]), so a reader never sees half a snapshot and an
/// existing file is never replaced ([`AeLedgerError::Exists`]). `guard`: the scanned
/// repository; a symbolic link planted inside it on the way to `root` (`.agenteval` made a
/// link to elsewhere) is refused, never followed (`ledger::ensure_dir`).
pub fn write_agenteval_snapshot(
    root: &Path,
    snap: &AeSnapshot,
    guard: Option<&Path>,
) -> Result<PathBuf, AeLedgerError> {
    let id_ok = !snap.id.is_empty() && snap.id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
    if !id_ok {
        return Err(AeLedgerError::Runtime(format!(
            "snapshot id `{}` is not a GUID",
            sanitize_line(&snap.id)
        )));
    }
    // No link planted inside `guard` (the scanned repository) on the way, as for
    // skillguard's own ledger.
    super::ledger::ensure_dir(root, guard).map_err(|e| match e {
        super::ledger::LedgerError::Io { path, source } => AeLedgerError::Io { path, source },
        e => AeLedgerError::Runtime(sanitize_line(&e.to_string()).into_owned()),
    })?;
    let path = root.join(file_name(snap));
    let bytes = snapshot_json(snap);
    let res = crate::fsutil::stage(&path, |w| w.write_all(bytes.as_bytes()))
        .and_then(crate::fsutil::Staged::create)
        .and_then(|()| crate::fsutil::sync_dir(&path));
    match res {
        Ok(()) => Ok(path),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            Err(AeLedgerError::Exists { path: show(&path) })
        }
        Err(e) => Err(io_err(&path)(e)),
    }
}

/// One snapshot of an AgentEval ledger, as its `baseline` commands see it.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub file: PathBuf,
    pub id: String,
    pub captured_at: DateTime<Utc>,
    pub scanned_root: Option<String>,
    pub skills: Vec<LoadedSkill>,
}

/// One entry of a [`Loaded`] snapshot.
#[derive(Debug, Clone)]
pub struct LoadedSkill {
    pub name: String,
    pub structural: Option<String>,
    pub content: Option<String>,
    /// Stored findings of severity High.
    pub high: usize,
}

/// A file AgentEval would skip, and why (sanitised).
#[derive(Debug, Clone)]
pub struct Skipped {
    pub file: PathBuf,
    pub reason: String,
}

impl Skipped {
    /// The stderr warning for it, in AgentEval's style.
    pub fn warning(&self) -> String {
        format!(
            "  Warning: {} could not be read as a baseline snapshot ({}); skipped.",
            show(&self.file),
            self.reason
        )
    }
}

/// An AgentEval ledger, snapshots oldest first.
#[derive(Debug, Clone, Default)]
pub struct AeLedger {
    pub snapshots: Vec<Loaded>,
    pub skipped: Vec<Skipped>,
}

/// Reads every `skills-baseline-*.json` of `root`, ordered by `CapturedAt` (ties by file
/// name). A missing `root` is an empty ledger; a file that does not parse is skipped (listed
/// in [`AeLedger::skipped`]).
pub fn load(root: &Path) -> Result<AeLedger, AeLedgerError> {
    match fs::metadata(root) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(AeLedger::default()),
        Err(e) => return Err(io_err(root)(e)),
        Ok(m) if !m.is_dir() => {
            return Err(io_err(root)(io::Error::other("not a directory")));
        }
        Ok(_) => {}
    }
    let files = import::ledger_files(root).map_err(|e| AeLedgerError::Io {
        path: show(root),
        source: io::Error::other(e.to_string()),
    })?;
    let mut ledger = AeLedger::default();
    for file in files {
        match import::read_lenient(&file) {
            Ok(s) => ledger.snapshots.push(Loaded {
                file,
                id: s.id,
                captured_at: s.at,
                scanned_root: s.scanned_root,
                skills: s
                    .skills
                    .into_iter()
                    .map(|k| LoadedSkill {
                        name: k.name,
                        structural: k.structural,
                        content: k.content,
                        high: k.high,
                    })
                    .collect(),
            }),
            Err(reason) => ledger.skipped.push(Skipped { file, reason }),
        }
    }
    // Stable: files are in name order, so equal `CapturedAt`s keep it.
    ledger.snapshots.sort_by_key(|s| s.captured_at);
    Ok(ledger)
}

/// AgentEval's `--check-baseline` history: every (name, content hash) pair of the ledger and
/// the newest `CapturedAt` it was seen at.
#[derive(Debug, Clone, Default)]
pub struct PreviouslyVetted {
    pub pairs: BTreeMap<(String, String), DateTime<Utc>>,
    /// Files skipped while reading (warn about them).
    pub skipped: Vec<Skipped>,
}

impl PreviouslyVetted {
    /// When the exact pair (name and content hash, both compared exactly) was last captured.
    pub fn get(&self, name: &str, content_hash: &str) -> Option<DateTime<Utc>> {
        self.pairs
            .get(&(name.to_owned(), content_hash.to_owned()))
            .copied()
    }

    /// [`Self::get`] as AgentEval prints it: `yyyy-MM-dd`.
    pub fn date(&self, name: &str, content_hash: &str) -> Option<String> {
        self.get(name, content_hash)
            .map(|t| t.format("%Y-%m-%d").to_string())
    }
}

/// Reads the ledger at `root` for AgentEval's `MatchesPreviouslyVettedCopy`: entries without
/// a content hash are left out.
pub fn previously_vetted(root: &Path) -> Result<PreviouslyVetted, AeLedgerError> {
    let l = load(root)?;
    let mut pairs: BTreeMap<(String, String), DateTime<Utc>> = BTreeMap::new();
    for s in &l.snapshots {
        for k in &s.skills {
            if let Some(h) = &k.content {
                let e = pairs
                    .entry((k.name.clone(), h.clone()))
                    .or_insert(s.captured_at);
                *e = (*e).max(s.captured_at);
            }
        }
    }
    Ok(PreviouslyVetted {
        pairs,
        skipped: l.skipped,
    })
}

/// `baseline diff --hash`: the hash that decides a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashKind {
    Structural,
    Content,
}

impl HashKind {
    /// AgentEval's `--hash` value (surrounding space and case ignored); anything else is
    /// AgentEval's runtime error (exit 3).
    pub fn parse(s: &str) -> Result<HashKind, AeLedgerError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "structural" => Ok(HashKind::Structural),
            "content" => Ok(HashKind::Content),
            _ => Err(AeLedgerError::Runtime(format!(
                "Unknown --hash value '{}'. Expected 'structural' or 'content'.",
                sanitize_line(s)
            ))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            HashKind::Structural => "structural",
            HashKind::Content => "content",
        }
    }
}

fn when(t: &DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M:%S").to_string()
}

/// `s` padded on the right to `width` UTF-16 code units (.NET's `PadRight`).
fn pad_right(s: &str, width: usize) -> String {
    let n = utf16_units(s);
    format!("{s}{}", " ".repeat(width.saturating_sub(n)))
}

/// `s` padded on the left to `width` UTF-16 code units (.NET's `PadLeft`).
fn pad_left(s: &str, width: usize) -> String {
    let n = utf16_units(s);
    format!("{}{s}", " ".repeat(width.saturating_sub(n)))
}

/// At most 38 UTF-16 code units: the first 37 and `…` when longer.
fn truncate_root(s: &str) -> String {
    const MAX: usize = 38;
    if utf16_units(s) <= MAX {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut n = 0;
    for c in s.chars() {
        n += c.len_utf16();
        if n > MAX - 1 {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// `baseline list`: AgentEval's table, oldest first, or its "no snapshots" line.
pub fn render_list(l: &AeLedger, out: &mut dyn Write) -> io::Result<()> {
    if l.snapshots.is_empty() {
        return writeln!(
            out,
            "No baseline snapshots captured yet. Run 'agenteval skills scan <path> --write-baseline' first."
        );
    }
    // AgentEval pads the header's date column to 20 and the rows' dates are 19 long: the
    // header is one column off (kept).
    writeln!(
        out,
        "{} {} {} {}",
        pad_right("Id", 33),
        pad_right("CapturedAt (UTC)", 20),
        pad_right("ScannedRoot", 38),
        pad_left("Skills", 6)
    )?;
    for s in &l.snapshots {
        let root = sanitize_line(s.scanned_root.as_deref().unwrap_or(""));
        writeln!(
            out,
            "{} {} {} {}",
            pad_right(&sanitize_line(&s.id), 33),
            when(&s.captured_at),
            pad_right(&truncate_root(&root), 38),
            pad_left(&s.skills.len().to_string(), 6)
        )?;
    }
    Ok(())
}

/// Name → (hash, High findings) of a snapshot: the first entry of each name (compared
/// exactly); with `Content`, entries without a content hash are left out first.
fn hash_map(s: &Loaded, kind: HashKind) -> BTreeMap<&str, (Option<&str>, usize)> {
    let mut m = BTreeMap::new();
    for k in &s.skills {
        let h = match kind {
            HashKind::Structural => k.structural.as_deref(),
            HashKind::Content => match k.content.as_deref() {
                Some(h) => Some(h),
                None => continue,
            },
        };
        m.entry(k.name.as_str()).or_insert((h, k.high));
    }
    m
}

/// `baseline diff`: the two snapshots compared as AgentEval compares them. `root` is the
/// ledger as the user named it (for the unknown `--since` error). Errors are AgentEval's
/// runtime errors (exit 3).
pub fn render_diff(
    l: &AeLedger,
    root: &Path,
    since: Option<&str>,
    skill: Option<&str>,
    kind: HashKind,
    out: &mut dyn Write,
) -> Result<(), AeLedgerError> {
    let w = |e: io::Error| AeLedgerError::Io {
        path: "stdout".into(),
        source: e,
    };
    let snaps = &l.snapshots;
    if snaps.len() < 2 {
        writeln!(
            out,
            "Need at least 2 baseline snapshots to diff (found {}). Run 'agenteval skills scan <path> --write-baseline' again after a change.",
            snaps.len()
        )
        .map_err(w)?;
        return Ok(());
    }
    let b = &snaps[snaps.len() - 1];
    let a = match since {
        None => &snaps[snaps.len() - 2],
        Some(id) => {
            let Some(a) = snaps.iter().find(|s| s.id == id) else {
                return Err(AeLedgerError::Runtime(format!(
                    "no snapshot with Id '{}' found in {}.",
                    sanitize_line(id),
                    show(root)
                )));
            };
            if a.id == b.id {
                writeln!(
                    out,
                    "The --since snapshot IS the most recent snapshot — nothing to diff."
                )
                .map_err(w)?;
                return Ok(());
            }
            a
        }
    };
    let (ida, idb) = (sanitize_line(&a.id), sanitize_line(&b.id));
    writeln!(
        out,
        "Diffing {ida} ({} UTC) -> {idb} ({} UTC), hash={}",
        when(&a.captured_at),
        when(&b.captured_at),
        kind.as_str()
    )
    .map_err(w)?;
    writeln!(out).map_err(w)?;
    let (ma, mb) = (hash_map(a, kind), hash_map(b, kind));
    let mut keys: Vec<&str> = ma.keys().chain(mb.keys()).copied().collect();
    // Ordinal order: UTF-16 code units, as .NET's `StringComparer.Ordinal`.
    keys.sort_by(|x, y| x.encode_utf16().cmp(y.encode_utf16()));
    keys.dedup();
    if let Some(name) = skill {
        keys.retain(|k| *k == name);
        if keys.is_empty() {
            writeln!(
                out,
                "'{}' is not present (with a {} hash) in either snapshot ({ida} / {idb}).",
                sanitize_line(name),
                kind.as_str()
            )
            .map_err(w)?;
            return Ok(());
        }
    }
    for k in keys {
        let name = sanitize_line(k);
        let line = match (ma.get(k), mb.get(k)) {
            (Some(x), Some(y)) if x.0 == y.0 => format!("     [unchanged] {name}"),
            (Some(x), Some(y)) if y.1 > x.1 => format!(
                "  !! [CHANGED + NEW HIGH FINDING] {name} ({} -> {} High finding(s))",
                x.1, y.1
            ),
            (Some(_), Some(_)) => format!("     [changed, no new High finding] {name}"),
            (None, Some(_)) => format!("     [new]       {name}"),
            (Some(_), None) => format!("     [removed]   {name}"),
            (None, None) => continue,
        };
        writeln!(out, "{line}").map_err(w)?;
    }
    Ok(())
}

/// `baseline history NAME`: every content-hash change of the first entry named `NAME`
/// (exactly) in each snapshot, oldest first.
pub fn render_history(l: &AeLedger, name: &str, out: &mut dyn Write) -> io::Result<()> {
    let shown = sanitize_line(name);
    writeln!(out, "Content-hash history for '{shown}':")?;
    let mut seen = false;
    let mut last: Option<&str> = None;
    let mut changes = 0usize;
    for s in &l.snapshots {
        let Some(e) = s.skills.iter().find(|k| k.name == name) else {
            continue;
        };
        seen = true;
        let Some(h) = e.content.as_deref() else {
            continue;
        };
        if last == Some(h) {
            continue;
        }
        last = Some(h);
        changes += 1;
        let high = if e.high > 0 {
            format!(" — {} High finding(s) present at this point", e.high)
        } else {
            String::new()
        };
        writeln!(
            out,
            "  {} UTC — content changed (snapshot {}){high}",
            when(&s.captured_at),
            sanitize_line(&s.id)
        )?;
    }
    if !seen {
        writeln!(out, "  '{shown}' does not appear in any captured snapshot.")?;
    } else if changes == 0 {
        // AgentEval's count is every snapshot of the ledger, not the ones that include the
        // skill (kept).
        writeln!(
            out,
            "  No content changes detected across {} snapshot(s) that include it.",
            l.snapshots.len()
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn captured_at_and_file_name() {
        let t = Utc.with_ymd_and_hms(2026, 7, 17, 12, 0, 0).unwrap()
            + chrono::Duration::nanoseconds(123_456_789);
        assert_eq!(format_captured_at(&t), "2026-07-17T12:00:00.1234567+00:00");
        let s = AeSnapshot {
            id: "9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70".into(),
            captured_at: t,
            scanned_root: "/x".into(),
            skills: vec![],
        };
        assert_eq!(
            file_name(&s),
            "skills-baseline-20260717120000123-9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70.json"
        );
        // Trailing zeros trimmed, as System.Text.Json writes a DateTimeOffset.
        let z = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
        assert_eq!(format_captured_at(&z), "2026-01-02T03:04:05+00:00");
        let m = z + chrono::Duration::milliseconds(120);
        assert_eq!(format_captured_at(&m), "2026-01-02T03:04:05.12+00:00");
        let s = AeSnapshot {
            captured_at: m,
            ..s
        };
        assert!(snapshot_json(&s).contains("\"CapturedAt\": \"2026-01-02T03:04:05.12+00:00\""));
        assert_eq!(
            file_name(&s),
            "skills-baseline-20260102030405120-9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70.json"
        );
    }

    #[test]
    fn ids_are_guid_n_shaped_and_distinct() {
        let a = new_snapshot_id();
        let b = new_snapshot_id();
        assert_ne!(a, b);
        for id in [a, b] {
            assert_eq!(id.len(), 32);
            assert!(
                id.bytes()
                    .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
            );
            assert_eq!(&id[12..13], "4");
            assert!("89ab".contains(&id[16..17]));
        }
    }

    #[test]
    fn padding_and_truncation_count_utf16_units() {
        assert_eq!(pad_right("ab", 4), "ab  ");
        assert_eq!(pad_left("7", 3), "  7");
        let long = "/".to_owned() + &"a".repeat(40);
        let t = truncate_root(&long);
        assert_eq!(utf16_units(&t), 38);
        assert!(t.ends_with('…'));
        assert_eq!(truncate_root("/short"), "/short");
        // A character outside the BMP is two units: never split.
        let astral = "a".repeat(36) + "𝒳𝒳";
        assert_eq!(truncate_root(&astral), "a".repeat(36) + "…");
    }

    #[test]
    fn hash_kind_parse() {
        assert_eq!(HashKind::parse(" Content ").unwrap(), HashKind::Content);
        assert_eq!(HashKind::parse("structural").unwrap(), HashKind::Structural);
        assert!(matches!(
            HashKind::parse("bogus"),
            Err(AeLedgerError::Runtime(m)) if m.contains("'bogus'")
        ));
    }
}
