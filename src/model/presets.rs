//! The canonical scenarios of the lesson as data (the sandbox's presets), and the
//! "use the defaults of…" parameter sets of real systems. Narratives are short and in plain
//! words; numbers follow `scenarios.md`.

use super::calc::{advise_ttl, TtlInputs};
use super::faults::{Fault, FaultPlan};
use super::ids::{ClientId, NodeId};
use super::policy::Policy;
use super::scenario::{Fraction, Scenario};
use super::time::{ClockKind, SimDuration, SimTime};

/// One preset: a scenario plus the words around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Stable id used in share links ("2", "2-unfenced", "5a"…).
    pub id: &'static str,
    /// The scenario number in the lesson ("2", "5a"…).
    pub number: &'static str,
    /// Title.
    pub title: &'static str,
    /// The variant, if this is not the main version ("fencing off").
    pub variant: Option<&'static str>,
    /// Two or three sentences of what happens.
    pub narrative: &'static str,
    /// What to try next in the sandbox.
    pub try_this: &'static str,
    /// The expected outcome, which the native tests assert.
    pub expected: &'static str,
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
/// Where scenario 9's chosen pause starts: 120 ms into the renew period that starts at 1.5 s.
pub const PITFALL_PAUSE_AT: SimTime = SimTime::from_millis(1_620);
/// Scenario 9's sweep starts at the renew sent at 1.5 s (the ninth of T/3 = 166.67 ms).
pub const PITFALL_SWEEP_START: SimTime = SimTime::from_millis(1_500);

