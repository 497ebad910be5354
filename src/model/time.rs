//! Simulation time and each node's own clocks. Never reads a real clock: every reading is a
//! pure function of the shared simulation time and the clock's parameters.
//!
//! Real simulation time ([`SimTime`]) is the only shared truth. A node sees only its own
//! [`LocalNow`]: a monotonic reading (which may drift, in parts per million) and a wall
//! reading = epoch + monotonic + offset, where the offset moves by NTP steps (the formula of
//! TigerBeetle's `testing/time.zig`).

use core::fmt;
use core::ops::{Add, AddAssign, Sub};

/// A point in real simulation time, in microseconds since the scenario started.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct SimTime(pub u64);

/// A length of time in microseconds (real simulation time, or on one node's clock).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct SimDuration(pub u64);

impl SimDuration {
    /// Zero length.
    pub const ZERO: SimDuration = SimDuration(0);
    /// A duration of `us` microseconds.
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us)
    }
    /// A duration of `ms` milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000)
    }
    /// A duration of `s` seconds.
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * 1_000_000)
    }
    /// The length in microseconds.
    pub const fn as_micros(self) -> u64 {
        self.0
    }
    /// True for a zero length.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
    /// The length in whole milliseconds (rounded down).
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000
    }
    /// `self × num / den`, rounded down, computed without overflow; `den` must not be zero.
    pub const fn mul_ratio(self, num: u64, den: u64) -> Self {
        match self.0.checked_mul(num) {
            Some(p) => SimDuration(p / den),
            None => SimDuration(((self.0 as u128 * num as u128) / den as u128) as u64),
        }
    }
    /// `self × num / den` to the nearest microsecond (halves up), for lengths that are stated
    /// rather than simulated (T/3 said as 166.667 ms); `den` must not be zero.
    pub const fn mul_ratio_rounded(self, num: u64, den: u64) -> Self {
        let exact = self.0 as u128 * num as u128;
        let rounded = (exact + den as u128 / 2) / den as u128;
        SimDuration(if rounded > u64::MAX as u128 {
            u64::MAX
        } else {
            rounded as u64
        })
    }
    /// Seconds as a float, for display only (the model never computes with floats).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
}

impl SimTime {
    /// The start of every scenario.
    pub const ZERO: SimTime = SimTime(0);
    /// The time `us` microseconds after the start.
    pub const fn from_micros(us: u64) -> Self {
        SimTime(us)
    }
    /// The time `ms` milliseconds after the start.
    pub const fn from_millis(ms: u64) -> Self {
        SimTime(ms * 1_000)
    }
    /// The time `s` seconds after the start.
    pub const fn from_secs(s: u64) -> Self {
        SimTime(s * 1_000_000)
    }
    /// Microseconds since the start.
    pub const fn as_micros(self) -> u64 {
        self.0
    }
    /// Seconds as a float, for display only.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// The time elapsed since `earlier`, or zero if `earlier` is later.
    pub const fn saturating_since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}
impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}
impl Sub<SimTime> for SimTime {
    type Output = SimDuration;
    /// Saturating difference: zero when `rhs` is later.
    fn sub(self, rhs: SimTime) -> SimDuration {
        self.saturating_since(rhs)
    }
}
impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(d.0))
    }
}
impl Sub for SimDuration {
    type Output = SimDuration;
    /// Saturating difference: zero when `rhs` is longer.
    fn sub(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(d.0))
    }
}

fn fmt_micros(f: &mut fmt::Formatter<'_>, us: i128) -> fmt::Result {
    let sign = if us < 0 { "-" } else { "" };
    let us = us.unsigned_abs();
    let ms = us / 1_000;
    let frac = us % 1_000;
    if ms >= 1_000 {
        let s = ms / 1_000;
        let ms_part = ms % 1_000;
        if frac == 0 {
            write!(f, "{sign}{s}.{ms_part:03} s")
        } else {
            write!(f, "{sign}{s}.{ms_part:03}{frac:03} s")
        }
    } else if frac == 0 {
        write!(f, "{sign}{ms} ms")
    } else {
        write!(f, "{sign}{ms}.{frac:03} ms")
    }
}

