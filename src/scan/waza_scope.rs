//! Waza's own rules for agent files (`agent-name-missing`, `agent-name-mismatch`: Waza
//! requires a `name` equal to the file name) apply where Waza is in use: a repository with a
//! Waza eval file or a `.waza.yaml`, or a scan that targets Waza (`--targets waza` or
//! `all`). Elsewhere a display name (`name: C# Expert`, which VS Code and GitHub Copilot allow)
//! breaks nothing, so the finding is a note (info) that says why.

use crate::discover::{Entry, EntryKind, Group};
use crate::finding::{Finding, Severity};
use crate::inventory::EvalFileInfo;

/// The rules Waza alone enforces.
const WAZA_ONLY: &[&str] = &[
    crate::agents::AGENT_NAME_MISSING,
    crate::agents::AGENT_NAME_MISMATCH,
];

/// Is `path` inside the folder `boundary` (relative to the scan base; empty for the base)?
fn within(path: &str, boundary: &str) -> bool {
    boundary.is_empty()
        || path
            .strip_prefix(boundary)
            .is_some_and(|r| r.is_empty() || r.starts_with('/'))
}

/// Lowers Waza's rules to info outside the repositories that use Waza.
pub fn apply(
    findings: &mut [Finding],
    groups: &[Group],
    entries: &[Entry],
    evals: &[EvalFileInfo],
    targets_waza: bool,
) {
    if targets_waza || !findings.iter().any(|f| WAZA_ONLY.contains(&f.rule_id)) {
        return;
    }
    let markers: Vec<&str> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::File)
        .map(|e| e.rel.as_str())
        .filter(|rel| {
            let name = rel.rsplit('/').next().unwrap_or(rel);
            name == ".waza.yaml" || name == ".waza.yml"
        })
        .chain(
            evals
                .iter()
                .filter(|e| e.format == "waza")
                .map(|e| e.path.as_str()),
        )
        .collect();
    // The repositories (groups) that use Waza, by boundary; the innermost group holds a path.
    let used: Vec<bool> = groups
        .iter()
        .map(|g| markers.iter().any(|m| within(m, &g.boundary_rel)))
        .collect();
    for f in findings.iter_mut() {
        if !WAZA_ONLY.contains(&f.rule_id) || f.severity == Severity::Info {
            continue;
        }
        let path = f.location.path.as_str();
        let group = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| within(path, &g.boundary_rel))
            .max_by_key(|(_, g)| g.boundary_rel.len())
            .map(|(i, _)| i);
        if group.is_some_and(|i| used[i]) {
            continue;
        }
        f.severity = Severity::Info;
        f.message.push_str(
            " Waza is not in use here (no Waza eval file, no `.waza.yaml`, no `--targets waza`), so this is a note: other harnesses allow a display name.",
        );
    }
}
