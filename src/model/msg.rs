//! The messages that travel on the simulated network.

use super::ids::{FencingToken, RequestId};
use super::time::SimDuration;

/// One packet's content: requests to and replies from the lock service, and writes to storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Message {
    /// Client → service: grant me the lock for `ttl`.
    Acquire {
        /// The client's request number.
        req: RequestId,
        /// The lease length asked for.
        ttl: SimDuration,
    },
    /// Client → service: extend my lease if `token` is still the holder (compare-and-expire).
    Renew {
        /// The client's request number.
        req: RequestId,
        /// The token the client believes it holds.
        token: FencingToken,
    },
    /// Client → service: delete the lock if `token` still holds it (compare-and-delete).
    Release {
        /// The client's request number.
        req: RequestId,
        /// The token being released.
        token: FencingToken,
    },
    /// Service → client: the lock is yours, with this fencing token.
    Granted {
        /// The request being answered.
        req: RequestId,
        /// The new (or unchanged, on a repeated acquire) fencing token.
        token: FencingToken,
    },
    /// Service → client: someone else holds the lock (or lock-delay is running).
    Busy {
        /// The request being answered.
        req: RequestId,
    },
    /// Service → client: the lease was extended by a full TTL.
    RenewOk {
        /// The request being answered.
        req: RequestId,
        /// The token that was renewed.
        token: FencingToken,
    },
    /// Service → client: that token no longer holds the lock. A definitive answer.
    NotOwner {
        /// The request being answered.
        req: RequestId,
        /// The token that was refused.
        token: FencingToken,
    },
    /// Service → client: the answer to a release (`deleted` is false if the token did not hold).
    ReleaseReply {
        /// The request being answered.
        req: RequestId,
        /// Whether the lock was deleted.
        deleted: bool,
    },
    /// Client → storage: one write of the critical section, carrying the fencing token.
    Write {
        /// The token the writer holds (or held).
        token: FencingToken,
        /// The writer's own write counter.
        seq: u32,
    },
}

impl Message {
    /// The fencing token the message carries, if any.
    pub fn token(&self) -> Option<FencingToken> {
        match *self {
            Message::Renew { token, .. }
            | Message::Release { token, .. }
            | Message::Granted { token, .. }
            | Message::RenewOk { token, .. }
            | Message::NotOwner { token, .. }
            | Message::Write { token, .. } => Some(token),
            _ => None,
        }
    }

    /// The request id of a renew request.
    pub fn renew_request(&self) -> Option<super::ids::RequestId> {
        match *self {
            Message::Renew { req, .. } => Some(req),
            _ => None,
        }
    }
}
