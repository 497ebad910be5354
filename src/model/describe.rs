//! Plain-English one-liners for trace events (built only when a view or a test asks).

use super::client::Lifecycle;
use super::faults::Fault;
use super::msg::Message;
use super::service::{LeaseEnd, ServiceEvent};
use super::storage::WriteVerdict;
use super::trace::{Event, EventKind};

fn msg(m: &Message) -> String {
    match m.token() {
        Some(t) => format!("{} (token {t})", m.label()),
        None => m.label().to_string(),
    }
}

/// Describes one event: "10.120 s client B: Holding (token 34)".
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
        EventKind::Timer { timer, late_by } if late_by.0 > 0 => {
            format!("{timer:?} timer fired {late_by} late")
        }
        EventKind::Timer { timer, .. } => format!("{timer:?} timer fired"),
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
        } => format!("{} to {to} dropped ({reason:?})", msg(&m)),
        EventKind::StaleReply { msg: m } => format!("ignores a late {}", msg(&m)),
        EventKind::Fault { fault } => match fault {
            Fault::Pause { duration, .. } => format!("fault: {} for {duration}", fault.label()),
            Fault::Partition { a, b, duration } => {
                format!("fault: link {a} ↔ {b} down for {duration}")
            }
            Fault::DelayNextPacket { from, to, extra } => {
                format!("fault: next packet {from} → {to} delayed by {extra}")
            }
            Fault::ClockStep { by_micros, .. } => {
                format!("fault: wall clock steps by {} ms", by_micros / 1000)
            }
            Fault::ClockDrift { ppm, .. } => format!("fault: clock drifts {ppm} ppm"),
            _ => format!("fault: {}", fault.label()),
        },
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
        EventKind::Write(r) => match r.verdict {
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
        },
        EventKind::Service(s) => match s {
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
        },
        // The check's title is lesson text; the event log view adds it.
        EventKind::CheckBroken { .. } => "CHECK BROKEN".to_string(),
    };
    format!("{} {}: {}", e.at, e.node, what)
}
