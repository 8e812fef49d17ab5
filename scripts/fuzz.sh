#!/usr/bin/env bash
# Fuzzes every reader with libFuzzer (libfuzzer-sys), built on the stable toolchain with LLVM's
# coverage pass (what `cargo fuzz --sanitizer none` does, without needing nightly or cargo-fuzz).
#
#   bash scripts/fuzz.sh SECONDS [TARGET...]   run each target for SECONDS (all targets by default)
#   bash scripts/fuzz.sh --smoke               3 s per target, from scripts/test.sh; skips, saying
#                                              why, where the toolchain cannot build libFuzzer
#   bash scripts/fuzz.sh --replay [TARGET...]  every seed and corpus input through the release
#                                              `wadforge` program, each command that reads that kind
#                                              of input, each run measured against the promise
#                                              (fuzz/src/bin/replay.rs); exit 1 when one broke it
#
# Seeds come from the fixtures (fuzz/src/bin/write-seeds.rs); the growing corpora and any crash,
# hang (-timeout=5: one input must take under 5 s) or input over its memory (the targets' allocator
# aborts past 64 MiB + 20 times the input's size of heap: fuzz/src/heap.rs; -rss_limit_mb=1024 is
# a backstop) are kept under target/fuzz/. libFuzzer's -malloc_limit_mb needs a sanitizer's
# allocator hooks, which these builds have not.
# A crash found becomes a regression test with its input. Targets: fuzz/fuzz_targets/ (every file
# there is run, smoke-tested and guard-checked); an input of several files (manifest_dir, sounds_sfx's
# .sfx then .sam) joins them with FILE_SEPARATOR (fuzz/src/lib.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=false
replay=false
seed=0 # libFuzzer picks one
if [ "${1:-}" = "--replay" ]; then
    replay=true
    shift
elif [ "${1:-}" = "--smoke" ]; then
    smoke=true
    seconds=3
    seed=1 # the same mutations on every run, so the test command does not flicker
    shift
else
    seconds="${1:?usage: bash scripts/fuzz.sh SECONDS [TARGET...] | --smoke | --replay [TARGET...]}"
    shift
fi

out=target/fuzz
mkdir -p "$out"
host=$(rustc -vV | sed -n 's/^host: //p')
# --target keeps the coverage flags off build scripts and proc macros, as cargo-fuzz does.
flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
flags="$flags -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table"
flags="$flags -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions"
if ! RUSTFLAGS="$flags" cargo build --release --quiet --manifest-path fuzz/Cargo.toml \
    --target "$host" --target-dir "$out/build" --bins 2>"$out/build.log"; then
    if $smoke; then
        echo "fuzz smoke run skipped: the fuzz targets do not build here (libFuzzer needs a C++ compiler; see $out/build.log)"
        tail -n 5 "$out/build.log"
        exit 0
    fi
    cat "$out/build.log"
    exit 1
fi
bin="$out/build/$host/release"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(ls fuzz/fuzz_targets | sed 's/\.rs$//')
fi

"$bin/write-seeds" "$out/seeds"
if $replay; then
    cargo build --release --quiet --bin wadforge
    exec "$bin/replay" target/release/wadforge "$out" "${targets[@]}"
fi
status=0
for t in "${targets[@]}"; do
    mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
    log="$out/logs/$t.log"
    mkdir -p "$out/logs"
    # The seeds go in as a second corpus directory (read, never written); new inputs go to corpus/.
    if "$bin/$t" "$out/corpus/$t" "$out/seeds/$t" -max_total_time="$seconds" -seed="$seed" -timeout=5 \
        -rss_limit_mb=1024 -max_len=1048576 -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$t/" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
        echo "fuzz $t: ok, $runs executions in ${seconds}s, $cov, corpus $(ls "$out/corpus/$t" | wc -l) files"
    else
        status=1
        echo "fuzz $t: FAILED (the input is in $out/artifacts/$t/); the end of $log:"
        tail -n 30 "$log"
    fi
done

# The memory guard must be live in every target: with no allowance, a seed's reading must abort.
if $smoke; then
    for t in "${targets[@]}"; do
        scratch=$(mktemp -d)
        mkdir "$scratch/corpus"
        if WADFORGE_FUZZ_HEAP_ALLOWANCE=0 "$bin/$t" "$scratch/corpus" "$out/seeds/$t" -runs=1 \
            -artifact_prefix="$scratch/" >"$scratch/log" 2>&1 ||
            ! grep -q "heap over the input's allowance" "$scratch/log"; then
            status=1
            echo "fuzz $t: its memory guard did not fire with no allowance; the end of its log:"
            tail -n 10 "$scratch/log"
        fi
        rm -rf "$scratch"
    done
    [ $status -eq 0 ] && echo "fuzz memory guard: fires in all ${#targets[@]} targets"
fi
exit $status
