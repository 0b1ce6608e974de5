//! Baselines cover agents: every agent, prompt, instructions, MCP and hook
//! file is recorded in ledger snapshots and pins with its content hash, appears in
//! `baseline diff`, `history` and `list`, is checked by `--manifest-baseline` and
//! `--check-baseline`, and copies of one agent identity that differ are reported once.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{
    ledger_snapshots as snapshots, parse_json as json, run_in as run, stderr as err,
    stdout_lossy as out, write_in as write,
};
use serde_json::Value;

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

/// `scan --repo . --format json` with `extra` options.
fn scan_json(r: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["scan", "--repo", ".", "--no-config", "--format", "json"];
    args.extend_from_slice(extra);
    run(r, &args)
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
    let o = scan_json(&r, &[]);
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
    let o = scan_json(&r, &[]);
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
    let v = json(&scan_json(&r, &[]));
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
    let v = json(&scan_json(&r, &[]));
    assert!(findings(&v, "agent-identity-conflict").is_empty());
}

const HELPER: &str =
    "---\nname: helper\ndescription: Helps\ntools: Read\n---\nHelp with #tool:frobnicate first.\n";

/// A quiet `scan --repo .` with `extra` options, its report in `report.json`.
fn scan_quiet(r: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "scan",
        "--repo",
        ".",
        "--no-config",
        "-q",
        "-o",
        "report.json",
    ];
    args.extend_from_slice(extra);
    run(r, &args)
}

/// [`scan_quiet`], which must exit 0 or 1.
fn record(r: &Path, extra: &[&str]) -> Output {
    let o = scan_quiet(r, extra);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", err(&o));
    o
}

fn load(p: &Path) -> Value {
    serde_json::from_slice(&fs::read(p).unwrap()).unwrap()
}

fn validate(schema: &str, doc: &Value) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("baselines");
    let sch = load(&root.join(schema));
    let v = jsonschema::validator_for(&sch).unwrap();
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{schema}: {errors:#?}");
}

fn change<'a>(changes: &'a Value, location: &str) -> &'a Value {
    changes
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["location"] == location)
        .unwrap_or_else(|| panic!("no change at {location}: {changes:#}"))
}

