//! "Your client": a learner's own lease client, written in Python or TypeScript, run as
//! every client of a scenario inside the deterministic world, in place of the model's own
//! [`LeaseClient`](crate::model::LeaseClient). Pure: the learner's code is reached through
//! [`Handlers`], which the snippet sandbox's worker implements around the code
//! (`src/bin/client_worker.rs`, `www/snippets/sandbox/worker.js`) and native tests implement
//! in Rust. The lock service, network, clocks, storage and faults stay the model's.
//!
//! * [`protocol`]: the calls, answers, settings and actions, as plain data;
//! * [`machine`]: the client the world drives ([`OwnClient`]), its timers and refusals;
//! * [`runner`]: a run with its trace, and the counterexample search against the code;
//! * [`report`]: what the sandbox sends back, read by the page as untrusted.

pub mod machine;
pub mod protocol;
pub mod report;
pub mod runner;

pub use machine::{ClientStop, During, Handlers, OwnClient, Refusal, Stop};
pub use protocol::{Action, Answer, AnswerKind, Handled, Input, InputKind, LossReason, Settings};
pub use report::{Report, RunReport};
pub use runner::{own_scenario, OwnRun, OwnSearch, Printed, RunStop};
