//! One open challenge: its story, the lesson section it builds on, its goal, the answer form,
//! the hints (one at a time) and the model's verdict, with "Go to" into the laboratory at the
//! moment a condition failed and a link to the try.

use std::cell::RefCell;

use crate::lesson::sentences;
use web_sys::{HtmlAnchorElement, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::app::share::{address_of, CopyField};
use crate::lab::challenge::link::{link_of, Answer, AnswerInput};
use crate::lab::challenge::{grade, spec, words, Refusal, Spec, Verdict};
use crate::lesson::content::{CHALLENGES, SANDBOX};
use crate::model::Scenario;
use crate::route::Route;
use crate::share::{compose, lab_fields_of, selection_of};

#[derive(Properties, PartialEq)]
pub struct CardProps {
    /// The challenge's id.
    pub id: &'static str,
    /// The answer a link filled in, if any.
    pub initial: Option<Answer>,
    /// Told `(id, solved)` after each graded try.
    pub on_graded: Callback<(&'static str, bool)>,
}

/// What the last press of Check said.
#[derive(Clone, Debug, PartialEq)]
enum Checked {
    Graded(Box<Verdict>, Scenario),
    Refused(Refusal),
}

/// A card as the learner left it: the answer typed, the hints shown, the last verdict.
#[derive(Clone, PartialEq)]
struct Left {
    answer: Answer,
    hints: usize,
    checked: Option<Checked>,
}

thread_local! {
    /// Each challenge's card as it was left: another tab unmounts the Sandbox, and coming
    /// back (or opening the challenge again) finds the work where it was.
    static LEFT: RefCell<Vec<(&'static str, Left)>> = const { RefCell::new(Vec::new()) };
}

fn left_card(id: &str) -> Option<Left> {
    LEFT.with(|left| {
        left.borrow()
            .iter()
            .find(|(kept, _)| *kept == id)
            .map(|(_, card)| card.clone())
    })
}

fn leave_card(id: &'static str, card: Left) {
    LEFT.with(|left| {
        let mut left = left.borrow_mut();
        left.retain(|(kept, _)| *kept != id);
        left.push((id, card));
    });
}

/// The open challenge.
#[component]
pub fn ChallengeCard(props: &CardProps) -> Html {
    let Some(spec) = spec::by_id(props.id) else {
        return Html::default();
    };
    let from_link = props.initial.is_some();
    // A link's try replaces what was left; otherwise the card opens as it was left.
    let left = use_memo((), |_| {
        let left = left_card(spec.text.id).filter(|_| !from_link);
        left.unwrap_or_else(|| Left {
            answer: props
                .initial
                .clone()
                .unwrap_or_else(|| Answer::of(spec, &spec.start)),
            hints: 0,
            checked: None,
        })
    });
    let answer = use_state(|| left.answer.clone());
    let hints = use_state(|| left.hints);
    let checked = use_state(|| left.checked.clone());
    {
        let card = Left {
            answer: (*answer).clone(),
            hints: *hints,
            checked: (*checked).clone(),
        };
        use_effect_with(card, move |card| leave_card(spec.text.id, card.clone()));
    }
    let on_check = {
        let (answer, checked, on_graded) =
            (answer.clone(), checked.clone(), props.on_graded.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let outcome = answer.attempt(spec).and_then(|attempt| {
                grade(spec, &attempt)
                    .map(|verdict| Checked::Graded(Box::new(verdict), attempt))
                    .map_err(Refusal::Inconsistent)
            });
            let outcome = outcome.unwrap_or_else(Checked::Refused);
            if let Checked::Graded(verdict, _) = &outcome {
                on_graded.emit((spec.text.id, verdict.solved()));
            }
            checked.set(Some(outcome));
        })
    };
    let on_reset = {
        let (answer, checked) = (answer.clone(), checked.clone());
        Callback::from(move |_: MouseEvent| {
            answer.set(Answer::of(spec, &spec.start));
            checked.set(None);
        })
    };
    let words = &CHALLENGES.words;
    html! {
        <div class="challenge-card">
            <p>{spec.text.story}</p>
            { builds_on(spec) }
            { goal(spec) }
            if from_link && checked.is_none() {
                <p class="note" role="status">{words.link_loaded}</p>
            }
            <form class="challenge-form" onsubmit={on_check}>
                <h5>{words.answer_heading}</h5>
                { answer_fields(spec, &answer, refused_input(&checked)) }
                <div class="button-row">
                    <button type="submit" class="button primary">{words.check}</button>
                    <button type="button" class="button" onclick={on_reset}>{words.start_again}</button>
                </div>
            </form>
            { hint_list(spec, &hints) }
            if let Some(checked) = &*checked {
                { verdict_view(spec, checked) }
            }
        </div>
    }
}

/// "Builds on the lesson's section <link>."
fn builds_on(spec: &Spec) -> Html {
    let Some((tab, heading)) = words::section(spec.text.lesson) else {
        return Html::default();
    };
    // The section is a link, so the sentence is split where it goes.
    const LINK: &str = "\u{1}";
    let sentence = sentences::challenges::words::BuildsOn { section: LINK }.to_string();
    let (before, after) = sentence.split_once(LINK).unwrap_or((&sentence, ""));
    let (before, after) = (before.to_owned(), after.to_owned());
    let section = spec.text.lesson;
    // The link opens the tab (the fragment names tabs, not sections) with the page's state,
    // as the tablist's links do; the section is brought into view once that tab is shown.
    let onclick = Callback::from(move |event: MouseEvent| {
        // Yew delegates events, so the link is found from the target, not the listener.
        let link = event
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.closest("a").ok().flatten())
            .and_then(|a| wasm_bindgen::JsCast::dyn_into::<HtmlAnchorElement>(a).ok());
        if let Some(link) = link {
            link.set_href(&tab_with_page_state(tab));
        }
        show_section_when_rendered(section, 40)
    });
    html! {
        <p class="muted">
            {before}<a href={format!("#/{}", tab.slug())} {onclick}>{heading}</a>{after}
        </p>
    }
}

/// The fragment that opens `tab` keeping the address's laboratory fields and selection, as
/// the shell's `address::tab_fragment` does; the lab's module reads them from the address,
/// since the shell's record of them lives in the lesson's module.
fn tab_with_page_state(tab: crate::route::Tab) -> String {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    let query = Route::parse(&hash).query;
    if query.is_empty() {
        return Route { tab, query }.to_fragment();
    }
    compose(
        tab,
        &lab_fields_of(&query),
        selection_of(&query).0.as_deref(),
    )
}

/// Scrolls to the heading `id` and focuses it once its tab has rendered it, looking every
/// 50 ms at most `tries` times. The timer outlives this card, which the tab change removes.
fn show_section_when_rendered(id: &'static str, tries: u32) {
    let heading = gloo::utils::document()
        .get_element_by_id(id)
        .and_then(|element| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(element).ok());
    match heading {
        Some(heading) => {
            // Focus follows the learner there, rather than staying on a link that is gone.
            let _ = heading.set_attribute("tabindex", "-1");
            let _ = heading.focus();
            heading.scroll_into_view();
        }
        None if tries > 0 => {
            gloo::timers::callback::Timeout::new(50, move || {
                show_section_when_rendered(id, tries - 1)
            })
            .forget();
        }
        None => {}
    }
}

/// The goal: each trial's way of running the try, and its conditions.
fn goal(spec: &Spec) -> Html {
    html! {
        <>
            <h5>{CHALLENGES.words.goal_heading}</h5>
            <ul class="challenge-goal">
                { for spec.trials.iter().map(|trial| html! {
                    <li>
                        {words::over(trial)}
                        <ul>
                            { for trial.goal.iter().map(|c| html! { <li>{words::condition(*c)}</li> }) }
                        </ul>
                    </li>
                }) }
            </ul>
        </>
    }
}

/// The input the last refusal was about, which the form marks as invalid.
fn refused_input(checked: &Option<Checked>) -> Option<AnswerInput> {
    match checked {
        Some(Checked::Refused(refusal)) => refusal.input(),
        _ => None,
    }
}

/// The id of the sentence saying why the last try was refused.
fn refusal_id(spec: &Spec) -> String {
    format!("challenge-{}-refusal", spec.text.id)
}

/// The inputs for what the challenge lets the learner change; `invalid` is marked so, and
/// described by the refusal's sentence.
fn answer_fields(
    spec: &'static Spec,
    answer: &UseStateHandle<Answer>,
    invalid: Option<AnswerInput>,
) -> Html {
    let id = spec.text.id;
    let fields = spec.fields.iter().enumerate().map(|(index, allowed)| {
        let input_id = format!("challenge-{id}-{}", allowed.field.key);
        let on_input = {
            let answer = answer.clone();
            Callback::from(move |event: InputEvent| {
                let mut next = (*answer).clone();
                next.fields[index].1 = event.target_unchecked_into::<HtmlInputElement>().value();
                answer.set(next);
            })
        };
        let label = sentences::challenges::words::FieldRange {
            label: SANDBOX.field(allowed.field.key).label,
            min: allowed.print(allowed.min),
            max: allowed.print(allowed.max),
        }
        .to_string();
        let is_invalid = invalid == Some(AnswerInput::Field(allowed.field.key));
        html! {
            <div class="challenge-field">
                <label for={input_id.clone()}>{label}</label>
                <input id={input_id} type="text" autocomplete="off" spellcheck="false"
                    aria-invalid={is_invalid.to_string()}
                    aria-describedby={is_invalid.then(|| refusal_id(spec))}
                    value={answer.fields[index].1.clone()} oninput={on_input} />
            </div>
        }
    });
    html! {
        <>
            { for fields }
            { switch_fields(spec, answer) }
            { fault_field(spec, answer, invalid == Some(AnswerInput::Faults)) }
        </>
    }
}

/// A checkbox for each switch the learner may flip.
fn switch_fields(spec: &'static Spec, answer: &UseStateHandle<Answer>) -> Html {
    if spec.switches.is_empty() {
        return Html::default();
    }
    let words = &CHALLENGES.words;
    html! {
        <fieldset class="challenge-switches">
            <legend>{words.switches_legend}</legend>
            { for answer.switches.iter().enumerate().map(|(index, &(switch, on))| {
                let answer = answer.clone();
                let onchange = Callback::from(move |event: Event| {
                    let mut next = (*answer).clone();
                    next.switches[index].1 = event.target_unchecked_into::<HtmlInputElement>().checked();
                    answer.set(next);
                });
                html! {
                    <label class="switch-choice">
                        <input type="checkbox" checked={on} {onchange} />
                        {switch.label()}
                    </label>
                }
            }) }
            if let Some(max) = spec.max_flips {
                <p class="muted small">{sentences::challenges::words::FlipsLimit { count: max }.to_string()}</p>
            }
        </fieldset>
    }
}

/// The faults the learner adds, one per line, when the challenge allows any.
fn fault_field(spec: &'static Spec, answer: &UseStateHandle<Answer>, is_invalid: bool) -> Html {
    if spec.max_faults == 0 {
        return Html::default();
    }
    let input_id = format!("challenge-{}-faults", spec.text.id);
    let hint_id = format!("{input_id}-kinds");
    let described_by = match is_invalid {
        true => format!("{hint_id} {}", refusal_id(spec)),
        false => hint_id.clone(),
    };
    let kinds: Vec<&str> = spec
        .fault_kinds
        .iter()
        .map(|k| SANDBOX.fault(k.keyword()).label)
        .collect();
    let on_input = {
        let answer = answer.clone();
        Callback::from(move |event: InputEvent| {
            let mut next = (*answer).clone();
            next.faults = event.target_unchecked_into::<HtmlTextAreaElement>().value();
            answer.set(next);
        })
    };
    html! {
        <div class="challenge-field">
            <label for={input_id.clone()}>
                {sentences::challenges::words::FaultsLabel { max: spec.max_faults }.to_string()}
            </label>
            <textarea id={input_id} rows="3" spellcheck="false"
                aria-invalid={is_invalid.to_string()}
                aria-describedby={described_by}
                value={answer.faults.clone()} oninput={on_input} />
            <p id={hint_id} class="muted small">{sentences::challenges::words::FaultKinds { kinds: kinds.join(", ") }.to_string()}</p>
        </div>
    }
}

/// The hints shown so far, and a button for the next.
fn hint_list(spec: &Spec, shown: &UseStateHandle<usize>) -> Html {
    let words = &CHALLENGES.words;
    let total = spec.text.hints.len();
    let more = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set((*shown + 1).min(total)))
    };
    html! {
        <div class="challenge-hints">
            <h5>{words.hints_heading}</h5>
            <ol>
                { for spec.text.hints.iter().take(**shown).map(|h| html! { <li>{*h}</li> }) }
            </ol>
            <button type="button" class="button small" onclick={more} disabled={**shown >= total}>
                {sentences::challenges::words::HintButton { shown: **shown, total }.to_string()}
            </button>
        </div>
    }
}

