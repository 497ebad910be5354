//! Voice readout: reads the open tab aloud through the Web Speech API, in reading order.
//!
//! Each readable block of the panel (headings, paragraphs, list items, table rows) is spoken
//! sentence by sentence; the block being read is highlighted and scrolled into view. All
//! utterances are queued at once, so pause and resume are the browser's own. Switching tabs
//! or unmounting cancels speech. Where `speechSynthesis` is missing the control is disabled
//! with a plain notice; with no voices listed (headless Chromium) the default voice is used.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use web_sys::{Element, SpeechSynthesis, SpeechSynthesisUtterance};
use yew::prelude::*;

use crate::lesson::number::{parse_decimal, Decimal};
use crate::lesson::readout::{normalize, row_sentence, sentences};
use crate::lesson::LESSON;
use crate::route::Tab;

/// What the readout reads, in document order; nested matches defer to the innermost.
const READABLE: &str = "h2, h3, h4, p, li, caption, tr, dt, dd";
/// Never read: diagrams' drawings, hidden answers, the Mermaid source, the control itself.
const SKIPPED: &str = "svg, [hidden], [aria-hidden='true'], .readout-skip";
const READING_CLASS: &str = "reading";

/// The browser's speech synthesizer, or `None` where the page cannot speak.
pub fn synthesizer() -> Option<SpeechSynthesis> {
    let window = gloo::utils::window();
    let has = |name: &str| {
        js_sys::Reflect::get(&window, &JsValue::from_str(name))
            .map(|v| !v.is_undefined() && !v.is_null())
            .unwrap_or(false)
    };
    if !has("speechSynthesis") || !has("SpeechSynthesisUtterance") {
        return None;
    }
    window.speech_synthesis().ok()
}

/// One thing to say and the element to highlight while saying it.
struct Line {
    text: String,
    element: Element,
}

/// The open panel's text, block by block and sentence by sentence.
fn lines_of(panel: &Element) -> Vec<Line> {
    let Ok(blocks) = panel.query_selector_all(READABLE) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for index in 0..blocks.length() {
        let Some(element) = blocks
            .item(index)
            .and_then(|n| n.dyn_into::<Element>().ok())
        else {
            continue;
        };
        let skipped = element.closest(SKIPPED).ok().flatten().is_some();
        let has_inner = element.query_selector(READABLE).ok().flatten().is_some();
        if skipped || has_inner {
            continue;
        }
        if element.tag_name().eq_ignore_ascii_case("tr") {
            let cells = element.children();
            let texts: Vec<String> = (0..cells.length())
                .filter_map(|i| cells.item(i))
                .map(|c| c.text_content().unwrap_or_default())
                .collect();
            let text = row_sentence(&texts);
            if !text.is_empty() {
                lines.push(Line { text, element });
            }
            continue;
        }
        let text = normalize(&element.text_content().unwrap_or_default());
        for sentence in sentences(&text) {
            lines.push(Line {
                text: sentence,
                element: element.clone(),
            });
        }
    }
    lines
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    Idle,
    Playing,
    Paused,
    Finished,
    Failed,
}

/// The queued utterances and the callbacks they hold. The browser may still fire events
/// on cancelled utterances, so handlers are detached before their closures are dropped.
#[derive(Default)]
struct Session {
    /// The index of the line being read, to restart from when the speed or voice changes.
    current: usize,
    utterances: Vec<SpeechSynthesisUtterance>,
    handlers: Vec<Closure<dyn FnMut(web_sys::Event)>>,
    highlighted: Option<Element>,
}

fn highlight(session: &Rc<RefCell<Session>>, element: Option<Element>) {
    let mut session = session.borrow_mut();
    if let Some(old) = session.highlighted.take() {
        let _ = old.class_list().remove_1(READING_CLASS);
    }
    if let Some(element) = element {
        let _ = element.class_list().add_1(READING_CLASS);
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Center);
        options.set_behavior(web_sys::ScrollBehavior::Smooth);
        element.scroll_into_view_with_scroll_into_view_options(&options);
        session.highlighted = Some(element);
    }
}

