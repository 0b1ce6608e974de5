#!/usr/bin/env bash
# Benchmark skillguard on real skills first, then on generated corpora for scale (docs/performance.md).
#
#   scripts/bench.sh [real|generated|all] [RUNS]      (defaults: all, 7)
#   scripts/bench.sh real 7        # ../shared/corpora only (real public skills): the whole, then
#                                  # each of its repositories on its own (`scan --repo`)
#   scripts/bench.sh all 5         # real, then generated 20x100 (2,000 skills) and 200x100 (20,000)
#
# For each corpus, warm page cache, RUNS rounds of, in turn:
#   A  skillguard scan-workspace CORPUS --format json -o FILE        (default threads)
#   B  floor: find CORPUS -type f -print0 | xargs -0 -P2 -n 500 sha256sum > /dev/null
#   C  skillguard scan-workspace CORPUS --format json -o FILE -j1
# and reports medians, the median of the per-round ratios A/B and C/B (paired, so that machine noise
# cancels), the -j1 cost per skill, peak RSS (/usr/bin/time), a per-stage breakdown from one extra
# -j1 run with SKILLGUARD_TIMINGS=1 (when the build prints `timing: <stage> <seconds>` lines), and
# skills-ref (the Agent Skills reference validator, scripts/bench-skills-ref.py) on the same skills.
#
# Environment:
#   SKIP_BUILD=1                 use the binaries already in target/release
#   BENCH_PER_CORPUS=0           measure the real corpora as a whole only
#   BENCH_SMALL=0                skip the small real skills (scripts/small-real-skills.py: every
#                                skill of at most 8 KB, and every second one, in bench-out/small-all
#                                and small-half; delete them to regenerate)
#   SKILLGUARD_BIN=PATH          benchmark this binary instead of target/release/skillguard
#   BENCH_REAL_CORPUS=DIR        real corpus (default ../shared/corpora, relative to the repository)
#   BENCH_GEN_SMALL=RxS          generated corpora, R repositories x S skills (defaults 20x100 and
#   BENCH_GEN_LARGE=RxS          200x100, kept in bench-out/ws-RxS; delete them to regenerate)
#   SKILLS_REF_PYTHON=PY         a python that can import skills_ref (default /tmp/skills-ref-venv/bin/python)
#   SKILLS_REF_RUNS=N            skills-ref runs per corpus (default 3)
#   SKILLS_REF_MAX_SKILLS=N      skip skills-ref on corpora with more skills (default 5000)
#
# Reports are written to a scratch folder under bench-out/ (git-ignored), deleted at exit; never to a
# device file (-o goes through an atomic rename, which would replace the device).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh

MODE=${1:-all}
RUNS=${2:-7}
case "$MODE" in real | generated | all) ;; *)
  sed -n '2,6p' "$0" >&2
  exit 2
  ;;
esac
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive integer, not '$RUNS'" >&2; exit 2; }
REAL_CORPUS=${BENCH_REAL_CORPUS:-../shared/corpora}
GEN_SMALL=${BENCH_GEN_SMALL:-20x100}
GEN_LARGE=${BENCH_GEN_LARGE:-200x100}
SKILLS_REF_PYTHON=${SKILLS_REF_PYTHON:-/tmp/skills-ref-venv/bin/python}
SKILLS_REF_RUNS=${SKILLS_REF_RUNS:-3}
SKILLS_REF_MAX_SKILLS=${SKILLS_REF_MAX_SKILLS:-5000}

note() { echo "bench: $*" >&2; }

# ---- build -------------------------------------------------------------------------------------
if [ "${SKIP_BUILD:-}" != 1 ]; then
  note "building release binaries"
  # The corpus generator is an example (examples/gen_corpus.rs): `cargo install` leaves it out.
  cargo build --release --quiet --bin skillguard --example gen_corpus
fi
SKILLGUARD_BIN=${SKILLGUARD_BIN:-target/release/skillguard}
[ -x "$SKILLGUARD_BIN" ] || { echo "no $SKILLGUARD_BIN" >&2; exit 1; }

mkdir -p bench-out
BENCH_TMP=$(mktemp -d "$PWD/bench-out/run.XXXXXX")
trap 'rm -rf "$BENCH_TMP"' EXIT
# A private copy, so that a concurrent rebuild of target/release cannot change the binary mid-run.
SG="$BENCH_TMP/skillguard"
cp "$SKILLGUARD_BIN" "$SG"
OUT="$BENCH_TMP/report.json"

