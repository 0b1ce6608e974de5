//! What every renderer summarises and limits the same way: counts per rule and per
//! category, the grouping of findings (`--group-by`), and the per-rule cap
//! (`--max-findings-per-rule`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::finding::{Finding, Severity, SeverityCounts};

/// How findings are grouped in the console and Markdown reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum GroupBy {
    /// Under each skill, with its loaders and index (Markdown's default).
    #[default]
    Skill,
    /// Under each rule, the most severe first (the console's default).
    Rule,
    /// Under each file.
    File,
}

/// The findings of one rule (read back with the rule and its category looked up in the
/// catalog).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct RuleCount {
    #[serde(deserialize_with = "super::model::rule_id")]
    pub rule: super::model::Id,
    #[serde(deserialize_with = "super::model::category")]
    pub category: super::model::Id,
    pub findings: usize,
    pub counts: SeverityCounts,
    /// The highest severity among them.
    pub highest: Severity,
}

/// The findings of one category.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct CategoryCount {
    #[serde(deserialize_with = "super::model::category")]
    pub category: super::model::Id,
    pub findings: usize,
    pub rules: usize,
    pub counts: SeverityCounts,
}

/// Counts per rule, the most severe rule first, then the most frequent, then by id.
pub fn by_rule<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Vec<RuleCount> {
    let mut m: BTreeMap<&'static str, RuleCount> = BTreeMap::new();
    for f in findings {
        let e = m.entry(f.rule_id).or_insert_with(|| RuleCount {
            rule: f.rule_id,
            category: f.category,
            findings: 0,
            counts: SeverityCounts::default(),
            highest: f.severity,
        });
        e.findings += 1;
        e.counts.add(f.severity);
        e.highest = e.highest.max(f.severity);
    }
    let mut v: Vec<RuleCount> = m.into_values().collect();
    v.sort_by(|a, b| {
        b.highest
            .cmp(&a.highest)
            .then(b.findings.cmp(&a.findings))
            .then(a.rule.cmp(b.rule))
    });
    v
}

/// Counts per category (`security/execution`, `compliance`, …), by name.
pub fn by_category(rules: &[RuleCount]) -> Vec<CategoryCount> {
    let mut m: BTreeMap<&'static str, CategoryCount> = BTreeMap::new();
    for r in rules {
        let e = m.entry(r.category).or_insert_with(|| CategoryCount {
            category: r.category,
            findings: 0,
            rules: 0,
            counts: SeverityCounts::default(),
        });
        e.findings += r.findings;
        e.rules += 1;
        for s in Severity::ALL {
            for _ in 0..r.counts.get(s) {
                e.counts.add(s);
            }
        }
    }
    m.into_values().collect()
}

/// `2 critical, 1 high` (non-zero severities, most severe first).
pub fn severities(c: &SeverityCounts) -> String {
    Severity::ALL
        .iter()
        .rev()
        .filter(|s| c.get(**s) > 0)
        .map(|s| format!("{} {}", c.get(*s), s.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The per-rule cap: which findings are listed, and how many of each rule are not.
#[derive(Debug, Default)]
pub struct Cap {
    max: Option<usize>,
    seen: BTreeMap<&'static str, usize>,
}

impl Cap {
    /// `None` or `Some(0)`: no cap.
    pub fn new(max: Option<usize>) -> Self {
        Cap {
            max: max.filter(|m| *m > 0),
            seen: BTreeMap::new(),
        }
    }

    /// Counts `f`; is it listed?
    pub fn admit(&mut self, f: &Finding) -> bool {
        let n = self.seen.entry(f.rule_id).or_default();
        *n += 1;
        self.max.is_none_or(|m| *n <= m)
    }

    /// The findings not listed, per rule (rules with none left out).
    pub fn left_out(&self) -> Vec<(&'static str, usize)> {
        let Some(m) = self.max else {
            return Vec::new();
        };
        self.seen
            .iter()
            .filter(|(_, n)| **n > m)
            .map(|(r, n)| (*r, n - m))
            .collect()
    }

    /// `… and 12 more: rule-a 10, rule-b 2 (--max-findings-per-rule 5)`, or nothing.
    pub fn note(&self) -> Option<String> {
        let left = self.left_out();
        if left.is_empty() {
            return None;
        }
        let total: usize = left.iter().map(|l| l.1).sum();
        let each: Vec<String> = left.iter().map(|(r, n)| format!("{r} {n}")).collect();
        Some(format!(
            "… and {total} more finding(s) not listed: {} (--max-findings-per-rule {}; the JSON and SARIF reports list them all)",
            each.join(", "),
            self.max.unwrap_or(0)
        ))
    }
}

/// The group a finding is listed under.
pub fn group_key(by: GroupBy, f: &Finding) -> String {
    match by {
        // A skill at the root of the scan is `.`; "" is outside every skill.
        GroupBy::Skill => match f.skill_path.as_deref() {
            Some("") => ".".to_owned(),
            Some(p) => p.to_owned(),
            None => String::new(),
        },
        GroupBy::Rule => f.rule_id.to_owned(),
        GroupBy::File => f.location.path.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Location;

    fn f(rule: &'static str, sev: Severity) -> Finding {
        let mut f = Finding::new(rule, "m", Location::file("a"));
        f.severity = sev;
        f
    }

    #[test]
    fn rules_by_severity_then_count() {
        let fs = vec![
            f("skill-nested", Severity::Low),
            f("skill-nested", Severity::Low),
            f("fetch-then-execute", Severity::Critical),
            f("skill-shadowed", Severity::Medium),
        ];
        let r = by_rule(&fs);
        let ids: Vec<&str> = r.iter().map(|r| r.rule).collect();
        assert_eq!(
            ids,
            ["fetch-then-execute", "skill-shadowed", "skill-nested"]
        );
        assert_eq!(r[2].findings, 2);
        let c = by_category(&r);
        assert_eq!(c.iter().map(|c| c.findings).sum::<usize>(), 4);
        assert_eq!(severities(&r[0].counts), "1 critical");
    }

    #[test]
    fn the_cap_counts_what_it_leaves_out() {
        let mut cap = Cap::new(Some(1));
        let a = f("skill-nested", Severity::Low);
        assert!(cap.admit(&a));
        assert!(!cap.admit(&a));
        assert!(!cap.admit(&a));
        assert_eq!(cap.left_out(), vec![("skill-nested", 2)]);
        assert!(cap.note().unwrap().contains("and 2 more"));
        let mut none = Cap::new(None);
        assert!(none.admit(&a) && none.admit(&a));
        assert!(none.note().is_none());
    }
}
