//! The checks panel: each invariant holding or broken (with a jump to the moment), what
//! went wrong and what would have prevented it, the counts, and compare mode's difference.

use yew::prelude::*;

use super::StepProps;
use crate::lab::LabAction;
use crate::model::{CheckId, CheckStatus, Lifecycle, Recording, SimTime, Tally};

/// At most this many lost-flag moments are listed; the rest are counted.
const SHOWN_LOSSES: usize = 6;

/// The counts a learner compares between runs, as of the tally at the cursor.
fn counts_at(run: &Recording, tally: &Tally) -> Vec<(&'static str, String)> {
    let metrics = run.metrics();
    let failover = match metrics.max_failover {
        Some(d) => d.to_string(),
        None => "none".to_owned(),
    };
    vec![
        ("Renewals sent", tally.renews_sent.to_string()),
        ("Renewals answered OK", tally.renews_ok.to_string()),
        ("Leases lost", tally.losses.to_string()),
        (
            "Writes accepted by storage",
            tally.writes_accepted.to_string(),
        ),
        (
            "Writes rejected by the fence",
            tally.writes_rejected().to_string(),
        ),
        ("Stale writes accepted", tally.writes_stale.to_string()),
        ("False losses (whole run)", metrics.false_losses.to_string()),
        ("Longest failover (whole run)", failover),
    ]
}

/// The latest moments a client went Lost, up to `now`, and a count of the earlier ones.
fn losses_list(run: &Recording, now: SimTime) -> Html {
    let window = run.losses_before(now, SHOWN_LOSSES);
    if window.total == 0 {
        return Html::default();
    }
    let earlier = window.total - window.items.len();
    html! {
        <ul class="losses">
            if earlier > 0 {
                <li class="muted">{format!("{earlier} earlier losses; the latest {} follow.", window.items.len())}</li>
            }
            { for window.items.iter().map(|(client, point)| {
                let reason = match point.state {
                    Lifecycle::Lost(reason) => reason.describe(),
                    _ => "",
                };
                html! {
                    <li>{format!("Client {client} went Lost at t = {}: {reason}; it stopped writing.", point.from)}</li>
                }
            }) }
        </ul>
    }
}

fn status_text(status: &CheckStatus) -> String {
    match status {
        CheckStatus::Holding => "Holding".to_owned(),
        CheckStatus::NotApplicable => "Not applicable".to_owned(),
        CheckStatus::Broken { first, count } => {
            let times = if *count > 1 {
                format!(" ({count} times)")
            } else {
                String::new()
            };
            format!("Broken at t = {}{times}", first.at)
        }
    }
}

/// Every check at the cursor, the counts, and the comparison if there is one.
#[component]
pub fn ChecksPanel(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let run = lab.run();
    let now = props.at;
    let tally = run.tally_at(now);
    html! {
        <section class="card checks-panel" aria-labelledby="checks-title">
            <h4 id="checks-title">{"Checks"}</h4>
            <ul class="checks" aria-live="polite">
                { for CheckId::ALL.into_iter().map(|id| {
                    let status = run.check_as_of(id, now, &tally);
                    let class = match status {
                        CheckStatus::Holding => "check status-ok",
                        CheckStatus::NotApplicable => "check check-na",
                        CheckStatus::Broken { .. } => "check status-bad",
                    };
                    html! {
                        <li class={class}>
                            <p class="check-title">{id.title()}</p>
                            <p class="check-status"><strong>{status_text(&status)}</strong></p>
                            if let CheckStatus::Broken { first, .. } = status {
                                <p>{first.explanation()}</p>
                                <p><strong>{"What would have prevented it: "}</strong>{first.prevention()}</p>
                                <button type="button" class="button small"
                                    onclick={props.send(move |_: MouseEvent| LabAction::Seek(first.at))}>
                                    {format!("Go to t = {}", first.at)}
                                </button>
                            }
                            if status == CheckStatus::NotApplicable {
                                <p class="muted small">{not_applicable_reason(id)}</p>
                            }
                        </li>
                    }
                }) }
            </ul>
            { losses_list(run, now) }
            <Comparison ..props.clone() />
        </section>
    }
}

fn not_applicable_reason(id: CheckId) -> &'static str {
    match id {
        CheckId::NoStaleAccepted => "Fencing is off, so storage makes no promise about tokens.",
        CheckId::NoWriteAfterLost => {
            "An Alternative policy is on: the client does not promise to stop at the lost flag."
        }
        _ => "This check does not apply to the current policy.",
    }
}

/// The counts of this run, side by side with the comparison run when comparing.
#[component]
fn Comparison(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let now = props.at;
    let tally = lab.run().tally_at(now);
    let mine = counts_at(lab.run(), &tally);
    let Some(compare) = lab.compare() else {
        return html! {
            <table class="counts">
                <caption>{format!("Counts as of the last event (t = {now})")}</caption>
                <tbody>
                    { for mine.into_iter().map(|(label, value)| html! {
                        <tr><th scope="row">{label}</th><td>{value}</td></tr>
                    }) }
                </tbody>
            </table>
        };
    };
    let policy = lab.scenario().policy;
    let flipped_name = format!(
        "{} {}",
        if compare.switch.is_on(&policy) {
            "Without"
        } else {
            "With"
        },
        compare.switch.label().to_lowercase()
    );
    let their_tally = compare.run.tally_at(now);
    let theirs = counts_at(&compare.run, &their_tally);
    let mine_status = |id| lab.run().check_as_of(id, now, &tally);
    let their_status = |id| compare.run.check_as_of(id, now, &their_tally);
    let mut differences = Vec::new();
    for id in CheckId::ALL {
        let (a, b) = (mine_status(id), their_status(id));
        if a.is_broken() != b.is_broken() {
            let broken_in = if a.is_broken() {
                "only in this run"
            } else {
                "only with the switch flipped"
            };
            differences.push(format!("\u{201c}{}\u{201d} breaks {broken_in}", id.title()));
        }
    }
    for ((label, a), (_, b)) in mine.iter().zip(&theirs) {
        if a != b {
            differences.push(format!(
                "{}: {a} here, {b} {}",
                label.to_lowercase(),
                flipped_name.to_lowercase()
            ));
        }
    }
    let summary = if differences.is_empty() {
        format!(
            "So far the two runs agree: flipping \u{201c}{}\u{201d} has made no difference yet.",
            compare.switch.label()
        )
    } else {
        format!("Difference: {}.", differences.join("; "))
    };
    html! {
        <div class="comparison">
            <p class="comparison-summary" aria-live="polite">{summary}</p>
            <table class="counts">
                <caption>{format!("Side by side, as of the last event (t = {now})")}</caption>
                <thead>
                    <tr><th scope="col">{"Measure"}</th><th scope="col">{"This run"}</th><th scope="col">{flipped_name.clone()}</th></tr>
                </thead>
                <tbody>
                    { for CheckId::ALL.into_iter().map(|id| html! {
                        <tr>
                            <th scope="row">{id.title()}</th>
                            <td>{status_text(&mine_status(id))}</td>
                            <td>{status_text(&their_status(id))}</td>
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
