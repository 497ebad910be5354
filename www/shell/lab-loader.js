// The page shell's door to the laboratory. Trunk builds src/bin/lab.rs into lab.js and
// lab_bg.wasm, which index.html does not link: they come in here by dynamic import(), from
// the page's own origin, when the Sandbox needs them or the page is idle. The lab's
// stylesheet loads first, so that the lab never arrives unstyled.
let loading;

/** The laboratory's module, started once with the page's original link. */
export function loadLab(openedWith, onFields) {
  loading ??= (async () => {
    await stylesheet("lab.css");
    const lab = await import(new URL("lab.js", document.baseURI).href);
    // A Sandbox link's first paint began compiling it (www/shell/first-paint.js).
    const early = window.leaseLabWasm?.lab;
    await lab.default(early ? { module_or_path: early } : undefined);
    lab.start(openedWith, onFields);
    return lab;
  })();
  // A failed load is shown where the lab was wanted; loading at idle leaves it at that.
  loading.catch(() => {});
  return loading;
}

function stylesheet(path) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(path, document.baseURI).href;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

export const mountLab = (lab, host, part) => lab.mount(host, part);

export const unmountLab = (view) => view.unmount();

/** Calls `callback` once the browser is idle (or soon, where it cannot tell). */
export function whenIdle(callback) {
  if ("requestIdleCallback" in window) requestIdleCallback(() => callback(), { timeout: 3000 });
  else setTimeout(() => callback(), 500);
}
