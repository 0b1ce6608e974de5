//! The finding model every renderer, gate and (later) baseline consumes.
//!
//! A [`Finding`] carries the rule id, the catalog-derived category, severity and
//! confidence, a message that says how to fix the problem, a primary location and
//! optional related locations, the skill it belongs to, and a stable fingerprint
//! that does not depend on line numbers or on where the skill lives.

use std::fmt;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::catalog;

/// Ordered severity: `info < low < medium < high < critical`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub const ALL: [Severity; 5] = [
        Severity::Info,
        Severity::Low,
        Severity::Medium,
        Severity::High,
        Severity::Critical,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s.trim().to_ascii_lowercase().as_str() {
            "info" | "informational" | "note" => Some(Severity::Info),
            "low" => Some(Severity::Low),
            "medium" => Some(Severity::Medium),
            "high" => Some(Severity::High),
            "critical" => Some(Severity::Critical),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How sure the rule is that the finding is real.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }

    pub fn parse(s: &str) -> Option<Confidence> {
        match s.trim().to_ascii_lowercase().as_str() {
            "low" => Some(Confidence::Low),
            "medium" => Some(Confidence::Medium),
            "high" => Some(Confidence::High),
            _ => None,
        }
    }
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A place in the scanned tree. `path` is relative to the scan root and uses `/`.
/// `line` and `column` are 1-based; the column counts Unicode code points.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
pub struct Location {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

impl Location {
    pub fn file(path: impl Into<String>) -> Self {
        Location {
            path: path.into(),
            line: None,
            column: None,
        }
    }

    pub fn at(path: impl Into<String>, line: u32, column: u32) -> Self {
        Location {
            path: path.into(),
            line: Some(line.max(1)),
            column: Some(column.max(1)),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{}:{}:{}", self.path, l, c),
            (Some(l), None) => write!(f, "{}:{}", self.path, l),
            _ => f.write_str(&self.path),
        }
    }
}

/// A secondary location with a short note ("first defined here").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
pub struct Related {
    pub location: Location,
    pub message: String,
}

/// A finding that follows from another one (its cause) and is reported as part of it
/// rather than on its own: one cause, one finding. For example the harnesses that
/// silently drop a skill because of an unknown frontmatter key are consequences of the
/// `frontmatter-unknown-key` finding (see `docs/security.md`, "Severity policy").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Consequence {
    pub rule_id: &'static str,
    /// The severity the consequence has on its own (the primary carries the highest).
    pub severity: Severity,
    /// The harness or loader profile concerned (`skills-ref`, `maf`...), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    pub message: String,
    pub location: Location,
    /// The fingerprint the consequence has as a finding of its own.
    pub fingerprint: String,
}

impl Consequence {
    /// The consequence `f` has, as part of another finding.
    pub fn of(f: &Finding, profile: Option<String>) -> Consequence {
        Consequence {
            rule_id: f.rule_id,
            severity: f.severity,
            profile,
            message: f.message.clone(),
            location: f.location.clone(),
            fingerprint: f.fingerprint.clone(),
        }
    }
}

/// One finding. Construct through [`Finding::new`] so catalog metadata is applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule_id: &'static str,
    pub category: &'static str,
    pub severity: Severity,
    pub confidence: Confidence,
    /// Why the severity or the confidence differs from the rule's: in a reference document,
    /// in a quoted example, under a sentence that forbids the act (confidence lowered), or
    /// the link a correlation raised it along (`raised to high: …`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence_reason: Option<String>,
    pub message: String,
    pub location: Location,
    pub related: Vec<Related>,
    /// Findings this one causes, attached instead of reported on their own (sorted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub consequences: Vec<Consequence>,
    /// The skill's name (frontmatter name, else its directory name).
    pub skill: Option<String>,
    /// The skill's directory relative to the scan root.
    pub skill_path: Option<String>,
    /// `sha256("skillguard/v1" ␀ rule ␀ skill ␀ file-within-skill ␀ anchor)`, hex.
    pub fingerprint: String,
    /// Structured, rule-specific data (for example every location and content hash of a
    /// drifted skill), rendered as `properties` in JSON and SARIF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<serde_json::Value>,
    /// The rule-specific part of the fingerprint input (not serialised).
    #[serde(skip)]
    pub anchor: String,
}

/// What the fingerprint is computed over; never includes line numbers or the
/// skill's location in the repository.
#[derive(Debug, Clone, Default)]
pub struct Anchor<'a> {
    pub skill: &'a str,
    pub file_in_skill: &'a str,
    pub key: &'a str,
}

pub const FINGERPRINT_VERSION: &str = "skillguard/v1";

