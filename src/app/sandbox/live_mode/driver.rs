//! The page's side of a live run: client A on this page's real timers, the two workers
//! (service with storage, contender B) started from `blob:` URLs, the learner's faults, and
//! the recorder fed with every report. Dropping the [`LiveRun`] terminates both workers and
//! clears the timer; nothing survives it.
//!
//! Clocks: every node reads only its own. This page's reading is `performance.timeOrigin +
//! performance.now()` (each worker adds its own `timeOrigin` the same way), which puts all
//! of them on one timeline for the recorder; the page's start on it is the run's origin,
//! which the workers are told so that each node's monotonic clock reads zero there.

use crate::lesson::sentences;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageChannel, MessageEvent, Worker};
use yew::Callback;

use crate::lab::live::node::ClientNode;
use crate::lab::live::protocol::{FromWorker, Role, ToWorker};
use crate::lab::live::recorder::{LiveRecorder, Source};
pub use crate::lab::live::session::LiveUpdate;
use crate::lab::live::trace::{Freeze, LiveTrace};
use crate::lab::live::{LivePacket, NodeNow, Stamp, Stamped};
use crate::lesson::content::LIVE;
use crate::model::{
    ClientId, DropReason, EventKind, Fault, LocalNow, LocalTime, NodeId, Scenario, SimDuration,
    SimTime,
};
use crate::worker_messages::{live_to_js, read_live};

/// The longest live run: its recording must stay small enough to scrub and share.
pub const LIVE_LIMIT: SimDuration = SimDuration::from_secs(120);
/// A live run's clients: A on the page, contender B in a worker.
pub const LIVE_CLIENTS: u8 = 2;
/// Contender B starts asking at least this long after A: the page is slower to get going
/// than a worker (it renders as it starts), and A, on the page, should be the first holder.
const CONTENDER_HEAD_START: SimDuration = SimDuration::from_secs(1);
/// The page reports, commits and re-arms at least this often.
const TURN_EVERY: SimDuration = SimDuration::from_millis(50);
/// The views get a fresh run at most this often while live.
const PUBLISH_EVERY_MS: f64 = 200.0;
/// The test hook: how many live workers are running (it only reports).
const WORKER_COUNT_HOOK: &str = "leaseLabLiveWorkers";

/// A live run in progress; see the module comment.
pub struct LiveRun {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    scenario: Scenario,
    a: ClientNode,
    crashed: bool,
    recorder: Option<LiveRecorder>,
    wall_step: i64,
    workers: Vec<(Role, Worker)>,
    ready: usize,
    listeners: Vec<EventListener>,
    timer: Option<Timeout>,
    freezes: Vec<Freeze>,
    write_freeze: Option<SimDuration>,
    last_publish_ms: f64,
    publish: Callback<LiveUpdate>,
    stopped: bool,
}

fn epoch_ms() -> f64 {
    gloo::utils::window()
        .performance()
        .map_or(0.0, |p| p.time_origin() + p.now())
}

fn set_worker_count(n: usize) {
    let _ = js_sys::Reflect::set(
        &gloo::utils::window(),
        &JsValue::from_str(WORKER_COUNT_HOOK),
        &JsValue::from_f64(n as f64),
    );
}