/// The model's verdict on the last try, or why it was refused.
fn verdict_view(spec: &'static Spec, checked: &Checked) -> Html {
    let words = &CHALLENGES.words;
    let (verdict, attempt) = match checked {
        Checked::Refused(refusal) => {
            return html! {
                <p id={refusal_id(spec)} class="challenge-verdict status-warn" role="alert">
                    {refusal.describe_answer()}
                </p>
            }
        }
        Checked::Graded(verdict, attempt) => (verdict, attempt),
    };
    let hash = format!("{:016x}", verdict.trace_hash);
    let trace = match verdict.runs {
        1 => sentences::challenges::words::TraceOneRun { hash }.to_string(),
        runs => sentences::challenges::words::Trace { hash, runs }.to_string(),
    };
    let link = {
        let state = link_of(spec, attempt);
        Callback::from(move |()| address_of(&state))
    };
    html! {
        <div class="challenge-verdict" role="status">
            if let Some(failure) = &verdict.failure {
                <p class="status-bad">{words::failed(failure)}
                    if let Some(case) = words::case(&failure.case) { {" "}{case} }
                </p>
                { go_to_button(failure) }
            } else {
                <p class="status-ok"><strong>{words.verdict_solved}</strong>{" "}{spec.text.solved}</p>
            }
            <p class="muted small trace-id">{trace}</p>
            <CopyField label={words.try_link} field_label={words.try_link_field} text={link} />
        </div>
    }
}

/// "Go to t = … in the laboratory": the failing run, its cursor at the failure.
fn go_to_button(failure: &crate::lab::challenge::Failure) -> Html {
    let (scenario, at) = (failure.scenario.clone(), failure.at);
    let onclick =
        Callback::from(move |_: MouseEvent| super::super::go_to_simulated(scenario.clone(), at));
    html! {
        <button type="button" class="button" {onclick}>
            {sentences::challenges::words::GoTo { at: failure.at }.to_string()}
        </button>
    }
}
