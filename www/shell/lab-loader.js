// The page shell's door to the laboratory. Trunk builds src/bin/lab.rs into lab.js and
// lab_bg.wasm, which index.html does not link: they come in here by dynamic import(), from
// the page's own origin, when the Sandbox needs them or the page is idle. The lab's
// stylesheet loads alongside, and the lab starts once it has loaded, so that it never arrives
// unstyled.
let loading;
let started;

/**
 * The laboratory's module, started once with the link `link()` returns then (the page's
 * original link, or one followed since). It sends its link fields to `onFields` and what of
 * a link it could not read to `onProblems`.
 */
export function loadLab(link, onFields, onProblems) {
  loading ??= (async () => {
    // A Sandbox link's first paint already put in the stylesheet and imported and
    // instantiated the module, beside the lesson's own start (www/shell/first-paint.js);
    // where that failed, this tries again.
    const early = window.leaseLabWasm;
    const styled = early?.labStyle ?? stylesheet("lab.css");
    const lab = await (early?.labModule ? early.labModule.catch(instantiate) : instantiate());
    await styled;
    lab.start(link(), onFields, onProblems);
    started = lab;
    return lab;
  })();
  // A failed load is shown where the lab was wanted; loading at idle leaves it at that.
  loading.catch(() => {});
  return loading;
}

/** The laboratory's module, imported and instantiated (not started). */
async function instantiate() {
  const lab = await import(new URL("lab.js", document.baseURI).href);
  await lab.default();
  return lab;
}

/** Resolves once the stylesheet at `path` has loaded (or failed). */
function stylesheet(path) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(path, document.baseURI).href;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

/** Hands a link followed in the open page to the started laboratory. */
export const followLab = (link) => started?.follow(link);

export const mountLab = (lab, host, part) => lab.mount(host, part);

export const unmountLab = (view) => view.unmount();

/** Calls `callback` once the browser is idle (or soon, where it cannot tell). */
export function whenIdle(callback) {
  if ("requestIdleCallback" in window) requestIdleCallback(() => callback(), { timeout: 3000 });
  else setTimeout(() => callback(), 500);
}
