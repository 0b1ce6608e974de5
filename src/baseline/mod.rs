//! Baselines: what a team vetted, and what changed since.
//!
//! - [`crate::skill_hashes`] (a scan stage, below): the structural fingerprint, content hash
//!   and per-file hashes of a skill.
//! - [`ledger`]: the append-only, hash-chained ledger of scan snapshots.
//! - [`record`]: turning a scan into ledger entries (where the ledger lives, location keys).
//! - [`pin`]: pin files (one reviewed state per skill) and their comparison.
//! - [`provenance`]: `skills-lock.json` lookup, reading, and its `computedHash`.
//! - [`checks`]: pin check, trust on first use, drift between copies.
//! - [`import`]: AgentEval ledger snapshots and pin files into ours.
//! - [`agenteval`]: AgentEval's own ledger under `--compat agenteval`: its snapshots written
//!   and read as AgentEval does, its `baseline list|diff|history` texts, `--check-baseline`.
//! - [`evalsnap`]: `evals grade` results as eval snapshots in the ledger (their key, history
//!   and diff).
//! - [`crate::linediff`] (a helper, below): per-line hashes and `+N −M` counts between two
//!   versions of a file.

pub mod agenteval;
pub mod checks;
pub mod evalsnap;
pub mod import;
pub mod ledger;
pub mod pin;
pub mod provenance;
pub mod record;
pub mod review;

use std::path::{Path, PathBuf};

use crate::discover::Mode;
use crate::finding::{Finding, sort_findings};
use crate::result::ScanResult;
use crate::rules::ids;

/// Rules `--fail-on-drift` gates on: pin, ledger and provenance drift.
pub const DRIFT_RULES: &[&str] = &[
    ids::MANIFEST_CHANGED_SINCE_BASELINE,
    ids::CHANGED_SINCE_LAST_VETTED,
    ids::PROVENANCE_HASH_MISMATCH,
    ids::CROSS_LOCATION_CONTENT_DRIFT,
    ids::UNPINNED_SKILL,
    ids::PINNED_SKILL_MISSING,
];

