#!/usr/bin/env python3
"""Security verdicts of skillguard on the real benign corpora (issue 29's bar: 0 high, <= 2 % warned).

Usage: scripts/corpora-verdicts.py [BINARY] [CORPORA_DIR]
  BINARY       skillguard binary (default target/release/skillguard)
  CORPORA_DIR  default ../shared/corpora

Scans wshobson-agents, alirezarezvani-claude-skills and k-dense-scientific-skills as repositories,
and the skills cisco-evals labels safe (`_expected.json` with "safe"/no findings) one by one; prints
per corpus the number of skills, of skills with a high/critical security finding (blocked) and with
a medium or worse one (warned), then every blocked or warned skill with its rules. Stdlib only.
"""
import json
import os
import subprocess
import sys
from collections import defaultdict

RANK = {"info": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}
BENIGN = ["wshobson-agents", "alirezarezvani-claude-skills", "k-dense-scientific-skills"]


def scan(binary, args):
    out = subprocess.run([binary, "scan", *args, "--format", "json"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"scan {args} failed ({out.returncode}): {out.stderr[:500]}")
    return json.loads(out.stdout)


def verdicts(report, prefix=""):
    skills = {prefix + (s.get("path") or s.get("name") or "?") for s in report.get("skills", [])
              if s.get("kind", "skill") == "skill"}
    worst = {}
    rules = defaultdict(set)
    for f in report.get("findings", []):
        if not f.get("category", "").startswith("security/"):
            continue
        key = prefix + (f.get("skill_path") or f.get("skill") or "(repo)")
        sev = RANK.get(f.get("severity"), 0)
        if sev >= 2:
            rules[key].add(f"{f['rule_id']}({f['severity']})")
        worst[key] = max(worst.get(key, 0), sev)
    return skills, worst, rules


def cisco_safe(root):
    base = os.path.join(root, "cisco-evals")
    for dirpath, _dirs, files in os.walk(base):
        if "_expected.json" in files and "SKILL.md" in files:
            try:
                exp = json.load(open(os.path.join(dirpath, "_expected.json")))
            except (OSError, ValueError):
                continue
            text = json.dumps(exp).lower()
            if '"safe": true' in text or '"is_safe": true' in text or '"expected_safe": true' in text \
                    or '"label": "safe"' in text or '"verdict": "safe"' in text:
                yield dirpath


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/skillguard"
    root = sys.argv[2] if len(sys.argv) > 2 else "../shared/corpora"
    total_skills = total_blocked = total_warned = 0
    lines = []
    for name in BENIGN:
        skills, worst, rules = verdicts(scan(binary, ["--repo", os.path.join(root, name)]), name + "/")
        blocked = sorted(k for k, v in worst.items() if v >= 3)
        warned = sorted(k for k, v in worst.items() if v >= 2)
        print(f"{name}: {len(skills)} skills, {len(blocked)} blocked, {len(warned)} warned")
        total_skills += len(skills)
        total_blocked += len(blocked)
        total_warned += len(warned)
        lines += [f"  {'BLOCK' if worst[k] >= 3 else 'warn '} {k}: {' '.join(sorted(rules[k]))}" for k in warned]
    safe = list(cisco_safe(root))
    nb = nw = 0
    for d in safe:
        _s, worst, rules = verdicts(scan(binary, [d]), "cisco-evals/")
        w = max(worst.values(), default=0)
        nb += w >= 3
        nw += w >= 2
        if w >= 2:
            lines.append(f"  {'BLOCK' if w >= 3 else 'warn '} {os.path.relpath(d, root)}: "
                         + " ".join(sorted(set().union(*rules.values()))))
    print(f"cisco-evals safe: {len(safe)} skills, {nb} blocked, {nw} warned")
    total_skills += len(safe)
    total_blocked += nb
    total_warned += nw
    pct = 100.0 * total_warned / max(total_skills, 1)
    print(f"TOTAL: {total_skills} skills, {total_blocked} blocked, {total_warned} warned ({pct:.1f} %)")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
