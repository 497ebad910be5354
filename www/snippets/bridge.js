// The snippet panels' only statically loaded JavaScript. It stays tiny: the editor and the
// sandbox runner come in by dynamic import() when first needed, from the app's own origin.
const load = (path) => import(new URL(path, document.baseURI).href);

export async function createEditor(host, language, doc, label, onChange) {
  const editor = await load("vendor/editor.js");
  return editor.createEditor(host, language, doc, label, onChange);
}

export async function startRun(language, code, limitMs, onEvent) {
  const runner = await load("sandbox/runner.js");
  runner.startRun(language, code, limitMs, onEvent);
}

export async function stopRun(language) {
  const runner = await load("sandbox/runner.js");
  runner.stopRun(language);
}
