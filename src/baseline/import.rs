//! Import of AgentEval baselines: ledger snapshots (`skills-baseline-*.json`) become snapshots of
//! our ledger, an AgentEval pin file (`HashesBySkillName`) becomes (or is merged into) one of our
//! pin files.
//!
//! Everything is read and validated before anything is written: a file that is not JSON, has the
//! wrong shape, holds a malformed hash, an unknown rule or severity number or an unparsable
//! `CapturedAt` is an [`ImportError`] naming the file (and, for a skill entry, its index and
//! name), and nothing is appended. AgentEval itself silently skips corrupt ledger files; an
//! import that silently dropped history would defeat the point of keeping it.
//!
//! Snapshots are appended oldest first by `CapturedAt` (full precision, ties by `Id`), each
//! marked `imported: {tool: "agenteval", file, id}`; a snapshot whose `Id` this ledger already
//! imported is skipped, so importing the same AgentEval ledger again (or a grown copy of it)
//! only adds what is new. Imported entries have no per-file hashes (AgentEval keeps none) and
//! their hash options are the default, byte-exact ones (AgentEval's content hash is ours under
//! those options).
//!
//! Strings read from the input (names, paths, ids) are data: they are stored as they are (JSON
//! escapes them), and every one that reaches an error message goes through
//! [`crate::text::sanitize_line`] first.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ledger::{Draft, Header, Imported, Ledger, LedgerError, ScannedRoot, SkillEntry};
use super::pin::{self, AgentEvalPin, PinFile};
use crate::inventory::Provenance;
use crate::skill_hashes::HashOptions;
use crate::text::{sanitize_line, truncate};

/// Input files larger than this are refused.
pub const MAX_IMPORT_BYTES: u64 = 256 * 1024 * 1024;
/// `imported.tool` of snapshots imported from AgentEval.
pub const TOOL: &str = "agenteval";
/// The lock file AgentEval reads provenance from (recorded as `provenance.lock`).
pub const LOCK_FILE: &str = "skills-lock.json";
const NAME_PREFIX: &[u8] = b"skills-baseline-";
const NAME_SUFFIX: &[u8] = b".json";

/// AgentEval's `SkillComplianceRule`, by its integer value (kept with the rule catalog).
pub use crate::catalog::AGENTEVAL_RULES;
/// AgentEval's `Severity` by its integer value, and our name for it.
const SEVERITIES: [(&str, &str); 3] = [("Low", "low"), ("Medium", "medium"), ("High", "high")];

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    /// Snapshots appended to the ledger.
    pub snapshots_imported: usize,
    /// Snapshots not appended because their AgentEval `Id` was already imported (by an earlier
    /// import, or by another file of the same input with identical content).
    pub snapshots_skipped: usize,
    /// Skill entries in the appended snapshots.
    pub skill_entries: usize,
    /// Pin entries written to the output pin file.
    pub pin_entries: usize,
    /// Lower-case pin keys whose imported entry was not written because another entry for the
    /// same key was kept: one already in the output pin file with a different structural
    /// fingerprint or content hash, or another spelling of the same name in the AgentEval file
    /// (its `approve` keeps the case, its scan lower-cases; the lower-case spelling, which
    /// AgentEval's check reads, is kept). Raw data: sanitise before printing.
    pub pin_conflicts: Vec<String>,
    /// Sequence numbers of the first and last appended snapshot.
    pub first_seq: Option<u64>,
    pub last_seq: Option<u64>,
}

/// Why an import failed. Every string in it is already sanitised for a terminal.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    /// Not JSON, not an AgentEval file, or the wrong shape.
    #[error("{path}: {msg}")]
    Invalid { path: String, msg: String },
    /// One skill entry of a snapshot is malformed.
    #[error("{path}: Skills[{index}] ({name}): {msg}")]
    Entry {
        path: String,
        index: usize,
        /// `` `name` `` or `no Name`.
        name: String,
        msg: String,
    },
    /// The arguments do not fit the input (a pin without an output path, …).
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// An append failed after earlier snapshots of the same import were appended. Importing
    /// again appends the rest (already imported snapshots are skipped).
    #[error(
        "{source} ({imported} of {total} snapshots were imported before the failure; import again to add the rest)"
    )]
    Interrupted {
        imported: usize,
        total: usize,
        source: LedgerError,
    },
}

fn show(p: &Path) -> String {
    sanitize_line(&p.display().to_string()).into_owned()
}

fn invalid(path: &str, msg: impl AsRef<str>) -> ImportError {
    ImportError::Invalid {
        path: path.to_owned(),
        msg: sanitize_line(msg.as_ref()).into_owned(),
    }
}

