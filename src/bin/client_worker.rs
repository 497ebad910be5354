//! "Your client"'s engine inside the snippet sandbox: a thin shell that runs the learner's
//! code as every client of a scenario in the model's world
//! ([`lease_lab::lab::own_client`]). The sandbox's worker (`www/snippets/sandbox/worker.js`)
//! imports this module from bytes the page handed in, and passes `make`, which builds one
//! fresh instance of the learner's code per client. Tasks come in and reports go out as
//! packed text ([`lease_lab::lab::own_client::report`]), relayed unread to the page, which
//! re-checks every run itself.

#[cfg(target_arch = "wasm32")]
mod shell {
    use js_sys::{Function, Reflect};
    use lease_lab::lab::own_client::report::{pack, unpack};
    use lease_lab::lab::own_client::runner::{run, search};
    use lease_lab::lab::own_client::{Handled, Handlers, Input, OwnSearch, Report, Settings};
    use lease_lab::model::search::{with_plan, SearchSpec};
    use lease_lab::model::{ClientConfig, ClientId, Scenario};
    use serde::Serialize;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    /// One instance of the learner's code: `handle(input)` on the object `make` returned.
    struct JsClient {
        instance: JsValue,
        handle: Option<Function>,
    }

    impl Handlers for JsClient {
        fn handle(&mut self, input: &Input<'_>) -> Option<Handled> {
            let handle = self.handle.as_ref()?;
            let input = serde_wasm_bindgen::to_value(input).ok()?;
            let result = handle.call1(&self.instance, &input).ok()?;
            serde_wasm_bindgen::from_value(result).ok()
        }
    }

    fn maker(make: &Function) -> impl FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers> + '_ {
        move |client, cfg| {
            // `releaseAfter` is null, not undefined, when the scenario has none.
            let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
            let settings = Settings::of(cfg).serialize(&serializer).unwrap_or_default();
            let letter = JsValue::from_str(&client.letter().to_string());
            let instance = make
                .call2(&JsValue::NULL, &letter, &settings)
                .unwrap_or_default();
            let handle = Reflect::get(&instance, &JsValue::from_str("handle"))
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok());
            Box::new(JsClient { instance, handle })
        }
    }

    fn scenario(task: &str) -> Option<Scenario> {
        unpack::<Scenario>(task).filter(|s| s.validate().is_ok())
    }

    /// Runs the learner's client on the scenario `task` packs; the packed [`Report`], or an
    /// empty string if the task cannot be read.
    #[wasm_bindgen]
    pub fn run_client(task: &str, make: &Function) -> String {
        let Some(s) = scenario(task) else {
            return String::new();
        };
        let report = Report::Ran(run(&s, &mut maker(make)).into());
        pack(&report).unwrap_or_default()
    }

    /// Searches the packed [`SearchSpec`] `spec` over the scenario `task` packs against the
    /// learner's client, calling `progress(ran)` after each plan.
    #[wasm_bindgen]
    pub fn search_client(task: &str, spec: &str, make: &Function, progress: &Function) -> String {
        let (Some(s), Some(spec)) = (scenario(task), unpack::<SearchSpec>(spec)) else {
            return String::new();
        };
        if !spec.is_valid() {
            return String::new();
        }
        let mut make = maker(make);
        let outcome = search(&s, &spec, &mut make, |ran| {
            let _ = progress.call1(&JsValue::NULL, &JsValue::from_f64(ran as f64));
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
