// A reference lease client: the lesson's heartbeat, written to behave exactly like the lab's
// built-in client under the Prefer policy. Acquire with TTL T, renew on the monotonic clock,
// retry a timeout inside the remaining budget, fail closed at the safe deadline, put the
// token on every write, and after a loss send a best-effort unlock without waiting for it.
//
// The lab calls start(node), reply(node, answer) and timer(node, name). A handler only asks
// `node` to do things (send, write, arm a timer) and returns: nothing here sleeps or blocks.

type Answer = { kind: string; request: number; token?: number; deleted?: boolean };

// Whole microseconds, as the model counts. With float milliseconds a retry due at the very
// instant of the safe deadline could land on the wrong side of "deadline passed".
const us = (ms: number) => Math.round(ms * 1000);
// The MONOTONIC clock: an NTP step cannot move it (performance.now() reads the same clock).
const now = (node: any) => us(node.monotonic());

let TTL = 0, RENEW_EVERY = 0, RETRY_EVERY = 0, ACQUIRE_RETRY = 0;
let REQUEST_TIMEOUT = 0, WORK_EVERY = 0, DRIFT_MARGIN = 0;
let RELEASE_AFTER: number | null = null;

const client = {
  state: "idle", // acquiring, holding, lost (the lost flag), releasing, released
  token: 0,
  deadline: 0, // the safe deadline while holding
  sent: null as { request: number; at: number } | null, // the one request awaiting an answer
};

// One timer per purpose. Timers due at the same instant fire in the order they were armed;
// the built-in client breaks such ties in ORDER, so arm() keeps the arming order that way.
const ORDER = ["acquire", "timeout", "renew", "deadline", "work", "release"];
const due = new Map<string, number>();

function arm(node: any, name: string, at: number) {
  const t = now(node);
  due.set(name, Math.max(at, t)); // a deadline already behind us fires at once
  for (const n of ORDER.slice(ORDER.indexOf(name))) {
    if (n === name || due.get(n) === due.get(name)) {
      node.cancel(n);
      node.after((due.get(n)! - t) / 1000, n);
    }
  }
}

function disarm(node: any, name: string) {
  node.cancel(name);
  due.delete(name);
}

function disarmAll(node: any) {
  for (const name of due.keys()) node.cancel(name);
  due.clear();
}

function start(node: any) {
  const s = node.settings;
  TTL = us(s.ttl);
  RENEW_EVERY = us(s.renewEvery);
  RETRY_EVERY = us(s.retryEvery);
  ACQUIRE_RETRY = us(s.acquireRetry);
  REQUEST_TIMEOUT = us(s.requestTimeout);
  WORK_EVERY = us(s.workEvery);
  DRIFT_MARGIN = us(s.driftMargin);
  RELEASE_AFTER = s.releaseAfter === null ? null : us(s.releaseAfter);
  sendAcquire(node);
}

function sendAcquire(node: any) {
  client.state = "acquiring";
  client.sent = { request: node.acquire(node.settings.ttl), at: now(node) };
  arm(node, "timeout", client.sent.at + REQUEST_TIMEOUT);
}

function reply(node: any, answer: Answer) {
  const sent = client.sent;
  // Only the answer to the request we are waiting for counts; a late one is ignored.
  if (sent === null || answer.request !== sent.request) return;
  if (client.state === "acquiring" && answer.kind === "granted") {
    client.state = "holding";
    client.token = answer.token!;
    client.sent = null;
    disarm(node, "timeout");
    // Count the lease from when we SENT the acquire: the service started T no earlier.
    client.deadline = sent.at + TTL - DRIFT_MARGIN;
    arm(node, "renew", sent.at + RENEW_EVERY);
    arm(node, "deadline", client.deadline);
    arm(node, "work", now(node)); // the critical section starts: its first write at once
    if (RELEASE_AFTER !== null) arm(node, "release", now(node) + RELEASE_AFTER);
  } else if (client.state === "acquiring" && answer.kind === "busy") {
    client.sent = null;
    disarm(node, "timeout");
    arm(node, "acquire", sent.at + ACQUIRE_RETRY);
  } else if (client.state === "holding" && answer.kind === "renewed") {
    client.sent = null;
    disarm(node, "timeout");
    // The new deadline also counts from the renew's send time, not from the answer.
    client.deadline = sent.at + TTL - DRIFT_MARGIN;
    arm(node, "renew", sent.at + RENEW_EVERY);
    arm(node, "deadline", client.deadline);
  } else if (client.state === "holding" && answer.kind === "not_owner") {
    lose(node, "not_owner"); // definitive: someone else may hold it now, so no retry
  } else if (client.state === "releasing" && answer.kind === "released") {
    disarmAll(node);
    client.state = "released";
  }
}

function timer(node: any, name: string) {
  due.delete(name);
  const t = now(node);
  const sent = client.sent;
  if (name === "acquire" && client.state === "acquiring" && sent === null) {
    sendAcquire(node);
  } else if (name === "timeout" && sent !== null) {
    client.sent = null;
    if (client.state === "acquiring") arm(node, "acquire", sent.at + ACQUIRE_RETRY);
    // One timeout is not a loss while the budget remains: retry (the deadline ends it).
    if (client.state === "holding") arm(node, "renew", sent.at + RETRY_EVERY);
    if (client.state === "releasing") {
      disarmAll(node); // a polite release is not worth waiting on forever
      client.state = "released";
    }
  } else if (name === "renew" && client.state === "holding" && sent === null) {
    // No budget left: fail closed rather than renew late.
    if (t >= client.deadline) return lose(node, "deadline");
    client.sent = { request: node.renew(client.token), at: t };
    arm(node, "timeout", t + REQUEST_TIMEOUT);
  } else if (name === "deadline" && client.state === "holding") {
    lose(node, "deadline"); // no confirmed renew in time: assume the lease is gone
  } else if (name === "work" && client.state === "holding") {
    // Check the deadline right before writing: a pause may have frozen the heartbeat too.
    if (t >= client.deadline) return lose(node, "deadline");
    node.write(client.token); // the token on every write, so storage can fence a stale one
    arm(node, "work", t + WORK_EVERY);
  } else if (name === "release" && client.state === "holding") {
    disarmAll(node);
    client.state = "releasing";
    client.sent = { request: node.release(client.token), at: t };
    arm(node, "timeout", t + REQUEST_TIMEOUT);
  }
}

function lose(node: any, reason: "not_owner" | "deadline") {
  disarmAll(node); // nothing more to renew, retry or write
  client.state = "lost";
  client.sent = null;
  node.lost(reason); // the lost flag: from here on no write goes out
  node.release(client.token); // best-effort unlock: not awaited, not retried
}