impl LiveRun {
    /// Starts a live run of `scenario` (its first [`LIVE_CLIENTS`] clients); updates go to
    /// `publish`.
    pub fn start(scenario: &Scenario, publish: Callback<LiveUpdate>) -> Result<LiveRun, String> {
        let mut scenario = scenario.clone();
        scenario.clients = LIVE_CLIENTS;
        scenario.duration = scenario.duration.min(LIVE_LIMIT);
        scenario.faults.0.clear();
        scenario.client_stagger = scenario.client_stagger.max(CONTENDER_HEAD_START);
        let mut workers = Vec::new();
        for role in [Role::Service, Role::Contender] {
            match crate::app::workers::start("live_worker") {
                Ok(worker) => workers.push((role, worker)),
                Err(_) => {
                    workers.iter().for_each(|(_, w)| w.terminate());
                    return Err(LIVE.live.worker_start.to_owned());
                }
            }
        }
        set_worker_count(workers.len());
        let inner = Rc::new(RefCell::new(Inner {
            a: ClientNode::new(&scenario, ClientId::A),
            scenario,
            crashed: false,
            recorder: None,
            wall_step: 0,
            workers: workers.clone(),
            ready: 0,
            listeners: Vec::new(),
            timer: None,
            freezes: Vec::new(),
            write_freeze: None,
            last_publish_ms: 0.0,
            publish,
            stopped: false,
        }));
        let mut listeners = Vec::new();
        for (role, worker) in &workers {
            let weak = Rc::downgrade(&inner);
            let role = *role;
            listeners.push(EventListener::new(worker, "message", move |event| {
                let data = event
                    .dyn_ref::<MessageEvent>()
                    .map_or(JsValue::UNDEFINED, MessageEvent::data);
                on_worker_message(&weak, role, read_live::<FromWorker>(&data));
            }));
            let weak = Rc::downgrade(&inner);
            listeners.push(EventListener::new(worker, "error", move |_| {
                fail(&weak, LIVE.live.worker_start);
            }));
        }
        let weak = Rc::downgrade(&inner);
        listeners.push(EventListener::new(
            &gloo::utils::document(),
            "visibilitychange",
            move |_| {
                if gloo::utils::document().hidden() {
                    stop_hidden(&weak);
                }
            },
        ));
        let weak = Rc::downgrade(&inner);
        listeners.push(EventListener::new(
            &gloo::utils::window(),
            "pagehide",
            move |_| {
                if let Some(inner) = weak.upgrade() {
                    inner.borrow_mut().shut_down();
                }
            },
        ));
        inner.borrow_mut().listeners = listeners;
        Ok(LiveRun { inner })
    }

    /// Stops the run and publishes its recording.
    pub fn stop(&self) {
        let update = self.inner.borrow_mut().finish(None, None);
        self.emit(update);
    }

    /// Stops the run and hands back its recording with `why` (instead of publishing it, for
    /// when the views that would take it are going away); `None` if it had not started.
    pub fn stop_because(&self, why: &str) -> Option<(Rc<LiveTrace>, String)> {
        match self.inner.borrow_mut().finish(Some(why.to_owned()), None)? {
            LiveUpdate::Stopped { trace, why } => Some((trace, why.unwrap_or_default())),
            _ => None,
        }
    }

    /// Freezes this page now for `asked` (capped by the caller): a genuine busy loop.
    pub fn freeze_now(&self, asked: SimDuration) {
        let freeze = self.inner.borrow_mut().freeze(asked, false);
        self.emit(freeze.map(LiveUpdate::Froze));
        turn(&self.inner);
    }

    /// Freezes this page for `asked` at A's next write, after its pre-write check; false
    /// (and nothing armed) when A holds no lease, so has no next write.
    pub fn freeze_at_next_write(&self, asked: SimDuration) -> bool {
        let mut inner = self.inner.borrow_mut();
        let holding = inner.a.client().lifecycle().believes_holding();
        if inner.crashed || inner.recorder.is_none() || !holding {
            return false;
        }
        inner.write_freeze = Some(asked);
        inner.a.freeze_at_next_write();
        inner.note_fault(Fault::Pause {
            client: ClientId::A,
            duration: asked,
            in_write_path: true,
        });
        true
    }

    /// Steps this page's wall clock (what the wall-clock policies read) by `by_micros`.
    pub fn step_wall_clock(&self, by_micros: i64) {
        let mut inner = self.inner.borrow_mut();
        inner.wall_step = inner.wall_step.saturating_add(by_micros);
        inner.note_fault(Fault::ClockStep {
            node: NodeId::Client(ClientId::A),
            by_micros,
        });
        drop(inner);
        turn(&self.inner);
    }

