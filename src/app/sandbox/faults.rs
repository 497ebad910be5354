//! The fault plan: add a fault at the cursor or any time, move it, remove it. The form reads
//! what is typed through the model's textual form of a fault, the one share links use.

use crate::lesson::sentences;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::{send, SetupProps};
use crate::app::sandbox::LabStore;
use crate::lab::describe;
use crate::lab::fault_form::{DraftInput, FaultDraft};
use crate::lab::{Lab, LabAction};
use crate::lesson::content::SANDBOX;
use crate::lesson::reasons;
use crate::model::faults::text::{print_fault, print_node};
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
    let error = use_state(|| None::<Refused>);
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
            match refusal_or_add(&draft, &lab) {
                Some(refused) => error.set(Some(refused)),
                None => error.set(None),
            }
        })
    };

    let invalid = |input: DraftInput| error.as_ref().is_some_and(|e| e.input == Some(input));
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
            { typed_field(Typed {
                id: "fault-at", label: form.at, value: draft.at.clone(), invalid: invalid(DraftInput::At),
                oninput: on_input(|d, v| d.at = v), placeholder: Some(form.at_placeholder), unit: None,
            }) }
            if kind.amount() != Amount::Nothing {
                { typed_field(Typed {
                    id: "fault-amount", label: words.amount.unwrap_or_default(), value: draft.amount.clone(),
                    invalid: invalid(DraftInput::Amount), oninput: on_input(|d, v| d.amount = v),
                    placeholder: None, unit: words.unit,
                }) }
            }
            <button type="submit" class="button primary">{form.add}</button>
            if let Some(refused) = &*error {
                <p id={FORM_ERROR} class="status-warn small" role="alert">{refused.message.clone()}</p>
            }
        </form>
    }
}

/// The id of the sentence saying why the form refused a fault.
const FORM_ERROR: &str = "fault-form-error";

/// One typed input of the form, marked invalid when the last refusal was about it.
struct Typed {
    id: &'static str,
    label: &'static str,
    value: String,
    invalid: bool,
    oninput: Callback<InputEvent>,
    placeholder: Option<&'static str>,
    unit: Option<&'static str>,
}

fn typed_field(typed: Typed) -> Html {
    let Typed {
        id,
        label,
        value,
        invalid,
        oninput,
        placeholder,
        unit,
    } = typed;
    html! {
        <div class="field">
            <label for={id}>{label}</label>
            <input {id} type="text" inputmode="decimal" {value} {placeholder} {oninput}
                aria-invalid={invalid.to_string()}
                aria-describedby={invalid.then_some(FORM_ERROR)} />
            if let Some(unit) = unit {
                <span class="unit">{unit}</span>
            }
        </div>
    }
}

/// Why the form refused to add a fault, and which of its inputs is wrong, if one is.
#[derive(Clone, PartialEq)]
struct Refused {
    message: String,
    input: Option<DraftInput>,
}

/// Adds the draft's fault to the run, or says why not: it cannot be read, it would change
/// nothing, or the run cannot take it. Refused beside the form rather than by the lab's
/// notice far above it.
fn refusal_or_add(draft: &FaultDraft, lab: &UseReducerHandle<LabStore>) -> Option<Refused> {
    let (at, fault) = match draft.read() {
        Ok(read) => read,
        Err(e) => {
            return Some(Refused {
                message: sentences::sandbox::fault_form::CannotAdd {
                    fault: reasons::fault(&e),
                }
                .to_string(),
                input: DraftInput::of_fault_error(&e),
            })
        }
    };
    if fault.changes_nothing() {
        return Some(Refused {
            message: sentences::sandbox::fault_form::ChangesNothing {
                fault: SANDBOX.fault(fault.kind().keyword()).one,
            }
            .to_string(),
            input: Some(DraftInput::Amount),
        });
    }
    let planned = TimedFault {
        at: at.unwrap_or_else(|| lab.0.now()),
        fault,
    };
    let mut with_it = lab.0.scenario().clone();
    with_it.faults.0.push(planned);
    if let Err(refused) = with_it.validate() {
        return Some(Refused {
            message: sentences::sandbox::fault_form::CannotAddToRun {
                why: reasons::scenario(&refused),
            }
            .to_string(),
            input: DraftInput::of_problem(&refused.problem),
        });
    }
    lab.dispatch(match at {
        Some(at) => LabAction::AddFault(TimedFault { at, fault }),
        None => LabAction::AddFaultAtCursor(fault),
    });
    None
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
    // Keyed by the fault itself, so a fault that moves (and is sorted elsewhere) starts
    // afresh rather than inheriting another's refusal.
    let key = format!("{index}:{}", print_fault(planned));
    html! { <PlannedFault {key} lab={props.lab.clone()} {index} planned={*planned} /> }
}