fn io_err(path: &str) -> impl FnOnce(io::Error) -> ImportError + '_ {
    move |source| ImportError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Imports an AgentEval ledger directory (every `skills-baseline-*.json` in it; other files
/// are ignored), a single AgentEval snapshot file or an AgentEval pin file (told apart by
/// content). Snapshots are appended to `ledger`; a pin is converted and written to `pin_out`
/// (required for a pin, refused otherwise), merged into it when it already is one of our pin
/// files.
pub fn import_agenteval(
    input: &Path,
    ledger: &Ledger,
    pin_out: Option<&Path>,
) -> Result<ImportReport, ImportError> {
    let shown = show(input);
    let meta = fs::metadata(input).map_err(io_err(&shown))?;
    if meta.is_dir() {
        if let Some(out) = pin_out {
            return Err(ImportError::Usage(format!(
                "{shown} is an AgentEval ledger directory: it holds no pin to write to {}",
                show(out)
            )));
        }
        let files = snapshot_files(input, &shown)?;
        if files.is_empty() {
            return Err(invalid(
                &shown,
                "holds no AgentEval baseline snapshot (`skills-baseline-*.json`)",
            ));
        }
        let mut snaps = Vec::with_capacity(files.len());
        for (path, file) in files {
            let fshown = show(&path);
            let bytes = read_bounded(&path, &fshown, MAX_IMPORT_BYTES)?;
            match classify(&fshown, &bytes)? {
                Input::Snapshot(v) => snaps.push(parse_snapshot(&fshown, file, v)?),
                Input::Pin(_) => {
                    return Err(invalid(
                        &fshown,
                        "is an AgentEval pin file (`HashesBySkillName`), not a baseline snapshot; import it on its own with an output pin path",
                    ));
                }
            }
        }
        import_snapshots(snaps, ledger)
    } else {
        // The path the user named may be a link; it is followed (inside a directory, links
        // are refused by `open_regular`).
        let real = fs::canonicalize(input).map_err(io_err(&shown))?;
        let bytes = read_bounded(&real, &shown, MAX_IMPORT_BYTES)?;
        let file = input
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match classify(&shown, &bytes)? {
            Input::Snapshot(v) => {
                if let Some(out) = pin_out {
                    return Err(ImportError::Usage(format!(
                        "{shown} is an AgentEval baseline snapshot: it holds no pin to write to {}",
                        show(out)
                    )));
                }
                let s = parse_snapshot(&shown, file, v)?;
                import_snapshots(vec![s], ledger)
            }
            Input::Pin(p) => {
                let Some(out) = pin_out else {
                    return Err(ImportError::Usage(format!(
                        "{shown} is an AgentEval pin file: give the path of the skillguard pin file to write"
                    )));
                };
                import_pin(*p, out)
            }
        }
    }
}

/// `skills-baseline-*.json` files of a directory (not recursive), sorted by name.
fn snapshot_files(dir: &Path, shown: &str) -> Result<Vec<(PathBuf, String)>, ImportError> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).map_err(io_err(shown))? {
        let e = e.map_err(io_err(shown))?;
        let name = e.file_name();
        let b = name.as_encoded_bytes();
        if b.len() < NAME_PREFIX.len() + NAME_SUFFIX.len()
            || !b.starts_with(NAME_PREFIX)
            || !b.ends_with(NAME_SUFFIX)
        {
            continue;
        }
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        out.push((e.path(), name.to_string_lossy().into_owned()));
    }
    out.sort();
    Ok(out)
}

/// Reads a regular file (no final symlink), refusing one over `max` bytes.
fn read_bounded(path: &Path, shown: &str, max: u64) -> Result<Vec<u8>, ImportError> {
    let f = crate::fsutil::open_regular(path).map_err(io_err(shown))?;
    let len = f.metadata().map_err(io_err(shown))?.len();
    let too_big = |n: u64| invalid(shown, format!("is {n} bytes, over the {max}-byte limit"));
    if len > max {
        return Err(too_big(len));
    }
    let mut buf = Vec::with_capacity(len as usize);
    f.take(max + 1)
        .read_to_end(&mut buf)
        .map_err(io_err(shown))?;
    if buf.len() as u64 > max {
        return Err(too_big(buf.len() as u64));
    }
    Ok(buf)
}

enum Input {
    Snapshot(Value),
    Pin(Box<AgentEvalPin>),
}

/// Tells an AgentEval snapshot from an AgentEval pin by content.
fn classify(shown: &str, bytes: &[u8]) -> Result<Input, ImportError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| invalid(shown, format!("corrupt or truncated: not valid JSON ({e})")))?;
    let Value::Object(m) = &v else {
        return Err(invalid(
            shown,
            "not a JSON object: neither an AgentEval baseline snapshot nor an AgentEval pin",
        ));
    };
    if let Some(f) = m.get("format").and_then(Value::as_str)
        && (f == super::ledger::FORMAT || f == pin::FORMAT)
    {
        return Err(invalid(
            shown,
            format!("is a skillguard file (`{f}`), not an AgentEval one; nothing to import"),
        ));
    }
    if m.contains_key("HashesBySkillName") {
        let p: AgentEvalPin = serde_json::from_value(v)
            .map_err(|e| invalid(shown, format!("not a valid AgentEval pin file: {e}")))?;
        return Ok(Input::Pin(Box::new(p)));
    }
    if ["Id", "CapturedAt", "Skills"]
        .iter()
        .any(|k| m.contains_key(*k))
    {
        return Ok(Input::Snapshot(v));
    }
    Err(invalid(
        shown,
        "neither an AgentEval baseline snapshot (`Id`, `CapturedAt`, `Skills`) nor an AgentEval pin (`HashesBySkillName`); property names are case-sensitive PascalCase",
    ))
}

/// AgentEval's `SkillBaselineSnapshot` (unknown properties ignored).
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct RawSnapshot {
    id: String,
    captured_at: String,
    #[serde(default)]
    scanned_root: Option<String>,
    skills: Vec<Value>,
}

/// AgentEval's `SkillBaselineEntry` (`SourceKind` and unknown properties ignored).
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct RawSkill {
    name: String,
    #[serde(default)]
    relative_path: Option<String>,
    #[serde(default)]
    structural_fingerprint: Option<String>,
    #[serde(default)]
    content_hash: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    source_url: Option<String>,
    #[serde(default, rename = "Ref")]
    git_ref: Option<String>,
    #[serde(default)]
    compliance_findings: Option<Vec<RawFinding>>,
}

/// AgentEval's `SkillComplianceFinding`; only the rule and the severity are kept (a snapshot
/// entry stores counts).
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct RawFinding {
    rule: Value,
    severity: Value,
}

/// A validated AgentEval snapshot, ready to append.
#[derive(Debug, Clone)]
struct Parsed {
    /// Sanitised path, for messages.
    shown: String,
    /// File name, recorded in `imported.file`.
    file: String,
    id: String,
    at: DateTime<Utc>,
    scanned_root: String,
    skills: Vec<SkillEntry>,
}

impl Parsed {
    fn same_content(&self, o: &Parsed) -> bool {
        self.at == o.at && self.scanned_root == o.scanned_root && self.skills == o.skills
    }
}

