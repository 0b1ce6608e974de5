//! The default console view, which leads with the answer as ruff and zizmor do: one
//! header line (targets, skills, agents, files), then the findings grouped by rule, most
//! severe rule first, at most five per rule on one line each (`path:line:col`, severity,
//! the message's first sentence), then a summary block (counts, top rules, skills, Index)
//! and one closing line, "No findings." or "N findings (…); gate: PASS/FAIL".
//!
//! Clean skills are not listed. The per-skill view with loaders and Index is
//! `--group-by skill` ([`super::console`]). Every piece of scanned text is sanitised.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::console::Paint;
use super::summary::{Cap, by_rule, severities};
use super::{RenderOptions, VERSION};
use crate::finding::{Finding, Severity};
use crate::result::ScanResult;
use crate::text::sanitize_line;

/// Findings listed per rule when `--max-findings-per-rule` is not given.
pub const DEFAULT_PER_RULE: usize = 5;

/// Continuation lines of a wrapped finding start with this.
const WRAP_INDENT: &str = "      ";

/// The rules named in the summary block's "top rules" line.
const TOP_RULES: usize = 5;

/// Repositories listed in a workspace's summary block (the ones with most findings).
const TOP_REPOS: usize = 10;

pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let p = Paint { on: opts.color };
    let index = opts.index_for(r);
    write_header(r, opts, out)?;

    let listed = |f: &Finding| opts.quiet.is_none_or(|t| f.severity >= t);
    let mut by_id: BTreeMap<&'static str, Vec<&Finding>> = BTreeMap::new();
    let mut unlisted = 0usize;
    for f in &r.findings {
        if listed(f) {
            by_id.entry(f.rule_id).or_default().push(f);
        } else {
            unlisted += 1;
        }
    }
    let max = match opts.max_per_rule {
        None => Some(DEFAULT_PER_RULE),
        Some(0) => None,
        Some(n) => Some(n),
    };
    let mut cap = Cap::new(max);
    for rc in by_rule(by_id.values().flatten().copied()) {
        let Some(mut fs) = by_id.remove(rc.rule) else {
            continue;
        };
        // Most severe first, then by place.
        fs.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then_with(|| a.sort_key().cmp(&b.sort_key()))
        });
        writeln!(out)?;
        let counts = if rc.counts.get(rc.highest) == rc.findings {
            format!("{}", rc.findings)
        } else {
            format!("{}: {}", rc.findings, severities(&rc.counts))
        };
        writeln!(
            out,
            "{} {}  {}",
            p.sev(rc.highest),
            p.bold(rc.rule),
            p.dim(&format!("({counts}; {})", rc.category))
        )?;
        let total = fs.len();
        let mut shown = 0usize;
        for f in fs {
            if cap.admit(f) {
                shown += 1;
                write_line(out, &p, f, rc.highest, opts.width)?;
            }
        }
        if shown < total {
            writeln!(
                out,
                "  {}",
                p.dim(&format!(
                    "… and {} more (`--max-findings-per-rule 0` for all)",
                    total - shown
                ))
            )?;
        }
    }
    if opts.show_suppressed && !r.suppressed.is_empty() {
        writeln!(out)?;
        writeln!(out, "{}", p.bold("suppressed and accepted"))?;
        for s in &r.suppressed {
            writeln!(
                out,
                "  {} {}  {}  {}",
                p.sev(s.finding.severity),
                s.finding.rule_id,
                sanitize_line(&s.finding.location.to_string()),
                p.dim(&format!(
                    "{}: {}",
                    s.kind.as_str(),
                    sanitize_line(&s.reason)
                ))
            )?;
        }
    }
    write_summary(r, opts, &p, &index, unlisted, out)?;
    write_closing(r, opts, out)
}

