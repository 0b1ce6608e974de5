//! `skillguard baseline …`: review and manage baselines (the snapshot ledger and pin files),
//! AgentEval's ledger under `--compat agenteval`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand, ValueEnum};

use super::args::HashArgs;
use super::{Error, ExitStatus, print_json};
use crate::discover::Mode;
use crate::text::sanitize_line;

#[derive(Debug, Args)]
pub struct LedgerArgs {
    /// Ledger directory (default: `.skillguard/ledger` under --repo).
    #[arg(long, value_name = "DIR")]
    pub baseline_root: Option<PathBuf>,
    /// Repository or workspace root whose ledger to use (default: the git repository
    /// containing the current directory, else the current directory).
    #[arg(long, value_name = "ROOT")]
    pub repo: Option<PathBuf>,
}

impl LedgerArgs {
    fn ledger(&self) -> crate::baseline::ledger::Ledger {
        use crate::baseline::{ledger::Ledger, record};
        let home = match &self.repo {
            Some(r) => record::home(Mode::Repo, r),
            None => record::home(Mode::Path, Path::new(".")),
        };
        // A chosen ledger inside the repository is guarded as the default one.
        match &self.baseline_root {
            Some(r) => Ledger::guarded(r.clone(), home),
            None => Ledger::guarded(record::default_ledger_root(&home), home),
        }
    }
}

/// `--compat` of `baseline list|diff|history`.
#[derive(Debug, Args, Clone, Default)]
pub struct LedgerCompatArgs {
    /// Behave as AgentEval's `skills baseline list|diff|history`: read its ledger
    /// (`.agenteval/skills-baselines` under the current directory, or --baseline-root) and
    /// print its texts and exit codes (3 for a runtime error). Also `compat = "agenteval"` in
    /// the repository's `.skillguard.toml`. See docs/baselines.md.
    #[arg(long, value_enum, value_name = "TOOL")]
    pub compat: Option<crate::config::Compat>,
    /// Ignore the repository's `.skillguard.toml` (its `compat` key).
    #[arg(long)]
    pub no_config: bool,
}

impl LedgerCompatArgs {
    /// `--compat`, else (without `--no-config`) the `compat` key of `.skillguard.toml` at the
    /// ledger's home: the `--repo` root, else the git repository holding the current
    /// directory, else the current directory (where a scan by path looks for it too).
    fn resolve(&self, ledger: &LedgerArgs) -> Result<Option<crate::config::Compat>, Error> {
        if self.compat.is_some() || self.no_config {
            return Ok(self.compat);
        }
        let home = match &ledger.repo {
            Some(r) => crate::baseline::record::home(Mode::Repo, r),
            None => crate::baseline::record::home(Mode::Path, Path::new(".")),
        };
        Ok(crate::config::read(&home.join(crate::config::FILE_NAME))?.and_then(|(c, _)| c.compat))
    }
}

/// `baseline diff --hash`: any string (checked after parsing, so that AgentEval's unknown
/// `--hash` can be its runtime error under `--compat agenteval`), with the possible values
/// shown in help and completions.
#[derive(Debug, Clone, Copy)]
struct HashValueParser;

impl clap::builder::TypedValueParser for HashValueParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        value
            .to_str()
            .map(str::to_owned)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8).with_cmd(cmd))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            HashArg::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReviewFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HashArg {
    Structural,
    Content,
    Files,
}

