// The page side of the snippet sandbox, for "Your client" (issue 21). Loaded lazily on the
// first Run. Each task (startLab) runs the learner's lease client inside the lab's own wasm,
// client_worker, and ends with that wasm's report, relayed unread.
//
// User code never runs in the page. Each language has its own hidden
// <iframe sandbox="allow-scripts"> (an opaque origin) holding a tiny bootstrap and a policy
// that allows no network at all. For each run the bootstrap makes a fresh classic worker
// from a blob: URL; the page fetches the engine files itself, same-origin, and posts the
// bytes in. For Python it also hands in a snapshot of a booted interpreter's memory, made by
// an earlier worker before any user code ran there, so that CPython need not boot again. The
// page owns the time limit and the heartbeat, checks that every message comes from its own
// iframe, and trusts each control message only once, in its phase.

// Runs inside the iframe: answers the heartbeat, makes, feeds and kills workers, compiles an
// engine's wasm once for all of them (a worker then instantiates the module), and relays
// what they post (strings within a budget, and one ArrayBuffer within its own, handed over)
// tagged with their id, so a worker can neither speak for another nor swamp the page. A
// search tells where it is before every plan; only the latest of those goes on, a few times
// a second, and it still goes on when the worker then hangs. Its hash is in both policies.
export const BOOTSTRAP = `"use strict";
const workers = new Map();
const compiled = new Map();
onmessage = ({ source, data }) => {
  if (source !== parent || !data) return;
  const { type, id } = data;
  if (type === "ping") {
    parent.postMessage({ pong: true }, "*");
  } else if (type === "spawn") {
    const worker = new Worker(URL.createObjectURL(new Blob([data.source], { type: "text/javascript" })));
    const report = (message) => parent.postMessage({ worker: id, data: message }, "*");
    let budget = data.relayChars;
    let bytes = data.relayBytes;
    const relay = (message) => {
      budget -= typeof message === "string" ? message.length : budget + 1;
      if (budget >= 0) return report(message);
      worker.terminate();
      workers.delete(id);
      report('{"type":"limit","limit":"totalBytes"}');
    };
    let progress = null;
    const flush = () => {
      const message = progress;
      progress = null;
      if (message !== null && workers.has(id)) relay(message);
    };
    worker.onmessage = ({ data: message }) => {
      if (!workers.has(id)) return;
      if (message instanceof ArrayBuffer && message.byteLength <= bytes) {
        bytes = -1;
        return parent.postMessage({ worker: id, bytes: message }, "*", [message]);
      }
      if (typeof message === "string" && message.startsWith('{"type":"progress"')) {
        if (progress === null) setTimeout(flush, data.progressMs);
        progress = message;
        return;
      }
      flush();
      relay(message);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      report(JSON.stringify({ type: "failed", text: event.message + " (line " + event.lineno + ")\\n", line: 0 }));
    };
    const init = data.init;
    init.modules = {};
    const modules = data.compile.map((name) => {
      if (!compiled.has(name)) compiled.set(name, WebAssembly.compile(init.files[name]).catch(() => null));
      return compiled.get(name).then((module) => { if (module) init.modules[name] = module; });
    });
    worker.started = Promise.all(modules).then(() => worker.postMessage(init, Object.values(init.files)));
    workers.set(id, worker);
  } else if (type === "send") {
    const worker = workers.get(id);
    worker?.started.then(() => worker.postMessage(data.message));
  } else if (type === "kill") {
    workers.get(id)?.terminate();
    workers.delete(id);
    parent.postMessage({ gone: id }, "*");
  }
};
parent.postMessage({ ready: true }, "*");`;

