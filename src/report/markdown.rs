//! Markdown renderer for pull-request comments and CI step summaries. Every
//! piece of scanned text is escaped with [`escape_markdown`].

use std::fmt::Write as _;
use std::io::{self, Write};

use super::summary::{Cap, GroupBy, by_category, by_rule, group_key, severities};
use super::{RenderOptions, VERSION};
use crate::finding::Severity;
use crate::result::ScanResult;
use crate::text::{escape_markdown, sanitize_line, truncate};

/// Renders into memory, then writes: the size limit needs the whole picture. The order is
/// what a reader of a pull-request comment or a job summary needs first: the counts, the
/// findings per rule, the index; then every finding, grouped (`--group-by`) in collapsed
/// sections; then the per-skill tables. When the report would pass `--max-bytes` (1 MiB by
/// default, GitHub's job-summary limit), finding rows are cut first, then the per-skill
/// tables, and a note says what was cut.
pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let limit = opts.max_bytes.unwrap_or(usize::MAX);
    let mut doc = String::new();
    head(r, opts, &mut doc);
    // Room kept for the closing note.
    const RESERVE: usize = 1024;
    let fits = |doc: &str, more: usize| doc.len() + more + RESERVE <= limit;
    let mut cut_findings = 0usize;
    let mut cut_sections: Vec<&str> = Vec::new();

    if r.findings.is_empty() {
        doc.push_str("No findings — every scanned skill is clean.\n\n");
    } else {
        doc.push_str("### Findings\n\n");
        let mut cap = Cap::new(opts.max_per_rule);
        for (title, fs) in groups(r, opts.group_by) {
            let open = format!(
                "<details><summary>{title}</summary>\n\n| Severity | Rule | Skill | Location | Message |\n|---|---|---|---|---|\n"
            );
            const CLOSE: &str = "\n</details>\n\n";
            let rows: Vec<String> = fs.into_iter().filter(|f| cap.admit(f)).map(row).collect();
            if rows.is_empty() {
                continue;
            }
            if !fits(&doc, open.len() + rows[0].len() + CLOSE.len()) {
                cut_findings += rows.len();
                continue;
            }
            doc.push_str(&open);
            let mut shown = 0;
            for rw in &rows {
                if !fits(&doc, rw.len() + CLOSE.len()) {
                    break;
                }
                doc.push_str(rw);
                shown += 1;
            }
            cut_findings += rows.len() - shown;
            doc.push_str(CLOSE);
        }
        if let Some(n) = cap.note() {
            let _ = writeln!(doc, "{}\n", escape_markdown(&n));
        }
    }
    for (name, block) in [
        ("repositories", repos_table(r)),
        ("index per skill", index_table(r, opts, false)),
        ("index per agent file", index_table(r, opts, true)),
        ("skills", skills_table(r)),
        (
            "loader matrix",
            loader_matrix(&r.artifacts, "Loader matrix", "Skill", "a same-named skill"),
        ),
        (
            "agent loader matrix",
            loader_matrix(
                &r.agents,
                "Agent loader matrix",
                "Agent file",
                "another file of the same identity",
            ),
        ),
    ] {
        if block.is_empty() {
            continue;
        }
        if fits(&doc, block.len()) {
            doc.push_str(&block);
        } else {
            cut_sections.push(name);
        }
    }
    if cut_findings > 0 || !cut_sections.is_empty() {
        let mut what = Vec::new();
        if cut_findings > 0 {
            what.push(format!("{cut_findings} finding row(s)"));
        }
        if !cut_sections.is_empty() {
            what.push(format!("the {} table(s)", cut_sections.join(", ")));
        }
        let _ = writeln!(
            doc,
            "> **Report cut** to stay under {limit} bytes (`--max-bytes`): {} not shown. The JSON and SARIF reports are complete.",
            what.join(" and ")
        );
    }
    // The head alone (counts, the per-rule table, the index) can pass a small limit: cut
    // it at a line, and say so.
    if doc.len() > limit {
        const NOTE: &str = "\n> **Report cut** at the `--max-bytes` limit inside its summary; the JSON and SARIF reports are complete.\n";
        let mut keep = limit.saturating_sub(NOTE.len()).min(doc.len());
        while !doc.is_char_boundary(keep) {
            keep -= 1;
        }
        let cut = doc[..keep].rfind('\n').map_or(0, |i| i + 1);
        doc.truncate(cut);
        doc.push_str(NOTE);
        if doc.len() > limit {
            doc.clear();
        }
    }
    out.write_all(doc.as_bytes())
}

