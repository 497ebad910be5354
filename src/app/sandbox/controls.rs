//! The laboratory's controls: preset picker, playback bar, the "now" summary, policies and
//! parameters.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::{preset_choices, LabProps, SetupProps, StepProps};
use crate::lab::{LabAction, PolicySwitch, Speed};
use crate::model::{presets, Fraction, Lifecycle, Policy, Scenario, SimDuration, SimTime};

fn select_value(event: &Event) -> String {
    event.target_unchecked_into::<HtmlSelectElement>().value()
}

fn input_value(event: &Event) -> String {
    event.target_unchecked_into::<HtmlInputElement>().value()
}

/// Keeps a `<select>` showing `value` after every render: once the learner has used a
/// select, its options' `selected` attributes no longer steer it.
#[hook]
fn use_selected(value: String) -> NodeRef {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect(move || {
            if let Some(select) = node.cast::<HtmlSelectElement>() {
                select.set_value(&value);
            }
        });
    }
    node
}

/// Chooses one of the canonical scenarios and tells its story.
#[component]
pub fn PresetPicker(props: &SetupProps) -> Html {
    let lab = &props.lab.0;
    let current = lab.preset();
    let onchange = props.send(|event: Event| LabAction::LoadPreset(select_value(&event)));
    let story = current.and_then(presets::preset);
    let select = use_selected(current.unwrap_or_default().to_owned());
    html! {
        <div class="preset-picker">
            <label for="lab-preset">{"Scenario"}</label>
            <select id="lab-preset" ref={select} {onchange}>
                if current.is_none() {
                    <option value="" selected=true disabled=true>{"Your own scenario (edited)"}</option>
                }
                { for preset_choices().into_iter().map(|(id, name)| html! {
                    <option value={id} selected={current == Some(id)}>{name}</option>
                }) }
            </select>
            if let Some(preset) = story {
                <div class="preset-story">
                    <p>{preset.narrative}</p>
                    <p><strong>{"Expected: "}</strong>{preset.expected}</p>
                    <p><strong>{"What to try: "}</strong>{preset.try_this}</p>
                </div>
            } else {
                <p class="preset-story muted">
                    {"You changed the scenario, so it no longer matches a preset. Pick one above to start again."}
                </p>
            }
        </div>
    }
}

/// Play, pause, step, jump, speed and the time scrubber.
#[component]
pub fn PlaybackBar(props: &LabProps) -> Html {
    let lab = &props.lab.0;
    let end = lab.run().end();
    let now_ms = lab.now().0 / 1_000;
    let speed = lab.speed();
    let onspeed = props.send(|event: InputEvent| {
        let step = input_value(&event)
            .parse::<u8>()
            .unwrap_or(Speed::default().step());
        LabAction::SetSpeed(Speed::from_step(step))
    });
    let onscrub = props.send(|event: InputEvent| {
        let ms = input_value(&event).parse::<u64>().unwrap_or(0);
        LabAction::Seek(SimTime::from_millis(ms))
    });
    html! {
        <div class="playback" role="group" aria-label="Playback">
            <div class="playback-buttons">
                <button type="button" class="button primary play" aria-keyshortcuts="Space"
                    onclick={props.send(|_: MouseEvent| LabAction::TogglePlay)}>
                    { if lab.playing() { "Pause" } else { "Play" } }
                </button>
                <button type="button" class="button" aria-keyshortcuts="ArrowLeft"
                    onclick={props.send(|_: MouseEvent| LabAction::StepBack)}>{"Step back"}</button>
                <button type="button" class="button" aria-keyshortcuts="ArrowRight"
                    onclick={props.send(|_: MouseEvent| LabAction::StepForward)}>{"Step forward"}</button>
                <button type="button" class="button"
                    onclick={props.send(|_: MouseEvent| LabAction::JumpToEnd)}>{"Jump to end"}</button>
                <label class="speed">
                    {"Speed "}
                    <input type="range" min={Speed::MIN_STEP.to_string()} max={Speed::MAX_STEP.to_string()}
                        value={speed.step().to_string()} aria-valuetext={speed.label()} oninput={onspeed} />
                    <output>{speed.label()}</output>
                </label>
            </div>
            <div class="scrubber">
                <label for="lab-time">{"Time"}</label>
                <input id="lab-time" type="range" min="0" max={(end.0 / 1_000).to_string()} step="1"
                    value={now_ms.to_string()} aria-valuetext={format!("{} of {}", lab.now(), end)}
                    oninput={onscrub} />
                <p class="clock" aria-label="Simulation time">
                    <span class="now">{format!("t = {}", lab.now())}</span>
                    <span class="muted">{format!(" of {end}")}</span>
                </p>
            </div>
            <p class="hint muted">{"Keys inside the laboratory: Space plays or pauses, ← and → step between events."}</p>
        </div>
    }
}

