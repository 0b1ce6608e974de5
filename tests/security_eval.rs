//! Labelled security evaluation: `fixtures/security-eval/{malicious,benign}/<case>/`, labelled in
//! `fixtures/security-eval/labels.json` (technique, family, surface, layout, skill path, split and,
//! for malicious cases, the expected minimum severity). `scripts/gen-security-eval.py` writes the
//! generated part; the hand-written cases that predate it are split `tune` (the rules were fitted
//! to them), 30 % of the rest is `held-out`, stratified by family and label. The blind split,
//! `fixtures/security-eval/blind/` with its own `labels.json` (keys prefixed `blind/` here), was
//! written from the attack descriptions alone by people who never read the rules; no rule is
//! changed because of it. `fixtures/security-eval/blind2/` (keys prefixed `blind2/`) is a second
//! blind part written the same way by a writer who never read the code, committed before the
//! rule changes that followed it; it is reported as its own split. `floors.json` `totals` holds each split's block/warn recall floors and
//! benign blocked/warned ceilings.
//!
//! Each case folder is scanned on its own: as a path (`Mode::Path`) when its layout is
//! `agent-skills` (the folder is the skill), as a repository (`Mode::Repo`) otherwise
//! (`.claude/skills/…`, OpenClaw `skills/<owner>/…`, `plugins/<p>/skills/…`). A case's score is
//! the highest severity among its findings whose category starts with `security/`.
//! "Block" means high or critical, "warn" means medium or above.
//!
//! The bar:
//! - no benign case, in either split, is blocked — except the reviewed false positives listed
//!   under `known-false-positives` in `floors.json` (the test reports when one stops firing);
//! - per family and split, block and warn recall stay at or above the floors in
//!   `fixtures/security-eval/floors.json` (measured on the scanner of the day; raise them when
//!   the rules improve — the test prints the families above their floor).
//!
//! `cargo test --release --test security_eval -- --nocapture` prints the tables.
//! `SECURITY_EVAL_CASES=1` also prints every case with its score and rules;
//! `SECURITY_EVAL_FLOORS_OUT=<file>` writes today's figures there in the floors format.
#![allow(clippy::print_stderr)] // the tables are the point of this test

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use skillguard::discover::Mode;
use skillguard::finding::Severity;
use skillguard::scan::{ScanOptions, scan};

const FAMILIES: &[&str] = &[
    "http-exfiltration",
    "dns-exfiltration",
    "credential-harvesting",
    "secret-in-network-call",
    "download-execute",
    "remote-code-execution",
    "fs-tampering",
    "privilege-escalation",
    "covert-exfiltration",
    "crypto-mining",
    "supply-chain",
    "encoded-payload",
    "prompt-injection",
    "agent-config-abuse",
    "fake-prerequisite",
    "memory-poisoning",
    "leaky-by-design",
    "brand-impersonation",
    "indicator-removal",
];
/// Benign cases that are not a look-alike of one family.
const ORDINARY: &str = "ordinary";
const SURFACES: &[&str] = &[
    "prose",
    "fenced-code",
    "script-py",
    "script-sh",
    "script-js",
    "script-ps1",
    "frontmatter",
    "reference",
    "config",
];
const LAYOUTS: &[&str] = &["agent-skills", "claude", "openclaw", "plugin"];
const SPLITS: &[&str] = &["tune", "held-out", "blind", "blind2"];
/// The blind parts: each a folder of its own with its own `labels.json`, named as its split,
/// written from the attack descriptions alone by someone who never read the rules.
const BLIND: &[&str] = &["blind", "blind2"];
/// Key of `floors.json` holding the split-wide targets (block and warn recall floors, and the
/// most benign cases blocked and warned).
const TOTALS: &str = "totals";
/// Key of `floors.json` listing the benign cases blocked today (case → rules that fire).
const KNOWN_FP: &str = "known-false-positives";
/// Key of `floors.json` holding the Index targets per split: `malicious_f` (the least share
/// of malicious skills graded F) and `benign_below_b_max` (the most benign skills below B).
const INDEX: &str = "index";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/security-eval")
}