// sha256 of BOOTSTRAP; tests/e2e/client.spec.ts recomputes it, tools/csp.mjs puts it in
// the page's policy too (a srcdoc iframe is bound by its parent's policy as well).
export const BOOTSTRAP_HASH = "sha256-w1EbhK1T5y41E7HkJKLCPIxra2E/ebXl0H/WoRQl1+g=";

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
  python: [
    "pyodide/pyodide.mjs",
    "pyodide/pyodide.asm.mjs",
    "pyodide/pyodide.asm.wasm",
    "pyodide/python_stdlib.zip",
    "pyodide/pyodide-lock.json",
  ],
  typescript: ["sucrase.js"],
};
// The engine wasm the iframe compiles once and hands to each worker as a module: the page
// cannot, since a module does not cross into the iframe's opaque origin.
const COMPILED = { python: ["pyodide.asm.wasm"], typescript: [] };
// What a task needs besides the language's engine, from the app's root (worker.js's
// neighbour first, then the lab's wasm that Trunk builds beside index.html).
const LAB_FILES = ["sandbox/client-runtime.js", "client_worker.js", "client_worker_bg.wasm"];
// A lab's report may be 4 MB of text; quoted into a JSON message it may grow up to six
// times (an escaped control character), plus the search's progress messages (one each
// PROGRESS_MS at most, about 50 characters: 2 MB last 2.8 hours).
const LAB_REPORT_CHARS = 4_000_000;
const LAB_RELAY_CHARS = 6 * LAB_REPORT_CHARS + 2_000_000;
const PROGRESS_MS = 250;
// A timer's name, as a hanging call's report quotes it (the engine allows far fewer).
const MAX_TIMER_CHARS = 200;
// A printed line as it is printed (the runtime already cuts lines far shorter).
const MAX_PRINTED_CHARS = 4_000;
// Shown under Errors at most: an error can quote a value.
const MAX_ERROR_CHARS = 20_000;
// The heartbeat: a sandbox that leaves this many pings in a row unanswered is taken for
// dead (its process crashed, most often out of memory) and replaced.
const HEARTBEAT_MS = 250;
const MISSED_BEATS = 8;
// A run's end answers at once; a worker that is not gone this soon takes its iframe with it.
const KILL_GRACE_MS = 200;
const FRAME_READY_MS = 10_000;
// From a fresh worker to its engine being up; Python takes seconds, far more on a busy machine.
const ENGINE_START_MS = 90_000;
// Restoring Python's snapshot skips most of that; a worker not up this soon from one is given
// up on, and its run moves to a worker that boots in full.
const RESTORE_MS = 20_000;
// Python's snapshot (worker.js) is about 30 MB: the memory of a booted interpreter. The iframe
// relays one buffer a worker up to this size; after this many snapshots not made or not
// restored, a lane stops asking and boots Python in full each time.
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
const SNAPSHOT_MISSES = 2;

const lanes = Object.fromEntries(
  Object.keys(ENGINES).map((language) => [
    language,
    { language, sandbox: null, run: null, warm: null, snapshot: null, snapshotMisses: 0 },
  ]),
);
// Fetched bytes by URL, fetched once per page and kept, since each task needs a fresh worker.
const fileBytes = new Map();
let workerSource;
let nextWorkerId = 1;
let listening = false;

function appUrl(path) {
  return new URL(path, document.baseURI).href;
}

function openSandbox(lane) {
  if (!listening) window.addEventListener("message", onSandboxMessage);
  listening = true;
  const element = document.createElement("iframe");
  element.setAttribute("sandbox", "allow-scripts");
  element.hidden = true;
  element.title = "Snippet sandbox";
  element.srcdoc =
    `<!doctype html><meta http-equiv="Content-Security-Policy" content="${SANDBOX_POLICY}">` +
    `<script>${BOOTSTRAP}</script>`;
  // `killing`: workers told to go and not yet gone; `waiting`: who waits for that to be none.
  const sandbox = { element, workers: new Map(), unanswered: 0, isReady: false, killing: new Set(), waiting: [] };
  sandbox.ready = new Promise((resolve, reject) => {
    sandbox.markReady = resolve;
    sandbox.markGone = reject;
    sandbox.readyTimer = setTimeout(() => sandboxDied(lane, sandbox), FRAME_READY_MS);
  });
  sandbox.ready.catch(() => {});
  sandbox.heartbeat = setInterval(() => beat(lane, sandbox), HEARTBEAT_MS);
  document.body.append(element);
  lane.sandbox = sandbox;
  return sandbox;
}

function beat(lane, sandbox) {
  if (!sandbox.isReady) return;
  if (sandbox.unanswered >= MISSED_BEATS) return sandboxDied(lane, sandbox);
  sandbox.unanswered += 1;
  post(sandbox, { type: "ping" });
}

