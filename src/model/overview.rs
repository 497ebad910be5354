//! The whole run at the timeline's resolution: what a lane shows, kept in a bounded number
//! of time buckets so its size does not grow with the run. Marks falling in one bucket are
//! merged (their first time is kept), spans closer than a bucket are joined, and of the
//! failovers whose grant falls in one bucket the longest is kept.
//!
//! A bucket starts a microsecond wide and doubles whenever the run outgrows [`BUCKETS`]
//! of them, so a run is bucketed for the length it reached: a long run the learner stops
//! early draws as finely as a short run of that length, not at the long run's resolution.

use super::check::{Failover, Found};
use super::client::Lifecycle;
use super::ids::{ClientId, FencingToken, NodeId};
use super::msg::Message;
use super::reader::RunQuestions;
use super::service::ServiceEvent;
use super::storage::WriteVerdict;
use super::time::SimTime;
use super::trace::{Event, EventKind};

/// The most buckets a run is cut into (at least half as many once it outgrows the first
/// ones): finer than the timeline can draw.
pub const BUCKETS: u64 = 640;

/// Kinds of point marks on a client's lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A renew left the client.
    RenewSent,
    /// A renew was dropped.
    RenewDropped,
    /// A RenewOk reached the client.
    RenewOk,
    /// A NotOwner reached the client.
    RenewRefused,
    /// Storage accepted one of its writes.
    WriteAccepted,
    /// Storage accepted one of its writes although a higher token was stored.
    WriteStale,
    /// The fence rejected one of its writes.
    WriteRejected,
    /// The client's lost flag was set.
    Lost,
}

impl Mark {
    /// Every kind, in drawing order.
    pub const ALL: [Mark; 8] = [
        Mark::RenewSent,
        Mark::RenewDropped,
        Mark::RenewOk,
        Mark::RenewRefused,
        Mark::WriteAccepted,
        Mark::WriteStale,
        Mark::WriteRejected,
        Mark::Lost,
    ];
    fn index(self) -> usize {
        self as usize
    }
}

/// Marks of one kind that fell in one bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkGroup {
    /// The first one's time.
    pub first: SimTime,
    /// How many fell in this bucket (over the whole run).
    pub count: u32,
    /// The first one's token, where the mark has one.
    pub token: Option<FencingToken>,
}

/// A stretch of time on a lane (a lease at the service, a belief, a pause).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// Whose.
    pub client: ClientId,
    /// The token, for a lease at the service.
    pub token: Option<FencingToken>,
    /// Start.
    pub from: SimTime,
    /// End, if it ended.
    pub until: Option<SimTime>,
}

impl Span {
    /// Whether `next` starts less than a bucket after this one ended, and either is the same
    /// client's or follows a span too short to draw apart.
    fn joins(&self, next: &Span, width: u64) -> bool {
        self.until.is_some_and(|until| {
            let near = next.from.saturating_since(until).0 < width;
            let short = until.saturating_since(self.from).0 < width;
            near && (self.client == next.client || short)
        })
    }
    /// This span drawn through to the end of `next`, as `next`'s client's.
    fn joined(&self, next: Span) -> Span {
        Span {
            client: next.client,
            token: self
                .token
                .filter(|_| self.client == next.client)
                .or(next.token),
            from: self.from,
            until: next.until,
        }
    }
}

/// Spans of one lane, joined when closer than a bucket.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans {
    spans: Vec<Span>,
}

impl Spans {
    /// The spans, in start order.
    pub fn all(&self) -> &[Span] {
        &self.spans
    }
    fn open(&mut self, width: u64, client: ClientId, token: Option<FencingToken>, at: SimTime) {
        let span = Span {
            client,
            token,
            from: at,
            until: None,
        };
        match self.spans.last_mut() {
            Some(last) if last.joins(&span, width) => *last = last.joined(span),
            _ => self.spans.push(span),
        }
    }
    /// Joins again the spans that are closer than a wider bucket.
    fn rejoin(&mut self, width: u64) {
        let mut joined: Vec<Span> = Vec::with_capacity(self.spans.len());
        for span in self.spans.drain(..) {
            match joined.last_mut() {
                Some(last) if last.joins(&span, width) => *last = last.joined(span),
                _ => joined.push(span),
            }
        }
        self.spans = joined;
    }
    /// Ends the latest open span carrying `token` (or, failing that, the earliest open one).
    fn close(&mut self, token: Option<FencingToken>, at: SimTime) {
        let open = |s: &&mut Span| s.until.is_none();
        let found = match self
            .spans
            .iter_mut()
            .rev()
            .filter(open)
            .find(|s| token.is_none() || s.token == token)
        {
            Some(span) => Some(span),
            None => self.spans.iter_mut().find(|s| s.until.is_none()),
        };
        if let Some(span) = found {
            span.until = Some(at.max(span.from));
        }
    }
    /// Cuts every span that runs past `at` (a crash ends a pause).
    fn cut(&mut self, at: SimTime) {
        for span in self.spans.iter_mut().rev().take(2) {
            if span.from <= at && span.until.is_none_or(|u| u > at) {
                span.until = Some(at);
            }
        }
    }
}