/// `skillguard 0.3.0 · native scan of . · 12 skills (1 excluded), 3 agent files, 40 files ·
/// targets: claude-code (inferred from .claude/skills)`: one line, time last on a terminal.
fn write_header(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let excluded = r.artifacts.iter().filter(|a| a.excluded).count();
    let mut parts = vec![
        format!("skillguard {VERSION}"),
        format!("{} scan of {}", r.mode.as_str(), sanitize_line(&r.target)),
    ];
    let mut what = plural(r.artifacts.len(), "skill", "skills");
    if excluded > 0 {
        what.push_str(&format!(" ({excluded} excluded)"));
    }
    if !r.agents.is_empty() {
        what.push_str(&format!(
            ", {}",
            plural(r.agents.len(), "agent file", "agent files")
        ));
    }
    what.push_str(&format!(", {}", plural(r.files_scanned, "file", "files")));
    parts.push(what);
    if let Some(t) = super::console::targets_text(r) {
        parts.push(format!("targets: {t}"));
    }
    if let Some(t) = opts.elapsed {
        parts.push(format!("{:.2} s", t.as_secs_f64()));
    }
    writeln!(out, "{}", parts.join(" · "))
}

/// One finding on one line: severity (when the rule has several), place, first sentence.
fn write_line(
    out: &mut dyn Write,
    p: &Paint,
    f: &Finding,
    highest: Severity,
    width: Option<usize>,
) -> io::Result<()> {
    let sev = if f.severity == highest {
        String::new()
    } else {
        format!("{} ", f.severity.as_str())
    };
    let place = sanitize_line(&f.location.to_string()).into_owned();
    let text = sanitize_line(&headline(&f.message)).into_owned();
    let Some(w) = width else {
        return writeln!(out, "  {}  {}{}", p.bold(&place), p.dim(&sev), text);
    };
    // Wrapped as plain text, then painted: colour codes take no columns.
    let prefix = format!("  {place}  {sev}");
    let plain = wrap(&format!("{prefix}{text}"), w);
    match plain.strip_prefix(&prefix) {
        Some(rest) => writeln!(out, "  {}  {}{}", p.bold(&place), p.dim(&sev), rest),
        // A place so long that the first break falls inside it: unpainted.
        None => writeln!(out, "{plain}"),
    }
}

