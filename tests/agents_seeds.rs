//! The examples of the VS Code custom agent reference and of Waza's agent evaluation guide,
//! each scanned as a repository: every example scans with exactly the rule ids it implies
//! (multiplicity included), and so does each broken variant of it.

use std::path::Path;

use skillguard::discover::Mode;
use skillguard::scan::{ScanOptions, scan};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The sorted rule ids of a scan of `files` as a repository, with their positions for the
/// failure message.
fn scan_files(files: &[(&str, &str)]) -> (Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        write(dir.path(), rel, text);
    }
    let r = scan(Mode::Repo, dir.path(), &ScanOptions::default()).unwrap();
    let mut ids: Vec<String> = r.findings.iter().map(|f| f.rule_id.to_string()).collect();
    ids.sort();
    let shown = r
        .findings
        .iter()
        .map(|f| {
            format!(
                "  {} {}:{}:{} {}",
                f.rule_id,
                f.location.path,
                f.location.line.unwrap_or(0),
                f.location.column.unwrap_or(0),
                f.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    (ids, shown)
}

#[track_caller]
fn expect(files: &[(&str, &str)], want: &[&str]) {
    let (got, shown) = scan_files(files);
    let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want, "findings:\n{shown}");
}

/// An agent in `.github/agents` with this frontmatter (between the `---` lines) and body.
fn agent(front: &str, body: &str) -> String {
    format!("---\n{front}\n---\n{body}\n")
}

const AGENT: &str = ".github/agents/reviewer.agent.md";

// ---- Seed 003: the VS Code custom agent reference -------------------------------------

#[test]
fn file_structure_example_is_clean() {
    let a = agent(
        "name: Reviewer\ndescription: Review changes without editing files\ntools: ['read', 'search']",
        "Review the supplied changes for correctness and missing tests.\nReport actionable findings with file references. Do not edit files.",
    );
    expect(&[(AGENT, &a)], &[]);
}

#[test]
fn local_tools_with_an_mcp_namespace_are_clean() {
    let a = agent(
        "description: Reviews\ntools: ['read', 'search', 'github/*']",
        "Review.",
    );
    expect(&[(AGENT, &a)], &[]);
}

#[test]
fn tools_of_the_wrong_type_are_a_type_error() {
    expect(
        &[(AGENT, &agent("description: Reviews\ntools: 5", "Review."))],
        &["agent-field-invalid"],
    );
    expect(
        &[(
            AGENT,
            &agent("description: Reviews\ntools: ['read', 7]", "Review."),
        )],
        &["agent-field-invalid"],
    );
}

#[test]
fn qualified_tool_names_are_checked() {
    expect(
        &[(
            AGENT,
            &agent(
                "description: Reviews\ntools: ['web/fetch', 'edit/editFiles', 'read/problems', 'vscode/toolSearch']",
                "Review.",
            ),
        )],
        &[],
    );
    let (got, shown) = scan_files(&[(
        AGENT,
        &agent("description: Reviews\ntools: ['web/fecth']", "Review."),
    )]);
    assert_eq!(got, ["agent-tool-unknown"], "{shown}");
    assert!(shown.contains("Did you mean `web/fetch`?"), "{shown}");
}

#[test]
fn model_list_and_model_policy_for_copilot() {
    expect(
        &[(
            AGENT,
            &agent(
                "description: Reviews\ntarget: github-copilot\nmodel: ['gpt-5.2', 'claude-opus-4.5']\nmodel-policy: preferred",
                "Review.",
            ),
        )],
        &[],
    );
    expect(
        &[(
            AGENT,
            &agent(
                "description: Reviews\nmodel-policy: required\nmodel: 3",
                "Review.",
            ),
        )],
        &["agent-field-invalid"],
    );
    expect(
        &[(
            AGENT,
            &agent("description: Reviews\nmodel-policy: sometimes", "Review."),
        )],
        &["agent-field-invalid"],
    );
}

#[test]
fn skills_are_a_copilot_field() {
    let skill = (
        ".github/skills/code-review/SKILL.md",
        "---\nname: code-review\ndescription: Reviews code. Use when asked for a review.\n---\nRead the diff.\n",
    );
    let front = "description: Reviews\ntarget: github-copilot\nskills: ['code-review']";
    expect(&[(AGENT, &agent(front, "Review.")), skill], &[]);
    // Without a target both harnesses read the file: accepted.
    expect(
        &[
            (
                AGENT,
                &agent("description: Reviews\nskills: ['code-review']", "Review."),
            ),
            skill,
        ],
        &[],
    );
    // The names are resolved against the repository's skills, as Claude Code's are.
    expect(
        &[(AGENT, &agent(front, "Review."))],
        &["agent-reference-broken"],
    );
    let (_, shown) = scan_files(&[(AGENT, &agent(front, "Review."))]);
    assert!(
        shown.contains("so GitHub Copilot starts the agent without it unless each user has installed it (`~/.copilot/skills`"),
        "{shown}"
    );
    expect(
        &[(
            AGENT,
            &agent(
                "description: Reviews\ntarget: vscode\nskills: ['code-review']",
                "Review.",
            ),
        )],
        &["agent-field-ignored"],
    );
}

#[test]
fn github_toolsets_and_permissions() {
    expect(
        &[(
            AGENT,
            &agent(
                "description: Reviews\ntarget: github-copilot\ngithub:\n  toolsets: [repos, issues]\n  permissions:\n    contents: read",
                "Review.",
            ),
        )],
        &[],
    );
    expect(
        &[(
            AGENT,
            &agent(
                "description: Reviews\ngithub:\n  toolsets: all\n  perms: {}",
                "Review.",
            ),
        )],
        &["agent-field-invalid", "agent-unknown-key"],
    );
}

#[test]
fn mcp_servers_map_form() {
    let ok = "description: Reviews\ntarget: github-copilot\nmcp-servers:\n  helper:\n    type: local\n    command: node\n    args: ['server.js']\n    tools: ['*']\n    timeout: 5000";
    expect(&[(AGENT, &agent(ok, "Review."))], &[]);
    expect(
        &[(
            AGENT,
            &agent(&ok.replace("github-copilot", "vscode"), "Review."),
        )],
        &["agent-field-ignored"],
    );
    let bad = "description: Reviews\nmcp-servers:\n  helper:\n    type: remote\n    url: 'not a url'\n    tools: 'all'\n    timeout: -5\n    colour: red";
    expect(
        &[(AGENT, &agent(bad, "Review."))],
        &[
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-unknown-key",
        ],
    );
}

#[test]
fn mcp_servers_list_form() {
    let ok = "description: Reviews\nmcp-servers:\n  - name: docs\n    url: 'https://mcp.example.com/mcp'\n    tools: ['search']";
    expect(&[(AGENT, &agent(ok, "Review."))], &[]);
    let bad = "description: Reviews\nmcp-servers:\n  - url: 'not a url'\n    timeout: -5\n    tools: 'all'\n  - 5";
    expect(
        &[(AGENT, &agent(bad, "Review."))],
        &[
            // no `name`, the URL, the timeout, the tools, the entry `5`
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
        ],
    );
}

/// Agent-scoped hooks in frontmatter are always reported as hooks that run
/// (`frontmatter-hooks`); their shape adds nothing when it is valid.
#[test]
fn hooks_events_matchers_timeouts_and_urls() {
    let ok = "description: Reviews\nhooks:\n  PreToolUse:\n    - matcher: 'Edit|Write'\n      hooks:\n        - type: command\n          command: ./scripts/format.sh\n          timeout: 30\n  sessionStart:\n    - type: http\n      url: 'https://hooks.example.com/start'";
    expect(&[(AGENT, &agent(ok, "Review."))], &["frontmatter-hooks"]);
    let bad = "description: Reviews\nhooks:\n  OnSave:\n    - type: command\n      command: ./x.sh\n  PreToolUse:\n    - matcher: '(Edit'\n      hooks:\n        - type: command\n          command: ./scripts/format.sh\n          timeout: -1\n    - type: http\n      url: 'nope'\n    - type: command";
    expect(
        &[(AGENT, &agent(bad, "Review."))],
        &[
            "frontmatter-hooks",
            // the event, the matcher, the timeout, the URL, a command hook without a command
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
        ],
    );
}

#[test]
fn subagents_resolve_by_name() {
    let coordinator = agent(
        "description: Coordinates\ntools: ['agent']\nagents: ['Researcher', 'Implementer']",
        "Delegate.",
    );
    let researcher = agent("name: Researcher\ndescription: Researches", "Research.");
    let implementer = agent("name: Implementer\ndescription: Implements", "Implement.");
    expect(
        &[
            (".github/agents/coordinator.agent.md", &coordinator),
            (".github/agents/researcher.agent.md", &researcher),
            (".github/agents/implementer.agent.md", &implementer),
        ],
        &[],
    );
    expect(
        &[(".github/agents/coordinator.agent.md", &coordinator)],
        &["agent-reference-broken", "agent-reference-broken"],
    );
    expect(
        &[(AGENT, &agent("description: Reviews\nagents: 5", "Review."))],
        &["agent-field-invalid"],
    );
}

/// `agents:` works only with the `agent` tool (VS Code delegates with it); a `tools` list
/// without it makes the list do nothing. Without `tools`, the picker's tools apply: clean.
#[test]
fn agents_need_the_agent_tool() {
    let researcher = agent("name: Researcher\ndescription: Researches", "Research.");
    let with = |tools: &str| {
        agent(
            &format!("description: Coordinates\n{tools}agents: ['Researcher']"),
            "Delegate.",
        )
    };
    let files = |c: &str| {
        vec![
            (".github/agents/coordinator.agent.md", c.to_owned()),
            (".github/agents/researcher.agent.md", researcher.clone()),
        ]
    };
    let run = |c: &str, want: &[&str]| {
        let f = files(c);
        let refs: Vec<(&str, &str)> = f.iter().map(|(a, b)| (*a, b.as_str())).collect();
        expect(&refs, want);
    };
    run(
        &with("tools: ['read', 'search']\n"),
        &["agent-field-ignored"],
    );
    run(&with("tools: ['read', 'agent']\n"), &[]);
    run(&with("tools: ['agent/runSubagent']\n"), &[]);
    run(&with(""), &[]);
}

/// A name no harness knows, in a VS Code / Copilot agent, is most often a user-defined tool
/// set: the message says tool sets are deprecated and not supported in Copilot.
#[test]
fn a_tool_set_is_named_as_deprecated() {
    let a = agent("description: Reviews\ntools: ['myReviewTools']", "Review.");
    let (ids, shown) = scan_files(&[(AGENT, &a)]);
    assert_eq!(ids, ["agent-tool-unknown"], "{shown}");
    assert!(
        shown.contains("tool sets are deprecated and not supported in Copilot"),
        "{shown}"
    );
}

/// The header is optional (VS Code): a file without one lacks only what the cloud agent
/// needs, a low finding, not a medium one.
#[test]
fn no_frontmatter_is_low() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), AGENT, "Review the diff for security issues.\n");
    let r = scan(Mode::Repo, dir.path(), &ScanOptions::default()).unwrap();
    let f: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule_id == "agent-description-missing")
        .collect();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, skillguard::finding::Severity::Low);
    assert!(f[0].message.contains("optional"), "{}", f[0].message);
}

