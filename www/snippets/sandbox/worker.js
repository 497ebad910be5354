"use strict";
// One snippet run, inside a fresh classic worker that the sandbox iframe makes from a blob:
// URL. It loads the engine from bytes the page handed in, runs the learner's code once, and
// is then terminated by the page: a worker is never reused for a second run.
// Control messages: "loaded" (engine up), "started" (user code begins), "output",
// "finished" and "failed". User code can post these too, so the page trusts each only once
// and only in its phase.

const SNIPPET_FILE = { python: "snippet.py", typescript: "snippet.ts" };
// Lines go out one by one at first, then in timed batches, so a print loop cannot flood the page.
const UNBATCHED_POSTS = 300;
const BATCH_MS = 40;

let posts = 0;
let lastPost = 0;
const pending = { stdout: "", stderr: "" };

function flush() {
  for (const stream of ["stdout", "stderr"]) {
    if (pending[stream]) {
      postMessage({ type: "output", stream, text: pending[stream] });
      pending[stream] = "";
      posts += 1;
    }
  }
  lastPost = performance.now();
}

function write(stream, text) {
  pending[stream] += text;
  if (posts < UNBATCHED_POSTS || performance.now() - lastPost >= BATCH_MS) flush();
}

function fail(text, line) {
  flush();
  postMessage({ type: "failed", text, line });
}

function blobUrl(bytes, type) {
  return URL.createObjectURL(new Blob([bytes], { type }));
}

// Pyodide fetches its wasm and stdlib by URL; in this opaque origin every fetch is
// cross-origin and blocked, so a shim answers those two names from the handed-in bytes.
async function loadPython(files) {
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
    });
  } finally {
    self.fetch = networkFetch;
  }
  pyodide.setStdout({ batched: (line) => write("stdout", line + "\n") });
  pyodide.setStderr({ batched: (line) => write("stderr", line + "\n") });
  return async (code) => {
    try {
      await pyodide.runPythonAsync(code, { filename: SNIPPET_FILE.python });
      return null;
    } catch (error) {
      return describePythonError(String(error.message ?? error));
    }
  };
}

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

async function loadTypeScript(files) {
  importScripts(blobUrl(files["sucrase.js"], "text/javascript"));
  const print = (stream) => (...values) => write(stream, values.map(show).join(" ") + "\n");
  Object.assign(console, {
    log: print("stdout"),
    info: print("stdout"),
    debug: print("stdout"),
    warn: print("stderr"),
    error: print("stderr"),
  });
  return async (code) => {
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
      const stack = String(error?.stack ?? show(error)).replaceAll(url, SNIPPET_FILE.typescript);
      const at = stack.match(/snippet\.ts:(\d+):\d+/);
      return { text: stack + "\n", line: at ? Number(at[1]) : 0 };
    }
  };
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

const loaders = { python: loadPython, typescript: loadTypeScript };
let engine;
let started = false;

self.onmessage = ({ data }) => {
  if (data.type === "init" && !engine) {
    engine = loaders[data.language](data.files);
    engine.then(
      () => postMessage({ type: "loaded" }),
      (error) => fail(`The engine did not load: ${show(error)}\n`, 0),
    );
  } else if (data.type === "run" && engine && !started) {
    started = true;
    engine.then(async (run) => {
      postMessage({ type: "started" });
      const failure = await run(data.code);
      flush();
      if (failure) fail(failure.text, failure.line);
      else postMessage({ type: "finished" });
    });
  }
};
