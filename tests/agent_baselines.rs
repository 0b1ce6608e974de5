//! Baselines cover agents (issue 14, part 5): every agent, prompt, instructions, MCP and hook
//! file is recorded in ledger snapshots and pins with its content hash, appears in
//! `baseline diff`, `history` and `list`, is checked by `--manifest-baseline` and
//! `--check-baseline`, and copies of one agent identity that differ are reported once.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skillguard"));
    for v in ["NO_COLOR", "CI", "CLICOLOR_FORCE"] {
        c.env_remove(v);
    }
    c
}

fn run(dir: &Path, args: &[&str]) -> Output {
    bin().current_dir(dir).args(args).output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}{}", out(o), err(o)))
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn sha256(bytes: &[u8]) -> String {
    skillguard::hash::sha256_hex(bytes)
}

const REVIEWER: &str = "---\nname: reviewer\ndescription: Reviews code\ntools: ['read', 'search']\n---\nReview the change.\n";

/// A repository with one skill and one artefact of each kind.
fn repo() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let r = t.path().join("repo");
    fs::create_dir_all(r.join(".git")).unwrap();
    write(
        &r,
        "skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Takes notes of a meeting.\n---\nWrite notes.\n",
    );
    write(&r, ".github/agents/reviewer.agent.md", REVIEWER);
    write(
        &r,
        ".github/prompts/release.prompt.md",
        "---\ndescription: Drafts release notes\n---\nDraft the notes.\n",
    );
    write(
        &r,
        "AGENTS.md",
        "# Agents\n\nRun the tests before you commit.\n",
    );
    write(
        &r,
        ".mcp.json",
        "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    );
    write(
        &r,
        "hooks/hooks.json",
        "{\n  \"hooks\": {\n    \"PostToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo done\"}]}]\n  }\n}\n",
    );
    (t, r)
}

fn findings<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == rule)
        .collect()
}

#[test]
fn an_agent_content_hash_is_its_file_digest_wherever_it_is() {
    let (_t, r) = repo();
    write(&r, ".claude/agents/reviewer.md", REVIEWER);
    let o = run(
        &r,
        &["scan", "--repo", ".", "--no-config", "--format", "json"],
    );
    let v = json(&o);
    let agents = v["agents"].as_array().unwrap();
    let kinds: Vec<&str> = agents.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    for k in ["agent", "prompt", "instructions", "mcp-config", "hooks"] {
        assert!(kinds.contains(&k), "{k} missing: {kinds:?}");
    }
    let hash = |p: &str| {
        agents.iter().find(|a| a["path"] == p).unwrap()["content_hash"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    // Identical copies in two folders have one content hash: the SHA-256 of the bytes.
    assert_eq!(
        hash(".github/agents/reviewer.agent.md"),
        sha256(REVIEWER.as_bytes())
    );
    assert_eq!(
        hash(".claude/agents/reviewer.md"),
        hash(".github/agents/reviewer.agent.md")
    );
    assert!(findings(&v, "agent-identity-conflict").is_empty());
}

#[test]
fn copies_of_one_agent_identity_that_differ_are_one_finding() {
    let (_t, r) = repo();
    // The same file name in the two folders VS Code reads, different names and content.
    write(
        &r,
        ".claude/agents/reviewer.md",
        "---\nname: code-critic\ndescription: Reviews code\ntools: Read, Bash\n---\nReview and run the tests.\n",
    );
    let o = run(
        &r,
        &["scan", "--repo", ".", "--no-config", "--format", "json"],
    );
    let v = json(&o);
    let conflicts = findings(&v, "agent-identity-conflict");
    assert_eq!(conflicts.len(), 1, "{conflicts:#?}");
    let f = conflicts[0];
    assert_eq!(f["location"]["path"], ".claude/agents/reviewer.md");
    assert_eq!(f["severity"], "medium");
    assert_eq!(
        f["related"][0]["location"]["path"],
        ".github/agents/reviewer.agent.md"
    );
    assert_eq!(
        f["properties"]["identities"],
        serde_json::json!(["reviewer"])
    );
    let locs = f["properties"]["locations"].as_array().unwrap();
    assert_eq!(locs.len(), 2);
    assert_eq!(locs[1]["content_hash"], sha256(REVIEWER.as_bytes()));
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.contains("share the identity `reviewer`")
            && msg.contains(&sha256(REVIEWER.as_bytes())[..12]),
        "{msg}"
    );
    // One cause, one finding: no skill drift finding for the same pair.
    assert!(findings(&v, "cross-location-content-drift").is_empty());

    // The same `name` in another agent folder is the same identity too.
    fs::remove_file(r.join(".claude/agents/reviewer.md")).unwrap();
    write(
        &r,
        ".gemini/agents/checker.md",
        &REVIEWER.replace("Review the change.", "Review the change and push."),
    );
    let v = json(&run(
        &r,
        &["scan", "--repo", ".", "--no-config", "--format", "json"],
    ));
    let conflicts = findings(&v, "agent-identity-conflict");
    assert_eq!(conflicts.len(), 1, "{conflicts:#?}");
    assert_eq!(
        conflicts[0]["location"]["path"],
        ".gemini/agents/checker.md"
    );

    // A file name shared outside the folders VS Code reads is no identity.
    fs::remove_file(r.join(".gemini/agents/checker.md")).unwrap();
    write(
        &r,
        ".claude/agents/team/reviewer.md",
        "---\nname: team-reviewer\ndescription: Reviews code\n---\nOther.\n",
    );
    let v = json(&run(
        &r,
        &["scan", "--repo", ".", "--no-config", "--format", "json"],
    ));
    assert!(findings(&v, "agent-identity-conflict").is_empty());
}
