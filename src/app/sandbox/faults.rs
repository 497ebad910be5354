//! The fault plan: add a fault at the cursor or any time, move it, remove it.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::SetupProps;
use crate::lab::LabAction;
use crate::model::{ClientId, Fault, NodeId, SimDuration, SimTime, TimedFault};

/// The kinds of fault the form can build, with the unit of their amount.
const KINDS: [(&str, &str, &str); 8] = [
    ("pause", "Stop-the-world pause (GC)", "s"),
    ("pause-write", "Pause inside the write path", "s"),
    ("partition", "Network blip or partition", "s"),
    ("delay", "Delay the next packet", "s"),
    (
        "ntp-step",
        "NTP step of the wall clock",
        "s (negative = back)",
    ),
    ("drift", "Clock drift", "ppm"),
    ("crash", "Crash", ""),
    ("revoke", "Revoke the lease at the service", ""),
];

/// One line describing a fault, e.g. "stop-the-world pause · client A · 15 s".
pub fn describe(fault: &Fault) -> String {
    let detail = match *fault {
        Fault::Pause {
            client, duration, ..
        } => format!("client {client} · {duration}"),
        Fault::Partition { a, b, duration } => {
            format!("{} ⇹ {} · {duration}", a, b)
        }
        Fault::DelayNextPacket { from, to, extra } => {
            format!("{} → {} · +{extra}", from, to)
        }
        Fault::ClockStep { node, by_micros } => {
            let by = SimDuration::from_micros(by_micros.unsigned_abs());
            let sign = if by_micros < 0 { "−" } else { "+" };
            format!("{} · {sign}{by}", node)
        }
        Fault::ClockDrift { node, ppm } => format!("{} · {ppm:+} ppm", node),
        Fault::Crash { client } => format!("client {client}"),
        Fault::RevokeLease => "the current holder".to_owned(),
    };
    format!("{} · {detail}", fault.label())
}

fn seconds(value: f64) -> SimDuration {
    SimDuration::from_micros((value.abs() * 1_000_000.0).round() as u64)
}

/// Builds the fault the form describes, or says what is missing.
fn build_fault(kind: &str, node: &str, peer: &str, amount: f64) -> Result<Fault, &'static str> {
    let client = node
        .strip_prefix('c')
        .and_then(|n| n.parse::<u8>().ok())
        .map(ClientId);
    let node_id = match node {
        "service" => NodeId::Service,
        _ => NodeId::Client(client.ok_or("Choose a client.")?),
    };
    let peer_id = if peer == "storage" {
        NodeId::Storage
    } else {
        NodeId::Service
    };
    let need_client = || client.ok_or("This fault needs a client.");
    let positive = || {
        if amount > 0.0 {
            Ok(seconds(amount))
        } else {
            Err("The amount must be more than zero.")
        }
    };
    Ok(match kind {
        "pause" | "pause-write" => Fault::Pause {
            client: need_client()?,
            duration: positive()?,
            in_write_path: kind == "pause-write",
        },
        "partition" => Fault::Partition {
            a: NodeId::Client(need_client()?),
            b: peer_id,
            duration: positive()?,
        },
        "delay" => Fault::DelayNextPacket {
            from: NodeId::Client(need_client()?),
            to: peer_id,
            extra: positive()?,
        },
        "ntp-step" => Fault::ClockStep {
            node: node_id,
            by_micros: (amount * 1_000_000.0).round() as i64,
        },
        "drift" => Fault::ClockDrift {
            node: node_id,
            ppm: amount.round().clamp(-100_000.0, 100_000.0) as i32,
        },
        "crash" => Fault::Crash {
            client: need_client()?,
        },
        "revoke" => Fault::RevokeLease,
        _ => return Err("Choose a kind of fault."),
    })
}