impl Finding {
    /// Builds a finding for `rule_id`, taking severity, confidence and category
    /// from the compiled-in catalog. Panics (in tests, a bug) if the id is unknown.
    pub fn new(rule_id: &'static str, message: impl Into<String>, location: Location) -> Finding {
        let meta = catalog::get(rule_id)
            .unwrap_or_else(|| panic!("rule id `{rule_id}` is not in the catalog"));
        Finding {
            rule_id: meta.id,
            category: meta.category,
            severity: meta.severity,
            confidence: meta.confidence,
            confidence_reason: None,
            message: message.into(),
            location,
            related: Vec::new(),
            consequences: Vec::new(),
            skill: None,
            skill_path: None,
            fingerprint: String::new(),
            properties: None,
            anchor: String::new(),
        }
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Lowers the confidence to `low` and says why (the message says it too).
    pub fn lower_confidence(&mut self, reason: &str) {
        self.confidence = Confidence::Low;
        // The first lowering is told in the message; a raise's reason is not a lowering.
        if !self.message.contains(" (Lower confidence: ") {
            self.message
                .push_str(&format!(" (Lower confidence: {reason}.)"));
        }
        self.confidence_reason = Some(match self.confidence_reason.take() {
            Some(r) => format!("{r}; {reason}"),
            None => reason.to_owned(),
        });
    }

    pub fn with_properties(mut self, properties: serde_json::Value) -> Self {
        self.properties = Some(properties);
        self
    }

    pub fn with_related(mut self, location: Location, message: impl Into<String>) -> Self {
        self.related.push(Related {
            location,
            message: message.into(),
        });
        self
    }

    /// Attaches the skill and computes the fingerprint from `anchor_key`.
    pub fn for_skill(
        mut self,
        skill: Option<&str>,
        skill_path: Option<&str>,
        anchor_key: &str,
    ) -> Self {
        self.skill = skill.map(str::to_owned);
        self.skill_path = skill_path.map(str::to_owned);
        self.anchor = anchor_key.to_owned();
        let file_in_skill = match skill_path {
            Some(sp) if !sp.is_empty() => self
                .location
                .path
                .strip_prefix(sp)
                .map(|p| p.trim_start_matches('/'))
                .unwrap_or(&self.location.path),
            _ => &self.location.path,
        }
        .to_owned();
        self.fingerprint = fingerprint(
            self.rule_id,
            &Anchor {
                skill: skill.unwrap_or(""),
                file_in_skill: &file_in_skill,
                key: anchor_key,
            },
        );
        self
    }

    /// Is this an example or a prohibition kept as a note (`info`, with the reason its
    /// confidence is lower) rather than an instruction?
    pub fn is_example_note(&self) -> bool {
        self.severity == Severity::Info && self.confidence_reason.is_some()
    }

    /// Does this finding report `rule`, itself or as one of its consequences?
    pub fn reports(&self, rule: &str) -> bool {
        self.rule_id == rule || self.consequences.iter().any(|c| c.rule_id == rule)
    }

    /// Sort key: path, line, column, rule, message, fingerprint.
    pub fn sort_key(&self) -> (&str, u32, u32, &str, &str, &str) {
        (
            &self.location.path,
            self.location.line.unwrap_or(0),
            self.location.column.unwrap_or(0),
            self.rule_id,
            &self.message,
            &self.fingerprint,
        )
    }
}

/// Computes a versioned, location-independent fingerprint.
pub fn fingerprint(rule_id: &str, anchor: &Anchor<'_>) -> String {
    let mut h = Sha256::new();
    for part in [
        FINGERPRINT_VERSION,
        rule_id,
        anchor.skill,
        anchor.file_in_skill,
        anchor.key,
    ] {
        h.update(part.as_bytes());
        h.update([0u8]);
    }
    crate::hash::hex(&h.finalize())
}

/// Sorts findings into the canonical output order and removes exact duplicates.
pub fn sort_findings(findings: &mut Vec<Finding>) {
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup_by(|a, b| a.sort_key() == b.sort_key());
}

/// Counts per severity, in ascending severity order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SeverityCounts {
    pub info: usize,
    pub low: usize,
    pub medium: usize,
    pub high: usize,
    pub critical: usize,
}

impl SeverityCounts {
    pub fn from_findings<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Self {
        let mut c = SeverityCounts::default();
        for f in findings {
            c.add(f.severity);
        }
        c
    }

    pub fn add(&mut self, s: Severity) {
        match s {
            Severity::Info => self.info += 1,
            Severity::Low => self.low += 1,
            Severity::Medium => self.medium += 1,
            Severity::High => self.high += 1,
            Severity::Critical => self.critical += 1,
        }
    }

    pub fn get(&self, s: Severity) -> usize {
        match s {
            Severity::Info => self.info,
            Severity::Low => self.low,
            Severity::Medium => self.medium,
            Severity::High => self.high,
            Severity::Critical => self.critical,
        }
    }

    pub fn total(&self) -> usize {
        self.info + self.low + self.medium + self.high + self.critical
    }

    pub fn at_or_above(&self, s: Severity) -> usize {
        Severity::ALL
            .iter()
            .filter(|x| **x >= s)
            .map(|x| self.get(*x))
            .sum()
    }
}
