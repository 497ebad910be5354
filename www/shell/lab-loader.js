// The page shell's door to the laboratory. Trunk builds src/bin/lab.rs into lab.js and
// lab_bg.wasm, which index.html does not link: they come in here by dynamic import(), from
// the page's own origin, when the Sandbox needs them or the page is idle. The lab's
// stylesheet loads alongside, and the lab starts once it applies, so that it never arrives
// unstyled.
let loading;

/** The laboratory's module, started once with the page's original link. */
export function loadLab(openedWith, onFields) {
  loading ??= (async () => {
    const styled = stylesheet("lab.css");
    // A Sandbox link's first paint already imported and instantiated it, beside the
    // lesson's own start (www/shell/first-paint.js); where that failed, this tries again.
    const early = window.leaseLabWasm?.labModule;
    const lab = await (early ? early.catch(instantiate) : instantiate());
    await styled;
    lab.start(openedWith, onFields);
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

/** Resolves once the stylesheet at `path` applies (or failed): the first paint's own link
 * to it where a Sandbox link put one in, else a new one. */
function stylesheet(path) {
  const href = new URL(path, document.baseURI).href;
  const link = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href)
    ?? document.head.appendChild(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
  if (link.sheet) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
}

export const mountLab = (lab, host, part) => lab.mount(host, part);

export const unmountLab = (view) => view.unmount();

/** Calls `callback` once the browser is idle (or soon, where it cannot tell). */
export function whenIdle(callback) {
  if ("requestIdleCallback" in window) requestIdleCallback(() => callback(), { timeout: 3000 });
  else setTimeout(() => callback(), 500);
}
