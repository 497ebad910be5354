//! A sequence diagram of messages between participants, such as the lesson's heartbeat
//! story or the messages of a sandbox run.
//!
//! Props:
//! - `participants: Vec<AttrValue>`: the lifelines, left to right.
//! - `messages: Vec<SequenceMessage>`: arrows top to bottom; `from == to` draws a loop
//!   (an action on oneself); indexes past the participants are skipped.
//! - `explanations: Vec<AttrValue>`: optional text per message for the explanation panel.
//! - `label: AttrValue`: the diagram's accessible name.
//! - `hint: AttrValue`: shown in the panel before anything is selected.
//! - `selected: Option<usize>`: a message to select from outside (e.g. the sandbox's
//!   current step); the learner can still select others.
//! - `on_select: Callback<usize>`: told of the message index selected by click or key.

use crate::lesson::number::Decimal;
use crate::lesson::sentences;
use yew::prelude::*;

use super::{
    arrow, arrow_marker, diagram_figure, explanation_panel, marker_id, use_selection, use_zoom,
    Figure,
};
use crate::lesson::content::LESSON;
use crate::lesson::diagram::{Explanation, SequenceLayout};

/// One arrow: participant indexes, its text, and an optional time shown in a left gutter.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceMessage {
    pub from: usize,
    pub to: usize,
    pub label: AttrValue,
    pub time: Option<AttrValue>,
}

#[derive(Properties, PartialEq)]
pub struct SequenceDiagramProps {
    pub participants: Vec<AttrValue>,
    pub messages: Vec<SequenceMessage>,
    #[prop_or_default]
    pub explanations: Vec<AttrValue>,
    pub label: AttrValue,
    #[prop_or_default]
    pub hint: AttrValue,
    #[prop_or_default]
    pub selected: Option<usize>,
    #[prop_or_default]
    pub on_select: Callback<usize>,
}

const MARKER: &str = "sequence-arrow";

#[component]
pub fn SequenceDiagram(props: &SequenceDiagramProps) -> Html {
    let selection = use_selection(props.selected, &props.on_select);
    let zoom = use_zoom();
    let count = props.participants.len();
    let layout = SequenceLayout {
        participants: count,
        messages: props.messages.len(),
        time_gutter: props.messages.iter().any(|m| m.time.is_some()),
    };
    let draw = |zoomed: bool| {
        let marker = marker_id(MARKER, zoomed);
        let heads = props
            .participants
            .iter()
            .enumerate()
            .map(|(index, participant)| participant_head(&layout, index, participant));
        let rows = props
            .messages
            .iter()
            .enumerate()
            .filter(|(_, m)| m.from < count && m.to < count)
            .map(|(index, m)| {
                let drawn = arrow(
                    &layout.arrow(index, m.from, m.to),
                    &m.label,
                    step_name(props, index, m),
                    selection.is(index),
                    &marker,
                    selection.select(index),
                    "",
                );
                message_row(&layout, index, m, drawn)
            });
        html! {
            <svg viewBox={format!("0 0 {} {}", Decimal(layout.width()), Decimal(layout.height()))} role="group"
                aria-label={props.label.clone()} class="diagram-svg"
                style={(!zoomed).then(|| format!("max-width: {}px", Decimal(layout.width() * 1.25)))}>
                { arrow_marker(&marker) }
                { for heads }
                { for rows }
            </svg>
        }
    };
    let explanation = explanation_panel(
        selection
            .current()
            .and_then(|index| explain_step(props, index)),
        &props.hint,
    );
    diagram_figure(
        &zoom,
        Figure {
            class: "sequence-diagram",
            label: props.label.to_string(),
            natural_width: layout.width(),
            draw: &draw,
            explanation: Some(explanation),
        },
    )
}

/// A participant's name, or nothing past the list.
fn participant(props: &SequenceDiagramProps, index: usize) -> String {
    props
        .participants
        .get(index)
        .map(|p| p.to_string())
        .unwrap_or_default()
}

/// A step's accessible name: "Step 2: Client to Lock service: renew".
fn step_name(props: &SequenceDiagramProps, index: usize, m: &SequenceMessage) -> String {
    use sentences::lesson::names::{Step, StepTo};
    let (step, from, label) = (index + 1, participant(props, m.from), &m.label);
    if m.from == m.to {
        Step { step, from, label }.to_string()
    } else {
        let to = participant(props, m.to);
        StepTo {
            step,
            from,
            to,
            label,
        }
        .to_string()
    }
}

/// What the explanation panel says about step `index`, if it exists.
fn explain_step(props: &SequenceDiagramProps, index: usize) -> Option<Explanation> {
    let m = props.messages.get(index)?;
    let from = participant(props, m.from);
    let title = if m.from == m.to {
        format!("{}. {from}: {}", index + 1, m.label)
    } else {
        let to = participant(props, m.to);
        format!("{}. {from} → {to}: {}", index + 1, m.label)
    };
    let lines = props
        .explanations
        .get(index)
        .map(|text| vec![(LESSON.names.what_happens, text.to_string())])
        .unwrap_or_default();
    Some(Explanation { title, lines })
}

/// A participant's head box and its lifeline.
fn participant_head(layout: &SequenceLayout, index: usize, participant: &AttrValue) -> Html {
    let x = layout.lifeline_x(index);
    html! {
        <g class="participant">
            <line class="lifeline" x1={Decimal(x).to_string()} y1={Decimal(SequenceLayout::HEAD_HEIGHT).to_string()}
                x2={Decimal(x).to_string()} y2={Decimal(layout.height()).to_string()} />
            <rect x={Decimal(x - 75.0).to_string()} y="4" width="150" height={Decimal(SequenceLayout::HEAD_HEIGHT - 8.0).to_string()} rx="8" />
            <text class="node-label" x={Decimal(x).to_string()} y={Decimal(SequenceLayout::HEAD_HEIGHT / 2.0 + 5.0).to_string()}
                text-anchor="middle">{participant.clone()}</text>
        </g>
    }
}

/// One message's row: its step number, its time in the gutter if any, and its arrow.
fn message_row(layout: &SequenceLayout, index: usize, m: &SequenceMessage, arrow: Html) -> Html {
    let y = layout.row_y(index);
    html! {
        <>
            <text class="step-number" x={Decimal(layout.lifeline_x(0) - 60.0).to_string()} y={Decimal(y + 4.0).to_string()}
                text-anchor="middle" aria-hidden="true">{index + 1}</text>
            if let Some(time) = &m.time {
                <text class="step-time" x="8" y={Decimal(y + 4.0).to_string()} aria-hidden="true">{time.clone()}</text>
            }
            { arrow }
        </>
    }
}
