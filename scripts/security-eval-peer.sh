#!/usr/bin/env bash
# Optional comparison (not used by the tests): run the Cisco AI Defense skill scanner
# (`cisco-ai-skill-scanner` on PyPI) in static mode with its default policy on every case of
# fixtures/security-eval and print block recall (high+) and warn recall (medium+) per family and
# split, in the same shape as `cargo test --release --test security_eval -- --nocapture`.
#
# The scanner is installed in a throwaway virtualenv under /tmp (never a project dependency).
# Only the skill folder of each case is given to it (the case's `skill_path`), copied under
# /tmp so that folder names equal skill names; repository-level files of the claude/plugin
# layouts (.mcp.json, hooks, settings) are therefore not seen by the peer.
#
# Usage: scripts/security-eval-peer.sh [--keep]     (needs python3 and network access for pip)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$here/fixtures/security-eval"
venv="${PEER_VENV:-/tmp/skillguard-peer-venv}"
work=$(mktemp -d /tmp/skillguard-peer.XXXXXX)
[ "${1:-}" = "--keep" ] || trap 'rm -rf "$work"' EXIT

if [ ! -x "$venv/bin/skill-scanner" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q cisco-ai-skill-scanner
fi
echo "peer: $("$venv/bin/pip" show cisco-ai-skill-scanner | awk '/^Version/{print "cisco-ai-skill-scanner " $2}')" >&2

python3 - "$fixtures" "$work" <<'EOF'
import json, os, shutil, sys
fixtures, work = sys.argv[1], sys.argv[2]
labels = json.load(open(os.path.join(fixtures, "labels.json")))
for key, v in labels.items():
    label, case = key.split("/")
    src = os.path.normpath(os.path.join(fixtures, key, v["skill_path"]))
    shutil.copytree(src, os.path.join(work, label, os.path.basename(src)))
EOF

for label in malicious benign; do
  "$venv/bin/skill-scanner" scan-all "$work/$label" --recursive --format json --compact \
    --output-json "$work/$label.json" >/dev/null 2>"$work/$label.log" || true
done

python3 - "$fixtures" "$work" <<'EOF'
import json, os, sys
fixtures, work = sys.argv[1], sys.argv[2]
labels = json.load(open(os.path.join(fixtures, "labels.json")))
RANK = {"INFO": 0, "LOW": 1, "MEDIUM": 2, "HIGH": 3, "CRITICAL": 4}
sev = {}
for label in ("malicious", "benign"):
    data = json.load(open(os.path.join(work, label + ".json")))
    results = data.get("results", data) if isinstance(data, dict) else data
    for r in results:
        name = os.path.basename(os.path.normpath(r.get("skill_path", "")))
        sev["%s/%s" % (label, name)] = RANK.get(str(r.get("max_severity", "")).upper(), -1)
# map each case to the scanned folder name (the skill folder, not the case folder)
def score(key, v):
    label = key.split("/")[0]
    name = os.path.basename(os.path.normpath(os.path.join(key, v["skill_path"])))
    return sev.get("%s/%s" % (label, name), -1)
FAMILIES = ["http-exfiltration", "dns-exfiltration", "credential-harvesting", "secret-in-network-call",
            "download-execute", "remote-code-execution", "fs-tampering", "privilege-escalation",
            "covert-exfiltration", "crypto-mining", "supply-chain", "encoded-payload", "prompt-injection",
            "agent-config-abuse", "ordinary"]
def pct(n, d):
    return "-" if d == 0 else "%d/%d (%.0f%%)" % (n, d, 100.0 * n / d)
missing = [k for k, v in labels.items() if score(k, v) < 0]
for split in ("tune", "held-out"):
    print("\n### Peer, split `%s`: per family\n" % split)
    print("| family | malicious | block recall (high+) | warn recall (medium+) | benign | benign blocked (high+) | benign warned (medium+) |")
    print("|---|---|---|---|---|---|---|")
    tot = [0] * 6
    for fam in FAMILIES:
        t = [0] * 6
        for k, v in labels.items():
            if v["family"] != fam or v["split"] != split:
                continue
            s = score(k, v)
            i = 0 if k.startswith("malicious/") else 3
            t[i] += 1
            t[i + 1] += s >= 3
            t[i + 2] += s >= 2
        if t[0] + t[3]:
            print("| %s | %d | %s | %s | %d | %s | %s |" % (fam, t[0], pct(t[1], t[0]), pct(t[2], t[0]), t[3], pct(t[4], t[3]), pct(t[5], t[3])))
            tot = [a + b for a, b in zip(tot, t)]
    print("| **total** | %d | %s | %s | %d | %s | %s |" % (tot[0], pct(tot[1], tot[0]), pct(tot[2], tot[0]), tot[3], pct(tot[4], tot[3]), pct(tot[5], tot[3])))
if missing:
    print("\n%d cases had no peer result (counted as not flagged): %s" % (len(missing), " ".join(missing[:10])))
EOF
