//! Eval snapshots: `skillguard evals grade --record` appends a graded result to the ledger as
//! a snapshot of its own kind (`"kind": "evals"`), keyed by the evals file's path relative to
//! the ledger's home. It joins the same hash chain (so `baseline verify` covers it) through
//! the one writer, [`Ledger::append`]. `baseline list`, `history` and `diff` show eval
//! snapshots; the comparison of two results is `crate::evals::grade::regressions`, the one
//! `--compare` uses.
//!
//! Back-compatibility: an eval snapshot is an ordinary snapshot file (format version 1) whose
//! `skills` are empty, whose `agents` are absent and whose `root.relative` is the evals file
//! (a scope that holds no skill), plus a `kind` and an `evals` field that older readers
//! ignore; to an older skillguard it is a scan that covered no skill.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::checks::show_date;
use super::ledger::{Draft, KIND_EVALS, ScannedRoot};
use super::review::SnapRef;
use crate::evals::grade::{CaseResult, GradeReport, Regression, Set, SetResult};
use crate::skill_hashes::HashOptions;
use crate::text::sanitize_line;

/// The graded result an eval snapshot records (the `evals` field of the snapshot file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalsRecord {
    /// The evals file relative to the ledger's home, `/`-separated: the key of eval
    /// histories and diffs.
    pub key: String,
    /// The skill folder the evals file belongs to (the nearest folder at or above it that
    /// holds a `SKILL.md`), relative to the home; absent when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// SHA-256 of the evals file's bytes: which case file the samples were graded against.
    pub evals_sha256: String,
    /// The grade result's schema (`skillguard-evals-grade/1`).
    pub schema: String,
    /// `-k` as given; `null` when every case used its own n.
    pub k: Option<u32>,
    /// Every set's gate held (a `--compare` of the same run is not part of the record).
    pub passed: bool,
    pub sets: BTreeMap<Set, SetResult>,
    /// In the order of the evals file.
    pub cases: Vec<CaseResult>,
}

impl EvalsRecord {
    /// The folder name of the target (or of the evals file's folder): what `--skill NAME`
    /// and `history NAME` match besides the key and the target path.
    pub fn name(&self) -> &str {
        let dir = match &self.target {
            Some(t) => t.as_str(),
            None => self.key.rsplit_once('/').map_or("", |(d, _)| d),
        };
        dir.rsplit('/').next().unwrap_or(dir)
    }

    /// Does `key` (a `baseline history` or `diff --skill` argument) name this record: its
    /// key, its target, or the target's folder name?
    pub fn matches(&self, key: &str) -> bool {
        super::review::matches_skill(self.name(), &self.key, false, key)
            || self
                .target
                .as_deref()
                .is_some_and(|t| super::review::matches_skill(self.name(), t, false, key))
    }
}

/// The part of an eval record `baseline list` reads.
#[derive(Debug, Clone, Deserialize)]
pub struct EvalsBrief {
    pub key: String,
    #[serde(default)]
    pub target: Option<String>,
    #[serde(default)]
    pub k: Option<u32>,
    pub passed: bool,
    pub sets: BTreeMap<Set, SetResult>,
    pub cases: Vec<serde::de::IgnoredAny>,
}

/// Serialises a record with one case per line (readable `git diff`s), as `to_bytes` does
/// with skill entries.
pub fn write_record(out: &mut Vec<u8>, r: &EvalsRecord) {
    #[derive(Serialize)]
    struct Head<'a> {
        key: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        target: &'a Option<String>,
        evals_sha256: &'a str,
        schema: &'a str,
        k: Option<u32>,
        passed: bool,
        sets: &'a BTreeMap<Set, SetResult>,
    }
    let h = Head {
        key: &r.key,
        target: &r.target,
        evals_sha256: &r.evals_sha256,
        schema: &r.schema,
        k: r.k,
        passed: r.passed,
        sets: &r.sets,
    };
    let mut head = serde_json::to_vec(&h).expect("serialisable eval record");
    head.pop(); // the closing brace
    out.extend_from_slice(&head);
    out.extend_from_slice(b",\"cases\":[");
    for (i, c) in r.cases.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        out.extend_from_slice(&serde_json::to_vec(c).expect("serialisable case"));
    }
    out.extend_from_slice(if r.cases.is_empty() { b"]}" } else { b"\n]}" });
}

/// Where an eval result is recorded, and under which key.
#[derive(Debug, Clone)]
pub struct EvalsPlace {
    /// The folder keys are relative to (the default ledger is `home/.skillguard/ledger`).
    pub home: PathBuf,
    pub key: String,
    pub target: Option<String>,
    /// The evals file, canonical.
    pub absolute: PathBuf,
}

