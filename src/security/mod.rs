//! Static security analysis of skill content, in phases that only ever look down:
//!
//! 1. **model** ([`model`]): every readable file of a skill decoded once into a [`Source`]
//!    and cut into [`Region`]s (frontmatter, prose, code blocks, HTML comments, whole
//!    scripts), with its headings and their roles, link units, placeholders, hosts and the
//!    one literal pass of the data rules. Nothing there emits a finding.
//! 2. **families** ([`families`]): each rule reads the model and emits its findings, with the
//!    severity decided at emission and capped by the context of the hit.
//! 3. **correlate** ([`correlate`]): findings and signals joined along a real link (the same
//!    command, dataflow or sentence, or a line naming the script that does the act) raise one
//!    end and attach the other.
//!
//! [`severity`] is the one place a severity is written, at emission and in correlation, each
//! change stated in the finding's `confidence_reason`. [`STEPS`] lists every step in the order
//! [`analyze`] runs it; `docs/development.md` holds the table generated from it.
//!
//! Pattern rules are data: their regexes, keywords, examples and negative examples live in
//! the rule's frontmatter in `rules/` (see [`model::datarules`]); rules that need logic are
//! code in the family's module. Severity follows certainty: high and critical only for
//! byte-certain or correlated evidence.

pub mod correlate;
pub mod families;
pub mod model;
pub mod severity;

use correlate::{chains, grants};
use families::execution::{self, shell};
use families::exfiltration::{self, secret_send};
use families::injection::{self, instructions};
use families::{flows, obfuscation, packaging, patterns, permissions, secrets, unicode};
use model::datarules;

pub use model::{Lang, Region, RegionKind, SecCx, Source};

/// Every rule id implemented by the security engine (code and data rules), sorted.
pub fn rule_ids() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = [
        unicode::RULES,
        injection::RULES,
        instructions::RULES,
        execution::RULES,
        exfiltration::RULES,
        obfuscation::RULES,
        secrets::RULES,
        packaging::RULES,
        permissions::RULES,
        secret_send::RULES,
        chains::RULES,
        shell::RULES,
        flows::RULES,
    ]
    .concat();
    v.extend(datarules::rule_ids());
    v.sort_unstable();
    v.dedup();
    v
}

/// A phase of the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// A family emits findings from the evidence model.
    Families,
    /// Findings joined along a real link: raised, attached or absorbed.
    Correlate,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Families => "families",
            Phase::Correlate => "correlate",
        }
    }
}

/// One step of [`analyze`]: its phase, the function it runs, what it does, and the stage
/// its time is counted under.
pub struct Step {
    pub phase: Phase,
    pub name: &'static str,
    pub does: &'static str,
    stage: crate::timing::Stage,
    run: fn(&mut SecCx<'_, '_>),
}

macro_rules! step {
    ($phase:ident, $name:literal, $stage:ident, $run:expr, $does:literal) => {
        Step {
            phase: Phase::$phase,
            name: $name,
            does: $does,
            stage: crate::timing::Stage::$stage,
            run: $run,
        }
    };
}

