// What the sandbox's worker (www/snippets/sandbox/worker.js) sets up before it runs a client,
// done the same way in Node: the client runtime connected to the lab's engine (from dist/,
// which the release build made), sucrase and Pyodide from www/vendor (started by the
// runtime's startPython, from a snapshot as the worker does), a learner's TypeScript imported
// once as a module, and the runtime's clock shadows.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import vm from "node:vm";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const runtimeSource = readFileSync(join(ROOT, "www/snippets/sandbox/client-runtime.js"), "utf8");
// In this realm (results compare as plain objects), with `self` as the worker's scope.
const scope = {};
vm.runInThisContext(`(function (self) {\n${runtimeSource}\n})`)(scope);
export const runtime = scope.LeaseLabClientRuntime;

// The lab's engine as the worker loads it (the release build's client_worker), connected to
// the runtime: the codes and limits of a call are the engine's (src/lab/own_client/wire.rs).
export const engine = await import(pathToFileURL(join(ROOT, "dist/client_worker.js")).href);
await engine.default({ module_or_path: readFileSync(join(ROOT, "dist/client_worker_bg.wasm")) });
export const wire = engine.wire();
runtime.connect(wire);

// sucrase as the worker has it (www/vendor is made by tools/vendor.mjs), else from npm.
let sucrase;
try {
  const box = {};
  vm.runInNewContext(`${readFileSync(join(ROOT, "www/vendor/sucrase.js"), "utf8")}; this.sucrase = sucrase;`, box);
  sucrase = box.sucrase;
} catch {
  sucrase = (await import("sucrase")).default ?? (await import("sucrase"));
}

const dir = mkdtempSync(join(tmpdir(), "client-runtime-"));
// The imported modules are done with when the test file's process ends.
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
let modules = 0;

/** The worker's steps for TypeScript: sucrase, wrap, import once; the runtime's `make`. */
export async function typeScriptClient(code) {
  const prepared = runtime.prepareTypeScript(sucrase, code);
  if (prepared.error) return prepared;
  const file = join(dir, `client${(modules += 1)}.mjs`);
  writeFileSync(file, prepared.text);
  const url = pathToFileURL(file).href;
  const module = await import(url);
  return { make: runtime.typeScriptClient(module.default, url) };
}

const PYODIDE = join(ROOT, "www/vendor/pyodide/");
/** Pyodide's loadPyodide with the engine's files given, as the worker's `boot`. */
export async function bootPython(options) {
  const { loadPyodide } = await import(pathToFileURL(join(PYODIDE, "pyodide.mjs")).href);
  const asm = await import(pathToFileURL(join(PYODIDE, "pyodide.asm.mjs")).href);
  return loadPyodide({
    indexURL: PYODIDE,
    createPyodideModule: asm.default,
    lockFileContents: readFileSync(join(PYODIDE, "pyodide-lock.json"), "utf8"),
    ...options,
  });
}

let first;
let later;
/**
 * CPython as the sandbox's tasks get it (runtime.startPython, as the worker calls it): `first`
 * as a page's first task, a full boot that made the snapshot; `later` as each later task,
 * restored from that snapshot. Each is { pyodide, restored, snapshot }; one of each per file.
 */
export function pythons() {
  first ??= runtime.startPython(bootPython, { makeSnapshot: true });
  later ??= first.then(({ snapshot }) => runtime.startPython(bootPython, { snapshot }));
  return Promise.all([first, later]).then(([first, later]) => ({ first, later }));
}

/** The interpreter most tasks run in: restored from the snapshot. */
export async function pyodide() {
  return (await pythons()).later.pyodide;
}

/** Runs `fn` with the worker's shadows installed on this process's globals, then undoes them. */
export function withShadows(fn, options) {
  const saved = {
    Date: globalThis.Date,
    random: Math.random,
    setTimeout: globalThis.setTimeout,
    setInterval: globalThis.setInterval,
    network: Object.fromEntries(["fetch", "XMLHttpRequest", "WebSocket", "EventSource"].filter((name) => name in globalThis).map((name) => [name, globalThis[name]])),
    console: { ...console },
    format: Object.getOwnPropertyDescriptor(Intl.DateTimeFormat.prototype, "format"),
    formatToParts: Object.getOwnPropertyDescriptor(Intl.DateTimeFormat.prototype, "formatToParts"),
    dateConstructor: Object.getOwnPropertyDescriptor(Date.prototype, "constructor"),
    timeStamp: Object.getOwnPropertyDescriptor(Event.prototype, "timeStamp"),
  };
  try {
    runtime.installJsShadows(globalThis, options);
    return fn();
  } finally {
    globalThis.Date = saved.Date;
    Math.random = saved.random;
    globalThis.setTimeout = saved.setTimeout;
    globalThis.setInterval = saved.setInterval;
    Object.assign(globalThis, saved.network);
    Object.assign(console, saved.console);
    delete performance.now;
    delete performance.timeOrigin;
    for (const name of ["mark", "measure", "getEntries", "getEntriesByName", "getEntriesByType", "toJSON"]) delete performance[name];
    Object.defineProperty(Date.prototype, "constructor", saved.dateConstructor);
    Object.defineProperty(Event.prototype, "timeStamp", saved.timeStamp);
    Object.defineProperty(Intl.DateTimeFormat.prototype, "format", saved.format);
    Object.defineProperty(Intl.DateTimeFormat.prototype, "formatToParts", saved.formatToParts);
    delete crypto.getRandomValues;
    delete crypto.randomUUID;
  }
}
