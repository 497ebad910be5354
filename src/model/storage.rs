//! The storage the critical section writes to: fenced (refuses a token below the highest it
//! has accepted) or unfenced (accepts everything). It only decides; whether an accepted
//! write was stale is a checker's finding (`check::fence`), never part of the log.

use super::ids::{ClientId, FencingToken};
use super::time::SimTime;

/// What storage decided about one write: its fate in the storage log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum WriteVerdict {
    /// Stored.
    Accepted,
    /// Refused by the fence because `highest` had already been accepted.
    Rejected {
        /// The highest token accepted so far.
        highest: FencingToken,
    },
}

impl WriteVerdict {
    /// True if the write was stored.
    pub fn accepted(self) -> bool {
        matches!(self, WriteVerdict::Accepted)
    }
}

/// One line of the storage log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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

    /// The highest token accepted so far.
    pub fn highest_accepted(&self) -> Option<FencingToken> {
        self.highest
    }

    /// Decides on one write carrying `token`.
    #[inline]
    pub fn handle_write(&mut self, token: FencingToken) -> WriteVerdict {
        match self.highest {
            Some(h) if token < h => {
                #[cfg(test)]
                if crate::model::planted::is(crate::model::planted::Bug::StorageFenceOffByOne)
                    && token.0 + 1 == h.0
                {
                    return WriteVerdict::Accepted;
                }
                if self.fencing {
                    WriteVerdict::Rejected { highest: h }
                } else {
                    WriteVerdict::Accepted
                }
            }
            _ => {
                self.highest = Some(token);
                WriteVerdict::Accepted
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
        assert_eq!(s.handle_write(FencingToken(33)), WriteVerdict::Accepted);
        assert_eq!(s.handle_write(FencingToken(34)), WriteVerdict::Accepted);
        assert_eq!(
            s.handle_write(FencingToken(33)),
            WriteVerdict::Rejected {
                highest: FencingToken(34)
            }
        );
        assert_eq!(
            s.handle_write(FencingToken(34)),
            WriteVerdict::Accepted,
            "equal tokens are the same holder"
        );
    }

    #[test]
    fn without_the_fence_the_stale_write_lands() {
        let mut s = Storage::new(false);
        s.handle_write(FencingToken(34));
        assert_eq!(s.handle_write(FencingToken(33)), WriteVerdict::Accepted);
        assert_eq!(s.highest_accepted(), Some(FencingToken(34)));
    }
}
