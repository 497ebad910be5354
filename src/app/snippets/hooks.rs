//! The hooks that tie a snippet panel's state to the world: code from a link, edits
//! reported to the parent, and runs started and stopped in the sandbox.

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use super::bridge::{start_lab, stop_lab};
use super::state::{Panel, PanelAction, RunPhase};
use super::SnippetLanguage;

/// Code that arrives later (a share link) replaces the shown code, and still waits for Run.
#[hook]
pub fn use_code_from_link(initial: Option<String>, panel: &UseReducerHandle<Panel>) {
    let dispatcher = panel.dispatcher();
    use_effect_with(initial, move |initial| {
        if let Some(code) = initial {
            dispatcher.dispatch(PanelAction::Edit(code.clone()));
        }
    });
}

/// After each change of the code, tells the parent the new code, or `None` once it is the
/// original again; the first render is no change.
#[hook]
pub fn use_reported_edits(
    language: SnippetLanguage,
    panel: &UseReducerHandle<Panel>,
    on_code_change: Callback<(SnippetLanguage, Option<String>)>,
) {
    let code = panel.code.clone();
    use_effect_with(panel.revision, move |revision| {
        if *revision > 0 {
            let edited = (code != language.original_code()).then_some(code);
            on_code_change.emit((language, edited));
        }
    });
}

/// Starts each new run (a new run number) in the sandbox, with the code and limit of that
/// moment; a run still going when the panel goes away is stopped with it.
#[hook]
pub fn use_runner(language: SnippetLanguage, panel: &UseReducerHandle<Panel>) {
    let dispatcher = panel.dispatcher();
    let limit_secs = panel.limit_secs;
    let task = panel.task.clone();
    // Only a run just asked for starts: a panel taken up again (see `Panel::resumed`) has
    // a run number but never runs unasked.
    let asked = matches!(panel.phase, RunPhase::Preparing { .. });
    use_effect_with(panel.run_id, move |&run_id| {
        if let (true, Some(task)) = (run_id > 0 && asked, task) {
            spawn_local(async move {
                let report = dispatcher.clone();
                let on_event = move |event| {
                    let at_ms = crate::app::clock::page_now_ms();
                    report.dispatch(PanelAction::Report {
                        run_id,
                        event,
                        at_ms,
                    })
                };
                if let Err(reason) = start_lab(language, &task, limit_secs, on_event).await {
                    dispatcher.dispatch(PanelAction::NotStarted { run_id, reason });
                }
            });
        }
        move || {
            if run_id > 0 {
                spawn_local(stop_lab(language));
            }
        }
    });
}
