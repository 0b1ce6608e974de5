//! Command-line interface: one module per command, each with its own clap `Args` built from
//! the shared option groups of [`args`] (so clap refuses an option that does not apply to a
//! command), running [`crate::pipeline`] and rendering its outcome. `main.rs` only maps the
//! result to a process exit code.

use std::io::{self, Write};

use clap::{Parser, Subcommand};

use crate::catalog;
use crate::text::sanitize_line;

mod accept;
mod agenteval;
mod approve;
pub mod args;
mod baseline;
mod coverage;
mod evals;
mod evals_tools;
mod generate;
mod init;
mod merge;
mod plan;
mod progress;
mod render;
mod rules;
mod scan;
pub use accept::AcceptCmd;
pub use baseline::{BaselineCmd, LedgerArgs, LedgerCompatArgs, ReviewFormat};
pub use evals::EvalsCmd;
pub use generate::{CompletionsCmd, ManCmd};
pub use init::InitCmd;
pub use merge::MergeCmd;
pub use render::split_file_name;
pub use rules::{ExplainCmd, RulesCmd};
pub use scan::{ScanCmd, WorkspaceCmd};

/// skillguard: security and compliance scanner for AI-agent skill repositories.
#[derive(Debug, Parser)]
#[command(name = "skillguard", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Scan a skill, a skills root (PATH) or a whole repository (--repo ROOT).
    Scan(ScanCmd),
    /// Scan every immediate non-hidden subdirectory of DIR as a repository.
    ScanWorkspace(WorkspaceCmd),
    /// List the rule catalog.
    Rules(RulesCmd),
    /// Print a rule's documentation.
    Explain(ExplainCmd),
    /// List the loader profiles and what each emulates.
    Loaders,
    /// Review and manage baselines: the snapshot ledger and pin files.
    #[command(subcommand)]
    Baseline(BaselineCmd),
    /// Write a commented starter `.skillguard.toml`.
    Init(InitCmd),
    /// Accept today's findings: write their fingerprints to `.skillguard/accepted.json`, so
    /// the gates count only new ones (default: the git repository holding the current
    /// directory; outside one, give the root with --repo ROOT).
    Accept(AcceptCmd),
    /// Merge the JSON reports of `scan-workspace --shard K/N` into one report, the checks
    /// that span repositories (drift, name collisions, look-alike names) recomputed over all.
    Merge(MergeCmd),
    /// Plan balanced shards of a workspace: its repositories weighed (bytes on disk, or an
    /// earlier report with --weights) and assigned the costliest first; `--list K` prints the
    /// repositories shard K needs (`scan-workspace --plan FILE --shard K`).
    Plan(plan::PlanCmd),
    /// Which skills and agents have evals: eval files, cases per set, trigger tests and
    /// graders of each, the ones without any, and percentages (`--fail-under-coverage N`).
    Coverage(coverage::CoverageCmd),
    /// Evaluations: grade sample outputs against an `evals.json` (pass@k, pass^k, gates), and
    /// check transcripts against an agent's `tools:` (`evals tools`).
    #[command(subcommand)]
    Evals(EvalsCmd),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish) to stdout.
    Completions(CompletionsCmd),
    /// Print the man page (roff) of skillguard or of one subcommand to stdout.
    Man(ManCmd),
}

/// Outcome of a command, mapped to the exit code by `main`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: nothing reached the threshold.
    Clean,
    /// 1: at least one finding at or above the threshold.
    Findings,
}

/// Errors that end a command with exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Discover(#[from] crate::discover::DiscoverError),
    #[error("unknown rule `{}`{}; run `skillguard rules` for the list", sanitize_line(.0), catalog::did_you_mean(.0))]
    UnknownRule(String),
    #[error("cannot write report to {path}: {source}")]
    Output { path: String, source: io::Error },
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error("invalid option: {0}")]
    Usage(String),
    #[error(transparent)]
    Baseline(#[from] crate::baseline::BaselineError),
    #[error(transparent)]
    Ledger(#[from] crate::baseline::ledger::LedgerError),
    #[error(transparent)]
    Pin(#[from] crate::baseline::pin::PinError),
    #[error(transparent)]
    Import(#[from] crate::baseline::import::ImportError),
    /// An unreadable or malformed `--trace` file (the message names it).
    #[error("{0}")]
    Trace(String),
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Accepted(#[from] crate::policy::AcceptedError),
    #[error(transparent)]
    Merge(#[from] crate::merge::MergeError),
    #[error(transparent)]
    Evals(#[from] crate::evals::grade::GradeError),
    #[error(transparent)]
    EvalsTools(#[from] evals_tools::EvalsError),
    /// A runtime error under `--compat agenteval`: exit 3, printed as AgentEval prints it
    /// (`  Error: {message}` on stderr).
    #[error("{0}")]
    Compat(String),
}

impl Error {
    /// The process exit code: 3 for an AgentEval-compatible runtime error, else 2.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Compat(_) => 3,
            _ => 2,
        }
    }
}

impl From<crate::pipeline::Error> for Error {
    fn from(e: crate::pipeline::Error) -> Error {
        use crate::pipeline::Error as P;
        match e {
            P::Usage(m) => Error::Usage(m),
            P::Discover(e) => Error::Discover(e),
            P::Baseline(e) => Error::Baseline(e),
            P::Config(e) => Error::Config(e),
            P::Accepted(e) => Error::Accepted(e),
            P::Merge(e) => Error::Merge(e),
        }
    }
}

/// When this process started (the first call), for the console header's time.
pub fn started() -> std::time::Instant {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *START.get_or_init(std::time::Instant::now)
}

/// Prints notes to stderr; with `--quiet` only the warnings (a gate that compared against
/// nothing must never pass without a word).
fn note(stderr: &mut dyn Write, quiet: bool, notes: &[String]) -> io::Result<()> {
    for n in notes {
        if !quiet || n.starts_with(crate::baseline::WARNING) {
            writeln!(stderr, "skillguard: {}", sanitize_line(n))?;
        }
    }
    Ok(())
}

fn print_json(out: &mut dyn Write, v: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, v).map_err(io::Error::from)?;
    writeln!(out)
}

/// Runs a parsed command line.
pub fn run(cli: Cli, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Result<ExitStatus, Error> {
    started();
    match cli.command {
        Command::Scan(cmd) => scan::run_scan(&cmd, stdout, stderr),
        Command::ScanWorkspace(cmd) => scan::run_workspace(&cmd, stdout, stderr),
        Command::Init(cmd) => init::run(&cmd, stderr),
        Command::Accept(cmd) => accept::run(&cmd, stderr),
        Command::Merge(cmd) => merge::run(&cmd, stdout, stderr),
        Command::Plan(cmd) => plan::run(&cmd, stdout, stderr),
        Command::Coverage(cmd) => coverage::run(&cmd, stdout, stderr),
        Command::Baseline(cmd) => baseline::run(cmd, stdout, stderr),
        Command::Evals(cmd) => evals::run(cmd, stdout, stderr),
        Command::Completions(cmd) => generate::completions(&cmd, stdout),
        Command::Man(cmd) => generate::man(&cmd, stdout),
        Command::Rules(cmd) => rules::list(&cmd, stdout),
        Command::Loaders => rules::loaders(stdout),
        Command::Explain(cmd) => rules::explain(&cmd, stdout),
    }
}
