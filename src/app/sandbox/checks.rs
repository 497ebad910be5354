//! The checks panel: each invariant holding or broken (with a jump to the moment), what
//! went wrong and what would have prevented it (words from `content/checks.toml`), the
//! checkers' counts up to the cursor and for the whole run, and compare mode's difference.

use crate::lesson::sentences;
use yew::prelude::*;

use super::reading::{RunReading, ShownRun};
use super::RunProps;
use crate::lab::{describe, PolicySwitch};
use crate::lesson::checks::{CheckWords, ViolationWords, CHECK_TEXTS};
use crate::model::{CheckId, CheckStatus, Lifecycle, Metrics, RunQuestions, SimTime};

/// At most this many lost-flag moments are listed; the rest are counted.
const SHOWN_LOSSES: usize = 6;

/// Each figure's label and value.
type Figures = [(&'static str, String); 12];

/// The figures a learner compares between runs, by label, from one set of measurements.
/// Every figure comes from the model's checkers (`metrics_at` as of the step shown and
/// `metrics` for the whole run), so the two columns never count by different rules.
fn figures(run: &dyn RunReading, m: &Metrics) -> Figures {
    let l = &CHECK_TEXTS.counts;
    let failover = match m.max_failover {
        Some(d) => run.shown_length(d).to_string(),
        None => CHECK_TEXTS.panel.no_failover.to_owned(),
    };
    [
        (l.renews_sent, m.renews_sent.to_string()),
        (l.renews_ok, m.renews_ok.to_string()),
        (l.renews_not_owner, m.renews_not_owner.to_string()),
        (l.renews_timed_out, m.renews_timed_out.to_string()),
        (l.renews_awaiting, m.renews_awaiting.to_string()),
        (l.renews_lost_on_wire, m.renews_lost_on_wire.to_string()),
        (l.losses, m.losses.to_string()),
        (l.false_losses, m.false_losses.to_string()),
        (l.writes_accepted, m.writes_accepted.to_string()),
        (l.writes_rejected, m.writes_rejected.to_string()),
        (l.stale_accepted, m.stale_accepted.to_string()),
        (l.max_failover, failover),
    ]
}

/// The latest moments a client went Lost, up to `now`, and a count of the earlier ones.
fn losses_list(run: &dyn RunReading, now: SimTime) -> Html {
    let window = run.losses_before(now, SHOWN_LOSSES);
    if window.total == 0 {
        return Html::default();
    }
    let earlier = window.total - window.items.len();
    // "It stopped writing" only where the check on writes after the flag says so.
    let stopped_writing = run.check_at(CheckId::NoWriteAfterLost, now) == CheckStatus::Holding;
    html! {
        <ul class="losses">
            if earlier > 0 {
                <li class="muted">{sentences::checks::panel::EarlierLosses { earlier, latest: window.items.len() }.to_string()}</li>
            }
            { for window.items.iter().map(|(client, point)| {
                let reason = match point.state {
                    Lifecycle::Lost(reason) => describe::lost_reason(reason),
                    _ => "",
                };
                let at = run.shown_time(point.from);
                let said = if stopped_writing {
                    sentences::checks::panel::WentLost { client, at, reason }.to_string()
                } else {
                    sentences::checks::panel::WentLostOnly { client, at, reason }.to_string()
                };
                html! { <li>{said}</li> }
            }) }
        </ul>
    }
}

fn status_text(run: &dyn RunReading, status: &CheckStatus) -> String {
    let panel = &CHECK_TEXTS.panel;
    match status {
        CheckStatus::Holding => panel.holding.to_owned(),
        CheckStatus::NotApplicable => panel.not_applicable.to_owned(),
        CheckStatus::Broken { first, count } => {
            let at = run.shown_time(first.at);
            if *count > 1 {
                sentences::checks::panel::BrokenTimes { at, count }.to_string()
            } else {
                sentences::checks::panel::Broken { at }.to_string()
            }
        }
    }
}

/// A run set beside the one shown: the same scenario with one policy switch flipped.
#[derive(Clone, PartialEq)]
pub struct ComparedRun {
    /// The switch flipped.
    pub switch: PolicySwitch,
    /// The flipped run.
    pub run: ShownRun,
}

/// Props of [`ChecksPanel`]: the run at the step shown, and the run compared with it.
#[derive(Properties, PartialEq, Clone)]
pub struct ChecksProps {
    pub step: RunProps,
    #[prop_or_default]
    pub compare: Option<ComparedRun>,
}

/// Every check at the cursor, the counts, and the comparison if there is one.
#[component]
pub fn ChecksPanel(props: &ChecksProps) -> Html {
    let run = &props.step.run;
    let now = props.step.at;
    html! {
        <section class="card checks-panel" aria-labelledby="checks-title">
            <h4 id="checks-title">{CHECK_TEXTS.panel.heading}</h4>
            <ul class="checks" aria-live="polite">
                { for CheckId::ALL.into_iter().map(|id| {
                    let status = run.check_at(id, now);
                    let class = match status {
                        CheckStatus::Holding => "check status-ok",
                        CheckStatus::NotApplicable => "check check-na",
                        CheckStatus::Broken { .. } => "check status-bad",
                    };
                    html! {
                        <li class={class}>
                            <p class="check-title">{id.title()}</p>
                            <p class="check-status"><strong>{status_text(&**run, &status)}</strong></p>
                            if let CheckStatus::Broken { first, .. } = status {
                                <p>{run.shown_violation(first).explanation()}</p>
                                <p><strong>{CHECK_TEXTS.panel.prevented_by}</strong>{first.prevention()}</p>
                                if let Some(seek) = props.step.on_seek.clone() {
                                    <button type="button" class="button small"
                                        onclick={Callback::from(move |_: MouseEvent| seek.emit(first.at))}>
                                        {sentences::checks::panel::GoTo { at: run.shown_time(first.at) }.to_string()}
                                    </button>
                                }
                            }
                            if status == CheckStatus::NotApplicable {
                                <p class="muted small">{id.not_applicable()}</p>
                            }
                        </li>
                    }
                }) }
            </ul>
            { losses_list(&**run, now) }
            { counts(&**run, now, props.compare.as_ref()) }
        </section>
    }
}

/// The counts of this run, side by side with the compared run when there is one.
fn counts(run: &dyn RunReading, now: SimTime, compare: Option<&ComparedRun>) -> Html {
    let panel = &CHECK_TEXTS.panel;
    let mine = figures(run, &run.metrics_at(now));
    let Some(compare) = compare else {
        return counts_table(run, mine, figures(run, run.metrics()), now);
    };
    let policy = run.scenario().policy;
    let switch = compare.switch.label().to_ascii_lowercase();
    let flipped_name = if compare.switch.is_on(&policy) {
        sentences::checks::panel::Without { switch }.to_string()
    } else {
        sentences::checks::panel::With { switch }.to_string()
    };
    let theirs = figures(&*compare.run, &compare.run.metrics_at(now));
    let statuses: Vec<_> = CheckId::ALL
        .into_iter()
        .map(|id| (id, run.check_at(id, now), compare.run.check_at(id, now)))
        .collect();
    let summary = difference(
        &statuses,
        &mine,
        &theirs,
        &flipped_name,
        compare.switch.label(),
    );
    html! {
        <div class="comparison">
            <p class="comparison-summary" aria-live="polite">{summary}</p>
            <table class="counts">
                <caption>{sentences::checks::panel::CompareCaption { now: run.shown_time(now) }.to_string()}</caption>
                <thead>
                    <tr><th scope="col">{panel.measure}</th><th scope="col">{panel.this_run}</th><th scope="col">{flipped_name.clone()}</th></tr>
                </thead>
                <tbody>
                    { for statuses.iter().map(|(id, a, b)| html! {
                        <tr>
                            <th scope="row">{id.title()}</th>
                            <td>{status_text(run, a)}</td>
                            <td>{status_text(&*compare.run, b)}</td>
                        </tr>
                    }) }
                    { for mine.into_iter().zip(theirs).map(|((label, a), (_, b))| html! {
                        <tr><th scope="row">{label}</th><td>{a}</td><td>{b}</td></tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// The counts up to the step shown beside the whole run's, when nothing is compared.
fn counts_table(run: &dyn RunReading, mine: Figures, whole: Figures, now: SimTime) -> Html {
    let panel = &CHECK_TEXTS.panel;
    html! {
        <table class="counts">
            <caption>{sentences::checks::panel::CountsCaption { now: run.shown_time(now) }.to_string()}</caption>
            <thead>
                <tr><th scope="col">{panel.measure}</th><th scope="col">{sentences::checks::panel::AsOf { now: run.shown_time(now) }.to_string()}</th><th scope="col">{panel.whole_run}</th></tr>
            </thead>
            <tbody>
                { for mine.into_iter().zip(whole).map(|((label, value), (_, total))| html! {
                    <tr><th scope="row">{label}</th><td>{value}</td><td>{total}</td></tr>
                }) }
            </tbody>
        </table>
    }
}

/// What differs between this run and the one with the switch flipped, as a sentence.
fn difference(
    statuses: &[(CheckId, CheckStatus, CheckStatus)],
    mine: &[(&'static str, String)],
    theirs: &[(&'static str, String)],
    flipped_name: &str,
    switch: &str,
) -> String {
    let mut differences = Vec::new();
    for (id, a, b) in statuses {
        if a.is_broken() != b.is_broken() {
            let check = id.title();
            differences.push(if a.is_broken() {
                sentences::checks::panel::BreaksHere { check }.to_string()
            } else {
                sentences::checks::panel::BreaksFlipped { check }.to_string()
            });
        }
    }
    for ((label, a), (_, b)) in mine.iter().zip(theirs) {
        if a != b {
            differences.push(
                sentences::checks::panel::Differs {
                    figure: label.to_ascii_lowercase(),
                    here: a.clone(),
                    there: b.clone(),
                    compared: flipped_name.to_ascii_lowercase(),
                }
                .to_string(),
            );
        }
    }
    if differences.is_empty() {
        sentences::checks::panel::Agree { switch }.to_string()
    } else {
        sentences::checks::panel::Difference {
            differences: differences.join("; "),
        }
        .to_string()
    }
}
