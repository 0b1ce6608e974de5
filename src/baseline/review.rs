//! Reviews of the ledger: `baseline list`, `diff`, `history` and `verify`, as data (for
//! `--format json`) and as text.
//!
//! Everything is keyed by skill *location*, not by name: two copies of one skill in two
//! repositories have two histories (AgentEval keeps the first location per name and misses
//! drift in all the others).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};

use serde::Serialize;

use super::checks::show_date;
use super::ledger::{
    EntrySummary, EvalsProbe, FileRecord, Ledger, LedgerError, Listing, Loaded, ScannedRoot,
    SkillEntry, Snapshot, SnapshotFile, Summary, Verification, is_evals_kind,
};
use super::record::{covers, recompute_content};
use crate::finding::Severity;
use crate::linediff::{self, LineDelta};
use crate::skill_hashes::Hasher;
use crate::text::sanitize_line;

/// Which hash decides that a skill changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HashKind {
    /// AgentEval's structural fingerprint (ignores the body and file bytes).
    Structural,
    /// The folder content hash.
    Content,
    /// Per-file hashes (under the review's hash options).
    Files,
}

impl HashKind {
    pub fn as_str(self) -> &'static str {
        match self {
            HashKind::Structural => "structural",
            HashKind::Content => "content",
            HashKind::Files => "files",
        }
    }
}

/// A snapshot reference in reports.
#[derive(Debug, Clone, Serialize)]
pub struct SnapRef {
    pub seq: u64,
    pub id: String,
    pub captured_at: String,
}

fn snap_ref(seq: u64, id: &str, at: &str) -> SnapRef {
    SnapRef {
        seq,
        id: id.to_owned(),
        captured_at: at.to_owned(),
    }
}

// ---------------------------------------------------------------- list

#[derive(Debug, Clone, Serialize)]
pub struct ListRow {
    pub seq: u64,
    pub id: String,
    pub captured_at: String,
    pub tool: String,
    pub mode: String,
    pub root: String,
    pub skills: usize,
    /// Agent files recorded; `null` for a snapshot that predates agent recording.
    pub agents: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported_from: Option<String>,
    /// `evals` for an eval snapshot; absent for a scan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// An eval snapshot's result in brief.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evals: Option<EvalsListRow>,
}

/// An eval snapshot in `baseline list`.
#[derive(Debug, Clone, Serialize)]
pub struct EvalsListRow {
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub k: Option<u32>,
    pub cases: usize,
    pub passed: bool,
    pub sets: BTreeMap<crate::evals::grade::Set, crate::evals::grade::SetResult>,
}

pub fn list(ledger: &Ledger) -> Result<Vec<ListRow>, LedgerError> {
    ledger.load_map(|l: Loaded<Listing>| {
        let h = l.snapshot;
        ListRow {
            seq: h.seq,
            id: h.id,
            captured_at: h.captured_at,
            tool: h.tool,
            mode: h.root.mode,
            root: h.root.relative,
            skills: h.skills.len(),
            agents: h.agents.map(|a| a.len()),
            note: h.note,
            imported_from: h.imported.map(|i| format!("{} {}", i.tool, i.id)),
            kind: h.kind,
            evals: h.evals.map(|e| EvalsListRow {
                key: e.key,
                target: e.target,
                k: e.k,
                cases: e.cases.len(),
                passed: e.passed,
                sets: e.sets,
            }),
        }
    })
}