function closeSandbox(lane, sandbox) {
  sandbox.markGone(new Error(sandbox.isReady ? "the sandbox was restarted" : "the sandbox did not start"));
  clearInterval(sandbox.heartbeat);
  clearTimeout(sandbox.readyTimer);
  for (const worker of sandbox.workers.values()) clearTimeout(worker.timer);
  sandbox.element.remove();
  sandbox.killing.clear();
  for (const resolve of sandbox.waiting.splice(0)) resolve();
  if (lane.sandbox === sandbox) {
    lane.sandbox = null;
    lane.warm = null;
  }
}

/**
 * The iframe stopped answering (or never started). A run that was on ends and says so, and
 * its end starts a fresh sandbox; an idle lane gets its new one on the next Run.
 */
function sandboxDied(lane, sandbox) {
  if (lane.sandbox !== sandbox) return;
  closeSandbox(lane, sandbox);
  if (!lane.run) return;
  if (sandbox.isReady) endRun(lane.run, { kind: "sandboxCrashed" });
  else endRun(lane.run, { kind: "failed", line: null }, problem("sandboxDidNotStart"));
}

function post(sandbox, message, transfer = []) {
  sandbox.element.contentWindow?.postMessage(message, "*", transfer);
}

function onSandboxMessage(event) {
  const lane = Object.values(lanes).find((l) => l.sandbox && event.source === l.sandbox.element.contentWindow);
  const message = event.data;
  if (!lane || !message || typeof message !== "object") return;
  const sandbox = lane.sandbox;
  if (message.ready === true && !sandbox.isReady) {
    sandbox.isReady = true;
    clearTimeout(sandbox.readyTimer);
    sandbox.markReady();
  } else if (message.pong === true) {
    sandbox.unanswered = 0;
  } else if (typeof message.gone === "number") {
    clearTimeout(sandbox.workers.get(message.gone)?.timer);
    sandbox.workers.delete(message.gone);
    sandbox.killing.delete(message.gone);
    if (sandbox.killing.size === 0) for (const resolve of sandbox.waiting.splice(0)) resolve();
  } else if (message.bytes instanceof ArrayBuffer) {
    const worker = sandbox.workers.get(message.worker);
    if (worker) keepSnapshot(lane, worker, message.bytes);
  } else {
    const worker = sandbox.workers.get(message.worker);
    const data = worker && typeof message.data === "string" ? parseMessage(message.data) : null;
    if (data) onWorkerMessage(lane, worker, data);
  }
}

// Python's snapshot is taken only from a worker asked for one, and only while it loads: before
// any user code ran in it (its "loaded" comes first). It is kept as bytes, one per lane, and
// handed to later workers, whose Pyodide restores it; the page never reads it.
function keepSnapshot(lane, worker, bytes) {
  if (!worker.makesSnapshot || worker.phase !== "loading" || bytes.byteLength > MAX_SNAPSHOT_BYTES) return;
  worker.makesSnapshot = false;
  lane.snapshot = bytes;
}

// A snapshot asked for and not made, or handed in and not restored (the worker booted in full
// instead), is a miss; one that did not restore is dropped, so the next worker makes another.
function countSnapshot(lane, worker, restored) {
  const refused = worker.restores && !restored;
  if (worker.makesSnapshot || refused) lane.snapshotMisses += 1;
  if (refused) lane.snapshot = null;
  worker.makesSnapshot = false;
}

function parseMessage(text) {
  try {
    const data = JSON.parse(text);
    return data && typeof data === "object" && typeof data.type === "string" ? data : null;
  } catch {
    return null;
  }
}

