//! The lesson: its words (compiled in from `content/lesson.toml`), the diagrams' geometry,
//! the Mermaid exports, the TTL calculator, and the Q&A and voice readout logic.
//!
//! Pure Rust with no web crate, so all of it is tested natively; `app` renders it.

pub mod checks;
pub mod content;
pub mod diagram;
pub mod mermaid;
pub mod number;
pub mod quiz;
pub mod readout;
pub mod reasons;
pub mod sentences;
pub mod ttl;

pub use content::LESSON;