/// Baseline options of a scan.
#[derive(Debug, Clone, Default)]
pub struct ScanBaseline {
    /// `--write-baseline`.
    pub write: bool,
    /// `--baseline-root`.
    pub root: Option<PathBuf>,
    /// `--baseline-note`.
    pub note: Option<String>,
    /// `--check-baseline`.
    pub check: bool,
    /// `--save-manifest-baseline`.
    pub save_pin: Option<PathBuf>,
    /// `--manifest-baseline`.
    pub check_pin: Option<PathBuf>,
    /// `--allow-new`: skills and agent files the pin file does not hold, and pinned ones that
    /// are gone, are notes, not findings.
    pub allow_new: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    #[error(transparent)]
    Ledger(#[from] ledger::LedgerError),
    #[error(transparent)]
    Pin(#[from] pin::PinError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Other(String),
}

/// Where a scan's baselines go and how its locations are keyed.
#[derive(Debug, Clone)]
pub struct Context {
    pub home: PathBuf,
    pub ledger: ledger::Ledger,
    /// The scanned root relative to `home`.
    pub relative: String,
    pub hasher: crate::skill_hashes::Hasher,
    /// The ledger's newest snapshot as read before the scan (`--write-baseline`), reused by
    /// the append when unchanged.
    pub newest: Option<ledger::Newest>,
}

impl Context {
    pub fn new(
        mode: Mode,
        target: &Path,
        root: Option<&Path>,
        hasher: crate::skill_hashes::Hasher,
    ) -> Context {
        let home = record::home(mode, target);
        let ledger = match root {
            // A chosen ledger inside the scanned tree gets the same guard as the default one.
            Some(r) => ledger::Ledger::guarded(r, &home),
            None => ledger::Ledger::guarded(record::default_ledger_root(&home), &home),
        };
        let relative = record::relative_root(&home, &record::scan_base(mode, target));
        Context {
            home,
            ledger,
            relative,
            hasher,
            newest: None,
        }
    }
}

/// The prefix of a note that `--quiet` still prints: a gate that compared against nothing,
/// or a baseline that could not be read or written in full.
pub const WARNING: &str = "warning: ";

/// Adds findings to a result, keeping the order and the per-repository counts right.
pub fn add_findings(result: &mut ScanResult, new: Vec<Finding>) {
    if new.is_empty() {
        return;
    }
    let single = result.repos.len() == 1;
    for f in &new {
        let first = f.location.path.split('/').next().unwrap_or("");
        if let Some(r) = result.repos.iter_mut().find(|r| single || r.path == first) {
            r.findings += 1;
            r.counts.add(f.severity);
        }
    }
    result.findings.extend(new);
    sort_findings(&mut result.findings);
}

/// The checks that span repositories, over a result joined from the shard reports of a
/// workspace scan (`merge`): look-alike names, and drift and collisions between copies as a
/// scan without a ledger makes them. The same code as a scan's ([`before_report`] and
/// `security::permissions::check_scan`); the shards' own findings of these rules were dropped
/// by the merge. A merge reads reports, not a tree: no ledger, pin or lock file is read.
pub fn across_reports(result: &mut ScanResult) {
    crate::security::families::permissions::check_scan(result);
    let cross = checks::cross_location(
        result,
        &std::collections::BTreeMap::new(),
        Some(Path::new(&result.target)),
    );
    add_findings(result, cross);
}

/// The comparisons that run before the report: drift between copies (always, for repository
/// and workspace scans), trust on first use (`--check-baseline`), the pin check
/// (`--manifest-baseline`). Returns notes for stderr.
pub fn before_report(
    result: &mut ScanResult,
    args: &ScanBaseline,
    cx: &Context,
) -> Result<Vec<String>, BaselineError> {
    let mut notes = Vec::new();
    let mut new = Vec::new();
    new.extend(apply_provenance(result, &mut notes));
    // One pass over the ledger serves trust on first use and drift history.
    let wanted = if result.mode != Mode::Path {
        checks::locations_needing_history(result)
    } else {
        Default::default()
    };
    let need_ledger = (args.check || !wanted.is_empty()) && cx.ledger.exists();
    let recorded = if need_ledger {
        let (names, locations) = checks::scan_keys(result, &cx.relative);
        let keep = |name: &str, loc: &str| {
            (args.check && (names.contains(&name.to_lowercase()) || locations.contains(loc)))
                || record::local_path(&cx.relative, loc).is_some_and(|p| wanted.contains(&p))
        };
        match checks::load_recorded(&cx.ledger, &keep) {
            Ok(r) => Some(r),
            Err(e) if args.check => return Err(e.into()),
            Err(e) => {
                notes.push(format!(
                    "{WARNING}the ledger could not be read ({e}); drift between copies ignores its history"
                ));
                None
            }
        }
    } else {
        None
    };
    if result.mode != Mode::Path {
        let history = recorded
            .as_deref()
            .map(|r| checks::history_by_location(r, &cx.relative, &wanted))
            .unwrap_or_default();
        new.extend(checks::cross_location(
            result,
            &history,
            Some(Path::new(&result.target)),
        ));
    }
    if args.check {
        match &recorded {
            Some(r) => new.extend(checks::check_ledger(
                result,
                &cx.ledger,
                &cx.hasher,
                &cx.relative,
                r,
            )?),
            None => notes.push(format!(
                "{WARNING}--check-baseline: no ledger at {} yet; nothing to compare against",
                cx.ledger.root.display()
            )),
        }
    }
    if let Some(p) = &args.check_pin {
        match pin::read(p)? {
            Some(pins) => new.extend(checks::check_pins(
                result,
                &pins,
                &p.display().to_string(),
                &cx.relative,
                args.allow_new,
                &mut notes,
            )),
            None => notes.push(format!(
                "{WARNING}--manifest-baseline file not found ({}); nothing to compare against yet",
                p.display()
            )),
        }
    }
    add_findings(result, new);
    Ok(notes)
}

/// What `--write-baseline` and `--save-manifest-baseline` will write, built while the report
/// renders (only reads the result) and written by [`commit_writes`] once the report is out.
pub struct PreparedWrites {
    draft: Option<ledger::Draft>,
    pin: Option<(std::path::PathBuf, pin::PinFile)>,
    notes: Vec<String>,
}

/// Builds the snapshot draft (`--write-baseline`) and the pin file (`--save-manifest-baseline`)
/// without writing anything.
pub fn prepare_writes(
    result: &ScanResult,
    target: &Path,
    args: &ScanBaseline,
    cx: &Context,
) -> PreparedWrites {
    let mut notes = Vec::new();
    let draft = args.write.then(|| {
        let mut draft = record::draft(result, &cx.hasher, &cx.home, target, args.note.clone());
        draft.newest = cx.newest.clone();
        draft
    });
    let pin = args.save_pin.as_ref().map(|p| {
        let mut pins = pin::PinFile::new(cx.hasher.options.clone(), args.note.clone());
        let mut arts: Vec<&crate::inventory::Artifact> = result.artifacts.iter().collect();
        arts.sort_by(|a, b| a.path.cmp(&b.path));
        // Names found at more than one location: every copy is pinned under its location.
        let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
        for a in &arts {
            *seen.entry(a.name.to_lowercase()).or_default() += 1;
        }
        for a in arts {
            let key = a.name.to_lowercase();
            let loc = record::location(&cx.relative, &a.path);
            let new = pin::pin_of(a, &cx.hasher, Some(loc.clone()));
            if let Some(why) = &a.hash_incomplete {
                notes.push(format!(
                    "{WARNING}skill `{}` at {} cannot be pinned in full ({why}); only its structural fingerprint and the files that were read are pinned",
                    crate::text::sanitize_line(&a.name),
                    crate::text::sanitize_line(&loc)
                ));
            }
            if seen.get(&key).is_some_and(|n| *n > 1) {
                pins.copies.insert(loc.clone(), new.clone());
            }
            pins.skills.entry(key).or_insert(new);
        }
        // Agent files are pinned by location (`result.agents` is sorted by path).
        for a in &result.agents {
            let loc = record::location(&cx.relative, &a.path);
            if let Some(why) = &a.hash_incomplete {
                notes.push(format!(
                    "{WARNING}{} cannot be pinned ({why}); it is left out of the pin file",
                    checks::subject(a)
                ));
                continue;
            }
            pins.agents.insert(loc, pin::pin_of(a, &cx.hasher, None));
        }
        (p.clone(), pins)
    });
    PreparedWrites { draft, pin, notes }
}

/// Appends the prepared snapshot and writes the prepared pin file. Called only after the
/// report was written, so a failed `-o` leaves the ledger and the pin as they were and a
/// retry does not append the same scan twice. Returns notes for stderr.
pub fn commit_writes(prepared: PreparedWrites, cx: &Context) -> Result<Vec<String>, BaselineError> {
    let PreparedWrites {
        draft,
        pin,
        mut notes,
    } = prepared;
    // One step: the pin file is written to a temporary file beside it first (where a full
    // disk, a read-only folder or a planted link makes it fail), the snapshot is appended
    // only then, and the pin is renamed into place last. A pin that cannot be written leaves
    // the ledger untouched; a snapshot that cannot be appended leaves the pin untouched.
    let write_err = |p: &Path| {
        let path = p.display().to_string();
        move |source| BaselineError::Write { path, source }
    };
    let mut staged = None;
    if let Some((p, pins)) = &pin {
        // A pin is a regular file: never staged beside a device, a FIFO or a socket.
        if let Ok(m) = std::fs::metadata(p)
            && !m.is_file()
        {
            return Err(write_err(p)(std::io::Error::other(
                "a pin file must be a regular file",
            )));
        }
        prepare_pin_dir(p, &cx.home)?;
        let bytes = pins.to_bytes();
        // Serialised with `baseline approve`, which updates the same file in place.
        let lock = crate::fsutil::lock_beside(p).map_err(write_err(p))?;
        let file = crate::fsutil::stage(p, |w| w.write_all(&bytes)).map_err(write_err(p))?;
        staged = Some((lock, file));
    }
    if let Some(draft) = draft {
        let a = cx.ledger.append(draft)?;
        notes.push(format!(
            "baseline snapshot #{} ({}) saved: {} skill location(s){} -> {}",
            a.seq,
            a.id,
            a.skills,
            match a.agents {
                Some(n) if n > 0 => format!(", {n} agent file(s)"),
                _ => String::new(),
            },
            a.path.display()
        ));
    }
    if let (Some((p, pins)), Some((_lock, file))) = (pin, staged) {
        file.replace().map_err(write_err(&p))?;
        crate::fsutil::sync_dir(&p).map_err(write_err(&p))?;
        notes.push(format!(
            "manifest baseline saved: {} ({} skill(s){})",
            p.display(),
            pins.skills.len(),
            match pins.agents.len() {
                0 => String::new(),
                n => format!(", {n} agent file(s)"),
            }
        ));
    }
    Ok(notes)
}

/// [`prepare_writes`] then [`commit_writes`], for callers with no report to wait for.
pub fn after_report(
    result: &ScanResult,
    target: &Path,
    args: &ScanBaseline,
    cx: &Context,
) -> Result<Vec<String>, BaselineError> {
    commit_writes(prepare_writes(result, target, args, cx), cx)
}

/// `path` relative to `base` (both absolute), `/`-separated, with `..` when it is above.
fn relative_to(base: &Path, path: &Path) -> String {
    let b: Vec<_> = base.components().collect();
    let p: Vec<_> = path.components().collect();
    let common = b.iter().zip(&p).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_owned(), b.len() - common).collect();
    parts.extend(
        p[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// Reads `skills-lock.json` (per repository in a workspace, else from the scanned root up
/// to the git root), attaches provenance to every skill it names, verifies `computedHash`
/// and reports lock files that cannot be used.
fn apply_provenance(result: &mut ScanResult, notes: &mut Vec<String>) -> Vec<Finding> {
    use provenance::{LockError, find_lock, read_lock, skills_cli_folder_hash};
    // Skill paths are relative to the scan base (a single skill's parent folder); the lock
    // is looked up from the scanned folder itself upwards.
    let base = record::scan_base(result.mode, Path::new(&result.target));
    let scanned = record::target_dir(Path::new(&result.target));
    // (repository folder or None for the whole scan, lock path)
    let mut locks: Vec<(Option<String>, PathBuf)> = Vec::new();
    let top = find_lock(&scanned);
    if result.mode == Mode::Workspace {
        let repos: Vec<String> = result.repos.iter().filter_map(|r| r.repo.clone()).collect();
        for r in repos {
            let dir = base.join(&r);
            match find_lock(&dir) {
                Some(l) if l.starts_with(&dir) => locks.push((Some(r), l)),
                _ => {
                    if let Some(t) = &top {
                        locks.push((Some(r), t.clone()));
                    }
                }
            }
        }
    } else if let Some(t) = top {
        locks.push((None, t));
    }
    let mut out = Vec::new();
    let mut reported: std::collections::BTreeSet<PathBuf> = Default::default();
    for (repo, lock_path) in locks {
        let rel = relative_to(&base, &lock_path);
        let first_time = reported.insert(lock_path.clone());
        let lock = match read_lock(&lock_path) {
            Ok(l) => l,
            Err(e) => {
                if first_time {
                    let why = match &e {
                        LockError::Json {
                            line, column, msg, ..
                        } => {
                            format!("is not valid JSON (line {line}, column {column}: {msg})")
                        }
                        LockError::Shape { msg, .. } => format!("has the wrong shape ({msg})"),
                        LockError::TooLarge { size, .. } => format!("is too large ({size} bytes)"),
                        LockError::NotRegular { .. } => {
                            "is a symbolic link or not a regular file (never followed)".into()
                        }
                        LockError::Io { source, .. } => format!("cannot be read ({source})"),
                    };
                    out.push(
                        Finding::new(
                            ids::SKILLS_LOCK_INVALID,
                            format!(
                                "{} {why}; no provenance is shown. Fix or regenerate it.",
                                crate::text::sanitize_line(&rel)
                            ),
                            crate::finding::Location::file(rel.clone()),
                        )
                        .for_skill(None, None, &format!("lock:{rel}")),
                    );
                }
                continue;
            }
        };
        if first_time {
            result.lock_entries += lock.entries.len();
            notes.push(format!(
                "provenance: {} skill(s) recorded in {}",
                lock.entries.len(),
                rel
            ));
            for w in &lock.warnings {
                out.push(
                    Finding::new(
                        ids::SKILLS_LOCK_INVALID,
                        format!(
                            "{}: {}; the entry is ignored. Fix or regenerate the lock file.",
                            crate::text::sanitize_line(&rel),
                            crate::text::sanitize_line(&w.to_string())
                        ),
                        crate::finding::Location::file(rel.clone()),
                    )
                    .for_skill(
                        None,
                        None,
                        &format!("lock:{rel}:{}", w.entry.as_deref().unwrap_or("")),
                    ),
                );
            }
        }
        for a in result
            .artifacts
            .iter_mut()
            .filter(|a| repo.is_none() || a.repo == repo)
        {
            let Some(entry) = lock.entries.get(&a.name) else {
                continue;
            };
            let pv = crate::inventory::Provenance {
                source: entry.source.clone(),
                source_url: entry.source_url.clone(),
                git_ref: entry.r#ref.clone(),
                lock: rel.clone(),
            };
            if let (Some(_), Some(why)) = (&entry.computed_hash, &a.hash_incomplete) {
                notes.push(format!(
                    "could not verify the computedHash of `{}`: {why}",
                    crate::text::sanitize_line(&a.name)
                ));
            } else if let Some(recorded) = &entry.computed_hash {
                let dir = crate::names::path_of(&base, &a.path);
                let files: Vec<&str> = a
                    .files
                    .iter()
                    .filter(|f| {
                        f.symlink.is_none()
                            && !f.via_link
                            && f.kind != crate::inventory::FileKind::Special
                    })
                    .map(|f| f.path.as_str())
                    .collect();
                match skills_cli_folder_hash(&dir, &files) {
                    Ok(now) if &now != recorded => out.push(
                        Finding::new(
                            ids::PROVENANCE_HASH_MISMATCH,
                            format!(
                                "skill `{}` no longer matches {}: computedHash {}…, now {}… (source {}). Reinstall it from its source or update the lock file.",
                                crate::text::sanitize_line(&a.name),
                                crate::text::sanitize_line(&rel),
                                checks::short(recorded),
                                checks::short(&now),
                                crate::text::sanitize_line(&pv.label())
                            ),
                            crate::finding::Location::file(checks::entry_path(a)),
                        )
                        .with_properties(serde_json::json!({
                            "lock": rel,
                            "recorded": recorded,
                            "computed": now,
                            "source": pv.source,
                            "source_url": pv.source_url,
                            "ref": pv.git_ref,
                        }))
                        .for_skill(Some(&a.name), Some(&a.path), "provenance"),
                    ),
                    Ok(_) => {}
                    Err(e) => notes.push(format!(
                        "could not verify the computedHash of `{}` ({}): {e}",
                        crate::text::sanitize_line(&a.name),
                        crate::text::sanitize_line(&a.path)
                    )),
                }
            }
            a.provenance = Some(pv);
        }
    }
    out
}

/// Creates the folder a pin file goes into. Inside the scanned repository no symbolic link
/// may sit on the way (a scanned tree must not choose where we write); the file itself is
/// replaced atomically, never written through a link.
pub fn prepare_pin_dir(pin: &Path, home: &Path) -> Result<(), BaselineError> {
    match pin.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => Ok(ledger::ensure_dir(dir, Some(home))?),
        None => Ok(()),
    }
}