/// Every preset, in lesson order, variants after their main version.
pub fn presets() -> Vec<Preset> {
    let with_policy = |mut sc: Scenario, f: fn(&mut Policy)| {
        f(&mut sc.policy);
        sc
    };
    vec![
        Preset {
            id: "1",
            number: "1",
            title: "Healthy holder",
            variant: None,
            narrative: "Client A takes a 30-second lease and renews it every 10 seconds over a quiet 20 ms network. \
                Every renewal comes back OK well before the deadline, so A stays in Holding and keeps writing once a second.",
            try_this: "Add loss or jitter to the network and watch how much slack T/3 leaves before anything is lost.",
            expected: "Every renew is OK (about 12 in two minutes); no loss, no stale write; A holds throughout.",
            scenario: healthy_holder(),
        },
        Preset {
            id: "2",
            number: "2",
            title: "Stop-the-world pause in the write path",
            variant: None,
            narrative: "A holds token 33 and has just passed its pre-write check when a 15-second pause freezes it. \
                The service expires A's lease, B gets token 34 and starts writing. When A wakes, its already-checked \
                write leaves with token 33, and only the fence at storage stops it.",
            try_this: "Turn fencing off and watch the ordering check break: A's old write lands after B's.",
            expected: "Tokens 33 then 34; B acquires at about 10.1 s; storage rejects A's token-33 write at about 17 s.",
            scenario: pause_in_write_path(),
        },
        Preset {
            id: "2-unfenced",
            number: "2",
            title: "Stop-the-world pause in the write path",
            variant: Some("fencing off"),
            narrative: "The same zombie write as before, but storage accepts whatever arrives. A's write with token 33 \
                lands after B's writes with token 34, silently overwriting newer data.",
            try_this: "Turn fencing back on: nothing on the client could have stopped this write.",
            expected: "Storage accepts token 33 after 34; the check 'accepted writes ordered by token' breaks.",
            scenario: unfenced(pause_in_write_path()),
        },
        Preset {
            id: "3",
            number: "3",
            title: "Pause between writes",
            variant: None,
            narrative: "This time the 15-second pause hits between two writes. On waking, A's next write runs its \
                pre-write check first: the safe deadline measured on the monotonic clock has long passed, so A sets \
                the lost flag and sends nothing.",
            try_this: "Switch on 'trust the lost flag only' to see what the deadline check was worth.",
            expected: "A goes Lost at its first write after waking (about 17.5 s) and issues no write after the pause.",
            scenario: pause_between_writes(),
        },
        Preset {
            id: "3-trust-flag",
            number: "3",
            title: "Pause between writes",
            variant: Some("trust the lost flag only"),
            narrative: "The writer skips its own deadline check and trusts the heartbeat to have set the lost flag. \
                But the heartbeat was frozen too, so the late write leaves with token 33 and the fence has to reject it.",
            try_this: "Also turn fencing off: the stale write is then accepted after B's.",
            expected: "A's token-33 write goes out at about 17.5 s and fenced storage rejects it.",
            scenario: trust_flag(pause_between_writes()),
        },
        Preset {
            id: "3-trust-flag-unfenced",
            number: "3",
            title: "Pause between writes",
            variant: Some("trust the lost flag only, fencing off"),
            narrative: "Neither the writer nor storage checks anything: the late write with token 33 lands after B's \
                writes with token 34.",
            try_this: "Restore either the pre-write deadline check or the fence.",
            expected: "Storage accepts token 33 after 34; the ordering check breaks.",
            scenario: unfenced(trust_flag(pause_between_writes())),
        },
        Preset {
            id: "4",
            number: "4",
            title: "Network blip inside the budget",
            variant: None,
            narrative: "The link between A and the service is down from 4.5 s to 7.5 s, so the renew due at 5 s and its \
                first retries time out. A keeps retrying inside its remaining budget and the retry after the blip \
                succeeds long before the safe deadline.",
            try_this: "Lengthen the partition past the safe deadline to see the fail-closed path.",
            expected: "No loss: one failed renew is not a lost lease while the TTL remains.",
            scenario: blip_inside_budget(),
        },
        Preset {
            id: "5a",
            number: "5a",
            title: "Renew deadline: fail closed",
            variant: None,
            narrative: "With client-go's numbers (15 s lease, 10 s renew deadline, retry every 2 s), A's last good renew \
                is at 0 and a partition starts at 1 s. Every retry times out; at 10 s A cannot know whether it still \
                holds the lease, so it assumes it does not and stops writing.",
            try_this: "Compare with the service's timeline: B can only acquire after 15 s, so the gap is the price of safety.",
            expected: "A is Lost at 10 s with no write after; B acquires no earlier than 15 s; no overlap.",
            scenario: renew_deadline_fail_closed(),
        },
        Preset {
            id: "5b",
            number: "5b",
            title: "NOT_OWNER is definitive",
            variant: None,
            narrative: "An administrator revokes A's lease at 3.5 s. A's renew at 4 s gets NOT_OWNER, a definite answer \
                rather than a timeout, so A goes Lost at once and does not retry.",
            try_this: "Switch on 'write until you feel the TTL' to see a client that treats NOT_OWNER as a blip.",
            expected: "A is Lost right after the 4 s renew, with no retry.",
            scenario: not_owner_is_definitive(),
        },
        Preset {
            id: "6",
            number: "6",
            title: "Client clock steps back (NTP)",
            variant: None,
            narrative: "At 5 s NTP steps A's wall clock back by 8 seconds. A schedules its renewals on the monotonic \
                clock, so nothing changes.",
            try_this: "Try the wall-clock timer variants.",
            expected: "No loss, no stale write, A holds throughout.",
            scenario: client_ntp_step(),
        },
        Preset {
            id: "6-wall-timers",
            number: "6",
            title: "Client clock steps back (NTP)",
            variant: Some("wall-clock timers"),
            narrative: "Now A sleeps until a wall-clock time. The step back makes its next renew 8 seconds late, the \
                service expires the lease and B takes over; A's renew finally gets NOT_OWNER and A goes Lost, after \
                writing once more on a lease the service had already expired.",
            try_this: "Add 'write until you feel the TTL' to make A ignore NOT_OWNER as well.",
            expected: "A's renew goes out about 8 s late, the lease expires, B acquires, A is Lost by NOT_OWNER.",
            scenario: with_policy(client_ntp_step(), |p| p.wall_clock_timers = true),
        },
        Preset {
            id: "6-write-until-wall-ttl",
            number: "6",
            title: "Client clock steps back (NTP)",
            variant: Some("wall-clock timers, write until you feel the TTL"),
            narrative: "A schedules on the wall clock and ignores failed renewals until its own wall clock says the TTL \
                is over. Because that clock went back 8 seconds, A keeps writing as a zombie long after B took over; \
                only fencing catches it.",
            try_this: "Turn fencing off to see the corruption this would cause.",
            expected: "A keeps writing with token 33 after B acquires 34; every such write is rejected by the fence.",
            scenario: with_policy(client_ntp_step(), |p| {
                p.wall_clock_timers = true;
                p.write_until_wall_ttl = true;
            }),
        },
        Preset {
            id: "7",
            number: "7",
            title: "Lock-service clock jump",
            variant: None,
            narrative: "This service expires leases on its wall clock, which jumps forward 8 seconds at 2 s. A's lease \
                ends early at the service and B acquires while A still believes it holds the lock.",
            try_this: "Switch the service to monotonic expiry: nothing happens.",
            expected: "The service grants B token 34 while A's lease had about 8 s left: 'never two unexpired holders' breaks.",
            scenario: service_clock_jump(),
        },
        Preset {
            id: "7-monotonic",
            number: "7",
            title: "Lock-service clock jump",
            variant: Some("monotonic expiry"),
            narrative: "The same jump of the service's wall clock, but the service measures leases on its monotonic \
                clock, so the jump changes nothing.",
            try_this: "Switch back to wall-clock expiry.",
            expected: "Nothing happens: A holds throughout.",
            scenario: {
                let mut sc = service_clock_jump();
                sc.policy.service_expiry = ClockKind::Monotonic;
                sc
            },
        },
        Preset {
            id: "8",
            number: "8",
            title: "Delayed write packet",
            variant: None,
            narrative: "A sends a write with token 33 at 8 s and then crashes; the network holds that one packet for \
                90 seconds. The service expires A's lease at about 16.7 s and B takes over with token 34. When the old \
                packet finally arrives, the fence rejects it.",
            try_this: "Turn fencing off: no client discipline can recall a packet that is already on the wire.",
            expected: "A's token-33 write arrives at about 98 s and is rejected.",
            scenario: delayed_write_packet(),
        },
        Preset {
            id: "8-unfenced",
            number: "8",
            title: "Delayed write packet",
            variant: Some("fencing off"),
            narrative: "The same 90-second packet, but storage accepts it, long after B's writes with token 34.",
            try_this: "Turn fencing back on.",
            expected: "Storage accepts token 33 at about 98 s after B's writes; the ordering check breaks.",
            scenario: unfenced(delayed_write_packet()),
        },
        Preset {
            id: "9",
            number: "9",
            title: "The pitfall exercise: size T, then pause 400 ms",
            variant: None,
            narrative: "Work p99 200 ms, renew RTT p99 20 ms and a 150 ms GC budget need T above 370 ms; the calculator \
                proposes 500 ms with a heartbeat every 166 ms. A 400 ms stop-the-world pause then lands late in a renew \
                period and A loses the lease; whether a pause loses it depends on where it falls.",
            try_this: "Run the sweep of pause starts across one renew period and see the fraction that loses the lease.",
            expected: "A is Lost after the pause; the lost flag stops its writes and no stale write is accepted.",
            scenario: pitfall_exercise(),
        },
    ]
}