/// The title, what was scanned, the counts, the findings per rule, the scan's index and
/// the repositories.
fn head(r: &ScanResult, opts: &RenderOptions, doc: &mut String) {
    let counts = r.counts();
    let _ = writeln!(doc, "## skillguard report\n");
    // Inside a code span nothing is interpreted, so the path needs no escaping beyond
    // neutralising control characters and backticks (and cannot autolink).
    let _ = writeln!(
        doc,
        "skillguard {VERSION} · {} scan of `{}`\n",
        r.mode.as_str(),
        sanitize_line(&r.target).replace('`', "'")
    );
    let c = &r.coverage;
    let _ = writeln!(
        doc,
        "| Skills found | Loadable | Excluded | With resources | With scripts | Files |\n|---:|---:|---:|---:|---:|---:|\n| {} | {} | {} | {} | {} | {} |\n",
        c.discovered,
        c.skill_count,
        c.silently_excluded_count,
        c.with_resources,
        c.with_scripts,
        r.files_scanned
    );
    if c.silently_excluded_count > 0 {
        let _ = writeln!(
            doc,
            "> **SILENTLY EXCLUDED:** {} skill folder(s) would not be loaded by a strict loader.\n",
            c.silently_excluded_count
        );
    }
    let per: Vec<String> = Severity::ALL
        .iter()
        .rev()
        .map(|s| format!("{} {}", counts.get(*s), s.as_str()))
        .collect();
    let _ = write!(
        doc,
        "**{} finding(s):** {}",
        counts.total(),
        per.join(" · ")
    );
    if let Some(t) = opts.fail_on {
        let _ = write!(
            doc,
            " · {} at or above `--fail-on {}`",
            counts.at_or_above(t),
            t.as_str()
        );
    }
    if !r.suppressed.is_empty() {
        let _ = write!(doc, " · {} suppressed", r.suppressed.len());
    }
    doc.push_str("\n\n");
    let rules = by_rule(&r.findings);
    if !rules.is_empty() {
        doc.push_str("### Findings by rule\n\n| Rule | Category | Findings | Severities |\n|---|---|---:|---|\n");
        for c in &rules {
            let _ = writeln!(
                doc,
                "| `{}` | {} | {} | {} |",
                c.rule,
                c.category,
                c.findings,
                severities(&c.counts)
            );
        }
        let cats: Vec<String> = by_category(&rules)
            .iter()
            .map(|c| format!("{} {}", c.category, c.findings))
            .collect();
        let _ = writeln!(doc, "\nBy category: {}.\n", cats.join(" · "));
    }
    write_index(r, opts, doc);
}

/// The repositories of a workspace scan, collapsed.
fn repos_table(r: &ScanResult) -> String {
    let mut doc = String::new();
    if !r.repos.iter().any(|g| g.repo.is_some()) {
        return doc;
    }
    let _ = writeln!(
        doc,
        "<details><summary>Repositories ({})</summary>\n\n| Repository | Skills | Excluded | Findings | Status |\n|---|---:|---:|---:|---|",
        r.repos.len()
    );
    for g in &r.repos {
        let _ = writeln!(
            doc,
            "| {} | {} | {} | {} | {} |",
            escape_markdown(g.repo.as_deref().unwrap_or(".")),
            g.skills,
            g.excluded,
            g.findings,
            g.error
                .as_deref()
                .map(|e| format!("skipped: {}", escape_markdown(e)))
                .unwrap_or_else(|| "scanned".into())
        );
    }
    let cross = r.cross_repo().count();
    if cross > 0 {
        let _ = writeln!(
            doc,
            "| *across repositories* (collisions, drift between copies) | | | {cross} | counted in no repository |"
        );
    }
    doc.push_str("\n</details>\n\n");
    doc
}

/// The findings in their groups, each group's findings most severe first; groups with the
/// most severe finding first (by rule: the per-rule order).
fn groups(r: &ScanResult, by: GroupBy) -> Vec<(String, Vec<&crate::finding::Finding>)> {
    let mut m: std::collections::BTreeMap<String, Vec<&crate::finding::Finding>> =
        Default::default();
    for f in &r.findings {
        m.entry(group_key(by, f)).or_default().push(f);
    }
    let mut v: Vec<(String, Vec<&crate::finding::Finding>)> = m.into_iter().collect();
    for (_, fs) in &mut v {
        fs.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then_with(|| a.sort_key().cmp(&b.sort_key()))
        });
    }
    v.sort_by(|a, b| {
        b.1[0]
            .severity
            .cmp(&a.1[0].severity)
            .then(b.1.len().cmp(&a.1.len()))
            .then(a.0.cmp(&b.0))
    });
    v.into_iter()
        .map(|(k, fs)| {
            let counts = crate::finding::SeverityCounts::from_findings(fs.iter().copied());
            let label = match by {
                GroupBy::Rule => format!("<code>{k}</code>"),
                _ if k.is_empty() => "(outside any skill)".to_owned(),
                _ => format!("<code>{}</code>", escape_markdown(&k).replace('`', "'")),
            };
            (
                format!("{label} — {} finding(s): {}", fs.len(), severities(&counts)),
                fs,
            )
        })
        .collect()
}