    /// Drops A's link to the worker (service and storage) for `d`, both ways.
    pub fn drop_link(&self, d: SimDuration) {
        let mut inner = self.inner.borrow_mut();
        let until = inner.now().stamp.plus(d);
        inner.a.take_link_down(until);
        inner.post(
            Role::Service,
            &ToWorker::LinkDown {
                client: ClientId::A,
                until,
            },
        );
        for b in [NodeId::Service, NodeId::Storage] {
            inner.note_fault(Fault::Partition {
                a: NodeId::Client(ClientId::A),
                b,
                duration: d,
            });
        }
    }

    /// A's next write waits `d` more on the wire.
    pub fn delay_next_write(&self, d: SimDuration) {
        let mut inner = self.inner.borrow_mut();
        inner.a.delay_next_write(d);
        inner.note_fault(Fault::DelayNextPacket {
            from: NodeId::Client(ClientId::A),
            to: NodeId::Storage,
            extra: d,
        });
    }

    /// An administrator deletes the lease at the service.
    pub fn revoke(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.post(Role::Service, &ToWorker::Revoke);
        inner.note_fault(Fault::RevokeLease);
    }

    /// Client A dies for good.
    pub fn crash_a(&self) {
        let mut inner = self.inner.borrow_mut();
        if inner.crashed {
            return;
        }
        inner.note_fault(Fault::Crash {
            client: ClientId::A,
        });
        inner.note(NodeId::Client(ClientId::A), EventKind::Crashed);
        inner.crashed = true;
    }

    fn emit(&self, update: Option<LiveUpdate>) {
        let publish = self.inner.borrow().publish.clone();
        if let Some(update) = update {
            publish.emit(update);
        }
    }
}

impl Drop for LiveRun {
    fn drop(&mut self) {
        self.inner.borrow_mut().shut_down();
    }
}

impl Inner {
    fn origin(&self) -> Stamp {
        self.recorder
            .as_ref()
            .map_or(Stamp::from_epoch_ms(epoch_ms()), LiveRecorder::origin)
    }

    fn now(&self) -> NodeNow {
        let stamp = Stamp::from_epoch_ms(epoch_ms());
        NodeNow {
            stamp,
            local: LocalNow {
                mono: LocalTime(stamp.since(self.origin()).0 as i64),
                wall: LocalTime((js_sys::Date::now() * 1_000.0) as i64 + self.wall_step),
            },
        }
    }

    fn post(&self, role: Role, message: &ToWorker) {
        let worker = self.workers.iter().find(|(r, _)| *r == role);
        if let (Some((_, worker)), Some(value)) = (worker, live_to_js(message)) {
            let _ = worker.post_message(&value);
        }
    }

    /// Hands A's events to the recorder, then commits what no source can still precede.
    fn flush(&mut self, now: NodeNow) {
        let events = self.a.take_events();
        if let Some(recorder) = self.recorder.as_mut() {
            recorder.report(Source::Page, events, now.stamp);
            recorder.commit();
        }
    }

    fn note(&mut self, node: NodeId, kind: EventKind) {
        let now = self.now();
        self.flush(now);
        let event = Stamped {
            at: now.stamp,
            node,
            kind,
        };
        if let Some(recorder) = self.recorder.as_mut() {
            recorder.report(Source::Page, vec![event], now.stamp);
        }
    }

    fn note_fault(&mut self, fault: Fault) {
        self.note(fault.target(), EventKind::Fault { fault });
    }