pub fn render_list(rows: &[ListRow], ledger: &Ledger, out: &mut dyn Write) -> io::Result<()> {
    if rows.is_empty() {
        return writeln!(
            out,
            "No baseline snapshots in {} yet. Run `skillguard scan --repo . --write-baseline` first.",
            shown(&ledger.root)
        );
    }
    writeln!(
        out,
        "{:>4}  {:<32}  {:<20}  {:<24}  {:>6}  {:>6}  NOTE",
        "#", "ID", "CAPTURED", "ROOT", "SKILLS", "AGENTS"
    )?;
    for r in rows {
        let mut note = r
            .note
            .as_deref()
            .map(|n| sanitize_line(&crate::text::truncate(n, 60)).into_owned())
            .or_else(|| {
                r.imported_from
                    .as_ref()
                    .map(|i| format!("imported from {i}"))
            })
            .unwrap_or_default();
        if let Some(e) = &r.evals {
            let result = format!(
                "evals k={}: {} {}",
                e.k.map_or_else(|| "n".to_owned(), |k| k.to_string()),
                super::evalsnap::sets_text(&e.sets),
                if e.passed { "PASS" } else { "FAIL" }
            );
            note = if note.is_empty() {
                result
            } else {
                format!("{result}; {note}")
            };
        } else if super::ledger::is_evals_kind(r.kind.as_deref()) {
            note = format!("evals (unreadable result) {note}");
        }
        let evals = super::ledger::is_evals_kind(r.kind.as_deref());
        writeln!(
            out,
            "{:>4}  {:<32}  {:<20}  {:<24}  {:>6}  {:>6}  {}",
            r.seq,
            r.id,
            show_date(&r.captured_at),
            sanitize_line(&crate::text::truncate(
                &format!("{} ({})", r.root, r.mode),
                24
            )),
            if evals {
                "-".to_owned()
            } else {
                r.skills.to_string()
            },
            r.agents.map_or_else(|| "-".to_owned(), |n| n.to_string()),
            note
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------- diff

#[derive(Debug, Clone, Serialize)]
pub struct FileChange {
    pub path: String,
    /// `added`, `removed`, `modified`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_size: Option<u64>,
    /// Lines added and removed (text files whose line hashes are in the ledger).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_added: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_removed: Option<usize>,
    /// The line counts are an approximation (very different files).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lines_approximate: bool,
    /// Only line endings changed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub line_endings_only: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillChange {
    pub location: String,
    pub name: String,
    /// Agent entries: `agent`, `prompt`, `instructions`, `mcp-config` or `hooks`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Agent entries: the file's format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// `added`, `removed`, `changed`, `moved`, or `not-comparable` (one of the two entries
    /// was recorded without reading all of it: `not_comparable` says why).
    pub status: &'static str,
    /// Why the content of a `not-comparable` entry could not be compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
    /// For `moved`: the earlier location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_from: Option<String>,
    pub structural_changed: bool,
    pub content_changed: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileChange>,
    /// High and critical findings recorded before and after.
    pub high_findings_before: u32,
    pub high_findings_after: u32,
    /// The later snapshot records more high or critical findings for this skill.
    pub new_high_finding: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct DiffReport {
    pub from: SnapRef,
    pub to: SnapRef,
    pub hash: HashKind,
    pub changes: Vec<SkillChange>,
    pub unchanged: usize,
    /// Agent, prompt, instructions, MCP and hook files; `null` when either snapshot predates
    /// agent recording (`agents_note` says which).
    pub agents: Option<AgentDiff>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents_note: Option<String>,
    /// Set when the two snapshots were captured with different hash options and contents
    /// were recomputed from per-file records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What changed among the agent files.
#[derive(Debug, Clone, Serialize)]
pub struct AgentDiff {
    pub changes: Vec<SkillChange>,
    pub unchanged: usize,
}

/// Diff options.
#[derive(Debug, Clone)]
pub struct DiffOptions {
    pub since: Option<String>,
    pub until: Option<String>,
    pub skill: Option<String>,
    pub hash: HashKind,
    /// Review-time hash options (`--normalize-eol`, `--hash-ignore`); `None` = as captured.
    pub hasher: Option<Hasher>,
}

/// Outcome of a diff that may have nothing to compare.
#[derive(Debug)]
pub enum DiffOutcome {
    Report(Box<DiffReport>),
    /// Two eval snapshots compared.
    Evals(Box<super::evalsnap::EvalsDiff>),
    /// Fewer than two snapshots, or `--since` is the newest: a message, exit 0.
    Nothing(String),
}

/// Does an entry match a `--skill NAME|PATH` filter? An agent file (`agent`) also matches
/// its file name without `.md`/`.agent.md` (the identity Copilot dedups by).
pub fn matches_skill(e_name: &str, e_location: &str, agent: bool, key: &str) -> bool {
    let key = key.trim().trim_end_matches('/');
    e_name == key
        || e_name.eq_ignore_ascii_case(key)
        || e_location == key
        || e_location
            .strip_suffix(key)
            .is_some_and(|p| p.ends_with('/'))
        || (agent && crate::agents::stem(e_location).eq_ignore_ascii_case(key))
}

fn digests<'a>(e: &'a SkillEntry, h: &Hasher) -> BTreeMap<&'a str, (&'a str, &'a FileRecord)> {
    e.files
        .iter()
        .filter(|f| e.hashes(&f.path, h))
        .map(|f| {
            (
                f.path.as_str(),
                (h.digest(&f.sha256, f.sha256_lf.as_deref()), f),
            )
        })
        .collect()
}

fn file_changes(
    ledger: &Ledger,
    old: &SkillEntry,
    new: &SkillEntry,
    h: &Hasher,
    packs: &mut BTreeMap<u64, Option<Vec<u8>>>,
) -> Vec<FileChange> {
    let a = digests(old, h);
    let b = digests(new, h);
    let mut out = Vec::new();
    let keys: BTreeSet<&str> = a.keys().chain(b.keys()).copied().collect();
    for k in keys {
        match (a.get(k), b.get(k)) {
            (Some((da, fa)), Some((db, fb))) if da != db => {
                let mut c = FileChange {
                    path: k.to_owned(),
                    status: "modified",
                    old_size: Some(fa.size),
                    new_size: Some(fb.size),
                    lines_added: None,
                    lines_removed: None,
                    lines_approximate: false,
                    line_endings_only: false,
                };
                if let (Some(ra), Some(rb)) = (fa.lines, fb.lines)
                    && let (Some(la), Some(lb)) =
                        (ledger.read_lines(&ra, packs), ledger.read_lines(&rb, packs))
                {
                    let LineDelta {
                        added,
                        removed,
                        exact,
                    } = linediff::diff_counts(&la, &lb);
                    c.lines_added = Some(added);
                    c.lines_removed = Some(removed);
                    c.lines_approximate = !exact;
                    c.line_endings_only = added == 0
                        && removed == 0
                        && fa.sha256_lf.as_deref().unwrap_or(&fa.sha256)
                            == fb.sha256_lf.as_deref().unwrap_or(&fb.sha256);
                }
                out.push(c);
            }
            (Some(_), Some(_)) => {}
            (Some((_, fa)), None) => out.push(FileChange {
                path: k.to_owned(),
                status: "removed",
                old_size: Some(fa.size),
                new_size: None,
                lines_added: None,
                lines_removed: fa.lines.map(|r| r.count as usize),
                lines_approximate: false,
                line_endings_only: false,
            }),
            (None, Some((_, fb))) => out.push(FileChange {
                path: k.to_owned(),
                status: "added",
                old_size: None,
                new_size: Some(fb.size),
                lines_added: fb.lines.map(|r| r.count as usize),
                lines_removed: None,
                lines_approximate: false,
                line_endings_only: false,
            }),
            (None, None) => {}
        }
    }
    out
}

/// Content hash of an entry under the review's options.
fn content_of(e: &SkillEntry, snap_opts_match: bool, h: &Hasher) -> Option<String> {
    if snap_opts_match {
        e.content.clone()
    } else {
        recompute_content(e, h).or_else(|| e.content.clone())
    }
}

pub fn diff(ledger: &Ledger, o: &DiffOptions) -> Result<DiffOutcome, LedgerError> {
    // Snapshots are found by their file names; only the ones needed to tell scan from eval
    // snapshots (the newest few, without `--since`/`--until`) and the two compared are parsed.
    let heads = ledger.files()?;
    if heads.len() < 2 {
        return Ok(DiffOutcome::Nothing(format!(
            "Need at least 2 baseline snapshots to diff (found {}) in {}.",
            heads.len(),
            shown(&ledger.root)
        )));
    }
    // (kind is evals, eval key) of a snapshot file, parsed once.
    let mut kinds: BTreeMap<u64, (bool, Option<String>)> = BTreeMap::new();
    let mut kind_of = |f: &SnapshotFile| -> Result<(bool, Option<String>), LedgerError> {
        if let Some(k) = kinds.get(&f.seq) {
            return Ok(k.clone());
        }
        let l: Loaded<EvalsProbe> = ledger.load_one(f.clone())?;
        let k = (
            is_evals_kind(l.snapshot.kind.as_deref()),
            l.snapshot.evals.map(|e| e.key),
        );
        kinds.insert(f.seq, k.clone());
        Ok(k)
    };
    let since = match &o.since {
        Some(k) => Some(ledger.resolve(&heads, k)?),
        None => None,
    };
    let to = match (&o.until, since) {
        (Some(k), _) => ledger.resolve(&heads, k)?,
        // After an eval snapshot given to --since: the newest result of the same evals file.
        (None, Some(s)) if kind_of(s)?.0 => {
            let want = kind_of(s)?;
            let mut found = s;
            for h in heads.iter().rev().filter(|h| h.seq > s.seq) {
                if kind_of(h)? == want {
                    found = h;
                    break;
                }
            }
            found
        }
        // The newest scan snapshot.
        (None, _) => {
            let mut found = None;
            for h in heads.iter().rev() {
                if !kind_of(h)?.0 {
                    found = Some(h);
                    break;
                }
            }
            match found {
                Some(h) => h,
                None => {
                    return Ok(DiffOutcome::Nothing(format!(
                        "Need at least 2 scan snapshots to diff in {}; the {} snapshot(s) there are eval results (compare two with --since and --until).",
                        shown(&ledger.root),
                        heads.len()
                    )));
                }
            }
        }
    };
    let to_kind = kind_of(to)?;
    let from = match since {
        Some(s) => s,
        // The one before --until of the same kind (and, for eval snapshots, evals file).
        None => {
            let mut found = None;
            for h in heads.iter().rev().filter(|h| h.seq < to.seq) {
                if kind_of(h)? == to_kind {
                    found = Some(h);
                    break;
                }
            }
            match found {
                Some(h) => h,
                None => {
                    return Ok(DiffOutcome::Nothing(if to_kind.0 {
                        format!(
                            "#{} is the first recorded eval result of {}: nothing to diff.",
                            to.seq,
                            sanitize_line(to_kind.1.as_deref().unwrap_or("?"))
                        )
                    } else {
                        format!(
                            "Need at least 2 scan snapshots to diff (found 1) in {}.",
                            shown(&ledger.root)
                        )
                    }));
                }
            }
        }
    };
    if from.seq > to.seq {
        return Err(LedgerError::Lookup {
            root: ledger.root.display().to_string(),
            msg: format!(
                "--since #{} is newer than --until #{}; give the older snapshot to --since",
                from.seq, to.seq
            ),
        });
    }
    if from == to {
        return Ok(DiffOutcome::Nothing(format!(
            "--since and --until are the same snapshot (#{}): nothing to diff.",
            from.seq
        )));
    }
    let from_kind = kind_of(from)?;
    if from_kind.0 != to_kind.0 {
        let what = |e: bool| {
            if e {
                "an eval snapshot"
            } else {
                "a scan snapshot"
            }
        };
        return Err(LedgerError::Lookup {
            root: ledger.root.display().to_string(),
            msg: format!(
                "#{} is {} and #{} is {}; a diff compares two snapshots of the same kind",
                from.seq,
                what(from_kind.0),
                to.seq,
                what(to_kind.0)
            ),
        });
    }
    if to_kind.0 {
        let a: Loaded<Snapshot> = ledger.load_one(from.clone())?;
        let b: Loaded<Snapshot> = ledger.load_one(to.clone())?;
        let corrupt = |l: &Loaded<Snapshot>| LedgerError::Corrupt {
            path: l.file.path.display().to_string(),
            entry: format!("#{} ({})", l.file.seq, l.file.id),
            msg: "an eval snapshot without its `evals` result".into(),
        };
        let (Some(ea), Some(eb)) = (&a.snapshot.evals, &b.snapshot.evals) else {
            return Err(corrupt(if a.snapshot.evals.is_none() { &a } else { &b }));
        };
        let (sa, sb) = (&a.snapshot, &b.snapshot);
        return Ok(DiffOutcome::Evals(Box::new(super::evalsnap::diff(
            snap_ref(sa.seq, &sa.id, &sa.captured_at),
            ea,
            snap_ref(sb.seq, &sb.id, &sb.captured_at),
            eb,
        ))));
    }
    let a: Loaded<Snapshot> = ledger.load_one(from.clone())?;
    let b: Loaded<Snapshot> = ledger.load_one(to.clone())?;
    let (sa, sb) = (&a.snapshot, &b.snapshot);
    let same = sa.hash_options == sb.hash_options;
    let hasher = match &o.hasher {
        Some(h) => h.clone(),
        None => Hasher::new(sb.hash_options.clone()).map_err(|msg| LedgerError::Corrupt {
            path: b.file.path.display().to_string(),
            entry: format!("#{} ({})", sb.seq, sb.id),
            msg: format!("hash_options: {msg}"),
        })?,
    };
    let use_stored_a = o.hasher.is_none() && same
        || o.hasher
            .as_ref()
            .is_some_and(|h| h.options == sa.hash_options);
    let use_stored_b = o.hasher.is_none()
        || o.hasher
            .as_ref()
            .is_some_and(|h| h.options == sb.hash_options);
    let scope_note = (sa.root.relative != sb.root.relative).then(|| {
        format!(
            "the snapshots scanned different roots ({} and {}); only skills under both are compared",
            sanitize_line(&sa.root.relative),
            sanitize_line(&sb.root.relative)
        )
    });
    let note = (!same && o.hasher.is_none()).then(|| {
        "the two snapshots were captured with different hash options; contents were recomputed from per-file records under the later snapshot's options".to_owned()
    });
    // Only what both snapshots scanned is compared.
    let (scope_a, scope_b) = (sa.root.relative.as_str(), sb.root.relative.as_str());
    let keep = |e: &SkillEntry| {
        o.skill
            .as_deref()
            .is_none_or(|k| matches_skill(&e.name, &e.location, e.kind.is_some(), k))
            && covers(scope_a, &e.location)
            && covers(scope_b, &e.location)
    };
    let (ma, mb) = (
        by_location(&sa.skills, &keep),
        by_location(&sb.skills, &keep),
    );
    // Agents are compared only between snapshots that both record them.
    let agents = match (&sa.agents, &sb.agents) {
        (Some(a), Some(b)) => Some((by_location(a, &keep), by_location(b, &keep))),
        _ => None,
    };
    let missing: Vec<String> = [sa, sb]
        .iter()
        .filter(|s| s.agents.is_none())
        .map(|s| format!("#{}", s.seq))
        .collect();
    let others_have_agents = [sa, sb]
        .iter()
        .filter_map(|s| s.agents.as_deref())
        .any(|v| v.iter().any(&keep));
    let agents_note = (agents.is_none() && others_have_agents).then(|| {
        format!(
            "agents not compared: snapshot {} predates agent recording (written by an older skillguard, or imported from AgentEval), so it says nothing about agent files",
            missing.join(" and ")
        )
    });
    let present = |m: &(BTreeMap<&str, &SkillEntry>, BTreeMap<&str, &SkillEntry>)| {
        !m.0.is_empty() || !m.1.is_empty()
    };
    if o.skill.is_some() && ma.is_empty() && mb.is_empty() && !agents.as_ref().is_some_and(present)
    {
        return Ok(DiffOutcome::Nothing(format!(
            "`{}` is not present in either snapshot (#{} / #{}).",
            sanitize_line(o.skill.as_deref().unwrap_or("")),
            sa.seq,
            sb.seq
        )));
    }
    let mut packs = BTreeMap::new();
    let cmp = Compare {
        ledger,
        hasher: &hasher,
        hash: o.hash,
        stored: (use_stored_a, use_stored_b),
    };
    let (changes, unchanged) = cmp.entries(&ma, &mb, &mut packs);
    let agents = agents.map(|(a, b)| {
        let (changes, unchanged) = cmp.entries(&a, &b, &mut packs);
        AgentDiff { changes, unchanged }
    });
    Ok(DiffOutcome::Report(Box::new(DiffReport {
        from: snap_ref(sa.seq, &sa.id, &sa.captured_at),
        to: snap_ref(sb.seq, &sb.id, &sb.captured_at),
        hash: o.hash,
        changes,
        unchanged,
        agents,
        agents_note,
        note: match (note, scope_note) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        },
    })))
}

/// The entries `keep` accepts, by location.
fn by_location<'a>(
    v: &'a [SkillEntry],
    keep: &dyn Fn(&SkillEntry) -> bool,
) -> BTreeMap<&'a str, &'a SkillEntry> {
    v.iter()
        .filter(|e| keep(e))
        .map(|e| (e.location.as_str(), e))
        .collect()
}

/// How two snapshots' entries are compared.
struct Compare<'l> {
    ledger: &'l Ledger,
    hasher: &'l Hasher,
    hash: HashKind,
    /// Use each snapshot's stored content hashes (else recompute them under `hasher`).
    stored: (bool, bool),
}