/// The failovers whose grant fell in one bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailoverGroup {
    /// The longest of them (the earliest of equally long ones).
    pub longest: Failover,
    /// How many there were.
    pub count: u32,
}

/// One client's lane.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientLane {
    /// When it believed it held the lease.
    pub believed: Spans,
    /// When it was paused.
    pub paused: Spans,
    /// When it crashed, if it did.
    pub crashed_at: Option<SimTime>,
    marks: [Vec<(u64, MarkGroup)>; 8],
    believes: bool,
}

impl ClientLane {
    /// The groups of one mark kind, in time order.
    pub fn marks(&self, mark: Mark) -> impl Iterator<Item = &MarkGroup> {
        self.marks[mark.index()].iter().map(|(_, group)| group)
    }
    /// Merges the marks and spans of each pair of buckets into one bucket `width` wide.
    fn coarsen(&mut self, width: u64) {
        for groups in &mut self.marks {
            let mut merged: Vec<(u64, MarkGroup)> = Vec::with_capacity(groups.len());
            for (bucket, group) in groups.drain(..) {
                match merged.last_mut() {
                    Some((b, kept)) if *b == bucket / 2 => kept.count += group.count,
                    _ => merged.push((bucket / 2, group)),
                }
            }
            *groups = merged;
        }
        self.believed.rejoin(width);
        self.paused.rejoin(width);
    }
    fn mark(&mut self, bucket: u64, mark: Mark, at: SimTime, token: Option<FencingToken>) {
        let groups = &mut self.marks[mark.index()];
        match groups.last_mut() {
            Some((b, group)) if *b == bucket => group.count += 1,
            _ => groups.push((
                bucket,
                MarkGroup {
                    first: at,
                    count: 1,
                    token,
                },
            )),
        }
    }
}

/// The whole run's lanes at bucket resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overview {
    width: u64,
    /// Who held the lease at the service, and with which token.
    pub tenures: Spans,
    /// One lane per client.
    pub clients: Vec<ClientLane>,
    /// The failovers, at most one group per bucket, in time order.
    failovers: Vec<FailoverGroup>,
}

impl Overview {
    /// An empty overview of a run of `clients` clients.
    pub fn new(clients: u8) -> Overview {
        Overview {
            width: 1,
            tenures: Spans::default(),
            clients: vec![ClientLane::default(); usize::from(clients)],
            failovers: Vec::new(),
        }
    }

    /// The lanes of a run held as its whole trace.
    pub fn of_run(run: &super::run::Run) -> Overview {
        let mut overview = Overview::new(run.scenario().clients);
        for (e, found) in run.events().iter().zip(run.found()) {
            overview.add(e, *found);
        }
        for f in run.failovers() {
            overview.add_failover(f);
        }
        overview
    }

    /// Adds one failover the checkers found; failovers come in the order of their grants.
    pub fn add_failover(&mut self, f: &Failover) {
        self.widen_to(f.granted_at);
        let bucket = f.granted_at.0 / self.width;
        match self.failovers.last_mut() {
            Some(group) if group.longest.granted_at.0 / self.width == bucket => {
                group.count += 1;
                if f.duration() > group.longest.duration() {
                    group.longest = *f;
                }
            }
            _ => self.failovers.push(FailoverGroup {
                longest: *f,
                count: 1,
            }),
        }
    }

    /// Doubles the buckets' width until `t` falls within [`BUCKETS`] of them.
    fn widen_to(&mut self, t: SimTime) {
        while t.0 / self.width >= BUCKETS {
            self.width *= 2;
            let width = self.width;
            self.tenures.rejoin(width);
            for lane in &mut self.clients {
                lane.coarsen(width);
            }
            let mut merged: Vec<FailoverGroup> = Vec::with_capacity(self.failovers.len());
            for group in self.failovers.drain(..) {
                match merged.last_mut() {
                    Some(kept)
                        if kept.longest.granted_at.0 / width
                            == group.longest.granted_at.0 / width =>
                    {
                        kept.count += group.count;
                        if group.longest.duration() > kept.longest.duration() {
                            kept.longest = group.longest;
                        }
                    }
                    _ => merged.push(group),
                }
            }
            self.failovers = merged;
        }
    }

