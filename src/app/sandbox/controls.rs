//! The laboratory's controls: preset picker, playback bar, the "now" summary, policies and
//! parameters.

use crate::lesson::sentences;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::{preset_choices, LabProps, RunProps, SetupProps};
use crate::lab::{describe, LabAction, PolicySwitch, Speed};
use crate::lesson::content::SANDBOX;
use crate::model::fields::{FormUnit, ScenarioField, SCENARIO_FIELDS};
use crate::model::{presets, Lifecycle, Policy, RunQuestions, Scenario, SimTime};

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
    let story = current.and_then(|id| SANDBOX.preset(id));
    let select = use_selected(current.unwrap_or_default().to_owned());
    let words = &SANDBOX.picker;
    html! {
        <div class="preset-picker">
            <label for="lab-preset">{words.label}</label>
            <select id="lab-preset" ref={select} {onchange}>
                if current.is_none() {
                    <option value="" selected=true disabled=true>{words.edited}</option>
                }
                { for preset_choices().into_iter().map(|(id, name)| html! {
                    <option value={id} selected={current == Some(id)}>{name}</option>
                }) }
            </select>
            if let Some(preset) = story {
                <div class="preset-story">
                    <p>{preset.narrative}</p>
                    <p><strong>{words.expected}</strong>{preset.expected}</p>
                    <p><strong>{words.try_this}</strong>{preset.try_this}</p>
                </div>
            } else {
                <p class="preset-story muted">
                    {words.edited_note}
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
    let words = &SANDBOX.playback;
    use sentences::sandbox::playback::{ClockEnd, ClockNow, TimeValue};
    let now = lab.now();
    html! {
        <div class="playback" role="group" aria-label={words.group}>
            <div class="playback-buttons">
                <button type="button" class="button primary play" aria-keyshortcuts="Space"
                    onclick={props.send(|_: MouseEvent| LabAction::TogglePlay)}>
                    { if lab.playing() { words.pause } else { words.play } }
                </button>
                <button type="button" class="button" aria-keyshortcuts="ArrowLeft"
                    onclick={props.send(|_: MouseEvent| LabAction::StepBack)}>{words.step_back}</button>
                <button type="button" class="button" aria-keyshortcuts="ArrowRight"
                    onclick={props.send(|_: MouseEvent| LabAction::StepForward)}>{words.step_forward}</button>
                <button type="button" class="button"
                    onclick={props.send(|_: MouseEvent| LabAction::JumpToEnd)}>{words.jump_to_end}</button>
                <label class="speed">
                    {words.speed}
                    <input type="range" min={Speed::MIN_STEP.to_string()} max={Speed::MAX_STEP.to_string()}
                        value={speed.step().to_string()} aria-valuetext={speed.label()} oninput={onspeed} />
                    <output>{speed.label()}</output>
                </label>
            </div>
            <div class="scrubber">
                <label for="lab-time">{words.time}</label>
                <input id="lab-time" type="range" min="0" max={(end.0 / 1_000).to_string()} step="1"
                    value={now_ms.to_string()} aria-valuetext={TimeValue { now, end }.to_string()}
                    oninput={onscrub} />
                <p class="clock" aria-label={words.clock}>
                    <span class="now">{ClockNow { now }.to_string()}</span>
                    <span class="muted">{ClockEnd { end }.to_string()}</span>
                </p>
            </div>
            <p class="hint muted">{words.keys}</p>
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
pub fn Summary(props: &RunProps) -> Html {
    let run = &props.run;
    let snapshot = run.state_at(props.at);
    let words = &SANDBOX.summary;
    let holder = match snapshot.holder {
        Some((client, token)) => sentences::sandbox::summary::Holder { client, token }.to_string(),
        None => words.nobody.to_owned(),
    };
    // The holder is shown strong, so the sentence is split where it goes.
    const HOLDER: &str = "\u{1}";
    let sentence = sentences::sandbox::summary::HolderIs {
        at: run.shown_time(props.at),
        holder: HOLDER,
    }
    .to_string();
    let (before, after) = sentence.split_once(HOLDER).unwrap_or((&sentence, ""));
    html! {
        <div class="now-summary" aria-label={words.label}>
            <p>{before}<strong>{holder}</strong>{after}</p>
            <ul class="client-states">
                { for snapshot.clients.iter().map(|client| {
                    let mut notes = Vec::new();
                    if let Some(token) = client.token { notes.push(sentences::sandbox::summary::Token { token }.to_string()); }
                    if client.lost_flag { notes.push(words.lost_flag.to_owned()); }
                    if client.paused { notes.push(words.paused.to_owned()); }
                    if client.crashed { notes.push(words.crashed.to_owned()); }
                    html! {
                        <li class={classes!("client-state", lifecycle_class(client.lifecycle))}>
                            <span class="client-name">{sentences::sandbox::summary::Client { client: client.id }.to_string()}</span>
                            <span class="client-lifecycle">{describe::lifecycle(client.lifecycle)}</span>
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
    let words = &SANDBOX.policies;
    html! {
        <fieldset class="card policy-panel">
            <legend>{words.legend}</legend>
            <p class="muted">
                { if lab.scenario().policy == Policy::prefer() {
                    words.prefer_note
                } else {
                    words.mistake_note
                } }
            </p>
            <button type="button" class="button" onclick={prefer}
                disabled={policy == Policy::prefer()}>{words.back}</button>
            <ul class="switches">
                { for PolicySwitch::ALL.into_iter().map(|switch| {
                    let id = format!("switch-{}", switch.slug());
                    let onchange = props.send(move |_: Event| LabAction::FlipSwitch(switch));
                    html! {
                        <li class={classes!(switch.is_mistake(&policy).then_some("mistake"))}>
                            <input type="checkbox" id={id.clone()} checked={switch.is_on(&policy)}
                                disabled={props.own_client && !crate::lab::own_client::switch_applies(switch)}
                                aria-describedby={format!("{id}-why")} {onchange} />
                            <label for={id.clone()}>{switch.label()}</label>
                            <p id={format!("{id}-why")} class="muted small">{switch.description()}</p>
                        </li>
                    }
                }) }
            </ul>
            // The learner's client compares with the built-in client instead.
            if !props.own_client {
                <label for="lab-compare">{words.compare}</label>
                <select id="lab-compare" ref={compare_select} onchange={oncompare}>
                    <option value="" selected={compared.is_none()}>{words.no_comparison}</option>
                    { for PolicySwitch::ALL.into_iter().map(|switch| html! {
                        <option value={switch.slug()} selected={compared == Some(switch)}>
                            {policy_choice(switch, &policy)}
                        </option>
                    }) }
                </select>
            }
        </fieldset>
    }
}

const RENEW_FRACTIONS: [(u32, u32); 5] = [(1, 2), (1, 3), (1, 4), (1, 5), (2, 3)];

/// Every field of the scenario, one row of the model's table each, and the defaults of
/// real systems.
#[component]
pub fn ParametersPanel(props: &SetupProps) -> Html {
    let scenario = props.lab.0.scenario();
    let ondefaults = props.send(|event: Event| LabAction::UseDefaultsOf(select_value(&event)));
    let words = &SANDBOX.parameters;
    html! {
        <fieldset class="card parameters-panel">
            <legend>{words.legend}</legend>
            { for SCENARIO_FIELDS.iter().map(|field| parameter(props, field, scenario)) }
            <div class="field wide">
                <label for="param-defaults">{words.defaults}</label>
                <select id="param-defaults" onchange={ondefaults}>
                    <option value="" selected=true disabled=true>{words.defaults_choice}</option>
                    { for presets::system_defaults().into_iter().map(|d| {
                        let system = SANDBOX.system(d.slug);
                        html! { <option value={d.slug}>{sentences::sandbox::parameters::System { system: system.system, ttl: d.ttl, renew: system.renew }.to_string()}</option> }
                    }) }
                </select>
            </div>
        </fieldset>
    }
}

/// One field of the form: its label from the content file, its value in the field's form
/// unit, and a change that the lab reads through the same table.
fn parameter(props: &SetupProps, field: &'static ScenarioField, scenario: &Scenario) -> Html {
    let id = format!("param-{}", field.key);
    let label = SANDBOX.field(field.key).label;
    let key = field.key;
    if field.form == FormUnit::Fraction {
        return renew_fraction(props, &id, label, scenario);
    }
    let onchange = props.send(move |event: Event| LabAction::SetField(key, input_value(&event)));
    let inputmode = if field.form == FormUnit::Count {
        "numeric"
    } else {
        "decimal"
    };
    let (invalid, problem) = field_problem(props, key);
    html! {
        <div class="field">
            <label for={id.clone()}>{label}</label>
            // A number field (a spinbutton) whose text is read exactly, as a string: a seed
            // above 2^53 survives, which a float would round.
            <input {id} type="number" step="any" {inputmode} value={field.print_form(scenario)}
                aria-invalid={invalid.to_string()}
                aria-describedby={invalid.then(|| problem_id(key))} {onchange} />
            <span class="unit">{field.form.symbol()}</span>
            {problem}
        </div>
    }
}

fn problem_id(key: &str) -> String {
    format!("param-{key}-problem")
}

/// Whether the lab refused the last change of the field `key`, and the sentence saying why,
/// shown beside the field rather than far above the form.
fn field_problem(props: &SetupProps, key: &'static str) -> (bool, Html) {
    let lab = &props.lab.0;
    match lab.problem().filter(|_| lab.problem_field() == Some(key)) {
        Some(problem) => (
            true,
            html! { <p id={problem_id(key)} class="field-problem status-warn small" role="alert">{problem.to_owned()}</p> },
        ),
        None => (false, Html::default()),
    }
}

/// The renewal fraction as a choice of the usual ones (and the current one).
fn renew_fraction(props: &SetupProps, id: &str, label: &'static str, scenario: &Scenario) -> Html {
    let fraction = scenario.renew_every;
    let onchange = props.send(|event: Event| LabAction::SetField("renew", select_value(&event)));
    let (invalid, problem) = field_problem(props, "renew");
    let mut fractions: Vec<(u32, u32)> = RENEW_FRACTIONS.to_vec();
    if !fractions.contains(&(fraction.num, fraction.den)) {
        fractions.push((fraction.num, fraction.den));
    }
    html! {
        <div class="field">
            <label for={id.to_owned()}>{label}</label>
            <select id={id.to_owned()} aria-invalid={invalid.to_string()}
                aria-describedby={invalid.then(|| problem_id("renew"))} {onchange}>
                { for fractions.into_iter().map(|(num, den)| html! {
                    <option value={format!("{num}/{den}")} selected={(num, den) == (fraction.num, fraction.den)}>
                        {sentences::sandbox::parameters::Fraction { num, den }.to_string()}
                    </option>
                }) }
            </select>
            <span class="muted">{sentences::sandbox::parameters::Interval { interval: scenario.renew_interval() }.to_string()}</span>
            {problem}
        </div>
    }
}

/// A compare option's name: the run without the switch if it is on, with it if it is off.
fn policy_choice(switch: PolicySwitch, policy: &Policy) -> String {
    let switch_label = switch.label();
    if switch.is_on(policy) {
        sentences::sandbox::policies::Without {
            switch: switch_label,
        }
        .to_string()
    } else {
        sentences::sandbox::policies::With {
            switch: switch_label,
        }
        .to_string()
    }
}
