#!/usr/bin/env bash
# Runs every test layer in order, stopping at the first failure, and ends with one summary
# line per layer. Logs go to artifacts/logs/. Called by `make test` (tools already set up).
set -euo pipefail
cd "$(dirname "$0")/.."

logs=artifacts/logs
mkdir -p "$logs"
summary=()
passed_total=0

timings=()
run_layer() { # name, command...
  local name=$1 began=$SECONDS
  shift
  echo "==> $name: $*"
  if ! "$@" 2>&1 | tee "$logs/$name.log"; then
    summary+=("$name: FAILED (see $logs/$name.log)")
    printf '%s\n' "${summary[@]}"
    exit 1
  fi
  timings+=("$name $((SECONDS - began)) s")
}

# Adds up libtest's "test result: ok. N passed; M failed" lines (native and wasm runners).
count_cargo() {
  awk '/test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
       END { printf "%d passed, %d failed", p, f }' "$logs/$1.log"
}

run_layer fmt cargo fmt --check
summary+=("fmt: clean")
run_layer clippy-native cargo clippy --all-targets -- -D warnings
summary+=("clippy (native): no warnings")
run_layer clippy-wasm cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings
summary+=("clippy (wasm32): no warnings")
# The views compiled natively for the prerenderer (src/bin/prerender.rs).
run_layer clippy-prerender cargo clippy --features prerender --lib --bin prerender -- -D warnings
summary+=("clippy (native prerenderer): no warnings")

run_layer native-tests cargo test
summary+=("native tests: $(count_cargo native-tests)")

export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
# wasm-bindgen-test-runner takes GECKODRIVER over CHROMEDRIVER when both are set, so each
# layer leaves the other's driver out.
run_layer wasm-tests env -u GECKODRIVER cargo test --target wasm32-unknown-unknown --test 'wasm_*'
summary+=("wasm tests (headless Chromium): $(count_cargo wasm-tests)")
# The same tests in Debian's Firefox ESR through geckodriver.
run_layer wasm-tests-firefox env -u CHROMEDRIVER GECKODRIVER="${GECKODRIVER:-$HOME/.cargo/bin/geckodriver}" \
  cargo test --target wasm32-unknown-unknown --test 'wasm_*'
summary+=("wasm tests (headless Firefox ESR): $(count_cargo wasm-tests-firefox)")

run_layer release-build trunk build --release
summary+=("release build: dist/ ($(du -sh dist | cut -f1))")

# The SCORM packages of that build, their manifests against the ADL schemas (xmllint), and
# the course bridge's arithmetic; the end-to-end tests launch the packages.
run_layer package node tools/package.mjs dist packages
run_layer course-tests node --test tests/course/
summary+=("course packages: $(grep -Eo '^# pass [0-9]+' "$logs/course-tests.log" | tr -dc 0-9) passed, 0 failed (packages/*.zip)")

# The learner's own client runtime (www/snippets/sandbox/client-runtime.js) in Node, with
# Pyodide from www/vendor (which the build above made).
run_layer client-runtime node --test tests/sandbox/
summary+=("client runtime (Node, Pyodide): $(grep -Eo '^# pass [0-9]+' "$logs/client-runtime.log" | tr -dc 0-9) passed, 0 failed")

run_layer e2e npx playwright test -c tests/e2e
e2e_passed=$(grep -Eo '^ +[0-9]+ passed' "$logs/e2e.log" | tail -1 | tr -dc 0-9)
summary+=("end-to-end (Playwright, headless Chromium): ${e2e_passed:-0} passed, 0 failed")

# The same build in Debian's Firefox ESR over WebDriver BiDi (puppeteer-core), one test at a
# time; node's test runner exits non-zero when one fails.
export FIREFOX=${FIREFOX:-/usr/bin/firefox-esr}
run_layer firefox node --test --test-concurrency=1 --test-reporter=tap tests/firefox/
ff_passed=$(awk '/^# pass / { print $3 }' "$logs/firefox.log")
ff_failed=$(awk '/^# fail / { print $3 }' "$logs/firefox.log")
summary+=("end-to-end (puppeteer-core, headless Firefox ESR): ${ff_passed:-0} passed, ${ff_failed:-0} failed")

echo
echo "Summary"
printf '  %s\n' "${summary[@]}"
for line in "${summary[@]}"; do
  n=$(grep -Eo '[0-9]+ passed' <<<"$line" | tr -dc 0-9 || true)
  passed_total=$((passed_total + ${n:-0}))
done
echo "all layers: $passed_total passed, 0 failed"
# Wall time per layer, compiling included (cold or warm caches make the difference).
echo "time per layer: $(IFS=,; echo "${timings[*]}" | sed 's/,/, /g'); in all $SECONDS s"
