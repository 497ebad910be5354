// A smoke test of the lab task in headless Chromium, against a built dist/: startLab from
// www/snippets/sandbox/runner.js with a TypeScript and a Python heartbeat client, a run and
// a search each, and a few mistakes. Not part of `make test` (the lab's views drive it there).
//
//   node tests/sandbox/lab-smoke.mjs <dist> <port> <packed task> <packed search spec>
// (packed with lease_lab::lab::own_client::report::pack).
import { chromium } from "@playwright/test";
import { startServer } from "../../tools/static-server.mjs";

const [dist, port, task, spec] = process.argv.slice(2);

const TS = `// The lesson's heartbeat (tests/own_client.rs's Reference), in TypeScript.
let token: number | null = null;
let deadline = 0;
let asked: { id: number; sent: number; what: string } | null = null;
let done = false;

function ask(node, what: string, id: number) {
  asked = { id, sent: node.monotonic(), what };
  node.after(node.settings.requestTimeout, "timeout");
}
function lose(node, reason) {
  for (const t of ["acquire", "timeout", "renew", "deadline", "work", "release"]) node.cancel(t);
  node.lost(reason);
  asked = null;
  done = true;
  node.release(token);
}
export function start(node) {
  ask(node, "acquire", node.acquire(node.settings.ttl));
}
export function reply(node, answer) {
  if (done || !asked || answer.request !== asked.id) return;
  const now = node.monotonic();
  const s = node.settings;
  node.cancel("timeout");
  const { sent, what } = asked;
  asked = null;
  const validUntil = sent + s.ttl - s.driftMargin;
  if (what === "acquire" && answer.kind === "granted") {
    token = answer.token;
    deadline = validUntil;
    node.after(Math.max(0, sent + s.renewEvery - now), "renew");
    node.after(Math.max(0, deadline - now), "deadline");
    node.after(0, "work");
    if (s.releaseAfter !== null) node.after(s.releaseAfter, "release");
    console.log("granted", token, "at", performance.now());
  } else if (what === "acquire") {
    node.after(Math.max(0, sent + s.acquireRetry - now), "acquire");
  } else if (what === "renew" && answer.kind === "renewed") {
    deadline = validUntil;
    node.after(Math.max(0, sent + s.renewEvery - now), "renew");
    node.after(Math.max(0, deadline - now), "deadline");
  } else if (what === "renew") {
    lose(node, "not_owner");
  } else {
    done = true;
  }
}
export function timer(node, name: string) {
  if (done) return;
  const now = node.monotonic();
  const s = node.settings;
  const holding = token !== null;
  if (name === "acquire") ask(node, "acquire", node.acquire(s.ttl));
  else if (name === "timeout") {
    const was = asked;
    asked = null;
    if (was?.what === "acquire") node.after(Math.max(0, was.sent + s.acquireRetry - now), "acquire");
    else if (was?.what === "renew") node.after(Math.max(0, was.sent + s.retryEvery - now), "renew");
    else done = true;
  } else if (name === "renew" && holding) {
    if (now >= deadline) lose(node, "deadline");
    else ask(node, "renew", node.renew(token));
  } else if (name === "deadline" && holding) lose(node, "deadline");
  else if (name === "work" && holding) {
    if (now >= deadline) lose(node, "deadline");
    else { node.write(token); node.after(s.workEvery, "work"); }
  } else if (name === "release" && holding) {
    for (const t of ["acquire", "timeout", "renew", "deadline", "work"]) node.cancel(t);
    ask(node, "release", node.release(token));
  }
}
`;

const PY = `# The lesson's heartbeat, in Python.
import time
token = None
deadline = 0
asked = None
done = False

def ask(node, what, request):
    global asked
    asked = (request, node.monotonic(), what)
    node.after(node.settings.request_timeout, "timeout")

def lose(node, reason):
    global asked, done
    for t in ("acquire", "timeout", "renew", "deadline", "work", "release"):
        node.cancel(t)
    node.lost(reason)
    asked = None
    done = True
    node.release(token)

def start(node):
    ask(node, "acquire", node.acquire(node.settings.ttl))

def reply(node, answer):
    global token, deadline, asked, done
    if done or asked is None or answer.request != asked[0]:
        return
    now = node.monotonic()
    s = node.settings
    node.cancel("timeout")
    _, sent, what = asked
    asked = None
    valid_until = sent + s.ttl - s.drift_margin
    if what == "acquire" and answer.kind == "granted":
        token = answer.token
        deadline = valid_until
        node.after(max(0, sent + s.renew_every - now), "renew")
        node.after(max(0, deadline - now), "deadline")
        node.after(0, "work")
        if s.release_after is not None:
            node.after(s.release_after, "release")
        print("granted", token, "at", time.monotonic())
    elif what == "acquire":
        node.after(max(0, sent + s.acquire_retry - now), "acquire")
    elif what == "renew" and answer.kind == "renewed":
        deadline = valid_until
        node.after(max(0, sent + s.renew_every - now), "renew")
        node.after(max(0, deadline - now), "deadline")
    elif what == "renew":
        lose(node, "not_owner")
    else:
        done = True

def timer(node, name):
    global asked, done
    if done:
        return
    now = node.monotonic()
    s = node.settings
    holding = token is not None
    if name == "acquire":
        ask(node, "acquire", node.acquire(s.ttl))
    elif name == "timeout":
        was = asked
        asked = None
        if was and was[2] == "acquire":
            node.after(max(0, was[1] + s.acquire_retry - now), "acquire")
        elif was and was[2] == "renew":
            node.after(max(0, was[1] + s.retry_every - now), "renew")
        else:
            done = True
    elif name == "renew" and holding:
        if now >= deadline:
            lose(node, "deadline")
        else:
            ask(node, "renew", node.renew(token))
    elif name == "deadline" and holding:
        lose(node, "deadline")
    elif name == "work" and holding:
        if now >= deadline:
            lose(node, "deadline")
        else:
            node.write(token)
            node.after(s.work_every, "work")
    elif name == "release" and holding:
        for t in ("acquire", "timeout", "renew", "deadline", "work"):
            node.cancel(t)
        ask(node, "release", node.release(token))
`;

