//! A scenario: every parameter, policy and fault of one simulation, as plain data that
//! share links carry as text. Validation returns errors, never panics.

use super::client::ClientConfig;
use super::faults::{FaultKind, FaultLimit, FaultPlan};
use super::fields::Notation;
use super::fields::SCENARIO_FIELDS;
use super::ids::{ClientId, NodeId};
use super::net::LinkConfig;
use super::policy::Policy;
use super::service::ServiceConfig;
use super::time::{LocalTime, SimDuration, SimTime};

/// The renewal period as a fraction of the TTL (the lesson's T/3 is `1/3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Fraction {
    /// Numerator.
    pub num: u32,
    /// Denominator (not zero).
    pub den: u32,
}

impl Fraction {
    /// One third: "renew at T/3".
    pub const THIRD: Fraction = Fraction { num: 1, den: 3 };
    /// `of × num / den`.
    pub fn of(self, of: SimDuration) -> SimDuration {
        of.mul_ratio(self.num as u64, self.den.max(1) as u64)
    }
}

/// One link with its own network parameters (e.g. a client in a far region).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct LinkOverride {
    /// One end.
    pub a: NodeId,
    /// The other end.
    pub b: NodeId,
    /// Round-trip time on this link.
    pub rtt: SimDuration,
    /// Extra one-way jitter on this link.
    pub jitter: SimDuration,
    /// Loss on this link, in parts per million.
    pub loss_ppm: u32,
}

impl LinkOverride {
    /// This link's network shape.
    pub fn config(&self) -> LinkConfig {
        LinkConfig {
            latency: self.rtt.mul_ratio(1, 2),
            jitter: self.jitter,
            loss_ppm: self.loss_ppm,
        }
    }
}

/// Everything that defines one simulation. [`Scenario::default`] holds the sandbox's default
/// parameters; presets start from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Scenario {
    /// The one seed of the run; child seeds feed the network and the fault generator.
    pub seed: u64,
    /// The number of clients (A, B, …); client A starts first, the others contend.
    pub clients: u8,
    /// How much simulation time to run.
    pub duration: SimDuration,
    /// The lease length T that clients ask for.
    pub ttl: SimDuration,
    /// Renew every T × this fraction (on the client's timer clock).
    pub renew_every: Fraction,
    /// How long a client waits for any answer before calling the request timed out.
    pub request_timeout: SimDuration,
    /// Pause between a timed-out renew and its retry.
    pub retry_interval: SimDuration,
    /// Pause between a contender's acquire attempts after BUSY or a timeout.
    pub acquire_retry: SimDuration,
    /// Round-trip time; each one-way trip takes RTT/2 plus jitter.
    pub rtt: SimDuration,
    /// Extra one-way latency drawn uniformly from 0..=jitter for each packet.
    pub jitter: SimDuration,
    /// Probability that any packet is lost, in parts per million.
    pub loss_ppm: u32,
    /// Links whose latency, jitter or loss differ from the defaults above.
    pub links: Vec<LinkOverride>,
    /// Time between two writes of the critical section.
    pub work_slice: SimDuration,
    /// Subtracted from send time + T to get the client's safe deadline (covers clock drift).
    pub drift_margin: SimDuration,
    /// After an expiry the service refuses new grants for this long (Chubby, Consul).
    pub lock_delay: SimDuration,
    /// The first fencing token the service hands out.
    pub token_start: u64,
    /// Client i starts contending at i × stagger.
    pub client_stagger: SimDuration,
    /// If set, a holder releases the lock politely after holding it this long.
    pub release_after: Option<SimDuration>,
    /// The policy switches.
    pub policy: Policy,
    /// The faults.
    pub faults: FaultPlan,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            seed: 1,
            clients: 2,
            duration: SimDuration::from_secs(60),
            ttl: SimDuration::from_secs(10),
            renew_every: Fraction::THIRD,
            request_timeout: SimDuration::from_secs(1),
            retry_interval: SimDuration::from_secs(1),
            acquire_retry: SimDuration::from_secs(1),
            rtt: SimDuration::from_millis(20),
            jitter: SimDuration::ZERO,
            loss_ppm: 0,
            links: Vec::new(),
            work_slice: SimDuration::from_secs(1),
            drift_margin: SimDuration::from_millis(500),
            lock_delay: SimDuration::ZERO,
            token_start: 1,
            client_stagger: SimDuration::from_millis(100),
            release_after: None,
            policy: Policy::prefer(),
            faults: FaultPlan::none(),
        }
    }
}

/// Why a scenario was refused: the field and what is wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The offending field, as named in [`Scenario`].
    pub field: &'static str,
    /// What is wrong (`crate::lesson::reasons` words it).
    pub problem: ScenarioProblem,
}