# How the corpus being measured is scanned: `scan-workspace CORPUS` (a folder of repositories), or
# `scan --repo CORPUS` (one repository of the real corpora, measured on its own).
KIND=workspace
scan_cmd() {
  if [ "$KIND" = repo ]; then echo "scan --repo"; else echo "scan-workspace"; fi
}

# sg CORPUS [ARG...]: the measured command; stderr is kept for inspection, the report is deleted.
sg() {
  local corpus=$1
  shift
  # shellcheck disable=SC2046
  "$SG" $(scan_cmd) "$corpus" --format json -o "$OUT" "$@" 2> "$BENCH_TMP/stderr.txt"
  rm -f "$OUT"
}

SKILLS_REF_OK=0
if [ -x "$SKILLS_REF_PYTHON" ] && "$SKILLS_REF_PYTHON" -c 'import skills_ref' 2> /dev/null; then
  SKILLS_REF_OK=1
fi

# Results per corpus label, for the summary.
LABELS=()
declare -A PATH_OF SKILLS FILES BYTES WALL WALL_J1 FLOOR RATIO RATIO_J1 RSS RSS_J1 SREF SREF_TOTAL

echo "# skillguard benchmark: $MODE, $RUNS runs, $(nproc) cores, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary: $("$SG" --version) at $(git rev-parse --short HEAD 2> /dev/null || echo '?')$(git diff --quiet HEAD -- src 2> /dev/null || echo ' + uncommitted changes in src/')"
echo "commands (FILE: a scratch file under bench-out/, deleted after each run):"
echo "  skillguard: skillguard scan-workspace CORPUS --format json -o FILE [-j1]"
echo "  floor:      find CORPUS -type f -print0 | xargs -0 -P2 -n 500 sha256sum > /dev/null"