#[test]
fn snapshots_record_every_kind_and_reviews_show_agents() {
    let (_t, r) = repo();
    write(&r, ".claude/agents/helper.md", HELPER);
    record(&r, &["--write-baseline"]);
    let s1 = load(&snapshots(&r)[0]);
    validate("ledger-snapshot.schema.json", &s1);
    let agents = s1["agents"].as_array().unwrap();
    let locs: Vec<&str> = agents
        .iter()
        .map(|a| a["location"].as_str().unwrap())
        .collect();
    assert_eq!(
        locs,
        [
            ".claude/agents/helper.md",
            ".github/agents/reviewer.agent.md",
            ".github/prompts/release.prompt.md",
            ".mcp.json",
            "AGENTS.md",
            "hooks/hooks.json"
        ],
        "sorted by location"
    );
    let kinds: Vec<&str> = agents.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "agent",
            "agent",
            "prompt",
            "mcp-config",
            "instructions",
            "hooks"
        ]
    );
    let reviewer = &agents[1];
    assert_eq!(reviewer["name"], "reviewer");
    assert_eq!(reviewer["format"], "copilot-agent");
    assert_eq!(reviewer["content"], sha256(REVIEWER.as_bytes()));
    assert_eq!(reviewer["files"][0]["path"], "reviewer.agent.md");
    assert_eq!(reviewer["files"][0]["sha256"], sha256(REVIEWER.as_bytes()));
    assert!(reviewer["files"][0]["lines"].is_object(), "{reviewer}");
    // Finding counts per file.
    assert_eq!(
        agents[0]["findings"]["agent-reference-broken"]["low"], 1,
        "{}",
        agents[0]
    );
    // The skill entries are unchanged in shape: no kind.
    assert!(s1["skills"][0].get("kind").is_none());

    // Edit the agent, remove the prompt, add a hook file, move the helper.
    write(
        &r,
        ".github/agents/reviewer.agent.md",
        &format!("{REVIEWER}Also check the tests.\n"),
    );
    fs::remove_file(r.join(".github/prompts/release.prompt.md")).unwrap();
    write(
        &r,
        ".github/hooks/post.json",
        "{\"hooks\": {\"PostToolUse\": [{\"command\": \"echo ok\"}]}}\n",
    );
    fs::remove_file(r.join(".claude/agents/helper.md")).unwrap();
    write(&r, ".claude/agents/team/helper.md", HELPER);
    let o = record(&r, &["--write-baseline"]);
    assert_eq!(out(&o), "");

    // diff, JSON.
    let d = json(&run(&r, &["baseline", "diff", "--format", "json"]));
    let a = &d["diff"]["agents"];
    assert_eq!(d["diff"]["changes"], serde_json::json!([]), "{d:#}");
    assert_eq!(d["diff"]["unchanged"], 1);
    assert!(d["diff"].get("agents_note").is_none(), "{d:#}");
    let statuses: Vec<(&str, &str, &str)> = a["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["status"].as_str().unwrap(),
                c["kind"].as_str().unwrap(),
                c["location"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("moved", "agent", ".claude/agents/team/helper.md"),
            ("changed", "agent", ".github/agents/reviewer.agent.md"),
            ("added", "hooks", ".github/hooks/post.json"),
            ("removed", "prompt", ".github/prompts/release.prompt.md"),
        ]
    );
    assert_eq!(a["unchanged"], 3);
    let c = change(&a["changes"], ".github/agents/reviewer.agent.md");
    assert_eq!(c["content_changed"], true);
    assert_eq!(c["structural_changed"], false);
    assert_eq!(c["format"], "copilot-agent");
    assert_eq!(
        c["files"],
        serde_json::json!([{
            "path": "reviewer.agent.md", "status": "modified",
            "old_size": REVIEWER.len(), "new_size": REVIEWER.len() + 22,
            "lines_added": 1, "lines_removed": 0
        }])
    );
    let m = change(&a["changes"], ".claude/agents/team/helper.md");
    assert_eq!(m["moved_from"], ".claude/agents/helper.md");
    // Deterministic.
    let again = json(&run(&r, &["baseline", "diff", "--format", "json"]));
    assert_eq!(again, d);

    // diff, console.
    let text = out(&run(&r, &["baseline", "diff"]));
    for line in [
        "Agents, prompts, instructions, MCP and hook files:",
        "   [moved] agent .claude/agents/team/helper.md (helper) from .claude/agents/helper.md",
        "   [changed] agent .github/agents/reviewer.agent.md (reviewer): content changed",
        &format!(
            "        modified reviewer.agent.md  {} -> {} bytes, +1 -0 lines",
            REVIEWER.len(),
            REVIEWER.len() + 22
        ),
        "   [added] hooks .github/hooks/post.json (post)",
        "   [removed] prompt .github/prompts/release.prompt.md (release)",
        "0 changed, 0 added, 0 removed, 0 moved, 1 unchanged",
        "agent files: 1 changed, 1 added, 1 removed, 1 moved, 3 unchanged",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    // --skill filters agents too (by name, or by file name).
    let d = json(&run(
        &r,
        &[
            "baseline", "diff", "--skill", "reviewer", "--format", "json",
        ],
    ));
    assert_eq!(d["diff"]["agents"]["changes"].as_array().unwrap().len(), 1);
    assert_eq!(d["diff"]["agents"]["unchanged"], 0);
    // --hash structural: agents have no structural fingerprint, their content decides.
    let d = json(&run(
        &r,
        &[
            "baseline",
            "diff",
            "--hash",
            "structural",
            "--format",
            "json",
        ],
    ));
    assert!(
        change(
            &d["diff"]["agents"]["changes"],
            ".github/agents/reviewer.agent.md"
        )["content_changed"]
            .as_bool()
            .unwrap()
    );

    // history.
    let h = json(&run(
        &r,
        &["baseline", "history", "reviewer", "--format", "json"],
    ));
    let locs = h["history"]["locations"].as_array().unwrap();
    assert_eq!(locs.len(), 1, "{h:#}");
    assert_eq!(locs[0]["kind"], "agent");
    let events: Vec<&str> = locs[0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["recorded", "changed"]);
    assert!(h["history"].get("agents_recorded_since").is_none());
    let text = out(&run(&r, &["baseline", "history", "release"]));
    assert!(
        text.contains("  prompt .github/prompts/release.prompt.md (release)")
            && text.contains("removed"),
        "{text}"
    );

    // list.
    let l = json(&run(&r, &["baseline", "list", "--format", "json"]));
    let counts: Vec<&Value> = l["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["agents"])
        .collect();
    assert_eq!(counts, [&serde_json::json!(6), &serde_json::json!(6)]);
    let text = out(&run(&r, &["baseline", "list"]));
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("SKILLS  AGENTS  NOTE"),
        "{text}"
    );

    // verify: the chain covers agent entries.
    let v = run(&r, &["baseline", "verify"]);
    assert_eq!(v.status.code(), Some(0), "{}", out(&v));
    let files = snapshots(&r);
    let t = fs::read_to_string(&files[0]).unwrap();
    let tampered = t.replacen(&sha256(REVIEWER.as_bytes()), &"0".repeat(64), 1);
    assert_ne!(t, tampered);
    fs::write(&files[0], tampered).unwrap();
    let v = run(&r, &["baseline", "verify", "--format", "json"]);
    assert_eq!(v.status.code(), Some(1), "{}", out(&v));
    let problems = &json(&v)["verification"]["problems"];
    assert_eq!(problems[0]["kind"], "edited", "{problems:#}");
    assert_eq!(problems[0]["seq"], 1);
    fs::write(&files[0], t).unwrap();
    // The newest snapshot's agent entry edited: verify fails and appends are refused.
    let t = fs::read_to_string(&files[1]).unwrap();
    fs::write(
        &files[1],
        t.replacen("\"kind\":\"hooks\"", "\"kind\":\"agent\"", 1),
    )
    .unwrap();
    assert_eq!(run(&r, &["baseline", "verify"]).status.code(), Some(1));
    let o = scan_quiet(&r, &["--write-baseline"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("HEAD.json"), "{}", err(&o));
}

/// Rewrites snapshot `file` as a writer that predates agent recording would have written it
/// (without `agents`), and HEAD.json to match: a consistent older ledger.
fn strip_agents(r: &Path, file: &Path) {
    let t = fs::read_to_string(file).unwrap();
    let i = t.find(",\n\"agents\":[").unwrap();
    let stripped = format!("{}}}\n", &t[..i]);
    fs::write(file, &stripped).unwrap();
    let head_path = r.join(".skillguard/ledger/HEAD.json");
    let mut head = load(&head_path);
    head["sha256"] = Value::String(sha256(stripped.as_bytes()));
    fs::write(
        head_path,
        format!("{}\n", serde_json::to_string_pretty(&head).unwrap()),
    )
    .unwrap();
}

#[test]
fn snapshots_that_predate_agent_recording_are_not_read_as_no_agents() {
    let (_t, r) = repo();
    record(&r, &["--write-baseline"]);
    strip_agents(&r, &snapshots(&r)[0]);
    assert_eq!(run(&r, &["baseline", "verify"]).status.code(), Some(0));
    // An upgraded skillguard appends to the older ledger.
    write(
        &r,
        ".github/agents/reviewer.agent.md",
        &format!("{REVIEWER}More.\n"),
    );
    let o = record(&r, &["--write-baseline"]);
    assert_eq!(out(&o), "");
    let o = run(&r, &["baseline", "verify"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));

    let d = json(&run(&r, &["baseline", "diff", "--format", "json"]));
    assert_eq!(d["diff"]["agents"], Value::Null, "{d:#}");
    let note = d["diff"]["agents_note"].as_str().unwrap();
    assert!(
        note.contains("snapshot #1 predates agent recording"),
        "{note}"
    );
    let text = out(&run(&r, &["baseline", "diff"]));
    assert!(
        !text.contains("[added]"),
        "agents must not look added:\n{text}"
    );
    assert!(
        text.contains("agents not compared: snapshot #1 predates"),
        "{text}"
    );

    let l = json(&run(&r, &["baseline", "list", "--format", "json"]));
    assert_eq!(l["snapshots"][0]["agents"], Value::Null);
    assert_eq!(l["snapshots"][1]["agents"], 5);
    let text = out(&run(&r, &["baseline", "list"]));
    let first = text.lines().nth(1).unwrap();
    assert!(first.contains("       1       -  "), "{text}");

    let h = json(&run(
        &r,
        &["baseline", "history", "reviewer", "--format", "json"],
    ));
    assert_eq!(h["history"]["agents_recorded_since"]["seq"], 2, "{h:#}");
    let ev = &h["history"]["locations"][0]["events"];
    assert_eq!(ev.as_array().unwrap().len(), 1);
    assert_eq!(ev[0]["event"], "recorded");
    let text = out(&run(&r, &["baseline", "history", "reviewer"]));
    assert!(
        text.contains("note: snapshots before #2 predate agent recording"),
        "{text}"
    );

    // A third snapshot by an older writer in between does not remove the agents.
    record(&r, &["--write-baseline"]);
    let files = snapshots(&r);
    strip_agents(&r, &files[2]);
    record(&r, &["--write-baseline"]);
    let h = json(&run(
        &r,
        &["baseline", "history", "reviewer", "--format", "json"],
    ));
    let events: Vec<&str> = h["history"]["locations"][0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["recorded"], "{h:#}");
    let d = json(&run(
        &r,
        &[
            "baseline", "diff", "--since", "2", "--until", "4", "--format", "json",
        ],
    ));
    assert_eq!(d["diff"]["agents"]["unchanged"], 5, "{d:#}");
}

/// `baseline approve NAME --skill-path PATH --baseline pins.json` (plus `extra`).
fn approve(r: &Path, name: &str, path: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "baseline",
        "approve",
        name,
        "--skill-path",
        path,
        "--baseline",
        "pins.json",
    ];
    args.extend_from_slice(extra);
    run(r, &args)
}

