//! The canonical scenarios of the lesson as data (the sandbox's presets), and the
//! "use the defaults of…" parameter sets of real systems. Numbers follow `scenarios.md`;
//! the words around each preset live in `content/sandbox.toml`.

use std::sync::OnceLock;

use super::calc::{advise_ttl, TtlInputs};
use super::faults::{Fault, FaultPlan};
use super::ids::{ClientId, NodeId};
use super::policy::Policy;
use super::scenario::{Fraction, Scenario};
use super::time::{ClockKind, SimDuration, SimTime};

/// One preset: an id and a scenario. Its title, story, expected outcome and hint are words
/// for people, kept in `content/sandbox.toml` under the same id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Stable id used in share links and the content file ("2", "2-unfenced", "5a"…).
    pub id: &'static str,
    /// The scenario number in the lesson ("2", "5a"…).
    pub number: &'static str,
    /// The scenario.
    pub scenario: Scenario,
}

const A: ClientId = ClientId::A;
const NODE_A: NodeId = NodeId::Client(ClientId::A);

fn s(secs: u64) -> SimDuration {
    SimDuration::from_secs(secs)
}
fn ms(ms: u64) -> SimDuration {
    SimDuration::from_millis(ms)
}
fn at_ms(ms: u64) -> SimTime {
    SimTime::from_millis(ms)
}

/// T = 10 s, renew every T/3, token counter at 33, one write a second: the base of most presets.
fn classic() -> Scenario {
    Scenario {
        ttl: s(10),
        token_start: 33,
        duration: s(30),
        ..Scenario::default()
    }
}

fn unfenced(mut sc: Scenario) -> Scenario {
    sc.policy.fencing = false;
    sc
}

/// Scenario 1.
pub fn healthy_holder() -> Scenario {
    Scenario {
        ttl: s(30),
        duration: s(120),
        ..classic()
    }
}

/// Scenario 2 (fenced).
pub fn pause_in_write_path() -> Scenario {
    Scenario {
        faults: FaultPlan::none().with(
            at_ms(1_500),
            Fault::Pause {
                client: A,
                duration: s(15),
                in_write_path: true,
            },
        ),
        ..classic()
    }
}

/// Scenario 3 (Prefer).
pub fn pause_between_writes() -> Scenario {
    Scenario {
        faults: FaultPlan::none().with(
            at_ms(2_500),
            Fault::Pause {
                client: A,
                duration: s(15),
                in_write_path: false,
            },
        ),
        ..classic()
    }
}

fn trust_flag(mut sc: Scenario) -> Scenario {
    sc.policy.trust_flag_only = true;
    sc
}

/// Scenario 4.
pub fn blip_inside_budget() -> Scenario {
    Scenario {
        ttl: s(15),
        faults: FaultPlan::none().with(
            at_ms(4_500),
            Fault::Partition {
                a: NODE_A,
                b: NodeId::Service,
                duration: s(3),
            },
        ),
        ..classic()
    }
}

/// The client-go numbers: lease 15 s, renew deadline 10 s, retry every 2 s.
fn client_go() -> Scenario {
    Scenario {
        ttl: s(15),
        renew_every: Fraction { num: 2, den: 15 },
        drift_margin: s(5),
        retry_interval: s(2),
        acquire_retry: s(2),
        request_timeout: s(1),
        ..classic()
    }
}

/// Scenario 5a.
pub fn renew_deadline_fail_closed() -> Scenario {
    Scenario {
        faults: FaultPlan::none().with(
            SimTime::from_secs(1),
            Fault::Partition {
                a: NODE_A,
                b: NodeId::Service,
                duration: s(60),
            },
        ),
        ..client_go()
    }
}

/// Scenario 5b.
pub fn not_owner_is_definitive() -> Scenario {
    Scenario {
        duration: s(20),
        faults: FaultPlan::none().with(at_ms(3_500), Fault::RevokeLease),
        ..client_go()
    }
}

/// Scenario 6 (Prefer).
pub fn client_ntp_step() -> Scenario {
    Scenario {
        faults: FaultPlan::none().with(
            SimTime::from_secs(5),
            Fault::ClockStep {
                node: NODE_A,
                by_micros: -8_000_000,
            },
        ),
        ..classic()
    }
}

/// Scenario 7 (wall-clock expiry at the service).
pub fn service_clock_jump() -> Scenario {
    let mut sc = Scenario {
        duration: s(20),
        faults: FaultPlan::none().with(
            SimTime::from_secs(2),
            Fault::ClockStep {
                node: NodeId::Service,
                by_micros: 8_000_000,
            },
        ),
        ..classic()
    };
    sc.policy.service_expiry = ClockKind::Wall;
    sc
}

/// Scenario 8 (fenced).
pub fn delayed_write_packet() -> Scenario {
    Scenario {
        duration: s(110),
        faults: FaultPlan::none()
            .with(
                at_ms(7_500),
                Fault::DelayNextPacket {
                    from: NODE_A,
                    to: NodeId::Storage,
                    extra: s(90),
                },
            )
            .with(at_ms(8_500), Fault::Crash { client: A }),
        ..classic()
    }
}

/// Scenario 9: the lesson's numbers, the calculator's proposed T, and a 400 ms pause that
/// falls late in a renew period.
pub fn pitfall_exercise() -> Scenario {
    let advice = advise_ttl(TtlInputs::LESSON);
    Scenario {
        ttl: advice.proposed,
        duration: s(3),
        rtt: ms(20),
        work_slice: ms(200),
        request_timeout: ms(100),
        retry_interval: ms(50),
        acquire_retry: ms(20),
        drift_margin: ms(10),
        client_stagger: ms(10),
        faults: FaultPlan::none().with(
            PITFALL_PAUSE_AT,
            Fault::Pause {
                client: A,
                duration: PITFALL_PAUSE,
                in_write_path: false,
            },
        ),
        ..classic()
    }
}