fn lifecycle_class(state: Lifecycle) -> &'static str {
    match state {
        Lifecycle::Holding | Lifecycle::RenewInFlight => "state-holding",
        Lifecycle::Lost(_) => "state-lost",
        Lifecycle::Acquiring => "state-acquiring",
        Lifecycle::Releasing | Lifecycle::Released => "state-releasing",
        Lifecycle::Idle => "state-idle",
    }
}

/// What is true at the cursor: who the service says holds the lease, and what each client
/// believes.
#[component]
pub fn Summary(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let snapshot = lab.run().state_at(props.at);
    let holder = match snapshot.holder {
        Some((client, token)) => format!("client {client} with token {token}"),
        None => "nobody".to_owned(),
    };
    html! {
        <div class="now-summary" aria-label="State at the cursor">
            <p>{format!("At {} the lock service says the holder is ", props.at)}<strong>{holder}</strong>{"."}</p>
            <ul class="client-states">
                { for snapshot.clients.iter().map(|client| {
                    let mut notes = Vec::new();
                    if let Some(token) = client.token { notes.push(format!("token {token}")); }
                    if client.lost_flag { notes.push("lost flag set".to_owned()); }
                    if client.paused { notes.push("paused".to_owned()); }
                    if client.crashed { notes.push("crashed".to_owned()); }
                    html! {
                        <li class={classes!("client-state", lifecycle_class(client.lifecycle))}>
                            <span class="client-name">{format!("Client {}", client.id)}</span>
                            <span class="client-lifecycle">{client.lifecycle.label()}</span>
                            if !notes.is_empty() {
                                <span class="muted">{notes.join(" · ")}</span>
                            }
                        </li>
                    }
                }) }
            </ul>
        </div>
    }
}

/// The policy switches, "back to Prefer", and compare mode.
#[component]
pub fn PolicyPanel(props: &SetupProps) -> Html {
    let lab = &props.lab.0;
    let policy = lab.scenario().policy;
    let prefer = {
        let lab = props.lab.clone();
        Callback::from(move |_: MouseEvent| {
            let mut scenario = lab.0.scenario().clone();
            scenario.policy = Policy::prefer();
            lab.dispatch(LabAction::SetScenario(scenario));
        })
    };
    let oncompare = props
        .send(|event: Event| LabAction::SetCompare(PolicySwitch::from_slug(&select_value(&event))));
    let compared = lab.compare().map(|c| c.switch);
    let compare_select = use_selected(compared.map_or("", |s| s.slug()).to_owned());
    html! {
        <fieldset class="card policy-panel">
            <legend>{"Policies"}</legend>
            <p class="muted">
                { if lab.scenario().policy == Policy::prefer() {
                    "Prefer: monotonic timers, renew at T × fraction, retry inside the budget, fail closed, fencing."
                } else {
                    "Some switches depart from the lesson's advice (marked below)."
                } }
            </p>
            <button type="button" class="button" onclick={prefer}
                disabled={policy == Policy::prefer()}>{"Back to Prefer"}</button>
            <ul class="switches">
                { for PolicySwitch::ALL.into_iter().map(|switch| {
                    let id = format!("switch-{}", switch.slug());
                    let onchange = props.send(move |_: Event| LabAction::FlipSwitch(switch));
                    html! {
                        <li class={classes!(switch.is_mistake(&policy).then_some("mistake"))}>
                            <input type="checkbox" id={id.clone()} checked={switch.is_on(&policy)}
                                aria-describedby={format!("{id}-why")} {onchange} />
                            <label for={id.clone()}>{switch.label()}</label>
                            <p id={format!("{id}-why")} class="muted small">{switch.description()}</p>
                        </li>
                    }
                }) }
            </ul>
            <label for="lab-compare">{"Compare side by side with"}</label>
            <select id="lab-compare" ref={compare_select} onchange={oncompare}>
                <option value="" selected={compared.is_none()}>{"No comparison"}</option>
                { for PolicySwitch::ALL.into_iter().map(|switch| html! {
                    <option value={switch.slug()} selected={compared == Some(switch)}>
                        {format!("{} {}", if switch.is_on(&policy) { "Without:" } else { "With:" }, switch.label())}
                    </option>
                }) }
            </select>
        </fieldset>
    }
}

