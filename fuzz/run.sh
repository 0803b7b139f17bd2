#!/usr/bin/env bash
# Seeds the corpus of a fuzz target and runs it for a while.
#
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#
# TARGET is one of: frontend, frontend_structured, pipeline_file.
# The corpus (fuzz/corpus/TARGET) and crash artifacts (fuzz/artifacts/TARGET)
# are git-ignored. Needs cargo-fuzz (`cargo install cargo-fuzz --locked`).
# Uses a nightly toolchain when one is installed, else the stable one with
# RUSTC_BOOTSTRAP=1 (cargo-fuzz passes nightly-only -Z flags to rustc); set
# FUZZ_TOOLCHAIN=stable or FUZZ_TOOLCHAIN=nightly to choose.
#
# Example: fuzz/run.sh frontend_structured 600
# Keep going after a crash: fuzz/run.sh frontend 600 -fork=1 -ignore_crashes=1
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer flags...]" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2

here=$(cd "$(dirname "$0")" && pwd)
tests="$here/../sim/frontend/tests/p4"
corpus="$here/corpus/$target"
mkdir -p "$corpus"

# Seeds: the front end's test programs (valid and invalid). The pipeline
# target also gets each program wrapped in a pipeline file, since anything
# without the `janus-pipeline 1` header is rejected straight away.
for f in "$tests"/valid/*.p4 "$tests"/invalid/*.p4; do
    [ -e "$f" ] || continue
    base=$(basename "$(dirname "$f")")_$(basename "$f")
    cp "$f" "$corpus/$base"
    if [ "$target" = pipeline_file ]; then
        {
            printf 'janus-pipeline 1\nname %s\nsource %s\n' "$(basename "$f" .p4)" "$(wc -c <"$f")"
            cat "$f"
            printf '\np4info 0\n'
        } >"$corpus/pipeline_$base"
    fi
done

toolchain=${FUZZ_TOOLCHAIN:-}
if [ -z "$toolchain" ]; then
    if rustup run nightly rustc --version >/dev/null 2>&1; then
        toolchain=nightly
    else
        toolchain=stable
    fi
fi
if [ "$toolchain" = nightly ]; then
    cargo_cmd=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
    cargo_cmd=(cargo fuzz)
fi

cd "$here"
exec "${cargo_cmd[@]}" run "$target" "$corpus" -- \
    -max_total_time="$seconds" -timeout=10 -print_final_stats=1 "$@"