/// What is wrong with a scenario, with the numbers a sentence about it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioProblem {
    /// A field's value lies outside its range.
    OutOfRange {
        /// The value refused.
        value: u64,
        /// The least value accepted.
        min: u64,
        /// The greatest value accepted.
        max: u64,
        /// How the three are written.
        notation: Notation,
    },
    /// The renewal fraction is not strictly between 0 and 1, or its denominator is over 1000.
    NotARenewFraction,
    /// The renewal fraction of the TTL is shorter than a millisecond.
    RenewsTooOften,
    /// The drift margin is not shorter than the TTL.
    MarginNotUnderTtl {
        /// The drift margin.
        margin: SimDuration,
        /// The TTL.
        ttl: SimDuration,
    },
    /// The run would take more simulation steps than a page may build.
    TooManyEvents {
        /// The steps the run would take, about.
        estimate: u64,
        /// The most a scenario may take.
        max: u64,
    },
    /// More faults than a plan may hold.
    TooManyFaults {
        /// The most a plan holds.
        max: usize,
    },
    /// A fault after the end of the run.
    FaultAfterEnd {
        /// When the fault happens.
        at: SimTime,
        /// When the run ends.
        end: SimTime,
    },
    /// A fault that names a node the scenario does not have.
    FaultUnknownNode {
        /// The fault's kind.
        kind: FaultKind,
        /// When it happens.
        at: SimTime,
        /// The scenario's last client.
        last: ClientId,
    },
    /// A fault between two nodes that names the same node at both ends.
    FaultSameNode {
        /// The fault's kind.
        kind: FaultKind,
        /// When it happens.
        at: SimTime,
    },
    /// A fault whose amount goes over its limit.
    FaultOverLimit {
        /// The fault's kind.
        kind: FaultKind,
        /// When it happens.
        at: SimTime,
        /// The limit it goes over.
        limit: FaultLimit,
    },
    /// More link overrides than a scenario may hold.
    TooManyLinks {
        /// The most a scenario holds.
        max: usize,
    },
    /// A link override naming an unknown node, or joining a node to itself.
    LinkNodes,
    /// A link override's round trip or jitter over its limit.
    LinkTooSlow {
        /// Which delay.
        delay: LinkDelay,
        /// Its length.
        value: SimDuration,
        /// The longest accepted.
        max: SimDuration,
    },
    /// A link override's loss over 100 %.
    LinkLoss,
    /// Two overrides of one link (either way round): only the last would apply.
    LinkTwice {
        /// One end, as the first override names it.
        a: NodeId,
        /// The other end.
        b: NodeId,
    },
}

/// Which delay of a link override.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkDelay {
    /// The round-trip time.
    RoundTrip,
    /// The jitter.
    Jitter,
}

/// Bounds that keep any accepted scenario fast enough to re-simulate while scrubbing.
pub mod limits {
    use super::SimDuration;
    /// Most clients.
    pub const MAX_CLIENTS: u8 = 8;
    /// Longest run.
    pub const MAX_DURATION: SimDuration = SimDuration::from_secs(3_600);
    /// Shortest TTL, work slice, and retry intervals.
    pub const MIN_INTERVAL: SimDuration = SimDuration::from_millis(10);
    /// Longest TTL, timeouts, RTT, jitter, lock-delay, pauses and step sizes.
    pub const MAX_INTERVAL: SimDuration = SimDuration::from_secs(86_400);
    /// Most faults in a plan.
    pub const MAX_FAULTS: usize = 256;
    /// Most simulation events a scenario may be expected to produce (a share link must not
    /// be able to make the page build a huge trace).
    pub const MAX_EVENTS: u64 = 1_000_000;
    /// Most link overrides.
    pub const MAX_LINKS: usize = 16;
    /// Longest round trip or jitter of a link override.
    pub const MAX_LINK_DELAY: SimDuration = SimDuration::from_secs(60);
}

fn err(field: &'static str, problem: ScenarioProblem) -> Result<(), ScenarioError> {
    Err(ScenarioError { field, problem })
}

