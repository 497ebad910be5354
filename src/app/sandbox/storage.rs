//! The storage panel: the writes that reached storage up to the cursor, newest first, with
//! their verdicts. Rejected and stale writes are marked in words as well as in colour. Only
//! the latest writes are rendered, however long the run.

use crate::lesson::sentences;
use yew::prelude::*;

use super::reading::RunReading;
use super::RunProps;
use crate::lesson::content::SANDBOX;
use crate::model::{Found, RunQuestions, WriteRecord, WriteVerdict};

const SHOWN_WRITES: usize = 40;

/// The row's class, whether it stands out, and the verdict in words (`found`: what the
/// checkers found at the write).
fn verdict(write: &WriteRecord, found: Found) -> (&'static str, bool, String) {
    match (write.verdict, found.stale_over()) {
        (WriteVerdict::Accepted, None) => ("status-ok", false, SANDBOX.storage.accepted.to_owned()),
        (WriteVerdict::Accepted, Some(highest)) => (
            "status-bad",
            true,
            sentences::sandbox::storage::Stale { highest }.to_string(),
        ),
        (WriteVerdict::Rejected { highest }, _) => (
            "status-warn",
            true,
            sentences::sandbox::storage::Rejected {
                token: write.token,
                highest,
            }
            .to_string(),
        ),
    }
}

fn row(run: &dyn RunReading, write: &WriteRecord, found: Found) -> Html {
    let (class, stands_out, verdict) = verdict(write, found);
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
    let words = &SANDBOX.storage;
    let tally = sentences::sandbox::storage::Tally {
        total,
        accepted: (total - rejected).to_string(),
        stale,
        rejected,
    }
    .to_string();
    html! {
        <section class="card storage-panel" aria-labelledby="storage-title">
            <h4 id="storage-title">
                {words.heading}{" "}
                <span class="badge">{ if fencing { words.fenced } else { words.not_fenced } }</span>
            </h4>
            <p class="muted">
                {tally}
            </p>
            if total == 0 {
                <p class="muted">{words.empty}</p>
            } else {
                <div class="table-wrap storage-scroll" tabindex="0" role="group" aria-label={words.scroll_label}>
                    <table>
                        <caption class="visually-hidden">{words.caption}</caption>
                        <colgroup>
                            <col class="col-time" /><col class="col-client" /><col class="col-token" /><col />
                        </colgroup>
                        <thead>
                            <tr>
                                <th scope="col">{words.time}</th>
                                <th scope="col">{words.client}</th>
                                <th scope="col">{words.token}</th>
                                <th scope="col">{words.verdict}</th>
                            </tr>
                        </thead>
                        <tbody>
                            { for window.items.iter().rev().map(|(w, found)| row(&**run, w, *found)) }
                        </tbody>
                    </table>
                </div>
                if total > SHOWN_WRITES {
                    <p class="muted small">{sentences::sandbox::storage::Newest { shown: SHOWN_WRITES, total }.to_string()}</p>
                }
            }
        </section>
    }
}
