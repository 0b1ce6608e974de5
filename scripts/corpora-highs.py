#!/usr/bin/env python3
"""Every high and critical finding skillguard gives on the real corpora, with its judgement.

Usage: scripts/corpora-highs.py [BINARY] [CORPORA_DIR] [--check]
  BINARY       skillguard binary (default target/release/skillguard)
  CORPORA_DIR  default ../shared/corpora

Scans each repository under CORPORA_DIR (`scan --repo`) and prints a Markdown table: corpus,
rule, severity, file:line, the line (shortened) and the judgement. Security findings are judged
by the rules in JUDGED below (a path prefix and, optionally, a rule, each with a verdict and a
reason); a security high with no matching judgement is printed as UNJUDGED and, with --check,
makes the script exit 1, so a new high cannot slip into the table unread. Compliance and loader
highs (facts about loaders, not security verdicts) are counted and judged per corpus and rule
(JUDGED_RULES); an unjudged pair fails --check too.
Stdlib only.
"""
import json
import os
import subprocess
import sys
from collections import Counter

CORPORA = [
    "wshobson-agents",
    "alirezarezvani-claude-skills",
    "k-dense-scientific-skills",
    "davila7-claude-code-templates",
    "sickn33-antigravity-skills",
    "cisco-evals",
]

# (corpus, path prefix, rule or None, verdict, reason). First match wins.
JUDGED = [
    ("cisco-evals", "skills/", None, "true",
     "a labelled malicious example of the cisco-ai-defense evaluation set"),
    ("cisco-evals", "test_skills/malicious/", None, "true",
     "a labelled malicious example of the cisco-ai-defense evaluation set"),
] + [
    (corpus, prefix + skill + "/", None, "true, intended",
     "an offensive-security skill: the command is the skill's stated purpose (" + why + "); "
     "whether such skills belong in the repository is the reviewer's call")
    for corpus, prefix in [
        ("davila7-claude-code-templates", "cli-tool/components/skills/security/"),
        ("sickn33-antigravity-skills", "skills/"),
    ]
    for skill, why in [
        ("linux-privilege-escalation", "Linux privilege escalation: reverse shells, SUID, sudo abuse"),
        ("privilege-escalation-methods", "privilege escalation techniques"),
        ("windows-privilege-escalation", "Windows privilege escalation: service abuse, potatoes, nc"),
        ("wordpress-penetration-testing", "WordPress exploitation: a PHP reverse shell"),
        ("xss-html-injection", "an XSS payload list"),
        ("cloud-penetration-testing", "credential hunting on a compromised host"),
        ("ssh-penetration-testing", "SSH key hunting on a compromised host"),
        ("file-path-traversal", "the files a traversal exploit reads"),
    ]
]

# Compliance and loader highs, judged per (corpus, rule): each was checked on a sample of its
# findings; every finding of the rule there has the same cause.
JUDGED_RULES = {
    ("alirezarezvani-claude-skills", "frontmatter-missing"):
        ("true", "the SKILL.md is a symlink flattened to a file holding its target's path (a "
                 "checkout without symlink support): it has no frontmatter, strict loaders drop it"),
    ("cisco-evals", "frontmatter-missing"):
        ("true", "evaluation skills written without frontmatter: strict loaders drop them"),
    ("davila7-claude-code-templates", "name-directory-mismatch"):
        ("true", "`name` differs from the folder (`autogpt-agents` in `agents-autogpt`): "
                 "MAF and VS Code drop the skill"),
    ("davila7-claude-code-templates", "name-invalid-chars"):
        ("true", "display names as `name` (`Claude Code Guide`): skills-ref drops the skill"),
}


def judge(corpus, path, rule):
    for c, prefix, r, verdict, why in JUDGED:
        if c == corpus and path.startswith(prefix) and (r is None or r == rule):
            return verdict, why
    return "UNJUDGED", ""


def line_of(root, corpus, path, line):
    try:
        with open(os.path.join(root, corpus, path), errors="replace") as fh:
            for i, text in enumerate(fh, 1):
                if i == line:
                    return text.strip()
    except OSError:
        pass
    return ""


def cell(s, n=90):
    s = s.replace("|", "\\|").replace("`", "'")
    return s if len(s) <= n else s[: n - 1] + "…"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    check = "--check" in sys.argv
    binary = args[0] if args else "target/release/skillguard"
    root = args[1] if len(args) > 1 else "../shared/corpora"
    rows, other = [], Counter()
    for corpus in CORPORA:
        out = subprocess.run([binary, "scan", "--repo", os.path.join(root, corpus), "--format", "json"],
                             capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"{corpus}: scan failed ({out.returncode}): {out.stderr[:300]}")
        for f in json.loads(out.stdout).get("findings", []):
            if f["severity"] not in ("high", "critical"):
                continue
            loc = f.get("location", {})
            if not f.get("category", "").startswith("security/"):
                other[(corpus, f["rule_id"], f["severity"])] += 1
                continue
            verdict, why = judge(corpus, loc.get("path", ""), f["rule_id"])
            rows.append((corpus, f["rule_id"], f["severity"], loc.get("path", ""), loc.get("line") or 0,
                         line_of(root, corpus, loc.get("path", ""), loc.get("line") or 0), verdict, why))
    rows.sort()
    print("| corpus | rule | severity | file:line | line | judgement |")
    print("|---|---|---|---|---|---|")
    for corpus, rule, sev, path, line, text, verdict, _why in rows:
        print(f"| {corpus} | `{rule}` | {sev} | {cell(path, 70)}:{line} | `{cell(text)}` | {verdict} |")
    print()
    print("| corpus | compliance or loader rule | severity | count | judgement |")
    print("|---|---|---|---:|---|")
    unjudged_rules = 0
    for (corpus, rule, sev), n in sorted(other.items()):
        verdict, why = JUDGED_RULES.get((corpus, rule), ("UNJUDGED", ""))
        unjudged_rules += verdict == "UNJUDGED"
        print(f"| {corpus} | `{rule}` | {sev} | {n} | {verdict}: {why} |")
    verdicts = Counter(r[6] for r in rows)
    print()
    print("Security highs and criticals: " + ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items())))
    if check and (verdicts.get("UNJUDGED") or verdicts.get("false") or unjudged_rules):
        sys.exit(1)


if __name__ == "__main__":
    main()
