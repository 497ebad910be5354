//! Planted bugs for the mutation tests (test builds only: this module does not exist in a
//! release or wasm build). A test switches one bug on for its own thread; the component
//! that carries the bug asks [`is`] at the one point where the bug lives. Every checker must
//! catch its bug (`check::mutations`).

use std::cell::Cell;

/// The deliberately broken variants of the components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bug {
    /// The service renews a lease that has already expired (even if another holder has it
    /// now), as a store that keys leases by token and never forgets them would.
    ServiceRenewsExpiredLease,
    /// The service grants the lock while another client's lease is unexpired.
    ServiceGrantsWhileHeld,
    /// The fence lets through the token just below the highest it has seen.
    StorageFenceOffByOne,
    /// The client keeps writing after it set its lost flag.
    ClientSkipsLostFlag,
    /// The client schedules its renewals on its wall clock.
    ClientRenewsFromWallClock,
}

thread_local! {
    static ACTIVE: Cell<Option<Bug>> = const { Cell::new(None) };
}

/// True if `bug` is planted on this thread.
pub(crate) fn is(bug: Bug) -> bool {
    ACTIVE.with(|a| a.get() == Some(bug))
}

/// Runs `f` with `bug` planted on this thread.
pub(crate) fn with<R>(bug: Bug, f: impl FnOnce() -> R) -> R {
    ACTIVE.with(|a| a.set(Some(bug)));
    let r = f();
    ACTIVE.with(|a| a.set(None));
    r
}

/// The client config with the wall-clock bug applied if it is planted: the client schedules
/// renewals and measures its lease on the wall clock while the run still counts it as
/// following Prefer.
pub(crate) fn renew_from_wall_clock(
    mut cfg: super::client::ClientConfig,
) -> super::client::ClientConfig {
    if is(Bug::ClientRenewsFromWallClock) {
        cfg.policy.wall_clock_timers = true;
    }
    cfg
}
