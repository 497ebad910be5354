// The course bridge's arithmetic, apart from any runtime (tests/course/progress.test.mjs):
// completion and score from the app's tallies and the author's rules (rules.json), and the
// resume texts packed into, and read back from, suspend_data.

/** The version of the suspend_data format written here. */
const FORMAT = 1;

/** Reads the author's rules, or null with the reason when they cannot be used. */
export function readRules(rules) {
  const isCount = (value) => Number.isFinite(value) && value >= 0;
  const completion = rules?.completion;
  const score = rules?.score;
  if (typeof completion !== "object" || completion === null || Array.isArray(completion)) {
    return { problem: "rules.json needs a \"completion\" object" };
  }
  if (typeof score !== "object" || score === null || Array.isArray(score)) {
    return { problem: "rules.json needs a \"score\" object" };
  }
  for (const [name, need] of Object.entries(completion)) {
    if (need !== "all" && !isCount(need)) return { problem: `completion "${name}" must be "all" or a count` };
  }
  for (const [name, points] of Object.entries(score)) {
    if (!isCount(points)) return { problem: `score "${name}" must be a number of points` };
  }
  return { rules: { completion, score } };
}

/**
 * Whether every completion requirement is met, and how far along the learner is (0 to 1,
 * the mean of each requirement's share). A requirement on a tally the app does not report
 * is not met.
 */
export function completion(tallies, required) {
  const shares = Object.entries(required).map(([name, need]) => {
    const tally = tallies[name];
    if (!tally) return 0;
    const [count, of] = tally;
    const target = need === "all" ? of : Math.min(need, of);
    return target <= 0 ? 1 : Math.min(1, count / target);
  });
  const measure = shares.length ? shares.reduce((sum, share) => sum + share, 0) / shares.length : 1;
  return { complete: shares.every((share) => share >= 1), measure };
}

/** The score: each tally's count times its points, out of its total times its points. */
export function score(tallies, points) {
  let raw = 0;
  let max = 0;
  for (const [name, each] of Object.entries(points)) {
    const [count, of] = tallies[name] ?? [0, 0];
    raw += each * count;
    max += each * of;
  }
  return max > 0 ? { raw, min: 0, max } : null;
}

/**
 * The resume texts as suspend_data within `limit` characters: parts are dropped from the
 * end (the least important) until the rest fits.
 */
export function packResume(parts, limit) {
  for (let kept = parts.length; kept >= 0; kept--) {
    const text = JSON.stringify({ v: FORMAT, ...Object.fromEntries(parts.slice(0, kept)) });
    if (text.length <= limit) return text;
  }
  return "";
}

/**
 * The resume texts read back from suspend_data: {} for a first launch, null for anything
 * this bridge did not write (garbage, another format, or over the limit).
 */
export function unpackResume(saved, limit) {
  if (saved === "") return {};
  if (saved.length > limit) return null;
  let value;
  try {
    value = JSON.parse(saved);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || value.v !== FORMAT) return null;
  const parts = Object.create(null);
  for (const [name, text] of Object.entries(value)) {
    if (name === "v") continue;
    if (typeof text !== "string") return null;
    parts[name] = text;
  }
  return parts;
}
