//! `skillguard scan` and `scan-workspace`: the pipeline over a tree, its report, its gates,
//! and the ledger and pin writes that follow the report.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::agenteval::{AeGates, CompatRun, compat_of, compat_outcome, emit_agenteval};
use super::args::{
    BaselineArgs, CompatArgs, ConfigArgs, GateArgs, HashArgs, IndexArgs, LoaderArgs, ReportArgs,
    SarifArgs, SelectArgs, SuppressArgs, TargetArgs, ViewArgs, WalkArgs, scan_options,
};
use super::render::emit_report;
use super::{Error, ExitStatus, note, progress};
use crate::discover::Mode;
use crate::finding::Severity;
use crate::pipeline::{self, PolicyInput, Request, Source};
use crate::text::sanitize_line;

#[derive(Debug, Args)]
pub struct ScanCmd {
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub opts: ScanArgs,
}

#[derive(Debug, Args)]
pub struct WorkspaceCmd {
    /// Folder of cloned repositories.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Honour the scanned repositories' own `.skillguard.toml` (rules and suppressions) and
    /// `skillguard-ignore` comments. Off by default: the author of a skill may be the attacker.
    #[arg(long, help_heading = "Policy")]
    pub trust_repo_config: bool,
    /// Scan only shard K of N (1-based): a partition of the repositories by the SHA-256 of
    /// their names, or with --plan the plan's shard K (give K, or K/N with the plan's N).
    /// Write each shard's report as JSON and join them with `skillguard merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, help_heading = "Walk")]
    pub shard: Option<(u64, Option<u64>)>,
    /// A shard plan (`skillguard plan`): --shard K scans exactly its shard K's repositories.
    /// The workspace may hold only those (a job that cloned its share); a repository the
    /// plan does not know is refused.
    #[arg(
        long,
        value_name = "PLAN.json",
        requires = "shard",
        help_heading = "Walk"
    )]
    pub plan: Option<PathBuf>,
    /// Scan workspace entries that are symbolic links to folders as repositories, each
    /// rooted at its link's target (links inside a repository still never leave it).
    #[arg(long, help_heading = "Walk")]
    pub follow_repo_links: bool,
    #[command(flatten)]
    pub opts: ScanArgs,
}

/// The options of both scan commands.
#[derive(Debug, Args)]
pub struct ScanArgs {
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub sarif: SarifArgs,
    #[command(flatten)]
    pub view: ViewArgs,
    #[command(flatten)]
    pub gates: GateArgs,
    #[command(flatten)]
    pub walk: WalkArgs,
    #[command(flatten)]
    pub loaders: LoaderArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    #[command(flatten)]
    pub suppress: SuppressArgs,
    #[command(flatten)]
    pub baseline: BaselineArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    #[command(flatten)]
    pub compat: CompatArgs,
    #[command(flatten)]
    pub hashing: HashArgs,
    #[command(flatten)]
    pub cache: CacheArgs,
}

/// The result cache (never set by a scanned repository's configuration).
#[derive(Debug, Args, Default)]
pub struct CacheArgs {
    /// Keep each skill's results in DIR between runs, keyed on its files' bytes and the
    /// options, each entry authenticated with a machine-local key. Default:
    /// `SKILLGUARD_CACHE_DIR`, else `$XDG_CACHE_HOME/skillguard` (`~/.cache/skillguard`).
    /// Refused inside the scanned tree.
    #[arg(long, value_name = "DIR", help_heading = "Cache")]
    pub cache_dir: Option<PathBuf>,
    /// Analyse everything afresh and write no cache entry (release gates).
    #[arg(long, help_heading = "Cache", conflicts_with = "cache_dir")]
    pub no_cache: bool,
}

