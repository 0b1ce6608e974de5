#!/usr/bin/env bash
# Runs fuzz targets one after another (docs/development.md, "Fuzzing").
#   fuzz/run.sh [SECONDS] [TARGET...]   (default: 600 s each, every target)
# One libFuzzer process at a time (`-fork=1`: a crash, timeout or OOM is saved under
# fuzz/artifacts/<target>/ and the run goes on until its time is up), niced, with a
# 2 GiB RSS limit and a 10 s per-input timeout. Logs go to fuzz/logs/<target>.log.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(archive ledger decode markdown yaml frontmatter pin skills_lock trace pyc json_config toml_config report evals)
fi
mkdir -p logs
# Build every target once, then run the binaries directly: editing the library while a
# long series runs does not rebuild (or change) the targets under way.
cargo +nightly fuzz build -s none -a
bin=target/x86_64-unknown-linux-gnu/release
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    echo "== $t: ${secs}s ($(date -u +%H:%M:%S))"
    nice -n 10 "$bin/$t" -artifact_prefix="artifacts/$t/" \
        -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -print_final_stats=1 "corpus/$t" >"logs/$t.log" 2>&1 || echo "   exit $? (see logs/$t.log)"
    grep -E '^#[0-9]+' "logs/$t.log" | tail -1 || true
    echo "   corpus: $(find "corpus/$t" -type f | wc -l) files; artifacts: $(find "artifacts/$t" -type f | wc -l)"
done