    /// Both workers are loaded: hand them the port between them and start every node.
    fn begin(&mut self) {
        let Ok(channel) = MessageChannel::new() else {
            return;
        };
        for ((_, worker), port) in self.workers.iter().zip([channel.port1(), channel.port2()]) {
            let transfer = js_sys::Array::of1(&port);
            let _ = worker.post_message_with_transfer(&JsValue::NULL, &transfer);
        }
        let origin = Stamp::from_epoch_ms(epoch_ms());
        for role in [Role::Service, Role::Contender] {
            self.post(
                role,
                &ToWorker::Start {
                    role,
                    scenario: Box::new(self.scenario.clone()),
                    origin,
                },
            );
        }
        self.recorder = Some(LiveRecorder::new(&self.scenario, origin));
    }

    /// A genuine stop-the-world pause of this page, measured; recorded like the model's.
    fn freeze(&mut self, asked: SimDuration, in_write_path: bool) -> Option<Freeze> {
        if self.crashed || self.recorder.is_none() {
            return None;
        }
        if !in_write_path {
            self.note_fault(Fault::Pause {
                client: ClientId::A,
                duration: asked,
                in_write_path,
            });
        }
        let performance = gloo::utils::window().performance()?;
        let start = self.now();
        let began = performance.now();
        let end = began + asked.0 as f64 / 1_000.0;
        while performance.now() < end {}
        let measured = SimDuration(((performance.now() - began) * 1_000.0).round() as u64);
        let woke = self.now();
        let recorder = self.recorder.as_mut()?;
        let at = recorder.time_of(start.stamp);
        let paused = Stamped {
            at: start.stamp,
            node: NodeId::Client(ClientId::A),
            kind: EventKind::Paused {
                until: SimTime(start.stamp.plus(measured).0),
                in_write_path,
            },
        };
        let woke_event = Stamped {
            at: woke.stamp,
            node: NodeId::Client(ClientId::A),
            kind: EventKind::Woke,
        };
        recorder.report(Source::Page, vec![paused, woke_event], woke.stamp);
        let freeze = Freeze {
            at,
            asked,
            measured,
        };
        self.freezes.push(freeze);
        Some(freeze)
    }

    fn packet_for_a(&mut self, p: LivePacket) {
        let now = self.now();
        if self.crashed {
            // Dropped on arrival at a dead process, logged on the sender as the model does.
            let dropped = EventKind::Dropped {
                id: p.id,
                to: p.to,
                sent_at: SimTime(p.sent.0),
                msg: p.msg,
                reason: DropReason::ReceiverCrashed,
            };
            self.note(p.from, dropped);
            return;
        }
        self.a.handle_packet(now, p);
    }

    /// Fires A's due timers, posts what leaves, records; returns when to come back.
    fn turn(&mut self) -> Option<(u32, Option<LiveUpdate>)> {
        if self.stopped || self.recorder.is_none() {
            return None;
        }
        let mut now = self.now();
        let elapsed = now.stamp.since(self.origin());
        if elapsed >= self.scenario.duration {
            let why = sentences::live::live::Ended {
                limit: self.scenario.duration,
            }
            .to_string();
            return self.finish(Some(why), None).map(|u| (0, Some(u)));
        }
        let mut froze = None;
        if !self.crashed {
            self.a.handle_timeout(now);
            if self.a.holds_write() {
                let asked = self.write_freeze.take().unwrap_or(SimDuration::ZERO);
                self.flush(now);
                froze = self.freeze(asked, true).map(LiveUpdate::Froze);
                now = self.now();
                self.a.release_held_write(now);
                self.a.handle_timeout(now);
            }
            while let Some(p) = self.a.poll_send(now) {
                self.post(Role::Service, &ToWorker::Packet(p));
            }
        }
        self.flush(now);
        let mut update = froze;
        let page_ms = epoch_ms();
        if update.is_none() && page_ms - self.last_publish_ms >= PUBLISH_EVERY_MS {
            self.last_publish_ms = page_ms;
            let at = now.stamp.since(self.origin());
            let run = self.recorder.as_ref()?.run(SimTime(at.0));
            update = Some(LiveUpdate::Running {
                run: Rc::new(run),
                now: SimTime(at.0),
            });
        }
        let next = if self.crashed {
            None
        } else {
            self.a.poll_timeout(now)
        };
        let heartbeat = now.stamp.plus(TURN_EVERY);
        let wake = next.map_or(heartbeat, |t| t.min(heartbeat));
        Some((wake.since(now.stamp).0.div_ceil(1_000) as u32, update))
    }

