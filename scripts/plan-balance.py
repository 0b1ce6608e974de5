#!/usr/bin/env python3
"""Shard balance of `skillguard plan` against `--shard K/N` (docs/ci.md, "Balanced shards").

    scripts/plan-balance.py BIN WORKSPACE N... [--time] [--weights REPORT.json]
    scripts/plan-balance.py --gen-dominant OUT_DIR

For each N, makes a plan (`BIN plan WORKSPACE --shards N`) and prints the slowest shard's
cost divided by the mean shard cost, for the plan and for today's `--shard K/N` (the
SHA-256 of each repository's name, modulo N) with the same per-repository costs (bytes on
disk, as the plan weighs them), and how many shards each leaves empty. With --time, also
runs every shard of both (`scan-workspace ... --format json -o /dev/null` is avoided: the
report goes to a temporary file) and prints the wall time of the slowest shard and the mean.
With --weights, the plan weighs repositories by that report (`plan --weights`); the hash
shards' costs are then the same report costs.

--gen-dominant writes a workspace of ten repositories, one of which holds 43 % of the skills
(400 of 940): the shape that hash sharding cannot balance. Deterministic; Python 3 standard
library only.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time


def gen_dominant(out):
    for r in range(10):
        count = 400 if r == 0 else 60
        for s in range(count):
            d = os.path.join(out, f"repo-{r:02}", "skills", f"skill-{s:03}")
            os.makedirs(d, exist_ok=True)
            body = "".join(f"Step {i} of skill {s} in repository {r}.\n" for i in range(40))
            with open(os.path.join(d, "SKILL.md"), "w") as f:
                f.write(
                    f"---\nname: skill-{s:03}\ndescription: Skill {s} of repository {r}.\n---\n\n{body}"
                )


def hash_shard(name, n):
    return int(hashlib.sha256(name.encode()).hexdigest()[:16], 16) % n


def ratio(costs):
    total = sum(costs)
    return max(costs) * len(costs) / total if total else 1.0


def scan_times(binary, ws, n, plan):
    """Wall time of each shard of a plan and of --shard K/N."""
    out = {"plan": [], "hash": []}
    with tempfile.TemporaryDirectory() as t:
        report = os.path.join(t, "r.json")
        for k in range(1, n + 1):
            for kind, args in (
                ("plan", ["--plan", plan, "--shard", str(k)]),
                ("hash", ["--shard", f"{k}/{n}"]),
            ):
                start = time.monotonic()
                subprocess.run(
                    [binary, "scan-workspace", ws, *args, "--format", "json", "-q", "-o", report],
                    check=False,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                out[kind].append(time.monotonic() - start)
    return out


def main(argv):
    if len(argv) == 3 and argv[1] == "--gen-dominant":
        gen_dominant(argv[2])
        return 0
    timing = "--time" in argv
    weights = []
    if "--weights" in argv:
        i = argv.index("--weights")
        weights = ["--weights", argv[i + 1]]
        argv = argv[:i] + argv[i + 2:]
    args = [a for a in argv[1:] if a != "--time"]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, ws, ns = args[0], args[1], [int(n) for n in args[2:]]
    print("| N | plan: slowest ÷ mean | plan: empty shards | --shard K/N: slowest ÷ mean | --shard K/N: empty shards |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as t:
        for n in ns:
            path = os.path.join(t, f"plan-{n}.json")
            subprocess.run([binary, "plan", ws, "--shards", str(n), "-o", path, *weights], check=True,
                           stderr=subprocess.DEVNULL)
            plan = json.load(open(path))
            planned = [s["cost"] for s in plan["plan"]]
            by_hash = [0] * n
            counts = [0] * n
            for s in plan["plan"]:
                for u in s["units"]:
                    k = hash_shard(u["repository"], n)
                    by_hash[k] += u["cost"]
                    counts[k] += 1
            empty_plan = sum(1 for s in plan["plan"] if not s["units"])
            empty_hash = sum(1 for c in counts if c == 0)
            print(f"| {n} | {ratio(planned):.2f} | {empty_plan} | {ratio(by_hash):.2f} | {empty_hash} |")
            if timing:
                times = scan_times(binary, ws, n, path)
                for kind in ("plan", "hash"):
                    ts = times[kind]
                    print(f"|   | {kind} wall time: slowest {max(ts):.1f} s, mean {sum(ts) / len(ts):.1f} s, ÷ {ratio(ts):.2f} | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
