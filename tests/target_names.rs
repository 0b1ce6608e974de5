//! One name resolution: the scan (an eval's `skill:`), `coverage` and `evals tools --agent`
//! designate the same skill or agent for a name, and report an ambiguous one the same way.

mod common;

use common::{parse_json, run, s, stderr, write_in};

const EVAL: &str = "name: review-eval\ndescription: Evaluates the reviewer\nskill: NAME\nversion: \"1.0\"\ngraders:\n  - type: text\n    name: has_heading\n    config:\n      regex_match: [\"(?m)^## \"]\ntasks:\n  - name: review-diff\n    triggers:\n      - \"Review this diff\"\n";

fn agent(tools: &str) -> String {
    format!(
        "---\nname: review\ndescription: Reviews pull requests.\ntools: [{tools}]\n---\nReview the diff.\n"
    )
}

/// A repository with two `review` agents (their `tools`) and an eval naming `target`.
fn two_reviewers(first: &str, second: &str, target: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write_in(root, ".github/agents/review.agent.md", &agent(first));
    write_in(root, "agents/review.agent.md", &agent(second));
    write_in(
        root,
        "evals/review/eval.yaml",
        &EVAL.replace("NAME", target),
    );
    t
}

fn transcript(root: &std::path::Path) -> String {
    write_in(root, "t.json", r#"[{"tool": "read"}]"#);
    s(&root.join("t.json")).to_owned()
}

/// The scan's findings of one rule: (path, message).
fn findings(repo: &str, rule: &str) -> Vec<(String, String)> {
    let o = run(&["scan", "--repo", repo, "--format", "json", "--no-cache"]);
    let v = parse_json(&o);
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == rule)
        .map(|f| {
            (
                f["location"]["path"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn coverage(repo: &str) -> serde_json::Value {
    parse_json(&run(&["coverage", "--repo", repo, "--format", "json"]))
}

fn covered(cov: &serde_json::Value, path: &str) -> bool {
    cov["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["path"] == path)
        .unwrap_or_else(|| panic!("no row {path}: {cov}"))["covered"]
        == true
}

#[test]
fn an_ambiguous_name_is_reported_alike_by_scan_coverage_and_evals_tools() {
    let t = two_reviewers("'read'", "'bash'", "review");
    let root = t.path();
    let repo = s(root);
    let listed = "2 agents: .github/agents/review.agent.md, agents/review.agent.md";

    let f = findings(repo, "eval-target-ambiguous");
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].0, "evals/review/eval.yaml");
    assert!(f[0].1.contains(listed), "{}", f[0].1);
    assert!(findings(repo, "eval-target-missing").is_empty());

    let cov = coverage(repo);
    assert!(!covered(&cov, ".github/agents/review.agent.md"), "{cov}");
    assert!(!covered(&cov, "agents/review.agent.md"), "{cov}");
    assert_eq!(
        cov["ambiguous"][0]["path"], "evals/review/eval.yaml",
        "{cov}"
    );
    assert_eq!(
        cov["ambiguous"][0]["candidates"].as_array().unwrap().len(),
        2
    );
    let o = run(&["coverage", "--repo", repo]);
    assert!(
        common::stdout(&o).contains("which is ambiguous (counted for none)"),
        "{}",
        common::stdout(&o)
    );

    let tr = transcript(root);
    let o = run(&["evals", "tools", "--agent", "review", "--repo", repo, &tr]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("is ambiguous") && err.contains(listed),
        "{err}"
    );
}

#[test]
fn copies_a_path_or_the_enclosing_folder_settle_the_name_everywhere() {
    // Two copies of one agent (same front matter): one agent, the first by path.
    let t = two_reviewers("'read'", "'read'", "review");
    let root = t.path();
    let repo = s(root);
    assert!(findings(repo, "eval-target-ambiguous").is_empty());
    let cov = coverage(repo);
    assert!(covered(&cov, ".github/agents/review.agent.md"), "{cov}");
    let tr = transcript(root);
    let o = run(&["evals", "tools", "--agent", "review", "--repo", repo, &tr]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        common::stdout(&o).contains(".github/agents/review.agent.md"),
        "{}",
        common::stdout(&o)
    );

    // Different agents, and the eval names one by its path (Waza's `skill:` takes a path).
    let t = two_reviewers("'read'", "'bash'", "agents/review.agent.md");
    let root = t.path();
    let repo = s(root);
    assert!(findings(repo, "eval-target-ambiguous").is_empty());
    assert!(findings(repo, "eval-target-missing").is_empty());
    let cov = coverage(repo);
    assert!(covered(&cov, "agents/review.agent.md"), "{cov}");
    assert!(!covered(&cov, ".github/agents/review.agent.md"), "{cov}");

    // Two different skills of one name: the eval inside one of them names that one.
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    for (dir, what) in [
        (".claude/skills/pdf", "Reads"),
        (".github/skills/pdf", "Writes"),
    ] {
        write_in(
            root,
            &format!("{dir}/SKILL.md"),
            &format!("---\nname: pdf\ndescription: {what} PDF files. Use for PDFs.\n---\nDo it.\n"),
        );
    }
    write_in(
        root,
        ".claude/skills/pdf/eval.yaml",
        &EVAL.replace("NAME", "pdf"),
    );
    write_in(root, "evals/pdf/eval.yaml", &EVAL.replace("NAME", "pdf"));
    let repo = s(root);
    let f = findings(repo, "eval-target-ambiguous");
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].0, "evals/pdf/eval.yaml");
    assert!(
        f[0].1
            .contains("2 skills: .claude/skills/pdf, .github/skills/pdf"),
        "{}",
        f[0].1
    );
    let cov = coverage(repo);
    assert!(covered(&cov, ".claude/skills/pdf"), "{cov}");
    assert!(!covered(&cov, ".github/skills/pdf"), "{cov}");
}

/// Names match exactly everywhere; a name that differs only in case is offered.
#[test]
fn names_match_exactly_and_a_near_name_is_offered() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write_in(root, "agents/review.agent.md", &agent("'read'"));
    write_in(root, "evals/x/eval.yaml", &EVAL.replace("NAME", "Review"));
    let repo = s(root);
    let f = findings(repo, "eval-target-missing");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].1
            .contains("did you mean `review` (agents/review.agent.md)?"),
        "{}",
        f[0].1
    );
    let tr = transcript(root);
    let o = run(&["evals", "tools", "--agent", "Review", "--repo", repo, &tr]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("no skill or agent named `Review`")
            && err.contains("did you mean `review` (agents/review.agent.md)?"),
        "{err}"
    );
}
