//! Lease Lab: an interactive lesson and laboratory on lease-based distributed locks.
//!
//! Data flows one way: scenario → [`model`] → trace → views. The model is pure and
//! deterministic and builds natively; the Yew views in `app` exist only on wasm32.

pub mod lab;
pub mod lesson;
pub mod model;
pub mod route;
pub mod share;
pub mod values;

// Natively only for the prerenderer (`--features prerender`), which renders the lesson's
// views to HTML at build time.
#[cfg(any(target_arch = "wasm32", feature = "prerender"))]
pub mod app;
#[cfg(any(target_arch = "wasm32", feature = "prerender"))]
pub mod worker_messages;
