//! Mutation tests: every checker must be able to fail. Each test plants one bug in one
//! component (`model::planted`), generates small seeded scenarios until one breaks a check,
//! and asserts which checker caught it, and that the real components pass the very same
//! scenario.

use crate::model::planted::{self, Bug};
use crate::model::{
    CheckId, ClientId, ClockKind, Fault, FaultPlan, NodeId, Policy, RandomFaults, Run,
    RunQuestions, Scenario, SimDuration, SimRng, SimTime, Simulation,
};

/// How many generated scenarios a planted bug may take to be caught.
const TRIES: u64 = 300;

/// A small generated scenario: two clients, 30 s, up to three faults drawn from `seed` and
/// kept only if `keep` says the fault belongs to this experiment.
fn generated(seed: u64, policy: Policy, keep: fn(&Fault) -> bool) -> Scenario {
    let duration = SimDuration::from_secs(30);
    let shape = RandomFaults {
        duration,
        clients: 2,
        max_faults: 3,
        max_pause: SimDuration::from_secs(15),
        allow_crash: false,
    };
    let mut faults = FaultPlan::random(seed, &shape);
    faults.0.retain(|f| keep(&f.fault));
    let s = Scenario {
        seed,
        duration,
        policy,
        faults,
        ..Scenario::default()
    };
    s.validate().expect("generated scenarios are valid");
    s
}

/// The checks broken in `s`, in display order. The checkers read the same events while the
/// simulation runs and from its whole trace afterwards, with the same findings.
fn broken(s: &Scenario) -> Vec<CheckId> {
    let o = Simulation::check(s);
    let run = Simulation::run(s);
    let replayed = Run::from_trace(s.clone(), run.end(), run.events().to_vec());
    assert_eq!(&o.checks, replayed.checks(), "{s:?}");
    assert_eq!(&o.metrics, replayed.metrics(), "{s:?}");
    CheckId::ALL
        .into_iter()
        .filter(|&c| o.status(c).is_broken())
        .collect()
}

/// Plants `bug`, searches the generated scenarios for one where it breaks a check, and
/// returns that scenario with the checks it broke.
fn caught(bug: Bug, policy: Policy, keep: fn(&Fault) -> bool) -> (Scenario, Vec<CheckId>) {
    (0..TRIES)
        .map(|seed| generated(seed, policy, keep))
        .find_map(|s| {
            let with_bug = planted::with(bug, || broken(&s));
            (!with_bug.is_empty()).then_some((s, with_bug))
        })
        .unwrap_or_else(|| panic!("{bug:?} went unnoticed in {TRIES} generated scenarios"))
}

fn any(_: &Fault) -> bool {
    true
}

#[test]
fn a_service_that_grants_while_another_lease_is_unexpired_breaks_single_holder() {
    let (s, checks) = caught(Bug::ServiceGrantsWhileHeld, Policy::prefer(), any);
    assert_eq!(checks, [CheckId::SingleHolder], "{s:?}");
    assert!(broken(&s).is_empty(), "the real service passes: {s:?}");
}

/// A renew that outlives its lease on the wire: client A's next request to the service is
/// delayed by several seconds, then the link is cut so its retries fail too; all times are
/// drawn from `seed`.
fn late_renew(seed: u64) -> Scenario {
    let mut rng = SimRng::new(seed);
    let a = NodeId::Client(ClientId::A);
    let delay_at = SimTime(rng.between(0, 6_000_000));
    let cut_at = delay_at + SimDuration(rng.between(500_000, 4_000_000));
    let faults = FaultPlan::none()
        .with(
            delay_at,
            Fault::DelayNextPacket {
                from: a,
                to: NodeId::Service,
                extra: SimDuration(rng.between(4_000_000, 14_000_000)),
            },
        )
        .with(
            cut_at,
            Fault::Partition {
                a,
                b: NodeId::Service,
                duration: SimDuration(rng.between(2_000_000, 10_000_000)),
            },
        );
    let s = Scenario {
        seed,
        duration: SimDuration::from_secs(30),
        faults,
        ..Scenario::default()
    };
    s.validate().expect("generated scenarios are valid");
    s
}

#[test]
fn a_service_that_renews_an_expired_lease_breaks_single_holder() {
    let s = (0..TRIES)
        .map(late_renew)
        .find(|s| !planted::with(Bug::ServiceRenewsExpiredLease, || broken(s)).is_empty())
        .expect("a late renew revives the expired lease");
    let checks = planted::with(Bug::ServiceRenewsExpiredLease, || broken(&s));
    assert_eq!(checks, [CheckId::SingleHolder], "{s:?}");
    assert!(broken(&s).is_empty(), "the real service passes: {s:?}");
}

#[test]
fn storage_whose_fence_lets_the_previous_token_through_breaks_no_stale_accepted() {
    let (s, checks) = caught(Bug::StorageFenceOffByOne, Policy::prefer(), any);
    // The stale write also lands out of order: both storage checks see it.
    assert_eq!(
        checks,
        [CheckId::NoStaleAccepted, CheckId::OrderedByToken],
        "{s:?}"
    );
    assert!(broken(&s).is_empty(), "the real fence passes: {s:?}");
}

#[test]
fn a_client_that_skips_the_lost_flag_breaks_no_write_after_lost() {
    let (s, checks) = caught(Bug::ClientSkipsLostFlag, Policy::prefer(), any);
    assert_eq!(checks, [CheckId::NoWriteAfterLost], "{s:?}");
    assert!(broken(&s).is_empty(), "the real client passes: {s:?}");
}

#[test]
fn a_client_that_renews_from_its_wall_clock_breaks_the_token_order() {
    // Without the fence, a wall clock stepped back keeps the client writing after its
    // lease is gone, and its old token lands after the next holder's.
    let unfenced = Policy {
        fencing: false,
        ..Policy::prefer()
    };
    let client_clock = |f: &Fault| match *f {
        Fault::ClockStep { node, by_micros } => node != NodeId::Service && by_micros < 0,
        _ => false,
    };
    let (s, checks) = caught(Bug::ClientRenewsFromWallClock, unfenced, client_clock);
    assert_eq!(checks, [CheckId::OrderedByToken], "{s:?}");
    assert!(broken(&s).is_empty(), "the real client passes: {s:?}");
}

#[test]
fn the_checkers_count_a_wall_clock_service_expiry_as_two_holders() {
    // Not a planted bug but a policy: the service expires on a wall clock that jumps.
    let policy = Policy {
        service_expiry: ClockKind::Wall,
        ..Policy::prefer()
    };
    let service_step = |f: &Fault| match *f {
        Fault::ClockStep { node, by_micros } => node == NodeId::Service && by_micros > 0,
        _ => false,
    };
    let s = (0..TRIES)
        .map(|seed| generated(seed, policy, service_step))
        .find(|s| !broken(s).is_empty())
        .expect("a forward step of the service's wall clock grants early");
    assert_eq!(broken(&s), [CheckId::SingleHolder]);
}
