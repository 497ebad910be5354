// Inlined into index.html's head by tools/post-build.mjs (its hash goes into the CSP).
// Package mode: a SCORM runtime's API in this window's parent chain or an opener's (the
// standard API discovery), or the index.html of a course package (tools/package.mjs marks
// it) that its platform launched without one. Only then is the course bridge loaded
// (www/course/bridge.js), and the app waits for its channel before it starts
// (src/app/course.rs). Anywhere else this script finds nothing and does nothing more.
(() => {
  const packaged = document.querySelector('meta[name="lease-lab-package"]')?.content;
  const names =
    packaged === "scorm12" ? ["API"] : packaged === "scorm2004" ? ["API_1484_11"] : ["API_1484_11", "API"];
  // Up a parent chain, as ADL's discovery does; a frame of another origin ends the search.
  const search = (start, name) => {
    for (let win = start, hops = 0; win && hops < 500; win = win.parent, hops++) {
      try {
        if (win[name]) return win[name];
        if (win.parent === win) return null;
      } catch {
        return null;
      }
    }
    return null;
  };
  const openers = () => {
    try {
      return [window.opener, window.top.opener];
    } catch {
      return [];
    }
  };
  let found = null;
  for (const name of names) {
    for (const start of [window, ...openers()]) {
      const api = start ? search(start, name) : null;
      found ??= api ? { api, format: name === "API" ? "scorm12" : "scorm2004" } : null;
    }
  }
  if (!found && !packaged) return;
  const bridge = import(new URL("course/bridge.js", document.baseURI).href).then((module) =>
    module.connect(found?.api ?? null, found?.format ?? packaged));
  // The app waits for the bridge; one that does not answer in time counts as a failure.
  const late = new Promise((resolve) => setTimeout(resolve, 5000, null));
  const channel = Promise.race([bridge, late]).catch(() => null);
  Object.defineProperty(window, "leaseLabCourse", { value: channel });
})();
