//! Console renderer for `--group-by skill` and `--group-by file` (the default view,
//! grouped by rule, is [`super::overview`]): findings grouped by skill, colour only when asked for,
//! a coverage line and a summary line with counts per severity. Every piece of
//! scanned text goes through [`sanitize`] first.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::summary::{Cap, GroupBy, by_category, by_rule, group_key, severities};
use super::{RenderOptions, VERSION};
use crate::finding::{Finding, Severity};
use crate::inventory::{Artifact, LoadStatus};
use crate::result::ScanResult;
use crate::text::{sanitize, sanitize_line};

pub(super) struct Paint {
    pub(super) on: bool,
}

impl Paint {
    pub(super) fn sev(&self, s: Severity) -> String {
        let label = format!("{:<8}", s.as_str());
        if !self.on {
            return label;
        }
        let code = match s {
            Severity::Critical => "1;35",
            Severity::High => "1;31",
            Severity::Medium => "33",
            Severity::Low => "34",
            Severity::Info => "2",
        };
        format!("\x1b[{code}m{label}\x1b[0m")
    }

    pub(super) fn bold(&self, s: &str) -> String {
        if self.on {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }

    pub(super) fn dim(&self, s: &str) -> String {
        if self.on {
            format!("\x1b[2m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
}

fn write_finding(out: &mut dyn Write, p: &Paint, f: &Finding) -> io::Result<()> {
    writeln!(
        out,
        "  {} {}  {}",
        p.sev(f.severity),
        p.bold(f.rule_id),
        sanitize_line(&f.location.to_string())
    )?;
    for line in sanitize(&f.message).lines() {
        writeln!(out, "           {line}")?;
    }
    for r in &f.related {
        writeln!(
            out,
            "           {} {}",
            p.dim("related:"),
            sanitize_line(&format!("{} ({})", r.location, r.message))
        )?;
    }
    for c in &f.consequences {
        let who = c
            .profile
            .as_deref()
            .map(|p| format!(" ({p})"))
            .unwrap_or_default();
        writeln!(
            out,
            "           {} {}",
            p.dim("consequence:"),
            sanitize_line(&format!(
                "{} {}{who}: {}",
                c.severity.as_str(),
                c.rule_id,
                c.message
            ))
        )?;
    }
    Ok(())
}

pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    if opts.group_by == GroupBy::Rule {
        return super::overview::render(r, opts, out);
    }
    let p = Paint { on: opts.color };
    let index = opts.index_for(r);
    let excluded = r.artifacts.iter().filter(|a| a.excluded).count();
    let agents = if r.agents.is_empty() {
        String::new()
    } else {
        format!(", {} agent file(s)", r.agents.len())
    };
    writeln!(
        out,
        "skillguard {VERSION}: {} scan of {}: {} skill(s) ({} excluded by strict loaders){agents}, {} file(s)",
        r.mode.as_str(),
        sanitize_line(&r.target),
        r.artifacts.len(),
        excluded,
        r.files_scanned
    )?;
    // The harnesses the verdicts are weighed for (one line; a workspace with several
    // repositories says how many share each choice).
    if let Some(t) = targets_text(r) {
        writeln!(out, "targets: {t} (`--targets` to set)")?;
    }

    // Findings grouped by skill path; findings outside any skill go last.
    let mut by_skill: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
    let mut loose: Vec<&Finding> = Vec::new();
    let listed = |f: &&Finding| opts.quiet.is_none_or(|t| f.severity >= t);
    let mut unlisted = 0usize;
    let mut cross: Vec<&Finding> = Vec::new();
    for f in &r.findings {
        if !listed(&f) {
            unlisted += 1;
            continue;
        }
        if opts.group_by == GroupBy::Skill && r.is_cross_repo(f) {
            cross.push(f);
            continue;
        }
        match &f.skill_path {
            Some(sp) => by_skill.entry(sp.as_str()).or_default().push(f),
            None => loose.push(f),
        }
    }
    let mut cap = Cap::new(opts.max_per_rule);
    if opts.group_by != GroupBy::Skill {
        let mut listed_fs: Vec<&Finding> = by_skill.into_values().flatten().collect();
        listed_fs.extend(loose);
        write_grouped(out, &p, opts.group_by, listed_fs, &mut cap)?;
        return write_tail(r, opts, &p, &index, out, unlisted, &cap);
    }
    for a in &r.artifacts {
        let fs = by_skill.remove(a.path.as_str()).unwrap_or_default();
        write_artifact(out, &p, opts, a, index.skills.get(&a.path), fs, &mut cap)?;
    }
    let shown: Vec<(&Artifact, Vec<&Finding>)> = r
        .agents
        .iter()
        .map(|a| (a, by_skill.remove(a.path.as_str()).unwrap_or_default()))
        .filter(|(_, fs)| opts.quiet.is_none() || !fs.is_empty())
        .collect();
    if !shown.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            p.bold("agents, prompts, instructions, MCP and hook files")
        )?;
    }
    for (a, fs) in shown {
        write_artifact(out, &p, opts, a, index.agents.get(&a.path), fs, &mut cap)?;
    }
    // Findings whose skill path did not match an artifact (should not happen) join the loose ones.
    for (_, fs) in by_skill {
        loose.extend(fs);
    }
    if !loose.is_empty() {
        writeln!(out)?;
        writeln!(out, "{}", p.bold("outside any skill"))?;
        for f in loose {
            if cap.admit(f) {
                write_finding(out, &p, f)?;
            }
        }
    }
    if !cross.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            p.bold("across repositories (counted in no repository's totals)")
        )?;
        for f in cross {
            if cap.admit(f) {
                write_finding(out, &p, f)?;
            }
        }
    }
    write_tail(r, opts, &p, &index, out, unlisted, &cap)
}

