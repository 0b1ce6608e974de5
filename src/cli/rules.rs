//! `skillguard rules`, `explain` and `loaders`: the rule catalog and the loader profiles.

use std::io::{self, Write};

use clap::{Args, ValueEnum};

use super::{Error, ExitStatus};
use crate::catalog;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Table,
    #[value(alias = "md")]
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct RulesCmd {
    /// `table` (default), `markdown` (the text of docs/rules.md) or `json`.
    #[arg(long, value_enum, ignore_case = true, default_value = "table")]
    pub format: RulesFormat,
}

#[derive(Debug, Args)]
pub struct ExplainCmd {
    /// Rule id, its AgentEval alias, or the number of that AgentEval rule (0–14).
    pub rule: String,
}

fn rules_table(out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{:<36} {:<9} {:<11} {:<10} {:<8} {:<3} TITLE",
        "ID", "SEVERITY", "CONFIDENCE", "CATEGORY", "DEFAULT", "AE"
    )?;
    for m in catalog::all() {
        writeln!(
            out,
            "{:<36} {:<9} {:<11} {:<10} {:<8} {:<3} {}",
            m.id,
            m.severity.as_str(),
            m.confidence.as_str(),
            m.category,
            if m.never_fires.is_some() {
                "never"
            } else if m.default_enabled {
                "on"
            } else {
                "off"
            },
            m.agenteval_number()
                .map(|n| n.to_string())
                .unwrap_or_else(|| "-".into()),
            m.title
        )?;
    }
    Ok(())
}

fn rules_json(out: &mut dyn Write) -> io::Result<()> {
    let v: Vec<serde_json::Value> = catalog::all()
        .iter()
        .map(|m| {
            serde_json::json!({
                "id": m.id,
                "title": m.title,
                "severity": m.severity.as_str(),
                "confidence": m.confidence.as_str(),
                "category": m.category,
                "agenteval_alias": m.agenteval,
                "agenteval_number": m.agenteval_number(),
                "never_fires": m.never_fires,
                "since": m.since,
                "status": m.status,
                "excludes_skill": m.excludes_skill,
                "default_enabled": m.default_enabled,
                "fix": m.fix,
            })
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &serde_json::json!({ "version": 1, "rules": v }))
        .map_err(io::Error::from)?;
    writeln!(out)
}

/// `skillguard rules`.
pub(super) fn list(cmd: &RulesCmd, stdout: &mut dyn Write) -> Result<ExitStatus, Error> {
    match cmd.format {
        RulesFormat::Table => rules_table(stdout)?,
        RulesFormat::Markdown => stdout.write_all(catalog::render_rules_markdown().as_bytes())?,
        RulesFormat::Json => rules_json(stdout)?,
    }
    Ok(ExitStatus::Clean)
}

/// `skillguard loaders`.
pub(super) fn loaders(stdout: &mut dyn Write) -> Result<ExitStatus, Error> {
    for p in crate::loaders::profiles() {
        writeln!(stdout, "{} — {}", p.id, p.title)?;
        writeln!(stdout, "  reads: {}", p.conventions.join(", "))?;
        writeln!(stdout, "  {}", p.emulates)?;
        writeln!(stdout)?;
    }
    Ok(ExitStatus::Clean)
}

/// `skillguard explain RULE`.
pub(super) fn explain(cmd: &ExplainCmd, stdout: &mut dyn Write) -> Result<ExitStatus, Error> {
    let m = catalog::get(&cmd.rule).ok_or_else(|| Error::UnknownRule(cmd.rule.clone()))?;
    writeln!(stdout, "{} — {}", m.id, m.title)?;
    writeln!(
        stdout,
        "category: {} · severity: {} · confidence: {} · since {} · {}{}{}",
        m.category,
        m.severity,
        m.confidence,
        m.since,
        m.status,
        m.agenteval
            .map(|a| format!(
                " · AgentEval: {a} (#{})",
                m.agenteval_number().unwrap_or_default()
            ))
            .unwrap_or_default(),
        if m.default_enabled {
            ""
        } else {
            " · off by default (enable it with `[rules.<id>] enable = true` or `--select`)"
        }
    )?;
    if let Some(why) = m.never_fires {
        writeln!(stdout, "Never fires: {why}")?;
    }
    writeln!(stdout)?;
    writeln!(stdout, "Fix: {}", m.fix)?;
    writeln!(stdout)?;
    writeln!(stdout, "Severity: {}", m.severity_policy())?;
    writeln!(stdout)?;
    writeln!(stdout, "{}", m.docs)?;
    Ok(ExitStatus::Clean)
}
