// Correct clients as learners write them, in styles the reference does not use
// (tests/sandbox/clients/): each must end every preset exactly as the TypeScript reference
// does, report byte for byte, through the lab's wasm as the sandbox's worker runs it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, engine, runtime, typeScriptClient, pyodide, withShadows } from "./harness.mjs";

const TASKS = JSON.parse(readFileSync(new URL("./preset-tasks.json", import.meta.url), "utf8"));
const read = (path) => readFileSync(join(ROOT, path), "utf8");

function reports(make, shadows) {
  return Object.fromEntries(
    Object.entries(TASKS).map(([id, task]) => [id, withShadows(() => engine.run_client(task, make), shadows)]),
  );
}

async function typeScript(code) {
  const prepared = await typeScriptClient(code);
  assert.equal(prepared.error, undefined, "compiles");
  return prepared.make;
}

/** A client's first error in any handler call, as the learner would read it, or null. */
function firstError(make, task) {
  let error = null;
  const watched = (letter, settings) => {
    const instance = make(letter, settings);
    return {
      handle(...args) {
        const r = instance.handle(...args);
        if (r < 0 && error === null) error = JSON.parse(instance.last()).error ?? null;
        return r;
      },
      last: () => instance.last(),
    };
  };
  for (const key of ["output", "newRun", "timerName", "timerId"]) watched[key] = (...args) => make[key](...args);
  withShadows(() => engine.run_client(task, watched), { blockCrypto: false });
  return error;
}

const reference = reports(await typeScript(read("www/snippets/client/reference.ts")));
const differing = (a) => Object.keys(TASKS).filter((id) => a[id] !== reference[id]);

test("TypeScript with classes, enums, a const enum, generics, satisfies and exports ends every preset as the reference", async () => {
  const make = await typeScript(read("tests/sandbox/clients/classes.ts"));
  assert.deepEqual(differing(reports(make)), []);
});

// A dataclass looks its module up in sys.modules (for string annotations, ClassVar and
// InitVar), so the learner's code must run as a module that is there.
test("Python with a dataclass, an Enum, a namedtuple and match ends every preset as the reference", async () => {
  const prepared = runtime.pythonClient(await pyodide(), read("tests/sandbox/clients/dataclass.py"));
  assert.equal(prepared.error, undefined, "compiles");
  assert.equal(firstError(prepared.make, TASKS["1"]), null);
  assert.deepEqual(differing(reports(prepared.make, { blockCrypto: false })), []);
});
