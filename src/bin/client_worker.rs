//! "Your client"'s engine inside the snippet sandbox: a thin shell that runs the learner's
//! code as every client of a scenario in the model's world
//! ([`lease_lab::lab::own_client`]). The sandbox's worker (`www/snippets/sandbox/worker.js`)
//! imports this module from bytes the page handed in, and passes `make`, which builds one
//! fresh instance of the learner's code per client. Tasks come in and reports go out as
//! packed text ([`lease_lab::lab::own_client::report`]), relayed unread to the page, which
//! re-checks every run itself.
//!
//! A search makes hundreds of thousands of handler calls, so each one crosses the boundary
//! as numbers (the runtime's side is `client-runtime.js`, "The lab's side of a call"):
//! `handle(kind, mono, wall, x, y, z)` gets the call, and the actions come back as
//! `[op, a, b]` triples of numbers that the runtime writes into a buffer in this module's
//! memory (`ActionSlots`). The codes are [`lease_lab::lab::own_client::wire`]'s, which
//! `wire()` hands to the runtime. Timer names are numbered once per task (`make.timerName(id)`,
//! `make.timerId(name)`). Printed lines and errors, rare, come back as JSON text
//! (`instance.last()`). Everything read is checked here again: an odd number is refused as
//! unreadable, never trusted.

#[cfg(target_arch = "wasm32")]
mod shell {
    use std::cell::{Cell, RefCell};
    use std::collections::HashMap;
    use std::rc::Rc;

    use js_sys::Function;
    use lease_lab::lab::own_client::report::{pack, unpack};
    use lease_lab::lab::own_client::runner::{run, search};
    use lease_lab::lab::own_client::wire::{self, Op, SLOT};
    use lease_lab::lab::own_client::{
        Action, Handled, Handlers, Input, InputKind, OwnSearch, Report, SearchAt, Settings,
    };
    use lease_lab::model::search::{with_plan, SearchSpec};
    use lease_lab::model::{ClientConfig, ClientId, Scenario};
    use serde::Serialize;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// `make` as the runtime gives it: a function with the task's timer names on it.
        type Maker;
        /// Hands the runtime the action buffer: `len` numbers at byte `ptr` of `memory`.
        #[wasm_bindgen(method, catch, js_name = output)]
        fn output(this: &Maker, memory: &JsValue, ptr: u32, len: u32) -> Result<(), JsValue>;
        /// A new run begins: its timer names are numbered afresh.
        #[wasm_bindgen(method, catch, js_name = newRun)]
        fn new_run(this: &Maker) -> Result<(), JsValue>;
        /// The timer name numbered `id`.
        #[wasm_bindgen(method, catch, js_name = timerName)]
        fn timer_name(this: &Maker, id: u32) -> Result<JsValue, JsValue>;
        /// The number of timer name `name` (numbered if new), or -1.
        #[wasm_bindgen(method, catch, js_name = timerId)]
        fn timer_id(this: &Maker, name: &str) -> Result<f64, JsValue>;