#[derive(Properties, Clone)]
struct PlannedProps {
    lab: UseReducerHandle<LabStore>,
    index: usize,
    planned: TimedFault,
}

impl PartialEq for PlannedProps {
    fn eq(&self, other: &Self) -> bool {
        (self.index, &self.planned) == (other.index, &other.planned)
    }
}

/// A planned fault's row. A time that cannot be read, or that the run cannot take, is
/// refused beside it and the fault stays where it was.
#[component]
fn PlannedFault(props: &PlannedProps) -> Html {
    let error = use_state(|| None::<String>);
    let (index, planned) = (props.index, props.planned);
    let onmove = {
        let (lab, error) = (props.lab.clone(), error.clone());
        Callback::from(move |event: Event| {
            let text = event.target_unchecked_into::<HtmlInputElement>().value();
            match moved(&lab.0, index, text.trim()) {
                Ok(at) => {
                    error.set(None);
                    lab.dispatch(LabAction::MoveFault(index, at));
                }
                Err(why) => error.set(Some(why)),
            }
        })
    };
    let description = describe::fault(&planned.fault);
    let time_id = format!("fault-{index}-at");
    let error_id = format!("{time_id}-error");
    let form = &SANDBOX.fault_form;
    let (fault, at) = (&description, planned.at);
    let time_of = sentences::sandbox::fault_form::TimeOf { fault }.to_string();
    let remove_label = sentences::sandbox::fault_form::RemoveLabel { fault, at }.to_string();
    html! {
        <li>
            <span class="fault-text">{description.clone()}</span>
            <label for={time_id.clone()} class="visually-hidden">{time_of}</label>
            <input id={time_id} type="text" inputmode="decimal" class="fault-time"
                aria-invalid={error.is_some().to_string()}
                aria-describedby={error.is_some().then(|| error_id.clone())}
                value={print_decimal(planned.at.0, 6)} onchange={onmove} />
            <span class="unit">{form.seconds}</span>
            <button type="button" class="button small"
                aria-label={remove_label}
                onclick={send(&props.lab, move |_: MouseEvent| LabAction::RemoveFault(index))}>
                {form.remove}
            </button>
            if let Some(message) = &*error {
                <p id={error_id} class="status-warn small fault-time-error" role="alert">{message.clone()}</p>
            }
        </li>
    }
}

/// The time `text` moves the fault at `index` to, or why the run cannot take it there.
fn moved(lab: &Lab, index: usize, text: &str) -> Result<SimTime, String> {
    let words = |why: String| sentences::sandbox::fault_form::CannotMove { why }.to_string();
    let at = parse_duration(text).map_err(|e| {
        words(
            sentences::sandbox::fault_form::BadTime {
                text,
                why: reasons::value(e),
            }
            .to_string(),
        )
    })?;
    let mut with_it = lab.scenario().clone();
    if let Some(fault) = with_it.faults.0.get_mut(index) {
        fault.at = SimTime(at);
    }
    with_it
        .validate()
        .map_err(|refused| words(reasons::scenario(&refused)))?;
    Ok(SimTime(at))
}
