#!/usr/bin/env bash
# Benchmark: skillguard scan-workspace vs `find | xargs sha256sum` over the same
# files, warm cache, median of RUNS runs each, interleaved; peak memory from
# /usr/bin/time -v. Prints ratios, which are what to compare on noisy machines.
#
#   scripts/bench.sh [REPOS] [SKILLS_PER_REPO] [RUNS]
#   scripts/bench.sh 20 100 7      # 2,000 skills (~10k files, ~80 MB)
#   scripts/bench.sh 200 100 3     # 20,000 skills, for the linearity check
set -euo pipefail
cd "$(dirname "$0")/.."
REPOS=${1:-20}
SKILLS=${2:-100}
RUNS=${3:-7}
OUT=bench-out/ws-${REPOS}x${SKILLS}

cargo build --release --quiet --bin skillguard --bin gen-corpus
BIN=target/release/skillguard
if [ ! -d "$OUT" ]; then
  mkdir -p bench-out
  target/release/gen-corpus --out "$OUT" --repos "$REPOS" --skills "$SKILLS" --seed 42
fi
files=$(find "$OUT" -type f | wc -l)
bytes=$(find "$OUT" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')
echo "corpus: $OUT: $files files, $bytes bytes"

# Warm the page cache.
find "$OUT" -type f -print0 | xargs -0 cat > /dev/null

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }

sg=(); s1=(); sn=(); sh=()
for _ in $(seq "$RUNS"); do
  t0=$(now); "$BIN" scan-workspace "$OUT" --format json -o /dev/null --quiet || true; t1=$(now)
  sg+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  t0=$(now); "$BIN" scan-workspace "$OUT" --format json -o /dev/null --quiet -j1 || true; t1=$(now)
  s1+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  t0=$(now); "$BIN" scan-workspace "$OUT" --format json -o /dev/null --quiet --profile none || true; t1=$(now)
  sn+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
  t0=$(now); find "$OUT" -type f -print0 | xargs -0 sha256sum > /dev/null; t1=$(now)
  sh+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
done
msg=$(printf '%s\n' "${sg[@]}" | median)
ms1=$(printf '%s\n' "${s1[@]}" | median)
msn=$(printf '%s\n' "${sn[@]}" | median)
msh=$(printf '%s\n' "${sh[@]}" | median)
echo "skillguard scan-workspace (json, all rules, hashing): median ${msg}s over $RUNS runs"
echo "skillguard scan-workspace -j1:                        median ${ms1}s over $RUNS runs"
echo "skillguard scan-workspace --profile none:             median ${msn}s over $RUNS runs"
echo "find | xargs sha256sum:                              median ${msh}s over $RUNS runs"
echo "ratio skillguard / sha256sum:     $(awk -v a="$msg" -v b="$msh" 'BEGIN {printf "%.2f", a / b}')"
echo "ratio skillguard -j1 / sha256sum: $(awk -v a="$ms1" -v b="$msh" 'BEGIN {printf "%.2f", a / b}')"
echo "ratio all loader profiles / none: $(awk -v a="$msg" -v b="$msn" 'BEGIN {printf "%.2f", a / b}')"

rss=$( { /usr/bin/time -v "$BIN" scan-workspace "$OUT" --format json -o /dev/null --quiet >/dev/null; } 2>&1 | awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}')
echo "peak RSS (skillguard): $((rss / 1024)) MiB"
rss1=$( { /usr/bin/time -v "$BIN" scan-workspace "$OUT" --format json -o /dev/null --quiet -j1 >/dev/null; } 2>&1 | awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}')
echo "peak RSS (skillguard -j1): $((rss1 / 1024)) MiB"
