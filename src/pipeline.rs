//! One scan pipeline behind every command that judges a tree or its reports (drawn in
//! `docs/design.md`, "Architecture"):
//!
//! source (a tree walked, read, parsed and checked skill by skill by [`crate::scan`], or the
//! shard reports of such scans joined by [`crate::merge`]) → cross-skill checks (collisions,
//! shadowing, drift across locations, repositories and the ledger, pins, provenance:
//! [`crate::baseline`]) → suppressions and accepted findings ([`crate::policy`]) → the index
//! ([`crate::index`]) → the gates.
//!
//! `scan`, `scan-workspace`, `accept`, `coverage`, `baseline approve` and `merge` all run
//! [`run`] and render or inspect its [`Outcome`]; what they write (ledger snapshots, pin
//! files, accepted findings) they write after it. A merge recomputes the checks that span
//! repositories through the same stage as a scan ([`crate::baseline::across_reports`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::baseline::{self, Context, ScanBaseline};
use crate::config::Config;
use crate::discover::Mode;
use crate::finding::Severity;
use crate::policy::{Policy, Scope};
use crate::report::Gate;
use crate::result::ScanResult;
use crate::scan::ScanOptions;
use crate::text::sanitize_line;

/// What the pipeline reads (one per run: the size of a variant does not matter).
#[allow(clippy::large_enum_variant)]
pub enum Source<'a> {
    /// A tree: a skill or a folder of skills (`Mode::Path`), a repository or a workspace.
    Tree {
        mode: Mode,
        target: &'a Path,
        options: ScanOptions,
    },
    /// The JSON reports of `scan-workspace --shard K/N`, one per shard, and how they are
    /// checked ([`crate::merge::Options`]).
    Reports {
        paths: &'a [PathBuf],
        options: crate::merge::Options,
    },
}

/// How far the pipeline runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// The walk, reads, parses and per-skill checks only: the inventory and its findings
    /// as the skills' own checks give them (`coverage`, `baseline approve`).
    Inventory,
    /// Every stage, the index and the gates included.
    Full,
}

/// The operator's configuration: the parsed file, its path and its text.
pub type OperatorConfig = (Config, PathBuf, String);

/// Which accepted findings hide findings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Accepted {
    /// `.skillguard/accepted.json` under the repository or workspace root, when it exists.
    #[default]
    Default,
    /// `--accepted FILE`: it must exist.
    File(PathBuf),
    /// None (`accept` builds the list; a merge takes the shards' verdicts).
    Skip,
}

/// Where the policy comes from: the command line, the configuration files and the
/// accepted findings.
#[derive(Default)]
pub struct PolicyInput {
    /// `--select`.
    pub select: Vec<String>,
    /// `--ignore`.
    pub ignore: Vec<String>,
    /// `--min-confidence`.
    pub min_confidence: Option<crate::finding::Confidence>,
    /// `--no-ignores`.
    pub no_ignores: bool,
    /// The operator's configuration ([`operator_config`]).
    pub operator: Option<OperatorConfig>,
    /// Workspace scans: honour each repository's own `.skillguard.toml`
    /// (`--trust-repo-config`); without it they are only noted.
    pub trust_repo_config: bool,
    /// `--no-config`: no configuration file at all, the repositories' own not even noted.
    pub no_config: bool,
    pub accepted: Accepted,
}

/// The gates of a run; each given one is judged in [`Outcome::gate`].
#[derive(Debug, Clone, Default)]
pub struct Gates {
    /// `--fail-on` / `--fail-on-noncompliant` / the configuration's `fail-on`.
    pub fail_on: Option<Severity>,
    /// `--fail-on-drift`.
    pub fail_on_drift: bool,
    /// `--fail-under-index`.
    pub fail_under_index: Option<u8>,
}

impl Gates {
    /// The gates given and whether the result fails them; `None` when none was given.
    pub fn verdict(&self, result: &ScanResult, index: &crate::index::Report) -> Option<Gate> {
        let mut g = Gate::default();
        if let Some(t) = self.fail_on {
            let n = result.findings.iter().filter(|f| f.severity >= t).count();
            g.failing |= n > 0;
            g.reasons
                .push(format!("--fail-on {}: {n} at or above", t.as_str()));
        }
        if self.fail_on_drift {
            let n = result
                .findings
                .iter()
                .filter(|f| baseline::DRIFT_RULES.contains(&f.rule_id))
                .count();
            g.failing |= n > 0;
            g.reasons
                .push(format!("--fail-on-drift: {n} drift finding(s)"));
        }
        if let Some(n) = self.fail_under_index {
            let fails = index.fails_under(f64::from(n));
            g.failing |= fails;
            g.reasons.push(format!(
                "--fail-under-index {n}: {}",
                if fails { "below" } else { "met" }
            ));
        }
        (!g.reasons.is_empty()).then_some(g)
    }
}

