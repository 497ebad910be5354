// Python's snapshot (runtime.startPython, as the sandbox's worker calls it): a page's first
// Python task boots CPython in full and snapshots its memory before anything else runs; every
// later task's worker restores that snapshot instead of booting. These tests hold it to the
// sandbox's promises: nothing one task does reaches the next, the hash seed stays 0, and a
// snapshot that does not restore, or restores wrong, costs only a full boot.
// tests/e2e/client.spec.ts shows the same isolation through the page's real sandbox.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { MAX_SNAPSHOT_BYTES } from "../../www/snippets/sandbox/runner.js";
import { bootPython, engine, pythons, runtime, withShadows } from "./harness.mjs";

const TASKS = JSON.parse(readFileSync(new URL("./preset-tasks.json", import.meta.url), "utf8"));

// A learner's client that leaves a trace in four places a next run could look.
const PLANT = `import builtins, os, sys

def start(node):
    builtins.lease_lab_leak = "run 1"
    sys.modules["lease_lab_leak"] = sys
    os.environ["LEASE_LAB_LEAK"] = "run 1"
    with open("/tmp/lease_lab_leak", "w") as f:
        f.write("run 1")

def reply(node, answer):
    pass

def timer(node, name):
    pass
`;

const TRACES = ["a builtins attribute", "a sys.modules entry", "an environment variable", "a file"];
/** Which of the plant's traces `pyodide` sees. */
function traces(pyodide) {
  const seen = pyodide.runPython(`import builtins, os, sys
[hasattr(builtins, "lease_lab_leak"), "lease_lab_leak" in sys.modules,
 "LEASE_LAB_LEAK" in os.environ, os.path.exists("/tmp/lease_lab_leak")]`).toJs();
  return TRACES.filter((_, i) => seen[i]);
}

/** Runs PLANT as a task does: compiled by the runtime, run by the lab's wasm on preset 1. */
function runPlant(pyodide) {
  const prepared = runtime.pythonClient(pyodide, PLANT);
  assert.equal(prepared.error, undefined);
  const report = withShadows(() => engine.run_client(TASKS["1"], prepared.make), { blockCrypto: false });
  assert.notEqual(report, "", "the lab read the task and gave a report");
}

const restore = (snapshot) => runtime.startPython(bootPython, { snapshot });
const HASHES = 'import sys; [sys.flags.hash_randomization, hash("lease lab"), hash(("A", 1)), list({"x", "y", "z"})]';

test("a later task restores the first task's snapshot: bounded, seeded 0, hashing as the full boot does", async () => {
  const { first, later } = await pythons();
  assert.equal(first.restored, false);
  assert.ok(first.snapshot instanceof Uint8Array);
  assert.ok(first.snapshot.byteLength <= MAX_SNAPSHOT_BYTES, `${first.snapshot.byteLength} bytes`);
  assert.equal(later.restored, true);
  assert.equal(later.snapshot, null, "a restored task makes no snapshot of its own");
  const full = first.pyodide.runPython(HASHES).toJs();
  assert.equal(full[0], 0);
  assert.deepEqual(later.pyodide.runPython(HASHES).toJs(), full);
});

test("nothing a task's code does is visible to the next task: builtins, sys.modules, environment, files", async () => {
  const { first } = await pythons();
  const snapshot = first.snapshot;
  // Run 1 as a page's first task: in the interpreter that made the snapshot, after it did.
  runPlant(first.pyodide);
  assert.deepEqual(traces(first.pyodide), TRACES, "run 1 left every trace where it ran");
  // Run 2 as the next task: a fresh interpreter from the page's snapshot.
  const second = await restore(snapshot);
  assert.equal(second.restored, true);
  assert.deepEqual(traces(second.pyodide), []);
  // And from one restored task to the next.
  runPlant(second.pyodide);
  assert.deepEqual(traces(second.pyodide), TRACES);
  const third = await restore(snapshot);
  assert.equal(third.restored, true);
  assert.deepEqual(traces(third.pyodide), []);
  // The probe can fail: a snapshot taken after run 1 (what the page refuses, worker.js never
  // sends) carries run 1's traces into the next task, all but the file (Emscripten's file
  // system lives in JavaScript, outside the memory a snapshot copies).
  const afterRun = await restore(first.pyodide.makeMemorySnapshot());
  assert.equal(afterRun.restored, true);
  assert.deepEqual(traces(afterRun.pyodide), TRACES.slice(0, 3));
});

test("a snapshot that does not restore, or restores with another hash seed, falls back to a full boot", async () => {
  // Another hash seed: restores, and is refused for it (reports must not depend on the snapshot).
  const seeded = await bootPython({ env: { PYTHONHASHSEED: "1" }, _makeSnapshot: true });
  const wrongSeed = seeded.makeMemorySnapshot();
  for (const [what, snapshot] of [["garbage", new Uint8Array(4096).fill(7)], ["hash seed 1", wrongSeed]]) {
    const started = await restore(snapshot);
    assert.equal(started.restored, false, what);
    assert.equal(started.pyodide.runPython("import sys; sys.flags.hash_randomization"), 0, what);
    assert.equal(started.pyodide.runPython("6 * 7"), 42, what);
  }
});
