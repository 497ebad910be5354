//! The model's typed values in the learner's words: a node, a fault and its kind, a
//! client's state, why it lost the lease, a message's name, and one line of the event log
//! (built only when a view or a test asks).
//!
//! The model keeps the typed [`Event`], [`NodeId`] and [`Fault`]; the words live in
//! `content/sandbox.toml` (`[nodes]`, `[[faults]]`, `[fault_lines]`, `[client_states]`,
//! `[event_lines]`), whose placeholders `build.rs` checks.

use crate::lesson::checks::CheckWords;
use crate::lesson::content::{LeaseState, SANDBOX};
use crate::lesson::sentences;
use crate::model::client::{Lifecycle, LostReason, TimerKind};
use crate::model::{
    ClientId, DropReason, Event, EventKind, Fault, FaultKind, FencingToken, Found, LeaseEnd,
    Message, NodeId, ServiceEvent, SimDuration, SimTime, WriteRecord, WriteVerdict,
};

/// A node inside a sentence: "lock service", "storage", "client A".
pub fn node(node: NodeId) -> String {
    let words = &SANDBOX.nodes;
    match node {
        NodeId::Service => words.service.to_owned(),
        NodeId::Storage => words.storage.to_owned(),
        NodeId::Client(c) => client(c),
    }
}

fn client(c: ClientId) -> String {
    sentences::sandbox::nodes::Client { letter: c }.to_string()
}

/// A kind of fault's name in a list or a log: "stop-the-world pause", "NTP step".
pub fn fault_kind(kind: FaultKind) -> &'static str {
    SANDBOX.fault(kind.keyword()).label
}

/// A fault in one line: "stop-the-world pause · client A · 15.000 s".
pub fn fault(fault: &Fault) -> String {
    let words = &SANDBOX.fault_lines;
    let detail = match *fault {
        Fault::Pause {
            client: c,
            duration,
            ..
        } => sentences::sandbox::fault_lines::Pause {
            client: client(c),
            duration,
        }
        .to_string(),
        Fault::Partition { a, b, duration } => sentences::sandbox::fault_lines::Partition {
            a: node(a),
            b: node(b),
            duration,
        }
        .to_string(),
        Fault::DelayNextPacket { from, to, extra } => sentences::sandbox::fault_lines::Delay {
            from: node(from),
            to: node(to),
            extra,
        }
        .to_string(),
        Fault::ClockStep {
            node: stepped,
            by_micros,
        } => {
            let by = SimDuration::from_micros(by_micros.unsigned_abs());
            let sign = if by_micros < 0 { '−' } else { '+' };
            sentences::sandbox::fault_lines::Step {
                node: node(stepped),
                step: format!("{sign}{by}"),
            }
            .to_string()
        }
        Fault::ClockDrift {
            node: drifting,
            ppm,
        } => sentences::sandbox::fault_lines::Drift {
            node: node(drifting),
            ppm: format!("{ppm:+}"),
        }
        .to_string(),
        Fault::Crash { client: c } => {
            sentences::sandbox::fault_lines::Crash { client: client(c) }.to_string()
        }
        Fault::RevokeLease => words.revoke.to_owned(),
    };
    sentences::sandbox::fault_lines::Line {
        kind: fault_kind(fault.kind()),
        detail,
    }
    .to_string()
}

/// A fault with its time: "stop-the-world pause · client A · 15.000 s at 2.500 s".
pub fn fault_at(f: &Fault, at: SimTime) -> String {
    sentences::sandbox::fault_lines::At {
        fault: fault(f),
        at,
    }
    .to_string()
}

/// A client's state, as its panel and the event log name it. The states the lesson's
/// lifecycle diagram draws keep the lesson's names, so each has one home.
pub fn lifecycle(state: Lifecycle) -> &'static str {
    let drawn = |state: LeaseState| state.text().label;
    let words = &SANDBOX.client_states;
    match state {
        Lifecycle::Idle => words.idle,
        Lifecycle::Acquiring => drawn(LeaseState::Acquiring),
        Lifecycle::Holding => drawn(LeaseState::Holding),
        Lifecycle::RenewInFlight => words.renew_in_flight,
        Lifecycle::Lost(_) => drawn(LeaseState::Lost),
        Lifecycle::Releasing => drawn(LeaseState::Releasing),
        Lifecycle::Released => words.released,
    }
}