impl fmt::Display for SimTime {
    /// `12.345 s` or `250 ms`: how the views and explanations print times.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_micros(f, self.0 as i128)
    }
}
impl fmt::Display for SimDuration {
    /// `12.345 s` or `250 ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_micros(f, self.0 as i128)
    }
}

/// A reading of one node's own clock, in microseconds. Monotonic readings start at zero
/// when the scenario starts; wall readings start at [`WALL_EPOCH`] plus the node's skew.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct LocalTime(pub i64);

/// The wall-clock reading (µs) of a node with no skew at the start of every scenario.
/// It is far enough from zero that any valid NTP step keeps wall readings positive.
pub const WALL_EPOCH: LocalTime = LocalTime(1_000_000_000_000);

impl Add<SimDuration> for LocalTime {
    type Output = LocalTime;
    fn add(self, d: SimDuration) -> LocalTime {
        LocalTime(self.0.saturating_add(d.0 as i64))
    }
}
impl Sub<SimDuration> for LocalTime {
    type Output = LocalTime;
    fn sub(self, d: SimDuration) -> LocalTime {
        LocalTime(self.0.saturating_sub(d.0 as i64))
    }
}

impl fmt::Display for LocalTime {
    /// Monotonic readings print as times since start; wall readings relative to the epoch.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= WALL_EPOCH.0 / 2 {
            f.write_str("wall ")?;
            fmt_micros(f, (self.0 - WALL_EPOCH.0) as i128)
        } else {
            fmt_micros(f, self.0 as i128)
        }
    }
}

/// Which of a node's two clocks something is measured on.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum ClockKind {
    /// The monotonic clock: never jumps, may drift. The right clock for intervals.
    #[default]
    Monotonic,
    /// The wall (time-of-day) clock: moved by NTP steps. The wrong clock for intervals.
    Wall,
}

/// Both of a node's clock readings at one instant: everything a node knows about "now".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LocalNow {
    /// The monotonic reading.
    pub mono: LocalTime,
    /// The wall reading.
    pub wall: LocalTime,
}

impl LocalNow {
    /// The reading of the chosen clock.
    #[inline]
    pub fn read(self, clock: ClockKind) -> LocalTime {
        match clock {
            ClockKind::Monotonic => self.mono,
            ClockKind::Wall => self.wall,
        }
    }
    /// Converts a deadline on `clock` to the monotonic reading at which it falls, assuming
    /// the wall offset does not move before then (a node's only way to set a timer).
    #[inline]
    pub fn to_mono(self, clock: ClockKind, at: LocalTime) -> LocalTime {
        match clock {
            ClockKind::Monotonic => at,
            ClockKind::Wall => LocalTime(at.0.saturating_sub(self.wall.0 - self.mono.0)),
        }
    }
}

/// Largest drift rate the model accepts, in parts per million (±10 %).
pub const MAX_DRIFT_PPM: i32 = 100_000;

/// One node's clocks as a function of real time: piecewise linear monotonic time with a
/// drift rate, plus a wall offset that NTP steps move. Re-anchored whenever a fault changes
/// its rate, so readings stay exact integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodeClock {
    anchor_real: u64,
    anchor_mono: i64,
    drift_ppm: i32,
    wall_offset: i64,
}

impl NodeClock {
    /// A clock that reads monotonic 0 and wall [`WALL_EPOCH`] at the start, with no drift.
    pub const fn new() -> Self {
        NodeClock {
            anchor_real: 0,
            anchor_mono: 0,
            drift_ppm: 0,
            wall_offset: 0,
        }
    }

    /// The current drift rate in parts per million (positive = runs fast).
    pub fn drift_ppm(&self) -> i32 {
        self.drift_ppm
    }

    /// The wall clock's offset from epoch + monotonic, in microseconds.
    pub fn wall_offset_micros(&self) -> i64 {
        self.wall_offset
    }

