//! `skillguard merge`: the shards' reports joined by the pipeline, the checks that span
//! repositories recomputed, rendered and gated like a scan. Only the options that apply to
//! reports are taken: how a tree is walked, read, configured or baselined belongs to each
//! shard's `scan-workspace`, and clap refuses those options here. `--no-ignores` applies:
//! what the shards suppressed or accepted is reported again. With `SKILLGUARD_SHARD_KEY` set,
//! every report must carry a valid signature (docs/ci.md).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::args::{GateArgs, IndexArgs, ReportArgs, SarifArgs, SelectArgs, ViewArgs};
use super::render::emit_report;
use super::{Error, ExitStatus, note};
use crate::pipeline::{self, PolicyInput, Request, Source};

#[derive(Debug, Args)]
pub struct MergeCmd {
    /// JSON reports of `scan-workspace --shard K/N --format json`, one per shard.
    #[arg(value_name = "REPORT.json", required = true)]
    pub reports: Vec<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub sarif: SarifArgs,
    #[command(flatten)]
    pub view: ViewArgs,
    #[command(flatten)]
    pub gates: GateArgs,
    /// The shards' rule selection: give merge the `--select`/`--ignore` the shards had, and
    /// the recomputed rules follow it too.
    #[command(flatten)]
    pub select: SelectArgs,
    #[command(flatten)]
    pub index: IndexArgs,
    /// The findings the shards suppressed or accepted are reported again (and gated on), as
    /// a scan with `--no-ignores` reports them.
    #[arg(long, help_heading = "Policy")]
    pub no_ignores: bool,
    /// Merge reports of different runs (another workspace listing, other options, another
    /// shard plan, or no run identity), with a note, instead of refusing them. The merged
    /// report then carries no run identity.
    #[arg(long)]
    pub allow_mixed_runs: bool,
}

/// `skillguard merge`.
pub(super) fn run(
    cmd: &MergeCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    cmd.report.format.check()?;
    cmd.sarif.check_output(&cmd.report)?;
    let threshold = cmd.gates.threshold_with(None);
    let key = crate::report::signature::key_from_env().map_err(Error::Usage)?;
    let mut request = Request::new(Source::Reports {
        paths: &cmd.reports,
        options: crate::merge::Options {
            allow_mixed_runs: cmd.allow_mixed_runs,
            key,
        },
    });
    request.policy = PolicyInput {
        select: cmd.select.select.clone(),
        ignore: cmd.select.ignore.clone(),
        min_confidence: cmd.select.min_confidence.map(Into::into),
        no_ignores: cmd.no_ignores,
        // The shards applied their configuration and accepted findings.
        no_config: true,
        accepted: pipeline::Accepted::Skip,
        ..PolicyInput::default()
    };
    request.trace = cmd.index.read_trace()?;
    request.eval_results = cmd.index.read_eval_results()?;
    request.gates = cmd.gates.gates(threshold);
    let outcome = pipeline::run(request)?;
    note(stderr, cmd.report.quiet, &outcome.notes)?;
    emit_report(
        &outcome,
        &cmd.report,
        &cmd.sarif,
        &cmd.view,
        threshold,
        None,
        stdout,
        stderr,
    )
}
