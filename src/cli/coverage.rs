//! `skillguard coverage`: which skills and agents have evals (the counterpart of
//! `waza coverage`), from one scan.

use std::io::Write;

use clap::Args;

use super::args::{ConfigArgs, ReportArgs, TargetArgs, WalkArgs, scan_options};
use super::{Error, ExitStatus, progress};
use crate::evalfiles::{Coverage, CoverageRow};
use crate::pipeline::{self, Request, Source};
use crate::report::Format;
use crate::text::{escape_markdown, sanitize_line};

#[derive(Debug, Args)]
pub struct CoverageCmd {
    /// Exit 1 when fewer than N percent of the skills and agents have an eval (0–100).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=100))]
    pub fail_under_coverage: Option<u8>,
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub walk: WalkArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(serde::Serialize)]
struct Doc<'a> {
    tool: &'static str,
    version: &'static str,
    target: &'a str,
    #[serde(flatten)]
    coverage: &'a Coverage,
    #[serde(skip_serializing_if = "Option::is_none")]
    fail_under_coverage: Option<u8>,
    passed: bool,
}

pub(super) fn run(
    cmd: &CoverageCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let common = &cmd.report;
    let (mode, target) = cmd.target.target_or_cwd()?;
    common.format.check()?;
    common.check_output()?;
    if common.format == Format::Github {
        return Err(Error::Usage(
            "coverage prints console, json, markdown or sarif".into(),
        ));
    }
    let operator = cmd.config.operator(mode, &target)?;
    let mut opts = scan_options(
        &cmd.walk,
        &Default::default(),
        &Default::default(),
        &Default::default(),
        false,
        operator.as_ref().map(|c| &c.0),
    )?;
    let bar = progress::Bar::start(common, &cmd.walk, &mut opts);
    let mut request = Request::new(Source::Tree {
        mode,
        target: &target,
        options: opts,
    });
    request.depth = pipeline::Depth::Inventory;
    let outcome = pipeline::run(request);
    drop(bar);
    let result = outcome?.result;
    let cov = crate::evalfiles::coverage(&result.artifacts, &result.agents, &result.evals);
    let passed = cmd
        .fail_under_coverage
        .is_none_or(|n| cov.percent >= f64::from(n));
    let mut text = Vec::new();
    match common.format.check()? {
        Format::Json => {
            let doc = Doc {
                tool: "skillguard",
                version: env!("CARGO_PKG_VERSION"),
                target: &result.target,
                coverage: &cov,
                fail_under_coverage: cmd.fail_under_coverage,
                passed,
            };
            serde_json::to_writer_pretty(&mut text, &doc).map_err(std::io::Error::from)?;
            text.push(b'\n');
        }
        Format::Markdown => markdown(&cov, &result.target, cmd.fail_under_coverage, &mut text)?,
        Format::Sarif => {
            // One result per skill or agent without evals (`skill-without-evals`), the
            // coverage figures on the run.
            let targets = crate::evalfiles::Targets {
                skills: &result.artifacts,
                agents: &result.agents,
            };
            let uncovered = crate::evalfiles::uncovered(&targets, &result.evals);
            let props = serde_json::json!({
                "target": result.target,
                "coverage": &cov,
                "failUnderCoverage": cmd.fail_under_coverage,
                "passed": passed,
            });
            crate::report::sarif::render_findings(&uncovered, props, &mut text)?;
        }
        _ => console(&cov, &result.target, cmd.fail_under_coverage, &mut text)?,
    }
    match &common.output {
        Some(path) => {
            crate::fsutil::write_atomic(path, |w| w.write_all(&text)).map_err(|e| {
                Error::Output {
                    path: path.display().to_string(),
                    source: e,
                }
            })?;
            if !common.quiet {
                writeln!(stderr, "skillguard: coverage written to {}", path.display())?;
            }
        }
        None => match stdout.write_all(&text) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            other => other?,
        },
    }
    Ok(if passed {
        ExitStatus::Clean
    } else {
        ExitStatus::Findings
    })
}

fn fmt_pct(x: f64) -> String {
    crate::index::fmt_score(x)
}

/// `evals.json (agent-evals), eval.yaml (waza)`.
fn what(r: &CoverageRow) -> String {
    let mut parts = Vec::new();
    if r.capability + r.regression > 0 {
        parts.push(format!(
            "{} capability, {} regression",
            r.capability, r.regression
        ));
    }
    if r.should_trigger + r.should_not_trigger > 0 {
        parts.push(format!(
            "{} should / {} should-not trigger",
            r.should_trigger, r.should_not_trigger
        ));
    }
    let mut s = format!("{} case(s)", r.cases);
    if !parts.is_empty() {
        s.push_str(&format!(" ({})", parts.join("; ")));
    }
    s
}

