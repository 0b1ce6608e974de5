//! Catalog invariants: ids unique and kebab-case, catalog ↔ code bijection,
//! every `rules/*.md` compiled in, a snapshot of the id set, generated docs fresh.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use skillguard::catalog;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn ids_unique_kebab_and_match_code() {
    let cat: Vec<&str> = catalog::all().iter().map(|m| m.id).collect();
    let set: BTreeSet<&str> = cat.iter().copied().collect();
    assert_eq!(set.len(), cat.len(), "duplicate ids in the catalog");
    for id in &cat {
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !id.starts_with('-')
                && !id.ends_with('-')
                && !id.contains("--"),
            "id `{id}` is not kebab-case"
        );
    }
    let code: BTreeSet<&str> = skillguard::scan::rule_ids().into_iter().collect();
    assert_eq!(code, set, "src/rules/ids.rs ALL and the catalog differ");
}

#[test]
fn every_rules_file_is_compiled_in() {
    let mut on_disk: Vec<String> = fs::read_dir(root().join("rules"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    on_disk.sort();
    let compiled: Vec<String> = catalog::RULE_FILES
        .iter()
        .map(|(f, _)| (*f).to_owned())
        .collect();
    assert_eq!(
        on_disk, compiled,
        "rules/*.md and catalog::RULE_FILES differ"
    );
}

#[test]
fn aliases_resolve_and_are_unique() {
    let mut seen = BTreeSet::new();
    for m in catalog::all() {
        if let Some(a) = m.agenteval {
            assert!(seen.insert(a), "alias {a} used twice");
            assert_eq!(catalog::get(a).map(|x| x.id), Some(m.id));
        }
        assert!(!m.fix.is_empty(), "{}: empty fix", m.id);
        assert!(
            m.docs.contains("## What it does"),
            "{}: docs lack 'What it does'",
            m.id
        );
        assert!(
            m.docs.contains("## Why it matters"),
            "{}: docs lack 'Why it matters'",
            m.id
        );
    }
    // Every AgentEval rule has a counterpart (by its number, too), and aliases are its names.
    for (n, a) in catalog::AGENTEVAL_RULES.iter().enumerate() {
        let m = catalog::get(a).unwrap_or_else(|| panic!("no rule aliases AgentEval's {a}"));
        assert_eq!(m.agenteval_number(), Some(n), "{a}");
        assert_eq!(catalog::get(&n.to_string()).map(|x| x.id), Some(m.id));
    }
    assert!(catalog::get("15").is_none());
    // Every AgentEval rule reachable for file skills has a counterpart that fires.
    for a in [
        "NameMissing",
        "NameTooLong",
        "NameInvalidChars",
        "NameConsecutiveHyphens",
        "NameMismatchesDirectory",
        "DescriptionMissing",
        "DescriptionTooLong",
        "CompatibilityTooLong",
        "ScriptRequiresGovernanceReview",
        "AllowedToolsExperimental",
    ] {
        assert!(catalog::get(a).is_some(), "no rule aliases AgentEval's {a}");
        assert!(catalog::get(a).unwrap().never_fires.is_none(), "{a}");
    }
}

/// A rule marked `never-fires` (an AgentEval rule that cannot be reached from files) has a
/// reason, is no data rule, belongs to no engine that emits rules (security, agents, eval
/// files), and its id appears nowhere in the source but in its `ids` constant: no code path
/// can emit it.
#[test]
fn never_firing_rules_have_no_code_path() {
    let never: Vec<&catalog::RuleMeta> = catalog::all()
        .iter()
        .filter(|m| m.never_fires.is_some())
        .collect();
    assert!(
        never
            .iter()
            .any(|m| m.agenteval == Some("ResourceFromUntrustedSource")),
        "ResourceFromUntrustedSource is documented as never firing"
    );
    let mut sources = Vec::new();
    let mut stack = vec![root().join("src")];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                sources.push((p.clone(), fs::read_to_string(&p).unwrap()));
            }
        }
    }
    assert!(sources.len() > 50);
    for m in never {
        assert!(!m.never_fires.unwrap().trim().is_empty());
        assert!(m.matcher.is_none(), "{}: a data rule fires on files", m.id);
        assert!(
            m.examples.is_empty() && m.negative_examples.is_empty(),
            "{}",
            m.id
        );
        assert!(
            m.docs.contains("never") || m.docs.contains("Nothing"),
            "{}: the documentation says why it never fires",
            m.id
        );
        let konst = m.id.to_uppercase().replace('-', "_");
        for (path, text) in &sources {
            let rel = path.strip_prefix(root()).unwrap().to_string_lossy();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let literal = code.matches(&format!("\"{}\"", m.id)).count();
            let uses = code.matches(&konst).count();
            let (want_literal, want_uses) = if rel == "src/rules/ids.rs" {
                // The definition and its place in `ALL`.
                (1, 2)
            } else {
                (0, 0)
            };
            assert_eq!(
                (literal, uses),
                (want_literal, want_uses),
                "{rel} mentions never-firing rule `{}`",
                m.id
            );
        }
        for engine in [
            skillguard::security::rule_ids(),
            skillguard::agents::RULES.to_vec(),
            skillguard::evalfiles::RULES.to_vec(),
        ] {
            assert!(!engine.contains(&m.id), "{}", m.id);
        }
    }
}

