//! Plain-English one-liners for trace events (built only when a view or a test asks).

use super::client::{Lifecycle, TimerKind};
use super::msg::Message;
use super::net::DropReason;
use super::service::{LeaseEnd, ServiceEvent};
use super::storage::{WriteRecord, WriteVerdict};
use super::trace::{Event, EventKind};

fn msg(m: &Message) -> String {
    match m.token() {
        Some(t) => format!("{} (token {t})", m.label()),
        None => m.label().to_string(),
    }
}

/// A timer, as the event log names it.
fn timer(kind: TimerKind) -> &'static str {
    match kind {
        TimerKind::Acquire => "acquire",
        TimerKind::RequestTimeout => "request-timeout",
        TimerKind::Renew => "renew",
        TimerKind::SafeDeadline => "safe-deadline",
        TimerKind::Work => "next-write",
        TimerKind::Release => "release",
    }
}

/// Why a packet was dropped.
fn dropped(reason: DropReason) -> &'static str {
    match reason {
        DropReason::Lost => "lost on the network",
        DropReason::LinkDown => "the link was down",
        DropReason::ReceiverCrashed => "the receiver had crashed",
    }
}

/// Describes one event without its time (views print that beside it):
/// "client B: Holding (token 34)".
pub fn event(e: &Event) -> String {
    let what = match e.kind {
        EventKind::Lifecycle { to, token } => match (to, token) {
            (Lifecycle::Lost(r), Some(t)) => format!(
                "Lost token {t}: {}; lost flag set, writes stop",
                r.describe()
            ),
            (_, Some(t)) => format!("{} (token {t})", to.label()),
            _ => to.label().to_string(),
        },
        EventKind::Timer {
            timer: kind,
            late_by,
        } if late_by.0 > 0 => {
            format!("{} timer fired {late_by} late", timer(kind))
        }
        EventKind::Timer { timer: kind, .. } => format!("{} timer fired", timer(kind)),
        EventKind::Sent {
            to,
            msg: m,
            deliver_at,
            ..
        } => format!("sends {} to {to}, due at {deliver_at}", msg(&m)),
        EventKind::Delivered {
            from,
            msg: m,
            sent_at,
            ..
        } => format!("receives {} from {from}, sent at {sent_at}", msg(&m)),
        EventKind::Dropped {
            to, msg: m, reason, ..
        } => format!("{} to {to} dropped ({})", msg(&m), dropped(reason)),
        EventKind::StaleReply { msg: m } => format!("ignores a late {}", msg(&m)),
        EventKind::Fault { fault } => format!("fault: {}", fault.describe()),
        EventKind::Paused {
            until,
            in_write_path: true,
        } => format!("paused in the write path until {until}"),
        EventKind::Paused { until, .. } => format!("paused until {until}"),
        EventKind::Woke => "wakes up".to_string(),
        EventKind::Crashed => "crashes".to_string(),
        EventKind::WriteIssued { token, seq } => {
            format!("pre-write check passed, write #{seq} with token {token}")
        }
        EventKind::Write(r) => write(&r),
        EventKind::Service(s) => service(s),
        // The check's title is lesson text; the event log view adds it.
        EventKind::CheckBroken { .. } => "CHECK BROKEN".to_string(),
    };
    format!("{}: {}", e.node, what)
}

/// What storage did with a write.
fn write(r: &WriteRecord) -> String {
    match r.verdict {
        WriteVerdict::Accepted { stale_over: None } => {
            format!("accepts {}'s write with token {}", r.client, r.token)
        }
        WriteVerdict::Accepted {
            stale_over: Some(h),
        } => {
            format!(
                "accepts {}'s STALE write with token {} after token {h}",
                r.client, r.token
            )
        }
        WriteVerdict::Rejected { highest } => {
            format!(
                "rejects {}'s write with token {}: token {highest} already seen",
                r.client, r.token
            )
        }
    }
}

/// What the lock service did.
fn service(s: ServiceEvent) -> String {
    match s {
        ServiceEvent::Granted { client, token, .. } => {
            format!("grants token {token} to {client}")
        }
        ServiceEvent::Regranted { client, token } => {
            format!("re-grants token {token} to {client}")
        }
        ServiceEvent::Renewed { client, token } => {
            format!("renews {client}'s lease (token {token})")
        }
        ServiceEvent::Busy {
            client,
            lock_delay: true,
        } => format!("BUSY to {client} (lock-delay)"),
        ServiceEvent::Busy { client, .. } => format!("BUSY to {client}"),
        ServiceEvent::NotOwner { client, token } => {
            format!("NOT_OWNER to {client} (token {token})")
        }
        ServiceEvent::Ended { client, token, how } => match how {
            LeaseEnd::Expired => format!("{client}'s lease (token {token}) expires"),
            LeaseEnd::Released => format!("{client} released token {token}"),
            LeaseEnd::Revoked => {
                format!("{client}'s lease (token {token}) revoked by an administrator")
            }
        },
    }
}
