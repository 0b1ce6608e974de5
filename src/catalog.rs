//! The rule catalog: one Markdown file per rule under `rules/`, YAML frontmatter
//! for metadata, body for documentation. The files are compiled into the binary
//! and parsed once; `skillguard rules`, `skillguard explain`, SARIF `rules[]` and
//! `docs/rules.md` all read from here.

use std::sync::LazyLock;

use serde::Deserialize;

use crate::finding::{Confidence, Severity};
use crate::parse::frontmatter;

/// Metadata and documentation of one rule.
#[derive(Debug, Clone)]
pub struct RuleMeta {
    pub id: &'static str,
    pub title: &'static str,
    pub severity: Severity,
    pub confidence: Confidence,
    /// `compliance`, `quality`, `loader`, `integrity`, `policy` or `security/<family>`.
    pub category: &'static str,
    /// AgentEval's name for the same rule, if it has one (one of [`AGENTEVAL_RULES`]).
    pub agenteval: Option<&'static str>,
    /// Why no scan ever reports this rule (`never-fires:` in the catalog file): an AgentEval
    /// rule that cannot be reached from files, documented so `rules` and `explain` answer for
    /// it. `tests/catalog.rs` checks that no code emits such a rule.
    pub never_fires: Option<&'static str>,
    pub since: &'static str,
    /// `stable` or `preview`.
    pub status: &'static str,
    /// True when a strict loader (the specification, MAF) does not load a skill with this finding.
    pub excludes_skill: bool,
    /// False for a rule a scan runs only when asked to (`--select`, `select`, or
    /// `[rules.<id or category>] enable = true`; see [`Enabled`]).
    pub default_enabled: bool,
    /// One-line remediation.
    pub fix: &'static str,
    /// Markdown documentation (the file body).
    pub docs: &'static str,
    /// File name inside `rules/`.
    pub file: &'static str,
    /// The pattern of a data rule (see `security::patterns`).
    pub matcher: Option<MatchSpec>,
    /// Texts the rule must match (data rules; checked by a test).
    pub examples: Vec<Example>,
    /// Look-alikes the rule must not match (checked by a test).
    pub negative_examples: Vec<Example>,
}

/// The `match:` block of a data rule's frontmatter: where to look and what to look for.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MatchSpec {
    /// Region kinds searched: `frontmatter`, `prose`, `code-block`, `script`, `comment`,
    /// `data`, or the shorthands `code` (code blocks and scripts), `markdown` (frontmatter,
    /// prose, comments) and `any`.
    pub scope: Vec<String>,
    /// Languages of code regions searched (`shell`, `python`, `javascript`, `powershell`,
    /// `other`); empty = all.
    #[serde(default)]
    pub langs: Vec<String>,
    /// Case-insensitive words of which at least one must occur in a file before the
    /// regexes run on it (an Aho-Corasick gate).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Regexes (Rust `regex` syntax, linear time); a match of any is a hit.
    pub regex: Vec<String>,
    /// A hit is dropped when its line matches one of these.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Drop hits in prose that forbid, warn about or quote the act ("never ...",
    /// "attackers write `...`").
    #[serde(default)]
    pub negation: bool,
    /// Records a correlation signal instead of only reporting (`credential-read`,
    /// `env-dump`, `network-send`, `fetch`, `exec`, `conceal`).
    #[serde(default)]
    pub signal: Option<String>,
    /// Only a signal: no finding of its own.
    #[serde(default)]
    pub silent: bool,
    /// The sentence the finding starts with (default: the title).
    #[serde(default)]
    pub message: Option<String>,
    /// Minimum Shannon entropy (bits per character) of the capture group named `secret`
    /// (or of the whole match when there is none); lower hits are dropped.
    #[serde(default)]
    pub entropy: Option<f64>,
    /// Drop hits whose `secret` group (or whole match) is a documented placeholder
    /// (`xxxx`, `${VAR}`, `<your-key>`, `YOUR_API_KEY`, `example`, repeated or
    /// sequential characters...), and hits in `.env.example`-style files.
    #[serde(default)]
    pub placeholders: bool,
    /// Show only the start of the match in messages (secrets).
    #[serde(default)]
    pub redact: bool,
}

/// An example text of a data rule: a string (the body of a `SKILL.md`) or a file.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Example {
    Text(String),
    File {
        /// Path inside the skill (`SKILL.md`, `scripts/run.py`, ...).
        file: String,
        text: String,
    },
}

