//! Messages say what is true of the input: a hook's settings are not commands, a blank
//! string is "empty" (not "not a string"), a kind with nothing to cover has no percentage,
//! and a Claude subagent's misspelt tool is answered with Claude Code's tool names.

mod common;
use common::{bin, parse_json, write_in};

fn scan(root: &std::path::Path) -> serde_json::Value {
    let o = bin()
        .args(["scan", "--repo"])
        .arg(root)
        .args(["--format", "json", "--no-cache", "--no-config"])
        .output()
        .unwrap();
    parse_json(&o)
}

fn messages(v: &serde_json::Value, rule: &str) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == rule)
        .map(|f| f["message"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_hooks_timeout_is_not_listed_as_a_command() {
    let t = tempfile::tempdir().unwrap();
    write_in(
        t.path(),
        ".claude/skills/h/SKILL.md",
        "---\nname: h\ndescription: Helps. Use for help.\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n          timeout: 30\n---\nHelp.\n",
    );
    let m = messages(&scan(t.path()), "frontmatter-hooks");
    assert_eq!(m.len(), 1);
    assert!(m[0].contains("(`./check.sh`)"), "{}", m[0]);
    assert!(!m[0].contains("`30`"), "{}", m[0]);
}

#[test]
fn a_claude_subagents_misspelt_tool_gets_claude_codes_names() {
    let t = tempfile::tempdir().unwrap();
    write_in(
        t.path(),
        ".claude/agents/finder.md",
        "---\nname: finder\ndescription: Finds code. Use for searches.\ntools: Read, Grpe\n---\nFind it.\n",
    );
    let m = messages(&scan(t.path()), "agent-tool-unknown");
    assert_eq!(m.len(), 1);
    assert!(m[0].contains("Did you mean `Grep`?"), "{}", m[0]);
    assert!(!m[0].contains("Copilot"), "{}", m[0]);
}

#[test]
fn a_blank_string_is_empty_not_a_non_string() {
    let t = tempfile::tempdir().unwrap();
    write_in(
        t.path(),
        "skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\n---\nRead.\n",
    );
    write_in(
        t.path(),
        "skills/pdf/evals/eval.yaml",
        "name: \"\"\ndescription: d\ntasks:\n  - \"tasks/*.yaml\"\n",
    );
    let m = messages(&scan(t.path()), "eval-file-invalid");
    assert!(
        m.iter()
            .any(|m| m.contains("must be a non-empty string, not an empty string")),
        "{m:?}"
    );
    assert!(!m.iter().any(|m| m.contains("not a string")), "{m:?}");
}

#[test]
fn coverage_of_a_kind_with_nothing_to_cover_has_no_percentage() {
    let t = tempfile::tempdir().unwrap();
    write_in(
        t.path(),
        ".github/agents/reviewer.agent.md",
        "---\ndescription: Reviews code\n---\nReview.\n",
    );
    let o = bin()
        .args(["coverage", "--repo"])
        .arg(t.path())
        .arg("--no-config")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("skills none, agents 0/1 (0%)"), "{text}");
    assert!(!text.contains("0/0"), "{text}");
}
