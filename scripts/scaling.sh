#!/usr/bin/env bash
# Linear cost, proved (issue 12): worst-case inputs of growing size for every parser and every
# security family, scanned by the release binary; fails when 10x the input costs more than 12x.
#
#   scripts/scaling.sh                        # every family, 100k 1m 10m, CPU time and instructions
#   SIZES="100k 1m" FAMILIES="md-many-fences unicode-invisible-run" scripts/scaling.sh
#   scripts/scaling.sh --list                 # the families (scripts/scaling_gen.py)
#
# For each family and size, scripts/scaling_gen.py writes a skill folder (a skills root for
# `many-skills`) whose payload is about SIZE bytes, built to be a worst case (long runs, deep
# nesting, many near-matches, long lines without newlines). Each is scanned with
#   skillguard scan DIR --format json -o TMP/report.json -j1
# and measured two ways:
#   cpu    the minimum over RUNS runs of the process's CPU time (perf stat task-clock, or
#          /usr/bin/time user+sys); noisy on a shared machine, so the minimum is kept;
#   instr  instructions executed, counted by valgrind's callgrind (deterministic).
# The cost of a tiny skill (start-up, rule compilation, exit) is measured the same way and
# subtracted, so the ratio compares the work the payload causes. The verdict is taken on the
# last two sizes (1m -> 10m by default) with instructions when they were counted, else CPU time:
# the cost ratio must stay at most MAX_RATIO x (byte ratio / 10), i.e. 12x for 10x the bytes.
# Peak resident memory (GNU time) is recorded with the CPU runs, and a family whose peak at the
# largest size, less the tiny skill's, exceeds MAX_MEM_RATIO x (its input + its JSON report)
# fails too.
# Exit status: 0 every family linear, 1 a family above the ratio (or timed out / crashed), 2 usage.
#
# Environment:
#   SIZES="100k 1m 10m"   sizes (k = 1,000, m = 1,000,000 bytes; the default file limit is 10 MiB)
#   FAMILIES=all          families to run (names from --list)
#   METHOD=both           cpu | instr | both
#   RUNS=3                CPU-time runs per input (the minimum is kept)
#   MAX_RATIO=12          allowed cost ratio for 10x the bytes
#   MAX_MEM_RATIO=24      allowed peak memory above the tiny skill's, per byte of input and of
#                         JSON report, at the largest size (cpu runs only; docs/performance.md,
#                         "Memory": what a scan holds is the file a worker reads and the report)
#   TIMEOUT=600           seconds per measured run (a run that times out fails its family)
#   NICE=10               niceness of the measured runs (the machine is shared)
#   NOISE_MS=40           CPU verdicts: a payload cost under this at the largest size is "noise",
#                         and one under this at the smaller size counts as this much
#   SKIP_BUILD=1          use target/release/skillguard as it is
#   SKILLGUARD_BIN=PATH   measure this binary instead
#   KEEP=1                keep the generated inputs (their folder is printed)
#   TSV=FILE              also write the table as tab-separated values to FILE
#
# Inputs and reports go to a scratch folder under ${TMPDIR:-/tmp}, deleted at exit; reports are
# never written to a device (-o replaces its target through a rename).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."

GEN=scripts/scaling_gen.py
if [ "${1:-}" = --list ]; then
  exec python3 "$GEN" --list
fi
if [ $# -gt 0 ]; then
  sed -n '2,45p' "$0" >&2
  exit 2
fi

SIZES=${SIZES:-100k 1m 10m}
FAMILIES=${FAMILIES:-all}
METHOD=${METHOD:-both}
RUNS=${RUNS:-3}
MAX_RATIO=${MAX_RATIO:-12}
MAX_MEM_RATIO=${MAX_MEM_RATIO:-24}
TIMEOUT=${TIMEOUT:-600}
NOISE_MS=${NOISE_MS:-40}
NICE=${NICE:-10}
case "$METHOD" in cpu | instr | both) ;; *) echo "METHOD must be cpu, instr or both" >&2; exit 2 ;; esac
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive integer" >&2; exit 2; }

