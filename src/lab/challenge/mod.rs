//! The Sandbox's challenges: each one is data in `content/challenges.toml` ([`spec`]), a try
//! is checked against what the challenge allows and shared as a link ([`link`]), graded by
//! the model ([`grade`](mod@grade), the only part that runs it), worded ([`words`]) and remembered
//! ([`progress`]). Pure and tested natively; the views are `src/app/sandbox/challenges`.

pub mod grade;
pub mod link;
pub mod progress;
pub mod spec;
pub mod words;

pub use grade::{grade, Case, Failure, Measured, Verdict};
pub use link::{Answer, Refusal};
pub use progress::{Progress, Status, Tally};
pub use spec::{Condition, Metric, Over, Spec, Trial};
