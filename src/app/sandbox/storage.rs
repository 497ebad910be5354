//! The storage panel: every write that reached storage up to the cursor, with its verdict.

use yew::prelude::*;

use super::StepProps;
use crate::model::WriteVerdict;

const SHOWN_WRITES: usize = 40;

/// The storage log as a table, newest last.
#[component]
pub fn StoragePanel(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let log = lab.run().storage_log_until(props.at);
    let fencing = lab.scenario().policy.fencing;
    let shown = &log[log.len().saturating_sub(SHOWN_WRITES)..];
    let rejected = log.iter().filter(|w| !w.verdict.accepted()).count();
    html! {
        <section class="card storage-panel" aria-labelledby="storage-title">
            <h4 id="storage-title">
                {"Storage "}
                <span class="badge">{ if fencing { "fenced" } else { "not fenced" } }</span>
            </h4>
            <p class="muted">
                {format!("{} writes arrived so far: {} accepted, {} rejected by the fence.",
                    log.len(), log.len() - rejected, rejected)}
            </p>
            if log.is_empty() {
                <p class="muted">{"No write has reached storage yet."}</p>
            } else {
                <div class="table-wrap storage-scroll" tabindex="0" role="group" aria-label="Storage log, scrollable">
                    <table>
                        <caption class="visually-hidden">{"Writes that reached storage"}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{"Time"}</th>
                                <th scope="col">{"Client"}</th>
                                <th scope="col">{"Token"}</th>
                                <th scope="col">{"Verdict"}</th>
                            </tr>
                        </thead>
                        <tbody>
                            { for shown.iter().map(|write| {
                                let (class, verdict) = match write.verdict {
                                    WriteVerdict::Accepted { stale_over: None } => ("status-ok", "Accepted".to_owned()),
                                    WriteVerdict::Accepted { stale_over: Some(highest) } => (
                                        "status-bad",
                                        format!("Accepted although token {highest} was already stored: stale write"),
                                    ),
                                    WriteVerdict::Rejected { highest } => (
                                        "status-warn",
                                        format!("Rejected: token {} is below {highest}", write.token),
                                    ),
                                };
                                html! {
                                    <tr class={class}>
                                        <td>{write.at.to_string()}</td>
                                        <td>{write.client.to_string()}</td>
                                        <td>{write.token.to_string()}</td>
                                        <td>{verdict}</td>
                                    </tr>
                                }
                            }) }
                        </tbody>
                    </table>
                </div>
                if log.len() > SHOWN_WRITES {
                    <p class="muted small">{format!("Showing the last {SHOWN_WRITES} of {} writes.", log.len())}</p>
                }
            }
        </section>
    }
}