note() { echo "scaling: $*" >&2; }

bytes_of() { # 100k -> 100000, 1m -> 1000000, 123 -> 123
  local s=${1,,}
  case "$s" in
    *k) echo $((${s%k} * 1000)) ;;
    *m) echo $((${s%m} * 1000000)) ;;
    *[!0-9]* | '') echo "bad size '$1'" >&2; exit 2 ;;
    *) echo "$s" ;;
  esac
}
SIZE_BYTES=()
for s in $SIZES; do SIZE_BYTES+=("$(bytes_of "$s")"); done
read -r -a SIZE_NAMES <<< "$SIZES"
[ "${#SIZE_NAMES[@]}" -ge 2 ] || { echo "SIZES needs at least two sizes" >&2; exit 2; }

if [ "$FAMILIES" = all ]; then
  mapfile -t FAMS < <(python3 "$GEN" --list)
else
  read -r -a FAMS <<< "$FAMILIES"
fi

if [ "${SKIP_BUILD:-}" != 1 ] && [ -z "${SKILLGUARD_BIN:-}" ]; then
  note "cargo build --release"
  cargo build --release --quiet --bin skillguard
fi
BIN=${SKILLGUARD_BIN:-target/release/skillguard}
[ -x "$BIN" ] || { echo "no $BIN" >&2; exit 2; }
if [ "$METHOD" != cpu ] && ! command -v valgrind > /dev/null; then
  note "valgrind not found: CPU time only"
  METHOD=cpu
fi
USE_PERF=0
if perf stat -x, -e task-clock true > /dev/null 2>&1; then USE_PERF=1; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/skillguard-scaling.XXXXXX")
if [ "${KEEP:-}" = 1 ]; then
  note "inputs kept in $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
# A private copy: a concurrent rebuild of target/release cannot change the binary mid-run.
SG="$WORK/skillguard"
cp "$BIN" "$SG"
REPORT="$WORK/report.json"

# scan_args DIR: one scan; exit 0 or 1 (findings) is a completed scan, anything else is an
# error. A folder with its own `.skillguard.toml` is scanned as a repository (`--repo`), so
# the configuration is read; a folder with `.scaling-args` runs those arguments instead (the
# `evals-*` families run `evals grade`).
scan_args() {
  if [ -f "$1/.scaling-args" ]; then
    sed "s|@DIR@|$1|g; s|@OUT@|$REPORT|g" "$1/.scaling-args"
  elif [ -f "$1/.skillguard.toml" ]; then
    echo scan --repo "$1" --format json -o "$REPORT" -j1
  else
    echo scan "$1" --format json -o "$REPORT" -j1
  fi
}

# bounded_rc DIR RC STDERR: an `evals grade` family that stopped at its work bound (exit 2
# with the bound's message) completed its measured work: 0; any other status as it is.
bounded_rc() {
  if [ "$2" = 2 ] && [ -f "$1/.scaling-args" ] && grep -q "backtracking steps on a sample" "$3"; then
    echo 0
  else
    echo "$2"
  fi
}

