// Inlined into index.html's head by tools/post-build.mjs (its hash goes into the CSP), with
// TAB_SLUGS replaced by the tabs' slugs and LESSON_WASM by the lesson module's file and
// integrity. Before the wasm has hydrated the pre-rendered lesson, it shows the tab the link
// names at first paint. The page's controls wait for the wasm (the tab strip appears, and
// clicks land, once they work); if the wasm fails, the tabs work from here, so the lesson
// stays readable. Without JavaScript every panel shows.
(() => {
  const tabs = TAB_SLUGS;
  const lessonWasm = LESSON_WASM;
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
    "html[data-pending] #app{pointer-events:none}html[data-pending] .tabs{visibility:hidden}";
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
  const early = { lesson: compileEarly(lessonWasm.href, lessonWasm.integrity) };
  Object.defineProperty(window, "leaseLabWasm", { value: early });
  // A link into the Sandbox fetches and compiles the laboratory's module alongside.
  const diagramOnly = /(^|&)diagram=/.test(query);
  if (linked() === "sandbox" && !diagramOnly) {
    // Imported and instantiated here, so that it is ready when the lesson has hydrated;
    // www/shell/lab-loader.js starts it then, once its stylesheet, put in here too (a
    // script's stylesheet holds up no paint), has loaded or failed.
    const lab = compileEarly("lab_bg.wasm", "");
    early.labModule = import(new URL("lab.js", document.baseURI).href).then(async (module) => {
      await module.default({ module_or_path: lab });
      return module;
    });
    early.labModule.catch(() => {});
    const link = document.createElement("link");
    Object.assign(link, { rel: "stylesheet", href: new URL("lab.css", document.baseURI).href });
    early.labStyle = new Promise((resolve) => (link.onload = link.onerror = () => resolve()));
    document.head.append(link);
  }
  show();
  addEventListener("hashchange", show);
  // Once the document is parsed, its tabs and panels follow the link too.
  document.addEventListener("readystatechange", show, { once: true });
  document.addEventListener("click", (event) => {
    const button = hydrated() ? null : event.target.closest?.('[role="tab"]');
    if (button) location.hash = `#/${button.id.replace(/^tab-/, "")}`;
  });
})();