/// Why a client concluded that it lost the lease, as a clause.
pub fn lost_reason(reason: LostReason) -> &'static str {
    let words = &SANDBOX.client_states;
    match reason {
        LostReason::NotOwner => words.lost_not_owner,
        LostReason::DeadlinePassed => words.lost_deadline_passed,
        LostReason::DeadlinePassedAtWrite => words.lost_deadline_passed_at_write,
    }
}

/// One event without its time (views print that beside it): "client B: Holding (token 34)",
/// with each check the checkers found it broke.
pub fn event(e: &Event, found: Found) -> String {
    let mut line = sentences::sandbox::event_lines::Line {
        node: node(e.node),
        what: what(e, found),
    }
    .to_string();
    for check in found.checks() {
        line.push_str(" — ");
        line.push_str(
            &sentences::sandbox::event_lines::CheckBroken {
                check: check.title(),
            }
            .to_string(),
        );
    }
    line
}

fn what(e: &Event, found: Found) -> String {
    let words = &SANDBOX.event_lines;
    match e.kind {
        EventKind::Lifecycle { to, token } => match (to, token) {
            (Lifecycle::Lost(reason), Some(token)) => sentences::sandbox::event_lines::Lost {
                token: token.to_string().as_str(),
                reason: lost_reason(reason),
            }
            .to_string(),
            (_, Some(token)) => with_token(lifecycle(to), token),
            _ => lifecycle(to).to_owned(),
        },
        EventKind::Timer {
            timer: kind,
            late_by,
        } if late_by.0 > 0 => sentences::sandbox::event_lines::TimerFiredLate {
            timer: timer(kind),
            late: late_by,
        }
        .to_string(),
        EventKind::Timer { timer: kind, .. } => {
            sentences::sandbox::event_lines::TimerFired { timer: timer(kind) }.to_string()
        }
        EventKind::Sent {
            to,
            msg,
            deliver_at,
            ..
        } => sentences::sandbox::event_lines::Sent {
            message: message(&msg),
            to: node(to),
            due: deliver_at,
        }
        .to_string(),
        EventKind::Delivered {
            from, msg, sent_at, ..
        } => sentences::sandbox::event_lines::Delivered {
            message: message(&msg),
            from: node(from),
            sent: sent_at,
        }
        .to_string(),
        EventKind::Dropped {
            to, msg, reason, ..
        } => sentences::sandbox::event_lines::Dropped {
            message: message(&msg),
            to: node(to),
            reason: dropped(reason),
        }
        .to_string(),
        EventKind::Read { from, msg, .. } => sentences::sandbox::event_lines::ReadBuffered {
            message: message(&msg),
            from: node(from),
        }
        .to_string(),
        EventKind::StaleReply { msg } => sentences::sandbox::event_lines::StaleReply {
            message: message(&msg),
        }
        .to_string(),
        EventKind::Fault { fault: f } => {
            sentences::sandbox::event_lines::Fault { fault: fault(&f) }.to_string()
        }
        EventKind::Paused {
            until,
            in_write_path: true,
        } => sentences::sandbox::event_lines::PausedInWritePath { until }.to_string(),
        EventKind::Paused {
            until,
            in_write_path: false,
        } => sentences::sandbox::event_lines::Paused { until }.to_string(),
        EventKind::Woke => words.woke.to_owned(),
        EventKind::Crashed => words.crashed.to_owned(),
        EventKind::WriteIssued { token, seq } => {
            sentences::sandbox::event_lines::WriteIssued { seq, token }.to_string()
        }
        EventKind::Write(record) => write(&record, found.stale_over()),
        EventKind::Service(event) => service(event),
    }
}

/// A message's short name: "renew", "NOT_OWNER".
pub fn message_name(m: &Message) -> &'static str {
    let words = &SANDBOX.messages;
    match m {
        Message::Acquire { .. } => words.acquire,
        Message::Renew { .. } => words.renew,
        Message::Release { .. } => words.release,
        Message::Granted { .. } => words.granted,
        Message::Busy { .. } => words.busy,
        Message::RenewOk { .. } => words.renew_ok,
        Message::NotOwner { .. } => words.not_owner,
        Message::ReleaseReply { .. } => words.release_reply,
        Message::Write { .. } => words.write,
    }
}