/// Cancels speech and clears the highlight; safe to call at any time.
fn stop_all(synth: &SpeechSynthesis, session: &Rc<RefCell<Session>>) {
    for utterance in session.borrow_mut().utterances.drain(..) {
        utterance.set_onstart(None);
        utterance.set_onend(None);
        utterance.set_onerror(None);
    }
    synth.cancel();
    highlight(session, None);
    session.borrow_mut().handlers.clear();
}

/// What to read and how: the open tab, the speed and the chosen voice ("" = default).
struct Reading {
    tab: Tab,
    rate: f32,
    voice: String,
}

/// A closure for an utterance's event, kept alive by the session.
type Handler = Closure<dyn FnMut(web_sys::Event)>;

/// The synthesizer, what it is reading, and the status shown to the learner: everything an
/// action on the readout needs.
#[derive(Clone)]
struct Speaker {
    synth: SpeechSynthesis,
    session: Rc<RefCell<Session>>,
    status: UseStateHandle<Status>,
}

impl Speaker {
    /// Queues the open panel's lines from line `from` on, replacing anything queued before.
    fn read(&self, reading: &Reading, from: usize) {
        stop_all(&self.synth, &self.session);
        let Some(panel) =
            gloo::utils::document().get_element_by_id(&format!("panel-{}", reading.tab.slug()))
        else {
            return;
        };
        let lines = lines_of(&panel);
        if from >= lines.len() {
            return;
        }
        let voice = self.voice_named(&reading.voice);
        let last = lines.len() - 1;
        self.session.borrow_mut().current = from;
        for (index, line) in lines.into_iter().enumerate().skip(from) {
            let Ok(utterance) = SpeechSynthesisUtterance::new_with_text(&line.text) else {
                continue;
            };
            utterance.set_rate(reading.rate);
            if let Some(voice) = &voice {
                utterance.set_voice(Some(voice));
            }
            self.attach_handlers(&utterance, index, line.element, index == last);
            self.synth.speak(&utterance);
            self.session.borrow_mut().utterances.push(utterance);
        }
        self.status.set(Status::Playing);
    }

    /// The installed voice called `name`; `None` for the default voice.
    fn voice_named(&self, name: &str) -> Option<web_sys::SpeechSynthesisVoice> {
        if name.is_empty() {
            return None;
        }
        let all = self.synth.get_voices();
        (0..all.length())
            .filter_map(|i| all.get(i).dyn_into::<web_sys::SpeechSynthesisVoice>().ok())
            .find(|v| v.name() == name)
    }

    /// Highlights `element` when line `index` starts, reports a failure, and on the `last`
    /// line reports the end.
    fn attach_handlers(
        &self,
        utterance: &SpeechSynthesisUtterance,
        index: usize,
        element: Element,
        last: bool,
    ) {
        let on_start = self.on_start(index, element);
        utterance.set_onstart(Some(on_start.as_ref().unchecked_ref()));
        let on_error = self.on_error();
        utterance.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let mut handlers = vec![on_start, on_error];
        if last {
            let on_end = self.on_end();
            utterance.set_onend(Some(on_end.as_ref().unchecked_ref()));
            handlers.push(on_end);
        }
        self.session.borrow_mut().handlers.extend(handlers);
    }

    fn on_start(&self, index: usize, element: Element) -> Handler {
        let session = self.session.clone();
        Handler::new(move |_: web_sys::Event| {
            session.borrow_mut().current = index;
            highlight(&session, Some(element.clone()))
        })
    }

    fn on_end(&self) -> Handler {
        let speaker = self.clone();
        Handler::new(move |_: web_sys::Event| {
            highlight(&speaker.session, None);
            speaker.status.set(Status::Finished);
        })
    }

    /// A failure ends the reading; an interruption (cancel, a new reading) does not.
    fn on_error(&self) -> Handler {
        let speaker = self.clone();
        Handler::new(move |event: web_sys::Event| {
            let reason = event
                .dyn_ref::<web_sys::SpeechSynthesisErrorEvent>()
                .map(|e| e.error())
                .unwrap_or(web_sys::SpeechSynthesisErrorCode::SynthesisFailed);
            let cancelled = matches!(
                reason,
                web_sys::SpeechSynthesisErrorCode::Interrupted
                    | web_sys::SpeechSynthesisErrorCode::Canceled
            );
            if !cancelled {
                highlight(&speaker.session, None);
                speaker.status.set(Status::Failed);
            }
        })
    }

