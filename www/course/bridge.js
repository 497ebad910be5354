// The course bridge: reports the learner's progress to a SCORM 1.2 or 2004 runtime. Only a
// course package loads it (www/shell/course-detect.js finds the API and calls `connect`);
// the app talks to it through the channel `connect` returns, documented in
// src/app/course.rs. It initialises the runtime, hands back what the last launch kept in
// suspend_data, reports completion, score and progress by the author's rules (rules.json),
// commits when the page is hidden and finishes when it goes away. Whatever the LMS does,
// the page keeps working: a failing, throwing or nonsensical runtime (or none) is reported
// once through the channel, and nothing more is asked of it.
import { DIALECTS, Runtime } from "./scorm.js";
import { completion, packResume, readRules, score, unpackResume } from "./progress.js";

/** How long reports are gathered before they are written to the runtime. */
const WRITE_DELAY_MS = 500;

/** Starts the bridge on `api` (or none), speaking `format` ("scorm12" or "scorm2004"). */
export async function connect(api, format) {
  const started = Date.now();
  let notify = null;
  let troubled = false;
  const onTrouble = () => {
    troubled = true;
    notify?.();
    notify = null;
  };
  const dialect = DIALECTS[format];
  const lms = new Runtime(api, dialect ?? DIALECTS.scorm2004, onTrouble);
  if (!api || !dialect) lms.trouble(api ? `unknown format ${format}` : "no SCORM API was found");
  const rules = await loadRules(lms);
  const saved = begin(lms);

  let latest = null;
  let timer = null;
  let completed = saved?.completed ?? false;
  let finished = false;

  const write = () => {
    clearTimeout(timer);
    timer = null;
    if (!latest || lms.troubled || finished) return;
    const { tallies, resume } = latest;
    latest = null;
    const done = completion(tallies, rules.completion);
    const reached = done.complete && !completed;
    // Completion is never taken back (a learner may reset the Q&A after finishing).
    completed ||= done.complete;
    lms.set(dialect.status, completed ? "completed" : "incomplete");
    if (dialect.progressMeasure) lms.set(dialect.progressMeasure, (completed ? 1 : done.measure).toFixed(4));
    const points = score(tallies, rules.score);
    if (points) {
      const scale = points.max > dialect.scoreCeiling ? dialect.scoreCeiling / points.max : 1;
      lms.set(dialect.score.raw, round(points.raw * scale));
      lms.set(dialect.score.min, round(points.min * scale));
      lms.set(dialect.score.max, round(points.max * scale));
      if (dialect.score.scaled) lms.set(dialect.score.scaled, (points.raw / points.max).toFixed(4));
    }
    lms.set(dialect.suspendData, packResume(resume, dialect.suspendLimit));
    if (reached) lms.succeed("commit", "");
  };

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "hidden" || finished) return;
    write();
    lms.succeed("commit", "");
  });
  addEventListener("pagehide", () => {
    if (finished) return;
    write();
    // "suspend": the next launch resumes this attempt, with its suspend_data.
    lms.set(dialect.exit, "suspend");
    lms.set(dialect.sessionTime, dialect.timespan(Date.now() - started));
    lms.succeed("terminate", "");
    finished = true;
  });

  return {
    restored: saved?.resume ?? null,
    report(progress) {
      if (!validProgress(progress)) return;
      latest = progress;
      timer ??= setTimeout(write, WRITE_DELAY_MS);
    },
    onTrouble(callback) {
      if (troubled) callback();
      else notify = callback;
    },
  };
}

/** Initialises the runtime and reads what the last launch left, or null in trouble. */
function begin(lms) {
  if (lms.troubled || !lms.succeed("initialize", "")) return null;
  const { dialect } = lms;
  const status = lms.get(dialect.status);
  const suspended = lms.get(dialect.suspendData);
  if (status === null || suspended === null) return null;
  if (!dialect.statuses.includes(status)) {
    lms.trouble(`${dialect.status} read as ${status.slice(0, 40)}`);
    return null;
  }
  const resume = unpackResume(suspended, dialect.suspendLimit);
  if (!resume) {
    lms.trouble(`${dialect.suspendData} holds ${suspended.length} characters this bridge did not write`);
    return null;
  }
  return { resume, completed: dialect.finished.includes(status) };
}

/** The author's completion and score rules, beside this file. */
async function loadRules(lms) {
  const fallback = { completion: {}, score: {} };
  try {
    const response = await fetch(new URL("rules.json", import.meta.url));
    const { rules, problem } = readRules(await response.json());
    if (rules) return rules;
    lms.trouble(problem);
  } catch (error) {
    lms.trouble(`rules.json could not be read: ${error}`);
  }
  return fallback;
}

/** Whether the app's report has the shape the channel promises. */
function validProgress(progress) {
  return (
    typeof progress?.tallies === "object" &&
    Array.isArray(progress.resume) &&
    progress.resume.every((part) => Array.isArray(part) && part.length === 2 && part.every((s) => typeof s === "string"))
  );
}

const round = (value) => Math.round(value * 100) / 100;
