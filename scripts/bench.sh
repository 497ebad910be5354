#!/usr/bin/env bash
# Model speed natively (divan, benches/model.rs) and in wasm (headless Chromium,
# tests/wasm_bench.rs), then the native/wasm ratio of checked 60-second scenarios per second;
# last, the sandbox's playback (long tasks during 30 s at 10×, tests/e2e/playback.bench.ts)
# in a release build, with one Playwright worker and nothing else running.
# On a shared machine both sides are noisy, so each summary runs three times and the best
# wall-clock rate counts. Called by `make bench`. Needs wasm-bindgen-test-runner,
# chromedriver, trunk and the npm packages on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner

echo "== native: divan (cargo bench --bench model)"
cargo bench --bench model

best_native=0
best_wasm=0
native_line=""
wasm_line=""
for round in 1 2 3; do
  # The summary alone (every divan benchmark filtered out), then the wasm harness.
  line="$(cargo bench -q --bench model -- no-divan-bench-has-this-name 2>/dev/null | grep -m1 '^native:')"
  rate="$(sed -n 's/.*wall-clock rate \([0-9]*\)\/s.*/\1/p' <<<"$line")"
  echo "round $round: $line"
  if (( rate > best_native )); then best_native=$rate; native_line=$line; fi

  # No -q here: cargo would pass --quiet to wasm-bindgen-test-runner, which refuses it.
  line="$(cargo test --release --features wasm-bench --target wasm32-unknown-unknown \
    --test wasm_bench -- --nocapture 2>&1 | grep -m1 '^wasm:')"
  rate="$(sed -n 's/.*events\/s, \([0-9]*\) checked.*/\1/p' <<<"$line")"
  echo "round $round: $line"
  if (( rate > best_wasm )); then best_wasm=$rate; wasm_line=$line; fi
done

echo
echo "== summary (best of 3; wasm is the release build that ships, opt-level z)"
echo "$native_line"
echo "$wasm_line"
awk -v n="$best_native" -v w="$best_wasm" 'BEGIN {
  printf "checked 60-s scenarios/s (wall clock): native %d (goal >= 50000), wasm %d; native/wasm = %.2fx (goal <= 1.5x)\n", n, w, n / w
}'

echo
echo "== playback: release build, then tests/e2e/playback.bench.ts alone (one worker)"
trunk build --release
npx playwright test -c tests/e2e/bench.config.ts
echo "playback figures (artifacts/perf/playback.json):"
cat artifacts/perf/playback.json
