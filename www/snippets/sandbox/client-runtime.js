// The learner's own client (issue 21): the runtime between the lab's wasm (client_worker)
// and the learner's Python or TypeScript code, as /work/shared-spec/client-api.md sets it out.
//
// A classic script with no access to anything but what it is handed: the page fetches it
// beside worker.js and hands its bytes to a lab worker, which runs it with importScripts from
// a blob: URL (the sandbox's policy allows blob: scripts only), takes
// `self.LeaseLabClientRuntime` and deletes it before any learner code runs. Node loads it
// with vm for tests/client-runtime.test.mjs. It never posts anything: the worker does.
(function (root) {
  "use strict";

  const FILE = { python: "client.py", typescript: "client.ts" };
  const MAX_ERROR_CHARS = 4000;
  // Larger times lose integer precision in microseconds.
  const MAX_US = Number.MAX_SAFE_INTEGER;

  // The simulated clocks of the node whose code runs now (µs), read by the language's own
  // clocks once shadowed (installJsShadows), where the current output goes, and who else is
  // told each line as it is printed (tapOutput).
  const state = { mono: 0, wall: 0, sink: null, tap: null };

  /**
   * Tells `tap(line)` each printed line the run keeps as it is printed, before its handler
   * returns: when a handler never returns, its call's lines would otherwise be lost. Set
   * before the client is prepared.
   */
  function tapOutput(tap) {
    state.tap = typeof tap === "function" ? tap : null;
  }

  // --- The lab's side of a call -------------------------------------------------------------

  // A search makes hundreds of thousands of handler calls, so a call crosses between the lab's
  // wasm (src/bin/client_worker.rs) and this runtime as numbers, not text:
  //
  //   instance.handle(kind, mono, wall, x, y, z) -> r
  //     kind: KINDS' index; mono, wall: the node's clocks (µs);
  //     reply: x = ANSWERS' index, y = request, z = token (granted, renewed, not_owner) or
  //     1/0 for deleted (released); timer: x = the timer name's number.
  //   r >= 0: the call asked for the actions in the buffer's first r numbers;
  //   r < 0: the same for -1 - r numbers, and instance.last() has the rest as JSON text
  //     (the printed lines, or the error, which leaves the buffer unread).
  //
  // The buffer is a Float64Array over the wasm's memory (make.output(memory, ptr, len)), one
  // action in three numbers: [OP, a, b]. Timer names are numbered in order as a run first uses
  // them, afresh for each run (make.newRun(), which the wasm calls before a run's first client):
  // make.timerName(id), make.timerId(name). The wasm checks everything it reads again.
  //
  // The codes, and the limits applied here first, are the wasm's (src/lab/own_client/wire.rs):
  // connect(engine.wire()) sets them once, before any client is made. KINDS, ANSWERS and
  // LOSSES list names by code; OP gives an action's code by its name.
  let KINDS, ANSWERS, LOSSES, OP, SLOT, MAX_ACTIONS, MAX_SLOTS;
  // A handler call may ask for MAX_ACTIONS actions; a run (all its clients) keeps
  // MAX_OUTPUT_LINES printed lines of at most MAX_LINE_CHARS characters.
  let MAX_OUTPUT_LINES, MAX_LINE_CHARS, MAX_NAME_CHARS, CAPPED, PYTHON_PRELUDE;
  // What the learner reads from the runtime is content/runtime.toml's, handed in with the
  // table: each key here with the facts its sentence must name, no more and no fewer.
  const SENTENCES = Object.freeze({
    not_milliseconds: ["call", "arg", "value"],
    too_large: ["call", "arg", "value"],
    not_token: ["call", "value"],
    not_timer_name: ["call", "max", "value"],
    not_reason: ["value"],
    outside_handler: ["call"],
    too_many_actions: ["call", "max"],
    no_handler: ["file", "handler", "what"],
    answer_arrived: [],
    timer_fired: ["name"],
    client_started: [],
    not_async: ["handler"],
    not_generator: ["handler"],
    frame_repeated: ["times"],
    returned_early: ["file"],
    run_ended: [],
    no_setting: ["name", "names"],
    no_answer_field: ["name", "names"],
    no_modules: ["line"],
    at_line_column: ["line", "column"],
    thrown: ["value"],
    unreadable_value: [],
    unreadable_error: ["kind"],
    output_capped: ["lines"],
    assertion_failed: [],
    python_stopped: ["why"],
    unavailable: ["what", "advice"],
    unseeded: ["what"],
    use_timers: [],
    use_monotonic: [],
    use_counter: [],
    use_counter_or_seed: [],
    same_every_time: [],
    use_node_calls: [],
    one_thread: [],
    no_typing: [],
  });
  const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\}/;
  // The sentences as written (for Python's prelude), and split at their placeholders: words
  // at even places, a fact's name at odd ones (filled by concatenation alone, which learner
  // code that rewrites String or RegExp methods cannot reach).
  let WORDS, PARTS;
  // Taken before any learner code runs.
  const stringify = JSON.stringify;

  /** Takes the engine's table of codes and limits; once, and only a well-formed one. */
  function connect(table) {
    if (KINDS) throw new Error("The client runtime is already connected to the lab's engine.");
    const names = (list) => {
      if (!Array.isArray(list) || list.length === 0 || !list.every((n) => n === null || typeof n === "string")) {
        throw new Error("The lab's engine handed the client runtime an unreadable table.");
      }
      return Object.freeze([...list]);
    };
    const count = (n) => {
      if (!Number.isSafeInteger(n) || n <= 0) throw new Error("The lab's engine handed the client runtime an unreadable table.");
      return n;
    };
    const t = table ?? {};
    const kinds = names(t.kinds);
    const ops = names(t.ops);
    [ANSWERS, LOSSES] = [names(t.answers), names(t.losses)];
    OP = Object.freeze(Object.fromEntries(ops.flatMap((name, code) => (name === null ? [] : [[name, code]]))));
    [SLOT, MAX_ACTIONS, MAX_OUTPUT_LINES] = [count(t.slot), count(t.maxActions), count(t.maxOutputLines)];
    [MAX_LINE_CHARS, MAX_NAME_CHARS] = [count(t.maxLineChars), count(t.maxNameChars)];
    MAX_SLOTS = SLOT * MAX_ACTIONS;
    [WORDS, PARTS] = sentences(t.words);
    CAPPED = say("output_capped", { lines: MAX_OUTPUT_LINES });
    PYTHON_PRELUDE = pythonPrelude();
    KINDS = kinds;
  }

  /** The engine's sentences and their parts, if each one the runtime fills is there with its facts. */
  function sentences(words) {
    const unreadable = () => new Error("The lab's engine handed the client runtime an unreadable table.");
    if (!words || typeof words !== "object") throw unreadable();
    const kept = {};
    const parts = {};
    for (const [key, facts] of Object.entries(SENTENCES)) {
      const sentence = words[key];
      if (typeof sentence !== "string") throw unreadable();
      const split = sentence.split(PLACEHOLDER);
      const named = split.filter((_, i) => i % 2 === 1);
      if (named.length !== new Set(named).size || named.length !== facts.length || !facts.every((f) => named.includes(f))) {
        throw unreadable();
      }
      kept[key] = sentence;
      parts[key] = Object.freeze(split);
    }
    return [Object.freeze(kept), Object.freeze(parts)];
  }

  /** The sentence `key` with its facts filled in. */
  function say(key, facts = {}) {
    const parts = PARTS[key];
    let text = "";
    for (let i = 0; i < parts.length; i += 1) text += i % 2 === 1 ? `${facts[parts[i]]}` : parts[i];
    return text;
  }

  function connected() {
    if (!KINDS) throw new Error("The client runtime is not connected to the lab's engine: call connect(engine.wire()) first.");
  }

  /** The answer a reply's numbers stand for, shaped as the learner's code reads it. */
  function answerOf(x, y, z) {
    const kind = ANSWERS[x];
    if (kind === "busy") return { kind, request: y };
    if (kind === "released") return { kind, request: y, deleted: z === 1 };
    return { kind, request: y, token: z };
  }

  /** What every instance of one task shares: the run's timer names and the action buffer. */
  function labSide(make) {
    const ids = new Map();
    const names = [];
    const io = { memory: null, ptr: 0, len: 0, view: new Float64Array(0) };
    make.output = (memory, ptr, len) => {
      io.memory = memory;
      io.ptr = ptr;
      io.len = len;
      io.view = new Float64Array(memory.buffer, ptr, len);
    };
    make.newRun = () => {
      ids.clear();
      names.length = 0;
    };
    make.timerName = (id) => names[id];
    make.timerId = (name) => idOf(String(name));
    function idOf(name) {
      let id = ids.get(name);
      if (id === undefined) {
        id = names.length;
        names.push(name);
        ids.set(name, id);
      }
      return id;
    }
    return {
      names,
      idOf,
      /** The buffer, as a view made anew when the wasm's memory grew (the old one is empty). */
      buffer() {
        if (io.view.length === 0 && io.memory) io.view = new Float64Array(io.memory.buffer, io.ptr, io.len);
        return io.view;
      },
    };
  }

  // --- Output -------------------------------------------------------------------------------

  /** A run's output budget: a new run starts when a client letter is made a second time. */
  function newRun() {
    return { letters: new Set(), lines: 0, capped: false };
  }

  function startInstance(run, letter) {
    if (run.letters.has(letter)) {
      run.letters.clear();
      run.lines = 0;
      run.capped = false;
    }
    run.letters.add(letter);
  }

  /** Adds `text` (one print) to `out` as lines, within the run's cap. */
  function addOutput(run, out, text) {
    if (run.capped) return;
    const lines = text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    for (const line of lines) {
      if (run.lines >= MAX_OUTPUT_LINES) {
        run.capped = true;
        out.push(CAPPED);
        if (state.tap) state.tap(CAPPED);
        return;
      }
      run.lines += 1;
      const kept = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
      out.push(kept);
      if (state.tap) state.tap(kept);
    }
  }

  function show(value) {
    if (typeof value === "string") return value;
    if (typeof value === "function") return `[function ${value.name || "(anonymous)"}]`;
    // NaN, Infinity, -0, 1n, undefined and symbols as themselves (JSON would say null or 0).
    if (typeof value === "bigint") return `${value}n`;
    if (typeof value !== "object" || value === null) return Object.is(value, -0) ? "-0" : String(value);
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (value instanceof RegExp) return String(value);
    try {
      return JSON.stringify(value, shownInside) ?? String(value);
    } catch {
      return String(value);
    }
  }

  /** What JSON would drop or misstate inside a printed object, as readable text instead. */
  function shownInside(key, value) {
    if (typeof value === "number" && !Number.isFinite(value)) return String(value);
    if (typeof value === "bigint") return `${value}n`;
    if (value === undefined && key !== "") return "undefined";
    if (typeof value === "function") return `[function ${value.name || "(anonymous)"}]`;
    if (value instanceof Map) return { [`Map(${value.size})`]: Object.fromEntries([...value].map(([k, v]) => [show(k), v])) };
    if (value instanceof Set) return { [`Set(${value.size})`]: [...value] };
    if (value instanceof RegExp) return String(value);
    return value;
  }

  /** A value as an argument error quotes it ("got NaN", "got \"5\""). */
  function quote(value) {
    if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
    if (value === null || value === undefined) return String(value);
    if (typeof value === "function") return "a function";
    return Array.isArray(value) ? "an array" : "an object";
  }

  function bounded(text) {
    return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
  }

  // --- TypeScript ---------------------------------------------------------------------------

  // A top-level `export` before a declaration is taken away (same line, same length or less),
  // so `export function start(node) {}` works: the code is the body of a factory, where
  // export is not allowed. Only declarations that begin a line are top-level here.
  const EXPORTED = /^export\s+(?=(?:async\s+)?function\b|const\b|let\b|var\b|class\b)/gm;
  // What is left of module syntax at the start of a line (import() and import.meta are fine).
  const MODULE_SYNTAX = /^(?:import\b(?!\s*[(.])|export\b)/;

  /**
   * The module text for the learner's code (JavaScript, after sucrase): a default-exported
   * factory whose body is the code, so that each call runs it afresh, with its own top-level
   * state. Line 1 of the code stays on line 1, so error lines need no shifting.
   */
  // What the learner's line 1 starts with once wrapped: its columns there are this much further right.
  const WRAPPER_HEAD = "export default function () {";

  function wrapTypeScript(js) {
    const code = js.replace(EXPORTED, "");
    const lines = code.split("\n");
    for (let i = 0; i < lines.length; i += 1) {
      if (MODULE_SYNTAX.test(lines[i])) {
        return {
          error: {
            text: `${say("no_modules", { line: i + 1 })}\n`,
            line: i + 1,
          },
        };
      }
    }
    const pick = (name) => `${name}: typeof ${name} === "function" ? ${name} : undefined`;
    return {
      text:
        `${WRAPPER_HEAD}${code}\n` +
        `;return { ${pick("start")}, ${pick("reply")}, ${pick("timer")} };\n}\n`,
    };
  }

  /** An error thrown by learner code as {text, line}, its frames named client.ts. */
  function typeScriptError(error, url) {
    if (!(error instanceof Error)) {
      // A string quoted, a plain object as JSON ({"code":7}, not "[object Object]"), the rest
      // as String gives it.
      let text;
      try {
        text = typeof error === "string" ? stringify(error) : String(error);
        if (text === "[object Object]") text = stringify(error) ?? text;
      } catch {
        try {
          text = String(error);
        } catch {
          text = say("unreadable_value");
        }
      }
      return { text: bounded(say("thrown", { value: text })), line: 0 };
    }
    let stack = "";
    try {
      stack = String(error.stack ?? "");
    } catch {
      // A stack getter of the learner's own.
    }
    let line = 0;
    const frames = [];
    for (const frame of stack.split("\n")) {
      const at = frame.indexOf(url);
      if (at === -1) continue;
      const rest = frame.slice(at + url.length);
      const match = /^:(\d+):(\d+)/.exec(rest);
      if (!match) continue;
      if (!line) line = Number(match[1]);
      const column = Number(match[2]) - (match[1] === "1" ? WRAPPER_HEAD.length : 0);
      const place = `:${match[1]}:${Math.max(column, 1)}${rest.slice(match[0].length)}`;
      frames.push(topLevelFrame(frame.slice(0, at) + FILE.typescript + place));
    }
    let head;
    try {
      head = `${error.name}: ${error.message}`;
    } catch {
      head = "Error";
    }
    return { text: bounded([head, ...collapseRepeats(frames)].join("\n")), line };
  }

  /**
   * A frame of the file's top-level code as the engines write a module's top level (V8
   * "at client.ts:3:9", Firefox "@client.ts:3:9"), not under the name of the function it is
   * wrapped in (see wrapTypeScript), which the learner never wrote. `default` cannot name a
   * function of theirs: it is a reserved word.
   */
  function topLevelFrame(frame) {
    return frame.replace(/^(\s*at )default \((.*)\)$/, "$1$2").replace(/^default@/, "@");
  }

  /** Runs of one frame (a recursion's stack) as the frame once and how often it repeats. */
  function collapseRepeats(frames) {
    const out = [];
    for (let i = 0; i < frames.length; ) {
      let next = i + 1;
      while (next < frames.length && frames[next] === frames[i]) next += 1;
      out.push(frames[i]);
      if (next - i > 1) out.push(`    ${say("frame_repeated", { times: next - i - 1 })}`);
      i = next;
    }
    return out;
  }

  function checkMs(call, arg, value) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new Error(say("not_milliseconds", { call, arg, value: quote(value) }));
    }
    const us = Math.round(value * 1000);
    if (us > MAX_US) throw new Error(say("too_large", { call, arg, value: quote(value) }));
    return us;
  }

  function checkToken(call, value) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new Error(say("not_token", { call, value: quote(value) }));
    }
    return value;
  }

  function checkName(call, value) {
    if (typeof value !== "string" || value.length === 0 || value.length > MAX_NAME_CHARS) {
      throw new Error(say("not_timer_name", { call, max: MAX_NAME_CHARS, value: quote(value) }));
    }
    return value;
  }

  const msOf = (us) => (us === null || us === undefined ? null : us / 1000);

  /** The lab form's numbers (µs from the wasm) in milliseconds, camelCase. */
  function settingsMs(settings) {
    const s = settings ?? {};
    return Object.freeze({
      ttl: msOf(s.ttl),
      renewEvery: msOf(s.renewEvery),
      retryEvery: msOf(s.retryEvery),
      acquireRetry: msOf(s.acquireRetry),
      requestTimeout: msOf(s.requestTimeout),
      workEvery: msOf(s.workEvery),
      driftMargin: msOf(s.driftMargin),
      releaseAfter: msOf(s.releaseAfter),
    });
  }

  /**
   * The `node` a TypeScript client sees. `inst.active` while one of its handler calls is under
   * way; actions go into `inst.out` from `inst.n` on; `side` numbers the timer names.
   */
  function typeScriptNode(name, settings, inst, side) {
    // `named`: `a` is a timer name, numbered once the action is taken (so a name numbered is
    // a name the wasm reads).
    const act = (call, op, a, b, named = false) => {
      if (!inst.active) throw new Error(say("outside_handler", { call }));
      const n = inst.n;
      if (n >= MAX_SLOTS) {
        inst.overflow = say("too_many_actions", { call, max: MAX_ACTIONS.toLocaleString("en") });
        throw new Error(inst.overflow);
      }
      const out = inst.out;
      out[n] = op;
      out[n + 1] = named ? side.idOf(a) : a;
      out[n + 2] = b;
      inst.n = n + SLOT;
    };
    return Object.freeze({
      name,
      settings,
      acquire(ttlMs) {
        act("acquire(ttlMs)", OP.acquire, checkMs("acquire(ttlMs)", "ttlMs", ttlMs), 0);
        return (inst.requests += 1);
      },
      renew(token) {
        act("renew(token)", OP.renew, checkToken("renew(token)", token), 0);
        return (inst.requests += 1);
      },
      release(token) {
        act("release(token)", OP.release, checkToken("release(token)", token), 0);
        return (inst.requests += 1);
      },
      write(token) {
        act("write(token)", OP.write, checkToken("write(token)", token), 0);
        return (inst.writes += 1);
      },
      after(ms, name) {
        const delay = checkMs("after(ms, name)", "ms", ms);
        act("after(ms, name)", OP.after, checkName("after(ms, name)", name), delay, true);
      },
      atWall(wallMs, name) {
        const at = checkMs("atWall(wallMs, name)", "wallMs", wallMs);
        act("atWall(wallMs, name)", OP.at_wall, checkName("atWall(wallMs, name)", name), at, true);
      },
      cancel(name) {
        act("cancel(name)", OP.cancel, checkName("cancel(name)", name), 0, true);
      },
      lost(reason = "deadline") {
        if (reason !== "deadline" && reason !== "not_owner") {
          throw new Error(say("not_reason", { value: quote(reason) }));
        }
        act("lost(reason)", OP.lost, LOSSES.indexOf(reason), 0);
      },
      monotonic: () => state.mono / 1000,
      wall: () => state.wall / 1000,
    });
  }

  const HANDLERS = {
    start: "start(node)",
    reply: "reply(node, answer)",
    timer: "timer(node, name)",
  };

  function missing(kind, timerName) {
    const what =
      kind === "reply" ? say("answer_arrived") : kind === "timer" ? say("timer_fired", { name: stringify(String(timerName)) }) : say("client_started");
    return { error: { text: say("no_handler", { file: FILE.typescript, handler: HANDLERS[kind], what }), line: 0 } };
  }

  /**
   * The instance factory for a TypeScript client: `factory` is the wrapped module's default
   * export, `url` its blob: URL (to find the learner's lines in a stack).
   */
  function typeScriptClient(factory, url) {
    connected();
    const run = newRun();
    // The wasm hands every client of a task the same settings object; their frozen copy in
    // milliseconds is made once.
    let settingsIn = null;
    let settingsOut = null;
    const make = function make(letter, settings) {
      const name = String(letter);
      startInstance(run, name);
      if (settings !== settingsIn || settingsOut === null) {
        settingsOut = settingsMs(settings);
        settingsIn = settings;
      }
      const inst = { active: false, out: null, n: 0, overflow: null, requests: 0, writes: 0, output: [] };
      const node = typeScriptNode(name, settingsOut, inst, side);
      const sink = (text) => addOutput(run, inst.output, text);
      let handlers = null;
      let failure = null;
      let last = null;
      state.mono = 0;
      state.wall = 0;
      state.sink = sink;
      try {
        handlers = factory();
        if (!handlers || typeof handlers !== "object") throw new Error(say("returned_early", { file: FILE.typescript }));
      } catch (error) {
        failure = withOutput({ error: { ...typeScriptError(error, url), top_level: true } }, inst);
      } finally {
        state.sink = null;
      }
      return {
        handle(kind, mono, wall, x, y, z) {
          if (failure) {
            last = failure;
            return -1;
          }
          const call = KINDS[kind];
          const handler = call === "start" ? handlers.start : call === "reply" ? handlers.reply : call === "timer" ? handlers.timer : undefined;
          if (typeof handler !== "function") {
            last = missing(call, side.names[x]);
            return -1;
          }
          inst.out = side.buffer();
          inst.n = 0;
          inst.overflow = null;
          state.mono = mono;
          state.wall = wall;
          state.sink = sink;
          inst.active = true;
          let error = null;
          try {
            const value = call === "reply" ? handler(node, answerOf(x, y, z)) : call === "timer" ? handler(node, side.names[x]) : handler(node);
            if (value !== null && typeof value === "object" && typeof value.then === "function") {
              value.then(undefined, () => {});
              throw new Error(say("not_async", { handler: HANDLERS[call] }));
            }
            // A generator function's body runs only when iterated: the lab never would.
            if (value !== null && typeof value === "object" && typeof value.next === "function" && typeof value[Symbol.iterator] === "function") {
              throw new Error(say("not_generator", { handler: HANDLERS[call] }));
            }
            if (inst.overflow) error = { text: inst.overflow, line: 0 };
          } catch (thrown) {
            error = typeScriptError(thrown, url);
          } finally {
            inst.active = false;
            state.sink = null;
          }
          if (error) {
            last = withOutput({ error }, inst);
            return -1;
          }
          const output = inst.output;
          if (output.length) inst.output = [];
          if (output.length) {
            last = { actions: [], output };
            return -1 - inst.n;
          }
          return inst.n;
        },
        last: () => stringify(last),
      };
    };
    const side = labSide(make);
    return make;
  }

  /** `reply` with the lines printed before it (the last before an error matter most). */
  function withOutput(reply, inst) {
    if (!inst.output.length) return reply;
    const output = inst.output;
    inst.output = [];
    return { ...reply, output };
  }

  /** Turns sucrase's error into the {text, line} a snippet's syntax error gives. */
  function sucraseError(error) {
    const at = error.loc ? say("at_line_column", { line: error.loc.line, column: error.loc.column + 1 }) : "";
    const message = String(error.message)
      .replace(/^Error transforming \S+: /, "")
      .replace(/ \(\d+:\d+\)$/, "");
    return { text: `SyntaxError${at}: ${message}\n`, line: error.loc?.line ?? 0 };
  }

  // --- The language's own clocks and what is out of reach -----------------------------------

  function unavailable(what, advice) {
    return function () {
      throw new Error(say("unavailable", { what, advice }));
    };
  }

  /**
   * Shadows the worker's clocks, randomness, timers, network and console for the learner's
   * code: clocks read the node being handled, the rest throws a plain message. Call it right
   * before the first learner code runs, after the worker captured what it needs itself.
   * `blockCrypto`: false for Python, whose engine draws on crypto.getRandomValues itself
   * (Python's own randomness is blocked in Python instead).
   */
  function installJsShadows(scope, { blockCrypto = true } = {}) {
    const RealDate = scope.Date;
    const wallMs = () => Math.floor(state.wall / 1000);
    const now = () => wallMs();
    const SimDate = new Proxy(RealDate, {
      construct(target, args, newTarget) {
        return Reflect.construct(target, args.length ? args : [wallMs()], newTarget);
      },
      apply() {
        return new RealDate(wallMs()).toString();
      },
      get(target, key, receiver) {
        return key === "now" ? now : Reflect.get(target, key, receiver);
      },
    });
    scope.Date = SimDate;
    // A date's constructor is Date again, not the real one behind it.
    Object.defineProperty(RealDate.prototype, "constructor", { value: SimDate, configurable: true, writable: true });
    // An event's time stamp reads the node's monotonic clock, as performance.now() does.
    if (scope.Event) {
      Object.defineProperty(scope.Event.prototype, "timeStamp", { get: () => state.mono / 1000, configurable: true });
    }
    const perf = scope.performance;
    if (perf) {
      Object.defineProperty(perf, "now", { value: () => state.mono / 1000, configurable: true, writable: true });
      // The real clock's other doors: the worker's start in real time (timeOrigin + now()
      // would be real time again) and marks, which read the real clock themselves.
      Object.defineProperty(perf, "timeOrigin", { value: 0, configurable: true });
      const marks = say("use_monotonic");
      // Entries, and the JSON of the whole, carry real times too.
      for (const name of ["mark", "measure", "getEntries", "getEntriesByName", "getEntriesByType", "toJSON"]) {
        Object.defineProperty(perf, name, { value: unavailable(`performance.${name}`, marks), configurable: true, writable: true });
      }
    }
    // Temporal.Now reads the node's wall clock, as Date does (to the microsecond).
    const temporal = scope.Temporal;
    if (temporal && temporal.Now && temporal.Instant) {
      const zoneId = temporal.Now.timeZoneId.bind(temporal.Now);
      const instant = () => temporal.Instant.fromEpochNanoseconds(BigInt(state.wall) * 1000n);
      const zoned = (zone) => instant().toZonedDateTimeISO(zone === undefined ? zoneId() : zone);
      const now = {
        instant,
        zonedDateTimeISO: zoned,
        plainDateTimeISO: (zone) => zoned(zone).toPlainDateTime(),
        plainDateISO: (zone) => zoned(zone).toPlainDate(),
        plainTimeISO: (zone) => zoned(zone).toPlainTime(),
      };
      for (const [name, value] of Object.entries(now)) {
        Object.defineProperty(temporal.Now, name, { value, configurable: true, writable: true });
      }
    }
    // A date format given no date formats "now": the node's wall clock.
    const dateFormat = scope.Intl && scope.Intl.DateTimeFormat && scope.Intl.DateTimeFormat.prototype;
    const format = dateFormat && Object.getOwnPropertyDescriptor(dateFormat, "format");
    if (format && format.get && format.configurable) {
      Object.defineProperty(dateFormat, "format", {
        configurable: true,
        get() {
          const real = format.get.call(this);
          return (date) => real(date === undefined ? wallMs() : date);
        },
      });
      const toParts = dateFormat.formatToParts;
      Object.defineProperty(dateFormat, "formatToParts", {
        configurable: true,
        writable: true,
        value(date) {
          return toParts.call(this, date === undefined ? wallMs() : date);
        },
      });
    }
    scope.Math.random = unavailable("Math.random", say("use_counter"));
    const timers = say("use_timers");
    scope.setTimeout = unavailable("setTimeout", timers);
    scope.setInterval = unavailable("setInterval", timers);
    if ("requestAnimationFrame" in scope) scope.requestAnimationFrame = unavailable("requestAnimationFrame", timers);
    // The sandbox's policy refuses every connection; these say so in the learner's words.
    for (const name of ["fetch", "XMLHttpRequest", "WebSocket", "EventSource"]) {
      if (name in scope) scope[name] = unavailable(name, say("use_node_calls"));
    }
    if (blockCrypto && scope.crypto) {
      const why = say("same_every_time");
      try {
        Object.defineProperty(scope.crypto, "getRandomValues", { value: unavailable("crypto.getRandomValues", why), configurable: true });
        Object.defineProperty(scope.crypto, "randomUUID", { value: unavailable("crypto.randomUUID", why), configurable: true });
      } catch {
        // Already shadowed.
      }
    }
    const print = (...values) => {
      if (state.sink) state.sink(values.map(show).join(" "));
    };
    for (const method of ["log", "info", "debug", "warn", "error", "trace", "dir", "table"]) scope.console[method] = print;
    scope.console.assert = (condition, ...values) => {
      if (!condition) print(say("assertion_failed"), ...values);
    };
  }

  // --- Python -------------------------------------------------------------------------------

  // Runtime-owned Python, run once in a lab worker before the learner's code is compiled.
  // Actions are kept as JSON text as they are made, so a handler call costs one crossing
  // each way and one JSON.parse.
  const pythonPrelude = () => String.raw`
import builtins as _builtins, sys as _sys, math as _math, json as _json, traceback as _traceback, linecache as _linecache
from types import ModuleType as _Module, GeneratorType as _Generator

_FILE = "client.py"
_MAX_ACTIONS = ${MAX_ACTIONS}
_MAX_LINES = ${MAX_OUTPUT_LINES}
_MAX_LINE_CHARS = ${MAX_LINE_CHARS}
_MAX_NAME = ${MAX_NAME_CHARS}
_MAX_US = ${MAX_US}
_MAX_MS = _MAX_US / 1000
_CAPPED = ${JSON.stringify(CAPPED)}
_WORDS = ${JSON.stringify(WORDS)}
_clock = [0, 0]   # the handled node's monotonic and wall clocks, µs
_dumps = _json.dumps
_modules = _sys.modules
_isfinite = _math.isfinite
_floor = _math.floor
_code = None
_instances = {}
_next = [0]       # instance keys, never reused
_out = []         # what print wrote since the last handler call ended
_run = [0, False] # lines this run, capped
_tap = [None, "", 0] # the runtime's tap (tapOutput) or None, the line being printed, lines tapped this run

class _Names(dict):
    """Timer names as JSON text, for names that are valid (1 to 40 characters); else None."""
    def __missing__(self, name):
        if not 0 < len(name) <= _MAX_NAME:
            return None
        quoted = _dumps(name) if '"' in name or "\\" in name or not name.isprintable() else '"' + name + '"'
        if len(self) < 10000:
            self[name] = quoted
        return quoted

_names = _Names()

def _say(key, **facts):
    """The sentence key of content/runtime.toml with its facts filled in."""
    return _WORDS[key].format_map(facts)

def _ms(call, arg, value):
    t = type(value)
    if (t is int or t is float) and value >= 0 and (t is int or _isfinite(value)):
        if value >= _MAX_MS:
            raise ValueError(_say("too_large", call=call, arg=arg, value=repr(value)))
        return value
    raise ValueError(_say("not_milliseconds", call=call, arg=arg, value=repr(value)))

def _token(call, value):
    if type(value) is int and 0 <= value <= _MAX_US:
        return value
    raise ValueError(_say("not_token", call=call, value=repr(value)))

def _name(call, value):
    if type(value) is str and 0 < len(value) <= _MAX_NAME:
        return value
    raise ValueError(_say("not_timer_name", call=call, max=_MAX_NAME, value=repr(value))[:300])

class _Overflow(RuntimeError):
    pass

class Settings:
    """The lab form's numbers, in milliseconds."""
    __slots__ = ("ttl", "renew_every", "retry_every", "acquire_retry", "request_timeout", "work_every", "drift_margin", "release_after")
    # Read as a dict too, as for a JavaScript object: settings["ttl"], "ttl" in settings.
    def __getitem__(self, key):
        if key not in Settings.__slots__:
            raise KeyError(_say("no_setting", name=repr(key), names=", ".join(Settings.__slots__)))
        return getattr(self, key)
    def __contains__(self, key):
        return key in Settings.__slots__
    def get(self, key, default=None):
        return getattr(self, key) if key in Settings.__slots__ else default
    # A whole read-only mapping: dict(node.settings), {**node.settings}, .items(), iteration.
    def keys(self):
        return list(Settings.__slots__)
    def values(self):
        return [getattr(self, k) for k in Settings.__slots__]
    def items(self):
        return [(k, getattr(self, k)) for k in Settings.__slots__]
    def __iter__(self):
        return iter(Settings.__slots__)
    def __len__(self):
        return len(Settings.__slots__)
    def __repr__(self):
        return "Settings(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"

class Answer:
    """An answer from the lock service: kind, request, token, deleted."""
    __slots__ = ("kind", "request", "token", "deleted")
    def __init__(self, kind, request, token, deleted):
        self.kind = kind
        self.request = request
        self.token = token
        self.deleted = deleted
    def __getitem__(self, key):
        if key not in Answer.__slots__:
            raise KeyError(_say("no_answer_field", name=repr(key), names=", ".join(Answer.__slots__)))
        return getattr(self, key)
    # Read as a dict too: "token" in answer, answer.get("token"), as for a JavaScript object,
    # where a field the kind does not carry is absent (here it is None).
    def __contains__(self, key):
        return key in Answer.__slots__ and getattr(self, key) is not None
    def get(self, key, default=None):
        value = getattr(self, key) if key in Answer.__slots__ else None
        return default if value is None else value
    # The fields the kind carries, as a JavaScript object's keys: dict(answer), {**answer}.
    def keys(self):
        return [k for k in Answer.__slots__ if getattr(self, k) is not None]
    def values(self):
        return [getattr(self, k) for k in self.keys()]
    def items(self):
        return [(k, getattr(self, k)) for k in self.keys()]
    def __iter__(self):
        return iter(self.keys())
    def __len__(self):
        return len(self.keys())
    def __repr__(self):
        return f"Answer(kind={self.kind!r}, request={self.request!r}, token={self.token!r}, deleted={self.deleted!r})"

class Node:
    """The client's node: what it can do and read. Every call is one action.

    Each method has a fast path for well-formed arguments; anything else goes to _check,
    which raises the plain error naming the call (the learner's code is called about
    fifty thousand times a second in a search, so the common case stays short)."""
    __slots__ = ("name", "settings", "_acts", "_requests", "_writes", "_over")

    def _check(self, call, **args):
        acts = self._acts
        for arg, value in args.items():
            if arg == "token":
                _token(call, value)
            elif arg == "name":
                _name(call, value)
            else:
                _ms(call, arg, value)
        if acts is None:
            raise RuntimeError(_say("outside_handler", call=call))
        if len(acts) < _MAX_ACTIONS:
            return
        self._over = _say("too_many_actions", call=call, max=f"{_MAX_ACTIONS:,}")
        raise _Overflow(self._over)

    def acquire(self, ttl_ms):
        acts = self._acts
        t = type(ttl_ms)
        if not ((t is int or t is float) and 0 <= ttl_ms < _MAX_MS and acts is not None and len(acts) < _MAX_ACTIONS):
            self._check("acquire(ttl_ms)", ttl_ms=ttl_ms)
        acts.append('{"do":"acquire","ttl":%d}' % _floor(ttl_ms * 1000 + 0.5))
        self._requests += 1
        return self._requests

    def renew(self, token):
        acts = self._acts
        if not (type(token) is int and 0 <= token <= _MAX_US and acts is not None and len(acts) < _MAX_ACTIONS):
            self._check("renew(token)", token=token)
        acts.append('{"do":"renew","token":%d}' % token)
        self._requests += 1
        return self._requests

    def release(self, token):
        acts = self._acts
        if not (type(token) is int and 0 <= token <= _MAX_US and acts is not None and len(acts) < _MAX_ACTIONS):
            self._check("release(token)", token=token)
        acts.append('{"do":"release","token":%d}' % token)
        self._requests += 1
        return self._requests

    def write(self, token):
        acts = self._acts
        if not (type(token) is int and 0 <= token <= _MAX_US and acts is not None and len(acts) < _MAX_ACTIONS):
            self._check("write(token)", token=token)
        acts.append('{"do":"write","token":%d}' % token)
        self._writes += 1
        return self._writes

    def after(self, ms, name):
        acts = self._acts
        t = type(ms)
        quoted = _names[name] if type(name) is str else None
        if quoted is None or not ((t is int or t is float) and 0 <= ms < _MAX_MS and acts is not None and len(acts) < _MAX_ACTIONS):
            self._check("after(ms, name)", ms=ms, name=name)
        acts.append('{"do":"after","name":%s,"delay":%d}' % (quoted, _floor(ms * 1000 + 0.5)))

    def at_wall(self, wall_ms, name):
        acts = self._acts
        t = type(wall_ms)
        quoted = _names[name] if type(name) is str else None
        if quoted is None or not ((t is int or t is float) and 0 <= wall_ms < _MAX_MS and acts is not None and len(acts) < _MAX_ACTIONS):
            self._check("at_wall(wall_ms, name)", wall_ms=wall_ms, name=name)
        acts.append('{"do":"at_wall","name":%s,"at":%d}' % (quoted, _floor(wall_ms * 1000 + 0.5)))

    def cancel(self, name):
        acts = self._acts
        quoted = _names[name] if type(name) is str else None
        if quoted is None or acts is None or len(acts) >= _MAX_ACTIONS:
            self._check("cancel(name)", name=name)
        acts.append('{"do":"cancel","name":%s}' % quoted)

    def lost(self, reason="deadline"):
        if type(reason) is not str or reason != "deadline" and reason != "not_owner":
            raise ValueError(_say("not_reason", value=repr(reason))[:300])
        acts = self._acts
        if acts is None or len(acts) >= _MAX_ACTIONS:
            self._check("lost(reason)")
        acts.append('{"do":"lost","reason":"%s"}' % reason)

    def monotonic(self):
        return _clock[0] / 1000

    def wall(self):
        return _clock[1] / 1000

    def __repr__(self):
        return f"Node({self.name!r})"

class _Out:
    def write(self, text):
        if text:
            _out.append(str(text))
            if _tap[0] is not None and _tap[2] < _MAX_LINES:
                _tap_lines(str(text))
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

def _tap_lines(text):
    """Tells the runtime's tap each line print finishes, within the run's cap."""
    *done, _tap[1] = (_tap[1] + text).split("\n")
    for line in done:
        if _tap[2] >= _MAX_LINES:
            return
        _tap[2] += 1
        _tap[0](line if len(line) <= _MAX_LINE_CHARS else line[:_MAX_LINE_CHARS] + "…")

def _set_tap(tap):
    _tap[0] = tap

def _take_output():
    text = "".join(_out)
    _out.clear()
    _tap[1] = ""
    if _run[1]:
        return None
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    kept = []
    for line in lines:
        if _run[0] >= _MAX_LINES:
            _run[1] = True
            kept.append(_CAPPED)
            break
        _run[0] += 1
        kept.append(line if len(line) <= _MAX_LINE_CHARS else line[:_MAX_LINE_CHARS] + "…")
    return kept

def _call_output(pending):
    """A call's printed lines: first its instance's top-level lines, if not told yet."""
    lines = _take_output() if _out else None
    return pending + (lines or []) if pending else lines

def _threw(error, pending=None):
    """The reply of a call that threw the error, with the lines printed before it."""
    lines = _call_output(pending)
    if lines:
        return _dumps({"error": error, "output": lines})
    return _dumps({"error": error})

def _describe(error):
    """An exception as the learner's lines of its traceback, and its last line in client.py."""
    try:
        if isinstance(error, _Overflow):
            return {"text": str(error), "line": 0}
        frames = [f for f in _traceback.extract_tb(error.__traceback__) if f.filename == _FILE]
        line = frames[-1].lineno if frames else 0
        text = "".join(_traceback.format_exception_only(type(error), error))
        if frames:
            text = "Traceback (most recent call last):\n" + "".join(_traceback.format_list(frames)) + text
        if isinstance(error, SyntaxError) and error.filename == _FILE and not frames:
            line = error.lineno or 0
        return {"text": text.rstrip("\n")[:${MAX_ERROR_CHARS}], "line": line or 0}
    except BaseException:
        return {"text": _say("unreadable_error", kind=type(error).__name__), "line": 0}

def _compile(source):
    """Compiles the learner's code once; returns None, or its syntax error as JSON."""
    global _code
    _linecache.cache[_FILE] = (len(source), None, source.splitlines(True), _FILE)
    try:
        _code = compile(source, _FILE, "exec", dont_inherit=True)
    except BaseException as error:
        return _dumps(_describe(error))
    return None

def _unavailable(what, advice):
    def unavailable(*args, **kwargs):
        raise RuntimeError(_say("unavailable", what=what, advice=advice))
    return unavailable

def _shadow():
    """The language's clocks read the handled node's; real time and randomness are out of reach."""
    import time, random, os, threading
    clock = _clock
    time.monotonic = lambda: clock[0] / 1e6
    time.perf_counter = time.monotonic
    time.time = lambda: clock[1] / 1e6
    time.monotonic_ns = lambda: clock[0] * 1000
    time.perf_counter_ns = time.monotonic_ns
    time.time_ns = lambda: clock[1] * 1000
    time.sleep = _unavailable("time.sleep", _say("use_timers"))
    same = _say("use_counter")
    for name in ("random", "uniform", "randint", "randrange", "choice", "choices", "shuffle", "sample",
                 "gauss", "normalvariate", "lognormvariate", "expovariate", "vonmisesvariate", "gammavariate",
                 "triangular", "betavariate", "paretovariate", "weibullvariate", "getrandbits", "randbytes",
                 "binomialvariate", "seed"):
        if hasattr(random, name):
            setattr(random, name, _unavailable(f"random.{name}", same))
    real_random = random.Random
    class Random(real_random):
        def __init__(self, x=None, *args, **kwargs):
            if x is None:
                raise RuntimeError(_say("unavailable", what=_say("unseeded", what="random.Random()"), advice=_say("use_counter_or_seed")))
            super().__init__(x, *args, **kwargs)
    random.Random = Random
    random.SystemRandom = _unavailable("random.SystemRandom", same)
    os.urandom = _unavailable("os.urandom", same)
    random._urandom = os.urandom
    threading.Thread.start = _unavailable("threading.Thread.start", _say("one_thread"))
    _builtins.input = _unavailable("input()", _say("no_typing"))
    _sys.stdout = _sys.stderr = _Out()

def _fresh_logging():
    """Logging as a fresh interpreter has it, for each instance: the handlers, levels and loggers
    that one instance's code set up (a module-level addHandler, basicConfig) are not the next
    one's, so another client, or the next plan of a search, does not print each line again."""
    logging = _modules.get("logging")
    if logging is None:
        return
    root = logging.RootLogger(logging.WARNING)
    logging.root = logging.Logger.root = root
    logging.Logger.manager = logging.Manager(root)

def _new(letter, new_run, ttl, renew_every, retry_every, acquire_retry, request_timeout, work_every, drift_margin, release_after):
    """A fresh instance: the learner's module run anew in its own namespace."""
    if new_run:
        _instances.clear()
        _run[0] = 0
        _run[1] = False
        _tap[1] = ""
        _tap[2] = 0
    settings = Settings()
    for key, us in (("ttl", ttl), ("renew_every", renew_every), ("retry_every", retry_every),
                    ("acquire_retry", acquire_retry), ("request_timeout", request_timeout),
                    ("work_every", work_every), ("drift_margin", drift_margin), ("release_after", release_after)):
        setattr(settings, key, None if us is None else (us // 1000 if us % 1000 == 0 else us / 1000))
    node = Node()
    node.name = letter
    node.settings = settings
    node._acts = None
    node._requests = 0
    node._writes = 0
    node._over = None
    # A real module, registered as sys.modules["client"] while its code runs and while each of
    # its handlers does: what reads a class's module there (dataclasses, typing.get_type_hints,
    # pickle) finds this instance's.
    module = _Module("client")
    namespace = module.__dict__
    namespace["__builtins__"] = _builtins
    _modules["client"] = module
    _clock[0] = _clock[1] = 0
    failure = None
    pending = None
    try:
        _fresh_logging()
        exec(_code, namespace)
    except BaseException as error:
        failure = _threw(dict(_describe(error), top_level=True))
    else:
        # What the top level printed is this instance's, told with its first call: the lab
        # makes every client before any call, so the next making must not take these lines.
        pending = _take_output() if _out else None
    handlers = tuple(namespace.get(name) for name in ("start", "reply", "timer"))
    handlers = tuple(h if callable(h) else None for h in handlers)
    key = _next[0]
    _next[0] += 1
    _instances[key] = [node, handlers, failure, module, pending]
    return key

_SIGNATURES = {"start": "start(node)", "reply": "reply(node, answer)", "timer": "timer(node, name)"}

_GONE = _dumps({"error": {"text": _say("run_ended"), "line": 0}})

def _handle(key, kind, mono, wall, answer_kind, request, token, deleted, timer_name=None):
    instance = _instances.get(key)
    if instance is None:
        return _GONE
    node, handlers, failure, _modules["client"], pending = instance
    if failure is not None:
        return failure
    instance[4] = None
    _clock[0] = mono
    _clock[1] = wall
    acts = node._acts = []
    try:
        if kind == "timer":
            handler = handlers[2]
            if handler is not None:
                result = handler(node, timer_name)
        elif kind == "reply":
            handler = handlers[1]
            if handler is not None:
                result = handler(node, Answer(answer_kind, request, token, deleted))
        else:
            handler = handlers[0]
            if handler is not None:
                result = handler(node)
        if handler is None:
            what = _say("answer_arrived") if kind == "reply" else _say("timer_fired", name=repr(timer_name)) if kind == "timer" else _say("client_started")
            raise _Overflow(_say("no_handler", file=_FILE, handler=_SIGNATURES.get(kind, kind), what=what))
        if result is not None and hasattr(result, "__await__"):
            result.close()
            raise RuntimeError(_say("not_async", handler=_SIGNATURES[kind]))
        if isinstance(result, _Generator):
            result.close()
            raise RuntimeError(_say("not_generator", handler=_SIGNATURES[kind]))
    except BaseException as error:
        node._acts = None
        return _threw(_describe(error), pending)
    node._acts = None
    if node._over is not None:
        return _threw({"text": node._over, "line": 0}, pending)
    if _out or pending:
        lines = _call_output(pending)
        if lines:
            return '{"actions":[' + ",".join(acts) + '],"output":' + _dumps(lines) + "}"
    return '{"actions":[' + ",".join(acts) + "]}"
`;

  // Options every start of CPython gets. A run must give the same result every time, sets of
  // strings included; a fresh object each time, since Pyodide writes into `env`.
  const pythonOptions = (more) => ({ env: { PYTHONHASHSEED: "0" }, ...more });

  /**
   * Starts CPython for one task. `boot(options)` is Pyodide's loadPyodide with the engine's
   * files given; the options here are added. A task's interpreter comes from `snapshot` (the
   * memory of one that had booted and run nothing, made by an earlier task's start) when it
   * restores, which skips CPython's bootstrap; else from a full boot, which makes such a
   * snapshot when `makeSnapshot` asks, before anything else runs in it. Anything that fails on
   * the way falls back to the plain full boot. Returns { pyodide, restored, snapshot }, the
   * new snapshot (a Uint8Array) or null.
   */
  async function startPython(boot, { snapshot = null, makeSnapshot = false } = {}) {
    const ready = (pyodide) => {
      // Stdin reads as empty (by default Pyodide would ask the page, which a worker cannot,
      // and fail with an I/O error); the runtime's own input() says why there is none.
      pyodide.setStdin({ stdin: () => null });
      return pyodide;
    };
    if (snapshot) {
      try {
        const pyodide = await boot(pythonOptions({ _loadSnapshot: snapshot }));
        // The hash seed is the snapshot's, not the options'; this also proves it runs.
        if (pyodide.runPython("import sys; sys.flags.hash_randomization") === 0) {
          return { pyodide: ready(pyodide), restored: true, snapshot: null };
        }
      } catch {
        // A full boot below.
      }
    }
    if (makeSnapshot) {
      let pyodide;
      try {
        pyodide = await boot(pythonOptions({ _makeSnapshot: true }));
      } catch {
        return { pyodide: ready(await boot(pythonOptions())), restored: false, snapshot: null };
      }
      let made = null;
      try {
        made = pyodide.makeMemorySnapshot();
      } catch {
        // This task runs all the same; the next one boots in full again.
      }
      return { pyodide: ready(pyodide), restored: false, snapshot: made };
    }
    return { pyodide: ready(await boot(pythonOptions())), restored: false, snapshot: null };
  }

  /**
   * The instance factory for a Python client, or its syntax error. `pyodide` is loaded;
   * the prelude runs in a namespace of its own.
   */
  function pythonClient(pyodide, code) {
    connected();
    const namespace = pyodide.globals.get("dict")();
    pyodide.runPython(PYTHON_PRELUDE, { globals: namespace, filename: "<lab runtime>" });
    const syntax = namespace.get("_compile")(code);
    if (syntax) return { error: JSON.parse(syntax) };
    const pyNew = namespace.get("_new");
    const pyHandle = namespace.get("_handle");
    if (state.tap) namespace.get("_set_tap")((line) => state.tap && state.tap(String(line)));
    const shadow = namespace.get("_shadow");
    const letters = new Set();
    let shadowed = false;
    // Python itself can stop under the learner's code (os._exit, a fatal error of the
    // interpreter): every call from then on, of any client, says so.
    let dead = null;
    const make = (letter, settings) => {
      if (!shadowed) {
        shadow();
        shadowed = true;
      }
      const name = String(letter);
      const fresh = letters.has(name);
      if (fresh) letters.clear();
      letters.add(name);
      const s = settings ?? {};
      state.mono = 0;
      state.wall = 0;
      // undefined arrives in Python as None (null would be a JsNull).
      let key = null;
      if (!dead) {
        try {
          key = pyNew(name, fresh, s.ttl, s.renewEvery, s.retryEvery, s.acquireRetry, s.requestTimeout, s.workEvery, s.driftMargin, s.releaseAfter ?? undefined);
        } catch (error) {
          dead = pythonStopped(error);
        }
      }
      let last = null;
      return {
        // The actions come back as JSON text made in Python (see _handle): all in last().
        handle(kind, mono, wall, x, y, z) {
          if (dead) {
            last = dead;
            return -1;
          }
          state.mono = mono;
          state.wall = wall;
          const call = KINDS[kind];
          try {
            if (call === "reply") {
              const answer = answerOf(x, y, z);
              last = pyHandle(key, "reply", mono, wall, answer.kind, y, answer.token, answer.deleted);
            } else {
              last = pyHandle(key, call, mono, wall, undefined, undefined, undefined, undefined, call === "timer" ? side.names[x] : undefined);
            }
          } catch (error) {
            last = dead = pythonStopped(error);
          }
          return -1;
        },
        last: () => last,
      };
    };
    const side = labSide(make);
    return { make };
  }

  /** What the lab reads when the interpreter itself stopped, `error` being what Pyodide threw. */
  function pythonStopped(error) {
    let why;
    try {
      why = error && error.message ? `${error.name || "Error"}: ${error.message}` : String(error);
    } catch {
      why = say("unreadable_value");
    }
    const text = say("python_stopped", { why });
    return stringify({ error: { text: bounded(text), line: 0 } });
  }

  /**
   * Prepares a TypeScript client from sucrase's output: the module text to import once from
   * a blob: URL, or the syntax error.
   */
  function prepareTypeScript(sucrase, code) {
    let js;
    try {
      // Sucrase keeps line numbers, so runtime errors point at the learner's lines.
      js = sucrase.transform(code, { transforms: ["typescript"], disableESTransforms: true, filePath: FILE.typescript }).code;
    } catch (error) {
      return { error: sucraseError(error) };
    }
    return wrapTypeScript(js);
  }

  const api = Object.freeze({
    FILE,
    connect,
    state,
    wrapTypeScript,
    prepareTypeScript,
    typeScriptClient,
    typeScriptError,
    typeScriptNode,
    startPython,
    pythonClient,
    tapOutput,
    installJsShadows,
    settingsMs,
  });
  if (typeof module === "object" && module && module.exports) module.exports = api;
  else root.LeaseLabClientRuntime = api;
})(typeof self !== "undefined" ? self : globalThis);