/// Every step of the engine, in the order [`analyze`] runs it. The model is built on demand
/// (each [`Source`] is made before the first step and its parts on first use), so it has no
/// step of its own.
pub const STEPS: &[Step] = &[
    step!(
        Families,
        "families::unicode",
        SecurityUnicode,
        unicode::check,
        "hidden Unicode, confusables"
    ),
    step!(
        Families,
        "families::patterns",
        SecurityPatterns,
        patterns::check,
        "the data rules of `rules/`; weak signals for correlation"
    ),
    step!(
        Families,
        "families::injection",
        SecurityInjection,
        injection::check,
        "instructions hidden from a reviewer"
    ),
    step!(
        Families,
        "families::injection::memory_writes",
        SecurityInjection,
        injection::memory_writes::check,
        "an agent file written through a variable that names it"
    ),
    step!(
        Families,
        "families::injection::instructions",
        SecurityInstructions,
        instructions::check,
        "prose read as instructions (imperative, object, destination)"
    ),
    step!(
        Families,
        "families::injection::instructions::check_brand",
        SecurityInstructions,
        instructions::check_brand,
        "names that impersonate a brand"
    ),
    step!(
        Families,
        "families::execution",
        SecurityExecution,
        execution::check,
        "load-time shell expansion, hooks, fetch-then-execute by origin"
    ),
    step!(
        Families,
        "families::execution::shell",
        SecurityShell,
        shell::check,
        "commands parsed as a shell parses them"
    ),
    step!(
        Families,
        "families::obfuscation",
        SecurityObfuscation,
        obfuscation::check,
        "encoded payloads, decoded and re-scanned"
    ),
    step!(
        Families,
        "families::secrets",
        SecuritySecrets,
        secrets::check,
        "provider tokens and generic secrets"
    ),
    step!(
        Families,
        "families::packaging",
        SecurityPackaging,
        packaging::check,
        "binaries, bytecode, archives, links, modes"
    ),
    step!(
        Families,
        "families::permissions",
        SecurityPermissions,
        permissions::check,
        "`allowed-tools`, MCP, packages, typosquats"
    ),
    step!(
        Families,
        "families::exfiltration::secret_send",
        SecurityExfiltration,
        secret_send::check,
        "a secret sent to a host that is not its own service"
    ),
    step!(
        Families,
        "families::exfiltration",
        SecurityExfiltration,
        exfiltration::check,
        "a credential read and a send in one act (signals of the data rules)"
    ),
    step!(
        Families,
        "families::flows",
        SecurityFlows,
        flows::check,
        "data followed through Python and JavaScript/TypeScript"
    ),
    step!(
        Families,
        "families::execution::download_exec",
        SecurityExecution,
        execution::download_exec::check,
        "a file downloaded, then run"
    ),
    step!(
        Correlate,
        "correlate::chains",
        SecurityExfiltration,
        chains::check,
        "chains of steps as one finding; instructions raised to what the script they name does"
    ),
    step!(
        Correlate,
        "correlate::instructions",
        SecurityExfiltration,
        correlate::instructions::correlate,
        "installer and warning bypass as a pair; a description that makes an act the skill's job"
    ),
    step!(
        Correlate,
        "correlate::flows",
        SecurityExfiltration,
        absorb_into_flows,
        "a correlated finding a flow of the same file reports more exactly, attached to the flow"
    ),
    step!(
        Correlate,
        "correlate::grants",
        SecurityPermissions,
        grants::raise_enabled,
        "a finding a capability grant lets run without a prompt names the grant"
    ),
    step!(
        Correlate,
        "correlate::chains::absorb",
        SecurityExfiltration,
        absorb_chains,
        "one cause, one finding: consequences attached to their cause"
    ),
];

fn absorb_into_flows(scx: &mut SecCx<'_, '_>) {
    correlate::flows::absorb_correlated(&mut scx.cx.findings);
}

fn absorb_chains(scx: &mut SecCx<'_, '_>) {
    chains::absorb(&mut scx.cx.findings);
}

/// Runs every step of [`STEPS`] over one skill, in order.
pub fn analyze(scx: &mut SecCx<'_, '_>) {
    for s in STEPS {
        crate::timing::time(s.stage, || (s.run)(scx));
    }
}

/// The table of [`STEPS`] that `docs/development.md` holds (checked by `tests/layering.rs`).
pub fn steps_table() -> String {
    let mut out = String::from("| # | Phase | Step | What |\n|---|---|---|---|\n");
    for (i, s) in STEPS.iter().enumerate() {
        out.push_str(&format!(
            "| {} | {} | `security::{}` | {} |\n",
            i + 1,
            s.phase.name(),
            s.name,
            s.does
        ));
    }
    out
}