/// The preset with this id.
pub fn preset(id: &str) -> Option<Preset> {
    presets().into_iter().find(|p| p.id == id)
}

/// The lease parameters of a real system, for the "use the defaults of…" selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SystemDefaults {
    /// The system's name.
    pub system: &'static str,
    /// Its TTL (lease length).
    pub ttl: SimDuration,
    /// How it renews, as the lesson's table says it.
    pub renew: &'static str,
    /// The table's notes.
    pub notes: &'static str,
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
            system: "etcd concurrency.Session",
            ttl: s(60),
            renew: "TTL/3 keep-alive",
            notes: "client deadline = now + TTL; a keep-alive answering TTL ≤ 0 means the lease is gone",
            renew_every: Fraction::THIRD,
            drift_margin: s(1),
            retry_interval: s(1),
            lock_delay: SimDuration::ZERO,
            fencing: true,
        },
        SystemDefaults {
            system: "Redisson lock watchdog",
            ttl: s(30),
            renew: "10 s (timeout/3)",
            notes: "",
            renew_every: Fraction::THIRD,
            drift_margin: s(1),
            retry_interval: s(1),
            lock_delay: SimDuration::ZERO,
            fencing: false,
        },
        SystemDefaults {
            system: "Kubernetes client-go leader election",
            ttl: s(15),
            renew: "renew deadline 10 s, retry 2 s",
            notes: "no fencing; tolerates clock-rate ratio ≈ lease/renew deadline",
            renew_every: Fraction { num: 2, den: 15 },
            drift_margin: s(5),
            retry_interval: s(2),
            lock_delay: SimDuration::ZERO,
            fencing: false,
        },
        SystemDefaults {
            system: "Consul session",
            ttl: s(10),
            renew: "—",
            notes: "TTL 10 s–24 h; default lock-delay 15 s; may reap up to 2×TTL (renewed here at T/3)",
            renew_every: Fraction::THIRD,
            drift_margin: s(1),
            retry_interval: s(1),
            lock_delay: s(15),
            fencing: false,
        },
        SystemDefaults {
            system: "Chubby",
            ttl: s(12),
            renew: "—",
            notes: "12 s lease extension; lock-delay up to 1 min; sequencers as fencing (renewed here at T/3)",
            renew_every: Fraction::THIRD,
            drift_margin: s(1),
            retry_interval: s(1),
            lock_delay: s(60),
            fencing: true,
        },
    ]
}
