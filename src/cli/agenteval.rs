//! `--compat agenteval` for `scan` and `scan-workspace`: one option set and one renderer over
//! the pipeline's outcome. AgentEval's report (`report::agenteval`), its stderr summary, its
//! exit codes (3 for a runtime error), its ledger (`.agenteval/skills-baselines`) and its pin
//! format replace skillguard's own; see docs/migrating-from-agenteval.md.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::args::{ConfigArgs, ReportArgs};
use super::{Error, ExitStatus};
use crate::discover::Mode;
use crate::fsutil::write_atomic;
use crate::report::Format;
use crate::result::ScanResult;
use crate::text::sanitize_line;

/// Under `--compat agenteval`, an error of the command is AgentEval's exit 3 with its
/// `  Error: {message}` line ([`Error::Compat`]); otherwise it stays an error (exit 2).
pub(super) fn compat_outcome(
    compat: bool,
    outcome: Result<ExitStatus, Error>,
) -> Result<ExitStatus, Error> {
    match outcome {
        Err(e)
            if compat
                && !matches!(&e, Error::Compat(_))
                && !matches!(&e, Error::Io(io) if io.kind() == io::ErrorKind::BrokenPipe) =>
        {
            // AgentEval's text is the message alone, without skillguard's "invalid option: ".
            let msg = match e {
                Error::Usage(m) => m,
                e => e.to_string(),
            };
            Err(Error::Compat(msg))
        }
        other => other,
    }
}

/// Whether a scan runs under `--compat agenteval`: the flag, else the operator's
/// configuration (read here only to decide how errors are reported).
pub(super) fn compat_of(
    mode: Mode,
    target: &Path,
    compat: Option<crate::config::Compat>,
    config: &ConfigArgs,
) -> Option<crate::config::Compat> {
    compat.or_else(|| {
        config
            .operator(mode, target)
            .ok()
            .flatten()
            .and_then(|o| o.0.compat)
    })
}

/// The gates of a report under `--compat agenteval`.
pub(super) struct AeGates {
    /// `--fail-on-noncompliant`: AgentEval's gate (a High finding of its rules).
    pub noncompliant: bool,
    /// skillguard's own gates (`--fail-on`, `--fail-on-drift`, `--fail-under-index`) tripped.
    pub own_failing: bool,
}

/// The report under `--compat agenteval` (`report::agenteval`): AgentEval's formats and rules,
/// a note counting what it leaves out, and its gate (`--fail-on-noncompliant`: a High finding
/// of its rules), with skillguard's own gates (`--fail-on`, `--fail-on-drift`,
/// `--fail-under-index`) still honoured when given.
pub(super) fn emit_agenteval(
    result: &ScanResult,
    common: &ReportArgs,
    gates: AeGates,
    target: &Path,
    vetted: Option<crate::report::agenteval::Vetted<'_>>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(ExitStatus, crate::report::agenteval::Converted), Error> {
    use crate::report::agenteval::{self as ae, AeFormat};
    let format = match common.format.format {
        Some(Format::Console) => AeFormat::Console,
        Some(Format::Markdown) => AeFormat::Markdown,
        Some(Format::Json) => AeFormat::Json,
        _ => {
            return Err(Error::Usage(format!(
                "Unknown --format '{}'. Use console, markdown (md) or json.",
                sanitize_line(&common.format.raw)
            )));
        }
    };
    let base = ae::full_path(target)?;
    let scan_base = crate::baseline::record::scan_base(result.mode, target);
    let conv = ae::convert(result, &base, &scan_base, vetted);
    agenteval_summary(result, &conv, target, stderr)?;
    match &common.output {
        Some(path) => {
            write_atomic(path, |w| ae::render(&conv.report, format, false, w)).map_err(|e| {
                Error::Output {
                    path: path.display().to_string(),
                    source: e,
                }
            })?;
            let full = ae::full_path(path).unwrap_or_else(|_| path.clone());
            writeln!(stderr, "  Report written to: {}", full.display())?;
        }
        None => match ae::render(&conv.report, format, true, stdout) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            other => other?,
        },
    }
    if conv.omitted > 0 && !common.quiet {
        writeln!(
            stderr,
            "skillguard: --compat agenteval: {} finding(s) of skillguard's own checks are not in this report (AgentEval has no rule for them); run without --compat to see them",
            conv.omitted
        )?;
    }
    let failing = (gates.noncompliant && !conv.report.is_compliant) || gates.own_failing;
    let status = if failing {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    };
    Ok((status, conv))
}

