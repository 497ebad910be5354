// The two SCORM runtimes the bridge speaks to, and a guard around every call to them: an
// LMS's API is untrusted, so a call that throws, fails or answers nonsense puts the guard in
// trouble once, and from then on it calls nothing.

const hours = (ms) => Math.floor(ms / 3_600_000);
const minutes = (ms) => Math.floor(ms / 60_000) % 60;
const seconds = (ms) => ((ms % 60_000) / 1000).toFixed(2);

/** The names and limits of SCORM 1.2 and SCORM 2004 (4th edition). */
export const DIALECTS = {
  scorm12: {
    initialize: "LMSInitialize",
    terminate: "LMSFinish",
    getValue: "LMSGetValue",
    setValue: "LMSSetValue",
    commit: "LMSCommit",
    suspendData: "cmi.suspend_data",
    suspendLimit: 4096,
    status: "cmi.core.lesson_status",
    statuses: ["passed", "completed", "failed", "incomplete", "browsed", "not attempted"],
    finished: ["passed", "completed"],
    progressMeasure: null,
    score: { raw: "cmi.core.score.raw", min: "cmi.core.score.min", max: "cmi.core.score.max", scaled: null },
    // CMIDecimal scores of SCORM 1.2 are read as 0 to 100 by LMSs (and checked so by some).
    scoreCeiling: 100,
    exit: "cmi.core.exit",
    sessionTime: "cmi.core.session_time",
    // CMITimespan: HHHH:MM:SS.SS
    timespan: (ms) =>
      `${String(Math.min(hours(ms), 9999)).padStart(4, "0")}:${String(minutes(ms)).padStart(2, "0")}:${seconds(ms).padStart(5, "0")}`,
  },
  scorm2004: {
    initialize: "Initialize",
    terminate: "Terminate",
    getValue: "GetValue",
    setValue: "SetValue",
    commit: "Commit",
    suspendData: "cmi.suspend_data",
    suspendLimit: 64000,
    status: "cmi.completion_status",
    statuses: ["completed", "incomplete", "not attempted", "unknown"],
    finished: ["completed"],
    progressMeasure: "cmi.progress_measure",
    score: { raw: "cmi.score.raw", min: "cmi.score.min", max: "cmi.score.max", scaled: "cmi.score.scaled" },
    scoreCeiling: Infinity,
    exit: "cmi.exit",
    sessionTime: "cmi.session_time",
    // An ISO 8601 duration.
    timespan: (ms) => `PT${hours(ms)}H${minutes(ms)}M${seconds(ms)}S`,
  },
};

/** One LMS API, every call guarded. */
export class Runtime {
  constructor(api, dialect, onTrouble) {
    this.api = api;
    this.dialect = dialect;
    this.onTrouble = onTrouble;
    this.troubled = false;
  }

  /** Stops calling the API, and says why once (for the author, in the console). */
  trouble(why) {
    if (this.troubled) return;
    this.troubled = true;
    console.warn(`Lease Lab course bridge: progress is not being reported (${why}).`);
    this.onTrouble();
  }

  call(method, ...args) {
    if (this.troubled) return undefined;
    try {
      return this.api[this.dialect[method]](...args);
    } catch (error) {
      this.trouble(`${this.dialect[method]} threw ${error}`);
      return undefined;
    }
  }

  /** Calls a method that answers "true" on success. */
  succeed(method, ...args) {
    const answer = this.call(method, ...args);
    if (this.troubled) return false;
    if (answer === true || answer === "true") return true;
    this.trouble(`${this.dialect[method]}(${args.join(", ")}) answered ${String(answer).slice(0, 40)}`);
    return false;
  }

  /** A value, or null (in trouble) when the answer is not a string. */
  get(element) {
    const answer = this.call("getValue", element);
    if (this.troubled) return null;
    if (typeof answer === "string") return answer;
    this.trouble(`${element} read as ${typeof answer}`);
    return null;
  }

  set(element, value) {
    return this.succeed("setValue", element, String(value));
  }
}