/// The fault plan and the form that adds to it.
#[component]
pub fn FaultsPanel(props: &SetupProps) -> Html {
    let lab = &props.lab.0;
    let kind = use_state(|| "pause".to_owned());
    let node = use_state(|| "c0".to_owned());
    let peer = use_state(|| "service".to_owned());
    let at = use_state(String::new);
    let amount = use_state(|| "15".to_owned());
    let error = use_state(|| None::<&'static str>);

    let unit = KINDS
        .iter()
        .find(|k| k.0 == kind.as_str())
        .map_or("", |k| k.2);
    let needs_amount = !matches!(kind.as_str(), "crash" | "revoke");
    let needs_peer = matches!(kind.as_str(), "partition" | "delay");
    let allows_service = matches!(kind.as_str(), "ntp-step" | "drift");

    let set_from_select = |state: &UseStateHandle<String>| {
        let state = state.clone();
        Callback::from(move |event: Event| {
            state.set(event.target_unchecked_into::<HtmlSelectElement>().value())
        })
    };
    let set_from_input = |state: &UseStateHandle<String>| {
        let state = state.clone();
        Callback::from(move |event: InputEvent| {
            state.set(event.target_unchecked_into::<HtmlInputElement>().value())
        })
    };

    let onsubmit = {
        let (kind, node, peer, at, amount, error) = (
            kind.clone(),
            node.clone(),
            peer.clone(),
            at.clone(),
            amount.clone(),
            error.clone(),
        );
        let lab = props.lab.clone();
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let when = match at.trim() {
                "" => None,
                text => match text
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                {
                    Some(v) => Some(SimTime(seconds(v).0)),
                    None => {
                        error.set(Some("The time must be a number of seconds, zero or more."));
                        return;
                    }
                },
            };
            let value = amount
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .unwrap_or(0.0);
            match build_fault(&kind, &node, &peer, value) {
                Ok(fault) => {
                    error.set(None);
                    lab.dispatch(match when {
                        Some(at) => LabAction::AddFault(TimedFault { at, fault }),
                        None => LabAction::AddFaultAtCursor(fault),
                    });
                }
                Err(message) => error.set(Some(message)),
            }
        })
    };

    let clients = lab.scenario().clients;
    html! {
        <section class="card faults-panel" aria-labelledby="faults-title">
            <h4 id="faults-title">{"Faults"}</h4>
            <form class="fault-form" {onsubmit} aria-label="Add a fault">
                <div class="field">
                    <label for="fault-kind">{"Fault"}</label>
                    <select id="fault-kind" onchange={set_from_select(&kind)}>
                        { for KINDS.iter().map(|(value, label, _)| html! {
                            <option value={*value} selected={kind.as_str() == *value}>{*label}</option>
                        }) }
                    </select>
                </div>
                if kind.as_str() != "revoke" {
                    <div class="field">
                        <label for="fault-node">{ if needs_peer { "From" } else { "On" } }</label>
                        <select id="fault-node" onchange={set_from_select(&node)}>
                            { for (0..clients).map(|i| {
                                let value = format!("c{i}");
                                html! { <option value={value.clone()} selected={*node == value}>{format!("client {}", ClientId(i))}</option> }
                            }) }
                            if allows_service {
                                <option value="service" selected={node.as_str() == "service"}>{"lock service"}</option>
                            }
                        </select>
                    </div>
                }
                if needs_peer {
                    <div class="field">
                        <label for="fault-peer">{"To"}</label>
                        <select id="fault-peer" onchange={set_from_select(&peer)}>
                            <option value="service" selected={peer.as_str() == "service"}>{"lock service"}</option>
                            <option value="storage" selected={peer.as_str() == "storage"}>{"storage"}</option>
                        </select>
                    </div>
                }
                <div class="field">
                    <label for="fault-at">{"At (s)"}</label>
                    <input id="fault-at" type="number" step="0.001" min="0" value={(*at).clone()}
                        placeholder="at the cursor" oninput={set_from_input(&at)} />
                </div>
                if needs_amount {
                    <div class="field">
                        <label for="fault-amount">{ if kind.as_str() == "drift" { "Rate" } else { "Amount" } }</label>
                        <input id="fault-amount" type="number" step="any" value={(*amount).clone()}
                            oninput={set_from_input(&amount)} />
                        <span class="unit">{unit}</span>
                    </div>
                }
                <button type="submit" class="button primary">{"Add fault"}</button>
                if let Some(message) = *error {
                    <p class="status-warn small" role="alert">{message}</p>
                }
            </form>
            <p class="muted small">{"Leave the time empty to add the fault at the cursor; click the timeline to move the cursor."}</p>
            if lab.scenario().faults.0.is_empty() {
                <p class="muted">{"No faults planned: everything runs as designed."}</p>
            } else {
                <ol class="fault-list" aria-label="Planned faults">
                    { for lab.scenario().faults.0.iter().enumerate().map(|(index, planned)| {
                        let description = describe(&planned.fault);
                        let onmove = props.send(move |event: Event| {
                            let value = event.target_unchecked_into::<HtmlInputElement>().value();
                            let seconds = value.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0).unwrap_or(0.0);
                            LabAction::MoveFault(index, SimTime((seconds * 1_000_000.0).round() as u64))
                        });
                        let time_id = format!("fault-{index}-at");
                        html! {
                            <li>
                                <span class="fault-text">{description.clone()}</span>
                                <label for={time_id.clone()} class="visually-hidden">{format!("Time of {description}, in seconds")}</label>
                                <input id={time_id} type="number" class="fault-time" step="0.001" min="0"
                                    value={format!("{:.3}", planned.at.as_secs_f64())} onchange={onmove} />
                                <span class="unit">{"s"}</span>
                                <button type="button" class="button small"
                                    aria-label={format!("Remove {description} at {}", planned.at)}
                                    onclick={props.send(move |_: MouseEvent| LabAction::RemoveFault(index))}>
                                    {"Remove"}
                                </button>
                            </li>
                        }
                    }) }
                </ol>
            }
        </section>
    }
}