# cpu_ms DIR: CPU milliseconds of one scan (prints "timeout" or "error:RC" on failure); the
# scan's peak resident memory (KiB, GNU time's %M: the largest of the processes it waited
# for, so the scan's own, perf's being smaller) is appended to $WORK/rss.txt.
cpu_ms() {
  local dir=$1 rc=0 out="$WORK/perf.txt"
  if [ "$USE_PERF" = 1 ]; then
    nice -n "$NICE" timeout "$TIMEOUT" /usr/bin/time -f '%M' -o "$WORK/rss1.txt" perf stat -x, -o "$out" -e task-clock "$SG" $(scan_args "$dir") 2> "$WORK/stderr.txt" || rc=$?
  else
    nice -n "$NICE" timeout "$TIMEOUT" /usr/bin/time -f '%U %S %M' -o "$out" "$SG" $(scan_args "$dir") 2> "$WORK/stderr.txt" || rc=$?
    awk '{ print $3 }' "$out" > "$WORK/rss1.txt" 2> /dev/null || true
  fi
  tail -n 1 "$WORK/rss1.txt" >> "$WORK/rss.txt" 2> /dev/null || true
  stat -c %s "$REPORT" > "$WORK/report_bytes.txt" 2> /dev/null || echo 0 > "$WORK/report_bytes.txt"
  rm -f "$REPORT"
  if [ "$rc" = 124 ]; then echo timeout; return; fi
  rc=$(bounded_rc "$dir" "$rc" "$WORK/stderr.txt")
  if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then echo "error:$rc"; return; fi
  if [ "$USE_PERF" = 1 ]; then
    awk -F, '$3 == "task-clock" { printf "%.1f", $1 }' "$out"
  else
    awk '{ printf "%.1f", ($1 + $2) * 1000 }' "$out"
  fi
}

# min_cpu_ms DIR: the minimum of RUNS runs (or the first failure); the largest peak resident
# memory of those runs (MiB) in $WORK/rss_max.txt.
min_cpu_ms() {
  local best="" v
  : > "$WORK/rss.txt"
  for _ in $(seq "$RUNS"); do
    v=$(cpu_ms "$1")
    case "$v" in timeout | error:*) echo "$v"; return ;; esac
    if [ -z "$best" ] || awk -v a="$v" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$v; fi
  done
  awk '$1 ~ /^[0-9]+$/ { if ($1 > m) m = $1 } END { printf "%.1f", m / 1024 }' "$WORK/rss.txt" > "$WORK/rss_max.txt"
  echo "$best"
}

# instructions DIR: instructions executed by one scan, counted by callgrind (all threads).
instructions() {
  local dir=$1 rc=0 out="$WORK/callgrind.out"
  rm -f "$out"
  nice -n "$NICE" timeout "$TIMEOUT" valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$SG" $(scan_args "$dir") > /dev/null 2> "$WORK/valgrind.txt" || rc=$?
  rm -f "$REPORT"
  if [ "$rc" = 124 ]; then echo timeout; return; fi
  rc=$(bounded_rc "$dir" "$rc" "$WORK/valgrind.txt")
  if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then echo "error:$rc"; return; fi
  awk '/^(summary|totals):/ { print $2; exit }' "$out"
}

# du_bytes DIR: the bytes of the regular files under DIR (folders not counted).
du_bytes() { find "$1" -type f -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }'; }

# ---- inputs ----------------------------------------------------------------------------------
note "generating inputs (${FAMS[*]}) at $SIZES"
mkdir -p "$WORK/in/tiny"
python3 - "$WORK/in/tiny" << 'EOF'
import os, sys
d = os.path.join(sys.argv[1], "tiny")
os.makedirs(d)
open(os.path.join(d, "SKILL.md"), "w").write("---\nname: tiny\ndescription: A tiny skill, the start-up baseline.\n---\n\n# tiny\n\nHello.\n")
EOF
for i in "${!SIZE_NAMES[@]}"; do
  mkdir -p "$WORK/in/${SIZE_NAMES[$i]}"
  python3 "$GEN" "$WORK/in/${SIZE_NAMES[$i]}" "${SIZE_BYTES[$i]}" "${FAMS[@]}"
done

# ---- baseline ----------------------------------------------------------------------------------
BASE_CPU=0
BASE_INS=0
BASE_RSS=0
if [ "$METHOD" != instr ]; then
  BASE_CPU=$(min_cpu_ms "$WORK/in/tiny/tiny")
  BASE_RSS=$(cat "$WORK/rss_max.txt")