/// Waza's handoff shape `{name, when}` in `.github/agents` names no agent for VS Code.
#[test]
fn waza_shaped_handoffs_in_github_agents_are_invalid() {
    let researcher = agent("name: Researcher\ndescription: Researches", "Research.");
    let a = agent(
        "description: Plans\nhandoffs:\n  - name: Researcher\n    when: the plan needs facts",
        "Plan.",
    );
    let (ids, shown) = scan_files(&[
        (AGENT, &a),
        (".github/agents/researcher.agent.md", &researcher),
    ]);
    assert_eq!(ids, ["agent-field-invalid"], "{shown}");
    assert!(shown.contains("Waza's shape"), "{shown}");
    // VS Code's shape: clean.
    let a = agent(
        "description: Plans\nhandoffs:\n  - label: Research\n    agent: Researcher\n    prompt: Find the facts.",
        "Plan.",
    );
    expect(
        &[
            (AGENT, &a),
            (".github/agents/researcher.agent.md", &researcher),
        ],
        &[],
    );
}

#[test]
fn visibility_fields_are_clean() {
    expect(
        &[(
            AGENT,
            &agent(
                "description: Reviews\nuser-invocable: false\ndisable-model-invocation: false",
                "Review.",
            ),
        )],
        &[],
    );
}