impl Example {
    /// (path inside the skill, text).
    pub fn parts(&self) -> (&str, &str) {
        match self {
            Example::Text(t) => ("SKILL.md", t),
            Example::File { file, text } => (file, text),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawMeta {
    id: String,
    title: String,
    severity: String,
    confidence: String,
    category: String,
    #[serde(default)]
    agenteval: Option<String>,
    #[serde(default)]
    never_fires: Option<String>,
    since: String,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    excludes_skill: bool,
    #[serde(default = "yes")]
    default_enabled: bool,
    fix: String,
    #[serde(default, rename = "match")]
    matcher: Option<MatchSpec>,
    #[serde(default)]
    examples: Vec<Example>,
    #[serde(default, rename = "negative_examples", alias = "negative-examples")]
    negative_examples: Vec<Example>,
}

/// Every catalog file, sorted by file name (generated by `build.rs` from `rules/*.md`).
pub const RULE_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/rule_files.rs"));

/// Error in a catalog file (a build-time bug; tests catch it).
#[derive(Debug, thiserror::Error)]
#[error("rules/{file}: {message}")]
pub struct CatalogError {
    pub file: String,
    pub message: String,
}

fn yes() -> bool {
    true
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Parses one catalog file.
pub fn parse_rule_file(file: &'static str, text: &'static str) -> Result<RuleMeta, CatalogError> {
    let err = |message: String| CatalogError {
        file: file.to_owned(),
        message,
    };
    let split = frontmatter::split(text);
    let (yaml, body) = match (&split.yaml, split.body_start) {
        (Some(y), Some(b)) => (&text[y.clone()], &text[b..]),
        _ => return Err(err("missing or unclosed `---` frontmatter".into())),
    };
    let raw: RawMeta = serde_saphyr::from_str(yaml).map_err(|e| err(e.to_string()))?;
    let severity = Severity::parse(&raw.severity)
        .ok_or_else(|| err(format!("unknown severity `{}`", raw.severity)))?;
    let confidence = Confidence::parse(&raw.confidence)
        .ok_or_else(|| err(format!("unknown confidence `{}`", raw.confidence)))?;
    let category_ok = matches!(
        raw.category.as_str(),
        "compliance" | "quality" | "loader" | "integrity" | "policy"
    ) || raw
        .category
        .strip_prefix("security/")
        .is_some_and(|f| !f.is_empty());
    if !category_ok {
        return Err(err(format!("unknown category `{}`", raw.category)));
    }
    let status = raw.status.unwrap_or_else(|| "stable".into());
    if status != "stable" && status != "preview" {
        return Err(err(format!("unknown status `{status}`")));
    }
    if let Some(a) = &raw.agenteval
        && !AGENTEVAL_RULES.contains(&a.as_str())
    {
        return Err(err(format!("`agenteval: {a}` is not an AgentEval rule")));
    }
    if raw
        .never_fires
        .as_deref()
        .is_some_and(|r| r.trim().is_empty())
    {
        return Err(err(
            "`never-fires` needs the reason the rule never fires".into()
        ));
    }
    if format!("{}.md", raw.id) != file {
        return Err(err(format!("id `{}` does not match the file name", raw.id)));
    }
    Ok(RuleMeta {
        id: leak(raw.id),
        title: leak(raw.title),
        severity,
        confidence,
        category: leak(raw.category),
        agenteval: raw.agenteval.map(leak),
        never_fires: raw.never_fires.map(|r| leak(r.trim().to_owned())),
        since: leak(raw.since),
        status: leak(status),
        excludes_skill: raw.excludes_skill,
        default_enabled: raw.default_enabled,
        fix: leak(raw.fix.trim().to_owned()),
        docs: body.trim(),
        file,
        matcher: raw.matcher,
        examples: raw.examples,
        negative_examples: raw.negative_examples,
    })
}

static CATALOG: LazyLock<Vec<RuleMeta>> = LazyLock::new(|| {
    let mut v: Vec<RuleMeta> = RULE_FILES
        .iter()
        .map(|(f, t)| parse_rule_file(f, t).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    v.sort_by(|a, b| a.id.cmp(b.id));
    v
});

/// All rules, sorted by id.
pub fn all() -> &'static [RuleMeta] {
    &CATALOG
}

/// Looks a rule up by id, by its AgentEval alias (case-insensitive) or by the number of that
/// AgentEval rule (`0`–`14`, [`AGENTEVAL_RULES`]).
pub fn get(id: &str) -> Option<&'static RuleMeta> {
    let c = all();
    let alias = match id.parse::<usize>() {
        Ok(n) if id.bytes().all(|b| b.is_ascii_digit()) => AGENTEVAL_RULES.get(n).copied(),
        _ => Some(id),
    };
    c.binary_search_by(|m| m.id.cmp(id))
        .ok()
        .map(|i| &c[i])
        .or_else(|| {
            let alias = alias?;
            c.iter()
                .find(|m| m.agenteval.is_some_and(|a| a.eq_ignore_ascii_case(alias)))
        })
}

/// The rule id, AgentEval alias or category closest to an unknown `input` (a typo), if one
/// is close enough to be what was meant: Jaro-Winkler similarity (as clap suggests
/// subcommands), compared without regard to case, `_` read as `-`.
pub fn closest(input: &str) -> Option<&'static str> {
    let wanted = input.trim().to_ascii_lowercase().replace('_', "-");
    if wanted.is_empty() {
        return None;
    }
    let mut best: Option<(f64, &'static str)> = None;
    let mut consider = |cand: &'static str| {
        let score = strsim::jaro_winkler(&wanted, &cand.to_ascii_lowercase());
        // Ties keep the first candidate (rules in id order): deterministic.
        if score >= 0.85 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, cand));
        }
    };
    for m in all() {
        consider(m.id);
    }
    for m in all() {
        // A category and each of its parents (`security/secrets`, `security`).
        let mut c = m.category;
        loop {
            consider(c);
            match c.rsplit_once('/') {
                Some((parent, _)) => c = parent,
                None => break,
            }
        }
    }
    for a in AGENTEVAL_RULES {
        consider(a);
    }
    best.map(|(_, c)| c)
}