# ---- one corpus --------------------------------------------------------------------------------
bench_corpus() {
  local label=$1 corpus=$2
  KIND=${3:-workspace}
  note "$label: $corpus"
  LABELS+=("$label")
  PATH_OF[$label]=$corpus
  FILES[$label]=$(find "$corpus" -type f | wc -l)
  BYTES[$label]=$(find "$corpus" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
  warm_cache "$corpus"

  # Warm-up run (untimed); its report gives the number of skills.
  # shellcheck disable=SC2046
  "$SG" $(scan_cmd) "$corpus" --format json -o "$OUT" 2> "$BENCH_TMP/stderr.txt"
  SKILLS[$label]=$(json_skills "$OUT")
  rm -f "$OUT"

  local i a b c walls=() j1s=() floors=() ratios=() ratios_j1=()
  for ((i = 1; i <= RUNS; i++)); do
    note "$label: round $i/$RUNS"
    time_it a sg "$corpus"
    time_it b floor "$corpus"
    time_it c sg "$corpus" -j1
    walls+=("$a") floors+=("$b") j1s+=("$c")
    ratios+=("$(calc "$a / $b" 6)") ratios_j1+=("$(calc "$c / $b" 6)")
  done
  WALL[$label]=$(printf '%s\n' "${walls[@]}" | median)
  WALL_J1[$label]=$(printf '%s\n' "${j1s[@]}" | median)
  FLOOR[$label]=$(printf '%s\n' "${floors[@]}" | median)
  RATIO[$label]=$(printf '%s\n' "${ratios[@]}" | median)
  RATIO_J1[$label]=$(printf '%s\n' "${ratios_j1[@]}" | median)
  # shellcheck disable=SC2046
  RSS[$label]=$(peak_rss_mib "$SG" $(scan_cmd) "$corpus" --format json -o "$OUT" 2> "$BENCH_TMP/stderr.txt")
  rm -f "$OUT"

  # Per-stage breakdown: one more -j1 run with SKILLGUARD_TIMINGS=1 (also gives the -j1 peak RSS).
  local t0=$EPOCHREALTIME t_stages
  # shellcheck disable=SC2046
  RSS_J1[$label]=$(SKILLGUARD_TIMINGS=1 peak_rss_mib "$SG" $(scan_cmd) "$corpus" --format json -o "$OUT" -j1 2> "$BENCH_TMP/timings.txt")
  t_stages=$(calc "$EPOCHREALTIME - $t0" 6)
  rm -f "$OUT"

  local n=${SKILLS[$label]}
  echo
  echo "## $label: $corpus ($(scan_cmd))"
  echo "${n} skills, ${FILES[$label]} files, $(calc "${BYTES[$label]} / 1e6" 2) MB (regular files under the corpus);" \
    "-j1: $(calc "${WALL_J1[$label]} * 1000 / $n") ms per skill, $(calc "${WALL_J1[$label]} * 1e9 / ${BYTES[$label]}" 1) ns per byte"
  echo
  echo "| command | median wall s | ms per skill | paired ratio to floor (median) | peak RSS MiB |"
  echo "|---|---:|---:|---:|---:|"
  echo "| skillguard (default threads) | $(calc "${WALL[$label]}") | $(calc "${WALL[$label]} * 1000 / $n") | $(calc "${RATIO[$label]}" 2) | ${RSS[$label]} |"
  echo "| skillguard -j1 | $(calc "${WALL_J1[$label]}") | $(calc "${WALL_J1[$label]} * 1000 / $n") | $(calc "${RATIO_J1[$label]}" 2) | ${RSS_J1[$label]} |"
  echo "| floor (find \| xargs -P2 sha256sum) | $(calc "${FLOOR[$label]}") | $(calc "${FLOOR[$label]} * 1000 / $n") | 1 | |"
  echo "ratios per round (default threads): $(printf '%.2f ' "${ratios[@]}")"
  echo "ratios per round (-j1):             $(printf '%.2f ' "${ratios_j1[@]}")"

  print_stages "$t_stages"
  bench_skills_ref "$label" "$corpus"
}

# print_stages WALL: the `timing: <stage> <cpu-seconds> <wall-seconds>` lines of the last timings
# run, CPU summed per stage (in order of first appearance), with each stage's share of the
# process's CPU (the `timing: (process) CPU WALL` line).
print_stages() {
  echo
  if ! grep -q '^timing: ' "$BENCH_TMP/timings.txt"; then
    echo "per-stage breakdown: not available in this build (no 'timing:' lines with SKILLGUARD_TIMINGS=1)"
    return
  fi
  echo "per-stage breakdown (one -j1 run with SKILLGUARD_TIMINGS=1, wall $(calc "$1") s; thread CPU):"
  echo
  echo "| stage | CPU seconds | share of the process's CPU |"
  echo "|---|---:|---:|"
  awk '
    /^timing: \(process\) / { cpu = $(NF-1); next }
    /^timing: / {
      secs = $(NF-1)
      stage = $2
      if (!(stage in sum)) order[++n] = stage
      sum[stage] += secs
      total += secs
    }
    END {
      if (cpu <= 0) cpu = total
      for (i = 1; i <= n; i++)
        printf "| %s | %.3f | %.1f%% |\n", order[i], sum[order[i]], 100 * sum[order[i]] / cpu
      printf "| (sum of stages) | %.3f | %.1f%% |\n", total, 100 * total / cpu
      printf "| (outside the stages: start-up, rule compilation, exit) | %.3f | %.1f%% |\n", cpu - total, 100 * (cpu - total) / cpu
    }' "$BENCH_TMP/timings.txt"
}

# bench_skills_ref LABEL CORPUS: skills-ref validate() over the same skills, in one Python process.
bench_skills_ref() {
  local label=$1 corpus=$2
  echo
  if [ "$SKILLS_REF_OK" != 1 ]; then
    echo "skills-ref: not available (no importable skills_ref in $SKILLS_REF_PYTHON); install it with"
    echo "  python3 -m venv /tmp/skills-ref-venv && /tmp/skills-ref-venv/bin/pip install skills-ref"
    echo "  (or point SKILLS_REF_PYTHON at a python that has it)"
    return
  fi
  if [ "${SKILLS[$label]}" -gt "$SKILLS_REF_MAX_SKILLS" ]; then
    echo "skills-ref: skipped (${SKILLS[$label]} skills > SKILLS_REF_MAX_SKILLS=$SKILLS_REF_MAX_SKILLS)"
    return
  fi
  local i line vals=() totals=() skills=""
  for ((i = 1; i <= SKILLS_REF_RUNS; i++)); do
    note "$label: skills-ref run $i/$SKILLS_REF_RUNS"
    line=$("$SKILLS_REF_PYTHON" scripts/bench-skills-ref.py "$corpus" | grep '^RESULT ')
    skills=$(sed -E 's/.* skills=([0-9]+).*/\1/' <<< "$line")
    vals+=("$(sed -E 's/.* validate_s=([0-9.]+).*/\1/' <<< "$line")")
    totals+=("$(sed -E 's/.* total_s=([0-9.]+).*/\1/' <<< "$line")")
  done
  SREF[$label]=$(printf '%s\n' "${vals[@]}" | median)
  SREF_TOTAL[$label]=$(printf '%s\n' "${totals[@]}" | median)
  echo "skills-ref $($SKILLS_REF_PYTHON -c 'import skills_ref; print(skills_ref.__version__)'):" \
    "skills_ref.validate(dir) on each of $skills skills (skillguard: ${SKILLS[$label]}) in one Python process," \
    "median of $SKILLS_REF_RUNS runs (interpreter start and import not counted):"
  echo "  validate calls $(calc "${SREF[$label]}") s ($(calc "${SREF[$label]} * 1000 / $skills") ms per skill);" \
    "with the walk that finds them $(calc "${SREF_TOTAL[$label]}") s"
  echo "  skills-ref validate / skillguard: $(calc "${SREF[$label]} / ${WALL[$label]}" 2)x (default threads)," \
    "$(calc "${SREF[$label]} / ${WALL_J1[$label]}" 2)x (-j1; skills-ref is single-threaded)"
}

# gen_corpus RxS: path of the generated corpus, generating it on first use.
gen_corpus() {
  local spec=$1 dir="bench-out/ws-$1" gen=${GEN_CORPUS:-target/release/examples/gen_corpus}
  if [ ! -d "$dir" ]; then
    [ -x "$gen" ] || { echo "no $gen (set GEN_CORPUS=PATH)" >&2; exit 1; }
    note "generating $dir"
    rm -rf "$dir.partial"
    "$gen" --out "$dir.partial" --repos "${spec%x*}" --skills "${spec#*x}" --seed 42 >&2
    mv "$dir.partial" "$dir"
  fi
  echo "$dir"
}

# ---- run ---------------------------------------------------------------------------------------
if [ "$MODE" != generated ]; then
  [ -d "$REAL_CORPUS" ] || { echo "no real corpus at $REAL_CORPUS (set BENCH_REAL_CORPUS)" >&2; exit 1; }
  bench_corpus real "$REAL_CORPUS"
  # Each repository of the real corpora on its own (BENCH_PER_CORPUS=0 skips): the cost per skill
  # and per byte depends on the content, and the whole hides the expensive one.
  if [ "${BENCH_PER_CORPUS:-1}" = 1 ]; then
    for d in "$REAL_CORPUS"/*/; do
      bench_corpus "real/$(basename "$d")" "${d%/}" repo
    done
  fi
  # The small real skills (at most 8 KB each) in one repository, and every second one of them:
  # the cost per small skill, and the marginal cost of one more (start-up and rule compilation
  # cancel out in the difference).
  if [ "${BENCH_SMALL:-1}" = 1 ]; then
    small1=bench-out/small-half small2=bench-out/small-all
    # Generated next to their place and moved in whole: an interrupted run leaves no half set.
    for pair in "$small1:2" "$small2:1"; do
      dir=${pair%:*}
      if [ ! -d "$dir" ]; then
        rm -rf "$dir.partial"
        python3 scripts/small-real-skills.py "$dir.partial" --corpus "$REAL_CORPUS" --every "${pair##*:}" >&2
        mv "$dir.partial" "$dir"
      fi
    done
    bench_corpus real/small-skills "$small2" repo
    KIND=repo
    warm_cache "$small1"
    sg "$small1" -j1
    "$SG" scan --repo "$small1" --format json -o "$OUT" 2> "$BENCH_TMP/stderr.txt"
    n1=$(json_skills "$OUT")
    rm -f "$OUT"
    n2=${SKILLS[real/small-skills]}
    (( n2 > n1 )) || { echo "small skills: $n1 and $n2 skills, no marginal cost to measure" >&2; exit 1; }
    margins=()
    for ((i = 1; i <= RUNS; i++)); do
      note "small skills, half and all: round $i/$RUNS"
      # The order alternates, so that a warm-up or clock bias does not always fall on one side.
      if ((i % 2)); then
        time_it a sg "$small1" -j1
        time_it b sg "$small2" -j1
      else
        time_it b sg "$small2" -j1
        time_it a sg "$small1" -j1
      fi
      margins+=("$(calc "($b - $a) * 1000 / ($n2 - $n1)" 6)")
    done
    SMALL_MARGINAL=$(printf '%s\n' "${margins[@]}" | median)
    echo
    echo "## small real skills: marginal cost"
    echo "$n1 skills ($small1, every second one) against $n2 ($small2), -j1, paired rounds:" \
      "$(calc "$SMALL_MARGINAL" 3) ms per added skill (median; per round: $(printf '%.3f ' "${margins[@]}"))"
  fi
fi
if [ "$MODE" != real ]; then
  small=$(gen_corpus "$GEN_SMALL")
  large=$(gen_corpus "$GEN_LARGE")
  bench_corpus "gen-$GEN_SMALL" "$small"
  bench_corpus "gen-$GEN_LARGE" "$large"
fi

# ---- summary -----------------------------------------------------------------------------------
echo
echo "## Summary (wall times are medians of $RUNS runs, warm cache; ratio = median of per-round ratios)"
echo
echo "| corpus | skills | files | MB | skillguard s | -j1 s | -j1 ms/skill | -j1 ns/byte | floor s | ratio | ratio -j1 | peak RSS MiB | skills-ref s | skills-ref / skillguard |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for l in "${LABELS[@]}"; do
  sref="-" sratio="-"
  if [ -n "${SREF[$l]:-}" ]; then
    sref=$(calc "${SREF[$l]}")
    sratio="$(calc "${SREF[$l]} / ${WALL[$l]}" 2) (-j1: $(calc "${SREF[$l]} / ${WALL_J1[$l]}" 2))"
  fi
  echo "| $l | ${SKILLS[$l]} | ${FILES[$l]} | $(calc "${BYTES[$l]} / 1e6" 2) | $(calc "${WALL[$l]}") | $(calc "${WALL_J1[$l]}") |" \
    "$(calc "${WALL_J1[$l]} * 1000 / ${SKILLS[$l]}") | $(calc "${WALL_J1[$l]} * 1e9 / ${BYTES[$l]}" 1) | $(calc "${FLOOR[$l]}") | $(calc "${RATIO[$l]}" 2) | $(calc "${RATIO_J1[$l]}" 2) |" \
    "${RSS[$l]} | $sref | $sratio |"
done

echo
echo "## Targets"
echo
echo "| target | corpus | measured | |"
echo "|---|---|---:|---|"
for l in "${LABELS[@]}"; do
  # Issue 35: the whole real corpora at most 2.5x the floor; the sickn33 collection at most 3x.
  case "$l" in
    real) limit=2.5 ;;
    *) limit=3 ;;
  esac
  echo "| full scan <= ${limit}x floor (paired) | $l | $(calc "${RATIO[$l]}" 2)x | $(check "${RATIO[$l]} <= $limit") |"
done
for l in "${LABELS[@]}"; do
  per=$(calc "${WALL_J1[$l]} * 1000 / ${SKILLS[$l]}")
  echo "| -j1 < 1 ms per skill | $l | $per ms | $(check "$per < 1") |"
done
if [ -n "${SKILLS[real/small-skills]:-}" ]; then
  # Issue 35: a small skill should cost under 0.3 ms at -j1.
  per=$(calc "${WALL_J1[real/small-skills]} * 1000 / ${SKILLS[real/small-skills]}" 3)
  echo "| small skills < 0.3 ms each, -j1, start-up included | real/small-skills | $per ms | $(check "$per < 0.3") |"
  echo "| small skills < 0.3 ms each, -j1, marginal | real/small-skills, all - half | $(calc "$SMALL_MARGINAL" 3) ms | $(check "$SMALL_MARGINAL < 0.3") |"
fi
for l in "${LABELS[@]}"; do
  [ -n "${SREF[$l]:-}" ] || continue
  r=$(calc "${SREF[$l]} / ${WALL[$l]}" 2)
  echo "| >= 3x faster than skills-ref | $l | ${r}x | $(check "$r >= 3") |"
done
if [ "$MODE" != real ]; then
  s="gen-$GEN_SMALL" g="gen-$GEN_LARGE"
  k=$(calc "${SKILLS[$g]} / ${SKILLS[$s]}" 2)
  limit=$(calc "1.1 * $k" 2)
  linear_row() { # NAME SMALL_SECONDS LARGE_SECONDS [check]
    local r
    r=$(calc "$3 / $2" 2)
    echo "| linear: ${k}x the skills, <= ${limit}x the time | $1, $s -> $g | ${r}x | ${4:+$(check "$r <= $limit")} |"
  }
  linear_row skillguard "${WALL[$s]}" "${WALL[$g]}" check
  linear_row "skillguard -j1" "${WALL_J1[$s]}" "${WALL_J1[$g]}" check
  linear_row "floor (for reference)" "${FLOOR[$s]}" "${FLOOR[$g]}"
fi
for l in "${LABELS[@]}"; do
  if [ "$l" = real ]; then
    echo "| peak RSS < 100 MiB | $l | ${RSS[$l]} MiB | $(check "${RSS[$l]} < 100") |"
  elif [ "${SKILLS[$l]}" -ge 20000 ]; then
    echo "| peak RSS < 300 MiB | $l | ${RSS[$l]} MiB | $(check "${RSS[$l]} < 300") |"
  fi
done