impl Scenario {
    /// Checks every field against its range. Share links decode untrusted data into a
    /// `Scenario`, so the app must call this before simulating; it never panics.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        match self.problems().into_iter().next() {
            Some(problem) => Err(problem),
            None => Ok(()),
        }
    }

    /// Every field out of its range (each is checked alone), or else the first problem
    /// between fields, which only make sense once each field is in range. A link that sets
    /// two fields wrong is told of both.
    pub fn problems(&self) -> Vec<ScenarioError> {
        let fields: Vec<ScenarioError> = SCENARIO_FIELDS
            .iter()
            .filter_map(|field| field.check(self).err())
            .collect();
        if !fields.is_empty() {
            return fields;
        }
        self.validate_between_fields().err().into_iter().collect()
    }

    fn validate_between_fields(&self) -> Result<(), ScenarioError> {
        use limits::*;
        self.validate_links()?;
        if self.drift_margin >= self.ttl {
            let (margin, ttl) = (self.drift_margin, self.ttl);
            return err(
                "drift_margin",
                ScenarioProblem::MarginNotUnderTtl { margin, ttl },
            );
        }
        let estimate = self.estimated_events();
        if estimate > MAX_EVENTS {
            let max = MAX_EVENTS;
            return err("duration", ScenarioProblem::TooManyEvents { estimate, max });
        }
        self.validate_faults()
    }

    /// Every fault falls inside the run, names known nodes and is within range.
    fn validate_faults(&self) -> Result<(), ScenarioError> {
        use limits::MAX_FAULTS;
        if self.faults.0.len() > MAX_FAULTS {
            let max = MAX_FAULTS;
            return err("faults", ScenarioProblem::TooManyFaults { max });
        }
        for tf in &self.faults.0 {
            let at = tf.at;
            if at.0 > self.duration.0 {
                let end = SimTime(self.duration.0);
                return err("faults", ScenarioProblem::FaultAfterEnd { at, end });
            }
            let kind = tf.fault.kind();
            if tf.fault.peer() == Some(tf.fault.target()) {
                return err("faults", ScenarioProblem::FaultSameNode { kind, at });
            }
            if !tf.fault.names_known_nodes(self.clients) {
                let last = ClientId(self.clients.saturating_sub(1));
                return err(
                    "faults",
                    ScenarioProblem::FaultUnknownNode { kind, at, last },
                );
            }
            if let Some(limit) = tf.fault.amount_over_limit() {
                return err(
                    "faults",
                    ScenarioProblem::FaultOverLimit { kind, at, limit },
                );
            }
        }
        Ok(())
    }

    /// Each link override joins two known nodes and stays within the network's ranges.
    fn validate_links(&self) -> Result<(), ScenarioError> {
        use limits::{MAX_LINKS, MAX_LINK_DELAY};
        if self.links.len() > MAX_LINKS {
            let max = MAX_LINKS;
            return err("links", ScenarioProblem::TooManyLinks { max });
        }
        for (i, l) in self.links.iter().enumerate() {
            if !l.a.is_known(self.clients) || !l.b.is_known(self.clients) || l.a == l.b {
                return err("links", ScenarioProblem::LinkNodes);
            }
            let same = |o: &&LinkOverride| (o.a, o.b) == (l.a, l.b) || (o.a, o.b) == (l.b, l.a);
            if self.links[..i].iter().any(|o| same(&o)) {
                return err("links", ScenarioProblem::LinkTwice { a: l.a, b: l.b });
            }
            for (delay, value) in [(LinkDelay::RoundTrip, l.rtt), (LinkDelay::Jitter, l.jitter)] {
                if value > MAX_LINK_DELAY {
                    let max = MAX_LINK_DELAY;
                    return err("links", ScenarioProblem::LinkTooSlow { delay, value, max });
                }
            }
            if l.loss_ppm > 1_000_000 {
                return err("links", ScenarioProblem::LinkLoss);
            }
        }
        Ok(())
    }

    /// The benchmark workload: the default parameters (a 60-second run, T = 10 s, two
    /// clients, the Prefer policy) with a random fault plan drawn from `seed`.
    pub fn random_default(seed: u64) -> Scenario {
        Scenario {
            seed,
            faults: FaultPlan::random(seed, &super::faults::RandomFaults::default()),
            ..Scenario::default()
        }
    }

    /// A generous estimate of the simulation steps this scenario takes: contenders polling,
    /// the holder writing and renewing (three steps per round trip, two per write).
    pub fn estimated_events(&self) -> u64 {
        let d = self.duration.as_micros() as u128;
        let per = |steps: u128, every: SimDuration| d * steps / every.as_micros().max(1) as u128;
        let total = per(3 * self.clients as u128, self.acquire_retry)
            + per(2, self.work_slice)
            + per(3, self.renew_interval().max(SimDuration::from_millis(1)))
            + per(3, self.retry_interval)
            + 64 * self.faults.0.len() as u128;
        total.min(u64::MAX as u128) as u64
    }

    /// The renewal period T × fraction.
    pub fn renew_interval(&self) -> SimDuration {
        self.renew_every.of(self.ttl)
    }

    /// The configuration of client `i` (A is 0): one home for the world and live mode.
    pub fn client_config(&self, i: usize) -> ClientConfig {
        ClientConfig {
            ttl: self.ttl,
            renew_interval: self.renew_interval(),
            request_timeout: self.request_timeout,
            retry_interval: self.retry_interval,
            acquire_retry: self.acquire_retry,
            work_slice: self.work_slice,
            drift_margin: self.drift_margin,
            start_at: LocalTime(0) + self.client_stagger.mul_ratio(i as u64, 1),
            release_after: self.release_after,
            policy: self.policy,
        }
    }

    /// The network shape of every link without an override.
    pub fn link_config(&self) -> LinkConfig {
        LinkConfig {
            latency: self.rtt.mul_ratio(1, 2),
            jitter: self.jitter,
            loss_ppm: self.loss_ppm,
        }
    }

    /// The lock service's configuration.
    pub fn service_config(&self) -> ServiceConfig {
        ServiceConfig {
            token_start: self.token_start,
            lock_delay: self.lock_delay,
            expiry_clock: self.policy.service_expiry,
        }
    }
}
