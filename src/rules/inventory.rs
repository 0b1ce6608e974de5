//! Inventory rules: what the skill's files and links say, independent of content.

use super::{Cx, ids};
use crate::finding::Location;
use crate::inventory::{FileKind, LinkState};

/// Scripts exposed to the agent (AgentEval's governance flag).
pub fn check_scripts(cx: &mut Cx<'_>) {
    let scripts: Vec<&str> = cx
        .files
        .iter()
        .filter(|f| f.kind == FileKind::Script)
        .filter(|f| {
            f.symlink
                .as_ref()
                .is_none_or(|s| s.state == LinkState::Inside)
        })
        .map(|f| f.path.as_str())
        .collect();
    if scripts.is_empty() {
        return;
    }
    let mut shown: Vec<String> = scripts.iter().take(5).map(|s| format!("`{s}`")).collect();
    if scripts.len() > 5 {
        shown.push(format!("and {} more", scripts.len() - 5));
    }
    let msg = format!(
        "skill exposes {} script(s) the agent can run ({}). Review each script and gate execution (an approval or execution gate) before allowing the skill in production.",
        scripts.len(),
        crate::text::sanitize_line(&shown.join(", "))
    );
    let loc = Location::file(cx.path_of(scripts[0]));
    cx.emit(ids::SCRIPT_REQUIRES_GOVERNANCE_REVIEW, msg, loc, "scripts");
}

/// Entry file name variants (`skill.md`, `Skill.md`) and duplicates.
pub fn check_filename(cx: &mut Cx<'_>, entry: &str, variants: &[String]) {
    if entry != "SKILL.md" {
        let loc = Location::file(cx.path_of(entry));
        let lower = if entry == "skill.md" {
            " skills-ref accepts lowercase `skill.md` as a fallback;"
        } else {
            ""
        };
        cx.emit(
            ids::SKILL_FILENAME_NONCANONICAL,
            format!(
                "skill file is named `{entry}`, not `SKILL.md`:{lower} Claude Code, VS Code, Codex, MAF and OpenCode do not see it on case-sensitive file systems (Linux, CI) but do on macOS and Windows. Rename it to `SKILL.md`."
            ),
            loc,
            "filename",
        );
    }
    for v in variants {
        let loc = Location::file(cx.path_of(v));
        cx.emit(
            ids::SKILL_FILENAME_NONCANONICAL,
            format!(
                "`{v}` sits beside `{entry}`: on case-insensitive file systems only one of them exists, and which one a loader reads depends on the platform. Delete `{v}`."
            ),
            loc,
            &format!("variant:{v}"),
        );
    }
}

/// The anchor of a `skill-nested` finding for a sample skill among its parent's resources:
/// info, and the drops it causes are expected (`crate::loaders::targets`).
pub const NESTED_IN_RESOURCES: &str = "nested-in-resources";

/// Folders of a skill that hold its resources, samples and tests, not skills of their own.
const RESOURCE_FOLDERS: &[&str] = &[
    "assets",
    "templates",
    "template",
    "examples",
    "example",
    "samples",
    "sample",
    "fixtures",
    "testdata",
    "tests",
    "test",
    "references",
    "resources",
];

/// A skill nested in another skill's folder.
pub fn check_nested(
    cx: &mut Cx<'_>,
    entry: &str,
    parent: Option<&str>,
    parent_entry: Option<&str>,
) {
    let (Some(parent), Some(parent_entry)) = (parent, parent_entry) else {
        return;
    };
    let loc = Location::file(cx.path_of(entry));
    let parent_loc = Location::file(parent_entry.to_owned());
    let parent = if parent.is_empty() { "." } else { parent };
    // A sample skill among its parent's resources (`assets/sample-skill/SKILL.md` of a skill
    // that tests or templates skills) is content of the parent: that most loaders do not load
    // it is what its author wants. Its text is still scanned like every file.
    let entry_path = cx.path_of(entry);
    let below = entry_path
        .strip_prefix(parent)
        .unwrap_or(&entry_path)
        .trim_start_matches('/');
    if let Some(folder) = below
        .split('/')
        .next()
        .filter(|f| RESOURCE_FOLDERS.contains(&f.to_ascii_lowercase().as_str()))
    {
        cx.emit_related(
            ids::SKILL_NESTED,
            format!(
                "this `SKILL.md` sits in `{folder}/` of the skill at `{parent}`, among its resources: a sample or template the parent uses. MAF, Claude Code and most loaders do not load it, as a sample wants; recursive loaders (OpenCode v2, Codex) load it as a skill of its own. Rename it (`SKILL.md.example`) if no harness should ever load it."
            ),
            loc,
            NESTED_IN_RESOURCES,
            vec![(parent_loc, "enclosing skill".into())],
        );
        return;
    }
    cx.emit_related(
        ids::SKILL_NESTED,
        format!(
            "this skill is nested inside the skill at `{parent}`: MAF and most loaders stop at the first `SKILL.md` and never see it, while recursive loaders (OpenCode v2, Codex) load it. Move it beside its parent."
        ),
        loc,
        "nested",
        vec![(parent_loc, "enclosing skill".into())],
    );
}

/// A skill no harness discovers by convention (repository and workspace scans).
pub fn check_outside_conventions(cx: &mut Cx<'_>, entry: &str) {
    let loc = Location::file(cx.path_of(entry));
    cx.emit(
        ids::SKILL_OUTSIDE_CONVENTIONS,
        "skill is not under any folder a harness discovers (`.claude/skills`, `.agents/skills`, `.github/skills`, `skills/`, …): it loads only if installed, copied or configured explicitly. Move it under a conventional folder if it should be picked up, or ignore this for templates and fixtures.".into(),
        loc,
        "outside-conventions",
    );
}