/// One run of the pipeline.
pub struct Request<'a> {
    pub source: Source<'a>,
    pub depth: Depth,
    /// The comparisons asked for (`--check-baseline`, `--manifest-baseline`); the writes it
    /// names are the command's, after the report.
    pub baseline: ScanBaseline,
    /// The ledger and the hasher of a tree's baseline checks (built from the source and
    /// `baseline.root` when absent).
    pub context: Option<&'a Context>,
    pub policy: PolicyInput,
    /// `--trace`, for the index's efficiency axis.
    pub trace: Option<crate::index::Trace>,
    /// `--evals`, for the index's evals axis.
    pub eval_results: Option<Vec<crate::index::EvalResult>>,
    pub gates: Gates,
}

impl<'a> Request<'a> {
    /// A run of every stage over `source`, with the default policy and no gate.
    pub fn new(source: Source<'a>) -> Request<'a> {
        Request {
            source,
            depth: Depth::Full,
            baseline: ScanBaseline::default(),
            context: None,
            policy: PolicyInput::default(),
            trace: None,
            eval_results: None,
            gates: Gates::default(),
        }
    }
}

/// What every command renders or inspects.
pub struct Outcome {
    /// Findings after the policy (the suppressed ones in `result.suppressed`).
    pub result: ScanResult,
    /// The Skill Security Index (`None` at [`Depth::Inventory`]).
    pub index: Option<Arc<crate::index::Report>>,
    /// The gates' verdict (`None` without a gate).
    pub gate: Option<Gate>,
    /// Notes for stderr, in the order the stages gave them.
    pub notes: Vec<String>,
}

impl Outcome {
    /// Whether a gate fails: the exit code's verdict.
    pub fn failing(&self) -> bool {
        self.gate.as_ref().is_some_and(|g| g.failing)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A usage error (an unknown rule, a missing `--accepted` file).
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Discover(#[from] crate::discover::DiscoverError),
    #[error(transparent)]
    Baseline(#[from] crate::baseline::BaselineError),
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Accepted(#[from] crate::policy::AcceptedError),
    #[error(transparent)]
    Merge(#[from] crate::merge::MergeError),
}

/// Runs the pipeline.
pub fn run(req: Request<'_>) -> Result<Outcome, Error> {
    check_selectors(&req.policy)?;
    let mut notes = Vec::new();
    let (mode, target, reports) = match &req.source {
        Source::Tree { mode, target, .. } => (*mode, target.to_path_buf(), None),
        Source::Reports { paths, .. } => (Mode::Workspace, PathBuf::new(), Some(paths.len())),
    };
    let from_reports = reports.is_some();
    // What of the scan options goes into the run's identity (before the scan takes them).
    let mut run_options = None;
    let mut plan_digest = None;
    let mut result = match req.source {
        Source::Tree {
            mode,
            target,
            options,
        } => {
            run_options = Some(scan_options_identity(&options));
            plan_digest = options.walk.only.as_ref().map(|p| p.digest.clone());
            crate::scan::scan(mode, target, &options)?
        }
        Source::Reports { paths, options } => {
            let (result, merge_notes) =
                crate::merge::merge(paths, &options, req.policy.no_ignores)?;
            notes.extend(merge_notes);
            result
        }
    };
    if req.depth == Depth::Inventory {
        return Ok(Outcome {
            result,
            index: None,
            gate: None,
            notes,
        });
    }
    // The cross-skill checks.
    if from_reports {
        baseline::across_reports(&mut result);
        notes.push(format!(
            "merged {} report(s): {} repositories, {} skill(s); drift, name collisions and look-alike names recomputed across all of them",
            reports.unwrap_or_default(),
            result.repos.len(),
            result.artifacts.len()
        ));
    } else {
        let own;
        let cx = match req.context {
            Some(cx) => cx,
            None => {
                let hasher =
                    crate::skill_hashes::Hasher::new(Default::default()).map_err(Error::Usage)?;
                own = Context::new(mode, &target, req.baseline.root.as_deref(), hasher);
                &own
            }
        };
        notes.extend(baseline::before_report(&mut result, &req.baseline, cx)?);
        crate::scan::restrict_to_changed(&mut result);
        if let Some(c) = &result.changed {
            notes.push(changed_note(c));
        }
    }
    let mut policy = build_policy(&req.policy, mode, &target, &result, &mut notes)?;
    if let (Some(scan), Some(listing)) = (run_options, result.listing.take()) {
        let options = options_digest(scan, &req.policy, &policy, &req.baseline);
        let shards = result.shard.map_or(1, |(_, n)| n);
        result.run =
            Some(crate::result::RunIdentity::new(listing, options, shards).with_plan(plan_digest));
    }
    // A shard or a merge sees some repositories through reports: what it does not see
    // cannot be judged unused.
    policy.partial |= result.shard.is_some() || from_reports;
    notes.extend(crate::policy::apply(&mut result, &policy));
    // The index is computed after the cross-skill findings were added, on the full result,
    // accepted findings included (`index::for_result`).
    let mut index = crate::timing::time(crate::timing::Stage::Index, || {
        crate::index::for_result(&result, req.trace.as_ref(), req.eval_results.as_deref())
    });
    notes.extend(crate::index::evals::notes(&index.eval_results));
    index.fail_under = req.gates.fail_under_index.map(f64::from);
    let gate = req.gates.verdict(&result, &index);
    Ok(Outcome {
        result,
        index: Some(Arc::new(index)),
        gate,
        notes,
    })
}

/// The scan options that change findings, for the run's identity
/// ([`crate::result::RunIdentity::options`]): rule selection, profiles, targets, walk and read
/// limits, hash options and changed files. Not the worker count, the progress bar, the shard
/// (the identity names the plan, N) or what only a ledger write needs.
fn scan_options_identity(o: &ScanOptions) -> serde_json::Value {
    serde_json::json!({
        "profiles": format!("{:?}", o.profiles),
        "targets": format!("{:?}", o.targets),
        "rules": format!("{:?}", o.rules),
        "max_depth": o.walk.max_depth,
        "max_dirs": o.walk.max_dirs,
        "respect_gitignore": o.walk.respect_gitignore,
        "conventions_only": o.walk.conventions_only,
        "follow_repo_links": o.walk.follow_repo_links,
        "exclude": o.walk.exclude.is_some(),
        "extra_roots": o.walk.extra_roots.iter().map(|c| c.path).collect::<Vec<_>>(),
        "max_file_size": o.read.max_file_size,
        "max_hash_size": o.read.max_hash_size,
        "normalize_eol": o.hash.normalize_eol,
        "hash_ignore": o.hash.ignore,
        "changed": o.changed,
    })
}

/// The SHA-256 of the options that change a run's findings: the scan's
/// ([`scan_options_identity`]), `--select`/`--ignore`, the operator's configuration (its
/// text's digest), `--trust-repo-config`, `--no-ignores`, the accepted findings (their
/// digest), the baseline checks asked for, and the tool's version. Compact JSON with sorted
/// keys, so the same options give the same digest.
fn options_digest(
    scan: serde_json::Value,
    input: &PolicyInput,
    policy: &Policy,
    baseline: &ScanBaseline,
) -> String {
    fn sorted(v: &[String]) -> Vec<&str> {
        let mut v: Vec<&str> = v.iter().map(|s| s.trim()).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    let doc = serde_json::json!({
        "tool": env!("CARGO_PKG_VERSION"),
        "scan": scan,
        "select": sorted(&input.select),
        "ignore": sorted(&input.ignore),
        "config": input.operator.as_ref().map(|(_, _, text)| crate::hash::sha256_hex(text.as_bytes())),
        "no_config": input.no_config,
        "trust_repo_config": input.trust_repo_config,
        "no_ignores": input.no_ignores,
        "accepted": policy.accepted.as_ref().map(|(a, _)| crate::hash::sha256_hex(&a.to_bytes())),
        "check_baseline": baseline.check,
        "manifest_baseline": baseline.check_pin.is_some(),
    });
    crate::hash::sha256_hex(doc.to_string().as_bytes())
}

/// The note of a changed-files scan: what was scanned.
fn changed_note(c: &crate::result::Changed) -> String {
    if c.full {
        format!(
            "changed files: {} file(s) include the policy (configuration or accepted findings), so every skill was scanned",
            c.files.len()
        )
    } else {
        format!(
            "changed files: {} file(s) in {} skill(s); {} skill(s) scanned with their cross-skill checks, {} not scanned",
            c.files.len(),
            c.skills.len(),
            c.scanned.len(),
            c.skipped
        )
    }
}

/// `--select` and `--ignore` name rules or categories of the catalog: refused before any work.
fn check_selectors(input: &PolicyInput) -> Result<(), Error> {
    for s in input.select.iter().chain(&input.ignore) {
        if !crate::config::selector_known(s.trim()) {
            return Err(Error::Usage(format!(
                "unknown rule or category `{}` in --select/--ignore{}; run `skillguard rules` for the list",
                sanitize_line(s),
                crate::catalog::did_you_mean(s)
            )));
        }
    }
    Ok(())
}

/// The operator's configuration: `config` (`--config FILE`, which must exist), else
/// `.skillguard.toml` at the scan's home (the repository root, the workspace folder, or the
/// git root above a scanned path); `None` with `no_config`. Never the scanned repositories'
/// own files in a workspace ([`PolicyInput::trust_repo_config`]).
pub fn operator_config(
    mode: Mode,
    target: &Path,
    config: Option<&Path>,
    no_config: bool,
) -> Result<Option<OperatorConfig>, Error> {
    if no_config {
        return Ok(None);
    }
    let path = match config {
        Some(p) => p.to_path_buf(),
        None => crate::baseline::record::home(mode, target).join(crate::config::FILE_NAME),
    };
    let read = if config.is_some() {
        crate::config::read_named(&path)?
    } else {
        crate::config::read(&path)?
    };
    match read {
        Some((c, text)) => Ok(Some((c, path, text))),
        None if config.is_some() => Err(Error::Usage(format!(
            "--config {}: no such file",
            path.display()
        ))),
        None => Ok(None),
    }
}

/// `path` as shown in findings: relative to `base` when inside it, `/`-separated.
fn shown_path(path: &Path, base: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    match abs.strip_prefix(base) {
        Ok(rel) => rel
            .components()
            .map(|c| crate::names::escape(c.as_os_str()).into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => path.display().to_string(),
    }
}

/// The policy: `--select`/`--ignore`, the operator's configuration, in a workspace the
/// repositories' own when trusted, and the accepted findings.
fn build_policy(
    input: &PolicyInput,
    mode: Mode,
    target: &Path,
    result: &ScanResult,
    notes: &mut Vec<String>,
) -> Result<Policy, Error> {
    let mut scopes = Vec::new();
    let needs_paths = input.operator.is_some()
        || input.accepted != Accepted::Skip
        || (mode == Mode::Workspace && !input.no_config);
    let base = if needs_paths {
        crate::baseline::record::scan_base(mode, target)
    } else {
        PathBuf::new()
    };
    if let Some((c, p, text)) = &input.operator {
        let mut config = c.clone();
        if mode == Mode::Workspace && !input.trust_repo_config && config.inline_ignores {
            config.inline_ignores = false;
            notes.push(
                "inline-ignores: comments inside the scanned repositories are not honoured in a workspace scan without --trust-repo-config".into(),
            );
        }
        scopes.push(Scope {
            prefix: String::new(),
            config,
            config_shown: Some(shown_path(p, &base)),
            config_text: text.clone(),
            root: base.clone(),
        });
    }
    if mode == Mode::Workspace && !input.no_config && !target.as_os_str().is_empty() {
        for r in result.repos.iter().filter(|r| r.repo.is_some()) {
            let p = crate::names::path_of(&base, &r.path).join(crate::config::FILE_NAME);
            if !input.trust_repo_config {
                if std::fs::symlink_metadata(&p).is_ok() {
                    notes.push(format!(
                        "{}/{}: not honoured (a scanned repository's own configuration; --trust-repo-config honours it)",
                        r.path,
                        crate::config::FILE_NAME
                    ));
                }
                continue;
            }
            if let Some((config, text)) = crate::config::read(&p)? {
                scopes.push(Scope {
                    prefix: format!("{}/", r.path),
                    config,
                    config_shown: Some(format!("{}/{}", r.path, crate::config::FILE_NAME)),
                    config_text: text,
                    root: crate::names::path_of(&base, &r.path),
                });
            }
        }
    }
    let accepted = match &input.accepted {
        Accepted::Skip => None,
        Accepted::Default => {
            let home = crate::baseline::record::home(mode, target);
            let path = home.join(crate::policy::ACCEPTED_FILE);
            crate::policy::read_accepted(&path)?.map(|a| (a, shown_path(&path, &base)))
        }
        Accepted::File(path) => match crate::policy::read_accepted_named(path)? {
            Some(a) => Some((a, shown_path(path, &base))),
            None => {
                return Err(Error::Usage(format!(
                    "--accepted {}: no such file",
                    path.display()
                )));
            }
        },
    };
    Ok(Policy {
        select: input.select.iter().map(|s| s.trim().to_owned()).collect(),
        ignore: input.ignore.iter().map(|s| s.trim().to_owned()).collect(),
        min_confidence: input.min_confidence,
        scopes,
        accepted,
        no_ignores: input.no_ignores,
        today: None,
        partial: result.changed.as_ref().is_some_and(|c| !c.full),
    })
}
