//! The storage the critical section writes to: fenced (refuses a token below the highest it
//! has accepted) or unfenced (accepts everything). It keeps a log of every write.

use super::ids::{ClientId, FencingToken};
use super::time::SimTime;

/// What storage decided about one write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WriteVerdict {
    /// Stored. `stale_over` is set when an unfenced store accepted a token below the highest
    /// it had already accepted: the out-of-order write that corrupts data.
    Accepted {
        /// The higher token already accepted, if this write is stale.
        stale_over: Option<FencingToken>,
    },
    /// Refused by the fence because `highest` had already been accepted.
    Rejected {
        /// The highest token accepted so far.
        highest: FencingToken,
    },
}

impl WriteVerdict {
    /// True if the write was stored.
    pub fn accepted(self) -> bool {
        matches!(self, WriteVerdict::Accepted { .. })
    }
}

/// One line of the storage log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WriteRecord {
    /// When the write arrived (real time; storage is where the truth is recorded).
    pub at: SimTime,
    /// Who wrote.
    pub client: ClientId,
    /// The token it carried.
    pub token: FencingToken,
    /// The writer's write counter.
    pub seq: u32,
    /// Accepted or rejected, and why.
    pub verdict: WriteVerdict,
}

/// The storage state machine. It has no timers and needs no clock.
#[derive(Clone, Debug)]
pub struct Storage {
    fencing: bool,
    highest: Option<FencingToken>,
}

impl Storage {
    /// Fenced storage if `fencing`, else a store that accepts every write.
    pub fn new(fencing: bool) -> Self {
        Storage {
            fencing,
            highest: None,
        }
    }

    /// Whether the fence is on.
    pub fn fencing(&self) -> bool {
        self.fencing
    }

    /// The highest token accepted so far.
    pub fn highest_accepted(&self) -> Option<FencingToken> {
        self.highest
    }

    /// Decides on one write carrying `token`.
    #[inline]
    pub fn handle_write(&mut self, token: FencingToken) -> WriteVerdict {
        match self.highest {
            Some(h) if token < h => {
                if self.fencing {
                    WriteVerdict::Rejected { highest: h }
                } else {
                    WriteVerdict::Accepted {
                        stale_over: Some(h),
                    }
                }
            }
            _ => {
                self.highest = Some(token);
                WriteVerdict::Accepted { stale_over: None }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_rejects_a_token_below_the_highest_seen() {
        let mut s = Storage::new(true);
        assert!(s.handle_write(FencingToken(33)).accepted());
        assert!(s.handle_write(FencingToken(34)).accepted());
        assert_eq!(
            s.handle_write(FencingToken(33)),
            WriteVerdict::Rejected {
                highest: FencingToken(34)
            }
        );
        assert!(
            s.handle_write(FencingToken(34)).accepted(),
            "equal tokens are the same holder"
        );
    }

    #[test]
    fn without_the_fence_the_stale_write_lands() {
        let mut s = Storage::new(false);
        s.handle_write(FencingToken(34));
        assert_eq!(
            s.handle_write(FencingToken(33)),
            WriteVerdict::Accepted {
                stale_over: Some(FencingToken(34))
            }
        );
        assert_eq!(s.highest_accepted(), Some(FencingToken(34)));
    }
}
