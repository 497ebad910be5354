//! What travels between the page and the sandbox for a learner's client, as text: the task
//! (scenario, and the search's spec) going in, the [`Report`] coming back. One codec, the
//! recorded live run's: bincode, deflate, base64url, with caps. The page reads a report as
//! untrusted: it never panics on one, refuses a trace that names nodes or times its scenario
//! does not have, and re-derives every check from the events itself.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::runner::{OwnRun, OwnSearch, Printed, RunStop};
use crate::lab::live::trace::LiveTrace;
use crate::model::check::Judging;
use crate::model::{Event, Run, Scenario, SimTime};

/// Longest report text the page reads, in characters.
pub const MAX_REPORT_CHARS: usize = 4_000_000;
/// Most bytes a report inflates to.
const MAX_RAW_BYTES: usize = 32 << 20;
/// Most events a learner's run may hold.
pub const MAX_EVENTS: usize = 400_000;

/// One run of the learner's client as the sandbox reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunReport {
    /// Where the run ended.
    pub end: SimTime,
    /// Every event, in time order.
    pub events: Vec<Event>,
    /// What the code printed.
    pub printed: Vec<Printed>,
    /// Why it ended early, if it did.
    pub stop: Option<RunStop>,
}

impl From<OwnRun> for RunReport {
    fn from(run: OwnRun) -> RunReport {
        RunReport {
            end: run.end,
            events: run.events,
            printed: run.printed,
            stop: run.stop,
        }
    }
}

/// What the sandbox sends back for one task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Report {
    /// A run, with its trace.
    Ran(RunReport),
    /// A search, and the run of the plan it ended on (shrunk counterexample, or the plan under
    /// which the code stopped).
    Searched {
        /// How it ended.
        outcome: OwnSearch,
        /// That plan's run.
        run: Option<RunReport>,
    },
}

fn codec() -> impl bincode::Options {
    use bincode::Options;
    bincode::DefaultOptions::new().with_limit(MAX_RAW_BYTES as u64)
}

/// `value` packed as text.
pub fn pack(value: &impl Serialize) -> Option<String> {
    use bincode::Options;
    let bytes = codec().serialize(value).ok()?;
    let packed = miniz_oxide::deflate::compress_to_vec(&bytes, 1);
    Some(crate::values::base64url(&packed))
}

/// A `T` read from text [`pack`] made; never panics.
pub fn unpack<T: DeserializeOwned>(text: &str) -> Option<T> {
    use bincode::Options;
    if text.len() > MAX_REPORT_CHARS {
        return None;
    }
    let packed = crate::values::unbase64url_bytes(text, MAX_REPORT_CHARS).ok()?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_RAW_BYTES).ok()?;
    codec().deserialize(&bytes).ok()
}

impl RunReport {
    /// The run the views read, re-checked by the checkers from its events, if the events fit
    /// `scenario` (known nodes and packets, times in order and within the run).
    pub fn replay(&self, scenario: &Scenario) -> Option<Run> {
        let trace = LiveTrace {
            scenario: scenario.clone(),
            end: self.end,
            events: self.events.clone(),
            freezes: Vec::new(),
            hidden_at: None,
        };
        let fits = trace.fits(MAX_EVENTS)
            && self.printed.len() <= super::machine::MAX_OUTPUT_LINES * 8
            && self.printed.iter().all(|p| p.at <= self.end);
        fits.then(|| {
            Run::judged(
                scenario.clone(),
                self.end,
                self.events.clone(),
                Judging::Learner,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::own_client::protocol::Thrown;
    use crate::lab::own_client::{ClientStop, During, Stop};
    use crate::model::ClientId;

    /// A stop of each kind the learner's code makes comes back from the codec as it went in:
    /// a field written by name only sometimes would shift every field after it.
    #[test]
    fn a_report_with_a_clients_stop_reads_back_as_it_was_packed() {
        for (top_level, during) in [
            (false, During::Timer("work".into())),
            (true, During::TopLevel),
        ] {
            let report = Report::Ran(RunReport {
                end: SimTime(1_500_000),
                events: Vec::new(),
                printed: Vec::new(),
                stop: Some(RunStop::Client {
                    client: ClientId(1),
                    at: SimTime(1_000_000),
                    stop: ClientStop {
                        stop: Stop::Threw(Thrown {
                            text: "Error: boom".into(),
                            line: 5,
                            top_level,
                        }),
                        during,
                    },
                }),
            });
            let packed = pack(&report).expect("packs");
            assert_eq!(unpack::<Report>(&packed), Some(report));
        }
    }
}
