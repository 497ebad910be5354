#!/usr/bin/env bash
# Model speed natively (divan, benches/model.rs) and in wasm (headless Chromium,
# tests/wasm_bench.rs), then the wasm/native ratio of checked 60-second scenarios per second.
# Called by `make bench`. Needs wasm-bindgen-test-runner and chromedriver on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner

native_line() { grep -m1 '^native:' "$1"; }
wall_rate() { sed -n 's/.*wall-clock rate \([0-9]*\)\/s.*/\1/p' <<<"$1"; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "== native (cargo bench --bench model)"
cargo bench --bench model | tee "$tmp/native1"

echo "== wasm (release build in headless Chromium)"
cargo test --release --features wasm-bench --target wasm32-unknown-unknown \
  --test wasm_bench -- --nocapture 2>&1 | tee "$tmp/wasm" | grep -E '^wasm:|test result'

# Measure natively once more right after wasm, so both sides saw similar machine load.
cargo bench --bench model -- --skip checked --skip traced >"$tmp/native2" 2>&1 || true

n1="$(native_line "$tmp/native1")"
n2="$(native_line "$tmp/native2" || echo "$n1")"
w="$(grep -m1 '^wasm:' "$tmp/wasm")"
native_wall=$(( ( $(wall_rate "$n1") + $(wall_rate "$n2") ) / 2 ))
wasm_rate="$(sed -n 's/.*events\/s, \([0-9]*\) checked.*/\1/p' <<<"$w")"

echo
echo "== summary"
echo "$n1"
echo "$w"
awk -v n="$native_wall" -v w="$wasm_rate" 'BEGIN {
  printf "checked scenarios/s (wall clock): native %d, wasm %d; native/wasm = %.2fx (goal <= 1.5x)\n", n, w, n / w
}'
