// "Your client"'s only statically loaded JavaScript. It stays tiny: the editor and the
// sandbox runner come in by dynamic import() when first needed, from the app's own origin.
// Tasks take and report plain objects (see startLab in sandbox/runner.js); the app checks
// every event it receives.
const load = (path) => import(new URL(path, document.baseURI).href);

export async function createEditor(host, language, doc, label, tabMoves, tabIndents, onChange) {
  const editor = await load("vendor/editor.js");
  return editor.createEditor(host, language, doc, label, { moves: tabMoves, indents: tabIndents }, onChange);
}

export async function startLab(request, onEvent) {
  const runner = await load("sandbox/runner.js");
  await runner.startLab(request, onEvent);
}

export async function stopLab(language) {
  const runner = await load("sandbox/runner.js");
  runner.stopLab(language);
}
