//! The live run's views, drawn from its [`Run`] at a cursor: lifecycle badges, a timeline of
//! who believed it held the lease against the service's holder (with the page's freezes and
//! the writes at storage), the storage log, the checks on the live trace and the counts.
//! Plain functions of the run; they hold no state.

use yew::prelude::*;

use crate::lab::live::shown_time;
use crate::lab::live::trace::Freeze;
use crate::lab::live::words::{self, fill};
use crate::lesson::checks::CheckWords;
use crate::model::{CheckId, CheckStatus, ClientId, Lifecycle, Run, SimTime, WriteVerdict};

const LIVE_CLIENTS: [ClientId; 2] = [ClientId::A, ClientId::B];
const WIDTH: f64 = 1000.0;
const LANE: f64 = 22.0;
/// The storage log shows this many writes up to the cursor.
const SHOWN_WRITES: usize = 12;

fn lifecycle_class(state: Lifecycle) -> &'static str {
    match state {
        Lifecycle::Holding | Lifecycle::RenewInFlight => "holding",
        Lifecycle::Lost(_) => "lost",
        Lifecycle::Acquiring => "acquiring",
        _ => "idle",
    }
}

/// Each client's lifecycle badge and the service's holder, at `t`.
pub fn badges(run: &Run, t: SimTime) -> Html {
    let holder = match run.holder_at(t) {
        Some((client, token)) => format!("{client} (token {})", token.0),
        None => words::VIEWS_NOBODY.to_owned(),
    };
    html! {
        <ul class="live-badges" aria-label={words::VIEWS_LANES}>
            { for LIVE_CLIENTS.iter().map(|&c| {
                let point = run.lifecycle_at(c, t);
                let crashed = run.crashed_at(c).is_some_and(|at| at <= t);
                let label = if crashed { words::VIEWS_CRASHED } else { point.state.label() };
                let token = point.token.map(|t| format!(" · token {}", t.0)).unwrap_or_default();
                html! {
                    <li class={classes!("live-badge", lifecycle_class(point.state))}
                        data-client={c.to_string()}>
                        <strong>{format!("{c}: ")}</strong>{label}{token}
                    </li>
                }
            }) }
            <li class="live-badge service">
                <strong>{format!("{}: ", words::VIEWS_BADGE_HOLDER)}</strong>{holder}
            </li>
        </ul>
    }
}

fn x_of(t: SimTime, end: SimTime) -> f64 {
    let end = end.0.max(1) as f64;
    (t.0 as f64 / end * WIDTH).clamp(0.0, WIDTH)
}

fn bar(from: SimTime, until: SimTime, end: SimTime, y: f64, class: &'static str) -> Html {
    let x = x_of(from, end);
    let w = (x_of(until, end) - x).max(1.0);
    html! { <rect class={class} x={format!("{x:.1}")} y={format!("{y:.1}")}
    width={format!("{w:.1}")} height={format!("{:.1}", LANE - 6.0)} /> }
}

/// The timeline: A's and B's belief, the service's holder, the freezes and the writes.
pub fn timeline(run: &Run, freezes: &[Freeze], t: SimTime) -> Html {
    let end = run.end();
    let rows = LIVE_CLIENTS.len() as f64 + 3.0;
    let height = rows * LANE;
    let mut lanes = Vec::new();
    for (i, &c) in LIVE_CLIENTS.iter().enumerate() {
        let y = i as f64 * LANE + 3.0;
        for iv in run.believed_intervals(c) {
            lanes.push(bar(iv.from, iv.until.unwrap_or(end), end, y, "believed"));
        }
    }
    let service_y = LIVE_CLIENTS.len() as f64 * LANE + 3.0;
    for tenure in run.holder_intervals() {
        let class = if tenure.client == ClientId::A {
            "tenure-a"
        } else {
            "tenure-b"
        };
        let until = tenure.span.until.unwrap_or(end);
        lanes.push(bar(tenure.span.from, until, end, service_y, class));
    }
    let freeze_y = service_y + LANE;
    for f in freezes {
        lanes.push(bar(f.at, f.at + f.measured, end, freeze_y, "frozen"));
    }
    let writes_y = freeze_y + LANE;
    let ticks = run.storage_log().iter().map(|w| {
        let x = x_of(w.at, end);
        let class = if w.verdict.accepted() {
            "write-ok"
        } else {
            "write-rejected"
        };
        html! { <line class={class} x1={format!("{x:.1}")} x2={format!("{x:.1}")}
        y1={format!("{:.1}", writes_y + 2.0)} y2={format!("{:.1}", writes_y + LANE - 4.0)} /> }
    });
    let cursor = x_of(t, end);
    let names = [
        "A".to_owned(),
        "B".to_owned(),
        words::VIEWS_LANE_SERVICE.to_owned(),
        words::VIEWS_LANE_FREEZE.to_owned(),
        words::VIEWS_WRITES.to_owned(),
    ];
    html! {
        <figure class="live-timeline">
            <div class="live-lane-names" aria-hidden="true">
                { for names.iter().map(|n| html! { <span>{n.clone()}</span> }) }
            </div>
            <svg viewBox={format!("0 0 {WIDTH} {height}")} preserveAspectRatio="none"
                role="img" aria-label={words::VIEWS_LANES}>
                { for lanes }
                { for ticks }
                <line class="cursor" x1={format!("{cursor:.1}")} x2={format!("{cursor:.1}")}
                    y1="0" y2={format!("{height}")} />
            </svg>
            <figcaption>{fill(words::VIEWS_AT, &[("at", shown_time(t).to_string())])}</figcaption>
        </figure>
    }
}

