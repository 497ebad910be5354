//! The checks panel: each invariant holding or broken (with a jump to the moment), what
//! went wrong and what would have prevented it (words from `content/checks.toml`), the
//! observer's counts up to the cursor and for the whole run, and compare mode's difference.

use yew::prelude::*;

use super::StepProps;
use crate::lab::LabAction;
use crate::lesson::checks::{CheckWords, ViolationWords};
use crate::model::{CheckId, CheckStatus, ClientId, Lifecycle, Metrics};

/// The figures a learner compares between runs, by label, from one set of measurements.
/// Every figure comes from the model's observer (`Run::metrics_at` as of the step shown and
/// `Run::metrics` for the whole run), so the two columns never count by different rules.
fn figures(m: &Metrics) -> [(&'static str, String); 11] {
    let failover = match m.max_failover {
        Some(d) => d.to_string(),
        None => "none".to_owned(),
    };
    [
        ("Renewals sent", m.renews_sent.to_string()),
        ("Renewals answered OK", m.renews_ok.to_string()),
        (
            "Renewals answered NOT_OWNER",
            m.renews_not_owner.to_string(),
        ),
        ("Renewals that timed out", m.renews_timed_out.to_string()),
        (
            "Renewals dropped by the network",
            m.renews_lost_on_wire.to_string(),
        ),
        ("Leases lost", m.losses.to_string()),
        (
            "False losses (the service still held the lease)",
            m.false_losses.to_string(),
        ),
        ("Writes accepted by storage", m.writes_accepted.to_string()),
        (
            "Writes rejected by the fence",
            m.writes_rejected.to_string(),
        ),
        ("Stale writes accepted", m.stale_accepted.to_string()),
        ("Longest failover", failover),
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
                                <p class="muted small">{id.not_applicable()}</p>
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

/// The counts of this run, side by side with the comparison run when comparing.
#[component]
fn Comparison(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let now = props.at;
    let mine = figures(&lab.run().metrics_at(now));
    let Some(compare) = lab.compare() else {
        let whole = figures(lab.run().metrics());
        return html! {
            <table class="counts">
                <caption>{format!("Counts as of the last event (t = {now}) and for the whole run")}</caption>
                <thead>
                    <tr><th scope="col">{"Measure"}</th><th scope="col">{format!("As of t = {now}")}</th><th scope="col">{"Whole run"}</th></tr>
                </thead>
                <tbody>
                    { for mine.into_iter().zip(whole).map(|((label, value), (_, total))| html! {
                        <tr><th scope="row">{label}</th><td>{value}</td><td>{total}</td></tr>
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
    let theirs = figures(&compare.run.metrics_at(now));
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