#[derive(Debug, Subcommand)]
pub enum BaselineCmd {
    /// List the snapshots in the ledger, oldest first.
    List {
        #[command(flatten)]
        ledger: LedgerArgs,
        #[arg(long, value_enum, ignore_case = true, default_value = "table")]
        format: ReviewFormat,
        #[command(flatten)]
        compat: LedgerCompatArgs,
    },
    /// What changed between two snapshots, by skill location; between two eval snapshots,
    /// which cases regressed.
    Diff {
        #[command(flatten)]
        ledger: LedgerArgs,
        /// Earlier snapshot: id, unique id prefix or number (default: the one of the same kind
        /// before --until; for an eval snapshot, the previous result of its evals file).
        #[arg(long, value_name = "ID")]
        since: Option<String>,
        /// Later snapshot (default: the newest scan snapshot; after an eval snapshot given to
        /// --since, the newest result of its evals file).
        #[arg(long, value_name = "ID")]
        until: Option<String>,
        /// Only this skill (name, location, or the end of a location).
        #[arg(long, value_name = "NAME|PATH")]
        skill: Option<String>,
        /// Which hash decides that a skill changed.
        #[arg(long, value_name = "HASH", default_value = "content", value_parser = HashValueParser)]
        hash: String,
        #[command(flatten)]
        hashing: HashArgs,
        #[arg(long, value_enum, ignore_case = true, default_value = "table")]
        format: ReviewFormat,
        #[command(flatten)]
        compat: LedgerCompatArgs,
    },
    /// Every change of one skill at each of its locations, and its recorded eval results.
    History {
        /// Skill name, location, or the end of a location (or an evals file's path).
        #[arg(value_name = "NAME|PATH")]
        skill: String,
        #[command(flatten)]
        ledger: LedgerArgs,
        #[arg(long, value_enum, ignore_case = true, default_value = "table")]
        format: ReviewFormat,
        #[command(flatten)]
        compat: LedgerCompatArgs,
    },
    /// Check the ledger's hash chain: exit 1 names every edited, deleted, inserted or
    /// reordered snapshot; exit 2 for an unreadable or corrupt file.
    Verify {
        #[command(flatten)]
        ledger: LedgerArgs,
        /// Also require the newest snapshot to have this SHA-256 (pinned elsewhere).
        #[arg(long, value_name = "SHA256")]
        expect_head: Option<String>,
        #[arg(long, value_enum, ignore_case = true, default_value = "table")]
        format: ReviewFormat,
    },
    /// Re-pin one reviewed skill in a pin file, leaving the other entries untouched.
    Approve {
        /// The skill's name.
        #[arg(value_name = "NAME")]
        name: String,
        /// The skill's folder, or a folder that contains it.
        #[arg(long, value_name = "DIR")]
        skill_path: PathBuf,
        /// The pin file (created if missing).
        #[arg(long, value_name = "FILE")]
        baseline: PathBuf,
        /// Note stored with this skill's pin.
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        #[command(flatten)]
        hashing: HashArgs,
    },
    /// Import AgentEval ledger snapshots (a folder or one file) or an AgentEval pin file.
    ImportAgenteval {
        /// AgentEval ledger folder, snapshot file or pin file.
        #[arg(value_name = "DIR|FILE")]
        input: PathBuf,
        #[command(flatten)]
        ledger: LedgerArgs,
        /// Where to write an imported pin file (merged when it exists).
        #[arg(long, value_name = "FILE")]
        pin_out: Option<PathBuf>,
    },
}

/// The AgentEval ledger under `--compat agenteval`: `--baseline-root`, else
/// `.agenteval/skills-baselines` under `--repo` or (as AgentEval) the current directory.
fn agenteval_root(ledger: &LedgerArgs) -> PathBuf {
    use crate::baseline::agenteval::default_root;
    match (&ledger.baseline_root, &ledger.repo) {
        (Some(r), _) => r.clone(),
        (None, Some(repo)) => repo.join(default_root(false)),
        (None, None) => default_root(false),
    }
}

/// Reads the AgentEval ledger, one stderr warning per file AgentEval would skip silently.
fn agenteval_ledger(
    ledger: &LedgerArgs,
    stderr: &mut dyn Write,
) -> Result<crate::baseline::agenteval::AeLedger, Error> {
    let l = crate::baseline::agenteval::load(&agenteval_root(ledger)).map_err(compat_err)?;
    for s in &l.skipped {
        writeln!(stderr, "{}", s.warning())?;
    }
    Ok(l)
}

