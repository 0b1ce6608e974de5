#!/usr/bin/env python3
"""Deterministic generator of the labelled security evaluation set (stdlib only).

Writes fixtures/security-eval/{malicious,benign}/<case>/ and fixtures/security-eval/labels.json.
The 71 hand-written cases that predate the generator (EXISTING below) are kept as they are
and labelled split `tune`; every other case folder is deleted and rewritten, so running the
script twice produces the same bytes.

Case content lives in scripts/security_eval/: shells.py (ordinary skill shells the attacks
hide in), one module per attack family (malicious cases and benign look-alikes) and
ordinary.py (plain benign skills). See common.py for the case format.

Usage: python3 scripts/gen-security-eval.py [--out fixtures/security-eval]
"""

import argparse
import hashlib
import json
import os
import shutil
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "security_eval"))

import shells  # noqa: E402

FAMILY_MODULES = [
    ("http-exfiltration", "fam_http"),
    ("dns-exfiltration", "fam_dns"),
    ("credential-harvesting", "fam_cred"),
    ("secret-in-network-call", "fam_secretnet"),
    ("download-execute", "fam_dlexec"),
    ("remote-code-execution", "fam_rce"),
    ("fs-tampering", "fam_fs"),
    ("privilege-escalation", "fam_privesc"),
    ("covert-exfiltration", "fam_covert"),
    ("crypto-mining", "fam_mining"),
    ("supply-chain", "fam_supply"),
    ("encoded-payload", "fam_encoded"),
    ("prompt-injection", "fam_inject"),
    ("agent-config-abuse", "fam_agentcfg"),
]

SEED = "skillguard-security-eval-v1"
HELD_OUT_SHARE = 0.30
LAYOUTS = ("agent-skills", "claude", "openclaw", "plugin")
# Cases per (family, label) forced into each non-default layout (at least; forced ones count).
LAYOUT_QUOTA = {"malicious": 3, "benign": 2}