    /// While reading (not paused), re-queues from the sentence being read, so a new speed
    /// or voice is heard at once.
    fn restart(&self, reading: &Reading) {
        if *self.status == Status::Playing {
            let from = self.session.borrow().current;
            self.read(reading, from);
        }
    }

    fn pause_or_resume(&self) {
        match *self.status {
            Status::Playing => {
                self.synth.pause();
                self.status.set(Status::Paused);
            }
            Status::Paused => {
                self.synth.resume();
                self.status.set(Status::Playing);
            }
            Status::Idle | Status::Finished | Status::Failed => {}
        }
    }

    fn stop(&self) {
        stop_all(&self.synth, &self.session);
        self.status.set(Status::Idle);
    }
}

/// The installed voices as (name, language), kept up to date as the browser loads them.
#[hook]
fn use_voices(synth: Rc<Option<SpeechSynthesis>>) -> UseStateHandle<Vec<(String, String)>> {
    let voices = use_state(Vec::<(String, String)>::new);
    {
        let voices = voices.clone();
        use_effect_with((), move |_| {
            let listener = (*synth).clone().map(|synth| {
                let list = move |synth: &SpeechSynthesis| {
                    let all = synth.get_voices();
                    (0..all.length())
                        .filter_map(|i| all.get(i).dyn_into::<web_sys::SpeechSynthesisVoice>().ok())
                        .map(|v| (v.name(), v.lang()))
                        .collect::<Vec<_>>()
                };
                voices.set(list(&synth));
                let target = synth.clone();
                EventListener::new(&target, "voiceschanged", move |_| voices.set(list(&synth)))
            });
            move || drop(listener)
        });
    }
    voices
}

/// Stops the reading when the open tab changes or the readout goes away.
#[hook]
fn use_stop_on_tab_change(
    synth: Rc<Option<SpeechSynthesis>>,
    session: Rc<RefCell<Session>>,
    status: UseStateHandle<Status>,
    tab: Tab,
) {
    use_effect_with(tab, move |_| {
        move || {
            if let Some(synth) = &*synth {
                stop_all(synth, &session);
            }
            status.set(Status::Idle);
        }
    });
}

#[derive(Properties, PartialEq)]
pub struct VoiceReadoutProps {
    /// The open tab: its panel is what gets read, and changing it stops the reading.
    pub tab: Tab,
}

/// The readout's controls: read, pause or resume, stop, speed and voice.
#[component]
pub fn VoiceReadout(props: &VoiceReadoutProps) -> Html {
    // The server cannot speak; the shell mounts a fresh readout once hydrated.
    let hydrated = super::hydration::use_hydrated();
    let synth = use_memo((), |_| if hydrated { synthesizer() } else { None });
    let status = use_state(|| Status::Idle);
    let rate = use_state(|| 1.0_f32);
    let voice = use_state(String::new);
    let session = use_mut_ref(Session::default);
    let voices = use_voices(synth.clone());
    use_stop_on_tab_change(synth.clone(), session.clone(), status.clone(), props.tab);

    // Until the page has hydrated (and without JavaScript) the controls show as they will
    // be, disabled, so that the real ones take their place without moving the page.
    let speaker = match (*synth).clone() {
        Some(synth) => Some(Speaker {
            synth,
            session,
            status: status.clone(),
        }),
        None if hydrated => return unsupported(),
        None => None,
    };
    let reading = Reading {
        tab: props.tab,
        rate: *rate,
        voice: (*voice).clone(),
    };
    html! {
        <div class="readout readout-skip" role="group" aria-label={LESSON.voice.label}>
            { transport_buttons(speaker.as_ref(), *status, reading) }
            { rate_slider(speaker.as_ref(), props.tab, &rate, &voice) }
            if let Some(speaker) = &speaker {
                { voice_picker(speaker, props.tab, &rate, &voice, &voices) }
            }
            <span class="readout-status" role="status">{status_text(*status)}</span>
            if !hydrated {
                <p class="readout-note readout-needs-script">{LESSON.voice.needs_script}</p>
            }
        </div>
    }
}