/// The stop-the-world pause of scenario 9.
pub const PITFALL_PAUSE: SimDuration = SimDuration::from_millis(400);
/// Where scenario 9's chosen pause starts: late in a renew period (120 ms past 1.5 s, about
/// the ninth renewal of T/3 = 166.67 ms).
pub const PITFALL_PAUSE_AT: SimTime = SimTime::from_millis(1_620);

/// Where scenario 9's sweep of pause starts begins for a renew `period`: just after the
/// first renewal at or after one second (the client is settled in Holding by then), so a
/// pause at offset 0 comes right after a renew has left rather than before it.
pub fn pitfall_window_start(period: SimDuration) -> SimTime {
    let period = period.0.max(1);
    SimTime(1_000_000u64.div_ceil(period) * period + 1)
}

/// Every preset, in lesson order, variants after their main version: built once and kept.
pub fn presets() -> &'static [Preset] {
    static PRESETS: OnceLock<Vec<Preset>> = OnceLock::new();
    PRESETS.get_or_init(build_presets)
}

/// The preset with this id.
pub fn preset(id: &str) -> Option<&'static Preset> {
    presets().iter().find(|p| p.id == id)
}

fn build_presets() -> Vec<Preset> {
    let with_policy = |mut sc: Scenario, f: fn(&mut Policy)| {
        f(&mut sc.policy);
        sc
    };
    let p = |id, number, scenario| Preset {
        id,
        number,
        scenario,
    };
    vec![
        p("1", "1", healthy_holder()),
        p("2", "2", pause_in_write_path()),
        p("2-unfenced", "2", unfenced(pause_in_write_path())),
        p("3", "3", pause_between_writes()),
        p("3-trust-flag", "3", trust_flag(pause_between_writes())),
        p(
            "3-trust-flag-unfenced",
            "3",
            unfenced(trust_flag(pause_between_writes())),
        ),
        p("4", "4", blip_inside_budget()),
        p("5a", "5a", renew_deadline_fail_closed()),
        p("5b", "5b", not_owner_is_definitive()),
        p("6", "6", client_ntp_step()),
        p(
            "6-wall-timers",
            "6",
            with_policy(client_ntp_step(), |p| p.wall_clock_timers = true),
        ),
        p(
            "6-write-until-wall-ttl",
            "6",
            with_policy(client_ntp_step(), |p| {
                p.wall_clock_timers = true;
                p.write_until_wall_ttl = true;
            }),
        ),
        p("7", "7", service_clock_jump()),
        p("7-monotonic", "7", {
            let mut sc = service_clock_jump();
            sc.policy.service_expiry = ClockKind::Monotonic;
            sc
        }),
        p("8", "8", delayed_write_packet()),
        p("8-unfenced", "8", unfenced(delayed_write_packet())),
        p("9", "9", pitfall_exercise()),
    ]
}

/// The lease parameters of a real system, for the "use the defaults of…" selector. Its name
/// and how it renews, in the lesson's words, are in `content/sandbox.toml` under its slug.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemDefaults {
    /// The system's key: the form's choice and `content/sandbox.toml` name it by this.
    pub slug: &'static str,
    /// Its TTL (lease length).
    pub ttl: SimDuration,
    /// The renew period as a fraction of T used when applied.
    pub renew_every: Fraction,
    /// The margin that turns T into the client's deadline.
    pub drift_margin: SimDuration,
    /// Retry interval.
    pub retry_interval: SimDuration,
    /// Lock-delay at the service.
    pub lock_delay: SimDuration,
    /// Whether the system offers fencing tokens.
    pub fencing: bool,
}

impl SystemDefaults {
    /// Copies these parameters into `s`, leaving everything else alone.
    pub fn apply(&self, s: &mut Scenario) {
        s.ttl = self.ttl;
        s.renew_every = self.renew_every;
        s.drift_margin = self.drift_margin;
        s.retry_interval = self.retry_interval;
        s.lock_delay = self.lock_delay;
        s.policy.fencing = self.fencing;
    }
}

/// The table "defaults from real systems".
pub fn system_defaults() -> Vec<SystemDefaults> {
    vec![
        SystemDefaults {
            slug: "etcd",
            ttl: s(60),
            renew_every: Fraction::THIRD,
            drift_margin: s(1),
            retry_interval: s(1),
            lock_delay: SimDuration::ZERO,
            fencing: true,
        },
        SystemDefaults {
            slug: "redisson",
            ttl: s(30),
            renew_every: Fraction::THIRD,
            drift_margin: s(1),
            retry_interval: s(1),
            lock_delay: SimDuration::ZERO,
            fencing: false,
        },
        SystemDefaults {
            slug: "client-go",
            ttl: s(15),
            renew_every: Fraction { num: 2, den: 15 },
            drift_margin: s(5),
            retry_interval: s(2),
            lock_delay: SimDuration::ZERO,
            fencing: false,
        },
        SystemDefaults {
            slug: "consul",
            ttl: s(10),
            renew_every: Fraction::THIRD,
            drift_margin: s(1),
            retry_interval: s(1),
            lock_delay: s(15),
            fencing: false,
        },
        SystemDefaults {
            slug: "chubby",
            ttl: s(12),
            renew_every: Fraction::THIRD,
            drift_margin: s(1),
            retry_interval: s(1),
            lock_delay: s(60),
            fencing: true,
        },
    ]
}
