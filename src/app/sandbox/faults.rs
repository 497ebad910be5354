//! The fault plan: add a fault at the cursor or any time, move it, remove it. The form reads
//! what is typed through the model's textual form of a fault, the one share links use.

use crate::lesson::sentences;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::SetupProps;
use crate::lab::describe;
use crate::lab::fault_form::FaultDraft;
use crate::lab::LabAction;
use crate::lesson::content::SANDBOX;
use crate::lesson::reasons;
use crate::model::faults::text::print_node;
use crate::model::faults::{Amount, Targets};
use crate::model::notation::{parse_duration, print_decimal};
use crate::model::{ClientId, FaultKind, NodeId, SimTime, TimedFault};

/// The fault plan and the form that adds to it.
#[component]
pub fn FaultsPanel(props: &SetupProps) -> Html {
    let lab = &props.lab.0;
    let form = &SANDBOX.fault_form;
    html! {
        <section class="card faults-panel" aria-labelledby="faults-title">
            <h4 id="faults-title">{form.heading}</h4>
            <FaultForm ..props.clone() />
            <p class="muted small">{form.hint}</p>
            if lab.scenario().faults.0.is_empty() {
                <p class="muted">{form.none_planned}</p>
            } else {
                <ol class="fault-list" aria-label={form.planned}>
                    { for lab.scenario().faults.0.iter().enumerate().map(|(index, planned)| planned_fault(props, index, planned)) }
                </ol>
            }
        </section>
    }
}

/// One `<option>` per node, by its name in the textual form.
fn node_options(nodes: impl Iterator<Item = NodeId>, chosen: &str) -> Html {
    nodes
        .map(|node| {
            let value = print_node(node);
            let selected = value == chosen;
            html! { <option {value} {selected}>{describe::node(node)}</option> }
        })
        .collect()
}

/// A new kind keeps the chosen node where the kind can hit it.
fn choose_kind(draft: &mut FaultDraft, keyword: String) {
    draft.kind = FaultKind::from_keyword(&keyword).unwrap_or(draft.kind);
    if draft.kind.targets() != Targets::Node && draft.node == print_node(NodeId::Service) {
        draft.node = print_node(NodeId::Client(ClientId::A));
    }
}