fn parse_snapshot(shown: &str, file: String, v: Value) -> Result<Parsed, ImportError> {
    let raw: RawSnapshot = serde_json::from_value(v)
        .map_err(|e| invalid(shown, format!("not an AgentEval baseline snapshot: {e}")))?;
    if raw.id.trim().is_empty() {
        return Err(invalid(shown, "`Id` is empty"));
    }
    let at = DateTime::parse_from_rfc3339(raw.captured_at.trim())
        .map_err(|e| {
            invalid(
                shown,
                format!(
                    "`CapturedAt` `{}` is not an RFC 3339 date and time ({e})",
                    truncate(&raw.captured_at, 60)
                ),
            )
        })?
        .with_timezone(&Utc);
    let mut skills = Vec::with_capacity(raw.skills.len());
    for (index, v) in raw.skills.into_iter().enumerate() {
        let name = match v.get("Name").and_then(Value::as_str) {
            Some(n) => format!("`{}`", truncate(&sanitize_line(n), 80)),
            None => "no Name".to_owned(),
        };
        let entry_err = |msg: String| ImportError::Entry {
            path: shown.to_owned(),
            index,
            name: name.clone(),
            msg: sanitize_line(&msg).into_owned(),
        };
        skills.push(parse_skill(v).map_err(entry_err)?);
    }
    Ok(Parsed {
        shown: shown.to_owned(),
        file,
        id: raw.id,
        at,
        scanned_root: raw.scanned_root.unwrap_or_default(),
        skills,
    })
}

/// An AgentEval snapshot as AgentEval's own `baseline list|diff|history` read it
/// ([`super::agenteval`]): deserialised with the same raw types as an import, but not
/// validated beyond what `System.Text.Json` itself enforces (hashes, paths and rule numbers
/// are taken as they are).
#[derive(Debug, Clone)]
pub(crate) struct Lenient {
    pub id: String,
    pub at: DateTime<Utc>,
    pub scanned_root: Option<String>,
    pub skills: Vec<LenientSkill>,
}

/// One entry of a [`Lenient`] snapshot.
#[derive(Debug, Clone)]
pub(crate) struct LenientSkill {
    pub name: String,
    pub structural: Option<String>,
    pub content: Option<String>,
    /// Stored findings of severity High (`Severity` 2).
    pub high: usize,
}

/// Reads one `skills-baseline-*.json` file as AgentEval's ledger does; the error (already
/// sanitised) says why AgentEval would have skipped it.
pub(crate) fn read_lenient(path: &Path) -> Result<Lenient, String> {
    // The reason alone: the caller names the file.
    fn reason(e: ImportError) -> String {
        match e {
            ImportError::Io { source, .. } => sanitize_line(&source.to_string()).into_owned(),
            ImportError::Invalid { msg, .. } => msg,
            e => e.to_string(),
        }
    }
    let shown = show(path);
    let bytes = read_bounded(path, &shown, MAX_IMPORT_BYTES).map_err(reason)?;
    let v = match classify(&shown, &bytes).map_err(reason)? {
        Input::Snapshot(v) => v,
        Input::Pin(_) => return Err("it is an AgentEval pin file".into()),
    };
    let raw: RawSnapshot = serde_json::from_value(v).map_err(|e| {
        sanitize_line(&format!("not an AgentEval baseline snapshot: {e}")).into_owned()
    })?;
    let at = DateTime::parse_from_rfc3339(raw.captured_at.trim())
        .map_err(|e| {
            sanitize_line(&format!(
                "`CapturedAt` `{}` is not a date and time ({e})",
                truncate(&raw.captured_at, 60)
            ))
            .into_owned()
        })?
        .with_timezone(&Utc);
    let mut skills = Vec::with_capacity(raw.skills.len());
    for (index, v) in raw.skills.into_iter().enumerate() {
        let s: RawSkill = serde_json::from_value(v).map_err(|e| {
            sanitize_line(&format!("Skills[{index}] is not a skill entry: {e}")).into_owned()
        })?;
        let high = s
            .compliance_findings
            .iter()
            .flatten()
            .filter(|f| severity_name(&f.severity) == Some("high"))
            .count();
        skills.push(LenientSkill {
            name: s.name,
            structural: s.structural_fingerprint,
            content: s.content_hash,
            high,
        });
    }
    Ok(Lenient {
        id: raw.id,
        at,
        scanned_root: raw.scanned_root,
        skills,
    })
}

/// `skills-baseline-*.json` files of an AgentEval ledger directory, sorted by name.
pub(crate) fn ledger_files(dir: &Path) -> Result<Vec<PathBuf>, ImportError> {
    Ok(snapshot_files(dir, &show(dir))?
        .into_iter()
        .map(|(p, _)| p)
        .collect())
}

fn parse_skill(v: Value) -> Result<SkillEntry, String> {
    if !v.is_object() {
        return Err("not a JSON object".into());
    }
    let raw: RawSkill =
        serde_json::from_value(v).map_err(|e| format!("not an AgentEval skill entry: {e}"))?;
    // Entries of AgentEval versions without `RelativePath` fall back to the name, as
    // AgentEval's own `{dir}` does when a skill has no directory.
    let location = normalise_location(raw.relative_path.as_deref().unwrap_or(&raw.name))?;
    let structural = check_hash("StructuralFingerprint", raw.structural_fingerprint)?;
    let content = check_hash("ContentHash", raw.content_hash)?;
    let mut findings: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for (j, f) in raw
        .compliance_findings
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let rule = rule_name(&f.rule).ok_or_else(|| {
            format!(
                "ComplianceFindings[{j}]: unknown `Rule` {} (AgentEval knows 0–14)",
                truncate(&f.rule.to_string(), 60)
            )
        })?;
        let severity = severity_name(&f.severity).ok_or_else(|| {
            format!(
                "ComplianceFindings[{j}]: unknown `Severity` {} (AgentEval knows 0 Low, 1 Medium, 2 High)",
                truncate(&f.severity.to_string(), 60)
            )
        })?;
        let n = findings
            .entry(rule_key(rule))
            .or_default()
            .entry(severity.to_owned())
            .or_default();
        *n = n.saturating_add(1);
    }
    let nonempty = |s: Option<String>| s.filter(|s| !s.is_empty());
    let (source, source_url) = (nonempty(raw.source), nonempty(raw.source_url));
    let provenance = (source.is_some() || source_url.is_some()).then(|| Provenance {
        source,
        source_url,
        git_ref: nonempty(raw.git_ref),
        lock: LOCK_FILE.to_owned(),
    });
    Ok(SkillEntry {
        convention: convention_of(&location),
        location,
        name: raw.name,
        kind: None,
        format: None,
        repo: None,
        excluded: false,
        structural,
        content,
        incomplete: None,
        files: Vec::new(),
        findings,
        provenance,
    })
}