impl CacheArgs {
    /// The cache to use for a scan of `root`: `None` with --no-cache. A folder given
    /// (--cache-dir or `SKILLGUARD_CACHE_DIR`) that cannot be used is a usage error; the
    /// default folder is skipped with a note (a scan of the home folder holds it, say).
    pub fn open(
        &self,
        root: &Path,
        quiet: bool,
        stderr: &mut dyn Write,
    ) -> Result<Option<std::sync::Arc<crate::cache::Cache>>, Error> {
        if self.no_cache {
            return Ok(None);
        }
        let given = self.cache_dir.clone().or_else(|| {
            std::env::var_os("SKILLGUARD_CACHE_DIR")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
        let explicit = given.is_some();
        let Some(dir) = given.or_else(crate::cache::default_dir) else {
            return Ok(None);
        };
        let given_key = std::env::var("SKILLGUARD_CACHE_KEY")
            .ok()
            .filter(|k| !k.is_empty());
        let key_file = crate::cache::default_key_file();
        let source = match (&given_key, &key_file) {
            (Some(k), _) => crate::cache::KeySource::Given(k),
            (None, Some(f)) => crate::cache::KeySource::File(f),
            (None, None) => return Ok(None),
        };
        match crate::cache::Cache::open_keyed(&dir, source, &[root]) {
            Ok(c) => Ok(Some(std::sync::Arc::new(c))),
            Err(e) if explicit => Err(Error::Usage(e.to_string())),
            Err(e) => {
                note(stderr, quiet, &[format!("result cache off: {e}")])?;
                Ok(None)
            }
        }
    }
}

/// `K/N` with 1 ≤ K ≤ N ≤ [`crate::discover::MAX_SHARDS`], or `K` alone (with --plan, whose
/// N it is).
fn parse_shard(s: &str) -> Result<(u64, Option<u64>), String> {
    let (k, n) = match s.split_once('/') {
        Some((k, n)) => (k, Some(n)),
        None => (s, None),
    };
    let k: u64 = k
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: K is not a number (expected K/N, e.g. 2/8)"))?;
    let n: Option<u64> = n
        .map(|n| n.trim().parse())
        .transpose()
        .map_err(|_| format!("`{s}`: N is not a number"))?;
    let max = crate::discover::MAX_SHARDS;
    if n.is_some_and(|n| n == 0 || n > max || k > n) || k == 0 || k > max {
        return Err(format!("`{s}`: need 1 <= K <= N <= {max}"));
    }
    Ok((k, n))
}

/// The shard (K, N) a `scan-workspace` scans, and with a plan its repositories.
type ShardChoice = (Option<(u64, u64)>, Option<crate::discover::PlanShard>);

/// `--shard` and `--plan` of `scan-workspace`: the shard (K, N), and with a plan the shard's
/// repositories, checked against the workspace.
fn shard_of_plan(cmd: &WorkspaceCmd) -> Result<ShardChoice, Error> {
    let Some((k, n)) = cmd.shard else {
        return Ok((None, None));
    };
    let Some(path) = &cmd.plan else {
        let n = n.ok_or_else(|| {
            Error::Usage(format!(
                "--shard {k}: give K/N, or a shard plan with --plan FILE"
            ))
        })?;
        return Ok((Some((k, n)), None));
    };
    let plan = crate::shardplan::ShardPlan::read(path).map_err(|e| Error::Usage(e.to_string()))?;
    if k > plan.shards || n.is_some_and(|n| n != plan.shards) {
        return Err(Error::Usage(format!(
            "--shard {k}{}: {} is a plan of {} shard(s)",
            n.map(|n| format!("/{n}")).unwrap_or_default(),
            path.display(),
            plan.shards
        )));
    }
    let (repos, _) = crate::discover::workspace_listing(&cmd.dir)?;
    plan.check_workspace(k, &repos)
        .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?;
    Ok((Some((k, plan.shards)), Some(plan.walk_shard(k))))
}

/// What only `scan-workspace` sets.
#[derive(Default)]
struct WorkspaceExtras {
    trust_repo_config: bool,
    follow_repo_links: bool,
    shard: Option<(u64, u64)>,
    plan: Option<crate::discover::PlanShard>,
}

/// `skillguard scan`.
pub(super) fn run_scan(
    cmd: &ScanCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let o = &cmd.opts;
    let compat = o.compat.compat.is_some()
        || cmd
            .target
            .target_or_cwd()
            .ok()
            .and_then(|(m, t)| compat_of(m, &t, o.compat.compat, &o.config))
            .is_some();
    // With no target, the repository in the current directory (`--repo .`), as `ruff check`
    // does; under `--compat agenteval` a missing <path> is a parse error (exit 2), as there.
    let (mode, target) = if o.compat.compat.is_some() {
        cmd.target.target()?
    } else {
        cmd.target.target_or_cwd()?
    };
    let outcome = (|| {
        if compat && !target.is_dir() {
            let what = if mode == Mode::Repo {
                "Repository"
            } else {
                "Skills"
            };
            return Err(Error::Compat(format!(
                "{what} directory not found: {}",
                crate::report::agenteval::full_path(&target)
                    .unwrap_or_else(|_| target.clone())
                    .display()
            )));
        }
        let changed = match mode {
            Mode::Repo if !cmd.target.paths.is_empty() => {
                Some(changed_files(&target, &cmd.target.paths)?)
            }
            _ => None,
        };
        scan_tree(
            mode,
            &target,
            o,
            changed,
            WorkspaceExtras::default(),
            stdout,
            stderr,
        )
    })();
    compat_outcome(compat, outcome)
}

/// `skillguard scan-workspace`.
pub(super) fn run_workspace(
    cmd: &WorkspaceCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let o = &cmd.opts;
    let compat = compat_of(Mode::Workspace, &cmd.dir, o.compat.compat, &o.config).is_some();
    if compat && !cmd.dir.is_dir() {
        return Err(Error::Compat(format!(
            "Workspace directory not found: {}",
            crate::report::agenteval::full_path(&cmd.dir)
                .unwrap_or_else(|_| cmd.dir.clone())
                .display()
        )));
    }
    let (shard, plan) = match shard_of_plan(cmd) {
        Ok(s) => s,
        Err(e) => return compat_outcome(compat, Err(e)),
    };
    let outcome = scan_tree(
        Mode::Workspace,
        &cmd.dir,
        o,
        None,
        WorkspaceExtras {
            trust_repo_config: cmd.trust_repo_config,
            follow_repo_links: cmd.follow_repo_links,
            shard,
            plan,
        },
        stdout,
        stderr,
    );
    compat_outcome(compat, outcome)
}

/// A scan through the pipeline, its report, and the ledger and pin writes after it.
fn scan_tree(
    mode: Mode,
    target: &Path,
    o: &ScanArgs,
    changed: Option<Vec<String>>,
    ws: WorkspaceExtras,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let operator = o.config.operator(mode, target)?;
    // A changed configuration or accepted-findings file changes every verdict: a full scan.
    let policy_files: Vec<String> = operator
        .as_ref()
        .map(|c| c.1.clone())
        .into_iter()
        .chain(o.suppress.accepted.clone())
        .filter_map(|p| inside(target, &p))
        .collect();
    let compat = o
        .compat
        .compat
        .or_else(|| operator.as_ref().and_then(|c| c.0.compat));
    // An unknown --format and an `-o` that cannot be written are refused before the scan,
    // except as AgentEval does it (after the scan); so is a drift gate on a pin file that
    // does not exist (AgentEval passes it: its case C28).
    if compat.is_none() {
        o.report.format.check()?;
        if o.sarif.split_by.is_some() && mode != Mode::Workspace {
            return Err(Error::Usage(
                "--split-by repository applies to scan-workspace and merge".into(),
            ));
        }
        o.sarif.check_output(&o.report)?;
        o.baseline.check_drift_gate(o.gates.fail_on_drift)?;
    }
    let mut opts = scan_options(
        &o.walk,
        &o.loaders,
        &o.hashing,
        &o.select,
        o.baseline.write_baseline,
        operator.as_ref().map(|c| &c.0),
    )?;
    opts.cache = o.cache.open(target, o.report.quiet, stderr)?;
    // AgentEval's report is MAF's view: the `maf` profile runs whatever `--profile` says.
    if compat.is_some()
        && let crate::loaders::Selection::Only(set) = &mut opts.profiles
    {
        set.insert("maf".to_owned());
    }
    let fail_on_config = operator
        .as_ref()
        .and_then(|c| c.0.fail_on)
        .map(Severity::from);
    let threshold = o.gates.threshold_with(fail_on_config);
    if o.baseline.baseline_note.is_some()
        && !o.baseline.write_baseline
        && o.baseline.save_manifest_baseline.is_none()
    {
        note(
            stderr,
            o.report.quiet,
            &["--baseline-note has no effect without --write-baseline or --save-manifest-baseline; ignored".into()],
        )?;
    }
    // A bad trace or eval result is a usage error before anything is scanned.
    let trace = o.index.read_trace()?;
    let eval_results = o.index.read_eval_results()?;
    let mut args = o.baseline.baseline();
    let compat_run = match compat {
        Some(_) => Some(CompatRun::prepare(&mut args, mode, stderr)?),
        None => None,
    };
    if changed.is_some() && (args.write || args.save_pin.is_some()) {
        return Err(Error::Usage(
            "--write-baseline and --save-manifest-baseline record every skill; they cannot be used with changed files".into(),
        ));
    }
    if ws.shard.is_some() && (args.write || args.save_pin.is_some()) {
        return Err(Error::Usage(
            "--write-baseline and --save-manifest-baseline record every skill; they cannot be used with --shard".into(),
        ));
    }
    // A shard's JSON report is signed when the key is set (docs/ci.md); an empty key is
    // refused before the scan.
    let sign = match ws.shard {
        Some(_) => crate::report::signature::key_from_env().map_err(Error::Usage)?,
        None => None,
    };
    let mut cx =
        crate::baseline::Context::new(mode, target, args.root.as_deref(), o.hashing.hasher()?);
    opts.changed = changed;
    opts.policy_files = policy_files;
    opts.walk.follow_repo_links = ws.follow_repo_links;
    opts.walk.shard = ws.shard;
    opts.walk.only = ws.plan;
    if args.write && cx.ledger.exists() {
        // A hint only: a ledger that cannot be read here is reported by the append.
        cx.newest = cx.ledger.newest().ok().flatten();
        opts.read.known_lines = cx
            .newest
            .as_ref()
            .map(|n| std::sync::Arc::new(n.known.keys().cloned().collect()));
    }
    // Under --compat agenteval, `--fail-on-noncompliant` is AgentEval's gate (its own
    // rules, judged by its renderer); skillguard's gates still apply when given.
    let gates = match compat {
        Some(_) => o
            .gates
            .gates(o.gates.fail_on.map(Severity::from).or(fail_on_config)),
        None => o.gates.gates(threshold),
    };
    let bar = progress::Bar::start(&o.report, &o.walk, &mut opts);
    let outcome = pipeline::run(Request {
        source: Source::Tree {
            mode,
            target,
            options: opts,
        },
        depth: pipeline::Depth::Full,
        baseline: args.clone(),
        context: Some(&cx),
        policy: PolicyInput {
            select: o.select.select.clone(),
            ignore: o.select.ignore.clone(),
            min_confidence: o.select.min_confidence.map(Into::into),
            no_ignores: o.suppress.no_ignores,
            operator,
            trust_repo_config: ws.trust_repo_config,
            no_config: o.config.no_config,
            accepted: o.suppress.accepted(),
        },
        trace,
        eval_results,
        gates,
    });
    drop(bar);
    let outcome = outcome?;
    note(stderr, o.report.quiet, &outcome.notes)?;
    let result = &outcome.result;
    // The snapshot and pin are prepared while the report renders (both only read the
    // result) and written only once the report is out: a failed `-o` (exit 2) leaves the
    // ledger and the pin untouched, so a retry does not record the same scan twice. Their
    // notes follow the report, and a failed write still ends the run with exit 2.
    let writes = args.write || args.save_pin.is_some();
    let mut ae_report = None;
    let (status, prepared) = std::thread::scope(|sc| {
        let worker = writes
            .then(|| sc.spawn(|| crate::baseline::prepare_writes(result, target, &args, &cx)));
        let status = crate::timing::time(crate::timing::Stage::Report, || match &compat_run {
            Some(run) => {
                let lookup = |n: &str, h: &str| run.vetted.as_ref().and_then(|v| v.date(n, h));
                let lookup: Option<crate::report::agenteval::Vetted<'_>> =
                    run.vetted.as_ref().map(|_| &lookup as _);
                emit_agenteval(
                    result,
                    &o.report,
                    AeGates {
                        noncompliant: o.gates.fail_on_noncompliant,
                        own_failing: outcome.failing(),
                    },
                    target,
                    lookup,
                    stdout,
                    stderr,
                )
                .map(|(status, conv)| {
                    ae_report = Some(conv);
                    status
                })
            }
            None => emit_report(
                &outcome,
                &o.report,
                &o.sarif,
                &o.view,
                threshold,
                sign.as_deref(),
                stdout,
                stderr,
            ),
        });
        if crate::timing::enabled() {
            let _ = stderr.write_all(crate::timing::summary().as_bytes());
        }
        let prepared = worker.map(|h| {
            h.join().map_err(|_| {
                crate::baseline::BaselineError::Other(
                    "internal error while preparing the baseline".into(),
                )
            })
        });
        (status, prepared)
    });
    let status = status?;
    if let Some(prepared) = prepared {
        let notes = crate::baseline::commit_writes(prepared?, &cx)?;
        note(stderr, o.report.quiet, &notes)?;
    }
    if let (Some(run), Some(conv)) = (&compat_run, &ae_report) {
        run.write_after(
            result,
            conv,
            target,
            o.baseline.baseline_note.as_deref(),
            stderr,
        )?;
    }
    Ok(status)
}

/// Changed files given on the command line, relative to the repository root `root`,
/// `/`-separated. A path is taken relative to the current directory (as pre-commit and
/// `git diff --name-only` from the root give them), else to the root; one outside the
/// root is a usage error. Never read: only mapped to skills.
fn changed_files(root: &Path, files: &[PathBuf]) -> Result<Vec<String>, Error> {
    let canon_root = std::fs::canonicalize(root)
        .map_err(|e| Error::Usage(format!("{}: {e}", root.display())))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    // `.` and `..` resolved lexically: the file may have been deleted.
    let lexical = |p: &Path| {
        let mut norm = PathBuf::new();
        for c in p.components() {
            match c {
                std::path::Component::ParentDir => {
                    norm.pop();
                }
                std::path::Component::CurDir => {}
                c => norm.push(c),
            }
        }
        norm
    };
    let lexical_root = lexical(&cwd.join(root));
    let mut out = Vec::with_capacity(files.len());
    let exists = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    let parent_exists = |p: &Path| p.parent().is_some_and(exists);
    for f in files {
        // A relative path is taken relative to the current folder (what a person types, and
        // what pre-commit gives from the root), else to the root (what `git diff --name-only`
        // gives from any folder of the repository): the one that exists, or for a deleted
        // file the one whose folder exists.
        let abs = if f.is_absolute() {
            f.clone()
        } else {
            let (here, at_root) = (cwd.join(f), cwd.join(root).join(f));
            if exists(&here)
                || (!exists(&at_root) && (!parent_exists(&at_root) || parent_exists(&here)))
            {
                here
            } else {
                at_root
            }
        };
        let norm = lexical(&abs);
        // Inside the root as written: the path as the repository names it. Links inside
        // the repository are not followed here (the scan maps a changed file to the
        // skills that reach it through a link).
        if let Ok(rel) = norm.strip_prefix(&lexical_root) {
            let rel: Vec<String> = rel
                .components()
                .map(|c| crate::names::escape(c.as_os_str()).into_owned())
                .collect();
            out.push(rel.join("/"));
            continue;
        }
        // Otherwise the longest existing ancestor, resolved, for links above the
        // repository such as /tmp -> /private/tmp.
        let mut base = norm.clone();
        let mut rest: Vec<std::ffi::OsString> = Vec::new();
        let resolved = loop {
            if let Ok(c) = std::fs::canonicalize(&base) {
                break rest.iter().rev().fold(c, |p, r| p.join(r));
            }
            match (base.file_name().map(|n| n.to_owned()), base.parent()) {
                (Some(n), Some(p)) => {
                    rest.push(n);
                    base = p.to_path_buf();
                }
                _ => break norm.clone(),
            }
        };
        let rel = resolved.strip_prefix(&canon_root).map_err(|_| {
            Error::Usage(format!(
                "{} is not inside the repository {}",
                sanitize_line(&f.display().to_string()),
                root.display()
            ))
        })?;
        let rel: Vec<String> = rel
            .components()
            .map(|c| crate::names::escape(c.as_os_str()).into_owned())
            .collect();
        out.push(rel.join("/"));
    }
    Ok(out)
}

/// `path` relative to the folder `root`, `/`-separated, when it is inside it (both resolved).
fn inside(root: &Path, path: &Path) -> Option<String> {
    let root = std::fs::canonicalize(root).ok()?;
    let path = std::fs::canonicalize(path).ok()?;
    let rel: Vec<String> = path
        .strip_prefix(&root)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(rel.join("/"))
}