/// The harnesses the verdicts are weighed for, sanitised: `claude-code (inferred from …)`,
/// or per choice with how many repositories share it; `None` when there are none.
pub(super) fn targets_text(r: &ScanResult) -> Option<String> {
    match r.targets.as_slice() {
        [] => None,
        [one] => Some(sanitize_line(&one.describe()).into_owned()),
        many => {
            let mut counts: BTreeMap<String, usize> = BTreeMap::new();
            for t in many {
                *counts.entry(t.describe()).or_default() += 1;
            }
            let parts: Vec<String> = counts
                .iter()
                .map(|(d, n)| format!("{n} repo(s): {}", sanitize_line(d)))
                .collect();
            Some(parts.join("; "))
        }
    }
}

/// One skill or agent file: its heading, loaders, index and findings.
fn write_artifact(
    out: &mut dyn Write,
    p: &Paint,
    opts: &RenderOptions,
    a: &Artifact,
    index: Option<&crate::index::Index>,
    fs: Vec<&Finding>,
    cap: &mut Cap,
) -> io::Result<()> {
    // Agent files say what they are: `agent copilot-agent: reviewer`.
    let kind = match (a.kind, &a.format) {
        (crate::inventory::ArtifactKind::Skill, _) => String::new(),
        (k, Some(f)) if k.as_str() != f => format!("{} {}: ", k.as_str(), sanitize_line(f)),
        (k, _) => format!("{}: ", k.as_str()),
    };
    if opts.quiet.is_some() && fs.is_empty() {
        return Ok(());
    }
    let status = if a.excluded { "  EXCLUDED" } else { "" };
    writeln!(out)?;
    let conv = a
        .convention
        .as_deref()
        .map(|c| format!(", {c}"))
        .unwrap_or_default();
    let path_shown = if a.path.is_empty() {
        "."
    } else {
        a.path.as_str()
    };
    writeln!(
        out,
        "{}  {}{}",
        p.bold(&sanitize_line(path_shown)),
        p.dim(&format!(
            "({kind}{}{conv}, {} file(s){})",
            sanitize_line(&a.name),
            a.files.len(),
            a.provenance
                .as_ref()
                .map(|pv| format!(", from {}", sanitize_line(&pv.label())))
                .unwrap_or_default()
        )),
        if a.excluded {
            p.bold(status)
        } else {
            String::new()
        }
    )?;
    if !a.loaders.is_empty() {
        let pick = |st: LoadStatus| -> Vec<&str> {
            a.loaders
                .iter()
                .filter(|v| v.status == st)
                .map(|v| v.profile)
                .collect()
        };
        let mut parts = Vec::new();
        for (label, st) in [
            ("loaded by", LoadStatus::Loaded),
            ("excluded by", LoadStatus::Excluded),
            ("shadowed in", LoadStatus::Shadowed),
        ] {
            let ids = pick(st);
            if !ids.is_empty() {
                parts.push(format!("{label} {}", ids.join(", ")));
            }
        }
        writeln!(
            out,
            "  {}",
            p.dim(&format!("loaders: {}", parts.join("; ")))
        )?;
        // Agent files: how each harness takes them (a skill's causes are its findings).
        if a.kind != crate::inventory::ArtifactKind::Skill {
            for v in &a.loaders {
                if let Some(c) = &v.cause {
                    let line = format!("{}: {}", v.profile, sanitize_line(c));
                    writeln!(out, "    {}", p.dim(&line))?;
                }
            }
        }
        let maf = a.loaders.iter().find(|v| v.profile == "maf");
        if let Some(e) = maf
            .and_then(|v| v.exposes.as_ref())
            .filter(|e| !e.not_exposed.is_empty())
        {
            let hidden: Vec<&str> = e.not_exposed.iter().take(5).map(String::as_str).collect();
            let more = e.not_exposed.len() - hidden.len();
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            let line = format!(
                "maf exposes {} resource(s) and {} script(s); present but not exposed: {}{tail}",
                e.resources.len(),
                e.scripts.len(),
                hidden.join(", ")
            );
            writeln!(out, "  {}", p.dim(&sanitize_line(&line)))?;
        }
    }
    if let Some(i) = index {
        writeln!(out, "  index: {}", crate::index::Report::short(i))?;
    }
    if fs.is_empty() {
        writeln!(out, "  {}", p.dim("no findings"))?;
    }
    for f in fs {
        if cap.admit(f) {
            write_finding(out, p, f)?;
        }
    }
    Ok(())
}

