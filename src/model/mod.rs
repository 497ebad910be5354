//! The lease model: a deterministic, sans-IO simulation. Never touches clocks, the DOM or web crates.
