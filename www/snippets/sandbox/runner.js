// The page side of the snippet sandbox. Loaded lazily on the first Run.
//
// User code never runs in the page. One hidden <iframe sandbox="allow-scripts"> (an opaque
// origin) holds a tiny bootstrap and a policy that allows no network at all. For each run
// the bootstrap makes a fresh classic worker from a blob: URL; the page fetches the engine
// files itself, same-origin, and posts the bytes in. The page owns the time limit, checks
// that every message comes from its own iframe, and trusts each control message only once,
// in its phase, because user code can post look-alikes.

// Runs inside the iframe: makes, feeds and kills workers, and tags what they post with
// their id, so a worker cannot speak for another. Its hash is in the policy below.
export const BOOTSTRAP = `"use strict";
const workers = new Map();
const MAX_MESSAGES = 5000;
onmessage = ({ source, data }) => {
  if (source !== parent) return;
  if (data.type === "spawn") {
    const url = URL.createObjectURL(new Blob([data.source], { type: "text/javascript" }));
    const worker = new Worker(url);
    const report = (message) => parent.postMessage({ worker: data.id, data: message }, "*");
    let messages = 0;
    worker.onmessage = (event) => {
      messages += 1;
      if (messages <= MAX_MESSAGES) report(event.data);
      if (messages === MAX_MESSAGES) {
        worker.terminate();
        report({ type: "failed", text: "The snippet posted too many messages and was stopped.\\n" });
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      report({ type: "failed", text: event.message + " (line " + event.lineno + ")\\n", line: 0 });
    };
    worker.postMessage(data.init);
    workers.set(data.id, worker);
  } else if (data.type === "send") {
    workers.get(data.id)?.postMessage(data.message);
  } else if (data.type === "kill") {
    workers.get(data.id)?.terminate();
    workers.delete(data.id);
  }
};
parent.postMessage({ ready: true }, "*");`;

// sha256 of BOOTSTRAP; tests/e2e/snippets.spec.ts recomputes it.
export const BOOTSTRAP_HASH = "sha256-3Vn9RoXNXlpuLxugRx+vRxm7fTINWcoKGbjs0OwPWnA=";

export const SANDBOX_POLICY = [
  "default-src 'none'",
  `script-src '${BOOTSTRAP_HASH}' blob: 'wasm-unsafe-eval'`,
  "worker-src blob:",
  "connect-src 'none'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const ENGINES = {
  python: {
    label: "Python",
    files: [
      "pyodide/pyodide.mjs",
      "pyodide/pyodide.asm.mjs",
      "pyodide/pyodide.asm.wasm",
      "pyodide/python_stdlib.zip",
      "pyodide/pyodide-lock.json",
    ],
  },
  typescript: { label: "TypeScript", files: ["sucrase.js"] },
};
// Output beyond this per run is dropped, so a print loop cannot swamp the page.
const MAX_OUTPUT_CHARS = 100_000;
const OUTPUT_FLUSH_MS = 50;

const lanes = {
  python: { run: null, warm: null },
  typescript: { run: null, warm: null },
};
const workers = new Map();
const engineFiles = {};
let workerSource;
let frame;
let nextWorkerId = 1;

function appUrl(path) {
  return new URL(path, document.baseURI).href;
}

function sandboxFrame() {
  if (!frame) {
    const element = document.createElement("iframe");
    element.setAttribute("sandbox", "allow-scripts");
    element.hidden = true;
    element.title = "Snippet sandbox";
    element.srcdoc =
      `<!doctype html><meta http-equiv="Content-Security-Policy" content="${SANDBOX_POLICY}">` +
      `<script>${BOOTSTRAP}</script>`;
    let markReady;
    frame = { element, ready: new Promise((resolve) => (markReady = resolve)), markReady };
    window.addEventListener("message", onSandboxMessage);
    document.body.append(element);
  }
  return frame;
}

function post(message) {
  frame.element.contentWindow.postMessage(message, "*");
}

function onSandboxMessage(event) {
  if (event.source !== frame.element.contentWindow) return;
  const message = event.data;
  if (message?.ready === true) {
    frame.markReady();
    return;
  }
  const worker = workers.get(message?.worker);
  const data = message?.data;
  if (worker && data && typeof data === "object") onWorkerMessage(worker, data);
}

function onWorkerMessage(worker, data) {
  const run = worker.run;
  switch (data.type) {
    case "loaded":
      if (worker.phase !== "loading") return;
      worker.phase = "loaded";
      if (run) emit(run, "status", "Running…");
      return;
    case "started":
      if (worker.phase !== "loaded" || !run) return;
      worker.phase = "running";
      run.startedAt = performance.now();
      run.timer = setTimeout(() => endRun(run, "timeout"), run.limitMs);
      return;
    case "output":
      if (worker.phase === "running") write(run, data.stream === "stderr" ? "stderr" : "stdout", data.text);
      return;
    case "finished":
      if (worker.phase === "running") endRun(run, "finished");
      return;
    case "failed":
      if (worker.phase === "ended") return;
      if (!run) {
        kill(worker);
        lanes[worker.language].warm = null;
        return;
      }
      write(run, "stderr", data.text);
      endRun(run, "failed", Number(data.line) || 0);
      return;
  }
}

function emit(run, kind, text, number = -1) {
  if (!run.ended) run.onEvent(kind, text, number);
}

