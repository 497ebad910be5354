//! The Sandbox's Challenges section: every challenge with its status (kept in localStorage
//! like the Q&A grades), one open at a time ([`card`]). A try link opens its challenge with
//! the try filled in, or is refused with a plain notice; nothing is graded unasked.

mod card;
mod storage;

use std::cell::Cell;

use crate::lesson::sentences;
use yew::prelude::*;

use crate::lab::challenge::link::{read_link, Answer};
use crate::lab::challenge::{spec, Progress, Refusal, Status};
use crate::lesson::content::CHALLENGES;
use storage::Kept;

thread_local! {
    /// The challenge left open: another tab unmounts the Sandbox, and coming back shows it.
    static OPEN: Cell<Option<&'static str>> = const { Cell::new(None) };
}

/// What the page's link asked of the challenges: open one with a try, or nothing.
#[derive(Clone, Debug, PartialEq)]
enum Linked {
    None,
    Try { id: &'static str, answer: Answer },
    Refused(Refusal),
}

/// Reads the try the page's link carried, once.
fn linked() -> Linked {
    match crate::app::share::take_initial_challenge() {
        None => Linked::None,
        Some((challenge, lab)) => match read_link(&challenge, lab.as_ref()) {
            Ok((spec, attempt)) => Linked::Try {
                id: spec.text.id,
                answer: Answer::of(spec, &attempt),
            },
            Err(refusal) => Linked::Refused(refusal),
        },
    }
}

/// The Challenges section.
#[component]
pub fn Challenges() -> Html {
    let words = &CHALLENGES.words;
    let specs = spec::all();
    let linked = use_memo((), |_| linked());
    let kept = use_state(storage::load);
    let open = use_state(|| match &*linked {
        Linked::Try { id, .. } => Some(*id),
        _ => OPEN.get(),
    });
    use_effect_with(*open, |&open| OPEN.set(open));
    let on_graded = {
        let kept = kept.clone();
        Callback::from(move |(id, solved): (&'static str, bool)| {
            kept.set(storage::save(kept.progress.graded(id, solved)));
        })
    };
    use_search_hidden(*open);
    {
        // Said at the top too, where the link notice names what of a link was not read.
        let refused = matches!(&*linked, Linked::Refused(_));
        use_effect_with(refused, |&refused| {
            if refused {
                crate::app::share::refuse_initial_challenge(words.link_refused.to_owned());
            }
        });
    }
    let tally = kept.progress.tally(specs);
    html! {
        <section class="card challenges" aria-labelledby="challenges-title">
            <h3 id="challenges-title">{words.heading}</h3>
            <p>{words.intro}</p>
            <p class="progress-line" role="status">{sentences::challenges::words::Progress { solved: tally.solved, total: tally.total, required: tally.required }.to_string()}</p>
            <p class="muted small">{words.own_client}</p>
            { storage_note(&kept) }
            if let Linked::Refused(refusal) = &*linked {
                <p class="status-warn challenge-refused" role="alert">{refusal.describe()}</p>
            }
            <ol class="challenge-list">
                { for specs.iter().map(|spec| {
                    let id = spec.text.id;
                    let initial = match &*linked {
                        Linked::Try { id: linked_id, answer } if *linked_id == id => Some(answer.clone()),
                        _ => None,
                    };
                    item(spec, &kept.progress, &open, initial, on_graded.clone())
                }) }
            </ol>
        </section>
    }
}

/// Hides the laboratory's counterexample search (`html[data-search-hidden]`, lab.css) while
/// a challenge that asks for it is open: the search would find that answer for the learner.
#[hook]
fn use_search_hidden(open: Option<&'static str>) {
    let hides = open
        .and_then(spec::by_id)
        .is_some_and(|spec| spec.text.hides_search);
    use_effect_with(hides, |&hides| {
        let root = gloo::utils::document().document_element();
        if let Some(root) = &root {
            let _ = if hides {
                root.set_attribute("data-search-hidden", "")
            } else {
                root.remove_attribute("data-search-hidden")
            };
        }
        move || {
            if let Some(root) = root {
                let _ = root.remove_attribute("data-search-hidden");
            }
        }
    });
}

/// A note when progress cannot be kept, or had to be reset.
fn storage_note(kept: &Kept) -> Html {
    let words = &CHALLENGES.words;
    let note = match kept.note {
        storage::Note::None => return Html::default(),
        storage::Note::Reset => words.storage_reset,
        storage::Note::Unavailable => words.storage_unavailable,
    };
    html! { <p class="note storage-note" role="status">{note}</p> }
}

/// One challenge in the list: a button with its title and status, and its card when open.
fn item(
    spec: &'static spec::Spec,
    progress: &Progress,
    open: &UseStateHandle<Option<&'static str>>,
    initial: Option<Answer>,
    on_graded: Callback<(&'static str, bool)>,
) -> Html {
    let words = &CHALLENGES.words;
    let id = spec.text.id;
    let is_open = **open == Some(id);
    let status = progress.status(id);
    let (status_word, class) = match status {
        Status::NotTried => (words.not_tried, "not-tried"),
        Status::Tried => (words.tried, "tried"),
        Status::Solved => (words.solved, "solved"),
    };
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(if is_open { None } else { Some(id) }))
    };
    let body_id = format!("challenge-{id}");
    html! {
        <li class={classes!("challenge", class)}>
            <h4 class="challenge-heading">
                <button type="button" class="challenge-toggle" aria-expanded={is_open.to_string()}
                    aria-controls={body_id.clone()} onclick={toggle}>
                    <span class="challenge-title">{spec.text.title}</span>
                    <span class={classes!("challenge-status", class)}>{status_word}</span>
                </button>
            </h4>
            if is_open {
                <div id={body_id}>
                    <card::ChallengeCard {id} {initial} {on_graded} />
                </div>
            }
        </li>
    }
}
