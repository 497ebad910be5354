//! The page shell's side of the laboratory, which is a wasm module of its own
//! (`src/bin/lab.rs`, mounted by [`super::lab_entry`]): it is loaded on demand, when the
//! Sandbox opens or the page is idle, and mounted into the element [`LabMount`] renders.
//! On a link into the Sandbox it comes first instead: the first-paint script loads and
//! mounts it before the lesson, which waits at most a few seconds for it and then adopts it
//! ([`before_the_lesson_hydrates`]). An embedded diagram or lesson tab never loads it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::Element;
use yew::prelude::*;

use super::address::{self, History};
use super::share;
use crate::lesson::LESSON;

#[wasm_bindgen(module = "/www/shell/lab-loader.js")]
extern "C" {
    /// The laboratory's JavaScript module, started.
    #[derive(Clone)]
    type LabModule;
    /// One part of the laboratory mounted into an element.
    type LabView;

    #[wasm_bindgen(js_name = loadLab)]
    fn load_lab(
        link: &Closure<dyn Fn() -> String>,
        on_fields: &Closure<dyn Fn(String, bool)>,
        on_problems: &Closure<dyn Fn(js_sys::Array)>,
    ) -> Promise;
    #[wasm_bindgen(js_name = beforeHydrating)]
    fn before_hydrating(sandbox_open: bool) -> Option<Promise>;
    #[wasm_bindgen(js_name = followLab)]
    fn follow_lab(link: &str);
    #[wasm_bindgen(js_name = mountLab)]
    fn mount_lab(lab: &LabModule, host: &Element, part: &str) -> LabView;
    #[wasm_bindgen(js_name = unmountLab)]
    fn unmount_lab(view: &LabView);
    #[wasm_bindgen(js_name = whenIdle)]
    fn when_idle(callback: &Closure<dyn FnMut()>);
}

thread_local! {
    /// The load in progress or done; the module is loaded and started once per page.
    static LOADING: RefCell<Option<Promise>> = const { RefCell::new(None) };
}

/// Starts loading the laboratory, once; the promise resolves to its module.
fn load() -> Promise {
    LOADING.with(|loading| {
        loading
            .borrow_mut()
            .get_or_insert_with(|| {
                // The lab sends its fields for as long as the page lives.
                let on_fields = Closure::<dyn Fn(String, bool)>::new(|fields, push| {
                    let history = if push {
                        History::Push
                    } else {
                        History::Replace
                    };
                    address::record_lab_fields(fields, history);
                });
                // What of the link the lab could not read is said in the page's one notice.
                let on_problems =
                    Closure::<dyn Fn(js_sys::Array)>::new(|sentences: js_sys::Array| {
                        share::show_lab_problems(
                            sentences.iter().filter_map(|s| s.as_string()).collect(),
                        );
                    });
                // Read when the lab starts: a link followed while it loads is the one to show.
                let link = Closure::<dyn Fn() -> String>::new(address::lab_link);
                let promise = load_lab(&link, &on_fields, &on_problems);
                link.forget();
                on_fields.forget();
                on_problems.forget();
                promise
            })
            .clone()
    })
}

/// Called before the lesson hydrates. A laboratory that a Sandbox link started before the
/// lesson came (`www/shell/first-paint.js`) steps out of the pre-rendered markup, which
/// hydration must find as the server wrote it: whole and running, for the Sandbox's
/// [`LabMount`] to take back once hydrated, or, when the Sandbox is not the tab that opens,
/// taken down. Where there is one, hydration waits for the promise returned. No laboratory
/// starts early after this.
pub fn before_the_lesson_hydrates(sandbox_open: bool) -> Option<Promise> {
    before_hydrating(sandbox_open)
}

/// Hands a link followed in the open page to the laboratory, if it has started (otherwise
/// it starts from [`address::lab_link`]).
pub fn follow(link: &str) {
    follow_lab(link);
}

/// Loads the laboratory once the browser is idle, so that opening the Sandbox is quick.
pub fn load_when_idle() {
    let callback = Closure::once(|| {
        // The promise settles on its own; a failed load is shown when the Sandbox opens.
        let _ = load();
    });
    when_idle(&callback);
    callback.forget();
}

/// Which part of the laboratory a mount shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LabPart {
    /// The Sandbox tab's laboratory, pitfall exercise and snippets.
    Sandbox,
    /// The laboratory alone, as embed mode shows it.
    Laboratory,
}

impl LabPart {
    /// The name the laboratory's module reads ([`super::lab_entry::LabPart::from_slug`]).
    fn slug(self) -> &'static str {
        match self {
            LabPart::Sandbox => "sandbox",
            LabPart::Laboratory => "laboratory",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct LabMountProps {
    pub part: LabPart,
}

/// The element the laboratory mounts into. Until it has, it says that the laboratory is
/// loading (in the server's render, for a reader without JavaScript: what it needs); the
/// laboratory's own render replaces that sentence.
#[component]
pub fn LabMount(props: &LabMountProps) -> Html {
    let host = use_node_ref();
    let failed = use_state(|| false);
    // The lab loads once the page has hydrated: a hydrating render's mount in a closed
    // panel goes away unloaded.
    let hydrated = super::hydration::use_hydrated();
    {
        let host = host.clone();
        let failed = failed.clone();
        let part = props.part;
        use_effect_with(hydrated, move |&hydrated| {
            let alive = Rc::new(Cell::new(true));
            let view = Rc::new(RefCell::new(None::<LabView>));
            if hydrated {
                let (alive, view) = (alive.clone(), view.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    let loaded = JsFuture::from(load()).await;
                    match (loaded, host.cast::<Element>()) {
                        (Ok(lab), Some(host)) if alive.get() => {
                            *view.borrow_mut() =
                                Some(mount_lab(&lab.unchecked_into(), &host, part.slug()));
                        }
                        (Err(_), _) if alive.get() => failed.set(true),
                        _ => {}
                    }
                });
            }
            move || {
                alive.set(false);
                if let Some(view) = view.borrow_mut().take() {
                    unmount_lab(&view);
                }
            }
        });
    }
    let words = &LESSON.sandbox_intro;
    html! {
        <div ref={host} class="lab-mount">
            <p class="lab-pending muted" role="status">
                { if *failed { words.load_failed } else if hydrated { words.loading } else { words.needs_script } }
            </p>
        </div>
    }
}

/// The Sandbox tab's content: its introduction, and the laboratory's mount.
#[component]
pub fn SandboxTab() -> Html {
    let words = &LESSON.sandbox_intro;
    html! {
        <>
            <h2>{words.heading}</h2>
            <p class="lead">{words.lead}</p>
            <LabMount part={LabPart::Sandbox} />
        </>
    }
}