/// AgentEval's stderr summary of a repository scan (every convention in its order,
/// with its skills and findings, or "not present") or of a workspace (per repository).
fn agenteval_summary(
    result: &ScanResult,
    conv: &crate::report::agenteval::Converted,
    target: &Path,
    stderr: &mut dyn Write,
) -> io::Result<()> {
    let count = |repo: Option<&str>, c: &str| {
        conv.per_root
            .get(&(repo.map(str::to_owned), c.to_owned()))
            .copied()
            .unwrap_or_default()
    };
    match result.mode {
        Mode::Repo => {
            writeln!(stderr, "  Repo-wide skill directory conventions:")?;
            for c in crate::loaders::maf::ROOTS {
                if target.join(c).is_dir() {
                    let (n, m) = count(None, c);
                    writeln!(stderr, "    {c}: {n} skill(s), {m} finding(s)")?;
                } else {
                    writeln!(stderr, "    {c}: not present")?;
                }
            }
        }
        Mode::Workspace => {
            writeln!(stderr, "  Workspace repos scanned:")?;
            if result.repos.is_empty() {
                writeln!(stderr, "    (no subdirectories found)")?;
            }
            for g in &result.repos {
                let name = sanitize_line(g.repo.as_deref().unwrap_or("."));
                match &g.error {
                    Some(e) => writeln!(
                        stderr,
                        "    {name}: SKIPPED — could not scan ({})",
                        sanitize_line(e)
                    )?,
                    None => {
                        let (n, m) = crate::loaders::maf::ROOTS
                            .iter()
                            .map(|c| count(g.repo.as_deref(), c))
                            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
                        writeln!(stderr, "    {name}: {n} skill(s), {m} finding(s)")?;
                    }
                }
            }
        }
        Mode::Path => {}
    }
    Ok(())
}

/// AgentEval's `--write-baseline` snapshot of a compat scan: one entry per skill MAF
/// loaded, with the validator findings of its name.
pub(super) fn agenteval_snapshot(
    result: &ScanResult,
    conv: &crate::report::agenteval::Converted,
    target: &Path,
) -> Result<crate::baseline::agenteval::AeSnapshot, Error> {
    use crate::baseline::agenteval as ael;
    use crate::report::agenteval as ae;
    let skills = conv
        .loaded
        .iter()
        .map(|&i| {
            let a = &result.artifacts[i];
            let name = conv.views.maf_name(a).unwrap_or_default().to_owned();
            let compliance_findings = conv
                .report
                .findings
                .iter()
                .filter(|f| f.rule <= 11 && f.skill_name == name)
                .map(|f| ael::AeFinding {
                    skill_name: f.skill_name.clone(),
                    rule: f.rule,
                    severity: f.severity,
                    message: f.message.clone(),
                    field: f.field.map(str::to_owned),
                })
                .collect();
            let p = a.provenance.as_ref();
            ael::AeEntry {
                name,
                source_kind: ael::SOURCE_KIND_FILE,
                relative_path: ae::relative_path(a),
                structural_fingerprint: a.structural_fingerprint.clone().unwrap_or_default(),
                content_hash: a.agenteval_content_hash.clone(),
                source: p.and_then(|p| p.source.clone()),
                source_url: p.and_then(|p| p.source_url.clone()),
                reference: p.and_then(|p| p.git_ref.clone()),
                compliance_findings,
            }
        })
        .collect();
    Ok(ael::AeSnapshot {
        id: ael::new_snapshot_id(),
        captured_at: chrono::Utc::now(),
        scanned_root: ae::full_path(target)?.display().to_string(),
        skills,
    })
}