function write(run, stream, text) {
  const room = MAX_OUTPUT_CHARS - run.outputChars;
  if (room <= 0) return;
  let chunk = String(text);
  if (chunk.length > room) chunk = chunk.slice(0, room) + "\n[output cut: too much]\n";
  run.outputChars += chunk.length;
  run.pending[stream] += chunk;
  run.flushTimer ||= setTimeout(() => flushOutput(run), OUTPUT_FLUSH_MS);
}

function flushOutput(run) {
  clearTimeout(run.flushTimer);
  run.flushTimer = 0;
  for (const stream of ["stdout", "stderr"]) {
    if (run.pending[stream]) emit(run, stream, run.pending[stream]);
    run.pending[stream] = "";
  }
}

function kill(worker) {
  worker.phase = "ended";
  workers.delete(worker.id);
  post({ type: "kill", id: worker.id });
}

async function loadWorkerSource() {
  workerSource ??= fetchText(appUrl("sandbox/worker.js"));
  return workerSource;
}

async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.text();
}

// Engine bytes are fetched once per page and kept, since each run needs a fresh worker.
function loadEngine(language) {
  engineFiles[language] ??= downloadEngine(language).catch((error) => {
    delete engineFiles[language];
    throw error;
  });
  return engineFiles[language];
}

async function downloadEngine(language) {
  const { label, files } = ENGINES[language];
  const responses = await Promise.all(files.map((file) => fetch(appUrl(`vendor/${file}`))));
  for (const [i, response] of responses.entries()) {
    if (!response.ok) throw new Error(`vendor/${files[i]}: HTTP ${response.status}`);
  }
  const total = responses.reduce((sum, r) => sum + Number(r.headers.get("Content-Length") || 0), 0);
  let received = 0;
  let reported = "";
  const report = () => {
    const run = lanes[language].run;
    const megabytes = (bytes) => (bytes / 1e6).toFixed(1);
    // A server that compresses on the fly reports compressed lengths; then the total is unknown.
    const known = total > 0 && received <= total;
    const size = known ? `${megabytes(received)} of ${megabytes(total)} MB` : `${megabytes(received)} MB`;
    // One update per tenth of a megabyte at most, so the page does not re-render per chunk.
    if (run && size !== reported) emit(run, "status", `Downloading ${label}… ${size}`, known ? received / total : -1);
    reported = size;
  };
  const bodies = await Promise.all(
    responses.map(async (response) => {
      const reader = response.body.getReader();
      const chunks = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        report();
      }
      return new Blob(chunks).arrayBuffer();
    }),
  );
  return Object.fromEntries(files.map((file, i) => [file.split("/").pop(), bodies[i]]));
}

function spawnWorker(language, source, files) {
  const worker = { id: nextWorkerId++, language, phase: "loading", run: null };
  workers.set(worker.id, worker);
  post({ type: "spawn", id: worker.id, source, init: { type: "init", language, files } });
  return worker;
}

// A worker is warmed after each run, so the next run skips most of the engine start-up.
async function warmUp(language) {
  const lane = lanes[language];
  if (lane.warm || lane.run) return;
  const [source, files] = await Promise.all([loadWorkerSource(), loadEngine(language)]);
  if (!lane.warm && !lane.run) lane.warm = spawnWorker(language, source, files);
}

function endRun(run, outcome, line = 0) {
  if (run.ended) return;
  flushOutput(run);
  clearTimeout(run.timer);
  const elapsed = run.startedAt ? Math.round(performance.now() - run.startedAt) : -1;
  run.onEvent("end", outcome, outcome === "failed" ? line : elapsed);
  run.ended = true;
  if (run.worker) kill(run.worker);
  const lane = lanes[run.language];
  if (lane.run === run) lane.run = null;
  setTimeout(() => warmUp(run.language).catch(() => {}), 0);
}

/**
 * Runs `code` in a fresh sandboxed worker. `onEvent(kind, text, number)` receives
 * "status" (text, progress 0..1 or -1), "stdout" and "stderr" (text), and exactly one
 * "end" (outcome "finished" | "failed" | "timeout" | "stopped"; number is the error line
 * for "failed", else the run time in ms or -1), after which it is never called again.
 */
export async function startRun(language, code, limitMs, onEvent) {
  const lane = lanes[language];
  if (lane.run) endRun(lane.run, "stopped");
  const run = {
    language,
    limitMs,
    onEvent,
    ended: false,
    worker: null,
    timer: 0,
    startedAt: 0,
    pending: { stdout: "", stderr: "" },
    outputChars: 0,
    flushTimer: 0,
  };
  lane.run = run;
  try {
    emit(run, "status", `Starting ${ENGINES[language].label}…`);
    const sandbox = sandboxFrame();
    const [source, files] = await Promise.all([loadWorkerSource(), loadEngine(language), sandbox.ready]);
    if (run.ended) return;
    const worker = lane.warm ?? spawnWorker(language, source, files);
    lane.warm = null;
    worker.run = run;
    run.worker = worker;
    emit(run, "status", worker.phase === "loaded" ? "Running…" : `Starting ${ENGINES[language].label}…`);
    post({ type: "send", id: worker.id, message: { type: "run", code } });
  } catch (error) {
    write(run, "stderr", `Could not load ${ENGINES[language].label}: ${error.message}\n`);
    endRun(run, "failed");
  }
}

/** Stops the current run of `language` at once, if there is one. */
export function stopRun(language) {
  const run = lanes[language].run;
  if (run) endRun(run, "stopped");
}
