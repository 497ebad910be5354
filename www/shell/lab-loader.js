// The page shell's door to the laboratory. Trunk builds src/bin/lab.rs into lab.js and
// lab_bg.wasm, which index.html does not link: they come in here by dynamic import(), from
// the page's own origin, when the Sandbox needs them or the page is idle. The lab's
// stylesheet loads alongside, and the lab starts once it has loaded, so that it never arrives
// unstyled. A Sandbox link's laboratory starts before the lesson, from the first-paint
// script (www/shell/first-paint.js); the lesson adopts it here when it hydrates.
let loading;
let started;
/** The link the shell had when it took over a laboratory started early. */
let shellLink;

/** The laboratory a Sandbox link started before the lesson came, or none. */
const earlyLab = () => window.leaseLabWasm?.lab;

/**
 * The laboratory's module, started once with the link `link()` returns then (the page's
 * original link, or one followed since). It sends its link fields to `onFields` and what of
 * a link it could not read to `onProblems`.
 */
export function loadLab(link, onFields, onProblems) {
  loading ??= (async () => {
    const early = window.leaseLabWasm;
    if (early?.lab) {
      // Started already: what it said before the shell was there reaches the shell now,
      // and a link followed since is shown (once back in the page, if it stepped aside).
      early.lab.connect(onFields, onProblems);
      shellLink = link();
      if (!early.lab.aside && shellLink !== early.lab.link) early.lab.module.follow(shellLink);
      started = early.lab.module;
      return started;
    }
    // A Sandbox link's first paint already put in the stylesheet and imported and
    // instantiated the module, beside the lesson's own start (www/shell/first-paint.js);
    // where that failed, this tries again.
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

/**
 * Called by the lesson before it hydrates (src/app/lab_loader.rs): hydration must find the
 * pre-rendered markup as the server wrote it, so a laboratory started early steps out of it,
 * whole and running, for mountLab to put back (when the Sandbox opens), or is taken down
 * (when another tab does, or when it has not settled within 2 s, as in a background tab).
 * It starts early no more after this. Returns a promise to wait for, where there is such a
 * laboratory: it steps aside only once its render has settled (the sections that join after
 * its first paint are in), so that nothing of it is put into the page while it is out.
 */
export function beforeHydrating(sandboxOpen) {
  const early = window.leaseLabWasm;
  if (!early) return undefined;
  early.lessonStarted = true;
  const lab = early.lab;
  if (!lab) return undefined;
  const restore = () => lab.host.replaceChildren(...lab.prerendered);
  // Yew takes it down in a microtask of its own: the markup is restored after that.
  const takeDown = () => {
    lab.view.unmount();
    lab.view = null;
    return new Promise((done) => setTimeout(done)).then(restore);
  };
  if (!sandboxOpen) return takeDown();
  return settled(lab.host, 2000).then((ok) => {
    if (!ok) return takeDown();
    // The page may paint while the lesson hydrates: the host keeps the lab's height, so
    // nothing below it moves while the lab is out.
    lab.host.style.minHeight = `${lab.host.getBoundingClientRect().height}px`;
    lab.aside = [...lab.host.childNodes];
    restore();
  });
}

/** Resolves to true once the laboratory at `host` has settled, or to false after `ms`. */
function settled(host, ms) {
  return new Promise((done) => {
    if (host.hasAttribute("data-lab-settled")) return done(true);
    const observer = new MutationObserver(() => {
      if (!host.hasAttribute("data-lab-settled")) return;
      observer.disconnect();
      clearTimeout(timer);
      done(true);
    });
    observer.observe(host, { attributes: true, attributeFilter: ["data-lab-settled"] });
    const timer = setTimeout(() => {
      observer.disconnect();
      done(false);
    }, ms);
  });
}

/**
 * Puts a laboratory that stepped aside back into its host; the view, if it is still up.
 * Until then nothing else may touch it: its nodes are out of the page.
 */
function takeBack(early) {
  if (!early?.aside) return early?.view ?? null;
  early.host.replaceChildren(...early.aside);
  early.host.style.minHeight = "";
  early.aside = null;
  if (shellLink !== undefined && shellLink !== early.link) early.module.follow(shellLink);
  return early.view;
}

/** Hands a link followed in the open page to the started laboratory. */
export function followLab(link) {
  takeBack(earlyLab());
  started?.follow(link);
}

/** Mounts `part` of the laboratory into `host`, or adopts the one started there early. */
export function mountLab(lab, host, part) {
  const early = earlyLab();
  const view = takeBack(early);
  if (view) {
    early.view = null;
    if (early.host === host && part === "sandbox" && lab.fits(host)) return view;
    view.unmount();
  }
  return lab.mount(host, part);
}

export const unmountLab = (view) => view.unmount();

/** Calls `callback` once the browser is idle (or soon, where it cannot tell). */
export function whenIdle(callback) {
  if ("requestIdleCallback" in window) requestIdleCallback(() => callback(), { timeout: 3000 });
  else setTimeout(() => callback(), 500);
}