/// What `--compat agenteval` changes in a scan's baseline steps: AgentEval's ledger (its
/// location and format) replaces skillguard's, and its pin file is AgentEval's
/// `SkillManifestBaseline` (read either way; written in AgentEval's format after the report).
pub(super) struct CompatRun {
    /// The ledger's root, whether to write a snapshot and whether to check against it.
    ledger: (PathBuf, bool, bool),
    /// `--save-manifest-baseline`, written in AgentEval's format.
    pin: Option<PathBuf>,
    /// The ledger's vetted skills (`--check-baseline`).
    pub vetted: Option<crate::baseline::agenteval::PreviouslyVetted>,
}

impl CompatRun {
    /// Takes the ledger and pin writes out of `args` (skillguard's own steps) and reads
    /// AgentEval's ledger when it is to be checked.
    pub(super) fn prepare(
        args: &mut crate::baseline::ScanBaseline,
        mode: Mode,
        stderr: &mut dyn Write,
    ) -> Result<CompatRun, Error> {
        let root = args
            .root
            .clone()
            .unwrap_or_else(|| crate::baseline::agenteval::default_root(mode == Mode::Workspace));
        let (write, check) = (args.write, args.check);
        args.write = false;
        args.check = false;
        let pin = args.save_pin.take();
        let vetted = if check {
            let v = crate::baseline::agenteval::previously_vetted(&root)
                .map_err(|e| Error::Compat(e.to_string()))?;
            for s in &v.skipped {
                writeln!(stderr, "{}", s.warning())?;
            }
            Some(v)
        } else {
            None
        };
        Ok(CompatRun {
            ledger: (root, write, check),
            pin,
            vetted,
        })
    }

    /// AgentEval writes its pin (`--save-manifest-baseline`) and its snapshot
    /// (`--write-baseline`) after the report.
    pub(super) fn write_after(
        &self,
        result: &ScanResult,
        conv: &crate::report::agenteval::Converted,
        target: &Path,
        note: Option<&str>,
        stderr: &mut dyn Write,
    ) -> Result<(), Error> {
        // The scanned repository (or workspace): a link it planted is never written through.
        let home = crate::baseline::record::home(result.mode, target);
        if let Some(path) = &self.pin {
            let hashes: Vec<(String, String)> = conv
                .loaded
                .iter()
                .filter_map(|&i| {
                    let a = &result.artifacts[i];
                    Some((
                        conv.views.maf_name(a)?.to_owned(),
                        a.structural_fingerprint.clone()?,
                    ))
                })
                .collect();
            let text = crate::baseline::agenteval::pin_json(&chrono::Utc::now(), &hashes, note);
            // As for skillguard's own pins: no link the scanned tree planted on the way.
            crate::baseline::prepare_pin_dir(path, &home)?;
            write_atomic(path, |w| w.write_all(text.as_bytes())).map_err(|e| Error::Output {
                path: path.display().to_string(),
                source: e,
            })?;
            writeln!(
                stderr,
                "  Manifest baseline saved: {} ({} skill(s))",
                crate::report::agenteval::full_path(path)
                    .unwrap_or_else(|_| path.clone())
                    .display(),
                hashes
                    .iter()
                    .map(|(k, _)| k.to_lowercase())
                    .collect::<std::collections::BTreeSet<_>>()
                    .len()
            )?;
        }
        if let (root, true, _) = &self.ledger {
            let snap = agenteval_snapshot(result, conv, target)?;
            crate::baseline::agenteval::write_agenteval_snapshot(root, &snap, Some(&home))
                .map_err(|e| Error::Compat(e.to_string()))?;
            writeln!(
                stderr,
                "{}",
                crate::baseline::agenteval::saved_line(&snap, root)
            )?;
        }
        Ok(())
    }
}