fn load_json(name: &str) -> BTreeMap<String, Value> {
    let text = fs::read_to_string(root().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `labels.json` and each blind part's `<part>/labels.json` (keys prefixed `<part>/`).
fn all_labels() -> BTreeMap<String, Value> {
    let mut labels = load_json("labels.json");
    for part in BLIND {
        for (k, v) in load_json(&format!("{part}/labels.json")) {
            labels.insert(format!("{part}/{k}"), v);
        }
    }
    labels
}

/// The blind part a key belongs to, if any.
fn blind_part(key: &str) -> Option<&'static str> {
    BLIND
        .iter()
        .copied()
        .find(|p| key.strip_prefix(p).is_some_and(|r| r.starts_with('/')))
}

fn is_malicious(key: &str) -> bool {
    let k = blind_part(key).map_or(key, |p| &key[p.len() + 1..]);
    k.starts_with("malicious/")
}

fn field<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

fn surfaces(v: &Value) -> Vec<String> {
    match v.get("surface") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

struct Case {
    key: String,
    malicious: bool,
    family: String,
    surfaces: Vec<String>,
    split: String,
    expect: Option<Severity>,
    max: Option<Severity>,
    /// `rule(severity)` for every security finding, deduplicated.
    rules: BTreeSet<String>,
    /// The scan discovered the labelled skill folder.
    found: bool,
    /// The labelled skill's Skill Security Index (`None`: not found or not scored).
    index: Option<f64>,
}

impl Case {
    fn at_least(&self, min: Severity) -> bool {
        self.max.is_some_and(|m| m >= min)
    }
    fn blocked(&self) -> bool {
        self.at_least(Severity::High)
    }
    fn warned(&self) -> bool {
        self.at_least(Severity::Medium)
    }
}

fn score(key: &str, v: &Value) -> Case {
    let dir = root().join(key);
    let mode = if field(v, "layout") == "agent-skills" {
        Mode::Path
    } else {
        Mode::Repo
    };
    let r = scan(mode, &dir, &ScanOptions::default()).unwrap();
    let mut max = None;
    let mut rules = BTreeSet::new();
    for f in r
        .findings
        .iter()
        .filter(|f| f.category.starts_with("security/"))
    {
        max = max.max(Some(f.severity));
        rules.insert(format!("{}({})", f.rule_id, f.severity.as_str()));
    }
    // a path scan names the skill after its folder; a repository scan by its relative path
    let want = match field(v, "skill_path") {
        "." => key.rsplit('/').next().unwrap_or(key),
        rel => rel,
    };
    let found = r.artifacts.iter().any(|a| a.path == want);
    let index = skillguard::index::for_result(&r, None, None)
        .skills
        .get(want)
        .and_then(|i| i.score);
    Case {
        found,
        index,
        key: key.to_owned(),
        malicious: is_malicious(key),
        family: field(v, "family").to_owned(),
        surfaces: surfaces(v),
        split: field(v, "split").to_owned(),
        expect: Severity::parse(field(v, "expect_min_severity")),
        max,
        rules,
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    mal: usize,
    block: usize,
    warn: usize,
    ben: usize,
    ben_block: usize,
    ben_warn: usize,
}

impl Tally {
    fn add(&mut self, c: &Case) {
        if c.malicious {
            self.mal += 1;
            self.block += usize::from(c.blocked());
            self.warn += usize::from(c.warned());
        } else {
            self.ben += 1;
            self.ben_block += usize::from(c.blocked());
            self.ben_warn += usize::from(c.warned());
        }
    }
    fn block_rate(&self) -> f64 {
        ratio(self.block, self.mal)
    }
    fn warn_rate(&self) -> f64 {
        ratio(self.warn, self.mal)
    }
}

fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 { 1.0 } else { n as f64 / d as f64 }
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 {
        "-".to_owned()
    } else {
        format!("{n}/{d} ({:.0}%)", 100.0 * n as f64 / d as f64)
    }
}

fn row(out: &mut String, name: &str, t: &Tally) {
    let _ = writeln!(
        out,
        "| {name} | {} | {} | {} | {} | {} | {} |",
        t.mal,
        pct(t.block, t.mal),
        pct(t.warn, t.mal),
        t.ben,
        pct(t.ben_block, t.ben),
        pct(t.ben_warn, t.ben),
    );
}

const HEADER: &str = "| malicious | block recall (high+) | warn recall (medium+) | benign | benign blocked (high+) | benign warned (medium+) |\n\
                      |---|---|---|---|---|---|---|";

fn tables(cases: &[Case]) -> String {
    let mut out = String::new();
    for split in SPLITS {
        let in_split: Vec<&Case> = cases.iter().filter(|c| c.split == *split).collect();
        let mut by_family: BTreeMap<&str, Tally> = BTreeMap::new();
        let mut by_surface: BTreeMap<&str, Tally> = BTreeMap::new();
        let mut total = Tally::default();
        let mut expected = (0, 0);
        for c in &in_split {
            by_family.entry(c.family.as_str()).or_default().add(c);
            for s in &c.surfaces {
                by_surface.entry(s.as_str()).or_default().add(c);
            }
            total.add(c);
            if c.malicious {
                expected.1 += 1;
                expected.0 += usize::from(c.at_least(c.expect.unwrap_or(Severity::Medium)));
            }
        }
        let _ = writeln!(out, "\n### Split `{split}`: per family\n");
        let _ = writeln!(out, "| family {HEADER}");
        for f in FAMILIES.iter().chain([&ORDINARY]) {
            if let Some(t) = by_family.get(f) {
                row(&mut out, f, t);
            }
        }
        row(&mut out, "**total**", &total);
        let _ = writeln!(out, "\n### Split `{split}`: per surface\n");
        let _ = writeln!(out, "| surface {HEADER}");
        for s in SURFACES {
            if let Some(t) = by_surface.get(s) {
                row(&mut out, s, t);
            }
        }
        // Family × surface: malicious cases blocked / warned / in the cell, then benign
        // cases blocked / in the cell (a case with several surfaces counts in each).
        let mut cells: BTreeMap<(&str, &str), [usize; 5]> = BTreeMap::new();
        for c in &in_split {
            for s in &c.surfaces {
                let cell = cells.entry((c.family.as_str(), s.as_str())).or_default();
                if c.malicious {
                    cell[0] += usize::from(c.blocked());
                    cell[1] += usize::from(c.at_least(Severity::Medium));
                    cell[2] += 1;
                } else {
                    cell[3] += usize::from(c.blocked());
                    cell[4] += 1;
                }
            }
        }
        let _ = writeln!(
            out,
            "\n### Split `{split}`: family × surface\n\nEach cell: malicious blocked/warned/cases; benign blocked/cases (`-`: no case).\n"
        );
        let _ = writeln!(out, "| family | {} |", SURFACES.join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(SURFACES.len()));
        for f in FAMILIES.iter().chain([&ORDINARY]) {
            if !by_family.contains_key(f) {
                continue;
            }
            let _ = write!(out, "| {f} |");
            for s in SURFACES {
                let _ = match cells.get(&(*f, *s)) {
                    None => write!(out, " - |"),
                    Some([b, w, m, bb, bn]) => {
                        let mal = if *m > 0 {
                            format!("{b}/{w}/{m}")
                        } else {
                            "-".into()
                        };
                        let ben = if *bn > 0 {
                            format!("{bb}/{bn}")
                        } else {
                            "-".into()
                        };
                        write!(out, " {mal}; {ben} |")
                    }
                };
            }
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "\n{split}: benign warn rate {}; malicious cases reaching their labelled severity {}",
            pct(total.ben_warn, total.ben),
            pct(expected.0, expected.1)
        );
    }
    out
}

#[test]
fn labels_cover_every_fixture_folder() {
    let labels = all_labels();
    let mut on_disk = BTreeSet::new();
    let mut kinds = vec!["malicious".to_owned(), "benign".to_owned()];
    for part in BLIND {
        kinds.push(format!("{part}/malicious"));
        kinds.push(format!("{part}/benign"));
    }
    for kind in &kinds {
        for e in fs::read_dir(root().join(kind)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                on_disk.insert(format!("{kind}/{}", e.file_name().to_string_lossy()));
            }
        }
    }
    let labelled: BTreeSet<String> = labels.keys().cloned().collect();
    assert_eq!(
        on_disk, labelled,
        "labels.json and the fixture folders differ"
    );
    for (k, v) in &labels {
        let malicious = is_malicious(k);
        let split = field(v, "split");
        assert_eq!(
            blind_part(k),
            BLIND.iter().copied().find(|p| *p == split),
            "{k}: only a blind part's folder holds that blind split"
        );
        assert!(!field(v, "technique").is_empty(), "{k}: missing technique");
        let family = field(v, "family");
        assert!(
            FAMILIES.contains(&family) || (!malicious && family == ORDINARY),
            "{k}: unknown family {family:?}"
        );
        let s = surfaces(v);
        assert!(
            !s.is_empty() && s.iter().all(|x| SURFACES.contains(&x.as_str())),
            "{k}: bad surface {:?}",
            v.get("surface")
        );
        let layout = field(v, "layout");
        assert!(LAYOUTS.contains(&layout), "{k}: unknown layout {layout:?}");
        let split = field(v, "split");
        assert!(SPLITS.contains(&split), "{k}: unknown split {split:?}");
        let rel = field(v, "skill_path");
        let prefix_ok = match layout {
            "agent-skills" => rel == ".",
            "claude" => rel.starts_with(".claude/skills/"),
            "openclaw" => rel.starts_with("skills/") && rel.matches('/').count() == 2,
            _ => rel.starts_with("plugins/") && rel.contains("/skills/"),
        };
        assert!(
            prefix_ok,
            "{k}: skill_path {rel:?} does not match layout {layout}"
        );
        let skill_dir = root().join(k).join(rel);
        assert!(
            skill_dir.join("SKILL.md").is_file(),
            "{k}: no SKILL.md at {rel}"
        );
        if layout == "openclaw" {
            assert!(skill_dir.join("_meta.json").is_file(), "{k}: no _meta.json");
        }
        let e = field(v, "expect_min_severity");
        if malicious {
            assert!(
                matches!(e, "high" | "medium"),
                "{k}: expect_min_severity must be high or medium"
            );
        } else {
            assert!(e.is_empty(), "{k}: benign case with an expected severity");
        }
    }
}

#[test]
fn security_rules_meet_the_floors_on_the_labelled_set() {
    let labels = all_labels();
    let floors = load_json("floors.json");
    let cases: Vec<Case> = labels.iter().map(|(k, v)| score(k, v)).collect();

    let mut report = tables(&cases);
    if std::env::var_os("SECURITY_EVAL_CASES").is_some() {
        // The blind split is scored, never read case by case: its cases are not listed (a
        // blocked benign one is named, since known-false-positives must give its reason).
        let blind = cases
            .iter()
            .filter(|c| BLIND.contains(&c.split.as_str()))
            .count();
        let _ = write!(
            report,
            "\n### Cases (the {blind} blind cases are not listed)\n\n"
        );
        for c in cases.iter().filter(|c| !BLIND.contains(&c.split.as_str())) {
            let _ = writeln!(
                report,
                "{:<58} {:<8} {:<9} expect={:<7} {}",
                c.key,
                c.split,
                c.max.map_or("-", Severity::as_str),
                c.expect.map_or("-", Severity::as_str),
                c.rules.iter().cloned().collect::<Vec<_>>().join(" ")
            );
        }
    }

    let mut failures = Vec::new();
    for c in cases.iter().filter(|c| !c.found) {
        failures.push(format!("the scan did not discover the skill of {}", c.key));
    }
    // Benign cases the scanner blocks today, listed with the rules that fire: a reviewed list,
    // not a tolerance. A benign case blocked and not listed fails; a listed one that is no
    // longer blocked is reported so it can be dropped from the list.
    let known_fp: BTreeMap<String, Value> = floors
        .get(KNOWN_FP)
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let mut blocked_benign = BTreeMap::new();
    for c in cases.iter().filter(|c| !c.malicious && c.blocked()) {
        let rules = c.rules.iter().cloned().collect::<Vec<_>>().join(" ");
        if !known_fp.contains_key(&c.key) {
            failures.push(format!(
                "benign case blocked ({}): {} [{rules}]",
                c.split, c.key
            ));
        }
        blocked_benign.insert(c.key.clone(), Value::String(rules));
    }
    let mut notes = Vec::new();
    for k in known_fp.keys() {
        if !blocked_benign.contains_key(k) {
            notes.push(format!(
                "{k} is no longer blocked: drop it from {KNOWN_FP} in floors.json"
            ));
        } else {
            notes.push(format!(
                "known false positive (blocked today): {k} [{}]",
                blocked_benign[k].as_str().unwrap_or("")
            ));
        }
    }

    let mut measured: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    let mut above = Vec::new();
    for family in FAMILIES {
        for split in SPLITS {
            let mut t = Tally::default();
            for c in cases
                .iter()
                .filter(|c| c.malicious && c.family == *family && c.split == *split)
            {
                t.add(c);
            }
            let floor_of = |kind: &str| -> Option<f64> {
                floors
                    .get(*family)
                    .and_then(|f| f.get(*split))
                    .and_then(|s| s.get(kind))
                    .and_then(Value::as_f64)
            };
            // floor down to three decimals so the written floor is always reachable
            let down = |r: f64| (r * 1000.0 + 1e-9).floor() / 1000.0;
            measured.entry((*family).to_owned()).or_default().insert(
                (*split).to_owned(),
                serde_json::json!({"block": down(t.block_rate()), "warn": down(t.warn_rate())}),
            );
            for (kind, rate, hits) in [
                ("block", t.block_rate(), t.block),
                ("warn", t.warn_rate(), t.warn),
            ] {
                let Some(f) = floor_of(kind) else {
                    failures.push(format!("floors.json: no {kind} floor for {family}/{split}"));
                    continue;
                };
                // the floor in cases: the fewest hits whose rate reaches it
                let need = (f * t.mal as f64 - 1e-6).ceil().max(0.0) as usize;
                if hits < need {
                    failures.push(format!(
                        "{family} ({split}): {kind} recall {hits}/{} = {rate:.3} is below its floor {f:.3}",
                        t.mal
                    ));
                } else if hits > need {
                    above.push(format!(
                        "{family} ({split}): {kind} recall {hits}/{} = {rate:.3} is above its floor {f:.3}: raise it",
                        t.mal
                    ));
                }
            }
        }
    }
    // Split-wide targets: block and warn recall at least the floor, benign cases blocked and
    // warned at most the ceiling.
    for split in SPLITS {
        let mut t = Tally::default();
        for c in cases.iter().filter(|c| c.split == *split) {
            t.add(c);
        }
        let goal = |k: &str| {
            floors
                .get(TOTALS)
                .and_then(|g| g.get(*split))
                .and_then(|s| s.get(k))
                .and_then(Value::as_f64)
        };
        for (kind, rate, floor) in [
            ("block recall", t.block_rate(), goal("block")),
            ("warn recall", t.warn_rate(), goal("warn")),
        ] {
            match floor {
                Some(f) if rate + 1e-9 < f => failures.push(format!(
                    "{split}: {kind} {rate:.3} is below the target {f:.3}"
                )),
                None => failures.push(format!("floors.json: no {TOTALS} {kind} for {split}")),
                _ => {}
            }
        }
        for (kind, n, ceil) in [
            ("benign blocked", t.ben_block, goal("benign_block_max")),
            ("benign warned", t.ben_warn, goal("benign_warn_max")),
        ] {
            let rate = ratio(n, t.ben);
            match ceil {
                Some(c) if rate > c + 1e-9 => failures.push(format!(
                    "{split}: {kind} {n}/{} = {rate:.3} is above the ceiling {c:.3}",
                    t.ben
                )),
                None => failures.push(format!("floors.json: no {TOTALS} {kind} for {split}")),
                _ => {}
            }
        }
    }
    index_targets(&cases, &floors, &mut report, &mut failures);
    if !above.is_empty() || !notes.is_empty() {
        report.push('\n');
        for a in notes.iter().chain(&above) {
            let _ = writeln!(report, "{a}");
        }
    }
    eprintln!("{report}");

    if let Some(path) = std::env::var_os("SECURITY_EVAL_FLOORS_OUT") {
        let mut out: BTreeMap<String, Value> = measured
            .into_iter()
            .map(|(k, v)| (k, serde_json::to_value(v).unwrap()))
            .collect();
        out.insert(
            KNOWN_FP.to_owned(),
            Value::Object(blocked_benign.into_iter().collect()),
        );
        for key in [TOTALS, INDEX] {
            if let Some(t) = floors.get(key) {
                out.insert(key.to_owned(), t.clone());
            }
        }
        let text = serde_json::to_string_pretty(&out).unwrap() + "\n";
        fs::write(path, text).unwrap();
    }
    assert!(failures.is_empty(), "{}\n{report}", failures.join("\n"));
}

/// The Skill Security Index on the labelled sets (`docs/security-index.md`, "Calibration"):
/// per split, the grade distribution of malicious and benign skills, checked against the
/// `index` targets of `floors.json`: at least `malicious_f` of the malicious skills are F, at
/// most `benign_below_b_max` of the benign ones are below B. Weights are fitted on `tune` and
/// the real corpora only; held-out and blind are measured, never tuned on.
fn index_targets(
    cases: &[Case],
    floors: &BTreeMap<String, Value>,
    report: &mut String,
    failures: &mut Vec<String>,
) {
    let _ = write!(
        report,
        "\n### Skill Security Index by split and label\n\n| split | label | skills | A | B | C | D | F | median |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for split in SPLITS {
        for malicious in [true, false] {
            let mut scores: Vec<f64> = cases
                .iter()
                .filter(|c| c.split == *split && c.malicious == malicious)
                .map(|c| c.index.unwrap_or(0.0))
                .collect();
            scores.sort_by(f64::total_cmp);
            let n = scores.len();
            let count = |g: &str| {
                scores
                    .iter()
                    .filter(|s| skillguard::index::grade(**s) == g)
                    .count()
            };
            let med = skillguard::index::median(&scores).unwrap_or(0.0);
            let label = if malicious { "malicious" } else { "benign" };
            let _ = writeln!(
                report,
                "| {split} | {label} | {n} | {} | {} | {} | {} | {} | {} |",
                count("A"),
                count("B"),
                count("C"),
                count("D"),
                count("F"),
                skillguard::index::fmt_score(med)
            );
            let target = |k: &str| {
                floors
                    .get(INDEX)
                    .and_then(|g| g.get(*split))
                    .and_then(|s| s.get(k))
                    .and_then(Value::as_f64)
            };
            if malicious {
                let rate = ratio(count("F"), n);
                match target("malicious_f") {
                    Some(f) if rate + 1e-9 < f => failures.push(format!(
                        "{split}: {}/{n} = {rate:.3} malicious skills graded F, below the target {f:.3}",
                        count("F")
                    )),
                    None => failures.push(format!("floors.json: no {INDEX} malicious_f for {split}")),
                    _ => {}
                }
            } else {
                let below = n - count("A") - count("B");
                let rate = ratio(below, n);
                match target("benign_below_b_max") {
                    Some(c) if rate > c + 1e-9 => failures.push(format!(
                        "{split}: {below}/{n} = {rate:.3} benign skills below B, above the ceiling {c:.3}"
                    )),
                    None => failures.push(format!(
                        "floors.json: no {INDEX} benign_below_b_max for {split}"
                    )),
                    _ => {}
                }
            }
        }
    }
}