/// One editable number of the scenario.
struct NumberField {
    id: &'static str,
    label: &'static str,
    unit: &'static str,
    value: f64,
    min: f64,
    step: f64,
    set: fn(&mut Scenario, f64),
}

fn millis(value: f64) -> SimDuration {
    SimDuration::from_micros((value.max(0.0) * 1_000.0).round() as u64)
}

fn seconds(value: f64) -> SimDuration {
    SimDuration::from_micros((value.max(0.0) * 1_000_000.0).round() as u64)
}

fn ms_of(d: SimDuration) -> f64 {
    d.0 as f64 / 1_000.0
}

fn number_fields(s: &Scenario) -> Vec<NumberField> {
    vec![
        NumberField {
            id: "ttl",
            label: "Lease TTL (T)",
            unit: "s",
            value: s.ttl.as_secs_f64(),
            min: 0.01,
            step: 0.01,
            set: |s, v| s.ttl = seconds(v),
        },
        NumberField {
            id: "request-timeout",
            label: "Request timeout",
            unit: "ms",
            value: ms_of(s.request_timeout),
            min: 1.0,
            step: 1.0,
            set: |s, v| s.request_timeout = millis(v),
        },
        NumberField {
            id: "retry",
            label: "Retry interval",
            unit: "ms",
            value: ms_of(s.retry_interval),
            min: 10.0,
            step: 1.0,
            set: |s, v| s.retry_interval = millis(v),
        },
        NumberField {
            id: "rtt",
            label: "Round trip (RTT)",
            unit: "ms",
            value: ms_of(s.rtt),
            min: 0.0,
            step: 1.0,
            set: |s, v| s.rtt = millis(v),
        },
        NumberField {
            id: "jitter",
            label: "Jitter",
            unit: "ms",
            value: ms_of(s.jitter),
            min: 0.0,
            step: 1.0,
            set: |s, v| s.jitter = millis(v),
        },
        NumberField {
            id: "loss",
            label: "Packet loss",
            unit: "%",
            value: f64::from(s.loss_ppm) / 10_000.0,
            min: 0.0,
            step: 0.1,
            set: |s, v| s.loss_ppm = (v.clamp(0.0, 100.0) * 10_000.0).round() as u32,
        },
        NumberField {
            id: "work",
            label: "Work slice (one write each)",
            unit: "ms",
            value: ms_of(s.work_slice),
            min: 10.0,
            step: 1.0,
            set: |s, v| s.work_slice = millis(v),
        },
        NumberField {
            id: "drift-margin",
            label: "Drift margin",
            unit: "ms",
            value: ms_of(s.drift_margin),
            min: 0.0,
            step: 1.0,
            set: |s, v| s.drift_margin = millis(v),
        },
        NumberField {
            id: "lock-delay",
            label: "Lock-delay after expiry",
            unit: "s",
            value: s.lock_delay.as_secs_f64(),
            min: 0.0,
            step: 0.1,
            set: |s, v| s.lock_delay = seconds(v),
        },
        NumberField {
            id: "token-start",
            label: "First fencing token",
            unit: "",
            value: s.token_start as f64,
            min: 0.0,
            step: 1.0,
            set: |s, v| s.token_start = v.max(0.0) as u64,
        },
        NumberField {
            id: "seed",
            label: "Seed",
            unit: "",
            value: s.seed as f64,
            min: 0.0,
            step: 1.0,
            set: |s, v| s.seed = v.max(0.0) as u64,
        },
        NumberField {
            id: "clients",
            label: "Clients",
            unit: "",
            value: f64::from(s.clients),
            min: 2.0,
            step: 1.0,
            set: |s, v| s.clients = v.clamp(0.0, 255.0) as u8,
        },
        NumberField {
            id: "duration",
            label: "Run length",
            unit: "s",
            value: s.duration.as_secs_f64(),
            min: 0.001,
            step: 1.0,
            set: |s, v| s.duration = seconds(v),
        },
    ]
}