    /// The monotonic reading at real time `t` (which must not precede the last re-anchor).
    #[inline]
    pub fn mono_at(&self, t: SimTime) -> LocalTime {
        let dt = t.0.saturating_sub(self.anchor_real) as i64;
        if self.drift_ppm == 0 {
            LocalTime(self.anchor_mono + dt)
        } else {
            // dt ≤ 2⁴³ µs and |ppm| ≤ 10⁵ keep the product far inside i64.
            let extra = (dt.min(1 << 43) * self.drift_ppm as i64).div_euclid(1_000_000);
            LocalTime(self.anchor_mono + dt + extra)
        }
    }

    /// Both readings at real time `t`.
    #[inline]
    pub fn now(&self, t: SimTime) -> LocalNow {
        let mono = self.mono_at(t);
        LocalNow {
            mono,
            wall: LocalTime(WALL_EPOCH.0 + mono.0 + self.wall_offset),
        }
    }

    /// The earliest real time (not before the anchor) at which the monotonic clock reads at
    /// least `m`. The world uses it to turn a node's timer into a simulation event.
    #[inline]
    pub fn real_at_mono(&self, m: LocalTime) -> SimTime {
        if m.0 <= self.anchor_mono {
            return SimTime(self.anchor_real);
        }
        let dl = (m.0 - self.anchor_mono).min(1 << 43);
        if self.drift_ppm == 0 {
            return SimTime(self.anchor_real + dl as u64);
        }
        // mono(anchor + d) = anchor_mono + ⌊d·rate/10⁶⌋, so the first d reaching dl is
        // ⌈dl·10⁶/rate⌉ exactly.
        // dl ≤ 2⁴³, so dl·10⁶ + rate stays below i64::MAX (no 128-bit division, which
        // wasm lacks).
        let rate = 1_000_000 + self.drift_ppm as i64;
        let d = (dl * 1_000_000 + rate - 1) / rate;
        SimTime(self.anchor_real + d as u64)
    }

    /// From real time `t` on, the monotonic clock runs at `ppm` parts per million off.
    pub fn set_drift(&mut self, t: SimTime, ppm: i32) {
        let m = self.mono_at(t);
        self.anchor_real = t.0;
        self.anchor_mono = m.0;
        self.drift_ppm = ppm.clamp(-MAX_DRIFT_PPM, MAX_DRIFT_PPM);
    }

    /// Steps the wall clock by `by_micros` (negative = backwards), as NTP does. The
    /// monotonic clock is unaffected.
    pub fn step_wall(&mut self, by_micros: i64) {
        self.wall_offset = self.wall_offset.saturating_add(by_micros);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drifting_clock_round_trips_deadlines() {
        let mut c = NodeClock::new();
        c.set_drift(SimTime::from_secs(1), 250);
        for m in [
            0i64, 1, 999_999, 1_000_000, 1_000_001, 5_123_457, 90_000_000,
        ] {
            let t = c.real_at_mono(LocalTime(m));
            assert!(c.mono_at(t).0 >= m, "{m}");
            if t.0 > 1_000_000 {
                assert!(c.mono_at(SimTime(t.0 - 1)).0 < m, "{m}");
            }
        }
        // 250 ppm fast: after 1 s more of real time the clock has gained 250 µs.
        assert_eq!(c.mono_at(SimTime::from_secs(2)), LocalTime(2_000_250));
    }

    #[test]
    fn ntp_step_moves_only_the_wall_clock() {
        let mut c = NodeClock::new();
        let before = c.now(SimTime::from_secs(5));
        c.step_wall(-8_000_000);
        let after = c.now(SimTime::from_secs(5));
        assert_eq!(before.mono, after.mono);
        assert_eq!(after.wall.0, before.wall.0 - 8_000_000);
        assert_eq!(
            after.to_mono(ClockKind::Wall, before.wall),
            LocalTime(13_000_000)
        );
    }

    #[test]
    fn durations_print_for_people() {
        assert_eq!(SimDuration::from_millis(250).to_string(), "250 ms");
        assert_eq!(SimTime::from_millis(10_120).to_string(), "10.120 s");
        assert_eq!(SimDuration::from_micros(166_667).to_string(), "166.667 ms");
    }
}
