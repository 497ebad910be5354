//! A scenario: every parameter, policy and fault of one simulation, as plain data that
//! share links carry as text. Validation returns errors, never panics.

use super::faults::FaultPlan;
use super::fields::SCENARIO_FIELDS;
use super::ids::NodeId;
use super::policy::Policy;
use super::time::SimDuration;
use core::fmt;

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

/// Why a scenario was refused: the field and what is wrong with it, in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The offending field, as named in [`Scenario`].
    pub field: &'static str,
    /// What is wrong, for people.
    pub problem: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.problem)
    }
}

impl std::error::Error for ScenarioError {}

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
}

fn err(field: &'static str, problem: impl Into<String>) -> Result<(), ScenarioError> {
    Err(ScenarioError {
        field,
        problem: problem.into(),
    })
}

impl Scenario {
    /// Checks every field against its range. Share links decode untrusted data into a
    /// `Scenario`, so the app must call this before simulating; it never panics.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        use limits::*;
        for field in &SCENARIO_FIELDS {
            field.check(self)?;
        }
        self.validate_links()?;
        if self.drift_margin >= self.ttl {
            return err("drift_margin", "must be shorter than the TTL");
        }
        let estimate = self.estimated_events();
        if estimate > MAX_EVENTS {
            return err(
                "duration",
                format!(
                    "this scenario would take about {estimate} simulation steps (at most {MAX_EVENTS}); \
                     shorten it or lengthen the work slice or retry intervals"
                ),
            );
        }
        self.validate_faults()
    }

    /// Every fault falls inside the run, names known nodes and is within range.
    fn validate_faults(&self) -> Result<(), ScenarioError> {
        use limits::MAX_FAULTS;
        if self.faults.0.len() > MAX_FAULTS {
            return err("faults", format!("more than {MAX_FAULTS} faults"));
        }
        for tf in &self.faults.0 {
            if tf.at.0 > self.duration.0 {
                return err("faults", format!("a fault at {} is after the end", tf.at));
            }
            if !tf.fault.names_known_nodes(self.clients) || !tf.fault.amount_in_range() {
                return err(
                    "faults",
                    format!(
                        "the {} at {} names an unknown node or is out of range",
                        tf.fault.label(),
                        tf.at
                    ),
                );
            }
        }
        Ok(())
    }

    /// Each link override joins two known nodes and stays within the network's ranges.
    fn validate_links(&self) -> Result<(), ScenarioError> {
        if self.links.len() > 16 {
            return err("links", "more than 16 link overrides");
        }
        for l in &self.links {
            if !l.a.is_known(self.clients) || !l.b.is_known(self.clients) || l.a == l.b {
                return err(
                    "links",
                    "a link names an unknown node or joins a node to itself",
                );
            }
            let minute = SimDuration::from_secs(60);
            for (what, d) in [("round-trip time", l.rtt), ("jitter", l.jitter)] {
                if d > minute {
                    return err("links", format!("a link's {what} {d} is over {minute}"));
                }
            }
            if l.loss_ppm > 1_000_000 {
                return err("links", "loss must be at most 1,000,000 ppm");
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
}