/// The name of the answer a learner's `reply` handler was given.
pub fn answer_kind(kind: crate::lab::own_client::AnswerKind) -> &'static str {
    use crate::lab::own_client::AnswerKind;
    let words = &SANDBOX.messages;
    match kind {
        AnswerKind::Granted => words.granted,
        AnswerKind::Busy => words.busy,
        AnswerKind::Renewed => words.renew_ok,
        AnswerKind::NotOwner => words.not_owner,
        AnswerKind::Released => words.release_reply,
    }
}

/// The handler a learner's client was in: "start(node)", "reply(node, answer) for a granted
/// answer", "timer(node, "renew")".
pub fn during(during: &crate::lab::own_client::During) -> String {
    use crate::lab::own_client::During;
    use sentences::sandbox::own_client as says;
    match during {
        During::TopLevel => SANDBOX.own_client.top_level.to_owned(),
        During::Start => SANDBOX.own_client.start.to_owned(),
        During::Reply(kind) => says::Reply {
            answer: answer_kind(*kind),
        }
        .to_string(),
        During::Timer(name) => says::Timer { name }.to_string(),
    }
}

/// A message by its name, with the token it carries.
fn message(m: &Message) -> String {
    match m.token() {
        Some(token) => with_token(message_name(m), token),
        None => message_name(m).to_owned(),
    }
}

fn with_token(name: &str, token: impl std::fmt::Display) -> String {
    sentences::sandbox::event_lines::WithToken { name, token }.to_string()
}

/// A timer, as the event log names it.
fn timer(kind: TimerKind) -> &'static str {
    let words = &SANDBOX.event_lines;
    match kind {
        TimerKind::Acquire => words.timer_acquire,
        TimerKind::RequestTimeout => words.timer_request_timeout,
        TimerKind::Renew => words.timer_renew,
        TimerKind::SafeDeadline => words.timer_safe_deadline,
        TimerKind::Work => words.timer_work,
        TimerKind::Release => words.timer_release,
    }
}

/// Why a packet was dropped.
fn dropped(reason: DropReason) -> &'static str {
    let words = &SANDBOX.event_lines;
    match reason {
        DropReason::Lost => words.dropped_lost,
        DropReason::LinkDown => words.dropped_link_down,
        DropReason::ReceiverCrashed => words.dropped_receiver_crashed,
    }
}

/// What storage did with a write (`stale_over`: the checkers found it stale).
fn write(r: &WriteRecord, stale_over: Option<FencingToken>) -> String {
    use sentences::sandbox::event_lines::{WriteAccepted, WriteAcceptedStale, WriteRejected};
    let (client, token) = (r.client, r.token);
    match (r.verdict, stale_over) {
        (WriteVerdict::Accepted, None) => WriteAccepted { client, token }.to_string(),
        (WriteVerdict::Accepted, Some(highest)) => WriteAcceptedStale {
            client,
            token,
            highest,
        }
        .to_string(),
        (WriteVerdict::Rejected { highest }, _) => WriteRejected {
            client,
            token,
            highest,
        }
        .to_string(),
    }
}

