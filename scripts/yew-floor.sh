#!/usr/bin/env bash
# The bytes a hydrating Yew page costs before any of the lesson's code or text: builds
# scripts/yew-floor (one component, one click) as the lesson's module is built (opt-level z,
# wasm-bindgen --weak-refs, wasm-opt -Oz), with and without hydration, and prints gzip -9 sizes
# (KB = 1024 bytes, as in scripts/size.mjs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/target/yew-floor"
mkdir -p "$out"
gz() { gzip -9c "$1" | wc -c; }
for variant in hydration csr; do
  features=()
  [ "$variant" = csr ] && features=(--no-default-features)
  CARGO_TARGET_DIR="$out/cargo" cargo build --quiet --release --target wasm32-unknown-unknown \
    --manifest-path "$root/scripts/yew-floor/Cargo.toml" "${features[@]}"
  wasm-bindgen --target web --weak-refs --out-dir "$out/$variant" \
    "$out/cargo/wasm32-unknown-unknown/release/yew-floor.wasm"
  wasm-opt -Oz "$out/$variant/yew-floor_bg.wasm" -o "$out/$variant/opt.wasm"
  wasm=$(gz "$out/$variant/opt.wasm")
  js=$(gz "$out/$variant/yew-floor.js")
  awk -v v="$variant" -v w="$wasm" -v j="$js" 'BEGIN {
    printf "%-9s wasm %6.1f KB gzip, JS %5.1f KB gzip, together %6.1f KB\n", v, w / 1024, j / 1024, (w + j) / 1024 }'
done
