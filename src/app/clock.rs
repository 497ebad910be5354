//! The page's own clock, for what the views time in real time (elapsed time, rates, how
//! recent a message is); the model's time is the driver's to feed.

/// `performance.now()`, in milliseconds; 0 where there is no performance clock.
pub fn page_now_ms() -> f64 {
    gloo::utils::window().performance().map_or(0.0, |p| p.now())
}
