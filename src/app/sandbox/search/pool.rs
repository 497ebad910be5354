//! The search's Web Workers: starts them, hands each the next block of plans as it becomes
//! idle, checks every reply against the page's own re-run ([`Schedule::record`],
//! [`shrunk_holds`]), has one worker shrink the winner, and reports each phase. Dropping the
//! pool terminates every worker.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use gloo::events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker};
use yew::Callback;

use super::{Finding, Phase};
use crate::lab::search::{next_block, shrunk_holds, Reply, Request, Schedule};
use crate::lesson::content::SEARCH;
use crate::model::search::{Counterexample, SearchSpec};
use crate::model::Scenario;
use crate::worker_messages::{post_request, read_reply};

/// The worker Trunk builds from `src/bin/search_worker.rs`.
const WORKER_NAME: &str = "search_worker";
/// Progress is reported at most this often, so the page renders little while searching
/// (and, with blocks sized to [`crate::lab::search::BLOCK_TARGET_MS`], at least every second).
const REPORT_EVERY_MS: f64 = 100.0;

/// Running workers; see the module comment.
pub struct Pool {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    workers: Vec<Worker>,
    /// Whether each worker has said it is ready: a message it cannot read before that means
    /// its module did not load.
    ready: Vec<bool>,
    /// When each worker was handed its current block, to size the next one.
    handed_ms: Vec<f64>,
    /// Held only so the handlers live as long as the workers.
    _listeners: Vec<EventListener>,
    schedule: Schedule,
    shrinking: Option<Counterexample>,
    started_ms: f64,
    reported_ms: f64,
    report: Callback<Phase>,
}

use crate::app::clock::page_now_ms as now_ms;

impl Pool {
    /// Starts `count` workers searching `spec` over `base`; phases go to `report`.
    pub fn start(
        base: Scenario,
        spec: SearchSpec,
        count: u32,
        report: Callback<Phase>,
    ) -> Result<Pool, ()> {
        let mut workers: Vec<Worker> = Vec::new();
        for _ in 0..count {
            match crate::app::workers::start(WORKER_NAME) {
                Ok(worker) => workers.push(worker),
                Err(_) => {
                    workers.iter().for_each(Worker::terminate);
                    return Err(());
                }
            }
        }
        let started_ms = now_ms();
        let inner = Rc::new(RefCell::new(Inner {
            ready: vec![false; workers.len()],
            handed_ms: vec![started_ms; workers.len()],
            workers: workers.clone(),
            _listeners: Vec::new(),
            schedule: Schedule::new(base, spec, crate::lab::search::FIRST_BLOCK),
            shrinking: None,
            started_ms,
            reported_ms: started_ms,
            report,
        }));
        let listeners = workers.iter().enumerate().flat_map(|(index, worker)| {
            let on_message = Rc::downgrade(&inner);
            let on_error = Rc::downgrade(&inner);
            [
                EventListener::new(worker, "message", move |event| {
                    let data = event
                        .dyn_ref::<MessageEvent>()
                        .map_or(JsValue::UNDEFINED, MessageEvent::data);
                    handle(&on_message, index, read_reply(&data));
                }),
                EventListener::new(worker, "error", move |_| {
                    fail(&on_error, SEARCH.search.worker_start)
                }),
            ]
        });
        let listeners = listeners.collect();
        inner.borrow_mut()._listeners = listeners;
        Ok(Pool { inner })
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.inner.borrow_mut().stop();
    }
}

impl Inner {
    /// Terminates every worker; a terminated worker posts nothing more.
    fn stop(&mut self) {
        for worker in self.workers.drain(..) {
            worker.terminate();
        }
    }

    fn running(&self, now: f64) -> Phase {
        Phase::Running {
            tried: self.schedule.tried(),
            budget: self.schedule.spec().budget,
            elapsed_ms: now - self.started_ms,
            workers: self.workers.len() as u32,
        }
    }