    /// The failover groups whose longest failover's grant came at or before `t`.
    pub fn failovers_until(&self, t: SimTime) -> &[FailoverGroup] {
        let shown = self
            .failovers
            .partition_point(|g| g.longest.granted_at <= t);
        &self.failovers[..shown]
    }

    /// Adds one event of the trace, with what the checkers found at it.
    pub fn add(&mut self, e: &Event, found: Found) {
        self.widen_to(e.at);
        let width = self.width;
        let bucket = e.at.0 / width;
        let NodeId::Client(c) = e.node else {
            match e.kind {
                EventKind::Service(ServiceEvent::Granted { client, token, .. }) => {
                    self.tenures.open(width, client, Some(token), e.at)
                }
                EventKind::Service(ServiceEvent::Ended { token, .. }) => {
                    self.tenures.close(Some(token), e.at)
                }
                EventKind::Write(w) => {
                    let mark = match w.verdict {
                        WriteVerdict::Accepted if found.stale_over().is_some() => Mark::WriteStale,
                        WriteVerdict::Accepted => Mark::WriteAccepted,
                        WriteVerdict::Rejected { .. } => Mark::WriteRejected,
                    };
                    if let Some(lane) = self.clients.get_mut(w.client.index()) {
                        lane.mark(bucket, mark, e.at, Some(w.token));
                    }
                }
                _ => {}
            }
            return;
        };
        let Some(lane) = self.clients.get_mut(c.index()) else {
            return;
        };
        match e.kind {
            EventKind::Sent {
                msg: Message::Renew { token, .. },
                ..
            } => lane.mark(bucket, Mark::RenewSent, e.at, Some(token)),
            EventKind::Dropped {
                msg: Message::Renew { token, .. },
                ..
            } => lane.mark(bucket, Mark::RenewDropped, e.at, Some(token)),
            EventKind::Delivered {
                msg: Message::RenewOk { token, .. },
                ..
            } => lane.mark(bucket, Mark::RenewOk, e.at, Some(token)),
            EventKind::Delivered {
                msg: Message::NotOwner { token, .. },
                ..
            } => lane.mark(bucket, Mark::RenewRefused, e.at, Some(token)),
            EventKind::Lifecycle { to, token } => {
                if let Lifecycle::Lost(_) = to {
                    lane.mark(bucket, Mark::Lost, e.at, token);
                }
                let believes = to.believes_holding();
                if believes && !lane.believes {
                    lane.believed.open(width, c, None, e.at);
                } else if !believes && lane.believes {
                    lane.believed.close(None, e.at);
                }
                lane.believes = believes;
            }
            EventKind::Paused { until, .. } => {
                lane.paused.open(width, c, None, e.at);
                lane.paused.close(None, until);
            }
            EventKind::Crashed => {
                lane.paused.cut(e.at);
                lane.crashed_at.get_or_insert(e.at);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::time::SimDuration;

    #[test]
    fn a_failover_every_100_ms_for_an_hour_keeps_one_per_bucket_the_longest() {
        let end = SimTime::ZERO + SimDuration::from_secs(3_600);
        let mut view = Overview::new(2);
        let mut all = Vec::new();
        for i in 0..36_000u64 {
            let granted_at = SimTime::from_millis(100 * (i + 1));
            // Lengths from 1 to 97 ms in a scrambled order, so the longest is anywhere.
            let took = SimDuration::from_millis(1 + (i * 37) % 97);
            let f = Failover {
                from: ClientId(i as u8 % 2),
                to: ClientId(1 - i as u8 % 2),
                last_effective: SimTime(granted_at.0 - took.0),
                granted_at,
            };
            view.add_failover(&f);
            all.push(f);
        }
        let kept = view.failovers_until(end);
        assert!(kept.len() as u64 <= BUCKETS, "{} groups", kept.len());
        assert!(kept.len() as u64 > BUCKETS / 4, "{} groups", kept.len());
        assert_eq!(kept.iter().map(|g| g.count).sum::<u32>(), 36_000);
        for pair in kept.windows(2) {
            assert!(pair[0].longest.granted_at < pair[1].longest.granted_at);
        }
        // Each group holds the longest failover of the ones granted in its bucket.
        let width = view.width;
        assert!(end.0 / width < BUCKETS && end.0 / width >= BUCKETS / 2);
        for g in kept {
            let bucket = g.longest.granted_at.0 / width;
            let longest_there = all
                .iter()
                .filter(|f| f.granted_at.0 / width == bucket)
                .map(|f| f.duration())
                .max();
            assert_eq!(Some(g.longest.duration()), longest_there);
        }
        let half = SimTime(end.0 / 2);
        assert!(view.failovers_until(half).len() < kept.len());
        assert!(view
            .failovers_until(half)
            .iter()
            .all(|g| g.longest.granted_at <= half));
    }
}