# The hand-written cases that predate the generator: (family, surface). All agent-skills, tune.
EXISTING = {
    "malicious/api-usage-auditor": ("credential-harvesting", "prose"),
    "malicious/bulk-file-renamer": ("prompt-injection", "prose"),
    "malicious/chrome-bookmark-organizer": ("credential-harvesting", "script-py"),
    "malicious/code-review-buddy": ("agent-config-abuse", "frontmatter"),
    "malicious/creative-story-coach": ("prompt-injection", "prose"),
    "malicious/csv-column-mapper": ("prompt-injection", "prose"),
    "malicious/daily-standup-summary": ("download-execute", "prose"),
    "malicious/dependency-license-check": ("http-exfiltration", ["prose", "frontmatter"]),
    "malicious/disk-cleanup-scheduler": ("fs-tampering", "fenced-code"),
    "malicious/emoji-reaction-picker": ("prompt-injection", "prose"),
    "malicious/excel-formula-helper": ("encoded-payload", "script-py"),
    "malicious/git-commit-polisher": ("credential-harvesting", "script-py"),
    "malicious/http-api-tester": ("supply-chain", "fenced-code"),
    "malicious/image-resizer": ("download-execute", "script-py"),
    "malicious/invoice-pdf-generator": ("prompt-injection", "prose"),
    "malicious/log-tail-assistant": ("remote-code-execution", "script-py"),
    "malicious/mac-battery-saver": ("fs-tampering", "script-sh"),
    "malicious/markdown-table-formatter": ("prompt-injection", "prose"),
    "malicious/meeting-notes-writer": ("prompt-injection", "prose"),
    "malicious/metamask-gas-optimizer": ("credential-harvesting", "script-js"),
    "malicious/network-latency-probe": ("http-exfiltration", "script-sh"),
    "malicious/notion-sync-helper": ("download-execute", "fenced-code"),
    "malicious/openapi-client-gen": ("http-exfiltration", "script-js"),
    "malicious/pdf-text-extractor": ("encoded-payload", "script-py"),
    "malicious/polymarket-odds-assistant": ("download-execute", "prose"),
    "malicious/prettier-autoformat": ("fs-tampering", "script-js"),
    "malicious/project-env-doctor": ("credential-harvesting", "script-sh"),
    "malicious/react-component-generator": ("encoded-payload", "script-js"),
    "malicious/resumen-de-correos": ("prompt-injection", "prose"),
    "malicious/server-health-check": ("remote-code-execution", "script-sh"),
    "malicious/solana-wallet-tracker": ("download-execute", "fenced-code"),
    "malicious/sql-query-explainer": ("prompt-injection", "prose"),
    "malicious/ssh-hardening-guide": ("fs-tampering", "script-sh"),
    "malicious/teams-meeting-exporter": ("download-execute", "fenced-code"),
    "malicious/terminal-theme-setup": ("fs-tampering", "fenced-code"),
    "malicious/windows-update-checker": ("remote-code-execution", "script-ps1"),
    "malicious/youtube-summarize-pro": ("encoded-payload", "fenced-code"),
    "benign/aws-cost-report": ("credential-harvesting", "script-py"),
    "benign/build-artifact-cleaner": ("fs-tampering", "script-sh"),
    "benign/claude-hooks-formatter": ("agent-config-abuse", "fenced-code"),
    "benign/crypto-portfolio-tracker": ("crypto-mining", "prose"),
    "benign/django-settings-env": ("credential-harvesting", "reference"),
    "benign/dockerfile-builder": ("download-execute", "reference"),
    "benign/env-var-checker": ("credential-harvesting", "script-py"),
    "benign/ffmpeg-video-tools": ("privilege-escalation", "fenced-code"),
    "benign/git-hooks-setup": ("fs-tampering", "reference"),
    "benign/github-pr-summarizer": ("secret-in-network-call", "fenced-code"),
    "benign/gitmoji-changelog": ("prompt-injection", "prose"),
    "benign/homebrew-bootstrap": ("download-execute", "fenced-code"),
    "benign/html-report-builder": ("encoded-payload", "reference"),
    "benign/jupyter-notebook-helper": ("supply-chain", "reference"),
    "benign/k8s-deploy-helper": ("credential-harvesting", "fenced-code"),
    "benign/malware-analysis-notes": ("remote-code-execution", "prose"),
    "benign/nextjs-scaffold": ("supply-chain", "reference"),
    "benign/nightly-backup-cron": ("fs-tampering", "fenced-code"),
    "benign/onepassword-secrets": ("credential-harvesting", "fenced-code"),
    "benign/openai-batch-runner": ("secret-in-network-call", "script-py"),
    "benign/pandas-data-cleaner": ("supply-chain", "script-py"),
    "benign/postgres-migrations": ("fs-tampering", "reference"),
    "benign/prompt-engineering-guide": ("prompt-injection", "prose"),
    "benign/prompt-injection-awareness": ("prompt-injection", "prose"),
    "benign/pytest-runner": ("remote-code-execution", "script-py"),
    "benign/rust-toolchain-setup": ("download-execute", "fenced-code"),
    "benign/secure-code-review": ("remote-code-execution", "prose"),
    "benign/sentry-error-triage": ("http-exfiltration", "script-py"),
    "benign/slack-release-notifier": ("secret-in-network-call", "script-sh"),
    "benign/ssh-key-setup": ("fs-tampering", "fenced-code"),
    "benign/stripe-api-reference": ("secret-in-network-call", "reference"),
    "benign/ui-translation-helper": ("prompt-injection", "prose"),
    "benign/webhook-receiver-test": ("http-exfiltration", "prose"),
    "benign/windows-dev-setup": ("download-execute", "script-ps1"),
}

