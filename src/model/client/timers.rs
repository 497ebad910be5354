//! A client's armed timers. The world asks for the earliest after every input the client
//! handles, so they are kept as a small array with a bit mask of the armed ones and of those
//! on the wall clock: with monotonic timers only (every Prefer policy), the earliest is a
//! minimum over a few integers, with no clock conversion.

use super::{Deadline, TimerKind, TIMERS};
use crate::model::time::{ClockKind, LocalNow, LocalTime};

/// The reading of a disarmed timer.
const NEVER: LocalTime = LocalTime(i64::MAX);

/// At most one deadline per [`TimerKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Timers {
    /// Each armed timer's deadline reading, on the clock its bit in `on_wall` names;
    /// `NEVER` for a disarmed one, so that it never wins a minimum.
    at: [LocalTime; TIMERS.len()],
    /// Bit `i`: timer `i` is armed.
    armed: u8,
    /// Bit `i`: timer `i` is on the wall clock (else on the monotonic clock).
    on_wall: u8,
}

impl Timers {
    /// No timer armed.
    pub(super) const fn new() -> Self {
        Timers {
            at: [NEVER; TIMERS.len()],
            armed: 0,
            on_wall: 0,
        }
    }

    /// Arms `t` at `d`, replacing its earlier deadline.
    #[inline]
    pub(super) fn set(&mut self, t: TimerKind, d: Deadline) {
        let bit = 1 << t as usize;
        self.at[t as usize] = d.at;
        self.armed |= bit;
        match d.clock {
            ClockKind::Monotonic => self.on_wall &= !bit,
            ClockKind::Wall => self.on_wall |= bit,
        }
    }

    /// Disarms `t`.
    #[inline]
    pub(super) fn clear(&mut self, t: TimerKind) {
        self.armed &= !(1 << t as usize);
        self.at[t as usize] = NEVER;
    }

    /// Disarms every timer.
    #[inline]
    pub(super) fn clear_all(&mut self) {
        *self = Timers::new();
    }

    /// `t`'s deadline, if armed.
    #[inline]
    pub(super) fn get(&self, t: TimerKind) -> Option<Deadline> {
        self.deadline(t as usize)
    }

    /// `t`'s deadline, if armed, disarming it.
    #[inline]
    pub(super) fn take(&mut self, t: TimerKind) -> Option<Deadline> {
        let d = self.get(t);
        self.clear(t);
        d
    }

    #[inline]
    fn deadline(&self, i: usize) -> Option<Deadline> {
        (self.armed & (1 << i) != 0).then(|| Deadline {
            clock: self.clock(i),
            at: self.at[i],
        })
    }

    /// The earliest deadline, as a reading of the monotonic clock (wall deadlines converted
    /// with the clocks' relation at `now`).
    #[inline]
    pub(super) fn earliest(&self, now: LocalNow) -> Option<LocalTime> {
        if self.armed == 0 {
            return None;
        }
        if self.on_wall & self.armed == 0 {
            return self.at.iter().copied().min();
        }
        (0..TIMERS.len())
            .filter_map(|i| self.deadline(i))
            .map(|d| now.to_mono(d.clock, d.at))
            .min()
    }

    /// The timer to fire at `now`: of those whose deadline has passed, the one that fell due
    /// first, as a monotonic reading (the lowest kind of equal ones).
    #[inline]
    pub(super) fn due(&self, now: LocalNow) -> Option<TimerKind> {
        if self.on_wall & self.armed == 0 {
            // The first of the earliest deadlines, if it has passed (disarmed ones read
            // `NEVER`, which no clock reaches).
            let earliest = self.at.iter().copied().min()?;
            if earliest > now.mono {
                return None;
            }
            let i = self.at.iter().position(|&at| at == earliest)?;
            return (self.armed & (1 << i) != 0).then_some(TIMERS[i]);
        }
        let mut best: Option<(LocalTime, usize)> = None;
        for i in 0..TIMERS.len() {
            let Some(d) = self.deadline(i) else { continue };
            if d.passed(now) {
                let m = now.to_mono(d.clock, d.at);
                if best.is_none_or(|(b, _)| m < b) {
                    best = Some((m, i));
                }
            }
        }
        best.map(|(_, i)| TIMERS[i])
    }

    #[inline]
    fn clock(&self, i: usize) -> ClockKind {
        if self.on_wall & (1 << i) == 0 {
            ClockKind::Monotonic
        } else {
            ClockKind::Wall
        }
    }
}
