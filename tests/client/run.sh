#!/bin/sh
# Differential check of the reference clients against the built-in Prefer client, natively:
#   tests/client/run.sh [seed] [count]
# Runs the same random scenarios through LeaseClient (mirror.rs), reference.ts and
# reference.py, with the wall clock of the fake lab stepped back 8 s at 4 s (the references
# must not notice), and fails on any difference. Needs cargo, node with node_modules/sucrase,
# python3. A known limit of the contract (a deadline already behind when armed fires at once,
# see the README's "Your client") can show up as a rare difference after a pause.
set -eu
cd "$(dirname "$0")/../.."
seed=${1:-1}; count=${2:-3000}; tmp=$(mktemp -d)
trap 'rm -rf "$tmp" tests/client_mirror_run.rs' EXIT
python3 tests/client/gen.py "$seed" "$count" > "$tmp/in.txt"
cp tests/client/mirror.rs tests/client_mirror_run.rs
MIRROR_IN="$tmp/in.txt" MIRROR_OUT="$tmp/builtin.txt" cargo test -q --test client_mirror_run >/dev/null
export WALL_STEP=4000000,-8000000
node tests/client/drive.cjs www/snippets/client/reference.ts "$tmp/in.txt" "$tmp/ts.txt"
python3 tests/client/drive.py www/snippets/client/reference.py "$tmp/in.txt" "$tmp/py.txt"
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
runs = {k: open(f"{d}/{k}.txt").read().split("--\n") for k in ("builtin", "ts", "py")}
lines = open(f"{d}/in.txt").read().split("\n")
bad = 0
for k in ("ts", "py"):
    diff = [i for i, (a, b) in enumerate(zip(runs["builtin"], runs[k])) if a != b]
    bad += len(diff)
    print(f"reference.{k}: {len(runs[k]) - 1} scenarios, {len(diff)} differ from the built-in client")
    for i in diff[:3]:
        print("  scenario:", lines[i][:120])
sys.exit(1 if bad else 0)
PY
