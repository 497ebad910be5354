//! A learner's client as the world drives it: the model's client contract
//! ([`ClientMachine`]) around the learner's handlers. It keeps the timers the learner armed,
//! turns the actions asked for into messages, refuses what no client may do (a token it was
//! never granted, a flood of actions, a timer without end), and derives the lifecycle the
//! views draw from the calls made and the answers read. The checkers never ask it anything:
//! they read the trace the world writes.

use std::collections::VecDeque;

use super::protocol::{Action, Answer, AnswerKind, Handled, Input, InputKind, Thrown};
use crate::model::{
    ClientConfig, ClientEvent, ClientMachine, ClockKind, Deadline, FencingToken, Lifecycle,
    LocalNow, LocalTime, Message, NodeId, RequestId, SimDuration, Transmit,
};

/// Most actions one call may ask for.
pub const MAX_ACTIONS_PER_CALL: usize = 1_000;
/// Most timers armed at once.
pub const MAX_TIMERS: usize = 32;
/// Longest timer name.
pub const MAX_TIMER_NAME: usize = 40;
/// Most lines printed by one client in one run that are kept.
pub const MAX_OUTPUT_LINES: usize = 500;
/// Lines a client's run keeps: its printed lines and the runtime's one line saying that
/// more were dropped.
const KEPT_LINES: usize = MAX_OUTPUT_LINES + 1;
/// Longest printed line kept, in characters; a longer one is cut and ends in "…".
pub const MAX_LINE_CHARS: usize = 2_000;
/// Longest a timer or lease may be asked for: a day.
pub const MAX_DELAY: SimDuration = SimDuration::from_secs(86_400);

/// The learner's code for one client: calls a handler and says what came of it.
pub trait Handlers {
    /// Calls the handler `input` names; `None` if what came back is not a [`Handled`].
    fn handle(&mut self, input: &Input<'_>) -> Option<Handled>;
}

/// Which of the learner's code was running when something went wrong.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum During {
    /// The file's top-level code, which runs as the lab makes the client.
    TopLevel,
    /// `start(node)`.
    Start,
    /// `reply(node, answer)`.
    Reply(AnswerKind),
    /// `timer(node, name)`.
    Timer(String),
}

/// Something the lab refused to do for a client.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Refusal {
    /// More than [`MAX_ACTIONS_PER_CALL`] actions in one call.
    TooManyActions,
    /// More than [`MAX_TIMERS`] timers armed at once.
    TooManyTimers,
    /// A timer name empty or longer than [`MAX_TIMER_NAME`].
    BadTimerName,
    /// A delay, wall time or TTL out of range (negative, or over a day).
    OutOfRange,
    /// A renew, release or write with a token the service never granted this client.
    TokenNeverGranted(u64),
    /// An acquire for another TTL than the scenario's (the lab's checkers judge leases of
    /// the scenario's T).
    TtlNotScenarios {
        /// The TTL asked for (µs).
        asked: u64,
    },
}

/// Why a client's run ended early.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Stop {
    /// The learner's code threw.
    Threw(Thrown),
    /// The lab refused an action.
    Refused(Refusal),
    /// What the sandbox's runtime gave back was not an answer the lab can read.
    Unreadable,
}

/// A client's run ended early, and in which handler.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClientStop {
    /// Why.
    pub stop: Stop,
    /// In which handler.
    pub during: During,
}

#[derive(Clone, Debug)]
struct Timer {
    name: String,
    deadline: Deadline,
    /// Arming order: ties fire in the order armed.
    armed: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Asked {
    Acquire,
    Renew,
    Release,
}

/// A learner's client on one node.
pub struct OwnClient {
    handlers: Box<dyn Handlers>,
    ttl: SimDuration,
    start_at: Option<LocalTime>,
    timers: Vec<Timer>,
    armed: u64,
    next_req: u32,
    write_seq: u32,
    /// Requests sent and not answered yet, oldest first.
    asked: Vec<(u32, Asked)>,
    granted: Vec<u64>,
    lifecycle: Lifecycle,
    token: Option<FencingToken>,
    reported: Lifecycle,
    out: VecDeque<Transmit>,
    events: VecDeque<ClientEvent>,
    output: Vec<(LocalTime, String)>,
    /// Lines kept over the whole run, taken or not.
    kept: usize,
    stopped: Option<ClientStop>,
}

impl OwnClient {
    /// A client configured as `cfg` whose decisions are the learner's `handlers`.
    pub fn new(cfg: &ClientConfig, handlers: Box<dyn Handlers>) -> OwnClient {
        OwnClient {
            handlers,
            ttl: cfg.ttl,
            start_at: Some(cfg.start_at),
            timers: Vec::new(),
            armed: 0,
            next_req: 0,
            write_seq: 0,
            asked: Vec::new(),
            granted: Vec::new(),
            lifecycle: Lifecycle::Idle,
            token: None,
            reported: Lifecycle::Idle,
            out: VecDeque::new(),
            events: VecDeque::new(),
            output: Vec::new(),
            kept: 0,
            stopped: None,
        }
    }

