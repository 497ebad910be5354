// One lab task ("Your client", issue 21), inside a fresh classic worker that the sandbox
// iframe makes from a blob: URL. It loads the engine, the client runtime and the lab's wasm
// from bytes the page handed in, runs one task, and is then terminated by the page: a worker
// is never reused.
//
// Every message is one JSON string, the iframe relaying strings within a byte budget, but
// one: a Python worker asked for a snapshot posts it as an ArrayBuffer while it loads.
// Messages: "loaded" (all is up; `restored`: Python came from the page's snapshot),
// "started" (user code begins), "progress" during a search, and one ending, "result" or
// "failed". Before user code runs, postMessage is taken away from it, and the page still
// trusts each message only once and only in its phase.
//
// Everything is inside one function, so that no name here (post, send, fail...) is a global
// that user code could call: top-level declarations of a classic script are.
(() => {
"use strict";

// The runtime's own references, taken before any user code runs: user code may replace the
// globals (and a lab's runtime shadows the clocks), never these.
const post = self.postMessage.bind(self);
const stringify = JSON.stringify;
const realNow = performance.now.bind(performance);
const send = (message) => post(stringify(message));

// An error's text is bounded (an error can quote a value).
const MAX_ERROR_CHARS = 20_000;

const bounded = (text) => (text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…\n` : text);

/** The learner's code did not compile or start: its error, on its line. */
function fail(text, line) {
  send({ type: "failed", text: bounded(text), line });
}

/** The worker itself cannot go on: why (the page words it) and the error's own text. */
function failBecause(why, error) {
  send({ type: "failed", why, detail: show(error).slice(0, MAX_ERROR_CHARS) });
}

function blobUrl(bytes, type) {
  return URL.createObjectURL(new Blob([bytes], { type }));
}

// Pyodide fetches its wasm and stdlib by URL; in this opaque origin every fetch is
// cross-origin and blocked, so a shim answers those two names from the handed-in bytes.
// CPython starts from the page's snapshot when it handed one in (runtime.startPython).
async function loadPython({ files, modules, makeSnapshot }, runtime) {
  const { loadPyodide } = await import(blobUrl(files["pyodide.mjs"], "text/javascript"));
  const asm = await import(blobUrl(files["pyodide.asm.mjs"], "text/javascript"));
  const base = "https://engine.invalid/";
  const served = new Map([
    [base + "pyodide.asm.wasm", ["application/wasm", files["pyodide.asm.wasm"]]],
    [base + "python_stdlib.zip", ["application/zip", files["python_stdlib.zip"]]],
  ]);
  const lockFileContents = new TextDecoder().decode(files["pyodide-lock.json"]);
  const networkFetch = self.fetch;
  self.fetch = async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const file = served.get(url);
    if (!file) throw new TypeError(`The sandbox has no network: ${url}`);
    return new Response(file[1], { headers: { "Content-Type": file[0] } });
  };
  // The iframe's module of the wasm (from the same bytes), instantiated as it is: this worker
  // compiles nothing. Should that fail, Pyodide compiles its wasm as usual.
  const { instantiateStreaming } = WebAssembly;
  const module = modules?.["pyodide.asm.wasm"];
  if (module instanceof WebAssembly.Module) {
    WebAssembly.instantiateStreaming = async (response, imports) => {
      try {
        return { module, instance: await WebAssembly.instantiate(module, imports) };
      } catch {
        return instantiateStreaming(response, imports);
      }
    };
  }
  let started;
  try {
    const boot = (options) =>
      loadPyodide({ indexURL: base, createPyodideModule: asm.default, lockFileContents, stdLibURL: base + "python_stdlib.zip", ...options });
    started = await runtime.startPython(boot, { snapshot: files["python-snapshot"], makeSnapshot: makeSnapshot === true });
  } finally {
    self.fetch = networkFetch;
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
  // Copied into the interpreter's memory. Pyodide's config keeps a reference to it, so the
  // buffer is emptied (handed to a clone left to the collector), not only dropped.
  const handed = files["python-snapshot"];
  if (handed) structuredClone(handed, { transfer: [handed] });
  const { pyodide, snapshot } = started;
  // Posted now, before any learner code can run: the memory of an interpreter that ran
  // nothing else (in a buffer of its own, handed over). The page keeps it as bytes for the
  // next tasks' workers.
  if (snapshot) post(snapshot.buffer, [snapshot.buffer]);
  return {
    restored: started.restored,
    // Compiles the client once (a syntax error comes back as {error}); instances come later.
    prepareLab: async (runtime, code) => runtime.pythonClient(pyodide, code),
    shadow: (runtime) => runtime.installJsShadows(self, { blockCrypto: false }),
  };
}

function show(value) {
  if (typeof value === "string") return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

async function loadTypeScript({ files }) {
  importScripts(blobUrl(files["sucrase.js"], "text/javascript"));
  // The client's code becomes one module, imported once, whose default export makes a fresh
  // instance per call (see wrapTypeScript in client-runtime.js). Importing it runs none of it.
  const prepareLab = async (runtime, code) => {
    const prepared = runtime.prepareTypeScript(self.sucrase, code);
    if (prepared.error) return prepared;
    const url = blobUrl(prepared.text, "text/javascript");
    try {
      const module = await import(url);
      return { make: runtime.typeScriptClient(module.default, url) };
    } catch (error) {
      // What sucrase lets through and the engine refuses (an await outside async, say).
      return { error: { text: `${show(error)}\n`, line: 0 } };
    }
  };
  return { prepareLab, shadow: (runtime) => runtime.installJsShadows(self) };
}

// Besides the engine, the client runtime (first: it starts Python) and the lab's own wasm
// (client_worker, built by Trunk for the web target), both from bytes the page handed in.
function loadRuntime(files) {
  importScripts(blobUrl(files["client-runtime.js"], "text/javascript"));
  const runtime = self.LeaseLabClientRuntime;
  delete self.LeaseLabClientRuntime;
  return runtime;
}

async function loadLab(files, runtime) {
  const engine = await import(blobUrl(files["client_worker.js"], "text/javascript"));
  await engine.default({ module_or_path: files["client_worker_bg.wasm"] });
  // The codes and limits of a call are the engine's own (src/lab/own_client/wire.rs).
  const table = engine.wire();
  runtime.connect(table);
  return { runtime, engine, topLevel: Number.isSafeInteger(table.topLevel) ? table.topLevel : -1 };
}

// Learner code shares this realm with the lab's wasm, whose report comes back as a string
// through wasm-bindgen's glue (a TextDecoder over a Uint8Array of the wasm's memory). What
// that path uses is frozen before user code runs, so code cannot rewrite the report on its
// way out; the report's JSON quoting uses `stringify`, taken earlier. The page re-checks
// every run anyway.
function harden() {
  const typedArray = Object.getPrototypeOf(Uint8Array.prototype);
  for (const object of [TextDecoder.prototype, TextEncoder.prototype, typedArray, Uint8Array.prototype, WebAssembly.Memory.prototype, ArrayBuffer.prototype]) {
    Object.freeze(object);
  }
  for (const name of ["TextDecoder", "TextEncoder", "Uint8Array", "WebAssembly"]) {
    Object.defineProperty(self, name, { writable: false, configurable: false });
  }
}

/** Runs one lab task and posts its report, unread, or why there is none. */
async function runLab(ready, lab, task) {
  const searching = task.task === "search";
  const call = { client: "", mono: 0 };
  // A run's printed lines go out as they are printed, each with the call it came from; the
  // page keeps them for a run that never ends (the report has them otherwise).
  if (!searching) {
    lab.runtime.tapOutput((line) =>
      post(`{"type":"printed","client":${stringify(call.client)},"mono":${call.mono},"line":${stringify(String(line))}}`),
    );
  }
  const prepared = await ready.prepareLab(lab.runtime, task.code);
  if (prepared.error) return fail(prepared.error.text, prepared.error.line);
  ready.shadow(lab.runtime);
  // Before every run of the code: the iframe passes on only the latest, a few times a
  // second, so when a plan never ends the page still learns which one it was.
  const progress = (ran, shrinking) => {
    const count = typeof ran === "number" && ran >= 0 ? Math.floor(ran) : 0;
    post(`{"type":"progress","ran":${count},"shrinking":${shrinking === true}}`);
  };
  let report;
  const started = realNow();
  try {
    report = searching
      ? lab.engine.search_client(task.link, task.search ?? "", prepared.make, progress)
      : lab.engine.run_client(task.link, telling(prepared.make, call, lab.topLevel));
  } catch (error) {
    return failBecause("labFailed", error);
  }
  const ms = Math.round(realNow() - started);
  post(`{"type":"result","json":${stringify(typeof report === "string" ? report : "")},"ms":${ms}}`);
}

/**
 * `make`, which says when it makes a client (with the code `topLevel`: the client's file's
 * top-level code runs then), and whose instances say which handler they are about to call,
 * before each call (a run's calls only: a search makes far too many). The iframe passes on only the latest, a
 * few times a second, so when a call never returns the page can say which one it was. The
 * codes are the engine's: the page reads them against the same table. `call` is kept at the
 * client and clock of the call going on, for the lines it prints.
 */
function telling(make, call, topLevel) {
  return new Proxy(make, {
    apply(target, self, args) {
      const letter = String(args[0]);
      const client = stringify(letter);
      call.client = letter;
      call.mono = 0;
      // Making a client runs its file's top-level code, which can hang too.
      post(`{"type":"progress","call":{"client":${client},"kind":${topLevel},"x":0,"timer":null,"mono":0}}`);
      const instance = Reflect.apply(target, self, args);
      if (!instance || typeof instance !== "object") return instance;
      return {
        handle(kind, mono, wall, x, y, z) {
          call.client = letter;
          call.mono = mono;
          const timer = make.timerName(x);
          const name = typeof timer === "string" ? stringify(timer) : "null";
          post(`{"type":"progress","call":{"client":${client},"kind":${kind},"x":${x},"timer":${name},"mono":${mono}}}`);
          return instance.handle(kind, mono, wall, x, y, z);
        },
        last: () => instance.last(),
      };
    },
  });
}

// An error thrown later, outside any handler call (a promise the code did not await), goes
// nowhere: it is not the task's ending, which the report or "failed" already is.
self.addEventListener("error", (event) => event.preventDefault());
self.addEventListener("unhandledrejection", (event) => event.preventDefault());

// User code could post look-alike control messages; what it finds as postMessage now posts
// nothing at all (a stand-in, so code that calls it runs on as before).
function takePostMessageAway() {
  for (let scope = Object.getPrototypeOf(self); scope; scope = Object.getPrototypeOf(scope)) {
    if (Object.hasOwn(scope, "postMessage")) delete scope.postMessage;
  }
  Object.defineProperty(self, "postMessage", { value: () => {}, writable: false, configurable: false });
}

const loaders = { python: loadPython, typescript: loadTypeScript };
let loading = null;
let started = false;

// The runtime first (it starts Python), then the engine, then the lab's wasm.
async function load(init) {
  const runtime = loadRuntime(init.files);
  const ready = await loaders[init.language](init, runtime);
  return [ready, await loadLab(init.files, runtime)];
}

self.onmessage = ({ data }) => {
  if (data.type === "init" && !loading) {
    loading = load(data);
    // "loaded" once the engine, the runtime and the lab's wasm all are.
    loading.then(
      ([ready]) => send({ type: "loaded", restored: ready.restored }),
      (error) => failBecause("engineDidNotLoad", error),
    );
  } else if (data.type === "lab" && loading && !started) {
    started = true;
    loading.then(async ([ready, lab]) => {
      takePostMessageAway();
      harden();
      send({ type: "started" });
      await runLab(ready, lab, data);
    });
  }
};
})();