fn headline(c: &Coverage, target: &str) -> String {
    // A kind with none to cover has no percentage (`skills 0/0`, not `0/0 (100%)`).
    let part = |what: &str, covered: usize, of: usize, pct: f64| {
        if of == 0 {
            format!("{what} none")
        } else {
            format!("{what} {covered}/{of} ({}%)", fmt_pct(pct))
        }
    };
    let all = c.skills + c.agents;
    let total = if all == 0 {
        "nothing to cover".to_owned()
    } else {
        format!("({}%)", fmt_pct(c.percent))
    };
    format!(
        "skillguard coverage of {}: {} of {} skill(s) and agent(s) have evals {total}: {}, {}",
        target,
        c.skills_covered + c.agents_covered,
        all,
        part("skills", c.skills_covered, c.skills, c.skill_percent),
        part("agents", c.agents_covered, c.agents, c.agent_percent),
    )
}

fn gate_line(c: &Coverage, gate: Option<u8>) -> Option<String> {
    gate.map(|n| {
        let verdict = if c.percent >= f64::from(n) {
            "passed"
        } else {
            "FAILED"
        };
        format!(
            "--fail-under-coverage {n}: {verdict} ({}%)",
            fmt_pct(c.percent)
        )
    })
}

fn console(
    c: &Coverage,
    target: &str,
    gate: Option<u8>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "{}", headline(c, &sanitize_line(target)))?;
    for kind in ["skill", "agent"] {
        let rows: Vec<&CoverageRow> = c.rows.iter().filter(|r| r.kind == kind).collect();
        if rows.is_empty() {
            continue;
        }
        writeln!(out)?;
        writeln!(out, "{kind}s")?;
        for r in rows {
            let mark = if r.covered { "✓" } else { "✗" };
            let path = if r.path.is_empty() { "." } else { &r.path };
            writeln!(
                out,
                "  {mark} {}  ({})",
                sanitize_line(path),
                sanitize_line(&r.name)
            )?;
            if r.eval_files.is_empty() {
                let notes = if r.notes {
                    " (a notes-evals.md, no cases)"
                } else {
                    ""
                };
                writeln!(out, "      no eval{notes}")?;
                continue;
            }
            writeln!(
                out,
                "      {}: {}",
                r.formats.join(", "),
                sanitize_line(&r.eval_files.join(", "))
            )?;
            writeln!(out, "      {}", what(r))?;
            if !r.graders.is_empty() {
                writeln!(
                    out,
                    "      graders: {}",
                    sanitize_line(&r.graders.join(", "))
                )?;
            }
        }
    }
    if !c.unattached.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "eval files tied to no skill or agent: {}",
            sanitize_line(&c.unattached.join(", "))
        )?;
    }
    for a in &c.ambiguous {
        writeln!(
            out,
            "eval file {} names `{}`, which is ambiguous (counted for none): {}",
            sanitize_line(&a.path),
            sanitize_line(a.name.as_deref().unwrap_or("")),
            sanitize_line(&a.candidates.join(", "))
        )?;
    }
    if !c.invalid.is_empty() {
        writeln!(
            out,
            "eval files with problems (see `skillguard scan`): {}",
            sanitize_line(&c.invalid.join(", "))
        )?;
    }
    if let Some(g) = gate_line(c, gate) {
        writeln!(out, "{g}")?;
    }
    Ok(())
}

fn markdown(
    c: &Coverage,
    target: &str,
    gate: Option<u8>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "## Eval coverage\n")?;
    // Our own words; only the target is scanned content.
    writeln!(out, "{}\n", headline(c, &escape_markdown(target)))?;
    writeln!(
        out,
        "| | Kind | Path | Name | Eval files | Cases | Capability | Regression | Trigger tests | Graders |"
    )?;
    writeln!(out, "|---|---|---|---|---|---:|---:|---:|---:|---|")?;
    for r in &c.rows {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            if r.covered { "✓" } else { "✗" },
            r.kind,
            escape_markdown(if r.path.is_empty() { "." } else { &r.path }),
            escape_markdown(&r.name),
            escape_markdown(&r.eval_files.join(", ")),
            r.cases,
            r.capability,
            r.regression,
            r.should_trigger + r.should_not_trigger,
            escape_markdown(&r.graders.join(", ")),
        )?;
    }
    writeln!(out)?;
    if !c.unattached.is_empty() {
        writeln!(
            out,
            "Eval files tied to no skill or agent: {}\n",
            escape_markdown(&c.unattached.join(", "))
        )?;
    }
    for a in &c.ambiguous {
        writeln!(
            out,
            "Eval file {} names {}, which is ambiguous (counted for none): {}\n",
            escape_markdown(&a.path),
            escape_markdown(a.name.as_deref().unwrap_or("")),
            escape_markdown(&a.candidates.join(", "))
        )?;
    }
    if let Some(g) = gate_line(c, gate) {
        writeln!(out, "{g}\n")?;
    }
    Ok(())
}
