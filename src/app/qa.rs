//! The Q&A tab: interview questions as flash cards with self-grading kept in localStorage,
//! and the Go deeper links.
//!
//! Storage can be missing or refuse (a sandboxed iframe, private mode, a full quota); then
//! grading still works for the visit and a plain note says it will not be kept.

use std::collections::BTreeSet;

use yew::prelude::*;

use crate::lesson::quiz::{progress_sentence, shuffled, Grade, Progress, Tally};
use crate::lesson::LESSON;

/// The localStorage key for the grades (bump the suffix if the format ever changes).
pub const STORAGE_KEY: &str = "lease-lab.qa.v1";

pub(crate) fn question_ids() -> Vec<&'static str> {
    LESSON.qa.questions.iter().map(|q| q.id).collect()
}

fn storage() -> Option<web_sys::Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// The saved grades, or `None` where storage is unavailable.
fn load() -> Option<Progress> {
    let store = storage()?;
    let saved = store.get_item(STORAGE_KEY).ok()?;
    Some(Progress::decode(
        &saved.unwrap_or_default(),
        &question_ids(),
    ))
}

/// The grades to show: this browser's, completed by those a course platform kept from
/// another launch (see `course`); and whether this browser stores them.
pub(crate) fn current_grades() -> (Progress, bool) {
    let local = load();
    let stored = local.is_some();
    (
        super::course::with_restored_grades(local.unwrap_or_default()),
        stored,
    )
}

/// Saves the grades; false where storage is unavailable or refuses.
fn save(progress: &Progress) -> bool {
    storage().is_some_and(|store| store.set_item(STORAGE_KEY, &progress.encode()).is_ok())
}

/// The Q&A tab: the cards with their progress, then the Go deeper links.
#[component]
pub fn QaTab() -> Html {
    let qa = &LESSON.qa;
    // The saved grades come in once the page has hydrated (the server knows none).
    let hydrated = super::hydration::use_hydrated();
    let loaded = use_memo(hydrated, |&hydrated| hydrated.then(current_grades));
    let progress = use_state(|| {
        (*loaded)
            .clone()
            .map(|(grades, _)| grades)
            .unwrap_or_default()
    });
    let storage_ok = use_state(|| (*loaded).as_ref().is_none_or(|(_, stored)| *stored));
    {
        let (progress, storage_ok) = (progress.clone(), storage_ok.clone());
        use_effect_with(loaded, move |loaded| {
            if let Some((grades, stored)) = &**loaded {
                storage_ok.set(*stored);
                progress.set(grades.clone());
            }
        });
    }
    let order = use_state(|| (0..qa.questions.len()).collect::<Vec<usize>>());
    let revealed = use_state(BTreeSet::<usize>::new);

    let grade = {
        let progress = progress.clone();
        let storage_ok = storage_ok.clone();
        Callback::from(move |(id, grade): (&'static str, Grade)| {
            let next = progress.with(id, grade);
            storage_ok.set(save(&next));
            super::course::grades_changed(&next);
            progress.set(next);
        })
    };
    let shuffle = {
        let order = order.clone();
        Callback::from(move |_: MouseEvent| {
            let seed = (js_sys::Math::random() * u32::MAX as f64) as u64;
            order.set(shuffled(LESSON.qa.questions.len(), seed));
        })
    };
    let reset = {
        let progress = progress.clone();
        let storage_ok = storage_ok.clone();
        let order = order.clone();
        let revealed = revealed.clone();
        Callback::from(move |_: MouseEvent| {
            let empty = Progress::default();
            storage_ok.set(save(&empty));
            super::course::grades_changed(&empty);
            progress.set(empty);
            order.set((0..LESSON.qa.questions.len()).collect());
            revealed.set(BTreeSet::new());
        })
    };

    let tally = progress.tally(&question_ids());
    html! {
        <div class="lesson qa">
            <section aria-labelledby="qa-heading">
                <h2 id="qa-heading">{qa.heading}</h2>
                <p class="lead">{qa.intro}</p>
                <div class="qa-toolbar">
                    <p class="progress-line" role="status">{progress_sentence(tally)}</p>
                    <div class="button-row">
                        <button type="button" class="button" onclick={shuffle}>{qa.shuffle}</button>
                        <button type="button" class="button" onclick={reset}>{qa.reset}</button>
                    </div>
                </div>
                { progress_bar(tally) }
                // Always there, so the sentence is announced once when a save first fails.
                <div role="status">
                    if !*storage_ok {
                        <p class="note storage-note">{qa.storage_unavailable}</p>
                    }
                </div>
                <ol class="qa-cards">
                    { for order.iter().map(|&index| qa_card(index, &revealed, progress.grade(qa.questions[index].id), &grade)) }
                </ol>
            </section>
            { deeper_section() }
        </div>
    }
}

