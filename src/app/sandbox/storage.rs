//! The storage panel: the writes that reached storage up to the cursor, newest first, with
//! their verdicts. Rejected and stale writes are marked in words as well as in colour. Only
//! the latest writes are rendered, however long the run.

use yew::prelude::*;

use super::reading::RunReading;
use super::RunProps;
use crate::model::{WriteRecord, WriteVerdict};

const SHOWN_WRITES: usize = 40;

/// The row's class, whether it stands out, and the verdict in words.
fn verdict(write: &WriteRecord) -> (&'static str, bool, String) {
    match write.verdict {
        WriteVerdict::Accepted { stale_over: None } => ("status-ok", false, "Accepted".to_owned()),
        WriteVerdict::Accepted {
            stale_over: Some(highest),
        } => (
            "status-bad",
            true,
            format!("Accepted although token {highest} was already stored: stale write"),
        ),
        WriteVerdict::Rejected { highest } => (
            "status-warn",
            true,
            format!("Rejected: token {} is below {highest}", write.token),
        ),
    }
}

fn row(run: &dyn RunReading, write: &WriteRecord) -> Html {
    let (class, stands_out, verdict) = verdict(write);
    html! {
        <tr class={classes!(class, stands_out.then_some("stands-out"))}>
            <td>{run.shown_time(write.at).to_string()}</td>
            <td>{write.client.to_string()}</td>
            <td>{write.token.to_string()}</td>
            <td>
                if stands_out { <strong>{verdict}</strong> } else { {verdict} }
            </td>
        </tr>
    }
}

/// The storage log as a table, newest first.
#[component]
pub fn StoragePanel(props: &RunProps) -> Html {
    let run = &props.run;
    let counts = run.write_counts_at(props.at);
    let window = run.writes_before(props.at, SHOWN_WRITES);
    let fencing = run.scenario().policy.fencing;
    let (total, rejected, stale) = (counts.total, counts.rejected, counts.stale);
    html! {
        <section class="card storage-panel" aria-labelledby="storage-title">
            <h4 id="storage-title">
                {"Storage "}
                <span class="badge">{ if fencing { "fenced" } else { "not fenced" } }</span>
            </h4>
            <p class="muted">
                {format!("{total} writes arrived so far: {} accepted ({stale} of them stale), {rejected} rejected by the fence.",
                    total - rejected)}
            </p>
            if total == 0 {
                <p class="muted">{"No write has reached storage yet."}</p>
            } else {
                <div class="table-wrap storage-scroll" tabindex="0" role="group" aria-label="Storage log, scrollable">
                    <table>
                        <caption class="visually-hidden">{"Writes that reached storage, newest first"}</caption>
                        <colgroup>
                            <col class="col-time" /><col class="col-client" /><col class="col-token" /><col />
                        </colgroup>
                        <thead>
                            <tr>
                                <th scope="col">{"Time"}</th>
                                <th scope="col">{"Client"}</th>
                                <th scope="col">{"Token"}</th>
                                <th scope="col">{"Verdict"}</th>
                            </tr>
                        </thead>
                        <tbody>
                            { for window.items.iter().rev().map(|w| row(&**run, w)) }
                        </tbody>
                    </table>
                </div>
                if total > SHOWN_WRITES {
                    <p class="muted small">{format!("Showing the newest {SHOWN_WRITES} of {total} writes so far; \
                        step back or scrub to see earlier ones.")}</p>
                }
            }
        </section>
    }
}