fi
if [ "$METHOD" != cpu ]; then BASE_INS=$(instructions "$WORK/in/tiny/tiny"); fi
note "baseline (tiny skill): cpu ${BASE_CPU} ms, ${BASE_RSS} MiB, ${BASE_INS} instructions"

# ---- measure -----------------------------------------------------------------------------------
declare -A CPU INS BYTES RSS REP
for fam in "${FAMS[@]}"; do
  for s in "${SIZE_NAMES[@]}"; do
    dir="$WORK/in/$s/$fam"
    BYTES[$fam,$s]=$(du_bytes "$dir")
    if [ "$METHOD" != instr ]; then
      CPU[$fam,$s]=$(min_cpu_ms "$dir")
      RSS[$fam,$s]=$(cat "$WORK/rss_max.txt")
      REP[$fam,$s]=$(cat "$WORK/report_bytes.txt")
    fi
    if [ "$METHOD" != cpu ]; then INS[$fam,$s]=$(instructions "$dir"); fi
    note "$fam $s: ${BYTES[$fam,$s]} bytes, cpu ${CPU[$fam,$s]:--} ms, ${RSS[$fam,$s]:--} MiB, ${INS[$fam,$s]:--} instructions"
  done
done

# ---- table -------------------------------------------------------------------------------------
# ratio A B BASE [FLOOR]: (B - BASE) / max(A - BASE, FLOOR), or "-" when a value is missing
# or failed. For CPU time FLOOR is NOISE_MS: a payload that costs less than the noise at the
# smaller size (15 ms over a 123 ms start-up, measured on a shared machine) is not a divisor.
ratio() {
  awk -v a="$1" -v b="$2" -v z="$3" -v f="${4:-0}" 'BEGIN {
    if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/) { print "-"; exit }
    da = a - z; db = b - z; if (da < f) da = f; if (da < 1e-9) da = 1e-9; if (db < 0) db = 0
    printf "%.2f", db / da }'
}