# Hosts an attacker might register (invented names) and documentation-range addresses.
HOSTS = [
    "cdn-skillsync.net", "telemetry.devkit-metrics.io", "api.promptvault.app", "sync.agentops-cloud.com",
    "collect.buildstats.dev", "update.clawtools.net", "logs.quickfixr.io", "ingest.usage-beacon.com",
    "files.shareblob.xyz", "static.pkgmirror.top", "api.skillhub-analytics.com", "relay.termassist.dev",
    "dl.fastcdn-assets.net", "hooks.agentbridge.io", "upd.sysopt-tools.com", "metrics.codepilot-plus.dev",
    "edge.nightowl-sync.net", "app.lintcloud.dev", "status.vscode-ext-cdn.com", "init.shellboost.sh",
    "beacon.docsync-pro.com", "api.quickdeploy-tools.io", "raw.gitcdn-mirror.org", "push.cloudnotes-sync.app",
]
IPS = [
    "203.0.113.47", "198.51.100.23", "192.0.2.146", "203.0.113.9", "198.51.100.201", "192.0.2.77",
    "203.0.113.188", "198.51.100.66", "192.0.2.14", "203.0.113.121",
]
OWNERS = ["devtoolsmith", "kaito-lab", "mjensen", "nova-automation", "priya-dev", "quietfox", "rbuilds",
          "solsticeai", "tanuki-works", "wrenhq"]
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def h(*parts):
    return hashlib.sha256("\x1f".join((SEED,) + parts).encode()).digest()


def pick(seq, *parts):
    return seq[int.from_bytes(h(*parts)[:8], "big") % len(seq)]


def stream(alphabet, n, *parts):
    out, i = [], 0
    while len(out) < n:
        for b in h(*parts, str(i)):
            out.append(alphabet[b % len(alphabet)])
        i += 1
    return "".join(out[:n])


def context(cid):
    hosts = sorted(HOSTS, key=lambda x: h(cid, "host", x))
    return {
        "H": hosts[0],
        "H2": hosts[1],
        "IP": pick(IPS, cid, "ip"),
        "OWNER": pick(OWNERS, cid, "owner"),
        "XMR": "4" + stream("0123456789AB", 1, cid, "xmr0") + stream(B58, 93, cid, "xmr"),
        "ETH": "0x" + stream("0123456789abcdef", 40, cid, "eth"),
        "BTC": "bc1q" + stream(BECH, 38, cid, "btc"),
        "HOOK": "%s-%s-4%s-a%s-%s" % (
            stream("0123456789abcdef", 8, cid, "u1"), stream("0123456789abcdef", 4, cid, "u2"),
            stream("0123456789abcdef", 3, cid, "u3"), stream("0123456789abcdef", 3, cid, "u4"),
            stream("0123456789abcdef", 12, cid, "u5")),
    }


def subst(text, ctx):
    for k in sorted(ctx, key=len, reverse=True):
        text = text.replace("@%s@" % k, ctx[k])
    return text


def yaml_scalar(s):
    if any(c in s for c in ":#'\"{}[]&*!|>%@`") or s != s.strip():
        return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')
    return s


def title_of(name):
    return " ".join(w.upper() if w in ("csv", "pdf", "api", "sql", "pr", "ci", "k8s", "ssl", "tls", "json", "mcp", "dns", "aws", "gcp", "npm", "pypi")
                    else w.capitalize() for w in name.split("-"))


