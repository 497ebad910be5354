// Inlined into index.html's head by tools/post-build.mjs (its hash goes into the CSP), with
// TAB_SLUGS replaced by the tabs' slugs and LESSON_MODULE by the lesson module's script, the
// scripts to preload (with their integrity), its wasm file and integrity. Before the wasm
// has hydrated the pre-rendered lesson, it shows the tab the link names at first paint. The
// page's controls wait for the wasm (the tab strip appears, and clicks land, once they
// work), but for a laboratory started here; if the wasm fails, the tabs work from here, so
// the lesson stays readable. Without JavaScript every panel shows.
(() => {
  const tabs = TAB_SLUGS;
  const lessonModule = LESSON_MODULE;
  const root = document.documentElement;
  const hydrated = () => root.hasAttribute("data-hydrated");
  const linked = () => {
    const path = location.hash.replace(/^#/, "").split("?")[0].replace(/^\/+|\/+$/g, "").toLowerCase();
    return tabs.includes(path) ? path : tabs[0];
  };
  // Embed mode replaces the lesson with one view: hide the lesson until then.
  const query = `${location.search.slice(1)}&${location.hash.split("?")[1] ?? ""}`;
  const embed = query.split("&").some((pair) => {
    const [key, value] = pair.split("=");
    return key === "embed" && value !== "0" && value !== "off";
  });
  if (embed) root.setAttribute("data-embed", "");
  root.setAttribute("data-pending", "");
  // Without the wasm the tabs are this script's: let them show and take clicks.
  const release = () => hydrated() || root.removeAttribute("data-pending");
  addEventListener("error", release);
  addEventListener("unhandledrejection", release);
  setTimeout(release, 8000);
  const style = document.createElement("style");
  style.textContent =
    "html[data-tab] .panel{display:none}" +
    tabs.map((tab) => `html[data-tab="${tab}"] #panel-${tab}`).join(",") +
    "{display:block}html[data-embed] #app>:not(.embed){display:none}" +
    "html[data-pending] #app{pointer-events:none}html[data-pending] .tabs{visibility:hidden}" +
    "html[data-pending] .lab-mount[data-lab-ready]{pointer-events:auto}" +
    "html[data-pending][data-lab-early] .tabs{visibility:visible}" +
    "html[data-pending][data-lab-early] .tabs [role=tab]{pointer-events:auto}";
  document.head.append(style);
  const show = () => {
    if (hydrated()) return;
    const open = linked();
    root.setAttribute("data-tab", open);
    for (const tab of tabs) {
      const button = document.getElementById(`tab-${tab}`);
      const panel = document.getElementById(`panel-${tab}`);
      if (button) {
        button.setAttribute("aria-selected", String(tab === open));
        button.tabIndex = tab === open ? 0 : -1;
      }
      if (panel) panel.hidden = tab !== open;
    }
  };
  // The wasm compiles on another thread while the page is parsed and laid out, instead of
  // once the module scripts run after that; their init takes the compiled module. When this
  // fails (a host that sends wasm with another type does not stream), init gets a fresh
  // response and reports any error itself.
  const compileEarly = (href, integrity) => {
    const url = new URL(href, document.baseURI);
    const compiled = fetch(url, { integrity }).then((response) =>
      response.ok && response.headers.get("content-type")?.startsWith("application/wasm")
        ? WebAssembly.compileStreaming(response)
        : Promise.reject(new Error(`${href}: ${response.status}`)));
    return compiled.catch(() => fetch(url));
  };
  // Fetched now and run by Trunk's start-up script, as the preloads Trunk wrote would.
  const preloadLesson = () => {
    for (const { href, integrity } of lessonModule.preloads) {
      const link = document.createElement("link");
      Object.assign(link, { rel: "modulepreload", href, integrity, crossOrigin: "anonymous" });
      document.head.append(link);
    }
  };
  // Resolves once the response at `url` has come in whole (its resource timing entry).
  const arrived = (url) => new Promise((done) => {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.name === url)) {
        observer.disconnect();
        done();
      }
    });
    observer.observe({ type: "resource" });
  });
  const compileLesson = () => compileEarly(lessonModule.wasm, lessonModule.integrity);
  const early = {};
  // Starts the laboratory and mounts it into the Sandbox panel's pre-rendered mount, once
  // the page is parsed, unless the lesson came first (or a course package waits for its
  // platform): the lesson adopts it when it hydrates (www/shell/lab-loader.js). What it
  // says for the address and the notice waits for the shell.
  const startLabEarly = () => {
    const parsed = new Promise((done) =>
      document.readyState === "loading" ? document.addEventListener("DOMContentLoaded", done, { once: true }) : done());
    Promise.all([early.labModule, early.labStyle, parsed]).then(([module]) => {
      const host = document.querySelector("#panel-sandbox .lab-mount");
      if (early.lessonStarted || window.leaseLabCourse || !host || linked() !== "sandbox") return;
      const waiting = { fields: [], problems: [] };
      const shell = {
        fields: (fields, push) => waiting.fields.push([fields, push]),
        problems: (sentences) => waiting.problems.push(sentences),
      };
      const prerendered = [...host.childNodes];
      const link = location.hash;
      module.start(link, (fields, push) => shell.fields(fields, push), (sentences) => shell.problems(sentences));
      const view = module.mount(host, "sandbox");
      // The lab works before the lesson, so the tabs do too: this script runs them until then.
      root.setAttribute("data-lab-early", "");
      early.lab = {
        module, host, prerendered, link, view,
        connect(onFields, onProblems) {
          Object.assign(shell, { fields: onFields, problems: onProblems });
          for (const [fields, push] of waiting.fields) onFields(fields, push);
          for (const sentences of waiting.problems) onProblems(sentences);
        },
      };
    }).catch(() => {});
  };
  Object.defineProperty(window, "leaseLabWasm", { value: early });
  // A link into the Sandbox fetches and compiles the laboratory's module too.
  const diagramOnly = /(^|&)diagram=/.test(query);
  if (linked() === "sandbox" && !diagramOnly) {
    // Imported and instantiated here; www/shell/lab-loader.js starts it once its
    // stylesheet, put in here too (a script's stylesheet holds up no paint), has loaded or
    // failed, unless it started here already (below).
    const labWasm = new URL("lab_bg.wasm", document.baseURI).href;
    const lab = compileEarly(labWasm, "");
    early.labModule = import(new URL("lab.js", document.baseURI).href).then(async (module) => {
      await module.default({ module_or_path: lab });
      return module;
    });
    early.labModule.catch(() => {});
    const link = document.createElement("link");
    Object.assign(link, { rel: "stylesheet", href: new URL("lab.css", document.baseURI).href });
    early.labStyle = new Promise((resolve) => (link.onload = link.onerror = () => resolve()));
    document.head.append(link);
    if (!embed) {
      // The laboratory is what this link is for: its bytes come first and the lesson's
      // after them (or after 3 s, should they stall), as on a slow line, side by side,
      // each would take as long as both. And it starts before the lesson.
      const labFirst = Promise.race([arrived(labWasm), lab.catch(() => {}), new Promise((done) => setTimeout(done, 3000))]);
      early.lessonScript = labFirst.then(() => {
        preloadLesson();
        return import(new URL(lessonModule.script, document.baseURI).href);
      });
      early.lesson = labFirst.then(compileLesson);
      startLabEarly();
    }
  }
  if (!early.lessonScript) preloadLesson();
  early.lesson ??= compileLesson();
  show();
  addEventListener("hashchange", show);
  // Once the document is parsed, its tabs and panels follow the link too.
  document.addEventListener("readystatechange", show, { once: true });
  const tabOf = (target) => (hydrated() ? null : target.closest?.('[role="tab"]')?.id.replace(/^tab-/, ""));
  document.addEventListener("click", (event) => {
    const tab = tabOf(event.target);
    if (tabs.includes(tab)) location.hash = `#/${tab}`;
  });
  // The keys of the tabs pattern, as the shell's tab strip has them once hydrated: the
  // arrows move (wrapping), Home and End go to either end, each opening the tab it reaches.
  document.addEventListener("keydown", (event) => {
    const index = tabs.indexOf(tabOf(event.target));
    if (index < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowRight: index + 1, ArrowLeft: index - 1 + tabs.length, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const tab = tabs[moves[event.key] % tabs.length];
    location.hash = `#/${tab}`;
    document.getElementById(`tab-${tab}`)?.focus();
  });
  // A control of the lesson's own (Copy link, Embed, the voice) works once the lesson has
  // hydrated: a key that presses it before then is kept, and pressed for the learner then,
  // if the control still has the focus.
  let pressed = null;
  document.addEventListener("keydown", (event) => {
    if (hydrated() || (event.key !== "Enter" && event.key !== " ")) return;
    const control = event.target.closest?.("#app button:not([role=tab])");
    if (!control || control.closest(".lab-mount")) return;
    event.preventDefault();
    pressed = control;
  });
  new MutationObserver((_, observer) => {
    if (!hydrated()) return;
    observer.disconnect();
    if (pressed?.isConnected && document.activeElement === pressed) pressed.click();
    pressed = null;
  }).observe(root, { attributes: true, attributeFilter: ["data-hydrated"] });
})();