    /// Terminates the workers, clears the timer and forgets every listener.
    fn shut_down(&mut self) {
        self.stopped = true;
        self.timer = None;
        for (_, worker) in self.workers.drain(..) {
            worker.terminate();
        }
        self.listeners.clear();
        set_worker_count(0);
    }

    /// Stops and returns the recording.
    fn finish(&mut self, why: Option<String>, hidden_at: Option<SimTime>) -> Option<LiveUpdate> {
        if self.stopped {
            return None;
        }
        let now = self.now();
        self.flush(now);
        self.shut_down();
        let recorder = self.recorder.take()?;
        let freezes = std::mem::take(&mut self.freezes);
        let trace = recorder.finish(now.stamp, freezes, hidden_at);
        Some(LiveUpdate::Stopped {
            trace: Rc::new(trace),
            why,
        })
    }
}

fn on_worker_message(inner: &Weak<RefCell<Inner>>, role: Role, message: Option<FromWorker>) {
    let Some(rc) = inner.upgrade() else { return };
    let Some(message) = message else {
        // Before the run begins, the only other message is the loader's report that the
        // worker's module could not load.
        let started = rc.borrow().recorder.is_some();
        fail(
            inner,
            if started {
                LIVE.live.worker_message
            } else {
                LIVE.live.worker_start
            },
        );
        return;
    };
    match message {
        FromWorker::Ready => {
            let mut this = rc.borrow_mut();
            this.ready += 1;
            if this.ready == this.workers.len() {
                this.begin();
            } else {
                return;
            }
        }
        FromWorker::Packet(p) => rc.borrow_mut().packet_for_a(p),
        FromWorker::Report { events, up_to } => {
            if let Some(recorder) = rc.borrow_mut().recorder.as_mut() {
                recorder.report(role.source(), events, up_to);
            }
            return;
        }
    }
    turn(&rc);
}

/// Runs a turn of the page's node and re-arms its one timer.
fn turn(inner: &Rc<RefCell<Inner>>) {
    let outcome = inner.borrow_mut().turn();
    let Some((wait, update)) = outcome else {
        return;
    };
    let weak = Rc::downgrade(inner);
    let timer = Timeout::new(wait, move || {
        if let Some(inner) = weak.upgrade() {
            turn(&inner);
        }
    });
    let publish = {
        let mut this = inner.borrow_mut();
        if !this.stopped {
            this.timer = Some(timer);
        }
        this.publish.clone()
    };
    if let Some(update) = update {
        publish.emit(update);
    }
}

fn fail(inner: &Weak<RefCell<Inner>>, why: &str) {
    let Some(inner) = inner.upgrade() else { return };
    let publish = {
        let mut this = inner.borrow_mut();
        if this.stopped {
            return;
        }
        this.shut_down();
        this.publish.clone()
    };
    publish.emit(LiveUpdate::Failed(why.to_owned()));
}

/// The tab was hidden: timers there are throttled, so the run stops and says why.
fn stop_hidden(inner: &Weak<RefCell<Inner>>) {
    let Some(inner) = inner.upgrade() else { return };
    let update = {
        let mut this = inner.borrow_mut();
        let at = this.now().stamp.since(this.origin());
        let shown = crate::lab::live::shown_time(SimTime(at.0));
        let why = sentences::live::live::Hidden { at: shown }.to_string();
        this.finish(Some(why), Some(SimTime(at.0)))
    };
    let publish = inner.borrow().publish.clone();
    if let Some(update) = update {
        publish.emit(update);
    }
}
