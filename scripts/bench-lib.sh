# Helpers for scripts/bench.sh (sourced, not run). Times are seconds as decimal strings.
# Needs bash 5 (EPOCHREALTIME) and LC_ALL=C (a '.' as the decimal point).

# time_it VAR CMD [ARG...]: run CMD (its exit status must be 0) and store its wall time in VAR.
time_it() {
  local -n time_it_out=$1
  shift
  local t0=$EPOCHREALTIME
  "$@"
  local t1=$EPOCHREALTIME
  time_it_out=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
}

# median: the median of the numbers on stdin, one a line.
median() {
  sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) exit 1; m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.6f", m }'
}

# calc EXPR [DECIMALS]: evaluate an awk arithmetic expression, e.g. `calc "2.5 / 1.25" 2`.
calc() {
  awk "BEGIN { printf \"%.${2:-3}f\", $1 }"
}

# check COND: prints PASS or FAIL for an awk condition, e.g. `check "2.1 <= 3"`.
check() {
  awk "BEGIN { print (($1) ? \"PASS\" : \"FAIL\") }"
}

# peak_rss_mib CMD [ARG...]: run CMD under /usr/bin/time (its stdout discarded, its stderr kept) and
# print its peak RSS in MiB (one decimal). Uses the scratch folder $BENCH_TMP.
peak_rss_mib() {
  local f="$BENCH_TMP/rss.txt"
  /usr/bin/time -f %M -o "$f" "$@" > /dev/null
  awk '{ kib = $1 } END { printf "%.1f", kib / 1024 }' "$f"
  rm -f "$f"
}

# warm_cache DIR: read every regular file once so that every timed run sees a warm page cache.
warm_cache() {
  find "$1" -type f -print0 | xargs -0 -r cat > /dev/null
}

# floor DIR: the floor every scan is compared with, hashing every regular file on both cores.
floor() {
  find "$1" -type f -print0 | xargs -0 -r -P2 -n 500 sha256sum > /dev/null
}

# json_skills FILE: the number of skills in a skillguard JSON report (summary.skills).
json_skills() {
  if command -v jq > /dev/null; then
    jq -r '.summary.skills // (.skills | length)' "$1"
  else
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r.get("summary", {}).get("skills", len(r.get("skills", []))))' "$1"
  fi
}
