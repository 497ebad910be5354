//! A recorded live run as data: the scenario it ran with (its faults are the ones applied,
//! at the times they took effect), every event in the model's own trace format, and what
//! the page measured (each freeze, asked and real; when the tab was hidden). It replays into
//! a [`Run`] the views scrub like a simulated one, and travels in a share link: bincode,
//! then deflate, then base64url, capped; a link that does not decode, or that names a node
//! the scenario does not have, is refused with a plain reason and never panics.

use super::protocol::{from_bytes, to_bytes, MAX_MESSAGE_BYTES};
use crate::model::{
    ClientId, Event, EventKind, Message, NodeId, Run, Scenario, ServiceEvent, SimDuration, SimTime,
};

/// Longest live field a link carries, in characters (the whole link is capped at 32 KB).
pub const MAX_LINK_CHARS: usize = 24_000;
/// Most bytes a live field inflates to.
const MAX_RAW_BYTES: usize = MAX_MESSAGE_BYTES as usize;
/// Most events a recorded live run holds.
pub const MAX_EVENTS: usize = 50_000;

/// One freeze of the page: when it began, how long was asked, how long it really lasted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Freeze {
    /// When the busy loop began.
    pub at: SimTime,
    /// The pause the learner asked for.
    pub asked: SimDuration,
    /// The pause the page measured around its busy loop.
    pub measured: SimDuration,
}

/// A recorded live run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LiveTrace {
    /// The parameters and policy, with the applied faults as its plan.
    pub scenario: Scenario,
    /// When the recording stopped.
    pub end: SimTime,
    /// Every event, in time order.
    pub events: Vec<Event>,
    /// The page's freezes, measured.
    pub freezes: Vec<Freeze>,
    /// When the tab was hidden, which stopped the run (timers are throttled there).
    pub hidden_at: Option<SimTime>,
}

/// Why a live field of a link was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceRefusal {
    /// Longer than a link may carry.
    TooLong,
    /// Not a recorded live run this build can read.
    Unreadable,
    /// It decodes, but names nodes or times its scenario does not have.
    Inconsistent,
}

impl LiveTrace {
    /// The run the views read: the recorded events, read by the checkers again.
    pub fn replay(&self) -> Run {
        Run::from_trace(self.scenario.clone(), self.end, self.events.clone())
    }

    /// The link field: compressed, or why it cannot be one.
    pub fn to_link(&self) -> Result<String, TraceRefusal> {
        let bytes = to_bytes(self).ok_or(TraceRefusal::Unreadable)?;
        let packed = miniz_oxide::deflate::compress_to_vec(&bytes, 6);
        let text = crate::values::base64url(&packed);
        if text.len() > MAX_LINK_CHARS {
            return Err(TraceRefusal::TooLong);
        }
        Ok(text)
    }