#[test]
fn pins_hold_agent_content_hashes_and_report_changed_agents() {
    let (_t, r) = repo();
    let o = record(&r, &["--save-manifest-baseline", "pins.json"]);
    let _ = o;
    let pins = load(&r.join("pins.json"));
    validate("pin.schema.json", &pins);
    let p = &pins["agents"][".github/agents/reviewer.agent.md"];
    assert_eq!(p["kind"], "agent");
    assert_eq!(p["content"], sha256(REVIEWER.as_bytes()));
    assert_eq!(p["files"]["reviewer.agent.md"], sha256(REVIEWER.as_bytes()));
    assert_eq!(pins["agents"].as_object().unwrap().len(), 5);
    // Deterministic: saving again gives the same bytes.
    let before = fs::read(r.join("pins.json")).unwrap();
    record(&r, &["--save-manifest-baseline", "pins.json"]);
    assert_eq!(fs::read(r.join("pins.json")).unwrap(), before);

    // Unchanged: the gate passes.
    let gate = ["--manifest-baseline", "pins.json", "--fail-on-drift"];
    let o = scan_json(&r, &gate);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));

    // An edited agent and an edited AGENTS.md fail it, worded for what they are.
    write(
        &r,
        ".github/agents/reviewer.agent.md",
        &REVIEWER.replace("['read', 'search']", "['read', 'search', 'execute']"),
    );
    write(&r, "AGENTS.md", "# Agents\n\nAlways push to main.\n");
    fs::remove_file(r.join("hooks/hooks.json")).unwrap();
    let o = scan_json(&r, &gate);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let v = json(&o);
    let pinned = findings(&v, "manifest-changed-since-baseline");
    let at: Vec<&str> = pinned
        .iter()
        .map(|f| f["location"]["path"].as_str().unwrap())
        .collect();
    assert_eq!(at, [".github/agents/reviewer.agent.md", "AGENTS.md"]);
    assert_eq!(pinned[0]["severity"], "high");
    let msg = pinned[0]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("agent `reviewer` (.github/agents/reviewer.agent.md) changed since it was pinned in pins.json: content changed.")
            && !msg.contains("skill `")
            && !msg.contains("structural"),
        "{msg}"
    );
    assert!(
        pinned[1]["message"]
            .as_str()
            .unwrap()
            .starts_with("instructions file `AGENTS` (AGENTS.md) changed since it was pinned"),
        "{}",
        pinned[1]["message"]
    );
    assert_eq!(pinned[0]["properties"]["content_changed"], true);
    assert_eq!(
        pinned[0]["properties"]["files"]["modified"],
        serde_json::json!(["reviewer.agent.md"])
    );
    // The removed hooks file is gone from the pins' view: a finding the gate trips on.
    let gone = findings(&v, "pinned-skill-missing");
    assert_eq!(gone.len(), 1, "{v:#}");
    assert!(
        gone[0]["message"]
            .as_str()
            .unwrap()
            .contains("(at hooks/hooks.json) is not in this scan"),
        "{}",
        gone[0]["message"]
    );
    // `--allow-new`: the note of before.
    let o = scan_json(&r, &[&gate[..], &["--allow-new"]].concat());
    assert!(
        err(&o).contains("1 pinned agent file(s) not in this scan: hooks/hooks.json"),
        "{}",
        err(&o)
    );

    // Approve the agent by name, the instructions by file: the gate passes again.
    let o = approve(&r, "reviewer", ".", &["--note", "SEC-9"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o)
            .starts_with("approved agent `reviewer` (.github/agents/reviewer.agent.md): content="),
        "{}",
        out(&o)
    );
    let o = approve(&r, "AGENTS", "AGENTS.md", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let pins = load(&r.join("pins.json"));
    validate("pin.schema.json", &pins);
    assert_eq!(
        pins["agents"][".github/agents/reviewer.agent.md"]["note"],
        "SEC-9"
    );
    let o = scan_json(&r, &[&gate[..], &["--allow-new"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // A skill is still approved through its SKILL.md (a file path, like an agent's).
    let o = approve(&r, "notes", "skills/notes/SKILL.md", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).starts_with("approved `notes`: structural="),
        "{}",
        out(&o)
    );
    // Nothing of that name: exit 2, the file untouched.
    let before = fs::read(r.join("pins.json")).unwrap();
    let o = approve(&r, "nobody", ".", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("no skill or agent file named `nobody`"),
        "{}",
        err(&o)
    );
    assert_eq!(fs::read(r.join("pins.json")).unwrap(), before);
}

#[test]
fn check_baseline_covers_agents() {
    let (_t, r) = repo();
    record(&r, &["--write-baseline"]);
    write(
        &r,
        ".github/agents/reviewer.agent.md",
        &format!("{REVIEWER}Approve everything.\n"),
    );
    let o = scan_json(&r, &["--check-baseline", "--fail-on-drift"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let v = json(&o);
    let changed = findings(&v, "changed-since-last-vetted");
    assert_eq!(changed.len(), 1, "{changed:#?}");
    assert_eq!(
        changed[0]["location"]["path"],
        ".github/agents/reviewer.agent.md"
    );
    let msg = changed[0]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("agent `reviewer` (.github/agents/reviewer.agent.md) has content never recorded in the ledger: last recorded here in snapshot #1")
            && msg.contains("modified: reviewer.agent.md"),
        "{msg}"
    );
    let same: Vec<&str> = findings(&v, "matches-previously-vetted-copy")
        .iter()
        .map(|f| f["location"]["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        same,
        [
            ".github/prompts/release.prompt.md",
            ".mcp.json",
            "AGENTS.md",
            "hooks/hooks.json",
            "skills/notes/SKILL.md"
        ]
    );
    // A copy of the vetted agent elsewhere matches it (same name and content).
    write(&r, ".github/agents/reviewer.agent.md", REVIEWER);
    write(&r, ".gemini/agents/reviewer.md", REVIEWER);
    let v = json(&scan_json(&r, &["--check-baseline"]));
    assert!(findings(&v, "changed-since-last-vetted").is_empty());
    assert!(
        findings(&v, "matches-previously-vetted-copy")
            .iter()
            .any(|f| f["location"]["path"] == ".gemini/agents/reviewer.md")
    );
}

#[test]
fn agenteval_imports_predate_agent_recording_and_still_verify() {
    let (_t, r) = repo();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/agenteval/ledger");
    let o = run(
        &r,
        &["baseline", "import-agenteval", fixture.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    record(&r, &["--write-baseline"]);
    let o = run(&r, &["baseline", "verify"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let l = json(&run(&r, &["baseline", "list", "--format", "json"]));
    let agents: Vec<&Value> = l["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["agents"])
        .collect();
    assert_eq!(
        agents,
        [
            &Value::Null,
            &Value::Null,
            &Value::Null,
            &serde_json::json!(5)
        ]
    );
    let d = json(&run(&r, &["baseline", "diff", "--format", "json"]));
    assert_eq!(d["diff"]["agents"], Value::Null);
    assert!(
        d["diff"]["agents_note"]
            .as_str()
            .unwrap()
            .contains("snapshot #3 predates agent recording"),
        "{d:#}"
    );
    // The imported snapshots parse as before: they have no `agents` array at all.
    let first = load(&snapshots(&r)[0]);
    assert!(first.get("agents").is_none() && first["imported"].is_object());
}

#[test]
fn workspace_pins_key_agents_by_repository_and_approve_updates_them_in_place() {
    let t = tempfile::tempdir().unwrap();
    let ws = t.path().join("ws");
    for r in ["repo-a", "repo-b"] {
        fs::create_dir_all(ws.join(r).join(".git")).unwrap();
        write(&ws.join(r), ".github/agents/reviewer.agent.md", REVIEWER);
    }
    let scan = |extra: &[&str]| {
        let mut args = vec![
            "scan-workspace",
            ".",
            "--no-config",
            "-q",
            "--format",
            "json",
            "-o",
            "../report.json",
        ];
        args.extend_from_slice(extra);
        run(&ws, &args)
    };
    let o = scan(&["--save-manifest-baseline", "../pins.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let keys = |p: &Path| -> Vec<String> {
        load(p)["agents"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    let pins = t.path().join("pins.json");
    let both = [
        "repo-a/.github/agents/reviewer.agent.md",
        "repo-b/.github/agents/reviewer.agent.md",
    ];
    assert_eq!(keys(&pins), both);
    write(
        &ws.join("repo-a"),
        ".github/agents/reviewer.agent.md",
        &format!("{REVIEWER}More.\n"),
    );
    let o = scan(&["--manifest-baseline", "../pins.json", "--fail-on-drift"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let v = load(&t.path().join("report.json"));
    let f = findings(&v, "manifest-changed-since-baseline");
    assert_eq!(f.len(), 1);
    assert_eq!(f[0]["location"]["path"], both[0]);
    // Approved from inside repo-a: the workspace key is updated, no new key appears.
    let o = run(
        &ws.join("repo-a"),
        &[
            "baseline",
            "approve",
            "reviewer",
            "--skill-path",
            ".",
            "--baseline",
            "../../pins.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("(pinned as repo-a/.github/agents/reviewer.agent.md)"),
        "{}",
        out(&o)
    );
    assert_eq!(keys(&pins), both);
    let o = scan(&["--manifest-baseline", "../pins.json", "--fail-on-drift"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

#[test]
fn a_malformed_agents_array_is_a_corrupt_snapshot_naming_the_file() {
    let (_t, r) = repo();
    record(&r, &["--write-baseline"]);
    record(&r, &["--write-baseline"]);
    let f = snapshots(&r).remove(1);
    let t = fs::read_to_string(&f).unwrap();
    let i = t.find("\"agents\":[").unwrap();
    fs::write(&f, format!("{}\"agents\":7}}\n", &t[..i])).unwrap();
    for args in [
        &["baseline", "diff"][..],
        &["baseline", "list"][..],
        &["baseline", "history", "reviewer"][..],
    ] {
        let o = run(&r, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", out(&o));
        let e = err(&o);
        assert!(
            e.contains(f.file_name().unwrap().to_str().unwrap()) && e.contains("corrupt"),
            "{args:?}: {e}"
        );
    }
}
