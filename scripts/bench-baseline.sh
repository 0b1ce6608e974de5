#!/usr/bin/env bash
# Baseline benchmarks (docs/performance.md):
#   1. the cost of --write-baseline on a workspace scan (paired, alternating runs; ratio of medians);
#   2. `baseline diff`, `history`, `list` and `verify` over a ledger of SNAPSHOTS snapshots of the
#      whole workspace, built here by repeated scans with a small edit between them.
#
#   scripts/bench-baseline.sh [REPOS] [SKILLS_PER_REPO] [RUNS] [SNAPSHOTS]
#   scripts/bench-baseline.sh 20 100 9 100     # 2,000 skills, 100 snapshots
set -euo pipefail
cd "$(dirname "$0")/.."
REPOS=${1:-20}
SKILLS=${2:-100}
RUNS=${3:-9}
SNAPS=${4:-100}
SRC=bench-out/ws-${REPOS}x${SKILLS}
WORK=bench-out/baseline-${REPOS}x${SKILLS}
LEDGER=bench-out/ledger-${REPOS}x${SKILLS}-${SNAPS}

cargo build --release --quiet --bin skillguard --example gen_corpus
BIN=target/release/skillguard
if [ ! -d "$SRC" ]; then
  mkdir -p bench-out
  target/release/examples/gen_corpus --out "$SRC" --repos "$REPOS" --skills "$SKILLS" --seed 42
fi
rm -rf "$WORK" && cp -r "$SRC" "$WORK"
find "$WORK" -type f -print0 | xargs -0 cat > /dev/null

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {print b - a}'; }

# 1. Write overhead: plain scan vs scan + --write-baseline into a fresh ledger, alternating.
plain=(); write=(); ratios=()
for i in $(seq "$RUNS"); do
  t0=$(now); "$BIN" scan-workspace "$WORK" --format json -o /dev/null -q || true; t1=$(now)
  a=$(elapsed "$t0" "$t1"); plain+=("$a")
  rm -rf "$WORK.ledger-tmp"
  t0=$(now); "$BIN" scan-workspace "$WORK" --format json -o /dev/null -q --write-baseline --baseline-root "$WORK.ledger-tmp" || true; t1=$(now)
  b=$(elapsed "$t0" "$t1"); write+=("$b")
  ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN {print b / a}')")
done
rm -rf "$WORK.ledger-tmp"
mp=$(printf '%s\n' "${plain[@]}" | median)
mw=$(printf '%s\n' "${write[@]}" | median)
mr=$(printf '%s\n' "${ratios[@]}" | median)
echo "scan-workspace:                    median ${mp}s over $RUNS runs"
echo "scan-workspace --write-baseline:   median ${mw}s over $RUNS runs (first snapshot: every line pack written)"
echo "ratio write / plain (median of paired ratios): $mr"

# 1b. A later snapshot (the ledger holds one already; unchanged content reuses its line hashes).
rm -rf "$WORK.ledger-tmp"
"$BIN" scan-workspace "$WORK" --format json -o /dev/null -q --write-baseline --baseline-root "$WORK.ledger-tmp" || true
plain=(); write=(); ratios=()
for i in $(seq "$RUNS"); do
  t0=$(now); "$BIN" scan-workspace "$WORK" --format json -o /dev/null -q || true; t1=$(now)
  a=$(elapsed "$t0" "$t1"); plain+=("$a")
  t0=$(now); "$BIN" scan-workspace "$WORK" --format json -o /dev/null -q --write-baseline --baseline-root "$WORK.ledger-tmp" || true; t1=$(now)
  b=$(elapsed "$t0" "$t1"); write+=("$b")
  ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN {print b / a}')")
done
rm -rf "$WORK.ledger-tmp"
echo "scan-workspace --write-baseline (later snapshot): median $(printf '%s\n' "${write[@]}" | median)s; ratio to plain (median of paired ratios): $(printf '%s\n' "${ratios[@]}" | median)"

# 2. A ledger of SNAPS snapshots (reused when it exists).
if [ ! -f "$LEDGER/HEAD.json" ]; then
  rm -rf "$LEDGER"
  skills=( $(find "$WORK" -name SKILL.md | sort) )
  for i in $(seq "$SNAPS"); do
    # Edit a few skills between snapshots so diffs and histories have content.
    for k in 0 1 2; do
      f=${skills[$(( (i * 7 + k * 131) % ${#skills[@]} ))]}
      echo "edit $i" >> "$f"
    done
    "$BIN" scan-workspace "$WORK" --format json -o /dev/null -q --write-baseline --baseline-root "$LEDGER" --profile none || true
  done
fi
n=$(ls "$LEDGER"/snapshots/*.json | wc -l)
size=$(du -sb "$LEDGER" | cut -f1)
echo "ledger: $n snapshots, $size bytes"
skill=$(basename "$(dirname "$(find "$WORK" -name SKILL.md | sort | head -1)")")
for cmd in "diff" "diff --since 1" "history $skill" "list" "verify"; do
  ts=()
  for _ in $(seq 5); do
    t0=$(now); "$BIN" baseline $cmd --baseline-root "$LEDGER" > /dev/null; t1=$(now)
    ts+=("$(elapsed "$t0" "$t1")")
  done
  echo "baseline $cmd: median $(printf '%s\n' "${ts[@]}" | median)s over 5 runs"
done
rss=$( { /usr/bin/time -v "$BIN" baseline history "$skill" --baseline-root "$LEDGER" >/dev/null; } 2>&1 | awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}')
echo "peak RSS (baseline history): $((rss / 1024)) MiB"
