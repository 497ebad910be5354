//! The live run's network, sans-IO: every packet a live node sends waits here for its
//! latency before the node's shell posts it (str0m's netem shape). Latency is the scenario's
//! RTT/2 plus a uniform jitter and loss, drawn from a seeded generator exactly as the model's
//! network draws them ([`LinkConfig`]); packets sit in a min-heap keyed by (due time,
//! sequence number), so ties break the same way every time. The time is always an argument.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::Stamp;
use crate::model::{DropReason, LinkConfig, SimDuration, SimRng};

struct Pending<T> {
    due: Stamp,
    seq: u64,
    item: T,
}

impl<T> PartialEq for Pending<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.due, self.seq) == (other.due, other.seq)
    }
}
impl<T> Eq for Pending<T> {}
impl<T> PartialOrd for Pending<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Pending<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.due, self.seq).cmp(&(other.due, other.seq))
    }
}

/// One direction of one link: the packets waiting for their latency.
pub struct DelayQueue<T> {
    link: LinkConfig,
    rng: SimRng,
    heap: BinaryHeap<Reverse<Pending<T>>>,
    seq: u64,
    down_until: Option<Stamp>,
}

impl<T> DelayQueue<T> {
    /// An empty queue for a link of this shape, drawing from `rng`.
    pub fn new(link: LinkConfig, rng: SimRng) -> Self {
        DelayQueue {
            link,
            rng,
            heap: BinaryHeap::new(),
            seq: 0,
            down_until: None,
        }
    }

    /// Takes the link down until `until`: packets sent or due before then are dropped.
    pub fn take_down(&mut self, until: Stamp) {
        self.down_until = Some(self.down_until.map_or(until, |u| u.max(until)));
    }

    fn is_down(&self, at: Stamp) -> bool {
        self.down_until.is_some_and(|u| at < u)
    }

    /// Sends `item` at `now` with `extra` delay on top of the link's latency: `Ok(due)`, or
    /// the item back with the reason it is lost at once.
    pub fn push(
        &mut self,
        now: Stamp,
        item: T,
        extra: SimDuration,
    ) -> Result<Stamp, (T, DropReason)> {
        let mut latency = self.link.latency + extra;
        if !self.link.jitter.is_zero() {
            latency = latency + SimDuration(self.rng.up_to(self.link.jitter.0));
        }
        if self.is_down(now) {
            return Err((item, DropReason::LinkDown));
        }
        if self.rng.chance_ppm(self.link.loss_ppm) {
            return Err((item, DropReason::Lost));
        }
        let due = now.plus(latency);
        self.seq += 1;
        self.heap.push(Reverse(Pending {
            due,
            seq: self.seq,
            item,
        }));
        Ok(due)
    }

    /// When the next packet is due, if any.
    pub fn poll_timeout(&self) -> Option<Stamp> {
        self.heap.peek().map(|p| p.0.due)
    }

    /// The next packet due at or before `now`, with `Err` when the link is down as it falls due.
    pub fn pop_due(&mut self, now: Stamp) -> Option<Result<T, (T, DropReason)>> {
        if self.poll_timeout()? > now {
            return None;
        }
        let Pending { due, item, .. } = self.heap.pop()?.0;
        Some(if self.is_down(due) {
            Err((item, DropReason::LinkDown))
        } else {
            Ok(item)
        })
    }

    /// How many packets are waiting.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when nothing waits.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(latency_ms: u64, jitter_ms: u64, loss_ppm: u32) -> LinkConfig {
        LinkConfig {
            latency: SimDuration::from_millis(latency_ms),
            jitter: SimDuration::from_millis(jitter_ms),
            loss_ppm,
        }
    }

    fn at_ms(ms: u64) -> Stamp {
        Stamp(1_700_000_000_000_000 + ms * 1_000)
    }

    #[test]
    fn a_packet_waits_its_latency_and_ties_leave_in_send_order() {
        let mut q = DelayQueue::new(link(40, 0, 0), SimRng::new(1));
        assert_eq!(q.push(at_ms(0), "first", SimDuration::ZERO), Ok(at_ms(40)));
        assert_eq!(q.push(at_ms(0), "second", SimDuration::ZERO), Ok(at_ms(40)));
        assert_eq!(q.pop_due(at_ms(39)), None);
        assert_eq!(q.pop_due(at_ms(40)), Some(Ok("first")));
        assert_eq!(q.pop_due(at_ms(40)), Some(Ok("second")));
        assert!(q.is_empty());
    }

    #[test]
    fn a_late_reader_gets_every_overdue_packet_oldest_first() {
        let mut q = DelayQueue::new(link(10, 0, 0), SimRng::new(1));
        q.push(at_ms(5), 'b', SimDuration::ZERO).unwrap();
        q.push(at_ms(0), 'a', SimDuration::ZERO).unwrap();
        q.push(at_ms(1), 'x', SimDuration::from_millis(100))
            .unwrap();
        // The reader was frozen until 500 ms: everything is overdue.
        let order: Vec<char> = std::iter::from_fn(|| q.pop_due(at_ms(500)))
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(order, ['a', 'b', 'x']);
    }

    #[test]
    fn jitter_stays_inside_its_bound_and_the_same_seed_draws_the_same_delays() {
        let draw = |seed| {
            let mut q = DelayQueue::new(link(20, 30, 0), SimRng::new(seed));
            (0..200)
                .map(|i| q.push(at_ms(i), i, SimDuration::ZERO).unwrap().0 - at_ms(i).0)
                .collect::<Vec<u64>>()
        };
        let delays = draw(7);
        assert!(delays.iter().all(|&d| (20_000..=50_000).contains(&d)));
        assert!(delays.iter().any(|&d| d != delays[0]), "jitter varies");
        assert_eq!(delays, draw(7));
        assert_ne!(delays, draw(8));
    }

    #[test]
    fn loss_drops_about_its_share() {
        let mut q = DelayQueue::new(link(1, 0, 250_000), SimRng::new(3));
        let lost = (0..4_000)
            .filter(|&i| q.push(at_ms(i), i, SimDuration::ZERO).is_err())
            .count();
        assert!((800..1_200).contains(&lost), "{lost} of 4000 lost at 25 %");
    }

    #[test]
    fn a_link_down_drops_what_is_sent_and_what_falls_due_while_it_is_down() {
        let mut q = DelayQueue::new(link(50, 0, 0), SimRng::new(1));
        q.push(at_ms(0), "in flight", SimDuration::ZERO).unwrap();
        q.take_down(at_ms(100));
        assert_eq!(
            q.push(at_ms(20), "sent while down", SimDuration::ZERO),
            Err(("sent while down", DropReason::LinkDown))
        );
        assert_eq!(
            q.pop_due(at_ms(60)),
            Some(Err(("in flight", DropReason::LinkDown)))
        );
        q.push(at_ms(100), "after", SimDuration::ZERO).unwrap();
        assert_eq!(q.pop_due(at_ms(150)), Some(Ok("after")));
    }
}