n=${#SIZE_NAMES[@]}
LAST=${SIZE_NAMES[$((n - 1))]}
PREV=${SIZE_NAMES[$((n - 2))]}
FAILED=0
hdr="| family |"
sep="|---|"
for s in "${SIZE_NAMES[@]}"; do hdr+=" bytes $s | cpu ms $s |"; sep+="---:|---:|"; done
if [ "$METHOD" != cpu ]; then
  for s in "${SIZE_NAMES[@]}"; do hdr+=" Minstr $s |"; sep+="---:|"; done
fi
hdr+=" cpu ratio $PREV→$LAST |"
sep+="---:|"
if [ "$METHOD" != cpu ]; then hdr+=" instr ratio ${SIZE_NAMES[0]}→${SIZE_NAMES[1]} | instr ratio $PREV→$LAST |"; sep+="---:|---:|"; fi
if [ "$METHOD" != instr ]; then hdr+=" report MB $LAST | peak MiB $LAST | memory ratio |"; sep+="---:|---:|---:|"; fi
hdr+=" allowed | verdict |"
sep+="---:|---|"
echo
echo "baseline (tiny skill, subtracted): cpu ${BASE_CPU} ms, $(awk -v i="$BASE_INS" 'BEGIN { printf "%.1f", i / 1e6 }') M instructions"
echo
echo "$hdr"
echo "$sep"
[ -n "${TSV:-}" ] && : > "$TSV"
for fam in "${FAMS[@]}"; do
  row="| $fam |"
  failed_run=""
  for s in "${SIZE_NAMES[@]}"; do
    row+=" ${BYTES[$fam,$s]} | ${CPU[$fam,$s]:--} |"
    case "${CPU[$fam,$s]:-}${INS[$fam,$s]:-}" in *timeout* | *error*) failed_run=1 ;; esac
  done
  if [ "$METHOD" != cpu ]; then
    for s in "${SIZE_NAMES[@]}"; do
      row+=" $(awk -v i="${INS[$fam,$s]}" 'BEGIN { if (i ~ /^[0-9]+$/) printf "%.1f", i / 1e6; else print i }') |"
    done
  fi
  byte_ratio=$(awk -v a="${BYTES[$fam,$PREV]}" -v b="${BYTES[$fam,$LAST]}" 'BEGIN { printf "%.3f", b / a }')
  allowed=$(awk -v r="$byte_ratio" -v m="$MAX_RATIO" 'BEGIN { printf "%.2f", m * r / 10 }')
  cr=$(ratio "${CPU[$fam,$PREV]:-}" "${CPU[$fam,$LAST]:-}" "$BASE_CPU" "$NOISE_MS")
  row+=" $cr |"
  if [ "$METHOD" != cpu ]; then
    ir1=$(ratio "${INS[$fam,${SIZE_NAMES[0]}]}" "${INS[$fam,${SIZE_NAMES[1]}]}" "$BASE_INS")
    ir=$(ratio "${INS[$fam,$PREV]}" "${INS[$fam,$LAST]}" "$BASE_INS")
    row+=" $ir1 | $ir |"
    judged=$ir
  else
    judged=$cr
    # CPU time: a payload that costs less than NOISE_MS at the largest size is within the noise.
    if awk -v c="${CPU[$fam,$LAST]:-0}" -v z="$BASE_CPU" -v n="$NOISE_MS" 'BEGIN { exit !(c - z < n) }'; then judged=noise; fi
  fi
  mem_ok=1
  if [ "$METHOD" != instr ]; then
    # Peak memory above the tiny skill's, per MiB of input and report, at the largest size.
    per=$(awk -v r="${RSS[$fam,$LAST]:-}" -v z="$BASE_RSS" -v b="${BYTES[$fam,$LAST]}" -v o="${REP[$fam,$LAST]:-0}" 'BEGIN {
      if (r !~ /^[0-9.]+$/) { print "-"; exit }
      d = r - z; if (d < 0) d = 0; printf "%.1f", d / ((b + o) / 1048576) }')
    row+=" $(awk -v o="${REP[$fam,$LAST]:-0}" 'BEGIN { printf "%.1f", o / 1e6 }') | ${RSS[$fam,$LAST]:--} | $per |"
    if awk -v p="$per" -v m="$MAX_MEM_RATIO" 'BEGIN { exit !(p ~ /^[0-9.]+$/ && p > m) }'; then mem_ok=0; fi
  fi
  if [ -n "$failed_run" ]; then
    verdict="FAIL (timeout or error)"
  elif [ "$mem_ok" = 0 ]; then
    verdict="FAIL (memory over ${MAX_MEM_RATIO}x input and report)"
  elif [ "$judged" = noise ]; then
    verdict="ok (below ${NOISE_MS} ms)"
  elif [ "$judged" = - ]; then
    verdict="FAIL (no measure)"
  elif awk -v r="$judged" -v a="$allowed" 'BEGIN { exit !(r <= a) }'; then
    verdict=ok
  else
    verdict="FAIL (super-linear)"
  fi
  case "$verdict" in FAIL*) FAILED=1 ;; esac
  row+=" $allowed | $verdict |"
  echo "$row"
  if [ -n "${TSV:-}" ]; then
    printf '%s' "$fam" >> "$TSV"
    for s in "${SIZE_NAMES[@]}"; do printf '\t%s\t%s\t%s' "${BYTES[$fam,$s]}" "${CPU[$fam,$s]:--}" "${INS[$fam,$s]:--}" >> "$TSV"; done
    printf '\t%s\t%s\n' "$judged" "$verdict" >> "$TSV"
  fi
done
echo
if [ "$FAILED" = 1 ]; then
  echo "scaling: at least one family grows faster than linearly (or did not finish)" >&2
  exit 1
fi
echo "scaling: every family within ${MAX_RATIO}x for 10x the input" >&2
