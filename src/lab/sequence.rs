//! The sequence diagram of a run: the messages sent in a window before the cursor, ready to
//! draw or to export as Mermaid.

use super::describe;
use crate::lesson::content::SANDBOX;
use crate::lesson::mermaid::{sequence_diagram, SequenceArrow};
use crate::lesson::sentences;
use crate::model::{Message, MessageFate, NodeId, Recording, RunQuestions, SimTime};

/// One arrow of the run's sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunArrow {
    /// Index of the sender in [`RunSequence::participants`].
    pub from: usize,
    /// Index of the receiver.
    pub to: usize,
    /// What the message says, with its token and its fate, e.g. "renew 33" or "write 33 (dropped)".
    pub label: String,
    /// When it was sent (clicking the arrow seeks here).
    pub sent_at: SimTime,
}

/// Participants (clients, lock service, storage) and the arrows between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSequence {
    /// (Mermaid identifier, shown name) per lifeline, left to right.
    pub participants: Vec<(String, String)>,
    /// The messages, oldest first.
    pub arrows: Vec<RunArrow>,
}

fn lifeline(node: NodeId, clients: u8) -> usize {
    match node {
        NodeId::Client(c) => usize::from(c.0),
        NodeId::Service => usize::from(clients),
        NodeId::Storage => usize::from(clients) + 1,
    }
}

fn label(message: &Message, fate: MessageFate, now: SimTime) -> String {
    let base = match message.token() {
        Some(token) => format!("{} {token}", describe::message_name(message)),
        None => describe::message_name(message).to_owned(),
    };
    use sentences::sandbox::run_sequence::{Dropped, InFlight};
    match fate {
        MessageFate::Dropped(at, _) if at <= now => Dropped { message: base }.to_string(),
        MessageFate::Delivered(at) if at > now => InFlight { message: base }.to_string(),
        MessageFate::InFlight => InFlight { message: base }.to_string(),
        _ => base,
    }
}

impl RunSequence {
    /// The last `max` messages sent at or before `now`.
    pub fn before(run: &Recording, now: SimTime, max: usize) -> RunSequence {
        let clients = run.scenario().clients;
        let words = &SANDBOX.run_sequence;
        let mut participants: Vec<(String, String)> = (0..clients)
            .map(|c| {
                let letter = crate::model::ClientId(c).letter();
                let name = sentences::sandbox::run_sequence::Client { letter }.to_string();
                (format!("{letter}"), name)
            })
            .collect();
        participants.push(("S".to_owned(), words.service.to_owned()));
        participants.push(("D".to_owned(), words.storage.to_owned()));
        let arrows = run
            .packets_before(now, max)
            .items
            .iter()
            .map(|m| RunArrow {
                from: lifeline(m.from, clients),
                to: lifeline(m.to, clients),
                label: label(&m.msg, m.fate, now),
                sent_at: m.sent_at,
            })
            .collect();
        RunSequence {
            participants,
            arrows,
        }
    }

    /// The sequence as Mermaid text.
    pub fn to_mermaid(&self) -> String {
        let participants: Vec<(&str, &str)> = self
            .participants
            .iter()
            .map(|(id, name)| (id.as_str(), name.as_str()))
            .collect();
        let arrows: Vec<SequenceArrow> = self
            .arrows
            .iter()
            .map(|a| SequenceArrow {
                from: a.from,
                to: a.to,
                label: &a.label,
            })
            .collect();
        sequence_diagram(&participants, &arrows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::presets;

    #[test]
    fn the_zombie_runs_sequence_shows_the_fenced_write_and_exports_as_mermaid() {
        let run = Recording::of(&presets::preset("2").unwrap().scenario);
        let at_17_5 = SimTime::from_millis(17_500);
        let sequence = RunSequence::before(&run, at_17_5, 400);
        assert_eq!(sequence.participants.len(), 4);
        assert!(sequence.arrows.iter().all(|a| a.sent_at <= at_17_5));
        assert!(sequence
            .arrows
            .windows(2)
            .all(|w| w[0].sent_at <= w[1].sent_at));
        assert!(sequence.arrows.iter().any(|a| a.from == 0
            && a.to == 3
            && a.label == "write 33"
            && a.sent_at > SimTime::from_secs(17)));
        assert!(sequence
            .arrows
            .iter()
            .any(|a| a.from == 1 && a.label == "write 34"));
        let text = sequence.to_mermaid();
        assert!(text.starts_with("sequenceDiagram\n"));
        assert!(text.contains("participant S as Lock service"));
        assert!(text.contains("A->>D: write 33"));
        let window = RunSequence::before(&run, at_17_5, 5);
        assert_eq!(window.arrows.len(), 5);
        assert_eq!(window.arrows.last(), sequence.arrows.last());
    }
}