#[test]
fn handoff_example_to_a_built_in_agent() {
    let front = "description: Plans\nhandoffs:\n  - label: Implement Plan\n    agent: agent\n    prompt: Implement the plan outlined above.\n    send: false\n    model: GPT-5.2 (copilot)";
    expect(&[(AGENT, &agent(front, "Plan."))], &[]);
    for builtin in ["ask", "plan", "edit"] {
        expect(
            &[(
                AGENT,
                &agent(
                    &front.replace("agent: agent", &format!("agent: {builtin}")),
                    "Plan.",
                ),
            )],
            &[],
        );
    }
}

#[test]
fn handoff_leaves_are_checked() {
    let front = "description: Plans\nhandoffs:\n  - label: 5\n    agent: agent\n    prompt: 7\n    model: 3\n    colour: red\n  - label: Next\n    prompt: Go on.";
    expect(
        &[(AGENT, &agent(front, "Plan."))],
        &[
            // label, prompt, model, the handoff naming no agent
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-field-invalid",
            "agent-unknown-key",
        ],
    );
}

#[test]
fn local_file_and_tool_references() {
    let body = "Follow the [review checklist](./review-checklist.md).\nUse #file:~/copilot/security-guidelines.md for security reviews.\n\nIn Local, reference a tool with #tool:web/fetch.";
    // Any `.md` in `.github/agents` is an agent: the agent and its checklist sit in `agents/`.
    let a = agent("name: reviewer\ndescription: Reviews", body);
    let at = "agents/reviewer.agent.md";
    expect(
        &[(at, &a), ("agents/review-checklist.md", "# Checklist\n")],
        &["agent-reference-outside-repo"],
    );
    // Without the checklist the link is broken.
    expect(
        &[(at, &a)],
        &["agent-reference-broken", "agent-reference-outside-repo"],
    );
}