/// The home, key and target of an evals file. The home is `repo` when given; else the git
/// repository that contains the evals file; else the folder `baseline` commands use by
/// default from the current directory, when the evals file is inside it; else the evals
/// file's folder. The key is the evals file relative to the home; the target the nearest
/// folder at or above the evals file, inside the home, that holds a `SKILL.md`.
pub fn place(evals: &Path, repo: Option<&Path>) -> Result<EvalsPlace, String> {
    let absolute = std::fs::canonicalize(evals)
        .map_err(|e| format!("cannot resolve {}: {e}", evals.display()))?;
    let folder = absolute
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| absolute.clone());
    let home = match repo {
        Some(r) => std::fs::canonicalize(r)
            .map_err(|e| format!("cannot resolve --repo {}: {e}", r.display()))?,
        None => git_root(&folder).unwrap_or_else(|| {
            let cwd = super::record::home(crate::discover::Mode::Path, Path::new("."));
            if absolute.starts_with(&cwd) {
                cwd
            } else {
                folder.clone()
            }
        }),
    };
    let key = super::record::under(&home, &absolute)
        .filter(|k| k != ".")
        .ok_or_else(|| {
            format!(
                "the evals file {} is outside {}; give --repo (the folder its key is relative to)",
                absolute.display(),
                home.display()
            )
        })?;
    let mut target = None;
    let mut cur = Some(folder.as_path());
    while let Some(d) = cur.filter(|d| d.starts_with(&home)) {
        if super::record::is_single_skill(d) {
            target = super::record::under(&home, d);
            break;
        }
        cur = d.parent();
    }
    Ok(EvalsPlace {
        home,
        key,
        target,
        absolute,
    })
}

fn git_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The snapshot draft of a graded result.
pub fn draft(
    report: &GradeReport,
    place: &EvalsPlace,
    evals_sha256: String,
    note: Option<String>,
) -> Draft {
    Draft {
        root: ScannedRoot {
            mode: KIND_EVALS.into(),
            // A scope that holds no skill: an older reader sees a scan that covered none.
            relative: place.key.clone(),
            absolute: place.absolute.display().to_string(),
        },
        hash_options: HashOptions::default(),
        note,
        imported: None,
        skills: Vec::new(),
        agents: None,
        kind: Some(KIND_EVALS.into()),
        evals: Some(EvalsRecord {
            key: place.key.clone(),
            target: place.target.clone(),
            evals_sha256,
            schema: report.schema.clone(),
            k: report.k,
            passed: report.sets.values().all(|s| s.passed),
            sets: report.sets.clone(),
            cases: report.cases.clone(),
        }),
        line_data: Default::default(),
        captured_at: None,
        newest: None,
    }
}

// ---------------------------------------------------------------- history

/// One recorded result in an eval history.
#[derive(Debug, Clone, Serialize)]
pub struct EvalPoint {
    pub snapshot: SnapRef,
    pub k: Option<u32>,
    pub cases: usize,
    pub passed: bool,
    pub sets: BTreeMap<Set, SetResult>,
    /// The evals file's bytes differ from the previous result's.
    pub evals_changed: bool,
    /// Cases that regressed against the previous result of the same key (empty for the
    /// first).
    pub regressions: Vec<Regression>,
}

/// The recorded results of one evals file, oldest first.
#[derive(Debug, Clone, Serialize)]
pub struct EvalHistory {
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub results: Vec<EvalPoint>,
}

/// Builds the eval histories (one per key, sorted by key) from the eval snapshots, oldest
/// first, that match the history's argument.
pub fn histories(snaps: Vec<(SnapRef, EvalsRecord)>) -> Vec<EvalHistory> {
    let mut per: BTreeMap<String, (EvalHistory, Option<EvalsRecord>)> = BTreeMap::new();
    for (sref, r) in snaps {
        let (h, last) = per.entry(r.key.clone()).or_insert_with(|| {
            (
                EvalHistory {
                    key: r.key.clone(),
                    target: None,
                    results: Vec::new(),
                },
                None,
            )
        });
        h.target = r.target.clone().or(h.target.take());
        let regressions = last
            .as_ref()
            .map(|p| crate::evals::grade::regressions(&p.cases, &r.cases))
            .unwrap_or_default();
        h.results.push(EvalPoint {
            snapshot: sref,
            k: r.k,
            cases: r.cases.len(),
            passed: r.passed,
            sets: r.sets.clone(),
            evals_changed: last
                .as_ref()
                .is_some_and(|p| p.evals_sha256 != r.evals_sha256),
            regressions,
        });
        *last = Some(r);
    }
    per.into_values().map(|(h, _)| h).collect()
}

fn score(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"))
}

fn k_text(k: Option<u32>) -> String {
    k.map_or_else(|| "n".to_owned(), |k| k.to_string())
}