/// Known, to review and open cards as one bar (the sentence above says it in words).
fn progress_bar(tally: Tally) -> Html {
    html! {
        <div class="progress-bar" aria-hidden="true">
            <span class="known" style={format!("flex-grow: {}", tally.known)}></span>
            <span class="review" style={format!("flex-grow: {}", tally.review)}></span>
            <span class="open" style={format!("flex-grow: {}", tally.open)}></span>
        </div>
    }
}

/// One card: the question, a button that reveals the answer, and the two grades.
fn qa_card(
    index: usize,
    revealed: &UseStateHandle<BTreeSet<usize>>,
    current: Option<Grade>,
    grade: &Callback<(&'static str, Grade)>,
) -> Html {
    let qa = &LESSON.qa;
    let question = &qa.questions[index];
    let is_open = revealed.contains(&index);
    let toggle = {
        let revealed = revealed.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*revealed).clone();
            if !next.remove(&index) {
                next.insert(index);
            }
            revealed.set(next);
        })
    };
    let grade_button = |kind: Grade, label: &'static str| {
        let grade = grade.clone();
        let id = question.id;
        html! {
            <button type="button" class={classes!("button", "grade", if kind == Grade::Knew { "knew" } else { "review" })}
                aria-pressed={(current == Some(kind)).to_string()}
                onclick={Callback::from(move |_: MouseEvent| grade.emit((id, kind)))}>
                {label}
            </button>
        }
    };
    let answer_id = format!("qa-answer-{}", question.id);
    html! {
        <li class={classes!("card", "qa-card", current.map(|g| if g == Grade::Knew { "graded-knew" } else { "graded-review" }))}>
            <h3>{question.question}</h3>
            <button type="button" class="button reveal" aria-expanded={is_open.to_string()}
                aria-controls={answer_id.clone()} onclick={toggle}>
                { if is_open { qa.hide } else { qa.reveal } }
            </button>
            <div class="answer" id={answer_id} hidden={!is_open}>
                <p><span class="visually-hidden">{qa.answer_label}{": "}</span>{question.answer}</p>
                <div class="button-row" role="group" aria-label={format!("{}: {}", qa.grade_group, question.question)}>
                    { grade_button(Grade::Knew, qa.knew) }
                    { grade_button(Grade::Review, qa.review) }
                </div>
            </div>
        </li>
    }
}

/// The further reading, each link opening in a new tab.
fn deeper_section() -> Html {
    html! {
        <section aria-labelledby="qa-deeper">
            <h2 id="qa-deeper">{LESSON.deeper.heading}</h2>
            <ul class="deeper">
                { for LESSON.deeper.links.iter().map(|link| html! {
                    <li>
                        <a href={link.url} target="_blank" rel="noopener noreferrer">
                            {link.label}<span class="visually-hidden">{" "}{LESSON.deeper.new_tab}</span>
                        </a>
                        <span class="muted">{link.note}</span>
                    </li>
                }) }
            </ul>
        </section>
    }
}
