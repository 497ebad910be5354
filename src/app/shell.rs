//! The app shell: masthead, the accessible tablist, and the panel of the open tab.
//!
//! The open tab lives in the URL fragment, so reload, back/forward and pasted links keep it.

use gloo::events::EventListener;
use yew::prelude::*;

use super::hydration::{self, location_hash, on_server, Hydrated};
use super::{address, gist::GistTab, lab_loader, maps::MapsTab, qa::QaTab, speech::VoiceReadout};
use crate::lesson::LESSON;
use crate::route::{Route, Tab};

fn current_route() -> Route {
    Route::parse(&location_hash())
}

/// Opens `tab` by changing the fragment; the `hashchange` listener then re-renders.
fn navigate_to(tab: Tab) {
    let _ = gloo::utils::window()
        .location()
        .set_hash(&address::tab_fragment(tab));
}

fn tab_id(tab: Tab) -> String {
    format!("tab-{}", tab.slug())
}

pub(crate) fn panel_id(tab: Tab) -> String {
    format!("panel-{}", tab.slug())
}

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Whether the first render hydrates pre-rendered markup (the prerenderer's too).
    #[prop_or_default]
    pub hydrating: bool,
}

/// The whole page. The server renders every panel's content; in the browser only the open
/// tab's panel has content, as ever (`start` takes the others' pre-rendered content away
/// before hydrating). What depends on the browser (grades, speech, the link) comes in once
/// hydrated (see [`Hydrated`]).
#[component]
pub fn App(props: &AppProps) -> Html {
    let route = use_state(current_route);
    let hydrated = use_state(|| !props.hydrating);
    let follows = use_state(address::selections_followed);
    {
        let (route, follows) = (route.clone(), follows.clone());
        let hydrated = hydrated.clone();
        use_effect_with((), move |_| {
            if !*hydrated {
                hydrated.set(true);
            }
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                // The lab learns of a followed link before the new tab renders and mounts it.
                follows.set(address::follow_location(&location_hash()));
                route.set(current_route());
            });
            // The lesson is interactive now: say so (the first-paint script's tab choice
            // gives way to the app's), and fetch the laboratory when idle.
            if let Some(root) = gloo::utils::document().document_element() {
                let _ = root.set_attribute("data-hydrated", "");
                let _ = root.remove_attribute("data-tab");
            }
            // The lesson works from here on, whether or not the laboratory has come.
            hydration::release_controls();
            lab_loader::load_when_idle();
            move || drop(listener)
        });
    }
    let active = route.tab;
    let hydrated = *hydrated;
    use_effect_with(active, |&tab| super::course::tab_opened(tab));

    html! {
        <ContextProvider<Hydrated> context={Hydrated(hydrated)}>
        <ContextProvider<address::SelectionFollows> context={*follows}>
            <a class="skip-link" href={format!("#{}", panel_id(active))}
                onclick={Callback::from(move |event: MouseEvent| {
                    event.prevent_default();
                    if let Some(panel) = gloo::utils::document().get_element_by_id(&panel_id(active)) {
                        if let Ok(panel) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(panel) {
                            let _ = panel.focus();
                        }
                    }
                })}>
                {LESSON.shell.skip}
            </a>
            <header class="masthead">
                <p class="series">{LESSON.masthead.series}</p>
                <h1>{LESSON.masthead.title}</h1>
                <p class="summary">{LESSON.masthead.summary}</p>
                // The readout cannot speak in the server's render: once hydrated, a fresh
                // one asks the browser.
                <><VoiceReadout key={hydrated.to_string()} tab={active} /></>
                <TabList {active} />
                <super::share::ShareBar />
            </header>
            <main class="panels">
                if hydrated {
                    <super::share::LinkNotice />
                }
                if hydrated && super::course::active() {
                    <super::course::CourseNotice />
                }
                { for Tab::ALL.into_iter().map(|tab| {
                    let selected = tab == active;
                    html! {
                        // Focusable, as the tabs pattern asks: Tab from the tablist lands here.
                        // Without JavaScript every panel shows; the page's script and the
                        // app hide all but the open one.
                        <section id={panel_id(tab)} class="panel" role="tabpanel"
                            aria-labelledby={tab_id(tab)} tabindex="0" hidden={!selected && !on_server()}>
                            { if selected || on_server() { panel_content(tab) } else { Html::default() } }
                        </section>
                    }
                }) }
            </main>
            <footer class="colophon">
                <p>{LESSON.shell.colophon}</p>
            </footer>
        </ContextProvider<address::SelectionFollows>>
        </ContextProvider<Hydrated>>
    }
}

/// A panel's content.
fn panel_content(tab: Tab) -> Html {
    match tab {
        Tab::Gist => html! { <GistTab /> },
        Tab::Maps => html! { <MapsTab /> },
        Tab::Qa => html! { <QaTab /> },
        Tab::Sandbox => html! { <lab_loader::SandboxTab /> },
    }
}

#[derive(Properties, PartialEq)]
struct TabListProps {
    active: Tab,
}

/// The tab whose button is `target` (or contains it), if any.
fn tab_of(target: Option<web_sys::EventTarget>) -> Option<Tab> {
    let element: web_sys::Element = wasm_bindgen::JsCast::dyn_into(target?).ok()?;
    let button = element.closest("[role=tab]").ok()??;
    let id = button.id();
    Tab::ALL.into_iter().find(|&tab| tab_id(tab) == id)
}

/// The tab a key leads to from the `focused` tab, following the WAI-ARIA tabs pattern:
/// arrows move relative to the focused tab (wrapping), Home and End go to either end.
fn tab_for_key(key: &str, focused: Tab) -> Option<Tab> {
    match key {
        "ArrowRight" => Some(focused.step(true)),
        "ArrowLeft" => Some(focused.step(false)),
        "Home" => Some(Tab::ALL[0]),
        "End" => Some(Tab::ALL[Tab::ALL.len() - 1]),
        _ => None,
    }
}

/// The four tabs as a WAI-ARIA tablist with automatic activation: the arrow keys, Home
/// and End move focus from the focused tab and open the tab they reach; only the open tab
/// is in the Tab sequence (roving tabindex).
#[component]
fn TabList(props: &TabListProps) -> Html {
    let onkeydown = Callback::from(|event: KeyboardEvent| {
        // Alt+ArrowLeft and the like belong to the browser (back, forward).
        if event.alt_key() || event.ctrl_key() || event.meta_key() {
            return;
        }
        let Some(focused) = tab_of(event.target()) else {
            return;
        };
        let Some(target) = tab_for_key(&event.key(), focused) else {
            return;
        };
        event.prevent_default();
        navigate_to(target);
        if let Some(button) = gloo::utils::document().get_element_by_id(&tab_id(target)) {
            if let Ok(button) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(button) {
                let _ = button.focus();
            }
        }
    });

    html! {
        <div class="tabs" role="tablist" aria-label={LESSON.tabs.label} {onkeydown}>
                { for Tab::ALL.into_iter().enumerate().map(|(index, tab)| {
                    let selected = tab == props.active;
                    html! {
                        <button type="button" role="tab" id={tab_id(tab)}
                            aria-selected={selected.to_string()}
                            aria-controls={panel_id(tab)}
                            tabindex={if selected { "0" } else { "-1" }}
                            onclick={Callback::from(move |_| navigate_to(tab))}>
                            <span class="tab-number" aria-hidden="true">{index + 1}</span>
                            {tab.label()}
                        </button>
                    }
                }) }
        </div>
    }
}
