#!/usr/bin/env bash
# scripts/fuzz.sh — run symgen's fuzz targets (fuzz/fuzz_targets/) with cargo-fuzz.
#
# Usage:
#   scripts/fuzz.sh [--runs N | --seconds S] [--sanitizer address] [TARGET...]
#       Runs each TARGET (default: all of them) for N executions (default 10,000,000)
#       or S seconds, one after the other, on the nightly toolchain, and prints one
#       line per target: executions, corpus size, seconds. Exit 1 on the first crash;
#       libFuzzer then names the input it saved under fuzz/artifacts/TARGET/.
#       Built without a sanitizer by default: symgen is safe Rust and a finding is a
#       panic or a failed assertion, and AddressSanitizer costs half the speed;
#       --sanitizer address builds with it.
#
# cargo-fuzz is installed into fuzz/.tools on first use (from cargo's configured
# registry, pinned with --locked). The checked-in seeds are fuzz/seeds/TARGET/
# (schema_checks starts from schema_model's); the corpus a run grows is
# fuzz/corpus/TARGET/ (git-ignored). Not part of CI: a run of
# 10^7 executions per target takes hours on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=10000000
seconds=""
sanitizer=none
targets=()
while (($#)); do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --seconds) seconds="$2"; runs=""; shift 2 ;;
        --sanitizer) sanitizer="$2"; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if ((${#targets[@]} == 0)); then
    targets=(validate quick schema_model schema_checks generate)
fi

tools="$PWD/fuzz/.tools"
if [[ ! -x "$tools/bin/cargo-fuzz" ]]; then
    echo "fuzz: installing cargo-fuzz into fuzz/.tools" >&2
    cargo install cargo-fuzz --locked --root "$tools" >&2
fi
export PATH="$tools/bin:$PATH"

limit=()
if [[ -n "$runs" ]]; then
    limit=(-runs="$runs")
else
    limit=(-max_total_time="$seconds")
fi

for target in "${targets[@]}"; do
    mkdir -p "fuzz/corpus/$target"
    log="fuzz/corpus/$target.log"
    start=$(date +%s)
    # -rss_limit_mb: the validator reads at most what a message holds; a target that
    # needs more is a finding. -max_len: messages of up to 64 KiB; schemas of up to
    # 8 KiB (the seeds' real-world schemas are cut there too), which keeps the schema
    # targets at thousands of executions a second rather than hundreds.
    case "$target" in
        validate) max_len=65536 ;;
        *) max_len=8192 ;;
    esac
    # schema_checks reads schemas, like schema_model: it starts from the same seeds;
    # quick reads messages, like validate.
    seeds="fuzz/seeds/$target"
    case "$target" in
        schema_checks) seeds=fuzz/seeds/schema_model ;;
        quick) seeds=fuzz/seeds/validate ;;
    esac
    if ! cargo +nightly fuzz run --sanitizer "$sanitizer" --fuzz-dir fuzz "$target" \
        "fuzz/corpus/$target" "$seeds" -- \
        "${limit[@]}" -max_len="$max_len" -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "fuzz: $target crashed (log: $log)" >&2
        exit 1
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    corpus=$(find "fuzz/corpus/$target" -type f | wc -l)
    echo "fuzz: $target: ${execs:-?} executions, corpus $corpus inputs, $(($(date +%s) - start)) s, no crash"
done