        /// One instance of the learner's code.
        type Instance;
        /// Calls a handler: the number of slots it filled, or `-1 - slots` when `last()` has
        /// more to say (printed lines, an error).
        #[wasm_bindgen(method, catch)]
        fn handle(
            this: &Instance,
            kind: u32,
            mono: f64,
            wall: f64,
            x: f64,
            y: f64,
            z: f64,
        ) -> Result<f64, JsValue>;
        /// The rest of the last call, as JSON text (a [`Handled`]).
        #[wasm_bindgen(method, catch)]
        fn last(this: &Instance) -> Result<JsValue, JsValue>;
    }

    /// Most names one call can bring that the table has not seen (one per action).
    const MAX_NEW_NAMES: usize = lease_lab::lab::own_client::machine::MAX_ACTIONS_PER_CALL;
    /// Room for the most actions one call may ask for.
    const SLOTS: usize = SLOT * lease_lab::lab::own_client::machine::MAX_ACTIONS_PER_CALL;

    /// The buffer the runtime writes actions into. Cells: the runtime writes it behind Rust's
    /// back, between our reads, while a handler runs.
    type ActionSlots = Rc<[Cell<f64>]>;

    /// The timer names of the run under way, both ways, as the runtime numbered them. A run
    /// uses a few, so a short table is scanned in order; a long one is hashed.
    #[derive(Default)]
    struct Names {
        by_id: Vec<Option<String>>,
        by_name: HashMap<String, u32>,
    }

    impl Names {
        /// Past this many names, `id` hashes.
        const SCANNED: usize = 16;

        fn get(&self, id: u32) -> Option<&String> {
            self.by_id.get(id as usize)?.as_ref()
        }

        fn id(&self, name: &str) -> Option<u32> {
            if self.by_id.len() > Self::SCANNED {
                return self.by_name.get(name).copied();
            }
            let at = self.by_id.iter().position(|n| n.as_deref() == Some(name))?;
            u32::try_from(at).ok()
        }

        fn learn(&mut self, id: u32, name: &str) {
            let at = id as usize;
            if self.by_id.len() <= at {
                self.by_id.resize(at + 1, None);
            }
            self.by_id[at] = Some(name.to_owned());
            self.by_name.insert(name.to_owned(), id);
        }
    }

    struct Shared {
        maker: Maker,
        slots: ActionSlots,
        names: RefCell<Names>,
        /// The settings as last handed to `make`, kept: every plan builds the same clients.
        settings: RefCell<Vec<(Settings, JsValue)>>,
    }

    impl Shared {
        fn name(&self, id: u32) -> Option<String> {
            if let Some(name) = self.names.borrow().get(id) {
                return Some(name.clone());
            }
            // Ids index a table: one past every name the run could have is refused.
            if id as usize > self.names.borrow().by_id.len() + MAX_NEW_NAMES {
                return None;
            }
            let name = self.maker.timer_name(id).ok()?.as_string()?;
            self.names.borrow_mut().learn(id, &name);
            Some(name)
        }

        fn id(&self, name: &str) -> Option<u32> {
            if let Some(id) = self.names.borrow().id(name) {
                return Some(id);
            }
            let id = whole(self.maker.timer_id(name).ok()?).and_then(|i| u32::try_from(i).ok())?;
            if id as usize > self.names.borrow().by_id.len() + MAX_NEW_NAMES {
                return None;
            }
            self.names.borrow_mut().learn(id, name);
            Some(id)
        }

        fn settings(&self, cfg: &ClientConfig) -> JsValue {
            let settings = Settings::of(cfg);
            let mut kept = self.settings.borrow_mut();
            if let Some((_, value)) = kept.iter().find(|(s, _)| *s == settings) {
                return value.clone();
            }
            // `releaseAfter` is null, not undefined, when the scenario has none.
            let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
            let value = settings.serialize(&serializer).unwrap_or_default();
            if kept.len() < 16 {
                kept.push((settings, value.clone()));
            }
            value
        }

        /// The actions in the first `n` slots; `None` if any is not one.
        fn actions(&self, n: usize, into: &mut Vec<Action>) -> Option<()> {
            if n > SLOTS || n % SLOT != 0 {
                return None;
            }
            for slot in self.slots[..n].chunks_exact(SLOT) {
                let (a, b) = (slot[1].get(), slot[2].get());
                let name = || self.name(u32::try_from(whole(a)?).ok()?);
                let action = match wire::op(whole(slot[0].get())?)? {
                    Op::Acquire => Action::Acquire { ttl: whole(a)? },
                    Op::Renew => Action::Renew { token: whole(a)? },
                    Op::Release => Action::Release { token: whole(a)? },
                    Op::Write => Action::Write { token: whole(a)? },
                    Op::After => Action::After {
                        name: name()?,
                        delay: whole(b)?,
                    },
                    Op::AtWall => Action::AtWall {
                        name: name()?,
                        at: i64::try_from(whole(b)?).ok()?,
                    },
                    Op::Cancel => Action::Cancel { name: name()? },
                    Op::Lost => Action::Lost {
                        reason: wire::loss(whole(a)?)?,
                    },
                };
                into.push(action);
            }
            Some(())
        }
    }

    /// `x` as a whole number from 0 to 2^53 − 1, the range a JavaScript number holds exactly.
    fn whole(x: f64) -> Option<u64> {
        (x.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&x)).then_some(x as u64)
    }

    /// One instance of the learner's code, reached through the runtime.
    struct JsClient {
        instance: Instance,
        shared: Rc<Shared>,
    }

    impl Handlers for JsClient {
        fn handle(&mut self, input: &Input<'_>) -> Option<Handled> {
            let (x, y, z) = match input.kind {
                InputKind::Start => (0.0, 0.0, 0.0),
                InputKind::Reply => {
                    let a = input.answer?;
                    let z = match (a.token, a.deleted) {
                        (Some(token), _) => token as f64,
                        (None, Some(deleted)) => f64::from(u8::from(deleted)),
                        (None, None) => 0.0,
                    };
                    (
                        f64::from(wire::answer_code(a.kind)),
                        f64::from(a.request),
                        z,
                    )
                }
                InputKind::Timer => (f64::from(self.shared.id(input.timer?)?), 0.0, 0.0),
            };
            let kind = wire::kind_code(input.kind);
            let (mono, wall) = (input.mono as f64, input.wall as f64);
            let r = self.instance.handle(kind, mono, wall, x, y, z).ok()?;
            let (n, more) = if r >= 0.0 {
                (r, false)
            } else {
                (-1.0 - r, true)
            };
            let n = usize::try_from(whole(n)?).ok()?;
            let mut actions = Vec::with_capacity(n / SLOT);
            self.shared.actions(n, &mut actions)?;
            if !more {
                return Some(Handled::Returned {
                    actions,
                    output: Vec::new(),
                });
            }
            let text = self.instance.last().ok()?.as_string()?;
            match serde_json::from_str(&text).ok()? {
                Handled::Returned {
                    actions: rest,
                    output,
                } => {
                    actions.extend(rest);
                    Some(Handled::Returned { actions, output })
                }
                threw @ Handled::Threw { .. } => Some(threw),
            }
        }
    }

    /// The maker of every client of one task, with the action buffer handed to the runtime.
    fn maker(make: &Function) -> Option<impl FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers>> {
        let slots: ActionSlots = (0..SLOTS).map(|_| Cell::new(0.0)).collect();
        let maker: Maker = make.clone().unchecked_into();
        // Wasm32 pointers fit in u32.
        let ptr = slots.as_ptr() as usize as u32;
        maker
            .output(&wasm_bindgen::memory(), ptr, SLOTS as u32)
            .ok()?;
        let shared = Rc::new(Shared {
            maker,
            slots,
            names: RefCell::default(),
            settings: RefCell::default(),
        });
        let make = make.clone();
        Some(move |client: ClientId, cfg: &ClientConfig| {
            // A run's world makes its clients in order, A first: both sides forget the last
            // run's names, so a run that makes up new names as it goes holds only its own.
            if client == ClientId(0) {
                *shared.names.borrow_mut() = Names::default();
                let _ = shared.maker.new_run();
            }
            let settings = shared.settings(cfg);
            let letter = JsValue::from_str(&client.letter().to_string());
            let instance = make
                .call2(&JsValue::NULL, &letter, &settings)
                .unwrap_or_default()
                .unchecked_into();
            Box::new(JsClient {
                instance,
                shared: shared.clone(),
            }) as Box<dyn Handlers>
        })
    }

    fn scenario(task: &str) -> Option<Scenario> {
        unpack::<Scenario>(task).filter(|s| s.validate().is_ok())
    }

    /// The codes and limits the runtime speaks to this module with ([`wire::Table`]); the
    /// worker hands them to the runtime before any client is made.
    #[wasm_bindgen(js_name = wire)]
    pub fn wire_table() -> JsValue {
        let serializer = serde_wasm_bindgen::Serializer::json_compatible();
        wire::table().serialize(&serializer).unwrap_or_default()
    }

    /// Runs the learner's client on the scenario `task` packs; the packed [`Report`], or an
    /// empty string if the task cannot be read.
    #[wasm_bindgen]
    pub fn run_client(task: &str, make: &Function) -> String {
        let (Some(s), Some(mut make)) = (scenario(task), maker(make)) else {
            return String::new();
        };
        let report = Report::Ran(run(&s, &mut make).into());
        pack(&report).unwrap_or_default()
    }

    /// Searches the packed [`SearchSpec`] `spec` over the scenario `task` packs against the
    /// learner's client, calling `progress(ran, shrinking)` before each run of its code (see
    /// [`SearchAt`]).
    #[wasm_bindgen]
    pub fn search_client(task: &str, spec: &str, make: &Function, progress: &Function) -> String {
        let (Some(s), Some(spec)) = (scenario(task), unpack::<SearchSpec>(spec)) else {
            return String::new();
        };
        if !spec.is_valid() {
            return String::new();
        }
        let Some(mut make) = maker(make) else {
            return String::new();
        };
        let outcome = search(&s, &spec, &mut make, |at| {
            let (ran, shrinking) = match at {
                SearchAt::Plan { ran } => (ran, false),
                SearchAt::Shrinking { ran } => (ran, true),
            };
            let (ran, shrinking) = (JsValue::from_f64(ran as f64), JsValue::from_bool(shrinking));
            let _ = progress.call2(&JsValue::NULL, &ran, &shrinking);
        });
        let plan = match &outcome {
            OwnSearch::Held { .. } => None,
            OwnSearch::Broke { found, .. } => Some(found.plan.clone()),
            OwnSearch::Stopped { plan, .. } => Some(plan.clone()),
        };
        let run = plan.map(|plan| run(&with_plan(&s, plan), &mut make).into());
        pack(&Report::Searched { outcome, run }).unwrap_or_default()
    }
}

fn main() {}
