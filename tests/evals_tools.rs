//! `skillguard evals tools`: the tool policy of transcripts (Waza's `tool_constraint`)
//! over `fixtures/evals/tools`.

mod common;

use std::path::Path;

const F: &str = "fixtures/evals/tools";

fn tools(args: &[&str]) -> (i32, String, String) {
    let out = common::bin()
        .arg("evals")
        .arg("tools")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn t(name: &str) -> String {
    format!("{F}/transcripts/{name}")
}

const REPO: &str = "fixtures/evals/tools/repo";

#[test]
fn planted_out_of_policy_calls_are_listed() {
    let (code, out, _) = tools(&[
        "--agent",
        "reviewer",
        "--repo",
        REPO,
        &t("allowed.json"),
        &t("planted.json"),
    ]);
    assert_eq!(code, 1, "{out}");
    let want = [
        "planted.json:6:46: call 2 (.messages[1].content[2]) `writeFile`: not declared in tools:",
        "planted.json:9:59: call 3 (.messages[2].tool_calls[0]) `custom:github-list_issues`: namespace mismatch: only mcp:github-list_issues is declared",
        "planted.json:10:59: call 4 (.messages[2].tool_calls[1]) `mcp:CodeSearch`: namespace mismatch: only custom:CodeSearch is declared",
        "planted.json:11:59: call 5 (.messages[2].tool_calls[2]) `mcp:github-create_issue`: not declared in tools:",
        "4 call(s) outside the policy, of 10 call(s) in 2 transcript(s)",
    ];
    for w in want {
        assert!(out.contains(w), "missing `{w}` in:\n{out}");
    }
    // The aliases and namespaced calls of allowed.json pass (readFile and view by read,
    // bash by runCommand), and fileRead in planted.json.
    assert!(!out.contains("allowed.json:"), "{out}");
    assert!(!out.contains("`fileRead`"), "{out}");
}

#[test]
fn allowed_transcript_exits_zero() {
    let (code, out, _) = tools(&["--agent", "reviewer", "--repo", REPO, &t("allowed.json")]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 call(s) outside the policy, of 5 call(s)"));
    // By path too.
    let (code, _, _) = tools(&[
        "--agent",
        &format!("{REPO}/.github/agents/reviewer.agent.md"),
        &t("allowed.json"),
    ]);
    assert_eq!(code, 0);
}

#[test]
fn empty_tools_denies_all_and_omitted_tools_allows_all() {
    let (code, out, _) = tools(&[
        "--agent",
        "silent",
        "--repo",
        REPO,
        "--format",
        "json",
        &t("allowed.json"),
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["policy"], "deny-all");
    let vs = v["violations"].as_array().unwrap();
    assert_eq!(vs.len(), 5);
    assert!(vs.iter().all(|x| x["reason"] == "deny-all"));
    assert_eq!(vs[0]["tool"], "readFile");
    assert_eq!(vs[0]["call"], 1);
    let (code, out, _) = tools(&["--agent", "open", "--repo", REPO, &t("planted.json")]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("unrestricted"));
}

#[test]
fn bad_input_exits_two() {
    let (code, _, err) = tools(&[
        "--agent",
        &format!("{F}/malformed.agent.md"),
        &t("allowed.json"),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("malformed agent") && err.contains("malformed.agent.md"),
        "{err}"
    );
    let (code, _, err) = tools(&["--agent", "reviewer", "--repo", REPO, &t("corrupt.json")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid transcript") && err.contains("corrupt.json"),
        "{err}"
    );
    let (code, _, err) = tools(&["--agent", "reviewer", "--repo", REPO, &t("missing.json")]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read transcript"), "{err}");
    let (code, _, err) = tools(&["--agent", "nobody", "--repo", REPO, &t("allowed.json")]);
    assert_eq!(code, 2);
    assert!(err.contains("no skill or agent named `nobody`"), "{err}");
    let (code, _, err) = tools(&[
        "--agent",
        &format!("{F}/absent.agent.md"),
        &t("allowed.json"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read agent file"), "{err}");
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join(F).is_dir());
}

#[test]
fn output_is_deterministic() {
    let a = tools(&[
        "--agent",
        "reviewer",
        "--repo",
        REPO,
        "--format",
        "json",
        &t("planted.json"),
    ]);
    let b = tools(&[
        "--agent",
        "reviewer",
        "--repo",
        REPO,
        "--format",
        "json",
        &t("planted.json"),
    ]);
    assert_eq!(a, b);
}

#[test]
fn violations_are_placed_at_the_line_and_column_of_the_tool_name() {
    let (code, out, _) = tools(&[
        "--agent",
        "reviewer",
        "--repo",
        REPO,
        "--format",
        "json",
        &t("planted.json"),
    ]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let got: Vec<(String, u64, u64, String)> = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["at"].as_str().unwrap().to_owned(),
                x["line"].as_u64().unwrap(),
                x["column"].as_u64().unwrap(),
                x["tool"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    // The column is the tool name's opening quote, counted in characters.
    let text = std::fs::read_to_string(t("planted.json")).unwrap();
    for (at, line, col, tool) in &got {
        let l = text.lines().nth(*line as usize - 1).unwrap();
        let byte = l.char_indices().nth(*col as usize - 1).unwrap().0;
        assert!(
            l[byte..].starts_with(&format!("\"{tool}\"")),
            "{at} at {line}:{col} is not `{tool}`: {l}"
        );
    }
    assert_eq!(
        got[0],
        (".messages[1].content[2]".into(), 6, 46, "writeFile".into())
    );
    // Line 9 holds a `ç` before the name: 59 characters, 60 bytes.
    assert_eq!(
        got[1],
        (
            ".messages[2].tool_calls[0]".into(),
            9,
            59,
            "custom:github-list_issues".into()
        )
    );
    assert_eq!(
        got[3],
        (
            ".messages[2].tool_calls[2]".into(),
            11,
            59,
            "mcp:github-create_issue".into()
        )
    );
}

/// Like `coverage`, a name resolves to the one `.agent.md` among same-named agent files.
#[test]
fn a_name_prefers_the_one_agent_md_as_coverage_does() {
    let o = common::bin()
        .args([
            "evals",
            "tools",
            "--repo",
            "fixtures/demo",
            "--agent",
            "reviewer",
            "fixtures/evals/tools/transcripts/allowed.json",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("agent fixtures/demo/.github/agents/reviewer.agent.md:"),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// An agent file beside a `SKILL.md` is one Waza ignores (the scan says so with
/// `agent-ignored-beside-skill`): `--agent NAME` does not resolve to it.
#[test]
fn an_agent_waza_ignores_is_not_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/review");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: review\ndescription: Reviews code. Use for reviews.\n---\nReview.\n",
    )
    .unwrap();
    std::fs::write(
        skill.join("checker.agent.md"),
        "---\nname: checker\ndescription: Checks code\ntools: ['read']\n---\nCheck.\n",
    )
    .unwrap();
    let repo = dir.path().to_str().unwrap();
    let (code, _, err) = tools(&["--agent", "checker", "--repo", repo, &t("allowed.json")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("which Waza ignores"), "{err}");
    assert!(err.contains("skills/review/checker.agent.md"), "{err}");
}
