//! Per-stage time, for `scripts/bench.sh`'s breakdown: with `SKILLGUARD_TIMINGS=1` in the
//! environment, each stage's time is summed over every thread (so stages that run in
//! parallel add up to CPU time, not wall time) and printed to stderr at the end as
//! `timing: STAGE SECONDS` lines. Off by default: then [`time`] costs one relaxed load.
//!
//! The lowest layer of the pipeline: it imports nothing from the crate.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A stage of the pipeline, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Walk,
    ReadHash,
    Parse,
    Compliance,
    Quality,
    SecuritySources,
    SecurityUnicode,
    SecurityPatterns,
    SecurityInjection,
    SecurityInstructions,
    SecurityExecution,
    SecurityShell,
    SecurityObfuscation,
    SecuritySecrets,
    SecurityPackaging,
    SecurityPermissions,
    SecurityExfiltration,
    SecurityFlows,
    SecurityScanWide,
    Evals,
    Loaders,
    Hashes,
    Index,
    Report,
}

const STAGES: [(Stage, &str); 24] = [
    (Stage::Walk, "walk"),
    (Stage::ReadHash, "read+hash"),
    (Stage::Parse, "parse"),
    (Stage::Compliance, "compliance"),
    (Stage::Quality, "quality"),
    (Stage::SecuritySources, "security:sources+regions"),
    (Stage::SecurityUnicode, "security:hidden-unicode"),
    (Stage::SecurityPatterns, "security:data-rules"),
    (Stage::SecurityInjection, "security:prompt-injection"),
    (Stage::SecurityInstructions, "security:instructions"),
    (Stage::SecurityExecution, "security:execution"),
    (Stage::SecurityShell, "security:shell-parser"),
    (Stage::SecurityObfuscation, "security:obfuscation"),
    (Stage::SecuritySecrets, "security:secrets"),
    (Stage::SecurityPackaging, "security:packaging"),
    (Stage::SecurityPermissions, "security:permissions"),
    (Stage::SecurityExfiltration, "security:exfiltration"),
    (Stage::SecurityFlows, "security:code-flows"),
    (Stage::SecurityScanWide, "security:scan-wide"),
    (Stage::Evals, "evals"),
    (Stage::Loaders, "loaders"),
    (Stage::Hashes, "baseline-hashes"),
    (Stage::Index, "index"),
    (Stage::Report, "report"),
];

static NANOS: [AtomicU64; STAGES.len()] = [const { AtomicU64::new(0) }; STAGES.len()];

static ENABLED: LazyLock<bool> =
    LazyLock::new(|| std::env::var_os("SKILLGUARD_TIMINGS").is_some_and(|v| v == "1"));

/// Is the breakdown on (`SKILLGUARD_TIMINGS=1`)?
pub fn enabled() -> bool {
    *ENABLED
}

/// Runs `f`, adding its duration to `stage` when the breakdown is on.
pub fn time<T>(stage: Stage, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let t0 = Instant::now();
    let out = f();
    NANOS[stage as usize].fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
    out
}

/// Per-rule time of the data rules (their regex searches), by rule id.
static RULES: std::sync::Mutex<Vec<(&'static str, u64)>> = std::sync::Mutex::new(Vec::new());

/// Runs `f`, adding its duration to data rule `id` when the breakdown is on.
pub fn time_rule<T>(id: &'static str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let t0 = Instant::now();
    let out = f();
    let ns = t0.elapsed().as_nanos() as u64;
    let mut v = RULES.lock().unwrap_or_else(|e| e.into_inner());
    match v.iter_mut().find(|(r, _)| *r == id) {
        Some((_, t)) => *t += ns,
        None => v.push((id, ns)),
    }
    out
}

/// The breakdown as `timing: STAGE SECONDS` lines (stages that took no time are left out),
/// then the ten costliest data rules as `timing-rule: ID SECONDS` lines.
pub fn summary() -> String {
    let mut out = String::new();
    for (stage, name) in STAGES {
        let ns = NANOS[stage as usize].load(Ordering::Relaxed);
        if ns > 0 {
            out.push_str(&format!("timing: {name} {:.4}\n", ns as f64 / 1e9));
        }
    }
    let mut rules = RULES.lock().unwrap_or_else(|e| e.into_inner()).clone();
    rules.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (id, ns) in rules.into_iter().take(10) {
        out.push_str(&format!("timing-rule: {id} {:.4}\n", ns as f64 / 1e9));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_are_listed_in_their_own_order() {
        for (i, (s, _)) in STAGES.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
    }
}
