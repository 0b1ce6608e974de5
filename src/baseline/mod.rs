//! Baselines: what a team vetted, and what changed since.
//!
//! - [`hashes`]: the structural fingerprint, content hash and per-file hashes of a skill.
//! - [`ledger`]: the append-only, hash-chained ledger of scan snapshots.
//! - [`record`]: turning a scan into ledger entries (where the ledger lives, location keys).
//! - [`pin`]: pin files (one reviewed state per skill) and their comparison.
//! - [`checks`]: pin check, trust on first use, drift between copies.
//! - [`linediff`]: per-line hashes and `+N −M` counts between two versions of a file.

pub mod checks;
pub mod hashes;
pub mod ledger;
pub mod linediff;
pub mod pin;
pub mod record;
pub mod review;

use std::path::{Path, PathBuf};

use crate::discover::Mode;
use crate::finding::{Finding, sort_findings};
use crate::rules::ids;
use crate::scan::ScanResult;

/// Rules `--fail-on-drift` gates on: pin, ledger and provenance drift.
pub const DRIFT_RULES: &[&str] = &[
    ids::MANIFEST_CHANGED_SINCE_BASELINE,
    ids::CHANGED_SINCE_LAST_VETTED,
    ids::PROVENANCE_HASH_MISMATCH,
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
    pub hasher: hashes::Hasher,
}

impl Context {
    pub fn new(mode: Mode, target: &Path, root: Option<&Path>, hasher: hashes::Hasher) -> Context {
        let home = record::home(mode, target);
        let ledger = ledger::Ledger::new(
            root.map(Path::to_path_buf)
                .unwrap_or_else(|| record::default_ledger_root(&home)),
        );
        let relative = record::relative_root(&home, target);
        Context {
            home,
            ledger,
            relative,
            hasher,
        }
    }
}

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
    if result.mode != Mode::Path {
        let history = match checks::history_by_location(&cx.ledger, &cx.relative) {
            Ok(h) => h,
            Err(e) => {
                notes.push(format!(
                    "the ledger could not be read ({e}); drift between copies ignores its history"
                ));
                Default::default()
            }
        };
        new.extend(checks::cross_location(result, &history));
    }
    if args.check {
        if cx.ledger.exists() {
            new.extend(checks::check_ledger(
                result,
                &cx.ledger,
                &cx.hasher,
                &cx.relative,
            )?);
        } else {
            notes.push(format!(
                "--check-baseline: no ledger at {} yet; nothing to compare against",
                cx.ledger.root.display()
            ));
        }
    }
    if let Some(p) = &args.check_pin {
        match pin::read(p)? {
            Some(pins) => new.extend(checks::check_pins(result, &pins, &p.display().to_string())),
            None => notes.push(format!(
                "--manifest-baseline file not found ({}); nothing to compare against yet",
                p.display()
            )),
        }
    }
    add_findings(result, new);
    Ok(notes)
}

/// What runs after the report: append the snapshot (`--write-baseline`) and write the pin
/// file (`--save-manifest-baseline`). Returns notes for stderr.
pub fn after_report(
    result: &ScanResult,
    target: &Path,
    args: &ScanBaseline,
    cx: &Context,
) -> Result<Vec<String>, BaselineError> {
    let mut notes = Vec::new();
    if args.write {
        let draft = record::draft(result, &cx.hasher, &cx.home, target, args.note.clone());
        let a = cx.ledger.append(draft)?;
        notes.push(format!(
            "baseline snapshot #{} ({}) saved: {} skill location(s) -> {}",
            a.seq,
            a.id,
            a.skills,
            a.path.display()
        ));
    }
    if let Some(p) = &args.save_pin {
        let mut pins = pin::PinFile::new(cx.hasher.options.clone(), args.note.clone());
        let mut arts: Vec<&crate::inventory::Artifact> = result.artifacts.iter().collect();
        arts.sort_by(|a, b| a.path.cmp(&b.path));
        for a in arts {
            let key = a.name.to_lowercase();
            let loc = record::location(&cx.relative, &a.path);
            let new = pin::pin_of(a, &cx.hasher, Some(loc.clone()));
            match pins.skills.get(&key) {
                None => {
                    pins.skills.insert(key, new);
                }
                Some(first) if first.content != new.content => notes.push(format!(
                    "skill `{}` has another, different copy at {}; the pin holds the copy at {} (the other copy will be reported as changed)",
                    crate::text::sanitize_line(&a.name),
                    crate::text::sanitize_line(&loc),
                    crate::text::sanitize_line(first.location.as_deref().unwrap_or("?"))
                )),
                Some(_) => {}
            }
        }
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| BaselineError::Write {
                path: dir.display().to_string(),
                source,
            })?;
        }
        let bytes = pins.to_bytes();
        crate::cli::write_atomic(p, |w| w.write_all(&bytes)).map_err(|source| {
            BaselineError::Write {
                path: p.display().to_string(),
                source,
            }
        })?;
        notes.push(format!(
            "manifest baseline saved: {} ({} skill(s))",
            p.display(),
            pins.skills.len()
        ));
    }
    Ok(notes)
}