#[test]
fn copilot_target_rejects_local_only_fields_tools_and_references() {
    let front = "description: Plans\ntarget: github-copilot\ntools: ['read', 'agent/runSubagent']\nagents: ['x']\nadvancedOptions: {a: 1}\nargument-hint: what\nhandoffs:\n  - label: Go\n    agent: agent\n    prompt: Go.";
    let body = "Use #tool:web/fetch and #file:docs/x.md.";
    expect(
        &[(AGENT, &agent(front, body)), ("docs/x.md", "x\n")],
        &[
            // agent/runSubagent, agents, advancedOptions, argument-hint, handoffs, #tool:, #file:
            "agent-field-ignored",
            "agent-field-ignored",
            "agent-field-ignored",
            "agent-field-ignored",
            "agent-field-ignored",
            "agent-field-ignored",
            "agent-field-ignored",
        ],
    );
}

#[test]
fn a_key_no_format_knows() {
    expect(
        &[(AGENT, &agent("description: Reviews\nfoo: bar", "Review."))],
        &["agent-unknown-key"],
    );
}

// ---- Seed 000: Waza's custom agent evaluation -----------------------------------------

const SECURITY_REVIEWER: &str = "---
name: security-reviewer
description: |
  A specialized agent that reviews code for security vulnerabilities,
  compliance issues, and best practices. Flags suspicious patterns
  and suggests hardening strategies.

model: claude-opus-4.6
tools:
  - codeSearch
  - fileRead
  - fileWrite
  - runCommand

mcp-servers:
  - url: \"sse://internal-tools.example.com\"
    name: \"compliance-checker\"

handoffs:
  - name: legal-review
    when: \"sensitive compliance issues found\"
  - name: performance-analyst
    when: \"security patch impacts performance\"

agents:
  - name: code-analyzer
    scope: \"async dependency analysis\"
---

# Security Review Agent

You are an expert security reviewer specializing in code analysis, vulnerability detection, and compliance validation.

## Your role

Analyze code submissions for:
- Common security vulnerabilities (injection, XSS, CSRF, etc.)
- Cryptographic issues
- Data handling compliance (PII, sensitive data)
- Third-party dependency risks
- Infrastructure-as-code misconfigurations

## Tool usage guidelines

- Use `codeSearch` to identify similar patterns across the codebase
- Use `fileRead` to examine context and dependencies
- Use `runCommand` to check for known vulnerability patterns (SAST integration)
- Use `fileWrite` only to create reports, never modify source directly

## Response format

Provide:
1. **Risk Level:** Critical / High / Medium / Low
2. **Issue Description:** What was found and why it matters
3. **Affected Code:** File path and line numbers
4. **Remediation:** Concrete fix or best practice
5. **References:** CWE/CVE links if applicable
";

const WAZA_AGENT: &str = "examples/custom-agent/security-reviewer.agent.md";

