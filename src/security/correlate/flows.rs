//! One cause, one finding: a correlated finding in a file where a dataflow reports the same
//! cause is attached to the flow as a consequence.

use crate::finding::{Consequence, Finding, Related};
use crate::security::families::flows::{CREDENTIAL_FLOW, DOWNLOAD_FLOW, RANSOM_FLOW, RULES};

/// Correlated findings that a flow of the same file reports more exactly.
fn covered_by(flow_rule: &str) -> &'static [&'static str] {
    match flow_rule {
        CREDENTIAL_FLOW => &[
            "credential-exfiltration",
            "secret-in-network-call",
            "data-exfiltration",
        ],
        DOWNLOAD_FLOW => &[
            "remote-code-load",
            "fetch-then-execute",
            "download-then-execute",
        ],
        RANSOM_FLOW => &["data-exfiltration", "user-data-destruction"],
        _ => &[],
    }
}

/// One cause, one finding: a correlated finding (`credential-exfiltration`,
/// `secret-in-network-call`, `remote-code-load`, `download-then-execute`…) located in a file
/// where a flow reports the same cause is attached to the flow as a consequence.
pub fn absorb_correlated(findings: &mut Vec<Finding>) {
    let flows: Vec<usize> = (0..findings.len())
        .filter(|&i| RULES.contains(&findings[i].rule_id))
        .collect();
    if flows.is_empty() {
        return;
    }
    let mut drop = vec![false; findings.len()];
    for i in 0..findings.len() {
        let g = &findings[i];
        if RULES.contains(&g.rule_id) {
            continue;
        }
        let owner = flows.iter().copied().find(|&fi| {
            let f = &findings[fi];
            f.skill_path == g.skill_path
                && covered_by(f.rule_id).contains(&g.rule_id)
                && (g.location.path == f.location.path
                    || g.related.iter().any(|r| r.location.path == f.location.path))
        });
        if let Some(fi) = owner {
            drop[i] = true;
            let c = Consequence::of(&findings[i], None);
            let loc = findings[i].location.clone();
            let f = &mut findings[fi];
            crate::security::severity::raise(
                f,
                c.severity,
                &format!("its consequence `{}` in the same flow", c.rule_id),
            );
            if !f
                .consequences
                .iter()
                .any(|x| x.fingerprint == c.fingerprint)
            {
                f.consequences.push(c.clone());
                f.consequences.sort();
            }
            if f.location != loc && !f.related.iter().any(|r| r.location == loc) {
                f.related.push(Related {
                    location: loc,
                    message: format!("also `{}`", c.rule_id),
                });
            }
        }
    }
    let mut i = 0;
    findings.retain(|_| {
        let keep = !drop[i];
        i += 1;
        keep
    });
}
