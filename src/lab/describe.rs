//! The model's typed values in the learner's words: a client's state, why it lost the
//! lease, a message's name, and one line of the event log (built only when a view or a
//! test asks).
//!
//! The model keeps the typed [`Event`]; the sentences live in `content/sandbox.toml`
//! (`[client_states]`, `[event_lines]`), whose placeholders `build.rs` checks.

use crate::lesson::checks::CheckWords;
use crate::lesson::content::{fill, LeaseState, SANDBOX};
use crate::model::client::{Lifecycle, LostReason, TimerKind};
use crate::model::{
    DropReason, Event, EventKind, LeaseEnd, Message, ServiceEvent, WriteRecord, WriteVerdict,
};

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

/// One event without its time (views print that beside it): "client B: Holding (token 34)".
pub fn event(e: &Event) -> String {
    fill(
        SANDBOX.event_lines.line,
        &[("node", e.node.to_string()), ("what", what(e))],
    )
}

fn what(e: &Event) -> String {
    let words = &SANDBOX.event_lines;
    match e.kind {
        EventKind::Lifecycle { to, token } => match (to, token) {
            (Lifecycle::Lost(reason), Some(token)) => fill(
                words.lost,
                &[
                    ("token", token.to_string().as_str()),
                    ("reason", lost_reason(reason)),
                ],
            ),
            (_, Some(token)) => with_token(lifecycle(to), token),
            _ => lifecycle(to).to_owned(),
        },
        EventKind::Timer {
            timer: kind,
            late_by,
        } if late_by.0 > 0 => fill(
            words.timer_fired_late,
            &[
                ("timer", timer(kind).to_owned()),
                ("late", late_by.to_string()),
            ],
        ),
        EventKind::Timer { timer: kind, .. } => fill(words.timer_fired, &[("timer", timer(kind))]),
        EventKind::Sent {
            to,
            msg,
            deliver_at,
            ..
        } => fill(
            words.sent,
            &[
                ("message", message(&msg)),
                ("to", to.to_string()),
                ("due", deliver_at.to_string()),
            ],
        ),
        EventKind::Delivered {
            from, msg, sent_at, ..
        } => fill(
            words.delivered,
            &[
                ("message", message(&msg)),
                ("from", from.to_string()),
                ("sent", sent_at.to_string()),
            ],
        ),
        EventKind::Dropped {
            to, msg, reason, ..
        } => fill(
            words.dropped,
            &[
                ("message", message(&msg)),
                ("to", to.to_string()),
                ("reason", dropped(reason).to_owned()),
            ],
        ),
        EventKind::StaleReply { msg } => fill(words.stale_reply, &[("message", message(&msg))]),
        EventKind::Fault { fault } => fill(words.fault, &[("fault", fault.describe())]),
        EventKind::Paused {
            until,
            in_write_path,
        } => fill(
            if in_write_path {
                words.paused_in_write_path
            } else {
                words.paused
            },
            &[("until", until.to_string())],
        ),
        EventKind::Woke => words.woke.to_owned(),
        EventKind::Crashed => words.crashed.to_owned(),
        EventKind::WriteIssued { token, seq } => fill(
            words.write_issued,
            &[("seq", seq.to_string()), ("token", token.to_string())],
        ),
        EventKind::Write(record) => write(&record),
        EventKind::Service(event) => service(event),
        EventKind::CheckBroken { check } => fill(words.check_broken, &[("check", check.title())]),
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

/// A message by its name, with the token it carries.
fn message(m: &Message) -> String {
    match m.token() {
        Some(token) => with_token(message_name(m), token),
        None => message_name(m).to_owned(),
    }
}

fn with_token(name: &str, token: impl ToString) -> String {
    fill(
        SANDBOX.event_lines.with_token,
        &[("name", name.to_owned()), ("token", token.to_string())],
    )
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

/// What storage did with a write.
fn write(r: &WriteRecord) -> String {
    let words = &SANDBOX.event_lines;
    let (client, token) = (r.client.to_string(), r.token.to_string());
    match r.verdict {
        WriteVerdict::Accepted { stale_over: None } => fill(
            words.write_accepted,
            &[("client", client), ("token", token)],
        ),
        WriteVerdict::Accepted {
            stale_over: Some(highest),
        } => fill(
            words.write_accepted_stale,
            &[
                ("client", client),
                ("token", token),
                ("highest", highest.to_string()),
            ],
        ),
        WriteVerdict::Rejected { highest } => fill(
            words.write_rejected,
            &[
                ("client", client),
                ("token", token),
                ("highest", highest.to_string()),
            ],
        ),
    }
}

/// What the lock service did.
fn service(event: ServiceEvent) -> String {
    let words = &SANDBOX.event_lines;
    let (template, client, token) = match event {
        ServiceEvent::Granted { client, token, .. } => (words.granted, client, Some(token)),
        ServiceEvent::Regranted { client, token } => (words.regranted, client, Some(token)),
        ServiceEvent::Renewed { client, token } => (words.renewed, client, Some(token)),
        ServiceEvent::Busy { client, lock_delay } => {
            let template = if lock_delay {
                words.busy_lock_delay
            } else {
                words.busy
            };
            (template, client, None)
        }
        ServiceEvent::NotOwner { client, token } => (words.not_owner, client, Some(token)),
        ServiceEvent::Ended { client, token, how } => {
            let template = match how {
                LeaseEnd::Expired => words.expired,
                LeaseEnd::Released => words.released,
                LeaseEnd::Revoked => words.revoked,
            };
            (template, client, Some(token))
        }
    };
    let token = token.map(|t| t.to_string()).unwrap_or_default();
    fill(
        template,
        &[("client", client.to_string()), ("token", token)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{presets, Simulation};

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
            for e in run.events() {
                let line = event(e);
                assert!(line.starts_with(&format!("{}: ", e.node)), "{line}");
                assert!(!line.contains('{') && !line.contains('}'), "{line}");
            }
        }
    }
}
