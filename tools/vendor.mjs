// Copies and bundles the lazily loaded engines from node_modules into www/vendor/ (gitignored):
//   editor.js   CodeMirror 6 with Python and TypeScript modes, one ESM file (esbuild)
//   sucrase.js  the TypeScript → JavaScript transform, one IIFE defining `sucrase` (esbuild)
//   pyodide/    CPython for the browser, the files the sandbox hands to its worker
// Idempotent: a stamp of every input lets a second run finish at once.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vendor = join(root, "www", "vendor");
const editorEntry = join(root, "www", "snippets", "editor.js");
const pyodideDir = join(root, "node_modules", "pyodide");
export const PYODIDE_FILES = [
  "pyodide.mjs",
  "pyodide.asm.mjs",
  "pyodide.asm.wasm",
  "python_stdlib.zip",
  "pyodide-lock.json",
];
const outputs = [
  "editor.js",
  "sucrase.js",
  ...PYODIDE_FILES.map((file) => join("pyodide", file)),
].map((file) => join(vendor, file));

function inputsStamp() {
  const hash = createHash("sha256");
  for (const file of [
    join(root, "package-lock.json"),
    editorEntry,
    fileURLToPath(import.meta.url),
  ]) {
    hash.update(readFileSync(file));
  }
  return hash.digest("hex");
}

// Kept out of www/vendor, which is copied into dist as it is; a fresh npm install resets it.
const stampFile = join(root, "node_modules", ".cache", "lease-lab-vendor.stamp");
const stamp = inputsStamp();
const upToDate =
  existsSync(stampFile) &&
  readFileSync(stampFile, "utf8") === stamp &&
  outputs.every((file) => existsSync(file));

if (upToDate) {
  console.log("vendor: www/vendor is up to date");
} else {
  mkdirSync(join(vendor, "pyodide"), { recursive: true });
  const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning" };
  await build({
    ...common,
    entryPoints: [editorEntry],
    outfile: join(vendor, "editor.js"),
    format: "esm",
    platform: "browser",
    target: "es2020",
  });
  await build({
    ...common,
    entryPoints: [join(root, "node_modules", "sucrase", "dist", "esm", "index.js")],
    outfile: join(vendor, "sucrase.js"),
    format: "iife",
    globalName: "sucrase",
    platform: "browser",
    target: "es2020",
  });
  for (const file of PYODIDE_FILES) {
    copyFileSync(join(pyodideDir, file), join(vendor, "pyodide", file));
  }
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, stamp);
  console.log("vendor: rebuilt www/vendor");
}