// Each message is trusted only in its phase, whatever the code posts: "loaded" before user
// code starts, "started" once, then "progress" while running, and one ending: "result" (the
// report, a string relayed unread: the app parses and re-checks it) or "failed".
function onWorkerMessage(lane, worker, data) {
  const run = worker.run;
  const running = worker.phase === "running";
  switch (data.type) {
    case "loaded":
      if (worker.phase !== "loading") return;
      worker.phase = "loaded";
      clearTimeout(worker.timer);
      countSnapshot(lane, worker, data.restored === true);
      return;
    case "started":
      if (worker.phase !== "loaded" || !run) return;
      worker.phase = "running";
      run.timer = setTimeout(() => endRun(run, { kind: "timedOut" }), run.request.timeLimitMs);
      emit(run, { kind: "running" });
      return;
    case "progress":
      if (running && data.call) return emitCall(run, data.call);
      if (!running || !Number.isSafeInteger(data.ran) || data.ran < 0) return;
      // A search runs as long as its budget needs: the time limit is the longest it may go
      // without progress, so a handler that never returns is still stopped on time.
      clearTimeout(run.timer);
      run.timer = setTimeout(() => endRun(run, { kind: "timedOut" }), run.request.timeLimitMs);
      emit(run, { kind: "progress", ran: data.ran, shrinking: data.shrinking === true });
      return;
    case "printed":
      // A line a run's code printed, as it printed it: shown only if the run never ends.
      if (!running || typeof data.line !== "string" || typeof data.client !== "string" || !Number.isFinite(data.mono)) return;
      emit(run, { kind: "printed", client: data.client.slice(0, 1), mono: data.mono, line: data.line.slice(0, MAX_PRINTED_CHARS) });
      return;
    case "result":
      if (!running || typeof data.json !== "string") return;
      // How long the task took inside the worker, as it says: shown, never trusted further.
      endRun(run, { kind: "result", json: data.json, ms: Number.isSafeInteger(data.ms) && data.ms >= 0 ? data.ms : null });
      return;
    case "limit":
      // The relay budget ran out (the iframe already ended the worker).
      if (running) endRun(run, { kind: "failed", line: null }, problem("reportTooLarge", { limitChars: LAB_REPORT_CHARS }));
      return;
    case "failed":
      if (worker.phase === "ended") return;
      if (!run) return discardWarm(lane, worker);
      // Why the worker could not go on, for the page to word, or the learner's syntax error:
      // shown under Errors.
      if (WORKER_PROBLEMS.includes(data.why)) {
        endRun(run, { kind: "failed", line: null }, problem(data.why, { detail: bounded(data.detail) }));
      } else {
        endRun(run, { kind: "failed", line: lineOf(data.line) }, errorOutput(data.text));
      }
      return;
  }
}

// Why a run cannot go on, as the page words it (RunnerProblem in src/app/snippets/bridge.rs,
// its sentences in content/sandbox.toml): the runner's and the worker's own, not learner text.
function problem(why, facts = {}) {
  return { kind: "problem", problem: { why, ...facts } };
}

// What the worker may say it failed on (worker.js's failBecause).
const WORKER_PROBLEMS = ["engineDidNotLoad", "labFailed"];

function bounded(text) {
  return String(text ?? "").slice(0, MAX_ERROR_CHARS);
}

/** The learner's error text, shown under Errors as it is. */
function errorOutput(text) {
  const shown = bounded(text);
  return shown ? { kind: "output", stream: "stderr", text: shown } : null;
}

function lineOf(line) {
  return Number.isInteger(line) && line > 0 && line < 2 ** 31 ? line : null;
}

function emit(run, event) {
  if (!run.ended) run.onEvent(event);
}

/**
 * Ends a worker; if its iframe does not confirm at once, the whole iframe goes. No new worker
 * starts in an iframe until it has confirmed, so removing it never cuts a later run short.
 */
function kill(lane, worker) {
  worker.phase = "ended";
  clearTimeout(worker.timer);
  const sandbox = worker.sandbox;
  if (lane.sandbox !== sandbox) return;
  post(sandbox, { type: "kill", id: worker.id });
  sandbox.killing.add(worker.id);
  worker.timer = setTimeout(() => {
    closeSandbox(lane, sandbox);
    // Only a run that began in this iframe's last moments can be on it; it says so.
    const run = lane.run;
    if (run?.worker?.sandbox === sandbox) endRun(run, { kind: "sandboxCrashed" });
  }, KILL_GRACE_MS);
}

/** A sandbox with no kill pending: this one once it confirms, else a fresh one. */
async function quietSandbox(lane) {
  const sandbox = lane.sandbox ?? openSandbox(lane);
  if (sandbox.killing.size > 0) await new Promise((resolve) => sandbox.waiting.push(resolve));
  return lane.sandbox === sandbox ? sandbox : (lane.sandbox ?? openSandbox(lane));
}

function discardWarm(lane, worker) {
  if (lane.warm === worker) lane.warm = null;
  kill(lane, worker);
}

async function loadWorkerSource() {
  workerSource ??= fetchBytes(appUrl("sandbox/worker.js")).then((bytes) => new TextDecoder().decode(bytes));
  return workerSource;
}

async function fetchBytes(url, onChunk = () => {}) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const reader = response.body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    onChunk(value.length, Number(response.headers.get("Content-Length") || 0));
  }
  return new Blob(chunks).arrayBuffer();
}