/// What the lock service did.
fn service(event: ServiceEvent) -> String {
    use sentences::sandbox::event_lines as said;
    match event {
        ServiceEvent::Granted { client, token, .. } => said::Granted { client, token }.to_string(),
        ServiceEvent::Regranted { client, token, .. } => {
            said::Regranted { client, token }.to_string()
        }
        ServiceEvent::Renewed { client, token, .. } => said::Renewed { client, token }.to_string(),
        ServiceEvent::Busy {
            client,
            lock_delay: true,
        } => said::BusyLockDelay { client }.to_string(),
        ServiceEvent::Busy {
            client,
            lock_delay: false,
        } => said::Busy { client }.to_string(),
        ServiceEvent::NotOwner { client, token } => said::NotOwner { client, token }.to_string(),
        ServiceEvent::Ended { client, token, how } => match how {
            LeaseEnd::Expired => said::Expired { client, token }.to_string(),
            LeaseEnd::Released => said::Released { client, token }.to_string(),
            LeaseEnd::Revoked => said::Revoked { client, token }.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{presets, FaultPlan, RandomFaults, Simulation};

    #[test]
    fn every_client_state_and_loss_has_its_own_words() {
        let reasons = [
            LostReason::NotOwner,
            LostReason::DeadlinePassed,
            LostReason::DeadlinePassedAtWrite,
        ];
        let names: Vec<&str> = [
            Lifecycle::Idle,
            Lifecycle::Acquiring,
            Lifecycle::Holding,
            Lifecycle::RenewInFlight,
            Lifecycle::Lost(LostReason::NotOwner),
            Lifecycle::Releasing,
            Lifecycle::Released,
        ]
        .into_iter()
        .map(lifecycle)
        .chain(reasons.into_iter().map(lost_reason))
        .collect();
        for (i, name) in names.iter().enumerate() {
            assert!(!name.is_empty() && !names[..i].contains(name), "{name:?}");
        }
        let lost: Vec<&str> = reasons
            .into_iter()
            .map(|r| lifecycle(Lifecycle::Lost(r)))
            .collect();
        assert!(lost.iter().all(|name| *name == lost[0]), "{lost:?}");
    }

    #[test]
    fn every_event_of_every_preset_reads_with_all_its_facts_filled_in() {
        for preset in presets::presets() {
            let run = Simulation::run(&preset.scenario);
            for (e, found) in run.events().iter().zip(run.found()) {
                let line = event(e, *found);
                assert!(line.starts_with(&format!("{}: ", node(e.node))), "{line}");
                assert!(!line.contains('{') && !line.contains('}'), "{line}");
            }
        }
    }

    #[test]
    fn every_node_and_every_kind_of_fault_has_its_own_name() {
        let nodes: Vec<String> = [NodeId::Service, NodeId::Storage]
            .into_iter()
            .chain((0..8).map(|c| NodeId::Client(ClientId(c))))
            .map(node)
            .collect();
        for (i, name) in nodes.iter().enumerate() {
            assert!(!name.is_empty() && !nodes[..i].contains(name), "{name:?}");
        }
        for c in 0..8 {
            let letter = ClientId(c).letter();
            assert!(
                node(NodeId::Client(ClientId(c))).contains(letter),
                "{letter}"
            );
        }
        let kinds: Vec<&str> = FaultKind::ALL.into_iter().map(fault_kind).collect();
        for (i, name) in kinds.iter().enumerate() {
            assert!(!name.is_empty() && !kinds[..i].contains(name), "{name:?}");
        }
    }

    #[test]
    fn a_fault_line_names_its_kind_its_nodes_and_its_amount() {
        let shape = RandomFaults {
            clients: 3,
            ..RandomFaults::default()
        };
        let faults: Vec<Fault> = (0..200)
            .flat_map(|seed| FaultPlan::random(seed, &shape).0)
            .map(|timed| timed.fault)
            .collect();
        let kinds: Vec<FaultKind> = faults.iter().map(Fault::kind).collect();
        assert!(
            FaultKind::ALL.iter().all(|k| kinds.contains(k)),
            "{kinds:?}"
        );
        for f in &faults {
            let line = fault(f);
            assert!(line.starts_with(fault_kind(f.kind())), "{line}");
            assert!(!line.contains('{') && !line.contains('}'), "{line}");
            let named: Vec<NodeId> = match *f {
                Fault::RevokeLease => Vec::new(),
                _ => [Some(f.target()), f.peer()].into_iter().flatten().collect(),
            };
            for n in named {
                assert!(line.contains(&node(n)), "{line} lacks {}", node(n));
            }
            let amount = match *f {
                Fault::Pause { duration, .. } | Fault::Partition { duration, .. } => {
                    Some(duration.to_string())
                }
                Fault::DelayNextPacket { extra, .. } => Some(extra.to_string()),
                Fault::ClockStep { by_micros, .. } => {
                    Some(SimDuration::from_micros(by_micros.unsigned_abs()).to_string())
                }
                Fault::ClockDrift { ppm, .. } => Some(ppm.unsigned_abs().to_string()),
                Fault::Crash { .. } | Fault::RevokeLease => None,
            };
            if let Some(amount) = amount {
                assert!(line.contains(&amount), "{line} lacks {amount}");
            }
        }
        let at = SimTime::from_secs(3);
        let timed = fault_at(&faults[0], at);
        assert!(
            timed.starts_with(&fault(&faults[0])) && timed.contains(&at.to_string()),
            "{timed}"
        );
    }

    #[test]
    fn a_clock_step_back_and_forward_read_differently() {
        let step = |by_micros| {
            fault(&Fault::ClockStep {
                node: NodeId::Service,
                by_micros,
            })
        };
        assert_ne!(step(-8_000_000), step(8_000_000));
    }
}