    /// Why this client stopped, if it did.
    pub fn stopped(&self) -> Option<&ClientStop> {
        self.stopped.as_ref()
    }

    /// The lines printed since last taken, each with the monotonic reading it was printed at.
    pub fn take_output(&mut self) -> Vec<(LocalTime, String)> {
        std::mem::take(&mut self.output)
    }

    /// Calls the learner's handler; `during` names it, made only if the call stops the client.
    fn call(&mut self, input: Input<'_>, during: impl FnOnce() -> During, now: LocalNow) {
        if self.stopped.is_some() {
            return;
        }
        let result = match self.handlers.handle(&input) {
            Some(Handled::Returned { actions, output }) => {
                self.keep_output(now, output);
                self.apply(actions, now)
            }
            Some(Handled::Threw { error, output }) => {
                // The last lines before an error are the ones a learner needs most.
                self.keep_output(now, output);
                Err(Stop::Threw(error))
            }
            None => Err(Stop::Unreadable),
        };
        if let Err(stop) = result {
            // A client whose making failed says so with its first call.
            let during = match &stop {
                Stop::Threw(thrown) if thrown.top_level => During::TopLevel,
                _ => during(),
            };
            self.stopped = Some(ClientStop { stop, during });
            self.timers.clear();
        }
        self.sync_lifecycle();
    }

    fn keep_output(&mut self, now: LocalNow, lines: Vec<String>) {
        let room = KEPT_LINES.saturating_sub(self.kept);
        for line in lines.into_iter().take(room) {
            self.kept += 1;
            self.output.push((now.mono, cut_line(line)));
        }
    }

    fn apply(&mut self, actions: Vec<Action>, now: LocalNow) -> Result<(), Stop> {
        if actions.len() > MAX_ACTIONS_PER_CALL {
            return Err(Stop::Refused(Refusal::TooManyActions));
        }
        for action in actions {
            self.act(action, now).map_err(Stop::Refused)?;
        }
        Ok(())
    }

    fn act(&mut self, action: Action, now: LocalNow) -> Result<(), Refusal> {
        match action {
            Action::Acquire { ttl } => {
                if ttl != self.ttl.as_micros() {
                    return Err(Refusal::TtlNotScenarios { asked: ttl });
                }
                let req = self.ask(Asked::Acquire);
                self.send(Message::Acquire {
                    req,
                    ttl: SimDuration(ttl),
                });
                if !self.lifecycle.believes_holding() {
                    self.lifecycle = Lifecycle::Acquiring;
                }
            }
            Action::Renew { token } => {
                let token = self.granted_token(token)?;
                let req = self.ask(Asked::Renew);
                self.send(Message::Renew { req, token });
                if self.lifecycle == Lifecycle::Holding {
                    self.lifecycle = Lifecycle::RenewInFlight;
                }
            }
            Action::Release { token } => {
                let token = self.granted_token(token)?;
                let req = self.ask(Asked::Release);
                self.send(Message::Release { req, token });
                if self.lifecycle.believes_holding() {
                    self.lifecycle = Lifecycle::Releasing;
                }
            }
            Action::Write { token } => {
                let token = self.granted_token(token)?;
                self.write_seq += 1;
                let seq = self.write_seq;
                self.out.push_back(Transmit {
                    to: NodeId::Storage,
                    msg: Message::Write { token, seq },
                });
            }
            Action::After { name, delay } => {
                if delay > MAX_DELAY.as_micros() {
                    return Err(Refusal::OutOfRange);
                }
                let at = now.mono + SimDuration(delay);
                self.arm(name, ClockKind::Monotonic, at)?;
            }
            Action::AtWall { name, at } => {
                let limit = MAX_DELAY.as_micros() as i64;
                if at < 0 || at - now.wall.0 > limit {
                    return Err(Refusal::OutOfRange);
                }
                self.arm(name, ClockKind::Wall, LocalTime(at))?;
            }
            Action::Cancel { name } => self.timers.retain(|t| t.name != name),
            Action::Lost { reason } => self.lifecycle = Lifecycle::Lost(reason.lost()),
        }
        Ok(())
    }

    fn granted_token(&self, token: u64) -> Result<FencingToken, Refusal> {
        if self.granted.contains(&token) {
            Ok(FencingToken(token))
        } else {
            Err(Refusal::TokenNeverGranted(token))
        }
    }

    fn ask(&mut self, what: Asked) -> RequestId {
        self.next_req += 1;
        self.asked.push((self.next_req, what));
        RequestId(self.next_req)
    }

    fn send(&mut self, msg: Message) {
        self.out.push_back(Transmit {
            to: NodeId::Service,
            msg,
        });
    }