/// Findings under one heading per rule (most severe rule first) or per file.
fn write_grouped(
    out: &mut dyn Write,
    p: &Paint,
    by: GroupBy,
    findings: Vec<&Finding>,
    cap: &mut Cap,
) -> io::Result<()> {
    let mut groups: BTreeMap<String, Vec<&Finding>> = BTreeMap::new();
    for f in findings {
        groups.entry(group_key(by, f)).or_default().push(f);
    }
    let order: Vec<String> = match by {
        GroupBy::Rule => by_rule(groups.values().flatten().copied())
            .into_iter()
            .map(|r| r.rule.to_owned())
            .collect(),
        _ => groups.keys().cloned().collect(),
    };
    for key in order {
        let Some(mut fs) = groups.remove(&key) else {
            continue;
        };
        fs.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        writeln!(out)?;
        let head = match by {
            GroupBy::Rule => format!(
                "{key}  ({} finding(s): {}; {})",
                fs.len(),
                severities(&crate::finding::SeverityCounts::from_findings(
                    fs.iter().copied()
                )),
                fs[0].category
            ),
            _ => format!(
                "{}  ({} finding(s))",
                if key.is_empty() {
                    "(no file)"
                } else {
                    key.as_str()
                },
                fs.len()
            ),
        };
        writeln!(out, "{}", p.bold(&sanitize_line(&head)))?;
        for f in fs {
            if cap.admit(f) {
                write_finding(out, p, f)?;
            }
        }
    }
    Ok(())
}

