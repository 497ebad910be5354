// Both reference solutions (www/snippets/client/reference.{py,ts}) on every preset, through
// the lab's own wasm as the sandbox's worker loads it (dist/client_worker*, from the release
// build): each preset's report from the Python solution must be byte-equal to the
// TypeScript solution's. The page (tests/e2e/client.spec.ts) shows the TypeScript solution
// ending every preset as the built-in client does, and the Python one on a few presets in
// the real sandbox; together, every preset in both languages.
//
// The tasks are the presets' scenarios packed as the page packs them
// (tests/sandbox/preset-tasks.json; tests/own_client.rs keeps that file current).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, engine, runtime, typeScriptClient, pythons, withShadows } from "./harness.mjs";

const TASKS = JSON.parse(readFileSync(new URL("./preset-tasks.json", import.meta.url), "utf8"));
const code = (name) => readFileSync(join(ROOT, "www/snippets/client", name), "utf8");

/** `file` compiled in a task's interpreter: a later task's (restored) unless `first`. */
async function python(file, task = "later") {
  const prepared = runtime.pythonClient((await pythons())[task].pyodide, code(file));
  assert.equal(prepared.error, undefined, `${file} compiles`);
  return prepared.make;
}

async function typeScript(file) {
  const prepared = await typeScriptClient(code(file));
  assert.equal(prepared.error, undefined, `${file} compiles`);
  return prepared.make;
}

/** Each preset's packed report for the client `make` builds, run as the worker runs it. */
function reports(make, shadows) {
  return Object.fromEntries(
    Object.entries(TASKS).map(([id, task]) => [id, withShadows(() => engine.run_client(task, make), shadows)]),
  );
}

/** The presets on which two clients' reports differ. */
function differing(a, b) {
  return Object.keys(TASKS).filter((id) => a[id] !== b[id]);
}

const typeScriptReports = reports(await typeScript("reference.ts"));

test("every preset's task is read by the lab's wasm and gives a report", () => {
  assert.ok(Object.keys(TASKS).length >= 17);
  for (const [id, report] of Object.entries(typeScriptReports)) {
    assert.ok(report.length > 100, `preset ${id}: a report, not the empty refusal`);
  }
  // A report is the run's own: presets with different faults report differently.
  assert.notEqual(typeScriptReports["1"], typeScriptReports["2"]);
  assert.equal(engine.run_client("not a task", () => ({})), "");
});

test("Python's reference solution ends every preset exactly as TypeScript's does", async () => {
  // The worker shadows JavaScript's clocks for Python too, crypto left usable for Pyodide.
  const python_ = reports(await python("reference.py"), { blockCrypto: false });
  assert.deepEqual(differing(python_, typeScriptReports), []);
});

// A page's first Python task runs in the full boot that made the snapshot; every later one in
// an interpreter restored from it. Both give the same report bytes.
test("Python's first task, in the interpreter that made the snapshot, gives the same reports", async () => {
  assert.equal((await pythons()).later.restored, true, "later tasks' Python is restored from the snapshot");
  const python_ = reports(await python("reference.py", "first"), { blockCrypto: false });
  assert.deepEqual(differing(python_, typeScriptReports), []);
});

// The comparison can fail. The starter (renews on the wall clock, trusts the service to say
// when the lease is gone) matches the solution on "Healthy holder" and not on the write-path
// pause or the NTP step, as its opening comment says, in either language. (Elsewhere the two
// starters need not agree with each other: Python's time.time() has sub-millisecond digits
// where Date.now() has whole milliseconds, so their wall-clock timers differ slightly.)
test("the starter differs from the solution on the presets its comment names, in both languages", async () => {
  const starters = {
    Python: reports(await python("starter.py"), { blockCrypto: false }),
    TypeScript: reports(await typeScript("starter.ts")),
  };
  for (const [language, starter] of Object.entries(starters)) {
    const broken = differing(starter, typeScriptReports);
    assert.equal(broken.includes("1"), false, `${language}: the starter looks fine on preset 1`);
    assert.ok(broken.includes("2") && broken.includes("6"), `${language}: differs on 2 and 6, not only ${broken}`);
  }
});