def render_skill_md(shell, name, case, ctx, salt):
    desc = case.get("desc") or shell["desc"]
    fm = ["---", "name: %s" % name, "description: %s" % yaml_scalar(subst(desc, ctx))]
    extra = subst(case.get("fm", ""), ctx).strip("\n")
    if shell.get("tools") and "allowed-tools:" not in extra:
        fm.append("allowed-tools: %s" % shell["tools"])
    if extra:
        fm.extend(extra.split("\n"))
    fm.append("---")
    title = shell["title"] if name == shell["names"][0] else title_of(name)
    md = subst(case.get("md", ""), ctx).strip("\n")
    at = case.get("at")
    if md and not at:
        at = pick(("top", "end") if md.startswith("#") else ("top", "mid", "end"), salt, "at")
    steps = shell["steps"]
    out = fm + ["", "# " + title, "", shell["intro"], ""]
    if md and at == "top":
        out += [md, ""]
    out += [shell["head"], ""]
    half = (len(steps) + 1) // 2
    for i, s in enumerate(steps, 1):
        out.append("%d. %s" % (i, s))
        if md and at == "mid" and i == half:
            out += ["", md, ""]
    out.append("")
    if md and at == "end":
        out += [md, ""]
    if shell["notes"]:
        out += ["## Notes", ""] + ["- " + n for n in shell["notes"]] + [""]
    text = "\n".join(out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.rstrip("\n") + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def load_cases():
    """[(family, label, index, case-or-callable)] in a fixed order."""
    out = []
    for fam, mod in FAMILY_MODULES + [("ordinary", "ordinary")]:
        m = __import__(mod)
        for label, lst in (("malicious", getattr(m, "MALICIOUS", [])), ("benign", getattr(m, "BENIGN", []))):
            for i, c in enumerate(lst):
                out.append((fam, label, i, c))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "fixtures", "security-eval"))
    args = ap.parse_args()
    root = args.out

    shell_by_key = {s["key"]: s for s in shells.SHELLS}
    used_names = {"malicious": set(), "benign": set()}
    for k in EXISTING:
        lab, n = k.split("/")
        used_names[lab].add(n)
    shell_uses = {}
    rotation = {"malicious": 0, "benign": 0}

    built = []
    for fam, label, i, c in load_cases():
        cid = "%s/%s/%d" % (fam, label, i)
        ctx = context(cid)
        case = c(ctx) if callable(c) else dict(c)
        sh = case.get("shell")
        if isinstance(sh, dict):
            shell = sh
        elif isinstance(sh, str):
            shell = shell_by_key[sh]
        else:
            # spread shells evenly: step through the list with a stride co-prime to its length
            n = len(shells.SHELLS)
            shell = shells.SHELLS[(rotation[label] * 17 + (0 if label == "malicious" else 5)) % n]
            rotation[label] += 1
        name = case.get("name")
        if not name:
            k = shell_uses.get((label, shell["key"]), 0)
            cands = shell["names"] + ["%s-%d" % (shell["names"][0], j) for j in range(2, 50)]
            for cand in cands[k:]:
                k += 1
                if cand not in used_names[label]:
                    name = cand
                    break
            shell_uses[(label, shell["key"])] = k
        assert name not in used_names[label], "duplicate case name %s/%s" % (label, name)
        used_names[label].add(name)
        ctx["NAME"] = name
        ctx["TITLE"] = title_of(name)
        built.append(dict(fam=fam, label=label, cid=cid, case=case, shell=shell, name=name, ctx=ctx))

    # layouts: forced ones first, then fill each (family, label) quota by hash order
    groups = {}
    for b in built:
        groups.setdefault((b["fam"], b["label"]), []).append(b)
    for (fam, label), bs in sorted(groups.items()):
        for b in bs:
            b["layout"] = b["case"].get("layout")
        quota = LAYOUT_QUOTA[label] if fam != "ordinary" else 3
        free = sorted((b for b in bs if not b["layout"]), key=lambda b: h(b["cid"], "layout"))
        for lay in LAYOUTS[1:]:
            have = sum(1 for b in bs if b["layout"] == lay)
            while have < quota and free:
                free.pop(0)["layout"] = lay
                have += 1
        for b in free:
            b["layout"] = "agent-skills"

    # split: 30 % of each (family, label) stratum held out, drawn from the generated cases
    strata = {}
    for k, (fam, _s) in EXISTING.items():
        strata.setdefault((fam, k.split("/")[0]), []).append(None)
    for b in built:
        strata.setdefault((b["fam"], b["label"]), []).append(b)
    for (fam, label), members in sorted(strata.items()):
        new = sorted((b for b in members if b), key=lambda b: h("split", b["label"], b["name"]))
        n_hold = min(len(new), int(round(HELD_OUT_SHARE * len(members))))
        for j, b in enumerate(new):
            b["split"] = "held-out" if j < n_hold else "tune"

    # wipe generated folders (never the hand-written ones), then write
    for label in ("malicious", "benign"):
        d = os.path.join(root, label)
        os.makedirs(d, exist_ok=True)
        for e in sorted(os.listdir(d)):
            if "%s/%s" % (label, e) not in EXISTING and os.path.isdir(os.path.join(d, e)):
                shutil.rmtree(os.path.join(d, e))

    with open(os.path.join(root, "labels.json"), encoding="utf-8") as f:
        old = json.load(f)
    labels = {}
    for k, (fam, surf) in EXISTING.items():
        v = {kk: vv for kk, vv in old[k].items() if kk in ("technique", "expect_min_severity")}
        v.update(family=fam, surface=surf, layout="agent-skills", skill_path=".", split="tune")
        labels[k] = v

    for b in built:
        case, shell, name, ctx, label = b["case"], b["shell"], b["name"], b["ctx"], b["label"]
        case_dir = os.path.join(root, label, name)
        lay = b["layout"]
        if lay == "agent-skills":
            rel, root_dir = ".", case_dir
        elif lay == "claude":
            rel, root_dir = ".claude/skills/" + name, case_dir
        elif lay == "openclaw":
            rel, root_dir = "skills/%s/%s" % (ctx["OWNER"], name), case_dir
        else:
            plugin = pick(("toolkit", "devtools", "productivity", "assistants", "workflow"), b["cid"], "plugin")
            plugin = "%s-%s" % (ctx["OWNER"], plugin)
            rel, root_dir = "plugins/%s/skills/%s" % (plugin, name), os.path.join(case_dir, "plugins", plugin)
            write(os.path.join(root_dir, ".claude-plugin", "plugin.json"), json.dumps({
                "name": plugin, "version": "1.%d.0" % (h(b["cid"], "v")[0] % 9),
                "description": "Skills by %s" % ctx["OWNER"], "author": {"name": ctx["OWNER"]}}, indent=2) + "\n")
            write(os.path.join(case_dir, ".claude-plugin", "marketplace.json"), json.dumps({
                "name": "%s-marketplace" % ctx["OWNER"], "owner": {"name": ctx["OWNER"]},
                "plugins": [{"name": plugin, "source": "./plugins/%s" % plugin}]}, indent=2) + "\n")
        skill_dir = os.path.normpath(os.path.join(case_dir, rel))
        if lay == "openclaw":
            write(os.path.join(skill_dir, "_meta.json"), json.dumps({
                "owner": ctx["OWNER"], "slug": name, "displayName": title_of(name),
                "latest": {"version": "1.0.%d" % (h(b["cid"], "v")[1] % 12),
                           "publishedAt": 1767225600000 + (int.from_bytes(h(b["cid"], "t")[:3], "big") * 1000),
                           "commit": "https://github.com/openclaw/skills/commit/" + stream("0123456789abcdef", 40, b["cid"], "c")},
                "history": []}, indent=2) + "\n")
        if lay == "claude":
            write(os.path.join(case_dir, "README.md"),
                  "# %s\n\nProject repository. Agent skills for this project live in `.claude/skills/`.\n" % title_of(name))
        write(os.path.join(skill_dir, "SKILL.md"), render_skill_md(shell, name, case, ctx, b["cid"]))
        files = dict(case.get("files") or {})
        if shell.get("script") and shell["script"][0] not in files:
            files[shell["script"][0]] = shell["script"][1]
        for p, t in sorted(files.items()):
            write(os.path.join(skill_dir, p), subst(t, ctx))
        for p, t in sorted((case.get("root") or {}).items()):
            write(os.path.join(root_dir, p), subst(t, ctx))
        v = dict(technique=subst(case["t"], ctx), family=b["fam"], surface=case["s"], layout=lay,
                 skill_path=rel, split=b["split"])
        if label == "malicious":
            assert case["sev"] in ("high", "medium"), b["cid"]
            v["expect_min_severity"] = case["sev"]
        labels["%s/%s" % (label, name)] = v

    write(os.path.join(root, "labels.json"), json.dumps(labels, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    counts = {}
    for k, v in labels.items():
        key = (v["family"], k.split("/")[0], v["split"])
        counts[key] = counts.get(key, 0) + 1
    tot = {}
    for (fam, lab, sp), n in counts.items():
        tot[(lab, sp)] = tot.get((lab, sp), 0) + n
    print("wrote %d cases: %s" % (len(labels), ", ".join("%s/%s=%d" % (l, s, n) for (l, s), n in sorted(tot.items()))))


if __name__ == "__main__":
    main()
