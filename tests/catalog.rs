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
    // Every AgentEval rule reachable for file skills has a counterpart.
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
