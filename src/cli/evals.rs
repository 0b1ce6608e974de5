//! `skillguard evals …`: evaluations of skills and agents. Each sub-subcommand is one
//! variant of [`EvalsCmd`] and one arm of [`run`]; the work is in `crate::evals`.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::{Error, ExitStatus};
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
pub enum GradeFormat {
    Console,
    Json,
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
    /// Samples per case that are scored (default: every sample of each case). With more
    /// samples than k the unbiased estimators are used; k above a case's sample count is an
    /// error (exit 2).
    #[arg(short = 'k', value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub k: Option<u32>,
    /// Gate of the capability set: its mean pass@k must reach X (0..=1; 0 reports only).
    #[arg(long, value_name = "X", default_value = "0", value_parser = score)]
    pub min_capability: f64,
    /// Gate of the regression set: its mean pass^k must reach Y (0..=1).
    #[arg(long, value_name = "Y", default_value = "1", value_parser = score)]
    pub min_regression: f64,
    /// A previous JSON result: every case whose pass^k dropped, and every regression case
    /// that disappeared, is named and fails the run (exit 1).
    #[arg(long, value_name = "PREVIOUS.json")]
    pub compare: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "console")]
    pub format: GradeFormat,
    /// Write the result to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(cmd: EvalsCmd, stdout: &mut dyn Write) -> Result<ExitStatus, Error> {
    match cmd {
        EvalsCmd::Grade(cmd) => run_grade(&cmd, stdout),
        EvalsCmd::Tools(cmd) => super::evals_tools::run_tools(&cmd, stdout),
    }
}

fn run_grade(cmd: &GradeCmd, stdout: &mut dyn Write) -> Result<ExitStatus, Error> {
    let opts = GradeOptions {
        k: cmd.k,
        min_capability: cmd.min_capability,
        min_regression: cmd.min_regression,
    };
    let mut report = grade::grade(&cmd.evals, &cmd.outputs, &opts)?;
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
    Ok(if report.passed {
        ExitStatus::Clean
    } else {
        ExitStatus::Findings
    })
}