/// One finding as a table row; consequences follow the message.
fn row(f: &crate::finding::Finding) -> String {
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
    format!(
        "| {} | `{}` | {} | {} | {}{consequences} |\n",
        f.severity,
        f.rule_id,
        f.skill.as_deref().map(escape_markdown).unwrap_or_default(),
        escape_markdown(&f.location.to_string()),
        escape_markdown(&truncate(&f.message, 600)),
    )
}

fn skills_table(r: &ScanResult) -> String {
    let mut doc = String::new();
    if r.artifacts.is_empty() {
        return doc;
    }
    let _ = writeln!(
        doc,
        "<details><summary>Skills ({})</summary>\n\n| Skill | Path | Convention | Source | Files | Status |\n|---|---|---|---|---:|---|",
        r.artifacts.len()
    );
    for a in &r.artifacts {
        let _ = writeln!(
            doc,
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
        );
    }
    doc.push_str("\n</details>\n\n");
    doc
}

/// Which harness loads which skill (or agent file).
fn loader_matrix(
    items: &[crate::inventory::Artifact],
    title: &str,
    head: &str,
    shadow: &str,
) -> String {
    let mut doc = String::new();
    let profiles: Vec<&str> = crate::loaders::profiles()
        .iter()
        .filter(|p| {
            items
                .iter()
                .any(|a| a.loaders.iter().any(|v| v.profile == p.id))
        })
        .map(|p| p.id)
        .collect();
    if profiles.is_empty() {
        return doc;
    }
    let _ = writeln!(
        doc,
        "<details><summary>{title}</summary>\n\n✓ loaded · ✗ excluded (see the findings) · ≈ shadowed by {shadow} · blank: the harness does not read that folder\n"
    );
    let _ = writeln!(doc, "| {head} | {} |", profiles.join(" | "));
    let _ = writeln!(doc, "|---|{}", "---|".repeat(profiles.len()));
    for a in items
        .iter()
        .filter(|a| !a.loaders.is_empty() || a.kind == crate::inventory::ArtifactKind::Skill)
    {
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
        let _ = writeln!(
            doc,
            "| {} | {} |",
            escape_markdown(if a.path.is_empty() { "." } else { &a.path }),
            cells.join(" | ")
        );
    }
    doc.push_str("\n</details>\n\n");
    doc
}

fn write_index(r: &ScanResult, opts: &RenderOptions, doc: &mut String) {
    let index = opts.index_for(r);
    let head = index.scan.headline();
    // The explanation names the worst skill or agent file by its path, which the scanned
    // tree chooses: escaped like every other piece of scanned text. The gate note is
    // numbers and fixed words.
    let _ = writeln!(
        doc,
        "### Skill Security Index\n\n**Scan: {head}** — {}{}\n",
        escape_markdown(&index.scan.explanation),
        super::console::gate_note(&index)
    );
}

/// The index of every skill (or agent file), collapsed.
fn index_table(r: &ScanResult, opts: &RenderOptions, agents: bool) -> String {
    use crate::index::fmt_score;
    let mut doc = String::new();
    let (items, what, head) = if agents {
        (&r.agents, "agent file", "Name")
    } else {
        (&r.artifacts, "skill", "Skill")
    };
    if items.is_empty() {
        return doc;
    }
    let index = opts.index_for(r);
    let scores = if agents { &index.agents } else { &index.skills };
    let cell = |v: Option<f64>| v.map(fmt_score).unwrap_or_else(|| "not measured".into());
    let _ = writeln!(
        doc,
        "<details><summary>Index per {what} ({})</summary>\n\n| {head} | Path | Index | Grade | Compliance | Security | Efficiency | Evals |\n|---|---|---:|---|---:|---:|---:|---:|",
        items.len()
    );
    for a in items {
        let Some(i) = scores.get(&a.path) else {
            continue;
        };
        let _ = writeln!(
            doc,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            escape_markdown(&a.name),
            escape_markdown(if a.path.is_empty() { "." } else { &a.path }),
            i.score
                .map(fmt_score)
                .unwrap_or_else(|| "not scored".into()),
            i.grade.unwrap_or("—"),
            cell(i.axes.compliance),
            cell(i.axes.security),
            cell(i.axes.efficiency),
            cell(i.axes.evals),
        );
    }
    doc.push_str("\n</details>\n\n");
    doc
}
