//! `skillguard evals …`: evaluations of skills and agents. Each sub-subcommand is one
//! variant of [`EvalsCmd`] and one arm of [`run`]; the work is in `crate::evals`.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::{Error, ExitStatus};
use crate::baseline::evalsnap;
use crate::baseline::ledger::Ledger;
use crate::baseline::record;
use crate::evals::grade::{self, GradeOptions};
use crate::fsutil::write_atomic;

#[derive(Debug, Subcommand)]
pub enum EvalsCmd {
    /// Grade sample outputs against an agent-evals `evals.json`: pass@k and pass^k per case
    /// and per set, gates (exit 1 when one fails), `--compare` with a previous result.
    Grade(GradeCmd),
    /// Check every tool call of the transcripts against an agent's declared `tools:`
    /// (Waza's tool_constraint). Exit 1 when a call is outside the policy.
    Tools(super::evals_tools::ToolsCmd),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RegexDialect {
    Dotnet,
    Rust,
}

impl From<RegexDialect> for grade::Dialect {
    fn from(d: RegexDialect) -> Self {
        match d {
            RegexDialect::Dotnet => grade::Dialect::Dotnet,
            RegexDialect::Rust => grade::Dialect::Rust,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GradeProfile {
    /// What the agent-evals runner (`run-evals.ps1`) does: case-insensitive matching,
    /// `exact` trimmed, `contains` a wildcard match, every `sample-*.txt`, k = 5, only
    /// `capability`/`regression` cases gate.
    AgentEvals,
    /// skillguard's stricter reading (`--strict`).
    Strict,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GradeFormat {
    Console,
    Json,
    #[value(alias = "md")]
    Markdown,
}

fn score(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is outside 0..=1"))
    }
}

#[derive(Debug, Args)]
pub struct GradeCmd {
    /// The agent-evals case file (`{"cases":[{"id","set","prompt","expect","match"}]}`).
    #[arg(value_name = "EVALS")]
    pub evals: PathBuf,
    /// Folder of sample outputs: `DIR/<case-id>/sample-<n>.txt`, n = 1, 2, ….
    #[arg(long, value_name = "DIR")]
    pub outputs: PathBuf,
    /// How cases and samples are read and matched: `agent-evals` (default) does what the
    /// agent-evals runner does; `strict` is skillguard's stricter reading (docs/evals.md has
    /// the table).
    #[arg(long, value_enum, ignore_case = true, default_value = "agent-evals")]
    pub profile: GradeProfile,
    /// The same as `--profile strict`: validated cases, `sample-<n>.txt` numbering (a gap is
    /// a failed sample), case-sensitive matching, the unbiased estimators.
    #[arg(long)]
    pub strict: bool,
    /// Samples per case that are scored. `agent-evals`: 5 when not given; pass^k needs at
    /// least k samples, all passing. `strict`: every sample of each case when not given; with
    /// more samples than k the unbiased estimators are used; k above a case's sample count is
    /// an error (exit 2).
    #[arg(short = 'k', value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub k: Option<u32>,
    /// Gate of the capability set: its mean pass@k must reach X (0..=1; default 1: every
    /// capability case is solved at least once in k samples; 0 reports only).
    #[arg(long, value_name = "X", default_value = "1", value_parser = score)]
    pub min_capability: f64,
    /// Gate of the regression set: its mean pass^k must reach Y (0..=1).
    #[arg(long, value_name = "Y", default_value = "1", value_parser = score)]
    pub min_regression: f64,
    /// Dialect of `match: regex` patterns: `dotnet` (the harness's: look-around,
    /// back-references, `$` before a final newline; bounded backtracking) or `rust`.
    #[arg(long, value_enum, ignore_case = true, default_value = "dotnet")]
    pub regex_dialect: RegexDialect,
    /// A previous JSON result: every case whose pass^k dropped, and every regression case
    /// that disappeared, is named and fails the run (exit 1).
    #[arg(long, value_name = "PREVIOUS.json")]
    pub compare: Option<PathBuf>,
    #[arg(long, value_enum, ignore_case = true, default_value = "console")]
    pub format: GradeFormat,
    /// Write the result to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Append the result to the baseline ledger as an eval snapshot, keyed by the evals
    /// file's path relative to the repository (after the result is written; also when a
    /// gate fails). `skillguard baseline history|diff|list|verify` show and check it.
    #[arg(long, help_heading = "Ledger")]
    pub record: bool,
    /// Ledger directory (default: `.skillguard/ledger` under the repository).
    #[arg(long, value_name = "DIR", requires = "record", help_heading = "Ledger")]
    pub baseline_root: Option<PathBuf>,
    /// The repository the key is relative to (default: the git repository that contains
    /// the evals file, else the current directory's).
    #[arg(
        long,
        value_name = "ROOT",
        requires = "record",
        help_heading = "Ledger"
    )]
    pub repo: Option<PathBuf>,
    /// Note stored with the eval snapshot.
    #[arg(
        long,
        value_name = "TEXT",
        requires = "record",
        help_heading = "Ledger"
    )]
    pub baseline_note: Option<String>,
}

