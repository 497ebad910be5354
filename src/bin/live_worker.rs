//! Live mode's Web Worker: a thin shell that runs one live node on this worker's own clocks
//! and real timers. The page starts two of them: one is the lock service with the fenced
//! storage ([`ServiceNode`]), the other contender B ([`ClientNode`]); they talk over a
//! `MessagePort` the page hands both, so B and the service keep going while the page is
//! frozen. The node logic is `lease_lab::lab::live::node`; this file only reads the clock,
//! arms one `setTimeout`, posts packets and reports events.
//!
//! Clocks: this worker's `performance.now()` counts from its own `timeOrigin`, so every
//! reading is `timeOrigin + now()` (milliseconds since the epoch) and the node's monotonic
//! clock is that minus the run's origin, which the page sends at start. Wall time is this
//! worker's `Date.now()`.
//!
//! [`ServiceNode`]: lease_lab::lab::live::node::ServiceNode
//! [`ClientNode`]: lease_lab::lab::live::node::ClientNode

#[cfg(target_arch = "wasm32")]
mod shell {
    use std::cell::RefCell;
    use std::rc::Rc;

    use gloo::timers::callback::Timeout;
    use lease_lab::lab::live::node::{ClientNode, ServiceNode};
    use lease_lab::lab::live::protocol::{FromWorker, Role, ToWorker};
    use lease_lab::lab::live::{LivePacket, NodeNow, Stamp};
    use lease_lab::model::{ClientId, LocalNow, LocalTime, NodeId, SimDuration};
    use lease_lab::worker_messages::{live_to_js, read_live};
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, MessagePort};

    /// The worker reports at least this often, so the page's recorder can commit.
    const REPORT_EVERY: SimDuration = SimDuration::from_millis(50);

    enum Node {
        Service(Box<ServiceNode>),
        Contender(Box<ClientNode>),
    }

    struct Running {
        node: Node,
        origin: Stamp,
        last_report: Stamp,
    }

    struct Shell {
        scope: DedicatedWorkerGlobalScope,
        peer: Option<MessagePort>,
        running: Option<Running>,
        timer: Option<Timeout>,
    }

    type Handle = Rc<RefCell<Shell>>;

    fn post(scope: &DedicatedWorkerGlobalScope, message: &FromWorker) {
        if let Some(value) = live_to_js(message) {
            let _ = scope.post_message(&value);
        }
    }

    impl Shell {
        fn now(&self, origin: Stamp) -> NodeNow {
            let perf = self.scope.performance();
            let epoch_ms = perf.as_ref().map_or(0.0, |p| p.time_origin() + p.now());
            let stamp = Stamp::from_epoch_ms(epoch_ms);
            NodeNow {
                stamp,
                local: LocalNow {
                    mono: LocalTime(stamp.since(origin).0 as i64),
                    wall: LocalTime((js_sys::Date::now() * 1_000.0) as i64),
                },
            }
        }

        fn start(&mut self, role: Role, scenario: &lease_lab::model::Scenario, origin: Stamp) {
            let node = match role {
                Role::Service => Node::Service(Box::new(ServiceNode::new(scenario))),
                Role::Contender => {
                    Node::Contender(Box::new(ClientNode::new(scenario, ClientId::B)))
                }
            };
            self.running = Some(Running {
                node,
                origin,
                last_report: origin,
            });
        }

        fn packet(&mut self, p: LivePacket) {
            let Some(origin) = self.running.as_ref().map(|r| r.origin) else {
                return;
            };
            let now = self.now(origin);
            match self.running.as_mut().map(|r| &mut r.node) {
                Some(Node::Service(s)) => s.handle_packet(now, p),
                Some(Node::Contender(c)) if p.to == NodeId::Client(ClientId::B) => {
                    c.handle_packet(now, p)
                }
                _ => {}
            }
        }

        fn command(&mut self, message: ToWorker) {
            match message {
                ToWorker::Start {
                    role,
                    scenario,
                    origin,
                } if self.running.is_none() => self.start(role, &scenario, origin),
                ToWorker::Packet(p) => self.packet(p),
                ToWorker::Revoke => {
                    if let Some(origin) = self.running.as_ref().map(|r| r.origin) {
                        let now = self.now(origin);
                        if let Some(Node::Service(s)) = self.running.as_mut().map(|r| &mut r.node) {
                            s.revoke(now);
                        }
                    }
                }
                ToWorker::LinkDown { client, until } => {
                    if let Some(Node::Service(s)) = self.running.as_mut().map(|r| &mut r.node) {
                        s.take_link_down(client, until);
                    }
                }
                ToWorker::Start { .. } => {}
            }
        }

        /// Fires what is due, posts what leaves, reports, and says when to come back.
        fn turn(&mut self) -> Option<u32> {
            let origin = self.running.as_ref()?.origin;
            let now = self.now(origin);
            let running = self.running.as_mut()?;
            let mut outgoing = Vec::new();
            let (events, next) = match &mut running.node {
                Node::Service(s) => {
                    s.handle_timeout(now);
                    while let Some(p) = s.poll_send(now) {
                        outgoing.push(p);
                    }
                    (s.take_events(), s.poll_timeout(now))
                }
                Node::Contender(c) => {
                    c.handle_timeout(now);
                    while let Some(p) = c.poll_send(now) {
                        outgoing.push(p);
                    }
                    (c.take_events(), c.poll_timeout(now))
                }
            };
            for p in outgoing {
                if p.to == NodeId::Client(ClientId::A) {
                    post(&self.scope, &FromWorker::Packet(p));
                } else if let (Some(peer), Some(value)) = (&self.peer, live_to_js(&p)) {
                    let _ = peer.post_message(&value);
                }
            }
            if !events.is_empty() || now.stamp.since(running.last_report) >= REPORT_EVERY {
                running.last_report = now.stamp;
                let up_to = now.stamp;
                post(&self.scope, &FromWorker::Report { events, up_to });
            }
            let heartbeat = now.stamp.plus(REPORT_EVERY);
            let wake = next.map_or(heartbeat, |t| t.min(heartbeat));
            Some(wake.since(now.stamp).0.div_ceil(1_000) as u32)
        }
    }

    /// Runs a turn and re-arms the one timer.
    fn turn(shell: &Handle) {
        let wait = shell.borrow_mut().turn();
        let Some(wait) = wait else { return };
        let again = shell.clone();
        let timer = Timeout::new(wait, move || turn(&again));
        shell.borrow_mut().timer = Some(timer);
    }

    fn on_peer(shell: &Handle, port: MessagePort) {
        let from_peer = shell.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
            if let Some(p) = read_live::<LivePacket>(&event.data()) {
                from_peer.borrow_mut().packet(p);
                turn(&from_peer);
            }
        });
        port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // The port lives as long as the worker.
        on_message.forget();
        shell.borrow_mut().peer = Some(port);
    }

    pub fn run() {
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let shell: Handle = Rc::new(RefCell::new(Shell {
            scope: scope.clone(),
            peer: None,
            running: None,
            timer: None,
        }));
        let from_page = shell.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
            if let Ok(port) = event.ports().get(0).dyn_into::<MessagePort>() {
                on_peer(&from_page, port);
                return;
            }
            let Some(message) = read_live::<ToWorker>(&event.data()) else {
                return;
            };
            from_page.borrow_mut().command(message);
            turn(&from_page);
        });
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // The worker lives until the page terminates it, so the handler is never dropped.
        on_message.forget();
        // Messages posted before the wasm loaded are lost, so the page waits for this one.
        post(&scope, &FromWorker::Ready);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    shell::run();
}

/// Natively there is nothing to run: the live nodes are tested through the library.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The live worker runs in a browser; its nodes are lease_lab::lab::live::node.");
}