impl Compare<'_> {
    /// The changes between two snapshots' entries (skills, or agents) keyed by location,
    /// and the number of unchanged ones. Sorted by location; a removed and an added entry
    /// of the same name, kind and content are one move.
    fn entries(
        &self,
        ma: &BTreeMap<&str, &SkillEntry>,
        mb: &BTreeMap<&str, &SkillEntry>,
        packs: &mut BTreeMap<u64, Option<Vec<u8>>>,
    ) -> (Vec<SkillChange>, usize) {
        let (stored_a, stored_b) = self.stored;
        let hasher = self.hasher;
        let mut changes = Vec::new();
        let mut unchanged = 0;
        let locs: BTreeSet<&str> = ma.keys().chain(mb.keys()).copied().collect();
        let high = |e: &SkillEntry| e.count_at_least(Severity::High);
        let change = |e: &SkillEntry, status: &'static str| SkillChange {
            location: e.location.clone(),
            name: e.name.clone(),
            kind: e.kind.clone(),
            format: e.format.clone(),
            status,
            not_comparable: None,
            moved_from: None,
            structural_changed: false,
            content_changed: false,
            files: Vec::new(),
            high_findings_before: 0,
            high_findings_after: 0,
            new_high_finding: false,
        };
        for loc in locs {
            match (ma.get(loc), mb.get(loc)) {
                // Nothing is unchanged that was not compared: a side recorded without all of
                // its content is not comparable (its structure still is, for `--hash
                // structural`).
                (Some(ea), Some(eb))
                    if self.hash != HashKind::Structural
                        && (ea.content_unknown() || eb.content_unknown()) =>
                {
                    let why = [(ea, "before"), (eb, "after")]
                        .iter()
                        .filter(|(e, _)| e.content_unknown())
                        .map(|(e, when)| {
                            format!(
                                "{when}: {}",
                                e.incomplete
                                    .as_deref()
                                    .unwrap_or("its content could not be read in full")
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("; ");
                    changes.push(SkillChange {
                        structural_changed: ea.structural != eb.structural,
                        not_comparable: Some(why),
                        high_findings_before: high(ea),
                        high_findings_after: high(eb),
                        new_high_finding: high(eb) > high(ea),
                        ..change(eb, "not-comparable")
                    });
                }
                (Some(ea), Some(eb)) => {
                    let ca = content_of(ea, stored_a, hasher);
                    let cb = content_of(eb, stored_b, hasher);
                    let structural_changed = ea.structural != eb.structural;
                    let content_changed = ca != cb;
                    let files = if content_changed || self.hash == HashKind::Files {
                        file_changes(self.ledger, ea, eb, hasher, packs)
                    } else {
                        Vec::new()
                    };
                    let changed = match self.hash {
                        // Agents have no structural fingerprint: their content decides.
                        HashKind::Structural if eb.kind.is_none() => structural_changed,
                        HashKind::Structural | HashKind::Content => content_changed,
                        HashKind::Files => !files.is_empty(),
                    };
                    if !changed {
                        unchanged += 1;
                        continue;
                    }
                    changes.push(SkillChange {
                        structural_changed,
                        content_changed,
                        files,
                        high_findings_before: high(ea),
                        high_findings_after: high(eb),
                        new_high_finding: high(eb) > high(ea),
                        ..change(eb, "changed")
                    });
                }
                (Some(ea), None) => changes.push(SkillChange {
                    high_findings_before: high(ea),
                    ..change(ea, "removed")
                }),
                (None, Some(eb)) => changes.push(SkillChange {
                    high_findings_after: high(eb),
                    new_high_finding: high(eb) > 0,
                    ..change(eb, "added")
                }),
                (None, None) => {}
            }
        }
        // A removed and an added location with the same name (and kind) and content: a move.
        let removed: Vec<usize> = (0..changes.len())
            .filter(|&i| changes[i].status == "removed")
            .collect();
        let mut drop = BTreeSet::new();
        for i in removed {
            let ea = ma[changes[i].location.as_str()];
            let ca = content_of(ea, stored_a, hasher);
            // Content that was not read in full matches nothing.
            if ea.content_unknown() {
                continue;
            }
            if let Some(j) = (0..changes.len()).find(|&j| {
                changes[j].status == "added"
                    && !drop.contains(&j)
                    && changes[j].name == ea.name
                    && changes[j].kind == ea.kind
                    && !mb[changes[j].location.as_str()].content_unknown()
                    && content_of(mb[changes[j].location.as_str()], stored_b, hasher) == ca
            }) {
                changes[j].status = "moved";
                changes[j].moved_from = Some(changes[i].location.clone());
                changes[j].high_findings_before = changes[i].high_findings_before;
                changes[j].new_high_finding =
                    changes[j].high_findings_after > changes[j].high_findings_before;
                drop.insert(i);
            }
        }
        let changes = changes
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !drop.contains(i))
            .map(|(_, c)| c)
            .collect();
        (changes, unchanged)
    }
}