/** The files a worker needs in `language`: [name, URL] pairs. */
function filesFor(language) {
  const paths = [...ENGINES[language].map((file) => `vendor/${file}`), ...LAB_FILES];
  return paths.map((path) => [path.split("/").pop(), appUrl(path)]);
}

/**
 * The bytes of `entries` by name, each URL fetched once per page (a failed fetch is tried
 * again next time). Progress goes to the lane's current task, summed over the files.
 */
async function loadFiles(lane, entries) {
  const totals = new Map();
  let received = 0;
  let reported = -1;
  const report = () => {
    const total = [...totals.values()].reduce((sum, n) => sum + n, 0);
    // A server that compresses on the fly reports compressed lengths; then the total is unknown.
    const known = totals.size === entries.length && total > 0 && received <= total;
    const step = Math.floor(received / 100_000);
    const run = lane.run;
    // One update per tenth of a megabyte at most, so the page does not re-render per chunk.
    if (run && step !== reported) {
      emit(run, { kind: "downloading", receivedBytes: received, totalBytes: known ? total : null });
    }
    reported = step;
  };
  const bodies = await Promise.all(
    entries.map(([, url]) => {
      const cached = fileBytes.get(url);
      if (cached) {
        // Already here (or on its way for another task): counted whole once it is.
        return cached.then((bytes) => {
          totals.set(url, bytes.byteLength);
          received += bytes.byteLength;
          report();
          return bytes;
        });
      }
      const fetching = fetchBytes(url, (bytes, length) => {
        totals.set(url, length);
        received += bytes;
        report();
      });
      fileBytes.set(url, fetching);
      fetching.catch(() => fileBytes.delete(url));
      return fetching;
    }),
  );
  return Object.fromEntries(entries.map(([name], i) => [name, bodies[i]]));
}

function spawnWorker(lane, source, files) {
  const sandbox = lane.sandbox;
  const worker = { id: nextWorkerId++, sandbox, phase: "loading", run: null, restores: false, makesSnapshot: false };
  sandbox.workers.set(worker.id, worker);
  // Copies, handed over rather than cloned, keep the iframe's thread free to answer the heartbeat.
  const copies = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, bytes.slice(0)]));
  const init = { type: "init", language: lane.language, files: copies };
  if (lane.snapshot) {
    worker.restores = true;
    copies["python-snapshot"] = lane.snapshot.slice(0);
  } else if (lane.language === "python" && lane.snapshotMisses < SNAPSHOT_MISSES) {
    worker.makesSnapshot = init.makeSnapshot = true;
  }
  worker.timer = setTimeout(() => engineLate(lane, worker), worker.restores ? RESTORE_MS : ENGINE_START_MS);
  const relayBytes = worker.makesSnapshot ? MAX_SNAPSHOT_BYTES : -1;
  const compile = COMPILED[lane.language];
  post(sandbox, { type: "spawn", id: worker.id, source, init, compile, relayChars: LAB_RELAY_CHARS, relayBytes, progressMs: PROGRESS_MS }, Object.values(copies));
  return worker;
}

// A worker whose engine is not up in time. One stuck restoring the snapshot costs the snapshot,
// not the run: the run moves to a worker that boots in full.
function engineLate(lane, worker) {
  const run = worker.run;
  if (worker.restores) countSnapshot(lane, worker, false);
  if (!run) return discardWarm(lane, worker);
  if (!worker.restores) return endRun(run, { kind: "failed", line: null }, problem("engineTooSlow"));
  worker.run = null;
  run.worker = null;
  kill(lane, worker);
  handOver(lane, run);
}

// `warming`: a worker made ahead of time, not wanted once a task has come meanwhile (two
// workers starting at once, one of them killed while it loads, can cost the iframe).
async function prepareWorker(lane, warming = false) {
  const sandbox = await quietSandbox(lane);
  const [source, files] = await Promise.all([loadWorkerSource(), loadFiles(lane, filesFor(lane.language)), sandbox.ready]);
  if (lane.sandbox !== sandbox) throw new Error("the sandbox was restarted");
  if (warming && (lane.run || lane.warm)) throw new Error("no longer wanted");
  const warm = lane.warm;
  lane.warm = null;
  if (warm && warm.phase !== "ended") return warm;
  if (warm) {
    kill(lane, warm);
    return prepareWorker(lane, warming);
  }
  return spawnWorker(lane, source, files);
}

