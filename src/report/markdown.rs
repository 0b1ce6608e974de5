//! Markdown renderer for pull-request comments and CI step summaries. Every
//! piece of scanned text is escaped with [`escape_markdown`].

use std::io::{self, Write};

use super::{RenderOptions, VERSION};
use crate::finding::Severity;
use crate::result::ScanResult;
use crate::text::{escape_markdown, sanitize_line, truncate};

pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let counts = r.counts();
    writeln!(out, "## skillguard report")?;
    writeln!(out)?;
    // Inside a code span nothing is interpreted, so the path needs no escaping beyond
    // neutralising control characters and backticks (and cannot autolink).
    writeln!(
        out,
        "skillguard {VERSION} · {} scan of `{}`",
        r.mode.as_str(),
        sanitize_line(&r.target).replace('`', "'")
    )?;
    writeln!(out)?;
    let c = &r.coverage;
    writeln!(
        out,
        "| Skills found | Loadable | Excluded | With resources | With scripts | Files |"
    )?;
    writeln!(out, "|---:|---:|---:|---:|---:|---:|")?;
    writeln!(
        out,
        "| {} | {} | {} | {} | {} | {} |",
        c.discovered,
        c.skill_count,
        c.silently_excluded_count,
        c.with_resources,
        c.with_scripts,
        r.files_scanned
    )?;
    writeln!(out)?;
    if c.silently_excluded_count > 0 {
        writeln!(
            out,
            "> **SILENTLY EXCLUDED:** {} skill folder(s) would not be loaded by a strict loader.",
            c.silently_excluded_count
        )?;
        writeln!(out)?;
    }
    let per: Vec<String> = Severity::ALL
        .iter()
        .rev()
        .map(|s| format!("{} {}", counts.get(*s), s.as_str()))
        .collect();
    write!(
        out,
        "**{} finding(s):** {}",
        counts.total(),
        per.join(" · ")
    )?;
    if let Some(t) = opts.fail_on {
        write!(
            out,
            " · {} at or above `--fail-on {}`",
            counts.at_or_above(t),
            t.as_str()
        )?;
    }
    if !r.suppressed.is_empty() {
        write!(out, " · {} suppressed", r.suppressed.len())?;
    }
    writeln!(out)?;
    writeln!(out)?;
    write_index(r, opts, out)?;

    if r.findings.is_empty() {
        writeln!(out, "No findings — every scanned skill is clean.")?;
    } else {
        writeln!(out, "### Findings")?;
        writeln!(out)?;
        writeln!(out, "| Severity | Rule | Skill | Location | Message |")?;
        writeln!(out, "|---|---|---|---|---|")?;
        let mut fs: Vec<_> = r.findings.iter().collect();
        fs.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then_with(|| a.sort_key().cmp(&b.sort_key()))
        });
        for f in fs {
            // Consequences are listed after the message, each with its rule and harness.
            let consequences: String = f
                .consequences
                .iter()
                .map(|c| {
                    let who = c
                        .profile
                        .as_deref()
                        .map(|p| format!(" ({})", escape_markdown(p)))
                        .unwrap_or_default();
                    format!(
                        "<br>↳ consequence: `{}`{who}: {}",
                        c.rule_id,
                        escape_markdown(&truncate(&c.message, 300))
                    )
                })
                .collect();
            writeln!(
                out,
                "| {} | `{}` | {} | {} | {}{consequences} |",
                f.severity,
                f.rule_id,
                f.skill.as_deref().map(escape_markdown).unwrap_or_default(),
                escape_markdown(&f.location.to_string()),
                escape_markdown(&truncate(&f.message, 600)),
            )?;
        }
        writeln!(out)?;
    }

    if !r.artifacts.is_empty() {
        writeln!(
            out,
            "<details><summary>Skills ({})</summary>",
            r.artifacts.len()
        )?;
        writeln!(out)?;
        writeln!(
            out,
            "| Skill | Path | Convention | Source | Files | Status |"
        )?;
        writeln!(out, "|---|---|---|---|---:|---|")?;
        for a in &r.artifacts {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                escape_markdown(&a.name),
                escape_markdown(if a.path.is_empty() { "." } else { &a.path }),
                a.convention
                    .as_deref()
                    .map(escape_markdown)
                    .unwrap_or_default(),
                a.provenance
                    .as_ref()
                    .map(|p| escape_markdown(&p.label()))
                    .unwrap_or_default(),
                a.files.len(),
                if a.excluded { "excluded" } else { "loadable" }
            )?;
        }
        writeln!(out)?;
        writeln!(out, "</details>")?;
    }
    // Loader matrix: which harness loads which skill.
    let mut profiles: Vec<&str> = Vec::new();
    for p in crate::loaders::profiles() {
        if r.artifacts
            .iter()
            .any(|a| a.loaders.iter().any(|v| v.profile == p.id))
        {
            profiles.push(p.id);
        }
    }
    if !profiles.is_empty() {
        writeln!(out)?;
        writeln!(out, "<details><summary>Loader matrix</summary>")?;
        writeln!(out)?;
        writeln!(
            out,
            "✓ loaded · ✗ excluded (see the findings) · ≈ shadowed by a same-named skill · blank: the harness does not read that folder"
        )?;
        writeln!(out)?;
        writeln!(out, "| Skill | {} |", profiles.join(" | "))?;
        writeln!(out, "|---|{}", "---|".repeat(profiles.len()))?;
        for a in &r.artifacts {
            let cells: Vec<&str> = profiles
                .iter()
                .map(
                    |p| match a.loaders.iter().find(|v| v.profile == *p).map(|v| v.status) {
                        Some(crate::inventory::LoadStatus::Loaded) => "✓",
                        Some(crate::inventory::LoadStatus::Excluded) => "✗",
                        Some(crate::inventory::LoadStatus::Shadowed) => "≈",
                        None => "",
                    },
                )
                .collect();
            writeln!(
                out,
                "| {} | {} |",
                escape_markdown(if a.path.is_empty() { "." } else { &a.path }),
                cells.join(" | ")
            )?;
        }
        writeln!(out)?;
        writeln!(out, "</details>")?;
    }
    if r.repos.iter().any(|g| g.repo.is_some()) {
        writeln!(out)?;
        writeln!(out, "### Repositories")?;
        writeln!(out)?;
        writeln!(
            out,
            "| Repository | Skills | Excluded | Findings | Status |"
        )?;
        writeln!(out, "|---|---:|---:|---:|---|")?;
        for g in &r.repos {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                escape_markdown(g.repo.as_deref().unwrap_or(".")),
                g.skills,
                g.excluded,
                g.findings,
                g.error
                    .as_deref()
                    .map(|e| format!("skipped: {}", escape_markdown(e)))
                    .unwrap_or_else(|| "scanned".into())
            )?;
        }
    }
    Ok(())
}