    /// What worker `index` should do next, and the phase to report if it changed.
    fn next_for(&mut self, index: usize) -> Result<Option<Phase>, &'static str> {
        let worker = self
            .workers
            .get(index)
            .ok_or(SEARCH.search.worker_message)?
            .clone();
        if let Some(request) = self.schedule.next_request() {
            if let Some(handed) = self.handed_ms.get_mut(index) {
                *handed = now_ms();
            }
            return post(&worker, &request).map(|_| None);
        }
        if !self.schedule.is_finished() || self.shrinking.is_some() {
            return Ok(None);
        }
        let elapsed_ms = now_ms() - self.started_ms;
        let tried = self.schedule.tried();
        match self.schedule.best().cloned() {
            Some(found) => {
                let request = Request::Shrink {
                    base: self.schedule.base().clone(),
                    found: found.clone(),
                };
                post(&worker, &request)?;
                self.shrinking = Some(found.clone());
                Ok(Some(Phase::Shrinking {
                    found,
                    tried,
                    elapsed_ms,
                }))
            }
            None => {
                self.stop();
                Ok(Some(Phase::NoneFound {
                    plans: tried,
                    seed: self.schedule.spec().seed,
                }))
            }
        }
    }

    fn take(&mut self, index: usize, reply: Option<Reply>) -> Result<Option<Phase>, &'static str> {
        let ready = self.ready.get(index).copied().unwrap_or(true);
        let unreadable = if ready {
            SEARCH.search.worker_message
        } else {
            SEARCH.search.worker_start
        };
        match reply.ok_or(unreadable)? {
            Reply::Ready => {
                if let Some(ready) = self.ready.get_mut(index) {
                    *ready = true;
                }
                self.next_for(index)
            }
            Reply::Searched {
                from,
                to,
                tried,
                found,
            } => {
                self.schedule
                    .record(from, to, tried, found)
                    .map_err(|_| SEARCH.search.worker_wrong)?;
                let now = now_ms();
                if let Some(&handed) = self.handed_ms.get(index) {
                    let took_ms = (now - handed).max(0.0) as u64;
                    self.schedule.set_block(next_block(to - from, took_ms));
                }
                let next = self.next_for(index)?;
                if next.is_some() || now - self.reported_ms < REPORT_EVERY_MS {
                    return Ok(next);
                }
                self.reported_ms = now;
                Ok(Some(self.running(now)))
            }
            Reply::Shrunk { shrunk } => {
                let original = self.shrinking.take().ok_or(SEARCH.search.worker_message)?;
                let base = self.schedule.base().clone();
                if !shrunk_holds(&base, &original, &shrunk) {
                    return Err(SEARCH.search.worker_wrong);
                }
                self.stop();
                let spec = self.schedule.spec().clone();
                Ok(Some(Phase::Found(Box::new(Finding {
                    base,
                    spec,
                    original,
                    shrunk,
                }))))
            }
            Reply::Refused => Err(SEARCH.search.worker_message),
        }
    }
}

fn post(worker: &Worker, request: &Request) -> Result<(), &'static str> {
    post_request(worker, request)
        .then_some(())
        .ok_or(SEARCH.search.worker_message)
}

/// Takes one reply; the phase is reported after the borrow ends, since a report re-renders.
fn handle(inner: &Weak<RefCell<Inner>>, index: usize, reply: Option<Reply>) {
    let Some(inner) = inner.upgrade() else { return };
    let outcome = inner.borrow_mut().take(index, reply);
    let report = inner.borrow().report.clone();
    match outcome {
        Ok(Some(phase)) => report.emit(phase),
        Ok(None) => {}
        Err(why) => {
            inner.borrow_mut().stop();
            report.emit(Phase::Failed(why));
        }
    }
}

fn fail(inner: &Weak<RefCell<Inner>>, why: &'static str) {
    let Some(inner) = inner.upgrade() else { return };
    inner.borrow_mut().stop();
    let report = inner.borrow().report.clone();
    report.emit(Phase::Failed(why));
}
