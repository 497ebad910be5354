// Adds the page's Content-Security-Policy to the built index.html; tools/post-build.mjs calls it
// as the first post-build step (by hand: node tools/csp.mjs dist).
// Trunk writes the inline start-up script itself, with hashed file names in it, so its hash
// is known only now. The snippet sandbox's srcdoc iframe is bound by this policy as well as
// its own, so this one allows the sandbox's bootstrap, its blob: workers and wasm.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BOOTSTRAP_HASH } from "../www/snippets/sandbox/runner.js";

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;
const MARK = 'http-equiv="Content-Security-Policy"';

/** The sha256 source of every inline script in `html`, in order. */
export function inlineScriptHashes(html) {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    ([, body]) => `sha256-${createHash("sha256").update(body, "utf8").digest("base64")}`,
  );
}

/** The page's policy, allowing exactly these inline scripts. */
export function pagePolicy(scriptHashes) {
  const hashes = [...scriptHashes, BOOTSTRAP_HASH].map((hash) => `'${hash}'`).join(" ");
  return [
    "default-src 'self'",
    // blob: and the bootstrap's hash are for the snippet sandbox, which inherits this policy.
    `script-src 'self' ${hashes} blob: 'wasm-unsafe-eval'`,
    // The views set a few style attributes and CodeMirror adds its own <style> elements.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** `html` with the policy early in its head (after the charset), before any script. */
export function withPolicy(html) {
  if (html.includes(MARK)) throw new Error("index.html already has a Content-Security-Policy");
  const meta = `<meta ${MARK} content="${pagePolicy(inlineScriptHashes(html))}">`;
  const anchor = /<meta charset[^>]*>/i.exec(html) ?? /<head\b[^>]*>/i.exec(html);
  if (!anchor) throw new Error("index.html has no <head>");
  const end = anchor.index + anchor[0].length;
  if (html.slice(0, end).includes("<script")) throw new Error("a script comes before the policy");
  return `${html.slice(0, end)}\n  ${meta}${html.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folder = process.env.TRUNK_STAGING_DIR ?? process.argv[2] ?? "dist";
  const file = join(folder, "index.html");
  writeFileSync(file, withPolicy(readFileSync(file, "utf8")));
  console.log(`csp: policy added to ${file}`);
}
