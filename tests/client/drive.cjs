// A fake lab for a learner's TypeScript client (www/snippets/client/*.ts): the contract's node
// API and timer rules (earliest deadline first, ties in the order armed) in the same scripted
// world as mirror.rs, printing what the client sends. Date.now() and performance.now() read
// the node's clocks; WALL_STEP=<at µs>,<by µs> steps the wall clock.
// Usage: node drive.cjs client.ts scenarios.txt out.txt
const fs = require("fs");
const sucrase = require(process.env.SUCRASE ?? require("path").join(__dirname, "../../node_modules/sucrase"));
const [file, input, output] = process.argv.slice(2);
const js = sucrase.transform(fs.readFileSync(file, "utf8"), { transforms: ["typescript"], disableESTransforms: true }).code;
let clockNow = 0;
const [stepAt, stepBy] = (process.env.WALL_STEP ?? "0,0").split(",").map(Number);
const EPOCH = 1_700_000_000_000_000;
const wallOff = () => EPOCH + (stepBy !== 0 && clockNow >= stepAt ? stepBy : 0);
const FakeDate = { now: () => (clockNow + wallOff()) / 1000 };
const fakePerf = { now: () => clockNow / 1000 };
const make = () => new Function("Date", "performance", js + "\nreturn { start, reply, timer };")(FakeDate, fakePerf);

function run(line) {
  const v = line.trim().split(/\s+/).map(Number);
  const [lat, ttl, renew, retry, acq, timeout, work, margin, rel, end] = v;
  const np = v[10];
  const pauses = [];
  for (let i = 0; i < np; i++) pauses.push([v[11 + 2 * i], v[12 + 2 * i]]);
  const nf = v[11 + 2 * np];
  const fates = v.slice(12 + 2 * np, 12 + 2 * np + nf);
  const client = make();
  let out = "", now = 0, seq = 0, armSeq = 0, nreq = 0, nwrite = 0;
  const flight = [], inbox = [], timers = new Map();
  let pausedUntil = null, nextPause = 0;
  clockNow = 0;
  const check = (x, what) => { if (!(Number.isFinite(x) && x >= 0)) throw new Error(`${what}: bad ${x}`); };
  const send = (kind, token) => {
    const req = ++nreq;
    out += `${now} ${["acquire", "renew", "release"][kind]} ${req}\n`;
    const fate = fates[req - 1] ?? 0;
    if (fate !== 1) {
      const kinds = [["granted", "busy"], ["renewed", "not_owner"], ["released", "released"]][kind];
      flight.push({ at: now + 2 * lat, seq: ++seq, answer: { kind: kinds[fate === 0 ? 0 : 1], request: req, token: 33, deleted: true } });
    }
    return req;
  };
  let lost = false;
  const node = {
    name: "A",
    settings: { ttl: ttl / 1000, renewEvery: renew / 1000, retryEvery: retry / 1000, acquireRetry: acq / 1000,
      requestTimeout: timeout / 1000, workEvery: work / 1000, driftMargin: margin / 1000, releaseAfter: rel < 0 ? null : rel / 1000 },
    acquire: (ms) => { check(ms, "acquire"); if (Math.round(ms * 1000) !== ttl) throw new Error("ttl"); return send(0); },
    renew: (t) => { if (t !== 33) throw new Error("token"); return send(1); },
    release: (t) => { if (t !== 33) throw new Error("token"); return send(2); },
    write: (t) => { if (t !== 33) throw new Error("token"); if (lost) throw new Error("write after lost"); out += `${now} write ${++nwrite}\n`; return nwrite; },
    after: (ms, name) => { check(ms, "after"); timers.set(name, { at: now + Math.round(ms * 1000), seq: ++armSeq }); },
    atWall: (ms, name) => { check(ms, "atWall"); timers.set(name, { wallAt: Math.round(ms * 1000), seq: ++armSeq }); },
    cancel: (name) => { timers.delete(name); },
    lost: (reason = "deadline") => { lost = true; out += `${now} lost ${reason}\n`; },
    monotonic: () => now / 1000,
    wall: () => (now + wallOff()) / 1000,
  };
  const nextTimer = () => {
    let best = null;
    for (const [name, t0] of timers) {
      const t = t0.wallAt === undefined ? t0 : { at: t0.wallAt - wallOff(), seq: t0.seq };
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = { name, ...t };
    }
    return best;
  };
  clockNow = 0;
  client.start(node);
  while (true) {
    let best = null;
    const consider = (t, k) => { if (!best || t < best[0]) best = [t, k]; };
    if (nextPause < pauses.length) consider(Math.max(pauses[nextPause][0], now), 0);
    if (flight.length) { flight.sort((a, b) => a.at - b.at || a.seq - b.seq); consider(Math.max(flight[0].at, now), 1); }
    if (pausedUntil !== null) consider(Math.max(pausedUntil, now), 2);
    else {
      const t = nextTimer(), m = inbox.length ? inbox[0].at : null;
      if (t && m !== null && m <= t.at) consider(now, 3);
      else if (!t && m !== null) consider(now, 3);
      else if (t) consider(Math.max(t.at, now), 4);
    }
    if (!best || best[0] > end) break;
    now = best[0];
    clockNow = now;
    const k = best[1];
    if (k === 0) { const [, e] = pauses[nextPause++]; pausedUntil = pausedUntil === null ? e : Math.max(pausedUntil, e); }
    else if (k === 1) { const f = flight.shift(); if (pausedUntil !== null) inbox.push(f); else client.reply(node, f.answer); }
    else if (k === 2) pausedUntil = null;
    else if (k === 3) client.reply(node, inbox.shift().answer);
    else { const t = nextTimer(); timers.delete(t.name); client.timer(node, t.name); }
  }
  return out;
}

const lines = fs.readFileSync(input, "utf8").split("\n").filter((l) => l.trim());
fs.writeFileSync(output, lines.map((l) => run(l) + "--\n").join(""));
