// Your lease client. It acquires, renews every renewEvery, writes every workEvery with its
// token, and stops when the lock service answers NOT_OWNER. It looks fine on "Healthy holder".
//
// Now run it against "Client clock steps back (NTP)" and "Stop-the-world pause in the write
// path" (also "Pause between writes") and read the checks: it writes on past its safe
// deadline, as a zombie, until NOT_OWNER comes. Two things to fix, both from the lesson:
//   1. It schedules renewals on the WALL clock (Date.now, node.atWall). An NTP step moves
//      that clock; schedule on the monotonic clock (node.after) instead.
//   2. It trusts the lock service to tell it when the lease is gone. A frozen or cut-off
//      client hears nothing. Keep a safe deadline (the acquire's or renew's SEND time + ttl
//      - driftMargin), declare node.lost("deadline") when it passes without a confirmed
//      renew, and check it before every write.
//
// The lab calls start(node), reply(node, answer) and timer(node, name); a handler asks
// `node` to do things and returns. "Show a solution" opens a reference client.

type Answer = { kind: string; request: number; token?: number; deleted?: boolean };

let RENEW_EVERY = 0, RETRY_EVERY = 0, ACQUIRE_RETRY = 0, REQUEST_TIMEOUT = 0, WORK_EVERY = 0;
let RELEASE_AFTER: number | null = null;

const client = {
  state: "idle", // acquiring, holding, lost, releasing, released
  token: 0,
  sent: null as { request: number; at: number } | null, // the request awaiting an answer
};

function start(node: any) {
  const s = node.settings; // milliseconds
  RENEW_EVERY = s.renewEvery;
  RETRY_EVERY = s.retryEvery;
  ACQUIRE_RETRY = s.acquireRetry;
  REQUEST_TIMEOUT = s.requestTimeout;
  WORK_EVERY = s.workEvery;
  RELEASE_AFTER = s.releaseAfter;
  sendAcquire(node);
}

function sendAcquire(node: any) {
  client.state = "acquiring";
  client.sent = { request: node.acquire(node.settings.ttl), at: Date.now() };
  node.after(REQUEST_TIMEOUT, "timeout");
}

function reply(node: any, answer: Answer) {
  const sent = client.sent;
  if (sent === null || answer.request !== sent.request) return; // an old answer
  client.sent = null;
  node.cancel("timeout");
  if (client.state === "acquiring" && answer.kind === "granted") {
    client.state = "holding";
    client.token = answer.token!;
    node.atWall(sent.at + RENEW_EVERY, "renew"); // renew renewEvery after we asked
    node.after(0, "work"); // start the critical section
    if (RELEASE_AFTER !== null) node.after(RELEASE_AFTER, "release");
  } else if (client.state === "acquiring" && answer.kind === "busy") {
    node.atWall(sent.at + ACQUIRE_RETRY, "acquire");
  } else if (client.state === "holding" && answer.kind === "renewed") {
    node.atWall(sent.at + RENEW_EVERY, "renew");
  } else if (client.state === "holding" && answer.kind === "not_owner") {
    lose(node, "not_owner"); // the service says it is gone: stop
  } else if (client.state === "releasing" && answer.kind === "released") {
    client.state = "released";
  }
}

function timer(node: any, name: string) {
  const sent = client.sent;
  if (name === "acquire" && client.state === "acquiring") {
    sendAcquire(node);
  } else if (name === "timeout" && sent !== null) {
    client.sent = null;
    if (client.state === "acquiring") node.atWall(Date.now() + ACQUIRE_RETRY, "acquire");
    // A timeout is only a blip: the service would say NOT_OWNER if we had lost it.
    if (client.state === "holding") node.atWall(Date.now() + RETRY_EVERY, "renew");
    if (client.state === "releasing") client.state = "released";
  } else if (name === "renew" && client.state === "holding" && sent === null) {
    client.sent = { request: node.renew(client.token), at: Date.now() };
    node.after(REQUEST_TIMEOUT, "timeout");
  } else if (name === "work" && client.state === "holding") {
    node.write(client.token); // we hold the lease, so write
    node.after(WORK_EVERY, "work");
  } else if (name === "release" && client.state === "holding") {
    for (const t of ["renew", "work", "timeout"]) node.cancel(t);
    client.state = "releasing";
    client.sent = { request: node.release(client.token), at: Date.now() };
    node.after(REQUEST_TIMEOUT, "timeout");
  }
}

function lose(node: any, reason: "not_owner" | "deadline") {
  for (const t of ["acquire", "renew", "work", "release", "timeout"]) node.cancel(t);
  client.state = "lost";
  node.lost(reason); // the lost flag: no more writes
  node.release(client.token); // best-effort unlock, not awaited
}