const server = await startServer(dist, Number(port));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
const page = await browser.newPage();
const problems = [];
page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
await page.goto(`${server.url}/`);

async function lab(request) {
  return page.evaluate(async (request) => {
    const runner = await import("/sandbox/runner.js");
    const events = [];
    const began = performance.now();
    const ended = new Promise((resolve) => {
      runner.startLab(request, (event) => {
        events.push({ ...event, json: event.json === undefined ? undefined : `${event.json.length} chars: ${event.json.slice(0, 40)}`, at: Math.round(performance.now() - began) });
        if (["result", "failed", "timedOut", "stopped", "sandboxCrashed"].includes(event.kind)) resolve(event);
      });
    });
    const ending = await ended;
    return { ending: ending.kind, length: ending.json?.length, events: events.filter((e) => e.kind !== "downloading" || e.totalBytes === e.receivedBytes) };
  }, request);
}

let failed = 0;
function expectThat(what, ok, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) {
    failed += 1;
    console.log(JSON.stringify(detail, null, 1).slice(0, 3000));
  }
}

for (const [language, code] of [["typescript", TS], ["python", PY]]) {
  const run1 = await lab({ language, code, link: task, task: "run", timeLimitMs: 120_000 });
  const endingRun = run1.events.at(-1);
  expectThat(`${language}: a run ends with a result`, run1.ending === "result" && run1.length > 100, run1);
  const run2 = await lab({ language, code, link: task, task: "run", timeLimitMs: 120_000 });
  expectThat(`${language}: a second run gives the same report`, run2.length === run1.length && run2.events.at(-1).json === endingRun.json, run2);
  const timing = (r) => r.events.find((e) => e.kind === "result").at - r.events.find((e) => e.kind === "running").at;
  console.log(`     ${language}: run ${timing(run1)} ms, again ${timing(run2)} ms (from "running" to the report)`);
  const search = await lab({ language, code, link: task, task: "search", search: spec, timeLimitMs: 300_000 });
  const progress = search.events.filter((e) => e.kind === "progress");
  expectThat(`${language}: a search ends with a result and reports progress`, search.ending === "result" && progress.length > 0, search);
  console.log(`     ${language}: search ${timing(search)} ms, ${progress.length} progress events, last ran ${progress.at(-1)?.ran}`);
}

const broken = await lab({ language: "typescript", code: "function start(node) {\n  node.acquire(\n}", link: task, task: "run", timeLimitMs: 20_000 });
expectThat("typescript: a syntax error fails with its line", broken.ending === "failed" && broken.events.at(-1).line === 3, broken);
const pyBroken = await lab({ language: "python", code: "def start(node):\n    pass\n  x = 1\n", link: task, task: "run", timeLimitMs: 20_000 });
expectThat("python: a syntax error fails with its line", pyBroken.ending === "failed" && pyBroken.events.at(-1).line === 3, pyBroken);
const loop = await lab({ language: "typescript", code: "function start(node) { for (;;) {} }", link: task, task: "run", timeLimitMs: 2_000 });
expectThat("typescript: an endless handler is timed out", loop.ending === "timedOut", loop);
const forged = await lab({
  language: "typescript",
  code: 'function start(node) { try { postMessage(JSON.stringify({ type: "result", json: "forged" })); } catch {} try { send({ type: "result", json: "forged" }); } catch {} try { TextDecoder.prototype.decode = () => "forged"; } catch {} node.acquire(1000); }',
  link: task,
  task: "run",
  timeLimitMs: 60_000,
});
expectThat("typescript: code cannot forge the report", forged.ending === "result" && !forged.events.at(-1).json.includes("forged"), forged);
const after = await lab({ language: "typescript", code: TS, link: task, task: "run", timeLimitMs: 60_000 });
expectThat("typescript: the next run after those works", after.ending === "result", after);
expectThat("no console errors", problems.length === 0, problems);

await browser.close();
await server.close();
process.exit(failed ? 1 : 0);