/// `" (did you mean `x`?)"` for an unknown rule id or category with a close match, else "".
pub fn did_you_mean(input: &str) -> String {
    closest(input)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod suggest_tests {
    use super::*;

    #[test]
    fn a_typo_gets_the_closest_rule_id_or_category() {
        assert_eq!(closest("fetch-then-exec"), Some("fetch-then-execute"));
        assert_eq!(
            closest("secret_in_network_call"),
            Some("secret-in-network-call")
        );
        assert_eq!(closest("securty"), Some("security"));
        assert_eq!(closest("NameMisssing"), Some("NameMissing"));
        assert_eq!(closest("zzz"), None);
        assert_eq!(closest(""), None);
        assert_eq!(did_you_mean("zzz"), "");
    }
}

/// AgentEval's `SkillComplianceRule`, by its integer value (docs/migrating-from-agenteval.md).
pub const AGENTEVAL_RULES: [&str; 15] = [
    "NameMissing",
    "NameTooLong",
    "NameInvalidChars",
    "NameConsecutiveHyphens",
    "NameMismatchesDirectory",
    "DescriptionMissing",
    "DescriptionTooLong",
    "CompatibilityTooLong",
    "ScriptRequiresGovernanceReview",
    "ResourceFromUntrustedSource",
    "AllowedToolsExperimental",
    "SkillExcludedFromDiscovery",
    "CrossLocationContentDrift",
    "MatchesPreviouslyVettedCopy",
    "ManifestChangedSinceBaseline",
];

impl RuleMeta {
    /// The integer AgentEval writes for this rule (`Rule` in its JSON), when it has an alias.
    pub fn agenteval_number(&self) -> Option<usize> {
        let a = self.agenteval?;
        AGENTEVAL_RULES.iter().position(|r| *r == a)
    }
}

/// The rules that are off by default (`default-enabled: false` in their catalog file) which
/// one scan runs anyway, because the command line or the configuration asked for them
/// (`config::enabled_rules`). Every other rule always runs. The default runs none of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Enabled(std::collections::BTreeSet<&'static str>);

impl Enabled {
    /// Exactly these off-by-default rules (ids or aliases; others are ignored).
    pub fn only<'a>(ids: impl IntoIterator<Item = &'a str>) -> Enabled {
        Enabled(
            ids.into_iter()
                .filter_map(get)
                .filter(|m| !m.default_enabled)
                .map(|m| m.id)
                .collect(),
        )
    }

    /// Every off-by-default rule.
    pub fn every() -> Enabled {
        Enabled(
            all()
                .iter()
                .filter(|m| !m.default_enabled)
                .map(|m| m.id)
                .collect(),
        )
    }

    /// Does the scan run `id`?
    pub fn runs(&self, id: &str) -> bool {
        get(id).is_some_and(|m| m.default_enabled || self.0.contains(m.id))
    }

    /// The off-by-default rules switched on, sorted.
    pub fn ids(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().copied()
    }
}