/// The first sentence of a message (a period and a space outside backticks, or a line
/// break), whole: the evidence is usually at its end. Linear in the message.
pub fn headline(msg: &str) -> String {
    let mut in_code = false;
    let mut end = msg.len();
    let b = msg.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'`' => in_code = !in_code,
            b'\n' => {
                end = i;
                break;
            }
            b'.' if !in_code && b.get(i + 1).is_some_and(|n| *n == b' ') => {
                // "e.g. " and "i.e. " do not end a sentence.
                let word = msg[..i].rsplit(' ').next().unwrap_or("");
                if !matches!(word, "e.g" | "i.e" | "etc" | "vs") {
                    end = i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    msg[..end].trim().to_owned()
}

/// `line` wrapped at `width` characters on spaces (a word longer than the width stays whole),
/// continuation lines indented by [`WRAP_INDENT`]. Counts characters, not display cells.
pub fn wrap(line: &str, width: usize) -> String {
    let width = width.max(WRAP_INDENT.len() + 20);
    let mut out = String::with_capacity(line.len() + 16);
    let mut col = 0usize;
    for (i, word) in line.split(' ').enumerate() {
        let n = word.chars().count();
        if i > 0 {
            if col + 1 + n > width && col > WRAP_INDENT.len() {
                out.push('\n');
                out.push_str(WRAP_INDENT);
                col = WRAP_INDENT.len();
            } else {
                out.push(' ');
                col += 1;
            }
        }
        out.push_str(word);
        col += n;
    }
    out
}

/// The summary block: counts, top rules, skills, repositories, Index, suppressed findings.
fn write_summary(
    r: &ScanResult,
    opts: &RenderOptions,
    p: &Paint,
    index: &crate::index::Report,
    unlisted: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{}", p.bold("summary"))?;
    let counts = r.counts();
    if counts.total() > 0 {
        let quiet = match opts.quiet {
            Some(t) if unlisted > 0 => {
                format!(" ({unlisted} below {} not listed: --quiet)", t.as_str())
            }
            _ => String::new(),
        };
        writeln!(
            out,
            "  findings:   {} ({}){quiet}",
            counts.total(),
            severities(&counts)
        )?;
    }
    if counts.total() > 0 && opts.quiet.is_none() {
        // The rules with the most findings (not under --quiet, which lists only what fails).
        let mut rules = by_rule(&r.findings);
        rules.sort_by(|a, b| b.findings.cmp(&a.findings).then(a.rule.cmp(b.rule)));
        let top: Vec<String> = rules
            .iter()
            .take(TOP_RULES)
            .map(|c| format!("{} {}", c.rule, c.findings))
            .collect();
        let more = rules.len().saturating_sub(TOP_RULES);
        let tail = if more > 0 {
            format!(" and {more} more rule(s)")
        } else {
            String::new()
        };
        writeln!(out, "  top rules:  {}{tail}", top.join(", "))?;
    }
    let excluded = r.artifacts.iter().filter(|a| a.excluded).count();
    let targeted = r
        .artifacts
        .iter()
        .filter(|a| a.excluded && excluded_by_a_target(r, a))
        .count();
    let with_findings = {
        let mut s: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
        for f in &r.findings {
            if let Some(sp) = &f.skill_path {
                s.insert(sp);
            }
        }
        r.artifacts
            .iter()
            .filter(|a| s.contains(a.path.as_str()))
            .count()
    };
    let mut skills = format!(
        "  skills:     {} ({with_findings} with findings",
        r.artifacts.len()
    );
    if targeted > 0 {
        skills.push_str(&format!(", {targeted} not loaded by a targeted harness"));
    }
    if excluded > targeted {
        skills.push_str(&format!(
            ", {} dropped only by harnesses not targeted",
            excluded - targeted
        ));
    }
    skills.push(')');
    if !r.agents.is_empty() {
        skills.push_str(&format!(
            "; {}",
            plural(r.agents.len(), "agent file", "agent files")
        ));
    }
    writeln!(out, "{skills}")?;
    if targeted > 0 {
        writeln!(
            out,
            "  {}",
            p.bold(&format!(
                "SILENTLY EXCLUDED: {targeted} skill folder(s) that a harness this repository targets would not load (`skill-excluded-by-harness`)"
            ))
        )?;
    }
    write_repos(r, out)?;
    let scored = index.skills.len() + index.agents.len();
    let worst = index
        .worst
        .as_ref()
        .map(|w| {
            format!(
                "; worst {} {}/100 ({})",
                sanitize_line(&w.path),
                crate::index::fmt_score(w.score),
                w.grade
            )
        })
        .unwrap_or_default();
    writeln!(
        out,
        "  index:      {} (median of {scored}{worst}){}",
        crate::index::Report::short(&index.scan),
        super::console::gate_note(index)
    )?;
    match r.suppressed.len() {
        0 => {}
        n if opts.show_suppressed => writeln!(out, "  suppressed: {n} (listed above)")?,
        n => writeln!(out, "  suppressed: {n} (`--show-suppressed` lists them)")?,
    }
    if counts.total() > 0 && opts.quiet.is_none() {
        writeln!(
            out,
            "  {}",
            p.dim("`skillguard explain RULE` tells how to fix a rule; `--group-by skill` lists findings under each skill with its loaders and Index")
        )?;
    }
    Ok(())
}

/// Does a harness that `a`'s repository targets leave `a` out?
fn excluded_by_a_target(r: &ScanResult, a: &crate::inventory::Artifact) -> bool {
    let t = crate::targets::of_repo(&r.targets, a.repo.as_deref());
    a.loaders.iter().any(|v| {
        v.status == crate::inventory::LoadStatus::Excluded && t.is_none_or(|t| t.targets(v.profile))
    })
}

/// A workspace's repositories: how many, the skipped ones, and the ones with most findings.
fn write_repos(r: &ScanResult, out: &mut dyn Write) -> io::Result<()> {
    if !(r.repos.len() > 1 || r.repos.iter().any(|g| g.repo.is_some())) {
        return Ok(());
    }
    let skipped: Vec<_> = r.repos.iter().filter(|g| g.error.is_some()).collect();
    let mut busy: Vec<_> = r
        .repos
        .iter()
        .filter(|g| g.error.is_none() && g.findings > 0)
        .collect();
    busy.sort_by(|a, b| b.findings.cmp(&a.findings).then(a.repo.cmp(&b.repo)));
    let mut line = format!(
        "  repos:      {} ({} with findings",
        r.repos.len(),
        busy.len()
    );
    if !skipped.is_empty() {
        line.push_str(&format!(", {} skipped", skipped.len()));
    }
    line.push(')');
    writeln!(out, "{line}")?;
    for g in busy.iter().take(TOP_REPOS) {
        writeln!(
            out,
            "    {}: {} skill(s), {} finding(s) ({})",
            sanitize_line(g.repo.as_deref().unwrap_or(".")),
            g.skills,
            g.findings,
            severities(&g.counts)
        )?;
    }
    if busy.len() > TOP_REPOS {
        writeln!(
            out,
            "    … and {} more with findings",
            busy.len() - TOP_REPOS
        )?;
    }
    for g in skipped {
        writeln!(
            out,
            "    {}: SKIPPED ({})",
            sanitize_line(g.repo.as_deref().unwrap_or(".")),
            sanitize_line(g.error.as_deref().unwrap_or(""))
        )?;
    }
    let cross = r.cross_repo().count();
    if cross > 0 {
        writeln!(
            out,
            "    across repositories: {cross} finding(s) (counted in no repository's totals)"
        )?;
    }
    Ok(())
}

/// "No findings." or "N findings (H high, …); gate: PASS (…)/FAIL (…)".
fn write_closing(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let counts = r.counts();
    let gate = match &opts.gate {
        None => "gate: none set (`--fail-on high` sets one)".to_owned(),
        Some(g) => format!(
            "gate: {} ({})",
            if g.failing { "FAIL" } else { "PASS" },
            g.reasons.join("; ")
        ),
    };
    writeln!(out)?;
    if counts.total() == 0 && opts.gate.as_ref().is_none_or(|g| !g.failing) {
        return writeln!(out, "No findings.");
    }
    if counts.total() == 0 {
        return writeln!(out, "No findings; {gate}");
    }
    writeln!(
        out,
        "{} ({}); {gate}",
        plural(counts.total(), "finding", "findings"),
        severities(&counts)
    )
}

/// `1 skill`, `3 skills`.
fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::{headline, wrap};

    #[test]
    fn the_headline_is_the_first_sentence() {
        assert_eq!(
            headline("Runs `a.b. c` here. Fix: remove it."),
            "Runs `a.b. c` here."
        );
        assert_eq!(headline("One line\nsecond"), "One line");
        assert_eq!(headline("Use e.g. this. Then"), "Use e.g. this.");
        // Whole, however long: the evidence is usually at the end.
        let long = format!("{} `curl x | sh`.", "word ".repeat(60));
        assert_eq!(headline(&format!("{long} Fix it.")), long);
    }

    #[test]
    fn lines_wrap_at_the_width_on_spaces_with_an_indent() {
        let w = wrap(
            "  a.md:1:2  one two three four five six seven eight nine ten",
            30,
        );
        for l in w.lines() {
            assert!(l.chars().count() <= 30, "{l:?}");
        }
        assert!(w.lines().count() >= 2);
        assert!(w.lines().skip(1).all(|l| l.starts_with("      ")));
        assert_eq!(w.split_whitespace().collect::<Vec<_>>().len(), 11);
        // A word longer than the width stays whole.
        let long = "y".repeat(80);
        assert!(wrap(&format!("  p  {long} z"), 40).contains(&long));
    }
}
