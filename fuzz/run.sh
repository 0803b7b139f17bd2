#!/usr/bin/env bash
# Seeds the corpus of a fuzz target and runs it for a while.
#
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#
# TARGET is one of: frontend, frontend_timing, frontend_structured,
# pipeline_file, pcap, stf, packet, frame, p4runtime, journal.
# frontend_timing finds inputs whose time per byte grows super-linearly
# (see fuzz_targets/frontend_timing.rs); it is built without a sanitizer,
# so that times are the front end's own, and gets inputs of at most 1 KiB
# (the sizes it judges).
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

# The pcap target starts from small valid captures: a classic pcap file
# (little-endian, microseconds, Ethernet) with one 14-byte frame, and the same
# frame as pcapng (section header, interface description, enhanced packet).
if [ "$target" = pcap ]; then
    printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\0\0\0\0\0\0\0\0\xff\xff\0\0\x01\0\0\0' >"$corpus/seed.pcap"
    printf '\x01\0\0\0\x02\0\0\0\x0e\0\0\0\x0e\0\0\0' >>"$corpus/seed.pcap"
    printf '\xff\xff\xff\xff\xff\xff\x02\0\0\0\0\x01\x08\x00' >>"$corpus/seed.pcap"
    {
        printf '\x0a\x0d\x0d\x0a\x1c\0\0\0\x4d\x3c\x2b\x1a\x01\0\0\0\xff\xff\xff\xff\xff\xff\xff\xff\x1c\0\0\0'
        printf '\x01\0\0\0\x14\0\0\0\x01\0\0\0\0\0\x04\0\x14\0\0\0'
        printf '\x06\0\0\0\x30\0\0\0\0\0\0\0\0\0\0\0\x01\0\0\0\x0e\0\0\0\x0e\0\0\0'
        printf '\xff\xff\xff\xff\xff\xff\x02\0\0\0\0\x01\x08\x00\0\0\x30\0\0\0'
    } >"$corpus/seed.pcapng"
fi

# The packet target starts from the frames of the shipped STF tests, each
# behind a selector byte (program 0, port 1).
if [ "$target" = packet ]; then
    rm -f "$corpus"/*.p4
    i=0
    for f in "$here"/../p4/examples/*.stf "$tests"/valid/*.stf; do
        [ -e "$f" ] || continue
        grep '^packet ' "$f" | while read -r _ port hex; do
            i=$((i + 1))
            printf '%s' "10$(echo "$hex" | tr -d ' ')" | xxd -r -p >"$corpus/$(basename "$f")_${i}_$RANDOM"
        done
    done
fi

# The frame target starts from the same frames, without the selector byte.
if [ "$target" = frame ]; then
    rm -f "$corpus"/*.p4
    for f in "$here"/../p4/examples/*.stf "$tests"/valid/*.stf; do
        [ -e "$f" ] || continue
        grep '^packet ' "$f" | while read -r _ port hex; do
            printf '%s' "$(echo "$hex" | tr -d ' ')" | xxd -r -p >"$corpus/$(basename "$f")_$RANDOM"
        done
    done
fi

# The journal target starts from small inputs of both modes (see
# fuzz_targets/journal.rs): raw bytes (a journal's magic, a format-0
# record) and framed journals built from the rest of the input.
if [ "$target" = journal ]; then
    rm -f "$corpus"/*.p4
    printf '\x00JANUSJNL\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00' >"$corpus/raw_header"
    printf '\x00\x05\x00\x00\x00\x00\x00\x00\x00hello' >"$corpus/raw_format0"
    printf '\x01\x00\x10\x00\x07program\xff\x0a\x00\xff\xff' >"$corpus/framed_batches"
    printf '\x03\x02\x30\x00\x20p4\xff\x0a\x02\x08\x01\xffabc\xff' >"$corpus/framed_snapshot"
fi

if [ "$target" = stf ]; then
    cp "$here"/../sim/stf/tests/data/*.stf "$corpus"/ 2>/dev/null || true
fi

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

build_flags=()
fuzz_flags=()
if [ "$target" = frontend_timing ]; then
    build_flags=(--sanitizer none)
    fuzz_flags=(-max_len=1024)
fi

cd "$here"
exec "${cargo_cmd[@]}" run "${build_flags[@]}" "$target" "$corpus" -- \
    -max_total_time="$seconds" -timeout=10 -print_final_stats=1 "${fuzz_flags[@]}" "$@"