/// The control where the browser cannot speak: disabled, with a plain notice.
fn unsupported() -> Html {
    let words = &LESSON.voice;
    html! {
        <div class="readout readout-skip" role="group" aria-label={words.label}>
            <button type="button" class="button" disabled=true>{words.play}</button>
            <p class="readout-note">{words.unsupported}</p>
        </div>
    }
}

/// Read aloud (from the top), Pause or Resume, and Stop; all disabled without a speaker.
fn transport_buttons(speaker: Option<&Speaker>, status: Status, reading: Reading) -> Html {
    let words = &LESSON.voice;
    let play = speaker
        .cloned()
        .map(|speaker| Callback::from(move |_: MouseEvent| speaker.read(&reading, 0)));
    let pause_or_resume = speaker
        .cloned()
        .map(|speaker| Callback::from(move |_: MouseEvent| speaker.pause_or_resume()));
    let stop = speaker
        .cloned()
        .map(|speaker| Callback::from(move |_: MouseEvent| speaker.stop()));
    let active = matches!(status, Status::Playing | Status::Paused);
    html! {
        <>
            <button type="button" class="button primary" disabled={speaker.is_none()} onclick={play}>
                <span aria-hidden="true">{"▶ "}</span>{words.play}
            </button>
            <button type="button" class="button" onclick={pause_or_resume} disabled={!active}>
                { if status == Status::Paused { words.resume } else { words.pause } }
            </button>
            <button type="button" class="button" onclick={stop} disabled={!active}>{words.stop}</button>
        </>
    }
}

/// The speed slider (0.5× to 2×); a change is heard at once while reading.
fn rate_slider(
    speaker: Option<&Speaker>,
    tab: Tab,
    rate: &UseStateHandle<f32>,
    voice: &UseStateHandle<String>,
) -> Html {
    let on_rate = speaker.cloned().map(|speaker| {
        let rate = rate.clone();
        let voice = (**voice).clone();
        Callback::from(move |event: InputEvent| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            if let Some(value) = parse_decimal(&input.value()).map(|v| v as f32) {
                let value = value.clamp(0.5, 2.0);
                rate.set(value);
                speaker.restart(&Reading {
                    tab,
                    rate: value,
                    voice: voice.clone(),
                });
            }
        })
    });
    html! {
        <label class="readout-rate">
            {LESSON.voice.rate}
            <input type="range" min="0.5" max="2" step="0.25" value={Decimal(f64::from(**rate)).to_string()}
                disabled={speaker.is_none()} oninput={on_rate} />
            <span class="rate-value">{format!("{}×", Decimal(f64::from(**rate)))}</span>
        </label>
    }
}

/// The voice menu, shown only when the browser lists voices; a change is heard at once.
fn voice_picker(
    speaker: &Speaker,
    tab: Tab,
    rate: &UseStateHandle<f32>,
    voice: &UseStateHandle<String>,
    voices: &[(String, String)],
) -> Html {
    if voices.is_empty() {
        return Html::default();
    }
    let words = &LESSON.voice;
    let on_voice = {
        let speaker = speaker.clone();
        let voice = voice.clone();
        let rate = **rate;
        Callback::from(move |event: Event| {
            let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
            voice.set(select.value());
            speaker.restart(&Reading {
                tab,
                rate,
                voice: select.value(),
            });
        })
    };
    html! {
        <label class="readout-voice">
            {words.voice}
            <select onchange={on_voice}>
                <option value="" selected={voice.is_empty()}>{words.default_voice}</option>
                { for voices.iter().map(|(name, lang)| html! {
                    <option value={name.clone()} selected={**voice == *name}>{format!("{name} ({lang})")}</option>
                }) }
            </select>
        </label>
    }
}

fn status_text(status: Status) -> &'static str {
    let words = &LESSON.voice;
    match status {
        Status::Playing => words.reading,
        Status::Paused => words.paused,
        Status::Finished => words.finished,
        Status::Failed => words.failed,
        Status::Idle => "",
    }
}