/// The form's choices and inputs; what it adds is read by [`FaultDraft::read`].
#[component]
fn FaultForm(props: &SetupProps) -> Html {
    let draft = use_state(FaultDraft::default);
    let error = use_state(|| None::<String>);
    let edit = |change: fn(&mut FaultDraft, String)| {
        let draft = draft.clone();
        move |value: String| {
            let mut next = (*draft).clone();
            change(&mut next, value);
            draft.set(next);
        }
    };
    let on_select = |change: fn(&mut FaultDraft, String)| {
        let edit = edit(change);
        Callback::from(move |e: Event| edit(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let on_input = |change: fn(&mut FaultDraft, String)| {
        let edit = edit(change);
        Callback::from(move |e: InputEvent| {
            edit(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let onsubmit = {
        let (draft, error, lab) = (draft.clone(), error.clone(), props.lab.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            match draft.read() {
                Ok((at, fault)) => {
                    let planned = TimedFault {
                        at: at.unwrap_or_else(|| lab.0.now()),
                        fault,
                    };
                    // Refused here, beside the form, rather than by the lab's notice far
                    // above it (a time after the run's end, one fault too many…).
                    let mut with_it = lab.0.scenario().clone();
                    with_it.faults.0.push(planned);
                    if let Err(refused) = with_it.validate() {
                        error.set(Some(
                            sentences::sandbox::fault_form::CannotAddToRun {
                                why: reasons::scenario(&refused),
                            }
                            .to_string(),
                        ));
                        return;
                    }
                    error.set(None);
                    lab.dispatch(match at {
                        Some(at) => LabAction::AddFault(TimedFault { at, fault }),
                        None => LabAction::AddFaultAtCursor(fault),
                    });
                }
                Err(e) => error.set(Some(
                    sentences::sandbox::fault_form::CannotAdd {
                        fault: reasons::fault(&e),
                    }
                    .to_string(),
                )),
            }
        })
    };

    let kind = draft.kind;
    let words = SANDBOX.fault(kind.keyword());
    let form = &SANDBOX.fault_form;
    html! {
        <form class="fault-form" {onsubmit} aria-label={form.form}>
            <div class="field">
                <label for="fault-kind">{form.kind}</label>
                <select id="fault-kind" onchange={on_select(choose_kind)}>
                    { for FaultKind::ALL.into_iter().map(|k| html! {
                        <option value={k.keyword()} selected={k == kind}>{SANDBOX.fault(k.keyword()).choice}</option>
                    }) }
                </select>
            </div>
            { targets(&draft, props.lab.0.scenario().clients, on_select(|d, v| d.node = v), on_select(|d, v| d.peer = v)) }
            <div class="field">
                <label for="fault-at">{form.at}</label>
                <input id="fault-at" type="text" inputmode="decimal" value={draft.at.clone()}
                    placeholder={form.at_placeholder} oninput={on_input(|d, v| d.at = v)} />
            </div>
            if kind.amount() != Amount::Nothing {
                <div class="field">
                    <label for="fault-amount">{words.amount.unwrap_or_default()}</label>
                    <input id="fault-amount" type="text" inputmode="decimal" value={draft.amount.clone()}
                        oninput={on_input(|d, v| d.amount = v)} />
                    <span class="unit">{words.unit.unwrap_or_default()}</span>
                </div>
            }
            <button type="submit" class="button primary">{form.add}</button>
            if let Some(message) = &*error {
                <p class="status-warn small" role="alert">{message.clone()}</p>
            }
        </form>
    }
}

/// The node a fault hits, and the other end where it hits a link.
fn targets(
    draft: &FaultDraft,
    clients: u8,
    on_node: Callback<Event>,
    on_peer: Callback<Event>,
) -> Html {
    let kind = draft.kind;
    let clients = (0..clients).map(|i| NodeId::Client(ClientId(i)));
    let service = (kind.targets() == Targets::Node).then_some(NodeId::Service);
    let form = &SANDBOX.fault_form;
    let on_label = if kind.targets() == Targets::Link {
        form.from
    } else {
        form.on
    };
    html! {
        <>
            if kind.targets() != Targets::Nothing {
                <div class="field">
                    <label for="fault-node">{on_label}</label>
                    <select id="fault-node" onchange={on_node}>
                        { node_options(clients.chain(service), &draft.node) }
                    </select>
                </div>
            }
            if kind.targets() == Targets::Link {
                <div class="field">
                    <label for="fault-peer">{form.to}</label>
                    <select id="fault-peer" onchange={on_peer}>
                        { node_options([NodeId::Service, NodeId::Storage].into_iter(), &draft.peer) }
                    </select>
                </div>
            }
        </>
    }
}

/// One planned fault: what it is, its time (editable) and a Remove button.
fn planned_fault(props: &SetupProps, index: usize, planned: &TimedFault) -> Html {
    let description = describe::fault(&planned.fault);
    let onmove = props.send(move |event: Event| {
        let value = event.target_unchecked_into::<HtmlInputElement>().value();
        let at = parse_duration(value.trim()).unwrap_or(0);
        LabAction::MoveFault(index, SimTime(at))
    });
    let time_id = format!("fault-{index}-at");
    let form = &SANDBOX.fault_form;
    let (fault, at) = (&description, planned.at);
    let time_of = sentences::sandbox::fault_form::TimeOf { fault }.to_string();
    let remove_label = sentences::sandbox::fault_form::RemoveLabel { fault, at }.to_string();
    html! {
        <li>
            <span class="fault-text">{description.clone()}</span>
            <label for={time_id.clone()} class="visually-hidden">{time_of}</label>
            <input id={time_id} type="text" inputmode="decimal" class="fault-time"
                value={print_decimal(planned.at.0, 6)} onchange={onmove} />
            <span class="unit">{form.seconds}</span>
            <button type="button" class="button small"
                aria-label={remove_label}
                onclick={props.send(move |_: MouseEvent| LabAction::RemoveFault(index))}>
                {form.remove}
            </button>
        </li>
    }
}
