// The reference client as a learner might write it with classes: interfaces, a const enum and
// a string enum, a generic class with parameter properties, `satisfies`, optional chaining,
// non-null assertions, a switch (true), arrow functions and exported handlers.
interface Answer { kind: "granted" | "busy" | "renewed" | "not_owner" | "released"; request: number; token?: number; deleted?: boolean }
interface Node { name: string; settings: Record<string, number | null>; acquire(ms: number): number; renew(t: number): number; release(t: number): number; write(t: number): number; after(ms: number, name: string): void; cancel(name: string): void; lost(r?: "deadline" | "not_owner"): void; monotonic(): number }
const enum State { Idle, Acquiring, Holding, Lost, Releasing, Released }
enum Timer { Acquire = "acquire", Timeout = "timeout", Renew = "renew", Deadline = "deadline", Work = "work", Release = "release" }
type Sent = { request: number; at: number };
const ORDER = [Timer.Acquire, Timer.Timeout, Timer.Renew, Timer.Deadline, Timer.Work, Timer.Release] satisfies Timer[];

class Scheduler<K extends string> {
  private due = new Map<K, number>();
  constructor(private readonly order: readonly K[]) {}
  arm(node: Node, name: K, at: number, t: number): void {
    this.due.set(name, Math.max(at, t));
    for (const n of this.order.slice(this.order.indexOf(name))) {
      if (n === name || this.due.get(n) === this.due.get(name)) {
        node.cancel(n);
        node.after((this.due.get(n)! - t) / 1000, n);
      }
    }
  }
  fired(name: K) { this.due.delete(name); }
  disarm(node: Node, name: K) { node.cancel(name); this.due.delete(name); }
  disarmAll(node: Node) { for (const n of this.due.keys()) node.cancel(n); this.due.clear(); }
}

class LeaseClient {
  state: State = State.Idle;
  token = 0;
  deadline = 0;
  sent?: Sent | null = null;
  private s!: { ttl: number; renewEvery: number; retryEvery: number; acquireRetry: number; requestTimeout: number; workEvery: number; driftMargin: number; releaseAfter: number | null };
  private timers = new Scheduler<Timer>(ORDER);
  static us = (ms: number): number => Math.round(ms * 1000);
  now = (node: Node) => LeaseClient.us(node.monotonic());
  init(node: Node) {
    const u = LeaseClient.us;
    const st = node.settings;
    this.s = { ttl: u(st.ttl!), renewEvery: u(st.renewEvery!), retryEvery: u(st.retryEvery!), acquireRetry: u(st.acquireRetry!), requestTimeout: u(st.requestTimeout!), workEvery: u(st.workEvery!), driftMargin: u(st.driftMargin!), releaseAfter: st.releaseAfter == null ? null : u(st.releaseAfter) };
    this.sendAcquire(node);
  }
  sendAcquire(node: Node) {
    this.state = State.Acquiring;
    this.sent = { request: node.acquire(node.settings.ttl as number), at: this.now(node) };
    this.timers.arm(node, Timer.Timeout, this.sent.at + this.s.requestTimeout, this.now(node));
  }
  onReply(node: Node, answer: Answer) {
    const sent = this.sent;
    if (sent?.request !== answer.request) return;
    const t = this.now(node);
    switch (true) {
      case this.state === State.Acquiring && answer.kind === "granted":
        this.state = State.Holding;
        this.token = answer.token!;
        this.sent = null;
        this.timers.disarm(node, Timer.Timeout);
        this.deadline = sent.at + this.s.ttl - this.s.driftMargin;
        this.timers.arm(node, Timer.Renew, sent.at + this.s.renewEvery, t);
        this.timers.arm(node, Timer.Deadline, this.deadline, t);
        this.timers.arm(node, Timer.Work, t, t);
        if (this.s.releaseAfter !== null) this.timers.arm(node, Timer.Release, t + this.s.releaseAfter, t);
        break;
      case this.state === State.Acquiring && answer.kind === "busy":
        this.sent = null;
        this.timers.disarm(node, Timer.Timeout);
        this.timers.arm(node, Timer.Acquire, sent.at + this.s.acquireRetry, t);
        break;
      case this.state === State.Holding && answer.kind === "renewed":
        this.sent = null;
        this.timers.disarm(node, Timer.Timeout);
        this.deadline = sent.at + this.s.ttl - this.s.driftMargin;
        this.timers.arm(node, Timer.Renew, sent.at + this.s.renewEvery, t);
        this.timers.arm(node, Timer.Deadline, this.deadline, t);
        break;
      case this.state === State.Holding && answer.kind === "not_owner":
        this.lose(node, "not_owner");
        break;
      case this.state === State.Releasing && answer.kind === "released":
        this.timers.disarmAll(node);
        this.state = State.Released;
        break;
    }
  }
  onTimer(node: Node, name: Timer) {
    this.timers.fired(name);
    const t = this.now(node);
    const sent = this.sent;
    if (name === Timer.Acquire && this.state === State.Acquiring && !sent) this.sendAcquire(node);
    else if (name === Timer.Timeout && sent) {
      this.sent = null;
      if (this.state === State.Acquiring) this.timers.arm(node, Timer.Acquire, sent.at + this.s.acquireRetry, t);
      if (this.state === State.Holding) this.timers.arm(node, Timer.Renew, sent.at + this.s.retryEvery, t);
      if (this.state === State.Releasing) { this.timers.disarmAll(node); this.state = State.Released; }
    } else if (name === Timer.Renew && this.state === State.Holding && !sent) {
      if (t >= this.deadline) return this.lose(node, "deadline");
      this.sent = { request: node.renew(this.token), at: t };
      this.timers.arm(node, Timer.Timeout, t + this.s.requestTimeout, t);
    } else if (name === Timer.Deadline && this.state === State.Holding) this.lose(node, "deadline");
    else if (name === Timer.Work && this.state === State.Holding) {
      if (t >= this.deadline) return this.lose(node, "deadline");
      node.write(this.token);
      this.timers.arm(node, Timer.Work, t + this.s.workEvery, t);
    } else if (name === Timer.Release && this.state === State.Holding) {
      this.timers.disarmAll(node);
      this.state = State.Releasing;
      this.sent = { request: node.release(this.token), at: t };
      this.timers.arm(node, Timer.Timeout, t + this.s.requestTimeout, t);
    }
  }
  lose(node: Node, reason: "deadline" | "not_owner") {
    this.timers.disarmAll(node);
    this.state = State.Lost;
    this.sent = null;
    node.lost(reason);
    node.release(this.token);
  }
}

const me = new LeaseClient();
export function start(node: Node) { me.init(node); }
export const reply = (node: Node, answer: Answer) => me.onReply(node, answer);
export const timer = (node: Node, name: string) => me.onTimer(node, name as Timer);
