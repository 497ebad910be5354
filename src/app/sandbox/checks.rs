//! The checks panel: each invariant holding or broken (with a jump to the moment), what
//! went wrong and what would have prevented it (words from `content/checks.toml`), the
//! observer's counts up to the cursor and for the whole run, and compare mode's difference.

use yew::prelude::*;

use super::StepProps;
use crate::lab::LabAction;
use crate::lesson::checks::{fill, CheckWords, ViolationWords, CHECK_TEXTS};
use crate::model::{CheckId, CheckStatus, Lifecycle, Metrics, Recording, SimTime};

/// At most this many lost-flag moments are listed; the rest are counted.
const SHOWN_LOSSES: usize = 6;

/// The figures a learner compares between runs, by label, from one set of measurements.
/// Every figure comes from the model's observer (`Recording::metrics_at` as of the step shown and
/// `Recording::metrics` for the whole run), so the two columns never count by different rules.
fn figures(m: &Metrics) -> [(&'static str, String); 11] {
    let l = &CHECK_TEXTS.counts;
    let failover = match m.max_failover {
        Some(d) => d.to_string(),
        None => CHECK_TEXTS.panel.no_failover.to_owned(),
    };
    [
        (l.renews_sent, m.renews_sent.to_string()),
        (l.renews_ok, m.renews_ok.to_string()),
        (l.renews_not_owner, m.renews_not_owner.to_string()),
        (l.renews_timed_out, m.renews_timed_out.to_string()),
        (l.renews_lost_on_wire, m.renews_lost_on_wire.to_string()),
        (l.losses, m.losses.to_string()),
        (l.false_losses, m.false_losses.to_string()),
        (l.writes_accepted, m.writes_accepted.to_string()),
        (l.writes_rejected, m.writes_rejected.to_string()),
        (l.stale_accepted, m.stale_accepted.to_string()),
        (l.max_failover, failover),
    ]
}

/// A panel template with the time shown filled in.
fn at_now(template: &str, now: SimTime) -> String {
    fill(template, &[("now", now.to_string())])
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
    let panel = &CHECK_TEXTS.panel;
    match status {
        CheckStatus::Holding => panel.holding.to_owned(),
        CheckStatus::NotApplicable => panel.not_applicable.to_owned(),
        CheckStatus::Broken { first, count } => {
            let template = if *count > 1 {
                panel.broken_times
            } else {
                panel.broken
            };
            fill(
                template,
                &[("at", first.at.to_string()), ("count", count.to_string())],
            )
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
                                <p><strong>{CHECK_TEXTS.panel.prevented_by}</strong>{first.prevention()}</p>
                                <button type="button" class="button small"
                                    onclick={props.send(move |_: MouseEvent| LabAction::Seek(first.at))}>
                                    {fill(CHECK_TEXTS.panel.go_to, &[("at", first.at.to_string())])}
                                </button>
                            }
                            if status == CheckStatus::NotApplicable {
                                <p class="muted small">{id.not_applicable()}</p>
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

/// The counts of this run, side by side with the comparison run when comparing.
#[component]
fn Comparison(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let now = props.at;
    let panel = &CHECK_TEXTS.panel;
    let mine = figures(&lab.run().metrics_at(now));
    let Some(compare) = lab.compare() else {
        return counts_table(mine, figures(lab.run().metrics()), now);
    };
    let policy = lab.scenario().policy;
    let flipped_name = format!(
        "{} {}",
        if compare.switch.is_on(&policy) {
            "Without"
        } else {
            "With"
        },
        compare.switch.label().to_ascii_lowercase()
    );
    let theirs = figures(&compare.run.metrics_at(now));
    let mine_status = |id| lab.run().check_at(id, now);
    let their_status = |id| compare.run.check_at(id, now);
    let statuses: Vec<_> = CheckId::ALL
        .into_iter()
        .map(|id| (id, mine_status(id), their_status(id)))
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
                <caption>{at_now(panel.compare_caption, now)}</caption>
                <thead>
                    <tr><th scope="col">{panel.measure}</th><th scope="col">{panel.this_run}</th><th scope="col">{flipped_name.clone()}</th></tr>
                </thead>
                <tbody>
                    { for statuses.iter().map(|(id, a, b)| html! {
                        <tr>
                            <th scope="row">{id.title()}</th>
                            <td>{status_text(a)}</td>
                            <td>{status_text(b)}</td>
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
fn counts_table(
    mine: [(&'static str, String); 11],
    whole: [(&'static str, String); 11],
    now: SimTime,
) -> Html {
    let panel = &CHECK_TEXTS.panel;
    html! {
        <table class="counts">
            <caption>{at_now(panel.counts_caption, now)}</caption>
            <thead>
                <tr><th scope="col">{panel.measure}</th><th scope="col">{at_now(panel.as_of, now)}</th><th scope="col">{panel.whole_run}</th></tr>
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
            let broken_in = if a.is_broken() {
                "only in this run"
            } else {
                "only with the switch flipped"
            };
            differences.push(format!("\u{201c}{}\u{201d} breaks {broken_in}", id.title()));
        }
    }
    for ((label, a), (_, b)) in mine.iter().zip(theirs) {
        if a != b {
            differences.push(format!(
                "{}: {a} here, {b} {}",
                label.to_ascii_lowercase(),
                flipped_name.to_ascii_lowercase()
            ));
        }
    }
    if differences.is_empty() {
        format!("So far the two runs agree: flipping \u{201c}{switch}\u{201d} has made no difference yet.")
    } else {
        format!("Difference: {}.", differences.join("; "))
    }
}