/// Waza's example agent names three agents that its example folder does not hold: those
/// references are broken; everything else is valid (Waza's `{name, when}` handoffs and
/// `{name, scope}` subagents, the list form of `mcp-servers`).
#[test]
fn waza_security_reviewer_example() {
    expect(
        &[(WAZA_AGENT, SECURITY_REVIEWER)],
        &[
            "agent-reference-broken",
            "agent-reference-broken",
            "agent-reference-broken",
        ],
    );
    let other = |n: &str| agent(&format!("name: {n}\ndescription: Reviews {n}"), "Review.");
    let (legal, perf, analyzer) = (
        other("legal-review"),
        other("performance-analyst"),
        other("code-analyzer"),
    );
    expect(
        &[
            (WAZA_AGENT, SECURITY_REVIEWER),
            ("examples/custom-agent/legal-review.agent.md", &legal),
            ("examples/custom-agent/performance-analyst.agent.md", &perf),
            ("examples/custom-agent/code-analyzer.agent.md", &analyzer),
        ],
        &[],
    );
}

#[test]
fn waza_name_is_required_and_matches_the_file_name() {
    let mismatch = SECURITY_REVIEWER.replace("name: security-reviewer", "name: reviewer");
    let missing = SECURITY_REVIEWER.replace("name: security-reviewer\n", "");
    let others = [
        (
            "examples/custom-agent/legal-review.agent.md",
            "---\nname: legal-review\ndescription: d\n---\nx\n",
        ),
        (
            "examples/custom-agent/performance-analyst.agent.md",
            "---\nname: performance-analyst\ndescription: d\n---\nx\n",
        ),
        (
            "examples/custom-agent/code-analyzer.agent.md",
            "---\nname: code-analyzer\ndescription: d\n---\nx\n",
        ),
    ];
    let mut files = vec![(WAZA_AGENT, mismatch.as_str())];
    files.extend(others);
    expect(&files, &["agent-name-mismatch"]);
    files[0].1 = missing.as_str();
    expect(&files, &["agent-name-missing"]);
    // In `.github/agents`, `name` is VS Code's display name: no Waza rule.
    expect(
        &[(
            ".github/agents/security-reviewer.agent.md",
            "---\nname: Security Reviewer\ndescription: Reviews\n---\nx\n",
        )],
        &[],
    );
}

#[test]
fn waza_prefers_the_skill_beside_an_agent() {
    expect(
        &[
            (
                "skills/review/SKILL.md",
                "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\nReview.\n",
            ),
            (
                "skills/review/other.agent.md",
                "---\nname: mismatched\ndescription: Reviews\n---\nx\n",
            ),
        ],
        &["agent-ignored-beside-skill"],
    );
}

#[test]
fn a_three_thousand_word_agent_is_over_the_token_budget() {
    let body = "Review each change for correctness, tests and naming. ".repeat(375);
    assert!(body.split_whitespace().count() >= 3000);
    expect(
        &[(
            "agents/reviewer.agent.md",
            &agent("name: reviewer\ndescription: Reviews", &body),
        )],
        &["agent-token-budget"],
    );
}

/// Claude Code's documented `argument-hint: [message]` is a YAML list that Claude Code shows
/// as text: not a type error.
#[test]
fn claude_command_argument_hint_in_brackets() {
    expect(
        &[(
            ".claude/commands/pr.md",
            "---\ndescription: Create a pull request.\nargument-hint: [target-branch]\n---\nOpen a PR.\n",
        )],
        &[],
    );
}

/// Waza picks agents by `description`: with `description-quality` on, agents are rated too.
#[test]
fn agent_description_quality_when_enabled() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        AGENT,
        &agent("description: Reviews code", "Review."),
    );
    let opts = ScanOptions {
        rules: skillguard::catalog::Enabled::only(["description-quality"]),
        ..ScanOptions::default()
    };
    let r = scan(Mode::Repo, dir.path(), &opts).unwrap();
    let ids: Vec<&str> = r.findings.iter().map(|f| f.rule_id).collect();
    assert_eq!(ids, ["description-quality"]);
    assert!(
        r.findings[0].message.contains("pick an agent"),
        "{}",
        r.findings[0].message
    );
}

/// A bare word as a link target is a placeholder of an output template, not a file.
#[test]
fn template_placeholders_are_not_links() {
    expect(
        &[(
            AGENT,
            &agent(
                "description: Finds references",
                "For each reference write:\n\n**[N]. [Title]**\n![preview](thumbnail_url)\n",
            ),
        )],
        &[],
    );
}