fn size_text(c: &FileChange) -> String {
    let mut s = match (c.old_size, c.new_size) {
        (Some(a), Some(b)) => format!("{a} -> {b} bytes"),
        (Some(a), None) => format!("{a} bytes"),
        (None, Some(b)) => format!("{b} bytes"),
        (None, None) => String::new(),
    };
    if c.line_endings_only {
        s.push_str(", line endings only");
    } else if c.lines_added.is_some() || c.lines_removed.is_some() {
        s.push_str(&format!(
            ", +{} -{} lines{}",
            c.lines_added.unwrap_or(0),
            c.lines_removed.unwrap_or(0),
            if c.lines_approximate {
                " (approximate)"
            } else {
                ""
            }
        ));
    }
    s
}

pub fn render_diff(r: &DiffReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "Diffing #{} ({}, {}) -> #{} ({}, {}), hash={}",
        r.from.seq,
        &r.from.id[..8.min(r.from.id.len())],
        show_date(&r.from.captured_at),
        r.to.seq,
        &r.to.id[..8.min(r.to.id.len())],
        show_date(&r.to.captured_at),
        r.hash.as_str()
    )?;
    if let Some(n) = &r.note {
        writeln!(out, "note: {n}")?;
    }
    writeln!(out)?;
    render_changes(&r.changes, out)?;
    if !r.changes.is_empty() {
        writeln!(out)?;
    }
    // Agents, in a section of their own once there are any.
    let agents = r
        .agents
        .as_ref()
        .filter(|a| !a.changes.is_empty() || a.unchanged > 0);
    if let Some(a) = agents
        && !a.changes.is_empty()
    {
        writeln!(out, "Agents, prompts, instructions, MCP and hook files:")?;
        render_changes(&a.changes, out)?;
        writeln!(out)?;
    }
    writeln!(out, "{}", tally(&r.changes, r.unchanged))?;
    if let Some(a) = agents {
        writeln!(out, "agent files: {}", tally(&a.changes, a.unchanged))?;
    }
    if let Some(n) = &r.agents_note {
        writeln!(out, "{}", sanitize_line(n))?;
    }
    Ok(())
}