fn write_index(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    use crate::index::fmt_score;
    let index = opts.index_for(r);
    let cell = |v: Option<f64>| v.map(fmt_score).unwrap_or_else(|| "not measured".into());
    writeln!(out, "### Skill Security Index")?;
    writeln!(out)?;
    let head = match (index.scan.score, index.scan.grade) {
        (Some(s), Some(g)) => format!("{}/100 ({g})", fmt_score(s)),
        _ => "not scored".into(),
    };
    // The explanation and the gate note are skillguard's own text (numbers and fixed
    // words, never scanned content), so they need no escaping.
    writeln!(
        out,
        "**Scan: {head}** — {}{}",
        index.scan.explanation,
        super::console::gate_note(&index)
    )?;
    writeln!(out)?;
    if r.artifacts.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "| Skill | Path | Index | Grade | Compliance | Security | Efficiency |"
    )?;
    writeln!(out, "|---|---|---:|---|---:|---:|---:|")?;
    for a in &r.artifacts {
        let Some(i) = index.skills.get(&a.path) else {
            continue;
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            escape_markdown(&a.name),
            escape_markdown(if a.path.is_empty() { "." } else { &a.path }),
            i.score
                .map(fmt_score)
                .unwrap_or_else(|| "not scored".into()),
            i.grade.unwrap_or("—"),
            cell(i.axes.compliance),
            cell(i.axes.security),
            cell(i.axes.efficiency),
        )?;
    }
    writeln!(out)?;
    Ok(())
}