    fn arm(&mut self, name: String, clock: ClockKind, at: LocalTime) -> Result<(), Refusal> {
        if name.is_empty() || name.chars().count() > MAX_TIMER_NAME {
            return Err(Refusal::BadTimerName);
        }
        self.timers.retain(|t| t.name != name);
        if self.timers.len() >= MAX_TIMERS {
            return Err(Refusal::TooManyTimers);
        }
        self.armed += 1;
        self.timers.push(Timer {
            name,
            deadline: Deadline { clock, at },
            armed: self.armed,
        });
        Ok(())
    }

    fn answered(&mut self, answer: &Answer) {
        let Some(i) = self.asked.iter().position(|(r, _)| *r == answer.request) else {
            return;
        };
        let (_, asked) = self.asked.remove(i);
        match (asked, answer.kind) {
            (Asked::Acquire, AnswerKind::Granted) => {
                let token = answer.token.unwrap_or_default();
                self.granted.push(token);
                self.token = Some(FencingToken(token));
                self.lifecycle = Lifecycle::Holding;
            }
            (Asked::Renew, AnswerKind::Renewed | AnswerKind::NotOwner)
                if self.lifecycle == Lifecycle::RenewInFlight =>
            {
                self.lifecycle = Lifecycle::Holding;
            }
            (Asked::Release, AnswerKind::Released) if self.lifecycle == Lifecycle::Releasing => {
                self.lifecycle = Lifecycle::Released;
            }
            _ => {}
        }
    }

    fn sync_lifecycle(&mut self) {
        if self.lifecycle != self.reported {
            self.reported = self.lifecycle;
            self.events.push_back(ClientEvent::Lifecycle {
                to: self.lifecycle,
                token: self.token,
            });
        }
    }

    /// The earliest due timer at `now`: earliest deadline first, ties in arming order.
    fn due(&self, now: LocalNow) -> Option<usize> {
        let key = |t: &Timer| (now.to_mono(t.deadline.clock, t.deadline.at), t.armed);
        self.timers
            .iter()
            .enumerate()
            .filter(|(_, t)| now.read(t.deadline.clock) >= t.deadline.at)
            .min_by_key(|(_, t)| key(t))
            .map(|(i, _)| i)
    }
}

impl ClientMachine for OwnClient {
    fn handle_timeout(&mut self, now: LocalNow) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        if let Some(start) = self.start_at {
            if now.mono >= start {
                self.start_at = None;
                let input = Input {
                    kind: InputKind::Start,
                    mono: now.mono.0,
                    wall: now.wall.0,
                    answer: None,
                    timer: None,
                };
                self.call(input, || During::Start, now);
                return true;
            }
        }
        let Some(i) = self.due(now) else {
            return false;
        };
        let timer = self.timers.remove(i);
        let input = Input {
            kind: InputKind::Timer,
            mono: now.mono.0,
            wall: now.wall.0,
            answer: None,
            timer: Some(&timer.name),
        };
        self.call(input, || During::Timer(timer.name.clone()), now);
        true
    }

    fn handle_message(&mut self, now: LocalNow, msg: Message) {
        let Some(answer) = Answer::of(&msg) else {
            return;
        };
        self.answered(&answer);
        let input = Input {
            kind: InputKind::Reply,
            mono: now.mono.0,
            wall: now.wall.0,
            answer: Some(answer),
            timer: None,
        };
        self.call(input, || During::Reply(answer.kind), now);
    }

    fn poll_timeout(&self, now: LocalNow) -> Option<LocalTime> {
        if self.stopped.is_some() {
            return None;
        }
        let timers = self
            .timers
            .iter()
            .map(|t| now.to_mono(t.deadline.clock, t.deadline.at));
        self.start_at.into_iter().chain(timers).min()
    }

    fn poll_transmit(&mut self) -> Option<Transmit> {
        self.out.pop_front()
    }

    fn poll_event(&mut self) -> Option<ClientEvent> {
        self.events.pop_front()
    }

    fn lifecycle(&self) -> Lifecycle {
        self.lifecycle
    }
}

/// `line` within [`MAX_LINE_CHARS`]: a longer one is cut there and ends in "…", as the
/// runtime cuts it first.
fn cut_line(line: String) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        None => line,
        Some((at, _)) => {
            let mut kept = line[..at].to_owned();
            kept.push('…');
            kept
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_line_is_cut_at_the_limit_with_an_ellipsis_once() {
        let limit = "é".repeat(MAX_LINE_CHARS);
        assert_eq!(cut_line(limit.clone()), limit);
        let long = format!("{limit}xyz");
        let cut = cut_line(long);
        assert_eq!(cut, format!("{limit}…"));
        // The runtime's cut line (the limit and "…") comes through unchanged.
        assert_eq!(cut_line(cut.clone()), cut);
    }
}
