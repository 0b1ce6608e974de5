//! The report of the commands that list findings (`scan`, `scan-workspace`, `merge`): the
//! pipeline's outcome rendered in the format asked, to stdout or `-o FILE`, and the exit
//! status of its gates.

use std::io::{self, IsTerminal, Write};
use std::path::Path;

use super::args::{ReportArgs, SarifArgs, ViewArgs};
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
#[allow(clippy::too_many_arguments)]
pub(super) fn emit_report(
    outcome: &Outcome,
    out: &ReportArgs,
    sarif: &SarifArgs,
    view_args: &ViewArgs,
    threshold: Option<Severity>,
    sign: Option<&[u8]>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let result = &outcome.result;
    let view = result;
    let gate = outcome.gate.clone();
    let mut opts = RenderOptions {
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
        // Wrapped at the terminal's width (`COLUMNS` first, as `ls` reads it), only on one.
        width: (out.output.is_none() && io::stdout().is_terminal()).then(terminal_width),
        gate: gate.clone(),
        repo_prefix: (out.format == Format::Sarif)
            .then(|| repo_prefix(view.mode, Path::new(&view.target)))
            .flatten(),
        max_bytes: match view_args.max_bytes {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(report::STEP_SUMMARY_LIMIT),
        },
        sarif: report::sarif::Scope {
            repo: None,
            max_results: sarif.max_results(),
            max_skill_indices: None,
        },
    };
    let format = out.format.get();
    // Console text, and the notes below, cannot start a CI workflow command (`::warning …`)
    // with a name taken from the scanned tree.
    let mut stderr = report::github::CommandGuard::new(stderr);
    let stderr: &mut dyn Write = &mut stderr;
    if sarif.split_by.is_some() {
        if result.mode != Mode::Workspace {
            return Err(Error::Usage(
                "--split-by repository applies to scan-workspace and merge".into(),
            ));
        }
        let dir = out
            .output
            .as_deref()
            .ok_or_else(|| Error::Usage("--split-by repository needs -o DIR".into()))?;
        split_sarif(result, &opts, dir, out.quiet, stderr)?;
    } else if format == Format::Sarif && !rewritable(out.output.as_deref()) {
        // Standard output, or a device, cannot be written twice: the cap is fitted first.
        opts.sarif = report::sarif::fit(view, &opts)?;
        let cap = opts.sarif.max_results;
        let sel = report::sarif::select(view, &opts.sarif);
        note_omitted(stderr, None, &sel, cap)?;
    }
    let render = |w: &mut dyn Write| match sign.filter(|_| format == Format::Json) {
        Some(key) => {
            let mut s = report::signature::Signer::new(w, key);
            report::render(format, view, &opts, &mut s)?;
            s.finish()
        }
        None if format == Format::Console => {
            let mut g = report::github::CommandGuard::new(w);
            report::render(format, view, &opts, &mut g)?;
            g.flush()
        }
        None => report::render(format, view, &opts, w),
    };
    match &out.output {
        _ if sarif.split_by.is_some() => {}
        Some(path) if format == Format::Sarif && rewritable(Some(path)) => {
            let (sel, cap) =
                report::sarif::write_fitting(view, &opts, |fill| write_atomic(path, |w| fill(w)))
                    .map_err(|e| Error::Output {
                    path: path.display().to_string(),
                    source: e,
                })?;
            note_omitted(stderr, None, &sel, cap)?;
            if !out.quiet {
                writeln!(stderr, "skillguard: report written to {}", path.display())?;
            }
        }
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

/// Whether `-o` names a file that a report can be written to twice (a regular file, or
/// nothing yet), rather than standard output, a device or a FIFO.
fn rewritable(output: Option<&Path>) -> bool {
    output.is_some_and(|p| std::fs::metadata(p).map_or(true, |m| m.is_file()))
}

/// The stderr line that says what a SARIF log left out (`repo`: the repository's log).
fn note_omitted(
    stderr: &mut dyn Write,
    repo: Option<&str>,
    sel: &report::sarif::Selection,
    cap: Option<usize>,
) -> io::Result<()> {
    let n = sel.omitted.total();
    if n == 0 {
        return Ok(());
    }
    let c = &sel.omitted;
    let by: Vec<String> = [
        ("critical", c.critical),
        ("high", c.high),
        ("medium", c.medium),
        ("low", c.low),
        ("info", c.info),
    ]
    .iter()
    .filter(|(_, k)| *k > 0)
    .map(|(s, k)| format!("{k} {s}"))
    .collect();
    let of = repo
        .map(|r| format!(" of {}", sanitize_line(r)))
        .unwrap_or_default();
    writeln!(
        stderr,
        "skillguard: SARIF{of}: {n} result(s) left out ({}) to stay within {} result(s) and {} bytes gzipped (GitHub code scanning's limits; --sarif-max-results sets the cap, 0 removes it)",
        by.join(", "),
        cap.unwrap_or(0),
        report::sarif::MAX_GZIP_BYTES,
    )
}

/// `--split-by repository`: one SARIF log per repository of the workspace, `DIR/NAME.sarif`
/// ([`split_file_name`]), each written atomically in place of whatever was there (a link
/// planted in `DIR` is replaced, never followed).
fn split_sarif(
    result: &crate::result::ScanResult,
    opts: &RenderOptions,
    dir: &Path,
    quiet: bool,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let mut taken = std::collections::BTreeSet::new();
    let mut written = 0usize;
    for g in &result.repos {
        let (Some(name), None) = (&g.repo, &g.error) else {
            continue;
        };
        let mut opts = opts.clone();
        opts.sarif.repo = Some(report::sarif::RepoScope {
            name: name.clone(),
            path: g.path.clone(),
        });
        let mut file = split_file_name(name);
        // Two names that differ only in case share a file on a case-insensitive disk.
        let stem = file.clone();
        let mut k = 1;
        while !taken.insert(file.to_lowercase()) {
            k += 1;
            file = format!("{stem}~{k}");
        }
        let path = dir.join(format!("{file}.sarif"));
        let (sel, cap) = report::sarif::write_fitting(result, &opts, |fill| {
            crate::fsutil::write_replacing(&path, |w| fill(w))
        })
        .map_err(|e| Error::Output {
            path: path.display().to_string(),
            source: e,
        })?;
        note_omitted(stderr, Some(name), &sel, cap)?;
        written += 1;
    }
    // Findings outside every repository written (the workspace's root, or a skipped
    // repository) have no repository to go to.
    let repos: std::collections::BTreeSet<&str> = result
        .repos
        .iter()
        .filter(|g| g.repo.is_some() && g.error.is_none())
        .map(|g| g.path.as_str())
        .collect();
    let outside = result
        .findings
        .iter()
        .chain(result.suppressed.iter().map(|s| &s.finding))
        .filter(|f| !repos.contains(f.location.path.split('/').next().unwrap_or("")))
        .count();
    if outside > 0 {
        writeln!(
            stderr,
            "skillguard: {outside} result(s) outside every repository are in no per-repository SARIF file (they are in the unsplit report)"
        )?;
    }
    if !quiet {
        writeln!(
            stderr,
            "skillguard: {written} SARIF file(s), one per repository, written to {}",
            dir.display()
        )?;
    }
    Ok(())
}

/// A repository's SARIF file name, without `.sarif`: the name's bytes outside letters,
/// digits, `-`, `_` and `.` percent-encoded (`%` too, so two names never share a file), a leading `.`
/// encoded (no hidden file, no `..`), and a long name cut and suffixed with its hash, so
/// that no name can leave the folder, hide or exceed a file name's length.
pub fn split_file_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, b) in name.bytes().enumerate() {
        match b {
            b'.' if i == 0 => out.push_str("%2E"),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    if out.is_empty() {
        return "%00".into();
    }
    if out.len() > 120 {
        let hash = crate::hash::sha256_hex(name.as_bytes());
        out.truncate(100);
        out.push('-');
        out.push_str(&hash[..16]);
    }
    out
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

/// The terminal's width in characters: `COLUMNS` when it is a number, else what the terminal
/// says, else 100.
fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&c| c > 0)
        .or_else(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0)))
        .unwrap_or(100)
}