/// Index of a rule in [`all`] (SARIF `ruleIndex`).
pub fn index_of(id: &str) -> Option<usize> {
    all().binary_search_by(|m| m.id.cmp(id)).ok()
}

/// Renders `docs/rules.md` from the catalog.
pub fn render_rules_markdown() -> String {
    let mut out = String::new();
    out.push_str("<!-- GENERATED from rules/*.md by `skillguard rules --format markdown`; do not edit. -->\n");
    out.push_str("# Rules\n\n");
    out.push_str(
        "Every rule skillguard can report. Each entry is generated from its catalog file in\n",
    );
    out.push_str(
        "`rules/`; `skillguard explain <id>` prints the same text. Severity is the default;\n",
    );
    out.push_str(
        "`--fail-on` compares against it. *Excludes* means a strict loader (the Agent Skills\n",
    );
    out.push_str(
        "specification, Microsoft Agent Framework) does not load a skill with this finding.\n",
    );
    out.push_str(
        "*Off* marks a rule that runs only when asked for: `--select` or `select` naming it or\n",
    );
    out.push_str(
        "its category, or `[rules.<id or category>] enable = true` (docs/configuration.md).\n\n",
    );
    out.push_str(
        "| ID | Title | Category | Severity | Confidence | AgentEval (#) | Excludes | Default |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    for m in all() {
        out.push_str(&format!(
            "| [`{id}`](#{id}) | {title} | {cat} | {sev} | {conf} | {ae} | {ex} | {def} |\n",
            id = m.id,
            title = m.title,
            cat = m.category,
            sev = m.severity,
            conf = m.confidence,
            ae = m
                .agenteval
                .map(|a| format!("`{a}` ({})", m.agenteval_number().unwrap_or_default()))
                .unwrap_or_default(),
            ex = if m.excludes_skill { "yes" } else { "" },
            def = if m.default_enabled { "" } else { "off" },
        ));
    }
    for m in all() {
        out.push_str(&format!("\n## `{}`\n\n", m.id));
        out.push_str(&format!(
            "**{}** · category `{}` · severity `{}` · confidence `{}` · since {} · {}{}{}{}\n\n",
            m.title,
            m.category,
            m.severity,
            m.confidence,
            m.since,
            m.status,
            m.agenteval
                .map(|a| format!(
                    " · AgentEval `{a}` (#{})",
                    m.agenteval_number().unwrap_or_default()
                ))
                .unwrap_or_default(),
            if m.default_enabled {
                ""
            } else {
                " · off by default"
            },
            if m.never_fires.is_some() {
                " · never fires"
            } else {
                ""
            }
        ));
        if let Some(why) = m.never_fires {
            out.push_str(&format!("**Never fires:** {why}\n\n"));
        }
        out.push_str(&format!("**Fix:** {}\n\n", m.fix));
        out.push_str(&format!("**Severity:** {}\n\n", m.severity_policy()));
        out.push_str(&demote_headings(m.docs));
        out.push('\n');
    }
    out
}

impl RuleMeta {
    /// How the rule's severity is decided (`explain`, docs/rules.md): its default, and what
    /// raises or lowers it, by category (severity follows the targets).
    pub fn severity_policy(&self) -> String {
        let sev = self.severity.as_str();
        match self.category {
            "compliance" | "loader" => format!(
                "{sev} by default. When the cause makes a harness drop the skill, the drop is attached to it as a consequence and the finding takes the drop's severity: high when the harness is a target of the repository (`targets` in `.skillguard.toml`, `--targets`, or inferred from where its skills live: the first line of the console says which). A cause that only harnesses the repository does not target care about is portability: low, or info for a key only a validator rejects. `--targets all` weighs every harness. Findings of a sample skill among its parent's resources are info."
            ),
            c if c.starts_with("security/") => format!(
                "{sev} by default. Raised when an `allowed-tools` grant lets it run without a prompt, or when an instruction and the script it names form one chain (the instruction takes the chain's severity); lowered to at most medium in the reference documents of a skill about security, where attacks are quoted, and not reported where the text quotes, forbids or tests for it. The harnesses a repository targets do not change it."
            ),
            "integrity" => format!(
                "{sev}: what changed or could not be read or compared; the targets do not change it."
            ),
            "policy" => format!("{sev}: set by the configuration that declares the policy."),
            _ => format!("{sev}; the targets do not change it."),
        }
    }
}

/// Shifts `##` headings in rule bodies one level down so they nest under the rule heading.
fn demote_headings(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 32);
    let mut in_fence = false;
    for line in s.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if !in_fence && line.starts_with('#') {
            out.push('#');
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
