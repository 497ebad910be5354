//! The browser entry point that Trunk builds. The lesson lives in the library.

fn main() {
    #[cfg(target_arch = "wasm32")]
    lease_lab::app::start();
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("Lease Lab runs in a browser: `make serve` builds it and serves it on 127.0.0.1.");
}
