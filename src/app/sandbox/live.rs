//! The lesson's diagrams driven by the run: messages in flight move along the architecture
//! diagram's edges, each client's badge sits on its lifecycle state, and the sequence of
//! recent messages is drawn (click an arrow to go to it) and exported as Mermaid.

use crate::lesson::sentences;
use yew::prelude::*;

use super::reading::ShownRun;
use super::StepProps;
use crate::app::diagrams::architecture::{ArchitectureDiagram, InFlight};
use crate::app::diagrams::export::MermaidExport;
use crate::app::diagrams::lifecycle::{LifecycleDiagram, StateMarker};
use crate::app::diagrams::sequence::{SequenceDiagram, SequenceMessage};
use crate::lab::{describe, LabAction, RunSequence};
use crate::lesson::content::{ArchEdge, LeaseState, SANDBOX};
use crate::model::{Lifecycle, Message, NodeId, RunQuestions, SimTime};

const SEQUENCE_WINDOW: usize = 12;

/// The architecture diagram's edge a message travels on, if it is drawn there.
fn edge_of(message: &Message) -> Option<ArchEdge> {
    match message {
        Message::Acquire { .. } => Some(ArchEdge::Acquire),
        Message::Renew { .. } => Some(ArchEdge::Renew),
        Message::Granted { .. } | Message::RenewOk { .. } => Some(ArchEdge::Ok),
        Message::NotOwner { .. } | Message::Busy { .. } => Some(ArchEdge::Fail),
        Message::Release { .. } | Message::ReleaseReply { .. } | Message::Write { .. } => None,
    }
}

/// The lesson's lifecycle state that a client's model state is drawn on.
fn lesson_state(state: Lifecycle) -> LeaseState {
    match state {
        Lifecycle::Idle | Lifecycle::Acquiring => LeaseState::Acquiring,
        Lifecycle::Holding => LeaseState::Holding,
        Lifecycle::RenewInFlight => LeaseState::RenewResult,
        Lifecycle::Lost(_) => LeaseState::Lost,
        Lifecycle::Releasing | Lifecycle::Released => LeaseState::Releasing,
    }
}

/// Props of [`LiveDiagrams`]: the run and the cursor.
#[derive(Properties, PartialEq, Clone)]
pub struct DiagramsProps {
    pub run: ShownRun,
    pub now: SimTime,
}

/// The architecture and lifecycle diagrams at the cursor.
#[component]
pub fn LiveDiagrams(props: &DiagramsProps) -> Html {
    let snapshot = props.run.state_at(props.now);
    let in_flight: Vec<InFlight> = snapshot
        .in_flight
        .iter()
        .filter_map(|(record, permille)| {
            let edge = edge_of(&record.msg)?;
            let client = match (record.from, record.to) {
                (NodeId::Client(c), _) | (_, NodeId::Client(c)) => c.letter(),
                _ => '?',
            };
            Some(InFlight {
                edge,
                progress: f64::from(*permille) / 1000.0,
                label: format!("{client}: {}", describe::message_name(&record.msg)).into(),
            })
        })
        .collect();
    let markers: Vec<StateMarker> = snapshot
        .clients
        .iter()
        .map(|client| StateMarker {
            state: lesson_state(client.lifecycle),
            label: client.id.letter().to_string().into(),
        })
        .collect();
    let ttl = crate::model::notation::print_duration(props.run.scenario().ttl.as_micros());
    let acquire_label: Option<AttrValue> = Some(
        sentences::sandbox::live_diagrams::Acquire { ttl }
            .to_string()
            .into(),
    );
    html! {
        <section class="card live-diagrams" aria-labelledby="live-title">
            <h4 id="live-title">{SANDBOX.live_diagrams.heading}</h4>
            <p class="muted small">{SANDBOX.live_diagrams.intro}</p>
            <div class="live-grid">
                <ArchitectureDiagram {in_flight} explain={false} {acquire_label} />
                <LifecycleDiagram {markers} explain={false} />
            </div>
        </section>
    }
}

/// The latest messages of the run as a sequence diagram, with Mermaid export.
#[component]
pub fn RunSequenceView(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let sequence = RunSequence::before(lab.run(), props.at, SEQUENCE_WINDOW);
    let times: Vec<_> = sequence.arrows.iter().map(|a| a.sent_at).collect();
    let on_select = props
        .send(move |index: usize| LabAction::Seek(times.get(index).copied().unwrap_or_default()));
    let messages: Vec<SequenceMessage> = sequence
        .arrows
        .iter()
        .map(|a| SequenceMessage {
            from: a.from,
            to: a.to,
            label: a.label.clone().into(),
            time: Some(a.sent_at.to_string().into()),
        })
        .collect();
    let explanations: Vec<AttrValue> = sequence
        .arrows
        .iter()
        .map(|a| {
            AttrValue::from(
                sentences::sandbox::live_diagrams::Explanation {
                    at: a.sent_at,
                    message: a.label.clone(),
                }
                .to_string(),
            )
        })
        .collect();
    let participants: Vec<AttrValue> = sequence
        .participants
        .iter()
        .map(|(_, name)| AttrValue::from(name.clone()))
        .collect();
    let words = &SANDBOX.live_diagrams;
    html! {
        <section class="card run-sequence" aria-labelledby="run-sequence-title">
            <h4 id="run-sequence-title">{sentences::sandbox::live_diagrams::SequenceHeading { count: sequence.arrows.len(), at: props.at }.to_string()}</h4>
            if sequence.arrows.is_empty() {
                <p class="muted">{words.no_message}</p>
            } else {
                <SequenceDiagram {participants} {messages} {explanations} {on_select}
                    label={words.sequence_label}
                    hint={words.sequence_hint} />
                <MermaidExport title={words.export_title} text={sequence.to_mermaid()} file="lease-lab-run-sequence.mmd" />
            }
        </section>
    }
}