/// `capability 4 case(s) pass@k 0.663 pass^k 0.250, regression …`.
pub fn sets_text(sets: &BTreeMap<Set, SetResult>) -> String {
    sets.iter()
        .map(|(set, s)| {
            format!(
                "{} {} case(s) pass@k {} pass^k {}",
                set.as_str(),
                s.cases,
                score(s.pass_at_k),
                score(s.pass_hat_k)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn regression_line(g: &Regression) -> String {
    format!(
        "REGRESSED {} ({}, {}): pass^k {:.3} -> {}",
        sanitize_line(&g.id),
        g.set.as_str(),
        g.reason,
        g.previous_pass_hat_k,
        score(g.pass_hat_k)
    )
}

pub fn render_histories(hs: &[EvalHistory], out: &mut dyn Write) -> io::Result<()> {
    for h in hs {
        writeln!(
            out,
            "Eval results of {}{}:",
            sanitize_line(&h.key),
            h.target
                .as_deref()
                .map(|t| format!(" (skill {})", sanitize_line(t)))
                .unwrap_or_default()
        )?;
        for p in &h.results {
            writeln!(
                out,
                "    #{:<4} {}  k={}  {}  {}{}",
                p.snapshot.seq,
                show_date(&p.snapshot.captured_at),
                k_text(p.k),
                sets_text(&p.sets),
                if p.passed { "PASS" } else { "FAIL" },
                if p.evals_changed {
                    " (evals file changed)"
                } else {
                    ""
                }
            )?;
            for g in &p.regressions {
                writeln!(out, "          {}", regression_line(g))?;
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- diff

/// One case whose pass^k rose between two results.
#[derive(Debug, Clone, Serialize)]
pub struct Improvement {
    pub id: String,
    pub set: Set,
    pub previous_pass_hat_k: f64,
    pub pass_hat_k: f64,
}

/// `baseline diff` between two eval snapshots.
#[derive(Debug, Clone, Serialize)]
pub struct EvalsDiff {
    pub from: SnapRef,
    pub to: SnapRef,
    pub from_key: String,
    pub key: String,
    pub k_before: Option<u32>,
    pub k_after: Option<u32>,
    pub sets_before: BTreeMap<Set, SetResult>,
    pub sets_after: BTreeMap<Set, SetResult>,
    pub evals_changed: bool,
    /// Cases that regressed (`crate::evals::grade::regressions`, as `--compare`).
    pub regressions: Vec<Regression>,
    /// Cases whose pass^k rose.
    pub improvements: Vec<Improvement>,
    /// Cases only in the later result.
    pub added: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

pub fn diff(from: SnapRef, a: &EvalsRecord, to: SnapRef, b: &EvalsRecord) -> EvalsDiff {
    let before: BTreeMap<&str, &CaseResult> = a.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let improvements = b
        .cases
        .iter()
        .filter_map(|c| {
            let p = before.get(c.id.as_str())?;
            let (was, is, _) = crate::evals::grade::comparable_pass_hat_k(p, c);
            (is > was + 1e-9).then(|| Improvement {
                id: c.id.clone(),
                set: c.set,
                previous_pass_hat_k: was,
                pass_hat_k: is,
            })
        })
        .collect();
    let added = b
        .cases
        .iter()
        .filter(|c| !before.contains_key(c.id.as_str()))
        .map(|c| c.id.clone())
        .collect();
    let mut notes = Vec::new();
    if a.key != b.key {
        notes.push(format!(
            "the two results are of different evals files ({} and {})",
            sanitize_line(&a.key),
            sanitize_line(&b.key)
        ));
    }
    if a.k != b.k {
        notes.push(format!(
            "k differs (k={} and k={}): pass^k values are not like for like",
            k_text(a.k),
            k_text(b.k)
        ));
    }
    EvalsDiff {
        from,
        to,
        from_key: a.key.clone(),
        key: b.key.clone(),
        k_before: a.k,
        k_after: b.k,
        sets_before: a.sets.clone(),
        sets_after: b.sets.clone(),
        evals_changed: a.evals_sha256 != b.evals_sha256,
        regressions: crate::evals::grade::regressions(&a.cases, &b.cases),
        improvements,
        added,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    }
}

pub fn render_diff(r: &EvalsDiff, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "Diffing eval results of {}: #{} ({}, {}) -> #{} ({}, {})",
        sanitize_line(&r.key),
        r.from.seq,
        &r.from.id[..8.min(r.from.id.len())],
        show_date(&r.from.captured_at),
        r.to.seq,
        &r.to.id[..8.min(r.to.id.len())],
        show_date(&r.to.captured_at)
    )?;
    if let Some(n) = &r.note {
        writeln!(out, "note: {n}")?;
    }
    if r.evals_changed {
        writeln!(out, "the evals file changed between the two results")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "  before  k={}  {}",
        k_text(r.k_before),
        sets_text(&r.sets_before)
    )?;
    writeln!(
        out,
        "  after   k={}  {}",
        k_text(r.k_after),
        sets_text(&r.sets_after)
    )?;
    writeln!(out)?;
    for g in &r.regressions {
        writeln!(out, "  {}", regression_line(g))?;
    }
    for i in &r.improvements {
        writeln!(
            out,
            "  improved  {} ({}): pass^k {:.3} -> {:.3}",
            sanitize_line(&i.id),
            i.set.as_str(),
            i.previous_pass_hat_k,
            i.pass_hat_k
        )?;
    }
    for id in &r.added {
        writeln!(out, "  added     {}", sanitize_line(id))?;
    }
    writeln!(
        out,
        "{} regression(s), {} improvement(s), {} case(s) added",
        r.regressions.len(),
        r.improvements.len(),
        r.added.len()
    )
}
