//! The report of the commands that list findings (`scan`, `scan-workspace`, `merge`): the
//! pipeline's outcome rendered in the format asked, to stdout or `-o FILE`, and the exit
//! status of its gates.

use std::io::{self, IsTerminal, Write};
use std::path::Path;

use super::args::{ReportArgs, ViewArgs};
use super::{Error, ExitStatus, started};
use crate::discover::Mode;
use crate::finding::Severity;
use crate::fsutil::write_atomic;
use crate::pipeline::Outcome;
use crate::report::{self, Format, RenderOptions};
use crate::text::sanitize_line;

/// Renders `outcome` (`threshold`: the severity gate, for the console's `--quiet` view and
/// the report's `fail_on`; `sign`: the key a JSON report is signed with,
/// [`crate::report::signature`]); the status follows the outcome's gates.
pub(super) fn emit_report(
    outcome: &Outcome,
    out: &ReportArgs,
    view_args: &ViewArgs,
    threshold: Option<Severity>,
    sign: Option<&[u8]>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let result = &outcome.result;
    let view = result;
    let gate = outcome.gate.clone();
    let opts = RenderOptions {
        color: view_args.color(out.output.as_deref()),
        fail_on: threshold,
        index: outcome.index.clone(),
        // `--quiet` lists what fails the gate (everything without one); counts stay whole.
        quiet: (out.quiet && out.format == Format::Console)
            .then(|| threshold.unwrap_or(Severity::Info)),
        show_suppressed: view_args.show_suppressed,
        group_by: view_args.group_by.unwrap_or(match out.format.get() {
            Format::Console => report::summary::GroupBy::Rule,
            _ => report::summary::GroupBy::Skill,
        }),
        max_per_rule: view_args.max_findings_per_rule,
        // The time only on a terminal: redirected output stays the same bytes run to run.
        elapsed: (out.output.is_none() && io::stdout().is_terminal()).then(|| started().elapsed()),
        gate: gate.clone(),
        repo_prefix: (out.format == Format::Sarif)
            .then(|| repo_prefix(view.mode, Path::new(&view.target)))
            .flatten(),
        max_bytes: match view_args.max_bytes {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(report::STEP_SUMMARY_LIMIT),
        },
    };
    let format = out.format.get();
    let render = |w: &mut dyn Write| match sign.filter(|_| format == Format::Json) {
        Some(key) => {
            let mut s = report::signature::Signer::new(w, key);
            report::render(format, view, &opts, &mut s)?;
            s.finish()
        }
        None => report::render(format, view, &opts, w),
    };
    match &out.output {
        Some(path) => {
            write_atomic(path, render).map_err(|e| Error::Output {
                path: path.display().to_string(),
                source: e,
            })?;
            if !out.quiet {
                writeln!(stderr, "skillguard: report written to {}", path.display())?;
            }
        }
        // A reader that stops early (`| head`) does not change the verdict: the gate
        // result below still decides the exit code.
        None => match render(stdout) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            other => other?,
        },
    }
    if !out.quiet && result.repos.iter().any(|g| g.repo.is_some()) && out.format != Format::Console
    {
        writeln!(stderr, "skillguard: repositories scanned:")?;
        for g in &result.repos {
            // Repository names are directory names from the scanned tree: sanitise them.
            let name = sanitize_line(g.repo.as_deref().unwrap_or("."));
            match &g.error {
                Some(e) => writeln!(stderr, "  {name}: SKIPPED ({})", sanitize_line(e))?,
                None => writeln!(
                    stderr,
                    "  {name}: {} skill(s), {} finding(s)",
                    g.skills, g.findings
                )?,
            }
        }
    }
    if !out.quiet && result.hidden_skipped > 0 {
        writeln!(
            stderr,
            "skillguard: {} hidden workspace entr(y/ies) skipped (e.g. .git)",
            result.hidden_skipped
        )?;
    }
    Ok(if gate.is_some_and(|g| g.failing) {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}

/// The scanned base's path inside the repository holding it (the nearest folder above it
/// with a `.git`), for SARIF URIs relative to the repository root. `None` when the base is
/// that root, for a workspace (each repository is a folder of it), or when no repository
/// holds it.
fn repo_prefix(mode: Mode, target: &Path) -> Option<String> {
    if mode == Mode::Workspace {
        return None;
    }
    let base = crate::baseline::record::scan_base(mode, target);
    let root = base
        .ancestors()
        .take(64)
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())?;
    let rel = base.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| crate::names::escape(c.as_os_str()).into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}