/// A snapshot of the whole id set: renames and removals show up in review.
#[test]
fn id_set_snapshot() {
    let got: Vec<&str> = catalog::all().iter().map(|m| m.id).collect();
    let snapshot = root().join("tests/snapshots/rule-ids.txt");
    let text = got.join("\n") + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        fs::create_dir_all(snapshot.parent().unwrap()).unwrap();
        fs::write(&snapshot, &text).unwrap();
    }
    let want = fs::read_to_string(&snapshot).unwrap_or_default();
    assert_eq!(
        want, text,
        "rule id set changed; review and run `UPDATE_SNAPSHOTS=1 cargo test --test catalog`"
    );
}

/// docs/rules.md is generated from the catalog and must be fresh.
#[test]
fn rules_doc_is_fresh() {
    let want = catalog::render_rules_markdown();
    let path = root().join("docs/rules.md");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        fs::write(&path, &want).unwrap();
    }
    let got = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "docs/rules.md is stale; regenerate with `UPDATE_DOCS=1 cargo test --test catalog` (or `skillguard rules --format markdown > docs/rules.md`)"
    );
}

/// docs/discovery.md lists every convention of the data table.
#[test]
fn discovery_doc_lists_every_convention() {
    let doc = fs::read_to_string(root().join("docs/discovery.md")).unwrap();
    for c in skillguard::conventions::CONVENTIONS {
        assert!(
            doc.contains(&format!("`{}`", c.path)),
            "docs/discovery.md lacks `{}`",
            c.path
        );
    }
}

/// docs/agents.md lists every pattern of the artefact table.
#[test]
fn agents_doc_lists_every_artefact_pattern() {
    let doc = fs::read_to_string(root().join("docs/agents.md")).unwrap();
    for c in skillguard::conventions::ARTEFACTS {
        assert!(
            doc.contains(&format!("`{}`", c.pattern)),
            "docs/agents.md lacks `{}`",
            c.pattern
        );
    }
}

/// docs/agents.md's field table is generated from the schema (`src/agents/schema.rs`).
#[test]
fn agents_doc_field_table_is_fresh() {
    let path = root().join("docs/agents.md");
    let doc = fs::read_to_string(&path).unwrap();
    let (start, end) = (
        "<!-- fields:start (generated from src/agents/schema.rs) -->\n",
        "<!-- fields:end -->",
    );
    let (Some(a), Some(b)) = (doc.find(start), doc.find(end)) else {
        panic!("docs/agents.md lacks the field table markers");
    };
    let want = format!(
        "{}{start}{}{}",
        &doc[..a],
        skillguard::agents::schema::markdown_table(),
        &doc[b..]
    );
    if std::env::var_os("UPDATE_DOCS").is_some() {
        fs::write(&path, &want).unwrap();
    }
    assert!(
        doc == want,
        "docs/agents.md's field table is stale; regenerate with `UPDATE_DOCS=1 cargo test --test catalog`"
    );
}

#[test]
fn readme_rule_count_is_current() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let want = format!("All {} rules:", skillguard::scan::rule_ids().len());
    assert!(readme.contains(&want), "README.md should say `{want}`");
}

/// `docs/security.md` names every security rule (data and code rules alike).
#[test]
fn security_doc_lists_every_security_rule() {
    let doc = fs::read_to_string(root().join("docs/security.md")).unwrap();
    let missing: Vec<&str> = catalog::all()
        .iter()
        .filter(|m| m.category.starts_with("security/"))
        .map(|m| m.id)
        .filter(|id| !doc.contains(&format!("`{id}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/security.md does not mention: {missing:?}"
    );
}

/// `x.y.z` (pre-release and build suffixes ignored) as a comparable triple.
fn version_triple(v: &str) -> Option<(u64, u64, u64)> {
    let core = v.split(['-', '+']).next()?;
    let mut it = core.split('.').map(|p| p.parse::<u64>().ok());
    let t = (it.next()??, it.next()??, it.next()??);
    it.next().is_none().then_some(t)
}

#[test]
fn rule_since_is_not_newer_than_the_crate() {
    let crate_version = env!("CARGO_PKG_VERSION");
    let have = version_triple(crate_version).expect("CARGO_PKG_VERSION is x.y.z");
    let mut newer = Vec::new();
    for m in catalog::all() {
        let since = version_triple(m.since)
            .unwrap_or_else(|| panic!("{}: `since: {}` is not a version x.y.z", m.id, m.since));
        if since > have {
            newer.push(format!("{} (since {})", m.id, m.since));
        }
    }
    assert!(
        newer.is_empty(),
        "rules say they exist since a version newer than this crate ({crate_version}): {}; \
         bump the version in Cargo.toml or correct `since` in rules/*.md",
        newer.join(", ")
    );
}

#[test]
fn changelog_names_the_crate_version() {
    let text = fs::read_to_string(root().join("CHANGELOG.md")).expect("CHANGELOG.md");
    assert!(
        text.contains("## [Unreleased]"),
        "CHANGELOG.md has no Unreleased section"
    );
    let v = env!("CARGO_PKG_VERSION");
    assert!(
        text.contains(&format!("## [{v}]")),
        "CHANGELOG.md has no section for the crate version {v}"
    );
}
