//! The one place a security finding's severity is written.
//!
//! - At emission, a family gives the severity it decided from the rule's catalogue severity
//!   and the hit ([`emitted`]); the evidence model's context then caps it ([`cap`], called by
//!   `model::evidence::apply_ceiling`: a forbidding, cataloguing or test section, a remote
//!   sandbox call), with the reason in the finding's `confidence_reason`.
//! - In correlation, a real link raises a finding ([`raise`]); the reason is appended to its
//!   `confidence_reason` as well, so every change is stated on the finding. (Lowering is the
//!   model's business, at emission: correlation only joins evidence.)
//!
//! The lowest layer of the engine: it knows findings, not sources. `tests/layering.rs`
//! checks that no other file of `src/security/` writes a severity.

use crate::finding::{Finding, Severity};

/// The severity a family decided for the finding it just made (before any context cap).
pub fn emitted(f: &mut Finding, severity: Severity) {
    f.severity = severity;
}

/// The finding just made at most `ceiling`, because of its context `why` (recorded once).
pub fn cap(f: &mut Finding, ceiling: Severity, why: &str) {
    if f.severity <= ceiling {
        return;
    }
    f.severity = ceiling;
    if !f
        .confidence_reason
        .as_deref()
        .is_some_and(|r| r.contains(why))
    {
        f.lower_confidence(why);
    }
}

/// An example, a prohibition or a persona's own words: the finding is kept as an info note
/// that says why (a rule never disappears because of context; attackers imitate it).
pub fn as_note(f: &mut Finding, why: &str) {
    f.severity = Severity::Info;
    f.lower_confidence(why);
}

/// A correlation raises the finding to `to` (never lowers it): the change and its link are
/// stated in `confidence_reason` (`raised to high: …`); its confidence is unchanged.
pub fn raise(f: &mut Finding, to: Severity, why: &str) {
    if to <= f.severity {
        return;
    }
    f.severity = to;
    state(f, &format!("raised to {}: {why}", to.as_str()));
}

/// Appends `reason` to the finding's `confidence_reason`.
fn state(f: &mut Finding, reason: &str) {
    f.confidence_reason = Some(match f.confidence_reason.take() {
        Some(r) if r.contains(reason) => r,
        Some(r) => format!("{r}; {reason}"),
        None => reason.to_owned(),
    });
}
