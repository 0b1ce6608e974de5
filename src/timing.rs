//! Per-stage time, for `scripts/bench.sh`'s breakdown: with `SKILLGUARD_TIMINGS=1` in the
//! environment, each stage's CPU time (the running thread's, summed over every thread) and
//! its wall time (summed the same way) are printed to stderr at the end as
//! `timing: STAGE CPU-SECONDS WALL-SECONDS` lines, then `timing: (process) CPU WALL` for the
//! whole process. Wall time alone says little on a loaded machine (a stage waiting for a core
//! counts); CPU is what a stage costs. Off by default: then [`time`] costs one relaxed load.
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

/// Thread CPU nanoseconds per stage.
static NANOS: [AtomicU64; STAGES.len()] = [const { AtomicU64::new(0) }; STAGES.len()];
/// Wall nanoseconds per stage.
static WALL: [AtomicU64; STAGES.len()] = [const { AtomicU64::new(0) }; STAGES.len()];

/// On, and when the breakdown was first asked about (about process start: `main` asks).
static ENABLED: LazyLock<Option<Instant>> = LazyLock::new(|| {
    std::env::var_os("SKILLGUARD_TIMINGS")
        .is_some_and(|v| v == "1")
        .then(Instant::now)
});

/// Is the breakdown on (`SKILLGUARD_TIMINGS=1`)?
pub fn enabled() -> bool {
    ENABLED.is_some()
}

/// A clock of the calling thread: CPU and wall time since [`Clock::start`].
struct Clock {
    cpu: Option<cpu_time::ThreadTime>,
    wall: Instant,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            cpu: cpu_time::ThreadTime::try_now().ok(),
            wall: Instant::now(),
        }
    }

    /// (CPU, wall) nanoseconds since the start; CPU is 0 where the system has no thread clock.
    fn elapsed(&self) -> (u64, u64) {
        let cpu = self
            .cpu
            .as_ref()
            .map_or(0, |c| c.elapsed().as_nanos() as u64);
        (cpu, self.wall.elapsed().as_nanos() as u64)
    }
}

/// Runs `f`, adding its duration to `stage` when the breakdown is on.
pub fn time<T>(stage: Stage, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let clock = Clock::start();
    let out = f();
    let (cpu, wall) = clock.elapsed();
    NANOS[stage as usize].fetch_add(cpu, Ordering::Relaxed);
    WALL[stage as usize].fetch_add(wall, Ordering::Relaxed);
    out
}

/// Per-rule time of the data rules (their regex searches), by rule id.
static RULES: std::sync::Mutex<Vec<(&'static str, u64)>> = std::sync::Mutex::new(Vec::new());

/// Runs `f`, adding its thread CPU time to data rule `id` when the breakdown is on.
pub fn time_rule<T>(id: &'static str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let clock = Clock::start();
    let out = f();
    let (ns, _) = clock.elapsed();
    let mut v = RULES.lock().unwrap_or_else(|e| e.into_inner());
    match v.iter_mut().find(|(r, _)| *r == id) {
        Some((_, t)) => *t += ns,
        None => v.push((id, ns)),
    }
    out
}

/// The breakdown as `timing: STAGE CPU WALL` lines in seconds (stages that took no time are
/// left out), `timing: (process) CPU WALL` for the whole process so far (CPU of every thread;
/// wall since the breakdown was first asked about), then the ten costliest data rules as
/// `timing-rule: ID CPU` lines.
pub fn summary() -> String {
    let mut out = String::new();
    let secs = |ns: u64| ns as f64 / 1e9;
    for (stage, name) in STAGES {
        let cpu = NANOS[stage as usize].load(Ordering::Relaxed);
        let wall = WALL[stage as usize].load(Ordering::Relaxed);
        if cpu > 0 || wall > 0 {
            out.push_str(&format!(
                "timing: {name} {:.4} {:.4}\n",
                secs(cpu),
                secs(wall)
            ));
        }
    }
    if let Some(start) = *ENABLED {
        let cpu = cpu_time::ProcessTime::try_now()
            .map(|p| p.as_duration().as_nanos() as u64)
            .unwrap_or(0);
        out.push_str(&format!(
            "timing: (process) {:.4} {:.4}\n",
            secs(cpu),
            secs(start.elapsed().as_nanos() as u64)
        ));
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

    /// A stage that waits costs wall time but (nearly) no CPU; one that computes costs CPU.
    #[test]
    fn the_clock_counts_cpu_not_waiting() {
        let c = Clock::start();
        std::thread::sleep(std::time::Duration::from_millis(60));
        let (cpu, wall) = c.elapsed();
        assert!(wall >= 60_000_000, "wall {wall}");
        assert!(cpu < 30_000_000, "a sleep cost {cpu} ns of CPU");
        let c = Clock::start();
        let mut x = 0u64;
        while c.wall.elapsed().as_millis() < 60 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let (cpu, _) = c.elapsed();
        assert!(cpu >= 20_000_000, "a busy loop cost only {cpu} ns of CPU");
    }

    #[test]
    fn stages_are_listed_in_their_own_order() {
        for (i, (s, _)) in STAGES.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
    }
}