pub fn run(
    cmd: EvalsCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    match cmd {
        EvalsCmd::Grade(cmd) => run_grade(&cmd, stdout, stderr),
        EvalsCmd::Tools(cmd) => super::evals_tools::run_tools(&cmd, stdout),
    }
}

fn run_grade(
    cmd: &GradeCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let opts = GradeOptions {
        k: cmd.k,
        min_capability: cmd.min_capability,
        min_regression: cmd.min_regression,
        dialect: cmd.regex_dialect.into(),
        profile: if cmd.strict || cmd.profile == GradeProfile::Strict {
            grade::Profile::Strict
        } else {
            grade::Profile::AgentEvals
        },
    };
    let mut report = grade::grade(&cmd.evals, &cmd.outputs, &opts)?;
    for w in &report.warnings {
        writeln!(
            stderr,
            "skillguard: warning: {}",
            crate::text::sanitize_line(w)
        )?;
    }
    for a in grade::advisories(&report) {
        writeln!(stderr, "skillguard: advisory: {a}")?;
    }
    // Where the result goes, worked out before anything is written, so a bad --repo fails
    // the run with nothing written.
    let record = if cmd.record {
        let place = evalsnap::place(&cmd.evals, cmd.repo.as_deref()).map_err(Error::Usage)?;
        Some((place, grade::evals_sha256(&cmd.evals)?))
    } else {
        None
    };
    if let Some(prev) = &cmd.compare {
        grade::compare(&mut report, prev)?;
    }
    let render = |w: &mut dyn Write| match cmd.format {
        GradeFormat::Console => grade::render_console(&report, w),
        GradeFormat::Json => grade::render_json(&report, w),
        GradeFormat::Markdown => grade::render_markdown(&report, w),
    };
    match &cmd.output {
        Some(path) => write_atomic(path, render).map_err(|source| Error::Output {
            path: path.display().to_string(),
            source,
        })?,
        None => render(stdout)?,
    }
    // Recorded only once the result is out, as `scan --write-baseline` does.
    if let Some((place, sha)) = record {
        let ledger = match &cmd.baseline_root {
            // A chosen ledger inside the evaluated repository is guarded as the default one.
            Some(r) => Ledger::guarded(r.clone(), &place.home),
            None => Ledger::guarded(record::default_ledger_root(&place.home), &place.home),
        };
        let draft = evalsnap::draft(&report, &place, sha, cmd.baseline_note.clone());
        let a = ledger.append(draft)?;
        writeln!(
            stderr,
            "eval snapshot #{} ({}) saved: {} -> {}",
            a.seq,
            a.id,
            crate::text::sanitize_line(&place.key),
            a.path.display()
        )?;
    }
    Ok(if report.passed {
        ExitStatus::Clean
    } else {
        ExitStatus::Findings
    })
}
