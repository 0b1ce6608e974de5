//! Capability grants raise what they enable: a finding the skill's `allowed-tools` lets run
//! without a prompt names the grant and is raised.

use std::collections::BTreeSet;

use crate::finding::{Location, Severity};
use crate::security::families::permissions::{
    Tool, is_fetch_tool, is_write_tool, network_grant, parse_tool, show, tool_positions,
    unrestricted_shell,
};
use crate::security::model::SecCx;

/// Findings an unrestricted shell grant lets run without a prompt.
pub(crate) const SHELL_ENABLES: &[&str] = &[
    "credential-exfiltration",
    "decode-and-execute",
    "destructive-command",
    "exfiltration-endpoint",
    "fetch-then-execute",
    "persistence-authorized-keys",
    "persistence-mechanism",
    "privilege-escalation",
    "prompt-injection-approval-bypass",
    "prompt-injection-concealment",
    "prompt-injection-exfiltration-request",
    "prompt-injection-override",
    "prompt-injection-role-hijack",
    "reverse-shell",
];

/// Findings a network grant (`Bash(curl:*)`, `WebFetch`) lets run without a prompt.
pub(crate) const NETWORK_ENABLES: &[&str] = &[
    "credential-exfiltration",
    "exfiltration-endpoint",
    "fetch-then-execute",
    "prompt-injection-exfiltration-request",
];

/// Findings a file-write grant (`Write`, `Edit`) lets happen without a prompt.
pub(crate) const WRITE_ENABLES: &[&str] = &["persistence-authorized-keys", "persistence-mechanism"];

/// Capability grants raise the findings they enable. A grant alone is low (a capability
/// note); when the same skill has a finding the grant lets run without a prompt (a
/// download-and-run, an exfiltration, a destructive command, an injection…), that
/// finding names the grant as a related location and its message says so, and a medium
/// one is raised to high. Reference documents keep their cap (they are read, not run),
/// and nothing is raised to critical by a grant. Runs after every other family.
pub fn raise_enabled(scx: &mut SecCx<'_, '_>) {
    let Some((raw, pos)) = tool_positions(scx) else {
        return;
    };
    let tools: Vec<Tool> = raw.iter().map(|t| parse_tool(t)).collect();
    let at = |i: usize| pos.get(i).copied().unwrap_or((1, 1));
    // (grant index, the rules it enables)
    let mut grants: Vec<(usize, &'static [&'static str])> = Vec::new();
    if let Some(i) = tools.iter().position(unrestricted_shell) {
        grants.push((i, SHELL_ENABLES));
    }
    if let Some(i) = tools
        .iter()
        .position(|t| network_grant(t).is_some() || is_fetch_tool(&t.name))
    {
        grants.push((i, NETWORK_ENABLES));
    }
    if let Some(i) = tools.iter().position(|t| is_write_tool(&t.name)) {
        grants.push((i, WRITE_ENABLES));
    }
    if grants.is_empty() {
        return;
    }
    let reference: BTreeSet<String> = scx
        .sources
        .iter()
        .filter(|s| s.is_reference_doc())
        .map(|s| s.rel.clone())
        .collect();
    let entry_path = scx.cx.entry_path.clone();
    for f in scx.cx.findings.iter_mut() {
        let Some(&(gi, _)) = grants.iter().find(|(_, rules)| rules.contains(&f.rule_id)) else {
            continue;
        };
        if reference.contains(&f.location.path) {
            continue;
        }
        let (l, c) = at(gi);
        let grant = show(&tools[gi].raw);
        let raised = f.severity == Severity::Medium;
        if raised {
            crate::security::severity::raise(
                f,
                Severity::High,
                &format!("`allowed-tools` grants `{grant}`, which lets it run without a prompt"),
            );
        }
        f.message.push_str(&format!(
            " `allowed-tools` grants `{grant}`, so this runs without a permission prompt{}.",
            if raised { " (raised to high)" } else { "" }
        ));
        f.related.push(crate::finding::Related {
            location: Location::at(entry_path.clone(), l, c),
            message: format!(
                "the `allowed-tools` grant `{grant}` that lets it run without a prompt"
            ),
        });
    }
}
