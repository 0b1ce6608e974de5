//! Waza's own name rules (`agent-name-missing`, `agent-name-mismatch`) weigh in full only
//! where Waza is in use: a Waza eval file, a `.waza.yaml`, or `--targets waza` (or `all`).
//! Elsewhere a display name such as `name: C# Expert`, which VS Code and GitHub Copilot allow,
//! is a note (info).

mod common;
use common::{bin, parse_json, write_in};

const AGENT: &str = "---\nname: C# Expert\ndescription: Helps with C# code. Use for .NET questions.\n---\nAnswer C# questions with short, tested examples.\n";

fn severity_of(root: &std::path::Path, extra: &[&str]) -> String {
    let o = bin()
        .args(["scan", "--repo"])
        .arg(root)
        .args(["--format", "json", "--no-cache", "--no-config"])
        .args(extra)
        .output()
        .unwrap();
    let v = parse_json(&o);
    let f: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "agent-name-mismatch")
        .collect();
    assert_eq!(f.len(), 1, "{v:#}");
    f[0]["severity"].as_str().unwrap().to_owned()
}

#[test]
fn a_display_name_is_a_note_where_waza_is_not_used() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join(".git")).unwrap();
    write_in(t.path(), "agents/csharp-expert.agent.md", AGENT);
    assert_eq!(severity_of(t.path(), &[]), "info");
    // Targeting Waza: its rule in full.
    assert_eq!(severity_of(t.path(), &["--targets", "waza"]), "low");
    assert_eq!(severity_of(t.path(), &["--targets", "all"]), "low");
    // A `.waza.yaml` in the repository.
    write_in(t.path(), ".waza.yaml", "model: claude-sonnet-4.6\n");
    assert_eq!(severity_of(t.path(), &[]), "low");
}

#[test]
fn a_waza_eval_file_puts_waza_in_use() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join(".git")).unwrap();
    write_in(t.path(), "agents/csharp-expert.agent.md", AGENT);
    write_in(
        t.path(),
        "evals/csharp-expert/eval.yaml",
        "name: csharp-expert-eval\ndescription: Evaluating the agent\nskill: csharp-expert\ngraders:\n  - type: text\n    name: answers\n    config:\n      regex_match: [\"(?i)class\"]\ntasks:\n  - \"tasks/*.yaml\"\n",
    );
    assert_eq!(severity_of(t.path(), &[]), "low");
}