/// `1 changed, 0 added, 0 removed, 0 moved, 7 unchanged`.
fn tally(changes: &[SkillChange], unchanged: usize) -> String {
    let count = |s: &str| changes.iter().filter(|c| c.status == s).count();
    let not_comparable = match count("not-comparable") {
        0 => String::new(),
        n => format!("{n} not comparable, "),
    };
    format!(
        "{} changed, {} added, {} removed, {} moved, {not_comparable}{unchanged} unchanged",
        count("changed"),
        count("added"),
        count("removed"),
        count("moved")
    )
}

/// One line per change (agents with their kind), then its files.
fn render_changes(changes: &[SkillChange], out: &mut dyn Write) -> io::Result<()> {
    for c in changes {
        let label = match c.status {
            "changed" if c.new_high_finding => "!! [changed + new high finding]",
            "changed" => "   [changed]",
            "added" if c.new_high_finding => "!! [added, with high findings]",
            "added" => "   [added]",
            "removed" => "   [removed]",
            "not-comparable" if c.new_high_finding => "!! [not comparable + new high finding]",
            "not-comparable" => "!! [not comparable]",
            _ if c.new_high_finding => "!! [moved, new high finding]",
            _ => "   [moved]",
        };
        let kind = c
            .kind
            .as_deref()
            .map(|k| format!("{} ", sanitize_line(k)))
            .unwrap_or_default();
        let mut line = format!(
            "{label} {kind}{} ({})",
            sanitize_line(&c.location),
            sanitize_line(&c.name)
        );
        if let Some(f) = &c.moved_from {
            line.push_str(&format!(" from {}", sanitize_line(f)));
        }
        if c.status == "changed" {
            let mut what = Vec::new();
            if c.structural_changed {
                what.push("structure");
            }
            if c.content_changed {
                what.push("content");
            }
            if !what.is_empty() {
                line.push_str(&format!(": {} changed", what.join(" and ")));
            }
        }
        if let Some(why) = &c.not_comparable {
            line.push_str(&format!(
                ": content not compared, not read in full ({})",
                sanitize_line(why)
            ));
        }
        if c.new_high_finding {
            line.push_str(&format!(
                "; high findings {} -> {}",
                c.high_findings_before, c.high_findings_after
            ));
        }
        writeln!(out, "{line}")?;
        for f in &c.files {
            writeln!(
                out,
                "        {:<8} {}  {}",
                f.status,
                sanitize_line(&f.path),
                size_text(f)
            )?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- history

#[derive(Debug, Clone, Serialize)]
pub struct HistoryEvent {
    pub snapshot: SnapRef,
    /// `recorded` (first time), `changed`, `removed`, `reappeared`, or `not-comparable`
    /// (recorded without reading all of it: `not_comparable` says why).
    pub event: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_content_hash: Option<String>,
    pub structural_changed: bool,
    pub high_findings: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct LocationHistory {
    pub location: String,
    /// Agent files: `agent`, `prompt`, `instructions`, `mcp-config` or `hooks`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub names: Vec<String>,
    pub events: Vec<HistoryEvent>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HistoryReport {
    pub skill: String,
    pub snapshots: usize,
    pub locations: Vec<LocationHistory>,
    /// Set when agent files are in the history and older snapshots do not record agents:
    /// the first snapshot that does. An agent's "first recorded" event is then no later than
    /// this one, whatever the agent's age.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agents_recorded_since: Option<SnapRef>,
    /// Recorded eval results (`evals grade --record`) whose evals file, skill folder or
    /// skill name the argument names, one history per evals file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evals: Vec<super::evalsnap::EvalHistory>,
}

/// A snapshot reduced to the entries one history needs.
struct Filtered {
    /// An eval snapshot (its result, when it matches, is in `evals`).
    is_evals: bool,
    evals: Option<super::ledger::EvalsRecord>,
    seq: u64,
    id: String,
    captured_at: String,
    root: ScannedRoot,
    skills: Vec<EntrySummary>,
    /// `None`: the snapshot predates agent recording.
    agents: Option<Vec<EntrySummary>>,
}

pub fn history(ledger: &Ledger, key: &str) -> Result<HistoryReport, LedgerError> {
    let sums: Vec<Filtered> = ledger.load_map(|l: Loaded<Summary>| {
        let s = l.snapshot;
        Filtered {
            is_evals: is_evals_kind(s.kind.as_deref()),
            evals: s.evals.filter(|e| e.matches(key)),
            seq: s.seq,
            id: s.id,
            captured_at: s.captured_at,
            root: s.root,
            skills: s
                .skills
                .into_iter()
                .filter(|e| matches_skill(&e.name, &e.location, e.kind.is_some(), key))
                .collect(),
            agents: s.agents.map(|a| {
                a.into_iter()
                    .filter(|e| matches_skill(&e.name, &e.location, e.kind.is_some(), key))
                    .collect()
            }),
        }
    })?;
    let mut per: BTreeMap<String, LocationHistory> = BTreeMap::new();
    // location → (content, structural) at the previous snapshot that had it.
    let mut last: BTreeMap<String, (Option<String>, Option<String>)> = BTreeMap::new();
    // location → present in the last snapshot that covered it.
    let mut state: BTreeMap<String, bool> = BTreeMap::new();
    // Agent file locations: only snapshots that record agents say whether they are there.
    let mut agent_locations: BTreeSet<String> = BTreeSet::new();
    for s in sums.iter().filter(|s| !s.is_evals) {
        let sref = snap_ref(s.seq, &s.id, &s.captured_at);
        let mut present = BTreeSet::new();
        for e in s.skills.iter().chain(s.agents.iter().flatten()) {
            present.insert(e.location.clone());
            if e.kind.is_some() {
                agent_locations.insert(e.location.clone());
            }
            let h = per
                .entry(e.location.clone())
                .or_insert_with(|| LocationHistory {
                    location: e.location.clone(),
                    kind: e.kind.clone(),
                    names: Vec::new(),
                    events: Vec::new(),
                });
            if !h.names.contains(&e.name) {
                h.names.push(e.name.clone());
            }
            let highs = e
                .findings
                .values()
                .flat_map(|m| m.iter())
                .filter(|(sev, _)| Severity::parse(sev).is_some_and(|x| x >= Severity::High))
                .fold(0u32, |sum, (_, n)| sum.saturating_add(*n));
            // Presence is judged against the last snapshot that covered this location.
            let was_present = state.get(&e.location).copied();
            let event = match (last.get(&e.location), was_present) {
                // Recorded without all of its content: never silently the same.
                _ if e.content_unknown() => Some((
                    "not-comparable",
                    last.get(&e.location).and_then(|(c, _)| c.clone()),
                    last.get(&e.location)
                        .is_some_and(|(_, st)| st != &e.structural),
                )),
                (None, _) => Some(("recorded", None, false)),
                (Some((c, st)), Some(false)) => {
                    Some(("reappeared", c.clone(), st != &e.structural))
                }
                (Some((c, st)), _) if c != &e.content => {
                    Some(("changed", c.clone(), st != &e.structural))
                }
                _ => None,
            };
            if let Some((ev, prev, st)) = event {
                h.events.push(HistoryEvent {
                    snapshot: sref.clone(),
                    event: ev,
                    not_comparable: (ev == "not-comparable").then(|| {
                        e.incomplete
                            .clone()
                            .unwrap_or_else(|| "its content could not be read in full".into())
                    }),
                    content_hash: e.content.clone(),
                    previous_content_hash: prev,
                    structural_changed: st,
                    high_findings: highs,
                });
            }
            last.insert(
                e.location.clone(),
                (e.content.clone(), e.structural.clone()),
            );
            state.insert(e.location.clone(), true);
        }
        // Known locations this snapshot covered but did not contain: removed.
        let gone: Vec<String> = state
            .iter()
            .filter(|(loc, here)| {
                **here
                    && !present.contains(*loc)
                    && covers(&s.root.relative, loc)
                    && (s.agents.is_some() || !agent_locations.contains(*loc))
            })
            .map(|(loc, _)| loc.clone())
            .collect();
        for loc in gone {
            state.insert(loc.clone(), false);
            if let Some(h) = per.get_mut(&loc) {
                h.events.push(HistoryEvent {
                    snapshot: sref.clone(),
                    event: "removed",
                    not_comparable: None,
                    content_hash: None,
                    previous_content_hash: last.get(&loc).and_then(|x| x.0.clone()),
                    structural_changed: false,
                    high_findings: 0,
                });
            }
        }
    }
    // Agents in the history, and snapshots before the first that records agents.
    let scans: Vec<&Filtered> = sums.iter().filter(|s| !s.is_evals).collect();
    let agents_recorded_since = scans
        .iter()
        .position(|s| s.agents.is_some())
        .filter(|&i| i > 0 && !agent_locations.is_empty())
        .map(|i| snap_ref(scans[i].seq, &scans[i].id, &scans[i].captured_at));
    let snapshots = sums.len();
    let evals = super::evalsnap::histories(
        sums.into_iter()
            .filter_map(|s| {
                let r = s.evals?;
                Some((snap_ref(s.seq, &s.id, &s.captured_at), r))
            })
            .collect(),
    );
    Ok(HistoryReport {
        skill: key.to_owned(),
        snapshots,
        locations: per.into_values().collect(),
        agents_recorded_since,
        evals,
    })
}

pub fn render_history(r: &HistoryReport, out: &mut dyn Write) -> io::Result<()> {
    if r.locations.is_empty() && r.evals.is_empty() {
        return writeln!(
            out,
            "`{}` does not appear in any of the {} snapshot(s).",
            sanitize_line(&r.skill),
            r.snapshots
        );
    }
    if r.locations.is_empty() {
        return super::evalsnap::render_histories(&r.evals, out);
    }
    writeln!(
        out,
        "History of `{}` (content hash):",
        sanitize_line(&r.skill)
    )?;
    for l in &r.locations {
        writeln!(
            out,
            "  {}{} ({})",
            l.kind
                .as_deref()
                .map(|k| format!("{} ", sanitize_line(k)))
                .unwrap_or_default(),
            sanitize_line(&l.location),
            sanitize_line(&l.names.join(", "))
        )?;
        let shown = |h: &Option<String>| {
            h.as_deref()
                .map(super::checks::short)
                .unwrap_or_else(|| "-".into())
        };
        for e in &l.events {
            let what = match e.event {
                "recorded" => format!("first recorded   {}", shown(&e.content_hash)),
                "changed" => format!(
                    "content changed  {} -> {}{}",
                    shown(&e.previous_content_hash),
                    shown(&e.content_hash),
                    if e.structural_changed {
                        " (structure too)"
                    } else {
                        ""
                    }
                ),
                "reappeared" => format!("reappeared       {}", shown(&e.content_hash)),
                "not-comparable" => format!(
                    "not comparable   content not read in full ({})",
                    sanitize_line(e.not_comparable.as_deref().unwrap_or(""))
                ),
                _ => "removed".to_owned(),
            };
            let highs = if e.high_findings > 0 {
                format!(" — {} high finding(s) present", e.high_findings)
            } else {
                String::new()
            };
            writeln!(
                out,
                "    #{:<4} {}  {what}{highs}",
                e.snapshot.seq,
                show_date(&e.snapshot.captured_at)
            )?;
        }
        let changes = l
            .events
            .iter()
            .filter(|e| e.event == "changed" || e.event == "not-comparable")
            .count();
        if changes == 0 {
            writeln!(out, "    no content changes recorded")?;
        }
    }
    if let Some(since) = &r.agents_recorded_since {
        writeln!(
            out,
            "note: snapshots before #{} predate agent recording; agent files are recorded from #{} ({}) on",
            since.seq,
            since.seq,
            show_date(&since.captured_at)
        )?;
    }
    super::evalsnap::render_histories(&r.evals, out)
}

// ---------------------------------------------------------------- verify

/// A path as printed on a line of ours: a folder name is chosen by whoever made it, and a
/// newline in it could start a line of its own (`::error::…` in a CI log).
fn shown(p: &std::path::Path) -> String {
    sanitize_line(&p.display().to_string()).into_owned()
}

pub fn render_verify(v: &Verification, ledger: &Ledger, out: &mut dyn Write) -> io::Result<()> {
    if v.ok() {
        writeln!(
            out,
            "ledger {}: {} snapshot(s), chain intact",
            shown(&ledger.root),
            v.snapshots
        )?;
        if let Some(h) = &v.head {
            writeln!(out, "head: #{} {} sha256 {}", h.seq, h.id, h.sha256)?;
        }
    } else {
        writeln!(
            out,
            "ledger {}: {} snapshot(s), INTEGRITY CHECK FAILED",
            shown(&ledger.root),
            v.snapshots
        )?;
        for p in &v.problems {
            writeln!(
                out,
                "  [{}] {}{}",
                p.kind,
                sanitize_line(&p.message),
                p.file
                    .as_deref()
                    .map(|f| format!(" ({})", sanitize_line(f)))
                    .unwrap_or_default()
            )?;
        }
    }
    for n in &v.notes {
        writeln!(out, "  note: {}", sanitize_line(n))?;
    }
    Ok(())
}
