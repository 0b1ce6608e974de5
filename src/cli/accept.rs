//! `skillguard accept`: today's findings (after the configuration's rules and suppressions)
//! become accepted, keeping the reasons of entries accepted before. The findings are the
//! pipeline's, as `scan` reports them: what `scan` reports, `accept` records.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::args::{
    ConfigArgs, HashArgs, LoaderArgs, SelectArgs, TargetArgs, WalkArgs, scan_options,
};
use super::{Error, ExitStatus, note};
use crate::discover::Mode;
use crate::fsutil::write_atomic;
use crate::pipeline::{self, PolicyInput, Request, Source};
use crate::text::sanitize_line;

#[derive(Debug, Args)]
pub struct AcceptCmd {
    /// Why the findings of today are accepted (stored with each new entry).
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    #[command(flatten)]
    pub target: TargetArgs,
    /// The accepted findings file to write (default: `.skillguard/accepted.json` under the
    /// repository or workspace root).
    #[arg(long, value_name = "FILE", help_heading = "Policy")]
    pub accepted: Option<PathBuf>,
    /// Ledger directory whose history tells copies that drifted from ones that never shared
    /// content (default: `.skillguard/ledger` under the repository).
    #[arg(long, value_name = "DIR", help_heading = "Baseline")]
    pub baseline_root: Option<PathBuf>,
    #[command(flatten)]
    pub walk: WalkArgs,
    #[command(flatten)]
    pub loaders: LoaderArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    #[command(flatten)]
    pub hashing: HashArgs,
}

/// `skillguard accept`.
pub(super) fn run(cmd: &AcceptCmd, stderr: &mut dyn Write) -> Result<ExitStatus, Error> {
    // `skillguard accept` alone accepts the git repository holding the current directory,
    // as the adoption path of the README runs it; outside any repository it refuses (run
    // from a home folder it once scanned the whole tree and accepted 67,000 findings)
    // unless the root is given.
    let (mode, target) = if cmd.target.repo.is_none() && cmd.target.paths.is_empty() {
        let cwd = std::env::current_dir()?;
        let root = cwd
            .ancestors()
            .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
            .ok_or_else(|| {
                Error::Usage(format!(
                    "accept: {} is not inside a git repository (no .git here or above); give the root to accept with --repo ROOT",
                    sanitize_line(&cwd.display().to_string())
                ))
            })?;
        let target = if root == cwd {
            PathBuf::from(".")
        } else {
            root.to_path_buf()
        };
        (Mode::Repo, target)
    } else {
        cmd.target.target()?
    };
    if cmd
        .reason
        .as_deref()
        .is_some_and(|r| !crate::text::has_visible(r))
    {
        return Err(Error::Usage(
            "--reason gives no reason: blanks and invisible characters are not one".into(),
        ));
    }
    if mode == Mode::Repo && !cmd.target.paths.is_empty() {
        return Err(Error::Usage(
            "accept records every finding of the repository; it takes no changed files".into(),
        ));
    }
    let operator = cmd.config.operator(mode, &target)?;
    let opts = scan_options(
        &cmd.walk,
        &cmd.loaders,
        &cmd.hashing,
        &cmd.select,
        false,
        operator.as_ref().map(|c| &c.0),
    )?;
    let cx = crate::baseline::Context::new(
        mode,
        &target,
        cmd.baseline_root.as_deref(),
        cmd.hashing.hasher()?,
    );
    let home = crate::baseline::record::home(mode, &target);
    let path = cmd
        .accepted
        .clone()
        .unwrap_or_else(|| home.join(crate::policy::ACCEPTED_FILE));
    let previous = match &cmd.accepted {
        Some(_) => crate::policy::read_accepted_named(&path)?,
        None => crate::policy::read_accepted(&path)?,
    };
    let mut request = Request::new(Source::Tree {
        mode,
        target: &target,
        options: opts,
    });
    request.context = Some(&cx);
    request.policy = PolicyInput {
        select: cmd.select.select.clone(),
        ignore: cmd.select.ignore.clone(),
        min_confidence: cmd.select.min_confidence.map(Into::into),
        operator,
        no_config: cmd.config.no_config,
        // The list is what is being written.
        accepted: pipeline::Accepted::Skip,
        ..PolicyInput::default()
    };
    let outcome = pipeline::run(request)?;
    // Only the warnings (a ledger that could not be read): the findings go to the file.
    note(stderr, true, &outcome.notes)?;
    let mut result = outcome.result;
    // Policy findings police the configuration itself: never accepted.
    result.findings.retain(|f| f.category != "policy");
    // What was not read cannot be vetted: its fingerprint does not change when the unread
    // bytes do, so an acceptance would let any later content through.
    let unread = result
        .findings
        .iter()
        .filter(|f| f.rule_id == crate::rules::ids::CONTENT_NOT_INSPECTED)
        .count();
    result
        .findings
        .retain(|f| f.rule_id != crate::rules::ids::CONTENT_NOT_INSPECTED);
    if unread > 0 {
        writeln!(
            stderr,
            "skillguard: {unread} `content-not-inspected` finding(s) not accepted: what was not read cannot be vetted, and a change of the unread bytes would not re-open it. Lower one for its path in the operator's `.skillguard.toml`, with a reason (docs/suppressions.md)."
        )?;
    }
    let reason = cmd
        .reason
        .clone()
        .unwrap_or_else(|| "accepted when skillguard was adopted".into());
    let mut file = crate::policy::AcceptedFile::from_findings(&result.findings, &reason);
    if let Some(old) = &previous {
        for e in &mut file.findings {
            if let Ok(i) = old
                .findings
                .binary_search_by(|o| o.fingerprint.cmp(&e.fingerprint))
                && cmd.reason.is_none()
            {
                e.reason = old.findings[i].reason.clone();
            }
        }
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::baseline::ledger::ensure_dir(dir, Some(&home))?;
    }
    let _lock = crate::fsutil::lock_beside(&path).map_err(|source| Error::Output {
        path: path.display().to_string(),
        source,
    })?;
    let bytes = file.to_bytes();
    write_atomic(&path, |w| w.write_all(&bytes)).map_err(|source| Error::Output {
        path: path.display().to_string(),
        source,
    })?;
    let before = previous.map_or(0, |p| p.findings.len());
    writeln!(
        stderr,
        "skillguard: {} finding(s) accepted ({} before) -> {}",
        file.findings.len(),
        before,
        path.display()
    )?;
    Ok(ExitStatus::Clean)
}