/// Everything after the findings: the cap's note, the per-rule and per-category tables,
/// repositories or conventions, suppressed findings, coverage, index and summary.
fn write_tail(
    r: &ScanResult,
    opts: &RenderOptions,
    p: &Paint,
    index: &crate::index::Report,
    out: &mut dyn Write,
    unlisted: usize,
    cap: &Cap,
) -> io::Result<()> {
    if let Some(n) = cap.note() {
        writeln!(out)?;
        writeln!(out, "{}", p.dim(&n))?;
    }
    // Per rule and per category; with --quiet, only the rules that have a listed finding.
    let rules: Vec<_> = by_rule(&r.findings)
        .into_iter()
        .filter(|c| opts.quiet.is_none_or(|t| c.highest >= t))
        .collect();
    if !rules.is_empty() {
        writeln!(out)?;
        writeln!(out, "{}", p.bold("findings by rule"))?;
        let w = rules.iter().map(|c| c.rule.len()).max().unwrap_or(0);
        let cw = rules.iter().map(|c| c.category.len()).max().unwrap_or(0);
        for c in &rules {
            writeln!(
                out,
                "  {:>6}  {:<w$}  {:<cw$}  {}",
                c.findings,
                c.rule,
                c.category,
                severities(&c.counts)
            )?;
        }
        let cats: Vec<String> = by_category(&rules)
            .iter()
            .map(|c| format!("{} {}", c.category, c.findings))
            .collect();
        writeln!(
            out,
            "  {}",
            p.dim(&format!("by category: {}", cats.join(", ")))
        )?;
    }

    if r.repos.len() > 1 || r.repos.iter().any(|g| g.repo.is_some()) {
        writeln!(out)?;
        writeln!(out, "{}", p.bold("repositories"))?;
        for g in &r.repos {
            let name = g.repo.as_deref().unwrap_or(".");
            match &g.error {
                Some(e) => writeln!(
                    out,
                    "  {}: SKIPPED ({})",
                    sanitize_line(name),
                    sanitize_line(e)
                )?,
                None => writeln!(
                    out,
                    "  {}: {} skill(s), {} excluded, {} finding(s)",
                    sanitize_line(name),
                    g.skills,
                    g.excluded,
                    g.findings
                )?,
            }
        }
        let cross = r.cross_repo().count();
        if cross > 0 {
            writeln!(out, "  across repositories: {cross} finding(s)")?;
        }
    } else if let Some(g) = r.repos.first()
        && !g.conventions.is_empty()
    {
        writeln!(out)?;
        writeln!(out, "{}", p.bold("conventions"))?;
        for c in &g.conventions {
            writeln!(out, "  {}: {} skill(s)", sanitize_line(&c.path), c.skills)?;
        }
    }

    if opts.show_suppressed && !r.suppressed.is_empty() {
        writeln!(out)?;
        writeln!(out, "{}", p.bold("suppressed and accepted"))?;
        for s in &r.suppressed {
            write_finding(out, p, &s.finding)?;
            writeln!(
                out,
                "           {} {}",
                p.dim(&format!("{}:", s.kind.as_str())),
                sanitize_line(&s.reason)
            )?;
        }
    }

    let c = &r.coverage;
    writeln!(out)?;
    writeln!(
        out,
        "coverage: {} loadable skill(s), {} with resources, {} with scripts, {} silently excluded",
        c.skill_count, c.with_resources, c.with_scripts, c.silently_excluded_count
    )?;
    if c.silently_excluded_count > 0 {
        writeln!(
            out,
            "{}",
            p.bold(&format!(
                "SILENTLY EXCLUDED: {} skill folder(s) would not be loaded by a strict loader (see the findings marked EXCLUDED)",
                c.silently_excluded_count
            ))
        )?;
    }
    writeln!(out, "index: {}{}", index.scan.explanation, gate_note(index))?;
    let counts = r.counts();
    let per: Vec<String> = Severity::ALL
        .iter()
        .rev()
        .map(|s| format!("{} {}", counts.get(*s), s.as_str()))
        .collect();
    let gate = match opts.fail_on {
        Some(t) => format!(
            "; {} at or above --fail-on {}",
            counts.at_or_above(t),
            t.as_str()
        ),
        None => String::new(),
    };
    let quiet = match opts.quiet {
        Some(t) if unlisted > 0 => {
            format!("; {unlisted} below {} not listed (--quiet)", t.as_str())
        }
        _ => String::new(),
    };
    let suppressed = match r.suppressed.len() {
        0 => String::new(),
        n if opts.show_suppressed => format!("; {n} suppressed (listed above)"),
        n => format!("; {n} suppressed (--show-suppressed lists them)"),
    };
    if counts.total() == 0 {
        writeln!(out, "summary: no findings{gate}{suppressed}")?;
    } else {
        writeln!(
            out,
            "summary: {} finding(s): {}{gate}{quiet}{suppressed}",
            counts.total(),
            per.join(", ")
        )?;
    }
    Ok(())
}

/// `; --fail-under-index 70: the scan and 2 skill(s) below`, when a threshold was given.
pub(crate) fn gate_note(index: &crate::index::Report) -> String {
    let Some(n) = index.fail_under else {
        return String::new();
    };
    let below = index.below(n).len();
    let scan = index.scan.score.is_some_and(|s| s < n);
    let what = match (scan, below) {
        (false, 0) => "nothing below".to_owned(),
        (true, 0) => "the scan is below".to_owned(),
        (false, b) => format!("{b} skill(s) below"),
        (true, b) => format!("the scan and {b} skill(s) below"),
    };
    format!(
        "; --fail-under-index {}: {what}",
        crate::index::fmt_score(n)
    )
}