// A worker is warmed after each task, so the next task skips most of the engine start-up.
function warmLater(lane) {
  setTimeout(async () => {
    if (lane.warm || lane.run || lane.warming) return;
    lane.warming = true;
    try {
      const worker = await prepareWorker(lane, true);
      if (lane.warm || lane.run) kill(lane, worker);
      else lane.warm = worker;
    } catch {
      // The next Run tries again and reports what went wrong.
    } finally {
      lane.warming = false;
    }
  }, 0);
}

/**
 * Passes on the handler call a run is in, as the worker tells it: codes and numbers only
 * (the page reads them against the engine's table), a timer's name as text, bounded.
 */
function emitCall(run, call) {
  const code = (n) => (Number.isSafeInteger(n) && n >= 0 ? n : -1);
  if (typeof call !== "object" || typeof call.client !== "string" || !Number.isFinite(call.mono)) return;
  emit(run, {
    kind: "calling",
    client: call.client.slice(0, 1),
    call: code(call.kind),
    x: code(call.x),
    timer: typeof call.timer === "string" ? call.timer.slice(0, MAX_TIMER_CHARS) : null,
    mono: call.mono,
  });
}

/** Ends `run`; `why` is an event said first: the learner's error, or a problem the page words. */
function endRun(run, ending, why = null) {
  if (run.ended) return;
  if (why) emit(run, why);
  clearTimeout(run.timer);
  run.onEvent(ending);
  run.ended = true;
  const lane = lanes[run.request.language];
  if (run.worker) kill(lane, run.worker);
  if (lane.run === run) lane.run = null;
  warmLater(lane);
}

/** Starts `run` in a worker, stopping whatever task the lane had. */
async function startTask(lane, run, message) {
  if (lane.run) endRun(lane.run, { kind: "stopped" });
  lane.run = run;
  run.message = message;
  emit(run, { kind: "starting" });
  await handOver(lane, run);
}

/** Gives `run` a worker, the warm one or a fresh one, and sends it the task. */
async function handOver(lane, run) {
  try {
    const worker = await prepareWorker(lane);
    if (run.ended) return kill(lane, worker);
    worker.run = run;
    run.worker = worker;
    if (worker.phase === "loading") emit(run, { kind: "starting" });
    post(worker.sandbox, { type: "send", id: worker.id, message: run.message });
  } catch (error) {
    endRun(run, { kind: "failed", line: null }, problem("sandboxCouldNotStart", { detail: bounded(error?.message) }));
  }
}

/**
 * Runs the learner's lease client (`request.code`) in the lab's own wasm, in a fresh
 * sandboxed worker (/work/shared-spec/client-api.md). `request` is { language, code, link,
 * task: "run" | "search", search?, timeLimitMs }: `link` and `search` go to the wasm as they
 * are. `onEvent(event)` receives "downloading" { receivedBytes, totalBytes | null },
 * "starting", "running", "progress" { ran, shrinking } (plan ran - 1, or a smaller plan
 * made of it, is about to run), "calling" { client, call, x, timer, mono } (a run's handler
 * call about to start: codes as the engine numbers them), "printed" { client, mono, line } (a
 * line a run's code printed, as it printed it), "output" { stream: "stderr", text } (why it
 * failed, right before "failed"), then exactly one ending: "result" { json, ms | null } (the
 * wasm's report, unread), "failed" { line | null }, "timedOut", "stopped" or
 * "sandboxCrashed"; after the ending it is never called again. The time limit runs from
 * "running", when the learner's code is about to be compiled.
 */
export async function startLab(request, onEvent) {
  const lane = lanes[request?.language];
  if (!lane) throw new Error(`no engine for ${request?.language}`);
  const run = { request, onEvent, ended: false, worker: null, timer: 0 };
  const message = {
    type: "lab",
    code: String(request.code ?? ""),
    link: String(request.link ?? ""),
    task: request.task === "search" ? "search" : "run",
    search: String(request.search ?? ""),
  };
  await startTask(lane, run, message);
}

/** Stops the current task of `language` at once, if there is one. */
export function stopLab(language) {
  const run = lanes[language]?.run;
  if (run) endRun(run, { kind: "stopped" });
}