/// `\` → `/`, leading `./`, empty and `.` segments dropped; absolute paths and `..` refused.
fn normalise_location(raw: &str) -> Result<String, String> {
    let s = raw.replace('\\', "/");
    let b = s.as_bytes();
    if s.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':') {
        return Err(format!(
            "`RelativePath` `{}` is absolute",
            truncate(raw, 120)
        ));
    }
    let segs: Vec<&str> = s
        .split('/')
        .filter(|seg| !seg.is_empty() && *seg != ".")
        .collect();
    if segs.contains(&"..") {
        return Err(format!(
            "`RelativePath` `{}` leaves the scanned root",
            truncate(raw, 120)
        ));
    }
    if segs.is_empty() {
        return Err("`RelativePath` is empty".into());
    }
    Ok(segs.join("/"))
}

/// `None` stays `None`; anything else must be 64 hex digits (stored lower-case).
fn check_hash(field: &str, h: Option<String>) -> Result<Option<String>, String> {
    match h {
        None => Ok(None),
        Some(h) if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Ok(Some(h.to_ascii_lowercase()))
        }
        Some(h) => Err(format!(
            "`{field}` `{}` is not a 64-digit hexadecimal SHA-256",
            truncate(&h, 80)
        )),
    }
}

/// AgentEval writes rules as integers; a later version may write the names.
fn rule_name(v: &Value) -> Option<&'static str> {
    match v {
        Value::Number(n) => AGENTEVAL_RULES
            .get(usize::try_from(n.as_u64()?).ok()?)
            .copied(),
        Value::String(s) => AGENTEVAL_RULES.iter().find(|r| **r == *s).copied(),
        _ => None,
    }
}

fn severity_name(v: &Value) -> Option<&'static str> {
    match v {
        Value::Number(n) => SEVERITIES
            .get(usize::try_from(n.as_u64()?).ok()?)
            .map(|s| s.1),
        Value::String(s) => SEVERITIES
            .iter()
            .find(|(a, _)| a.eq_ignore_ascii_case(s))
            .map(|s| s.1),
        _ => None,
    }
}

/// Our rule id for an AgentEval rule name, or `agenteval:<Name>` when the catalog has no rule
/// with that alias.
pub fn rule_key(agenteval_name: &str) -> String {
    match crate::catalog::get(agenteval_name) {
        Some(m) => m.id.to_owned(),
        None => format!("agenteval:{agenteval_name}"),
    }
}

/// The convention a skill location lies in: the most specific convention of ours (AgentEval's
/// nine are all among them) whose path ends the location's parent directory. For `--repo`
/// ledgers that is the whole parent (`.claude/skills`); for workspace ledgers the repository
/// folder in front is not part of it, as in our own entries.
fn convention_of(location: &str) -> Option<String> {
    let (parent, _) = location.rsplit_once('/')?;
    let segs: Vec<&str> = parent.split('/').collect();
    let mut best: Option<(usize, &'static str)> = None;
    for c in crate::conventions::CONVENTIONS {
        if c.path.starts_with('<') {
            continue;
        }
        let n = c.path.split('/').count();
        if n > segs.len() {
            continue;
        }
        let tail = segs[segs.len() - n..].join("/");
        if crate::conventions::matches(c.path, &tail) && best.is_none_or(|(m, _)| n > m) {
            best = Some((n, c.path));
        }
    }
    best.map(|(_, p)| p.to_owned())
}

fn import_snapshots(mut snaps: Vec<Parsed>, ledger: &Ledger) -> Result<ImportReport, ImportError> {
    // Held until the end: the "already imported" check and the appends are one step.
    let _batch = ledger.batch_lock()?;
    let already: BTreeSet<String> = ledger
        .load::<Header>()?
        .into_iter()
        .filter_map(|l| l.snapshot.imported)
        .filter(|i| i.tool == TOOL)
        .map(|i| i.id.to_ascii_lowercase())
        .collect();
    snaps.sort_by(|a, b| (a.at, &a.id, &a.file).cmp(&(b.at, &b.id, &b.file)));
    let mut report = ImportReport::default();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut todo = Vec::with_capacity(snaps.len());
    for (i, s) in snaps.iter().enumerate() {
        let key = s.id.to_ascii_lowercase();
        if let Some(&j) = seen.get(&key) {
            let first = &snaps[j];
            if !first.same_content(s) {
                return Err(invalid(
                    &s.shown,
                    format!(
                        "carries the same `Id` {} as {} but different content",
                        s.id, first.shown
                    ),
                ));
            }
            report.snapshots_skipped += 1;
            continue;
        }
        seen.insert(key.clone(), i);
        if already.contains(&key) {
            report.snapshots_skipped += 1;
        } else {
            todo.push(i);
        }
    }
    let total = todo.len();
    for i in todo {
        let s = snaps[i].clone();
        let n = s.skills.len();
        let draft = Draft {
            root: ScannedRoot {
                mode: "path".into(),
                relative: ".".into(),
                absolute: s.scanned_root,
            },
            hash_options: HashOptions::default(),
            note: None,
            imported: Some(Imported {
                tool: TOOL.into(),
                file: s.file,
                id: s.id,
            }),
            skills: s.skills,
            // AgentEval records skills only.
            agents: None,
            kind: None,
            evals: None,
            line_data: Default::default(),
            newest: None,
            captured_at: Some(s.at.to_rfc3339_opts(SecondsFormat::Millis, true)),
        };
        let a = match ledger.append(draft) {
            Ok(a) => a,
            Err(source) if report.snapshots_imported > 0 => {
                return Err(ImportError::Interrupted {
                    imported: report.snapshots_imported,
                    total,
                    source,
                });
            }
            Err(e) => return Err(e.into()),
        };
        report.first_seq.get_or_insert(a.seq);
        report.last_seq = Some(a.seq);
        report.snapshots_imported += 1;
        report.skill_entries += n;
    }
    Ok(report)
}

fn import_pin(mut ae: AgentEvalPin, out: &Path) -> Result<ImportReport, ImportError> {
    let out_shown = show(out);
    let mut report = ImportReport::default();

    // Several spellings of one name (AgentEval's `approve` keeps the case, its scan lower-cases):
    // keep the lower-case one, which AgentEval's check reads, else the first.
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for k in ae.hashes_by_skill_name.keys() {
        groups.entry(k.to_lowercase()).or_default().push(k.clone());
    }
    for (lower, names) in groups.into_iter().filter(|(_, v)| v.len() > 1) {
        let keep = names.iter().position(|n| *n == lower).unwrap_or(0);
        for (i, n) in names.iter().enumerate() {
            if i != keep {
                ae.hashes_by_skill_name.remove(n);
            }
        }
        report.pin_conflicts.push(lower);
    }
    let incoming = ae.convert();

    // The output: absent, or one of our pin files.
    let existing = match fs::symlink_metadata(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_err(&out_shown)(e)),
        Ok(m) if m.file_type().is_symlink() => {
            return Err(invalid(
                &out_shown,
                "is a symbolic link; skillguard never writes through a link",
            ));
        }
        Ok(_) => {
            let bytes = read_bounded(out, &out_shown, pin::MAX_PIN_BYTES)?;
            let ours = serde_json::from_slice::<Value>(&bytes)
                .ok()
                .and_then(|v| v.get("format").and_then(Value::as_str).map(str::to_owned))
                .is_some_and(|f| f == pin::FORMAT);
            if !ours {
                return Err(invalid(
                    &out_shown,
                    format!(
                        "exists and is not a skillguard pin file (`{}`); refusing to overwrite it",
                        pin::FORMAT
                    ),
                ));
            }
            let p = pin::parse(&out_shown, &bytes).map_err(|e| ImportError::Invalid {
                path: out_shown.clone(),
                msg: sanitize_line(&e.to_string()).into_owned(),
            })?;
            Some(p)
        }
    };
    let fresh = existing.is_none();
    let mut target = existing.unwrap_or_else(|| PinFile::new(HashOptions::default(), None));
    let mut changed = fresh;
    if target.note.is_none() && incoming.note.is_some() {
        target.note = incoming.note;
        changed = true;
    }
    for (key, p) in incoming.skills {
        match target.skills.entry(key) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(p);
                report.pin_entries += 1;
                changed = true;
            }
            std::collections::btree_map::Entry::Occupied(o) => {
                let old = o.get();
                // An entry pinned by skillguard holds our content hash, which equals
                // AgentEval's for a skill without nested skills under default options.
                let old_content = old.agenteval_content.as_ref().or(old.content.as_ref());
                if old.structural != p.structural
                    || (p.agenteval_content.is_some()
                        && old_content != p.agenteval_content.as_ref())
                {
                    report.pin_conflicts.push(o.key().clone());
                }
            }
        }
    }
    report.pin_conflicts.sort();
    report.pin_conflicts.dedup();
    if changed {
        write_atomic(out, &out_shown, &target.to_bytes())?;
    }
    Ok(report)
}