fn compat_err(e: crate::baseline::agenteval::AeLedgerError) -> Error {
    match e {
        crate::baseline::agenteval::AeLedgerError::Io { source, .. }
            if source.kind() == io::ErrorKind::BrokenPipe =>
        {
            Error::Io(source)
        }
        e => Error::Compat(e.to_string()),
    }
}

/// AgentEval's `baseline` commands print text only.
fn refuse_format(format: ReviewFormat) -> Result<(), Error> {
    match format {
        ReviewFormat::Table => Ok(()),
        ReviewFormat::Json => Err(Error::Usage(
            "--format json has no AgentEval equivalent; drop it or --compat".into(),
        )),
    }
}

pub(super) fn run(
    cmd: BaselineCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    use crate::baseline::review;
    match cmd {
        BaselineCmd::List {
            ledger,
            format,
            compat,
        } => {
            if compat.resolve(&ledger)?.is_some() {
                refuse_format(format)?;
                let l = agenteval_ledger(&ledger, stderr)?;
                crate::baseline::agenteval::render_list(&l, stdout)?;
                return Ok(ExitStatus::Clean);
            }
            let l = ledger.ledger();
            let rows = review::list(&l)?;
            match format {
                ReviewFormat::Table => review::render_list(&rows, &l, stdout)?,
                ReviewFormat::Json => print_json(
                    stdout,
                    &serde_json::json!({ "version": 1, "ledger": l.root.display().to_string(), "snapshots": rows }),
                )?,
            }
            Ok(ExitStatus::Clean)
        }
        BaselineCmd::Diff {
            ledger,
            since,
            until,
            skill,
            hash,
            hashing,
            format,
            compat,
        } => {
            if compat.resolve(&ledger)?.is_some() {
                use crate::baseline::agenteval as ae;
                refuse_format(format)?;
                if until.is_some() {
                    return Err(Error::Usage(
                        "--until has no AgentEval equivalent (`baseline diff` compares with the newest snapshot); drop it or --compat".into(),
                    ));
                }
                if !hashing.is_default() {
                    return Err(Error::Usage(
                        "--normalize-eol and --hash-ignore* need per-file hashes, which an AgentEval ledger does not keep; drop them or --compat".into(),
                    ));
                }
                let kind = ae::HashKind::parse(&hash).map_err(compat_err)?;
                let l = agenteval_ledger(&ledger, stderr)?;
                ae::render_diff(
                    &l,
                    &agenteval_root(&ledger),
                    since.as_deref(),
                    skill.as_deref(),
                    kind,
                    stdout,
                )
                .map_err(compat_err)?;
                return Ok(ExitStatus::Clean);
            }
            let hash = HashArg::from_str(&hash, false).map_err(|_| {
                Error::Usage(format!(
                    "--hash {}: expected structural, content or files",
                    sanitize_line(&hash)
                ))
            })?;
            let l = ledger.ledger();
            let o = review::DiffOptions {
                since,
                until,
                skill,
                hash: match hash {
                    HashArg::Structural => review::HashKind::Structural,
                    HashArg::Content => review::HashKind::Content,
                    HashArg::Files => review::HashKind::Files,
                },
                hasher: if hashing.is_default() {
                    None
                } else {
                    Some(hashing.hasher()?)
                },
            };
            match (review::diff(&l, &o)?, format) {
                (review::DiffOutcome::Report(r), ReviewFormat::Table) => {
                    review::render_diff(&r, stdout)?
                }
                (review::DiffOutcome::Report(r), ReviewFormat::Json) => {
                    print_json(stdout, &serde_json::json!({ "version": 1, "diff": r }))?
                }
                (review::DiffOutcome::Evals(r), ReviewFormat::Table) => {
                    crate::baseline::evalsnap::render_diff(&r, stdout)?
                }
                (review::DiffOutcome::Evals(r), ReviewFormat::Json) => print_json(
                    stdout,
                    &serde_json::json!({ "version": 1, "diff": null, "evals_diff": r }),
                )?,
                (review::DiffOutcome::Nothing(m), ReviewFormat::Table) => writeln!(stdout, "{m}")?,
                (review::DiffOutcome::Nothing(m), ReviewFormat::Json) => print_json(
                    stdout,
                    &serde_json::json!({ "version": 1, "diff": null, "message": m }),
                )?,
            }
            Ok(ExitStatus::Clean)
        }
        BaselineCmd::History {
            skill,
            ledger,
            format,
            compat,
        } => {
            if compat.resolve(&ledger)?.is_some() {
                refuse_format(format)?;
                let l = agenteval_ledger(&ledger, stderr)?;
                crate::baseline::agenteval::render_history(&l, &skill, stdout)?;
                return Ok(ExitStatus::Clean);
            }
            let l = ledger.ledger();
            let r = review::history(&l, &skill)?;
            match format {
                ReviewFormat::Table => review::render_history(&r, stdout)?,
                ReviewFormat::Json => {
                    print_json(stdout, &serde_json::json!({ "version": 1, "history": r }))?
                }
            }
            Ok(ExitStatus::Clean)
        }
        BaselineCmd::Verify {
            ledger,
            expect_head,
            format,
        } => {
            let l = ledger.ledger();
            let mut v = crate::baseline::ledger::verify(&l)?;
            if let Some(want) = expect_head {
                let got = v.head.as_ref().map(|h| h.sha256.clone());
                if got.as_deref() != Some(want.trim().to_ascii_lowercase().as_str()) {
                    v.problems.push(crate::baseline::ledger::Problem {
                        kind: "head",
                        seq: v.head.as_ref().map(|h| h.seq),
                        file: None,
                        message: format!(
                            "the newest snapshot's SHA-256 is {}, not the expected {}: the ledger was rewritten or truncated",
                            got.as_deref().unwrap_or("(none)"),
                            sanitize_line(&want)
                        ),
                    });
                    v.head = None;
                }
            }
            match format {
                ReviewFormat::Table => review::render_verify(&v, &l, stdout)?,
                ReviewFormat::Json => print_json(
                    stdout,
                    &serde_json::json!({ "version": 1, "ledger": l.root.display().to_string(), "ok": v.ok(), "verification": v }),
                )?,
            }
            Ok(if v.ok() {
                ExitStatus::Clean
            } else {
                ExitStatus::Findings
            })
        }
        BaselineCmd::Approve {
            name,
            skill_path,
            baseline,
            note: pin_note,
            hashing,
        } => super::approve::approve(
            &name,
            &skill_path,
            &baseline,
            pin_note,
            &hashing,
            stdout,
            stderr,
        ),
        BaselineCmd::ImportAgenteval {
            input,
            ledger,
            pin_out,
        } => {
            let l = ledger.ledger();
            let r = crate::baseline::import::import_agenteval(&input, &l, pin_out.as_deref())?;
            if r.snapshots_imported + r.snapshots_skipped > 0 {
                writeln!(
                    stdout,
                    "imported {} AgentEval snapshot(s) ({} skill entries){} into {}{}",
                    r.snapshots_imported,
                    r.skill_entries,
                    match (r.first_seq, r.last_seq) {
                        (Some(a), Some(b)) if a != b => format!(" as #{a}–#{b}"),
                        (Some(a), _) => format!(" as #{a}"),
                        _ => String::new(),
                    },
                    sanitize_line(&l.root.display().to_string()),
                    if r.snapshots_skipped > 0 {
                        format!("; {} already imported, skipped", r.snapshots_skipped)
                    } else {
                        String::new()
                    }
                )?;
            }
            if let Some(p) = &pin_out
                && (r.pin_entries > 0 || !r.pin_conflicts.is_empty())
            {
                writeln!(
                    stdout,
                    "imported {} AgentEval pin(s) into {}",
                    r.pin_entries,
                    sanitize_line(&p.display().to_string())
                )?;
            }
            for c in &r.pin_conflicts {
                writeln!(
                    stderr,
                    "skillguard: pin `{}` already exists with other hashes; kept the existing one",
                    sanitize_line(c)
                )?;
            }
            Ok(ExitStatus::Clean)
        }
    }
}
