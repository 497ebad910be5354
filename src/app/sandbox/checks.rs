//! The checks panel: each invariant holding or broken (with a jump to the moment), what
//! went wrong and what would have prevented it, the counts, and compare mode's difference.

use yew::prelude::*;

use super::StepProps;
use crate::lab::LabAction;
use crate::model::{
    CheckId, CheckStatus, ClientId, EventKind, Lifecycle, Message, Run, SimTime, WriteVerdict,
};

/// The counts a learner compares between runs, as of time `now`.
fn counts_at(run: &Run, now: SimTime) -> Vec<(&'static str, String)> {
    let events = run.events_until(now);
    // A renew dropped at the moment it was sent (link down) still counts as an attempt.
    let renews = events
        .iter()
        .filter(|e| match e.kind {
            EventKind::Sent {
                msg: Message::Renew { .. },
                ..
            } => true,
            EventKind::Dropped {
                msg: Message::Renew { .. },
                sent_at,
                ..
            } => sent_at == e.at,
            _ => false,
        })
        .count();
    let renew_ok = events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Delivered {
                    msg: Message::RenewOk { .. },
                    ..
                }
            )
        })
        .count();
    let writes = run.storage_log_until(now);
    let accepted = writes.iter().filter(|w| w.verdict.accepted()).count();
    let stale = writes
        .iter()
        .filter(|w| {
            matches!(
                w.verdict,
                WriteVerdict::Accepted {
                    stale_over: Some(_)
                }
            )
        })
        .count();
    let losses = events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Lifecycle {
                    to: Lifecycle::Lost(_),
                    ..
                }
            )
        })
        .count();
    let metrics = run.metrics();
    let failover = match metrics.max_failover {
        Some(d) => d.to_string(),
        None => "none".to_owned(),
    };
    vec![
        ("Renewals sent", renews.to_string()),
        ("Renewals answered OK", renew_ok.to_string()),
        ("Leases lost", losses.to_string()),
        ("Writes accepted by storage", accepted.to_string()),
        (
            "Writes rejected by the fence",
            (writes.len() - accepted).to_string(),
        ),
        ("Stale writes accepted", stale.to_string()),
        ("False losses (whole run)", metrics.false_losses.to_string()),
        ("Longest failover (whole run)", failover),
    ]
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
    let losses: Vec<Html> = (0..run.scenario().clients)
        .flat_map(|c| {
            let client = ClientId(c);
            run.lifecycle_history(client)
                .iter()
                .filter(move |p| p.from <= now)
                .filter_map(move |p| match p.state {
                    Lifecycle::Lost(reason) => Some(html! {
                        <li>{format!("Client {client} went Lost at t = {}: {}; it stopped writing.", p.from, reason.describe())}</li>
                    }),
                    _ => None,
                })
        })
        .collect();

    html! {
        <section class="card checks-panel" aria-labelledby="checks-title">
            <h4 id="checks-title">{"Checks"}</h4>
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
            if !losses.is_empty() {
                <ul class="losses">{ for losses }</ul>
            }
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
    let mine = counts_at(lab.run(), now);
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
    let theirs = counts_at(&compare.run, now);
    let mut differences = Vec::new();
    for id in CheckId::ALL {
        let (a, b) = (lab.run().check_at(id, now), compare.run.check_at(id, now));
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
                            <td>{status_text(&lab.run().check_at(id, now))}</td>
                            <td>{status_text(&compare.run.check_at(id, now))}</td>
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