/// Writes `bytes` to `path` (its folder created) with [`crate::fsutil::write_replacing`]:
/// temporary file, fsync, rename, fsync of the folder. A failure leaves the previous file
/// untouched.
fn write_atomic(path: &Path, shown: &str, bytes: &[u8]) -> Result<(), ImportError> {
    if path.file_name().is_none() {
        return Err(ImportError::Usage(format!(
            "{shown}: the pin path names no file"
        )));
    }
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io_err(shown))?;
    }
    crate::fsutil::write_replacing(path, |w| w.write_all(bytes)).map_err(io_err(shown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::ledger::{Loaded, Snapshot, verify};

    fn fixtures() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/agenteval")
    }

    const A: &str = "db1ba9f3cbe9915615dec2463c732ebf";
    const B: &str = "4f206f19aaa7ccb9ddc4602fc53a41a0";
    const C: &str = "93e789fe6e440c44839422325c0c596e";

    fn snapshots(l: &Ledger) -> Vec<Snapshot> {
        let all: Vec<Loaded<Snapshot>> = l.load().unwrap();
        all.into_iter().map(|l| l.snapshot).collect()
    }

    fn entry<'a>(s: &'a Snapshot, name: &str) -> &'a SkillEntry {
        s.skills.iter().find(|e| e.name == name).unwrap()
    }

    #[test]
    fn ledger_dir_is_imported_in_captured_at_order_with_fields_mapped() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let r = import_agenteval(&fixtures().join("ledger"), &l, None).unwrap();
        assert_eq!(
            r,
            ImportReport {
                snapshots_imported: 3,
                snapshots_skipped: 0,
                skill_entries: 7,
                pin_entries: 0,
                pin_conflicts: vec![],
                first_seq: Some(1),
                last_seq: Some(3),
            }
        );
        let s = snapshots(&l);
        // File-name order is A, C, B; CapturedAt order (B is +09:00) is A, B, C.
        let ids: Vec<&str> = s
            .iter()
            .map(|s| s.imported.as_ref().unwrap().id.as_str())
            .collect();
        assert_eq!(ids, [A, B, C]);
        let at: Vec<&str> = s.iter().map(|s| s.captured_at.as_str()).collect();
        assert_eq!(
            at,
            [
                "2026-07-15T08:30:00.123Z",
                "2026-07-17T03:00:00.987Z",
                "2026-07-17T05:15:00.500Z"
            ]
        );
        let imp = s[1].imported.as_ref().unwrap();
        assert_eq!(imp.tool, "agenteval");
        assert_eq!(
            imp.file,
            format!("skills-baseline-20260717120000987-{B}.json")
        );
        assert_eq!(s[1].root.mode, "path");
        assert_eq!(s[1].root.relative, ".");
        // \u00E9 in the file is stored as the character.
        assert_eq!(s[1].root.absolute, "/home/andré/src/acme-agents");
        assert_eq!(s[1].hash_options, HashOptions::default());
        assert!(s[1].lines.is_none() && s[1].note.is_none());

        let e = entry(&s[0], "expense-report");
        assert_eq!(e.location, ".claude/skills/expense-report");
        assert_eq!(e.convention.as_deref(), Some(".claude/skills"));
        assert_eq!(
            e.structural.as_deref(),
            Some("69b37371b8fd97cce66cffd7369202c2ec84910272e040d69132e63b232b88b6")
        );
        assert_eq!(
            e.content.as_deref(),
            Some("8d4bedb248c2a258c77d2bc95b9701b08f327be8a2c4a8e053d0c40debc1288d")
        );
        assert!(e.files.is_empty() && e.repo.is_none() && !e.excluded);
        assert!(e.provenance.is_none());
        let gov = rule_key("ScriptRequiresGovernanceReview");
        assert_eq!(gov, "script-requires-governance-review");
        let tools = rule_key("AllowedToolsExperimental");
        assert_eq!(tools, "allowed-tools-experimental");
        assert_eq!(e.findings[&gov]["medium"], 1);
        assert_eq!(e.findings.len(), 1);
        let p = entry(&s[0], "pdf-tools");
        assert_eq!(p.convention.as_deref(), Some(".agents/skills"));
        assert_eq!(p.findings[&tools]["low"], 1);

        // B: null content hash stays None; two findings.
        let e = entry(&s[1], "expense-report");
        assert!(e.content.is_none() && e.structural.is_some());
        assert_eq!(e.findings[&gov]["medium"], 1);
        assert_eq!(e.findings[&tools]["low"], 1);

        // C: provenance, bare `skills` convention, no findings.
        let p = entry(&s[2], "pdf-tools");
        assert_eq!(
            p.provenance,
            Some(Provenance {
                source: Some("acme/agent-skills".into()),
                source_url: Some("https://github.com/acme/agent-skills".into()),
                git_ref: Some("v1.2.0".into()),
                lock: "skills-lock.json".into(),
            })
        );
        let w = entry(&s[2], "report-writer");
        assert_eq!(w.location, "skills/report-writer");
        assert_eq!(w.convention.as_deref(), Some("skills"));
        assert!(w.findings.is_empty());

        let v = verify(&l).unwrap();
        assert!(v.ok(), "{:?}", v.problems);
        assert_eq!(v.snapshots, 3);
    }

    #[test]
    fn importing_again_skips_everything() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        import_agenteval(&fixtures().join("ledger"), &l, None).unwrap();
        let r = import_agenteval(&fixtures().join("ledger"), &l, None).unwrap();
        assert_eq!((r.snapshots_imported, r.snapshots_skipped), (0, 3));
        assert_eq!((r.first_seq, r.last_seq), (None, None));
        assert_eq!(l.files().unwrap().len(), 3);
        // A single file already imported through the directory is skipped too.
        let one = fixtures()
            .join("ledger")
            .join(format!("skills-baseline-20260715083000123-{A}.json"));
        let r = import_agenteval(&one, &l, None).unwrap();
        assert_eq!((r.snapshots_imported, r.snapshots_skipped), (0, 1));
        assert!(verify(&l).unwrap().ok());
    }

    #[test]
    fn corrupt_file_is_an_error_naming_it_and_nothing_is_appended() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let e = import_agenteval(&fixtures().join("corrupt"), &l, None).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, ImportError::Invalid { .. }), "{e:?}");
        assert!(
            msg.contains("skills-baseline-20260718090000000-7d0ab56180ffc87b992f1afd16a983f1.json")
                && msg.contains("truncated"),
            "{msg}"
        );
        // The valid file next to it was not imported either.
        assert!(l.files().unwrap().is_empty());
        assert!(!l.exists());
    }

    #[test]
    fn single_snapshot_file_is_imported_and_other_files_are_ignored() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let one = fixtures()
            .join("ledger")
            .join(format!("skills-baseline-20260717051500500-{C}.json"));
        let r = import_agenteval(&one, &l, None).unwrap();
        assert_eq!((r.snapshots_imported, r.skill_entries), (1, 3));
        assert_eq!((r.first_seq, r.last_seq), (Some(1), Some(1)));
        let s = snapshots(&l);
        assert_eq!(s[0].imported.as_ref().unwrap().id, C);
        // Sorted by location by the ledger.
        let locs: Vec<&str> = s[0].skills.iter().map(|e| e.location.as_str()).collect();
        assert_eq!(
            locs,
            [
                ".agents/skills/pdf-tools",
                ".claude/skills/expense-report",
                "skills/report-writer"
            ]
        );
        // A pin output makes no sense for a snapshot.
        let e = import_agenteval(&one, &l, Some(&d.path().join("p.json"))).unwrap_err();
        assert!(matches!(e, ImportError::Usage(_)), "{e:?}");

        // A directory with extra files: only `skills-baseline-*.json` are read; the rest
        // (including the older snapshots A and B) is new.
        let dir = d.path().join("ae");
        fs::create_dir(&dir).unwrap();
        for f in fs::read_dir(fixtures().join("ledger")).unwrap() {
            let f = f.unwrap();
            fs::copy(f.path(), dir.join(f.file_name())).unwrap();
        }
        fs::write(dir.join("README.txt"), "not json").unwrap();
        fs::write(dir.join("skills-baseline-notes.txt"), "not json").unwrap();
        fs::create_dir(dir.join("skills-baseline-old.json")).unwrap();
        let r = import_agenteval(&dir, &l, None).unwrap();
        assert_eq!((r.snapshots_imported, r.snapshots_skipped), (2, 1));
        assert_eq!((r.first_seq, r.last_seq), (Some(2), Some(3)));
        assert!(verify(&l).unwrap().ok());

        // An empty directory is an error, not a silent no-op.
        let empty = d.path().join("empty");
        fs::create_dir(&empty).unwrap();
        let e = import_agenteval(&empty, &l, None).unwrap_err().to_string();
        assert!(e.contains("no AgentEval baseline snapshot"), "{e}");
    }

    fn snapshot_json(skill: &str) -> String {
        format!(
            r#"{{"Id":"0123456789abcdef0123456789abcdef","CapturedAt":"2026-07-17T12:00:00.1234567+00:00","ScannedRoot":"/r","Skills":[{{"Name":"ok","SourceKind":0,"RelativePath":"ok","StructuralFingerprint":null,"ContentHash":null,"ComplianceFindings":[]}},{skill}]}}"#
        )
    }

    #[test]
    fn bad_entries_name_file_index_and_sanitised_name() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let f = d.path().join("snap\u{1b}[31m.json");
        let cases = [
            (
                r#"{"Name":"evil\u001b[2Jname","RelativePath":"x","StructuralFingerprint":"zz","ContentHash":null}"#,
                "StructuralFingerprint",
            ),
            (
                r#"{"Name":"r","RelativePath":"x","ComplianceFindings":[{"SkillName":"r","Rule":15,"Severity":1,"Message":"m","Field":null}]}"#,
                "unknown `Rule` 15",
            ),
            (
                r#"{"Name":"r","RelativePath":"x","ComplianceFindings":[{"SkillName":"r","Rule":1,"Severity":7,"Message":"m","Field":null}]}"#,
                "unknown `Severity` 7",
            ),
            (
                r#"{"Name":"r","RelativePath":"../../etc"}"#,
                "leaves the scanned root",
            ),
            (r#"{"Name":"r","RelativePath":"/abs/r"}"#, "is absolute"),
            (r#"{"RelativePath":"x"}"#, "missing field `Name`"),
            (r#"{"Name":5}"#, "invalid type"),
        ];
        for (skill, want) in cases {
            fs::write(&f, snapshot_json(skill)).unwrap();
            let e = import_agenteval(&f, &l, None).unwrap_err();
            let msg = e.to_string();
            assert!(matches!(e, ImportError::Entry { index: 1, .. }), "{e:?}");
            assert!(msg.contains(want), "{msg}");
            assert!(msg.contains("snap\\u{001B}[31m.json"), "{msg}");
            assert!(!msg.contains('\u{1b}'), "{msg:?}");
        }
        let e = import_agenteval(&f, &l, None).unwrap_err().to_string();
        assert!(e.contains("(no Name)"), "{e}");
        fs::write(&f, snapshot_json(cases[0].0)).unwrap();
        let e = import_agenteval(&f, &l, None).unwrap_err().to_string();
        assert!(e.contains("Skills[1] (`evil\\u{001B}[2Jname`)"), "{e}");

        // Top-level shape errors.
        for (text, want) in [
            (r#"{"Id":"x","Skills":[]}"#, "missing field `CapturedAt`"),
            (
                r#"{"Id":"x","CapturedAt":"17/07/2026","Skills":[]}"#,
                "not an RFC 3339",
            ),
            (
                r#"{"Id":" ","CapturedAt":"2026-07-17T12:00:00Z","Skills":[]}"#,
                "`Id` is empty",
            ),
            (r#"[1,2]"#, "not a JSON object"),
            (r#"{"id":"x","capturedAt":"y"}"#, "case-sensitive"),
            (
                r#"{"format":"skillguard-pin","version":1,"skills":{}}"#,
                "is a skillguard file",
            ),
        ] {
            fs::write(&f, text).unwrap();
            let e = import_agenteval(&f, &l, None).unwrap_err().to_string();
            assert!(e.contains(want), "{want}: {e}");
        }
        assert!(!l.exists());
    }

    #[test]
    fn control_characters_are_kept_as_data_and_locations_normalised() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let f = d.path().join("one.json");
        let skill = r#"{"Name":"tab\tand\u001bescape","RelativePath":".\\plugins\\acme\\skills\\tab\\","StructuralFingerprint":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","ContentHash":null,"Source":"","SourceUrl":"https://example.invalid/x","Ref":null,"ComplianceFindings":[{"Rule":13,"Severity":0},{"Rule":"ManifestChangedSinceBaseline","Severity":"High"},{"Rule":12,"Severity":1},{"Rule":12,"Severity":1},{"Rule":9,"Severity":1}]}"#;
        fs::write(&f, snapshot_json(skill)).unwrap();
        import_agenteval(&f, &l, None).unwrap();
        let s = snapshots(&l);
        let e = entry(&s[0], "tab\tand\u{1b}escape");
        assert_eq!(e.location, "plugins/acme/skills/tab");
        assert_eq!(e.convention.as_deref(), Some("plugins/*/skills"));
        assert_eq!(e.structural.as_deref(), Some(&*"a".repeat(64)));
        let p = e.provenance.as_ref().unwrap();
        assert!(p.source.is_none() && p.source_url.is_some() && p.git_ref.is_none());
        for (name, sev, n) in [
            ("MatchesPreviouslyVettedCopy", "low", 1),
            ("ManifestChangedSinceBaseline", "high", 1),
            ("CrossLocationContentDrift", "medium", 2),
            ("ResourceFromUntrustedSource", "medium", 1),
        ] {
            let key = rule_key(name);
            assert!(key.starts_with("agenteval:") || crate::catalog::get(&key).is_some());
            assert_eq!(e.findings[&key][sev], n, "{name}");
        }
        assert_eq!(e.count_at_least(crate::finding::Severity::High), 1);
        assert!(verify(&l).unwrap().ok());
    }

    #[test]
    fn duplicate_ids_in_one_import() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let dir = d.path().join("ae");
        fs::create_dir(&dir).unwrap();
        let a = fixtures()
            .join("ledger")
            .join(format!("skills-baseline-20260715083000123-{A}.json"));
        fs::copy(
            &a,
            dir.join(format!("skills-baseline-20260715083000123-{A}.json")),
        )
        .unwrap();
        fs::copy(&a, dir.join("skills-baseline-copy.json")).unwrap();
        let r = import_agenteval(&dir, &l, None).unwrap();
        assert_eq!((r.snapshots_imported, r.snapshots_skipped), (1, 1));
        // Same Id, different content: refused.
        let text = fs::read_to_string(&a)
            .unwrap()
            .replace("/home/dev/acme-agents", "/elsewhere");
        fs::write(dir.join("skills-baseline-copy.json"), text).unwrap();
        let l2 = Ledger::new(d.path().join("ledger2"));
        let e = import_agenteval(&dir, &l2, None).unwrap_err().to_string();
        assert!(e.contains("same `Id`"), "{e}");
        assert!(!l2.exists());
    }

    #[test]
    fn pin_is_converted_lower_cased_and_merged_without_overwriting() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let pin_in = fixtures().join("pin.json");
        // A pin needs an output path.
        let e = import_agenteval(&pin_in, &l, None).unwrap_err();
        assert!(matches!(e, ImportError::Usage(_)), "{e:?}");

        let out = d.path().join("pins/skills.pin.json");
        let r = import_agenteval(&pin_in, &l, Some(&out)).unwrap();
        assert_eq!(r.pin_entries, 4);
        assert!(r.pin_conflicts.is_empty() && r.snapshots_imported == 0);
        assert!(!l.exists());
        let p = pin::read(&out).unwrap().unwrap();
        assert_eq!(p.format, pin::FORMAT);
        assert_eq!(
            p.note.as_deref(),
            Some("reviewed by security 2026-07-17 — ticket SEC-142")
        );
        let keys: Vec<&str> = p.skills.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "expense-report",
                "legacy-helper",
                "pdf-tools",
                "report-writer"
            ]
        );
        let w = &p.skills["report-writer"];
        assert_eq!(w.name, "Report-Writer");
        assert_eq!(
            w.agenteval_content.as_deref(),
            Some("b2bd0b86dbb43dcb038d40b26192be6a90914990824b430df06256681d7baf6d")
        );
        assert!(p.skills["legacy-helper"].structural.is_none());
        assert!(p.skills["pdf-tools"].content.is_none());
        // No temporary file left behind.
        assert_eq!(fs::read_dir(out.parent().unwrap()).unwrap().count(), 1);

        // Importing the same pin again changes nothing and reports no conflict.
        let before = fs::read(&out).unwrap();
        let r = import_agenteval(&pin_in, &l, Some(&out)).unwrap();
        assert_eq!((r.pin_entries, r.pin_conflicts.len()), (0, 0));
        assert_eq!(fs::read(&out).unwrap(), before);

        // Merge into an existing pin of ours: its differing entry is kept and reported.
        let mut mine = PinFile::new(HashOptions::default(), Some("ours".into()));
        let mut own = p.skills["expense-report"].clone();
        own.structural = Some("b".repeat(64));
        own.note = Some("approved by alice".into());
        mine.skills.insert("expense-report".into(), own.clone());
        mine.skills
            .insert("other".into(), p.skills["pdf-tools"].clone());
        let out2 = d.path().join("mine.json");
        fs::write(&out2, mine.to_bytes()).unwrap();
        let r = import_agenteval(&pin_in, &l, Some(&out2)).unwrap();
        assert_eq!(r.pin_conflicts, ["expense-report"]);
        assert_eq!(r.pin_entries, 3);
        let merged = pin::read(&out2).unwrap().unwrap();
        assert_eq!(merged.note.as_deref(), Some("ours"));
        assert_eq!(merged.skills["expense-report"], own);
        assert_eq!(merged.skills.len(), 5);

        // An output that is not our pin format is never overwritten.
        let other = d.path().join("ae-pin.json");
        fs::copy(&pin_in, &other).unwrap();
        let e = import_agenteval(&pin_in, &l, Some(&other))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a skillguard pin"), "{e}");
        assert_eq!(fs::read(&other).unwrap(), fs::read(&pin_in).unwrap());

        // Non-default hash options take AgentEval content hashes too: they are kept as
        // `agenteval_content`, which no hash option applies to.
        let mut eol = PinFile::new(
            HashOptions {
                normalize_eol: true,
                ignore: vec![],
            },
            None,
        );
        eol.skills.insert("x".into(), own);
        let out3 = d.path().join("eol.json");
        fs::write(&out3, eol.to_bytes()).unwrap();
        import_agenteval(&pin_in, &l, Some(&out3)).unwrap();
        let p = pin::read(&out3).unwrap().unwrap();
        assert!(p.hash_options.normalize_eol);
        assert_eq!(
            p.skills["report-writer"].agenteval_content.as_deref(),
            Some("b2bd0b86dbb43dcb038d40b26192be6a90914990824b430df06256681d7baf6d")
        );

        // A pin inside a ledger directory is refused, not skipped.
        let dir = d.path().join("ae");
        fs::create_dir(&dir).unwrap();
        fs::copy(&pin_in, dir.join("skills-baseline-pin.json")).unwrap();
        let e = import_agenteval(&dir, &l, None).unwrap_err().to_string();
        assert!(e.contains("pin file"), "{e}");
    }

    #[test]
    fn pin_spellings_of_one_name_keep_the_lower_case_one() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::new(d.path().join("ledger"));
        let f = d.path().join("pin.json");
        let (x, y) = ("1".repeat(64), "2".repeat(64));
        fs::write(
            &f,
            format!(
                r#"{{"CapturedAt":"2026-07-17T10:00:00+00:00","HashesBySkillName":{{"my-skill":"{x}","My-Skill":"{y}","Zed":"{y}","ZED":"{x}"}},"Notes":null,"ContentHashesBySkillName":null}}"#
            ),
        )
        .unwrap();
        let out = d.path().join("out.json");
        let r = import_agenteval(&f, &l, Some(&out)).unwrap();
        assert_eq!(r.pin_conflicts, ["my-skill", "zed"]);
        assert_eq!(r.pin_entries, 2);
        let p = pin::read(&out).unwrap().unwrap();
        assert_eq!(p.skills["my-skill"].structural.as_deref(), Some(&*x));
        assert_eq!(p.skills["my-skill"].name, "my-skill");
        // Neither spelling is lower-case: the first in ordinal order.
        assert_eq!(p.skills["zed"].name, "ZED");
    }

    #[test]
    fn helpers() {
        assert_eq!(normalise_location("./a//b/./c/").unwrap(), "a/b/c");
        assert!(normalise_location("C:\\x").is_err());
        assert!(normalise_location("./").is_err());
        assert_eq!(convention_of("x"), None);
        assert_eq!(
            convention_of("repo-a/.claude/skills/s").as_deref(),
            Some(".claude/skills")
        );
        assert_eq!(convention_of("docs/s"), None);
        assert_eq!(
            convention_of("skills/.system/s").as_deref(),
            Some("skills/.system")
        );
        assert_eq!(
            rule_name(&Value::from(14)),
            Some("ManifestChangedSinceBaseline")
        );
        assert_eq!(rule_name(&Value::from(-1)), None);
        assert_eq!(rule_name(&Value::from(1.5)), None);
        assert_eq!(severity_name(&Value::from(2)), Some("high"));
        assert_eq!(severity_name(&Value::Null), None);
        assert_eq!(rule_key("NameTooLong"), "name-too-long");
    }
}