    /// Reads a link field; never panics.
    pub fn from_link(text: &str) -> Result<LiveTrace, TraceRefusal> {
        if text.len() > MAX_LINK_CHARS {
            return Err(TraceRefusal::TooLong);
        }
        let packed = crate::values::unbase64url_bytes(text, MAX_LINK_CHARS)
            .map_err(|_| TraceRefusal::Unreadable)?;
        let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_RAW_BYTES)
            .map_err(|_| TraceRefusal::Unreadable)?;
        let trace: LiveTrace = from_bytes(&bytes).ok_or(TraceRefusal::Unreadable)?;
        trace.check()?;
        Ok(trace)
    }

    /// Everything the replay indexes by must exist: clients, packet numbers, times in order.
    fn check(&self) -> Result<(), TraceRefusal> {
        self.fits(MAX_EVENTS)
            .then_some(())
            .ok_or(TraceRefusal::Inconsistent)
    }

    /// True if the run holds at most `max_events` events and everything the replay indexes by
    /// exists (how a learner's run from the sandbox is read too).
    pub(crate) fn fits(&self, max_events: usize) -> bool {
        let s = &self.scenario;
        s.validate().is_ok()
            && self.events.len() <= max_events
            && self.end <= SimTime::ZERO + s.duration
            && self.events.windows(2).all(|w| w[0].at <= w[1].at)
            && self
                .events
                .iter()
                .all(|e| e.at <= self.end && self.names_known(e))
    }

    fn names_known(&self, e: &Event) -> bool {
        let n = self.scenario.clients;
        let client = |c: ClientId| c.0 < n;
        let node = |node: NodeId| match node {
            NodeId::Client(c) => client(c),
            NodeId::Service | NodeId::Storage => true,
        };
        let packets = self.events.len() as u32;
        let msg = |m: &Message| m.token().is_none_or(|t| t.0 < u64::MAX / 2);
        node(e.node)
            && match e.kind {
                EventKind::Sent { id, to, msg: m, .. }
                | EventKind::Dropped { id, to, msg: m, .. } => {
                    id.0 < packets && node(to) && msg(&m)
                }
                EventKind::Delivered { id, from, .. } => id.0 < packets && node(from),
                EventKind::Write(w) => client(w.client),
                EventKind::Fault { fault } => fault.names_known_nodes(n),
                EventKind::Service(ev) => match ev {
                    ServiceEvent::Granted { client: c, .. }
                    | ServiceEvent::Regranted { client: c, .. }
                    | ServiceEvent::Renewed { client: c, .. }
                    | ServiceEvent::Busy { client: c, .. }
                    | ServiceEvent::NotOwner { client: c, .. }
                    | ServiceEvent::Ended { client: c, .. } => client(c),
                },
                _ => true,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        Fault, FencingToken, MsgId, Policy, RunQuestions, WriteRecord, WriteVerdict,
    };

    fn scenario() -> Scenario {
        Scenario {
            clients: 2,
            duration: SimDuration::from_secs(60),
            ttl: SimDuration::from_secs(1),
            policy: Policy::prefer(),
            ..Scenario::default()
        }
    }

    fn event(ms: u64, node: NodeId, kind: EventKind) -> Event {
        Event {
            at: SimTime::from_millis(ms),
            node,
            kind,
        }
    }

    fn sample() -> LiveTrace {
        let a = NodeId::Client(ClientId::A);
        let write = Message::Write {
            token: FencingToken(1),
            seq: 1,
        };
        LiveTrace {
            scenario: scenario(),
            end: SimTime::from_secs(5),
            events: vec![
                event(
                    10,
                    NodeId::Service,
                    EventKind::Fault {
                        fault: Fault::RevokeLease,
                    },
                ),
                event(
                    20,
                    a,
                    EventKind::Sent {
                        id: MsgId(0),
                        to: NodeId::Storage,
                        msg: write,
                        deliver_at: SimTime::from_millis(40),
                    },
                ),
                event(
                    40,
                    NodeId::Storage,
                    EventKind::Delivered {
                        id: MsgId(0),
                        from: a,
                        sent_at: SimTime::from_millis(20),
                        msg: write,
                    },
                ),
                event(
                    40,
                    NodeId::Storage,
                    EventKind::Write(WriteRecord {
                        at: SimTime::from_millis(40),
                        client: ClientId::A,
                        token: FencingToken(1),
                        seq: 1,
                        verdict: WriteVerdict::Accepted,
                    }),
                ),
            ],
            freezes: vec![Freeze {
                at: SimTime::from_secs(2),
                asked: SimDuration::from_secs(3),
                measured: SimDuration::from_millis(3_004),
            }],
            hidden_at: None,
        }
    }

    #[test]
    fn a_recorded_run_survives_its_link_and_replays_to_the_same_trace() {
        let trace = sample();
        let link = trace.to_link().expect("small enough");
        assert!(link
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        let back = LiveTrace::from_link(&link).expect("reads back");
        assert_eq!(back, trace);
        assert_eq!(back.replay().trace_hash(), trace.replay().trace_hash());
        assert_eq!(back.replay().storage_log().len(), 1);
    }

    #[test]
    fn a_link_naming_a_client_the_scenario_lacks_is_refused() {
        let mut trace = sample();
        trace
            .events
            .push(event(50, NodeId::Client(ClientId(5)), EventKind::Crashed));
        let link = trace.to_link().unwrap();
        assert_eq!(LiveTrace::from_link(&link), Err(TraceRefusal::Inconsistent));
    }

    #[test]
    fn garbage_and_oversized_fields_are_refused_without_panicking() {
        assert_eq!(LiveTrace::from_link("!!"), Err(TraceRefusal::Unreadable));
        assert_eq!(LiveTrace::from_link("AAAA"), Err(TraceRefusal::Unreadable));
        let long = "A".repeat(MAX_LINK_CHARS + 1);
        assert_eq!(LiveTrace::from_link(&long), Err(TraceRefusal::TooLong));
        let link = sample().to_link().unwrap();
        for cut in [1, link.len() / 2, link.len() - 1] {
            assert!(LiveTrace::from_link(&link[..cut]).is_err());
        }
    }

    #[test]
    fn a_run_too_long_for_a_link_says_so() {
        let mut trace = sample();
        let mut rng = crate::model::SimRng::new(9);
        // Incompressible: every write at a random microsecond with a random token.
        trace.events = (0..20_000u64)
            .map(|i| {
                let at = i * 200 + rng.up_to(199);
                Event {
                    at: SimTime(at),
                    node: NodeId::Storage,
                    kind: EventKind::Write(WriteRecord {
                        at: SimTime(at),
                        client: ClientId::A,
                        token: FencingToken(rng.up_to(1 << 40)),
                        seq: rng.up_to(1 << 30) as u32,
                        verdict: WriteVerdict::Rejected {
                            highest: FencingToken(rng.up_to(1 << 40)),
                        },
                    }),
                }
            })
            .collect();
        assert_eq!(trace.to_link(), Err(TraceRefusal::TooLong));
    }
}
