//! The instruction families' findings raised when they pair up: an installer and the warning
//! bypass that lets it run, or the look-alike name that delivers it.

use crate::finding::Severity;
use crate::security::families::injection::instructions::BRAND_IMPERSONATION;
use crate::security::model::SecCx;

/// Raises the new families' findings when they pair up, and lowers what the skill's
/// description says it is for. Runs after the chains, before [`crate::security::correlate::chains::absorb`].
pub fn correlate(scx: &mut SecCx<'_, '_>) {
    let delivers = scx
        .cx
        .findings
        .iter()
        .any(crate::security::model::delivers_payload);
    let warning_bypass = scx
        .cx
        .findings
        .iter()
        .any(|f| f.rule_id == "installer-warning-bypass");
    for f in scx.cx.findings.iter_mut() {
        // Examples and prohibitions kept as notes stay notes.
        if f.is_example_note() {
            continue;
        }
        match f.rule_id {
            "installer-warning-bypass" if delivers && f.severity < Severity::High => {
                crate::security::severity::raise(
                    f,
                    Severity::High,
                    "the skill also makes the user or agent fetch and run an installer",
                );
                f.message.push_str(
                    " The skill also makes the user or agent fetch and run an installer, so removing the warning is how that installer gets past the operating system: high.",
                );
            }
            BRAND_IMPERSONATION if delivers || warning_bypass => {
                crate::security::severity::raise(
                    f,
                    Severity::High,
                    "the skill also makes the user or agent fetch and run an installer",
                );
                f.message.push_str(
                    " The skill also makes the user or agent fetch and run an installer: a look-alike name delivering a payload is the impersonation campaign pattern, high.",
                );
            }
            _ => {}
        }
    }
}