const RENEW_FRACTIONS: [(u32, u32); 5] = [(1, 2), (1, 3), (1, 4), (1, 5), (2, 3)];

/// Every number of the scenario, the renew fraction, and the defaults of real systems.
#[component]
pub fn ParametersPanel(props: &SetupProps) -> Html {
    let lab = &props.lab.0;
    let scenario = lab.scenario();
    let fraction = scenario.renew_every;
    let onfraction = {
        let lab = props.lab.clone();
        Callback::from(move |event: Event| {
            let value = select_value(&event);
            let Some((num, den)) = value.split_once('/') else {
                return;
            };
            let (Ok(num), Ok(den)) = (num.parse(), den.parse()) else {
                return;
            };
            let mut scenario = lab.0.scenario().clone();
            scenario.renew_every = Fraction { num, den };
            lab.dispatch(LabAction::SetScenario(scenario));
        })
    };
    let ondefaults = props.send(|event: Event| LabAction::UseDefaultsOf(select_value(&event)));
    let mut fractions: Vec<(u32, u32)> = RENEW_FRACTIONS.to_vec();
    if !fractions.contains(&(fraction.num, fraction.den)) {
        fractions.push((fraction.num, fraction.den));
    }
    html! {
        <fieldset class="card parameters-panel">
            <legend>{"Parameters"}</legend>
            <div class="field">
                <label for="param-renew">{"Renew every"}</label>
                <select id="param-renew" onchange={onfraction}>
                    { for fractions.into_iter().map(|(num, den)| html! {
                        <option value={format!("{num}/{den}")} selected={(num, den) == (fraction.num, fraction.den)}>
                            {format!("T × {num}/{den}")}
                        </option>
                    }) }
                </select>
                <span class="muted">{format!("= {}", scenario.renew_interval())}</span>
            </div>
            { for number_fields(scenario).into_iter().map(|field| {
                let id = format!("param-{}", field.id);
                let set = field.set;
                let lab = props.lab.clone();
                let onchange = Callback::from(move |event: Event| {
                    let Ok(value) = input_value(&event).trim().parse::<f64>() else { return };
                    if !value.is_finite() { return; }
                    let mut scenario = lab.0.scenario().clone();
                    set(&mut scenario, value);
                    lab.dispatch(LabAction::SetScenario(scenario));
                });
                html! {
                    <div class="field">
                        <label for={id.clone()}>{field.label}</label>
                        <input id={id} type="number" inputmode="decimal" min={field.min.to_string()}
                            step={field.step.to_string()} value={trim_number(field.value)} {onchange} />
                        <span class="unit">{field.unit}</span>
                    </div>
                }
            }) }
            <div class="field wide">
                <label for="param-defaults">{"Use the defaults of"}</label>
                <select id="param-defaults" onchange={ondefaults}>
                    <option value="" selected=true disabled=true>{"a real system…"}</option>
                    { for presets::system_defaults().into_iter().map(|d| html! {
                        <option value={d.system}>{format!("{} (TTL {}, renew {})", d.system, d.ttl, d.renew)}</option>
                    }) }
                </select>
            </div>
        </fieldset>
    }
}

fn trim_number(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}
