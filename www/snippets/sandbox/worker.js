// One snippet run or one lab task, inside a fresh classic worker that the sandbox iframe
// makes from a blob: URL. It loads the engine from bytes the page handed in, runs the
// learner's code once, and is then terminated by the page: a worker is never reused.
//
// Every message is one JSON string: the iframe relays strings only, within a byte budget.
// Control messages: "loaded" (engine up), "started" (user code begins), "output",
// "limit" (an output cap was reached), "finished" and "failed"; a lab task ("lab", issue 21)
// posts "progress" during a search and ends with "result" or "failed". Before user code
// runs, postMessage is taken away from it, and the page still trusts each control message
// only once and only in its phase.
//
// Everything is inside one function, so that no name here (post, send, fail...) is a global
// that user code could call: top-level declarations of a classic script are.
(() => {
"use strict";

const SNIPPET_FILE = { python: "snippet.py", typescript: "snippet.ts" };
// Lines go out one by one at first, then in timed batches, so a print loop cannot flood the page.
const UNBATCHED_POSTS = 300;
const BATCH_MS = 40;

// The runtime's own references, taken before any user code runs: user code may replace the
// globals (and a lab's runtime shadows the clocks), never these.
const post = self.postMessage.bind(self);
const stringify = JSON.stringify;
const realNow = performance.now.bind(performance);
const send = (message) => post(stringify(message));

// Output is capped here, where it is produced, in UTF-8 bytes and lines; the caps come
// from the page with "init". Past a cap nothing more is kept and the page stops the run.
const output = {
  limits: { totalBytes: 0, bytesPerSecond: 0, lines: 0 },
  scratch: new Uint8Array(0),
  encoder: new TextEncoder(),
  bytes: 0,
  lines: 0,
  windowStart: 0,
  windowBytes: 0,
  reached: null,
};
let posts = 0;
let lastPost = 0;
const pending = { stdout: "", stderr: "" };

function flush() {
  for (const stream of ["stdout", "stderr"]) {
    if (pending[stream]) {
      send({ type: "output", stream, text: pending[stream] });
      pending[stream] = "";
      posts += 1;
    }
  }
  lastPost = performance.now();
}

/** How much of `text` fits under the caps, and which cap it meets if not all of it. */
function admit(text) {
  const { limits, encoder } = output;
  const now = performance.now();
  if (now - output.windowStart >= 1000) {
    output.windowStart = now;
    output.windowBytes = 0;
  }
  const totalRoom = Math.max(0, limits.totalBytes - output.bytes);
  const rateRoom = Math.max(0, limits.bytesPerSecond - output.windowBytes);
  // encodeInto stops when the buffer is full, so a huge string costs only what fits. A write
  // that passes the total ends the run there; otherwise one that passes the rate does.
  let { read, written } = encoder.encodeInto(text, output.scratch.subarray(0, totalRoom));
  let reached = read < text.length ? "totalBytes" : null;
  if (!reached && written > rateRoom) {
    ({ read, written } = encoder.encodeInto(text, output.scratch.subarray(0, rateRoom)));
    reached = "bytesPerSecond";
  }
  let kept = text.slice(0, read);
  let bytes = written;
  const linesRoom = limits.lines - output.lines;
  let newlines = 0;
  let cut = linesRoom <= 0 ? 0 : -1;
  for (let at = kept.indexOf("\n"); cut === -1 && at !== -1; at = kept.indexOf("\n", at + 1)) {
    newlines += 1;
    if (newlines === linesRoom) cut = at + 1;
  }
  if (cut !== -1 && cut < kept.length) {
    kept = kept.slice(0, cut);
    bytes = encoder.encode(kept).length;
    reached = "lines";
  }
  output.bytes += bytes;
  output.windowBytes += bytes;
  output.lines += newlines;
  return { kept, reached };
}

function write(stream, text) {
  if (output.reached) return;
  const { kept, reached } = admit(text);
  pending[stream] += kept;
  if (reached) {
    output.reached = reached;
    flush();
    send({ type: "limit", limit: reached });
  } else if (posts < UNBATCHED_POSTS || performance.now() - lastPost >= BATCH_MS) {
    flush();
  }
}

// An error's text is not output, but it is bounded all the same (an error can quote a value).
const MAX_ERROR_CHARS = 20_000;

function fail(text, line) {
  flush();
  const shown = text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…\n` : text;
  send({ type: "failed", text: shown, line });
}

function blobUrl(bytes, type) {
  return URL.createObjectURL(new Blob([bytes], { type }));
}

// Pyodide fetches its wasm and stdlib by URL; in this opaque origin every fetch is
// cross-origin and blocked, so a shim answers those two names from the handed-in bytes.
async function loadPython(files, lab) {
  const { loadPyodide } = await import(blobUrl(files["pyodide.mjs"], "text/javascript"));
  const asm = await import(blobUrl(files["pyodide.asm.mjs"], "text/javascript"));
  const base = "https://engine.invalid/";
  const served = new Map([
    [base + "pyodide.asm.wasm", ["application/wasm", files["pyodide.asm.wasm"]]],
    [base + "python_stdlib.zip", ["application/zip", files["python_stdlib.zip"]]],
  ]);
  const networkFetch = self.fetch;
  self.fetch = async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const file = served.get(url);
    if (!file) throw new TypeError(`The sandbox has no network: ${url}`);
    return new Response(file[1], { headers: { "Content-Type": file[0] } });
  };
  let pyodide;
  try {
    pyodide = await loadPyodide({
      indexURL: base,
      createPyodideModule: asm.default,
      lockFileContents: new TextDecoder().decode(files["pyodide-lock.json"]),
      stdLibURL: base + "python_stdlib.zip",
      // A lab run must give the same result every time, sets of strings included.
      ...(lab ? { env: { PYTHONHASHSEED: "0" } } : {}),
    });
  } finally {
    self.fetch = networkFetch;
  }
  // Raw bytes as Python writes them (line-buffered, as on a terminal), so a long line
  // without a newline reaches the caps too instead of piling up inside the engine.
  for (const [stream, setter] of [["stdout", "setStdout"], ["stderr", "setStderr"]]) {
    const decoder = new TextDecoder();
    pyodide[setter]({
      isatty: true,
      write: (bytes) => {
        write(stream, decoder.decode(bytes, { stream: true }));
        return bytes.length;
      },
    });
  }
  // A snippet has no keyboard: input() says so plainly, and stdin reads as empty (by default
  // Pyodide would ask the page, which a worker cannot, and fail with an I/O error).
  pyodide.setStdin({ stdin: () => null });
  pyodide.runPython(NO_INPUT);
  return {
    async run(code) {
      try {
        await pyodide.runPythonAsync(code, { filename: SNIPPET_FILE.python });
        return null;
      } catch (error) {
        return describePythonError(String(error.message ?? error));
      }
    },
    // Compiles the client once (a syntax error comes back as {error}); instances come later.
    prepareLab: async (runtime, code) => runtime.pythonClient(pyodide, code),
    shadow: (runtime) => runtime.installJsShadows(self, { blockCrypto: false }),
  };
}

const NO_INPUT = `
import builtins
def input(prompt=""):
    raise EOFError("snippets cannot read input: nobody can type into the sandbox, so write the value into the code instead")
builtins.input = input
del input, builtins
`;

// Keeps the learner's frames of a traceback and drops Pyodide's own.
function describePythonError(traceback) {
  const kept = [];
  let line = 0;
  let inOwnFrame = true;
  for (const text of traceback.trimEnd().split("\n")) {
    const frame = text.match(/^ {2}File "([^"]+)", line (\d+)/);
    if (frame) {
      inOwnFrame = frame[1] === SNIPPET_FILE.python;
      if (inOwnFrame) line = Number(frame[2]);
    } else if (!text.startsWith("    ")) {
      inOwnFrame = true;
    }
    if (inOwnFrame) kept.push(text);
  }
  return { text: kept.join("\n") + "\n", line };
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

// The text of a thrown value that is not an Error: its own toString if it has one, else its
// JSON. Either may run the learner's code; the page's time limit still bounds it.
function thrownText(value) {
  try {
    const plain = value !== null && typeof value === "object" && value.toString === Object.prototype.toString;
    if (plain || typeof value === "string") return JSON.stringify(value) ?? String(value);
    return String(value);
  } catch {
    return "a value whose text cannot be read";
  }
}

async function loadTypeScript(files) {
  importScripts(blobUrl(files["sucrase.js"], "text/javascript"));
  // Once a cap is reached the values are not even turned into text.
  const print = (stream) => (...values) => {
    if (!output.reached) write(stream, values.map(show).join(" ") + "\n");
  };
  Object.assign(console, {
    log: print("stdout"),
    info: print("stdout"),
    debug: print("stdout"),
    warn: print("stderr"),
    error: print("stderr"),
  });
  const run = async (code) => {
    let js;
    try {
      // Sucrase keeps line numbers, so runtime errors point at the learner's lines.
      js = self.sucrase.transform(code, {
        transforms: ["typescript"],
        disableESTransforms: true,
        filePath: SNIPPET_FILE.typescript,
      }).code;
    } catch (error) {
      const at = error.loc ? ` on line ${error.loc.line}, column ${error.loc.column + 1}` : "";
      const message = String(error.message)
        .replace(/^Error transforming \S+: /, "")
        .replace(/ \(\d+:\d+\)$/, "");
      return { text: `SyntaxError${at}: ${message}\n`, line: error.loc?.line ?? 0 };
    }
    const url = blobUrl(js, "text/javascript");
    try {
      // A module, so top-level await works; eval is refused by the sandbox's policy.
      await import(url);
      return null;
    } catch (error) {
      if (!(error instanceof Error)) {
        return { text: `Thrown while running, and not caught: ${thrownText(error)}\n`, line: 0 };
      }
      const stack = String(error.stack ?? show(error)).replaceAll(url, SNIPPET_FILE.typescript);
      const at = stack.match(/snippet\.ts:(\d+):\d+/);
      return { text: stack + "\n", line: at ? Number(at[1]) : 0 };
    }
  };
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
  return { run, prepareLab, shadow: (runtime) => runtime.installJsShadows(self) };
}

// A lab worker also loads the client runtime and the lab's own wasm (client_worker, built by
// Trunk for the web target), both from bytes the page handed in.
async function loadLab(files) {
  importScripts(blobUrl(files["client-runtime.js"], "text/javascript"));
  const runtime = self.LeaseLabClientRuntime;
  delete self.LeaseLabClientRuntime;
  const engine = await import(blobUrl(files["client_worker.js"], "text/javascript"));
  await engine.default({ module_or_path: files["client_worker_bg.wasm"] });
  return { runtime, engine };
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
  const prepared = await ready.prepareLab(lab.runtime, task.code);
  if (prepared.error) return fail(prepared.error.text, prepared.error.line);
  ready.shadow(lab.runtime);
  let last = -Infinity;
  const progress = (ran) => {
    const now = realNow();
    if (now - last < PROGRESS_MS) return;
    last = now;
    post(`{"type":"progress","ran":${typeof ran === "number" && ran >= 0 ? Math.floor(ran) : 0}}`);
  };
  let report;
  const started = realNow();
  try {
    report =
      task.task === "search"
        ? lab.engine.search_client(task.link, task.search ?? "", prepared.make, progress)
        : lab.engine.run_client(task.link, prepared.make);
  } catch (error) {
    return fail(`The lab stopped on an error of its own: ${show(error)}\n`, 0);
  }
  const ms = Math.round(realNow() - started);
  post(`{"type":"result","json":${stringify(typeof report === "string" ? report : "")},"ms":${ms}}`);
}

// Errors thrown later, in a timer or a promise the code did not await, still reach the console.
self.addEventListener("error", (event) => {
  event.preventDefault();
  write("stderr", `Uncaught ${show(event.error ?? event.message)}\n`);
});
self.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  write("stderr", `Unhandled rejection: ${show(event.reason)}\n`);
});

// User code could post look-alike control messages; what it finds as postMessage now posts
// nothing at all (a stand-in, so code that calls it runs on as before).
function takePostMessageAway() {
  for (let scope = Object.getPrototypeOf(self); scope; scope = Object.getPrototypeOf(scope)) {
    if (Object.hasOwn(scope, "postMessage")) delete scope.postMessage;
  }
  Object.defineProperty(self, "postMessage", { value: () => {}, writable: false, configurable: false });
}

const loaders = { python: loadPython, typescript: loadTypeScript };
// A search's progress goes out at most this often (timed by the real clock).
const PROGRESS_MS = 250;
let engine;
let lab = null;
let started = false;

self.onmessage = ({ data }) => {
  if (data.type === "init" && !engine) {
    output.limits = data.limits;
    output.scratch = new Uint8Array(data.limits.totalBytes);
    const loading = loaders[data.language](data.files, data.lab === true);
    // A lab worker is "loaded" once the engine, the runtime and the lab's wasm all are.
    if (data.lab === true) lab = loading.then(() => loadLab(data.files));
    engine = loading;
    Promise.all([loading, lab]).then(
      () => send({ type: "loaded" }),
      (error) => fail(`The engine did not load: ${show(error)}\n`, 0),
    );
  } else if (data.type === "run" && engine && !lab && !started) {
    started = true;
    engine.then(async ({ run }) => {
      takePostMessageAway();
      send({ type: "started" });
      const failure = await run(data.code);
      flush();
      if (output.reached) return;
      if (failure) fail(failure.text, failure.line);
      else send({ type: "finished" });
    });
  } else if (data.type === "lab" && lab && !started) {
    started = true;
    Promise.all([engine, lab]).then(async ([ready, loaded]) => {
      takePostMessageAway();
      harden();
      send({ type: "started" });
      await runLab(ready, loaded, data);
    });
  }
};
})();