/// The storage log up to `t`, newest last.
pub fn storage(run: &Run, t: SimTime) -> Html {
    let log = run.storage_log_until(t);
    let shown = &log[log.len().saturating_sub(SHOWN_WRITES)..];
    let caption = fill(
        words::VIEWS_STORAGE,
        &[
            ("shown", shown.len().to_string()),
            ("total", log.len().to_string()),
        ],
    );
    html! {
        <table class="live-storage">
            <caption>{caption}</caption>
            <thead><tr>
                <th scope="col">{words::VIEWS_COL_TIME}</th>
                <th scope="col">{words::VIEWS_COL_CLIENT}</th>
                <th scope="col">{words::VIEWS_COL_TOKEN}</th>
                <th scope="col">{words::VIEWS_COL_VERDICT}</th>
            </tr></thead>
            <tbody>
                { for shown.iter().map(|w| {
                    let (class, verdict) = match w.verdict {
                        WriteVerdict::Accepted { stale_over: None } => ("ok", words::VIEWS_ACCEPTED.to_owned()),
                        WriteVerdict::Accepted { .. } => ("bad", words::VIEWS_ACCEPTED_STALE.to_owned()),
                        WriteVerdict::Rejected { highest } => (
                            "rejected",
                            fill(words::VIEWS_REJECTED, &[("highest", highest.0.to_string())]),
                        ),
                    };
                    html! {
                        <tr class={class}>
                            <td>{shown_time(w.at).to_string()}</td>
                            <td>{w.client.to_string()}</td>
                            <td>{w.token.0}</td>
                            <td>{verdict}</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

/// The four checks on the live trace, as of `t`.
pub fn checks(run: &Run, t: SimTime) -> Html {
    html! {
        <section class="live-checks" aria-label={words::VIEWS_CHECKS}>
            <h4>{words::VIEWS_CHECKS}</h4>
            <ul>
                { for CheckId::ALL.iter().map(|&id| {
                    let (class, status) = match run.check_at(id, t) {
                        CheckStatus::Holding => ("ok", words::VIEWS_HOLDING.to_owned()),
                        CheckStatus::NotApplicable => ("muted", words::VIEWS_NOT_APPLICABLE.to_owned()),
                        CheckStatus::Broken { first, .. } => (
                            "bad",
                            fill(words::VIEWS_BROKEN, &[("at", shown_time(first.at).to_string())]),
                        ),
                    };
                    html! {
                        <li class={classes!("live-check", class)} data-check={format!("{id:?}")}>
                            <span class="check-title">{id.title()}</span>{": "}
                            <span class="check-status">{status}</span>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

/// The counts up to `t`, from the observer.
pub fn counts(run: &Run, t: SimTime) -> Html {
    let m = run.metrics_at(t);
    let rows = [
        (words::VIEWS_WRITES_ACCEPTED, m.writes_accepted),
        (words::VIEWS_WRITES_REJECTED, m.writes_rejected),
        (words::VIEWS_RENEWS, m.renews_sent),
        (words::VIEWS_GRANTS, m.grants),
        (words::VIEWS_LOSSES, m.losses),
    ];
    html! {
        <dl class="live-counts" aria-label={words::VIEWS_COUNTS}>
            { for rows.iter().map(|(label, value)| html! {
                <div><dt>{*label}</dt><dd>{*value}</dd></div>
            }) }
        </dl>
    }
}
