//! The pitfall exercise: the TTL calculator prefilled with the lesson's numbers, a T of the
//! learner's choosing, a 400 ms stop-the-world pause at a chosen point of the renew period,
//! the outcome explained, and a sweep of every start across one period.

use crate::lesson::sentences;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::lab::describe;
use crate::lab::pitfall::{PitfallTry, MAX_TTL, MIN_TTL, SWEEP_STARTS};
use crate::lesson::content::{PitfallWords, SANDBOX};
use crate::lesson::ttl::{read_inputs, MsError};
use crate::model::notation::{parse_decimal, print_decimal};
use crate::model::{
    advise_ttl, presets::PITFALL_PAUSE, PauseSweep, SimDuration, SweepCase, TtlAdvice, TtlInputs,
};

/// The calculator's fields: each input's id and its label.
fn calculator_fields(words: &'static PitfallWords) -> [(&'static str, &'static str); 4] {
    [
        ("pitfall-work", words.work),
        ("pitfall-rtt", words.rtt),
        ("pitfall-gc", words.gc),
        ("pitfall-margin", words.margin),
    ]
}

/// A length in whole milliseconds where it has no fraction of one, as the T field shows it.
fn millis_text(d: SimDuration) -> String {
    print_decimal(d.0, 3)
}

/// The learner's T in milliseconds (to the microsecond), or `None` if it is not a length.
fn read_ttl(text: &str) -> Option<SimDuration> {
    parse_decimal(text.trim(), 3)
        .ok()
        .filter(|&us| us > 0)
        .map(SimDuration)
}

/// The whole exercise.
#[component]
pub fn PitfallExercise() -> Html {
    let fields = use_state(|| {
        [
            "200".to_owned(),
            "20".to_owned(),
            "150".to_owned(),
            "0".to_owned(),
        ]
    });
    let chosen_ttl = use_state(|| None::<String>);
    let offset_permille = use_state(|| 720u32);

    let inputs = read_inputs([&fields[0], &fields[1], &fields[2], &fields[3]]);
    let advice = advise_ttl(*inputs.as_ref().unwrap_or(&TtlInputs::LESSON));
    let ttl_text = (*chosen_ttl)
        .clone()
        .unwrap_or_else(|| millis_text(advice.proposed));
    let typed_ttl = read_ttl(&ttl_text);
    let ttl = typed_ttl.unwrap_or(advice.proposed);
    let attempt = PitfallTry::at_permille(ttl, *offset_permille);
    let period = attempt.stated_period();
    let field_input = |index: usize| {
        let fields = fields.clone();
        Callback::from(move |event: InputEvent| {
            let mut next = (*fields).clone();
            next[index] = event.target_unchecked_into::<HtmlInputElement>().value();
            fields.set(next);
        })
    };
    let choice = Choice {
        ttl_text,
        ttl_refused: typed_ttl.is_none_or(|t| !(MIN_TTL..=MAX_TTL).contains(&t)),
        ttl,
        period,
        attempt,
        offset_permille: *offset_permille,
    };
    let words = &SANDBOX.pitfall;
    html! {
        <section class="card pitfall" aria-labelledby="pitfall-title">
            <h3 id="pitfall-title">{words.heading}</h3>
            <p>{words.question}</p>
            <div class="pitfall-calculator">
                { for calculator_fields(words).iter().enumerate().map(|(index, (id, label))| html! {
                    <div class="field">
                        <label for={*id}>{*label}</label>
                        <input id={*id} type="text" inputmode="numeric" value={fields[index].clone()}
                            oninput={field_input(index)} aria-describedby="pitfall-inequality" />
                        <span class="unit">{words.unit}</span>
                    </div>
                }) }
                <p id="pitfall-inequality" class="inequality" aria-live="polite">
                    { inequality(&inputs, &advice) }
                </p>
            </div>
            { choice.view(&chosen_ttl, &offset_permille) }
            { verdict(&attempt.case(), ttl) }
            { sweep_figure(&attempt.sweep(), *offset_permille, period) }
        </section>
    }
}

/// The TTL inequality for the calculator's numbers, or what is wrong with them.
fn inequality(inputs: &Result<TtlInputs, (usize, MsError)>, advice: &TtlAdvice) -> Html {
    let words = &SANDBOX.pitfall;
    match inputs {
        Ok(_) => html! {
            <>
                <strong>{sentences::sandbox::pitfall::Minimum { minimum: advice.minimum }.to_string()}</strong>
                {sentences::sandbox::pitfall::Advice { proposed: advice.proposed, heartbeat: advice.heartbeat }.to_string()}
            </>
        },
        Err((index, problem)) => html! {
            <span class="status-warn">{sentences::sandbox::pitfall::FieldProblem { field: calculator_fields(words)[*index].1, problem: problem.message() }.to_string()}</span>
        },
    }
}

/// The learner's T and where in the renew period the pause starts.
struct Choice {
    ttl_text: String,
    ttl_refused: bool,
    ttl: SimDuration,
    period: SimDuration,
    attempt: PitfallTry,
    offset_permille: u32,
}

impl Choice {
    fn view(
        &self,
        chosen_ttl: &UseStateHandle<Option<String>>,
        offset: &UseStateHandle<u32>,
    ) -> Html {
        let on_ttl = {
            let chosen_ttl = chosen_ttl.clone();
            Callback::from(move |event: InputEvent| {
                chosen_ttl.set(Some(
                    event.target_unchecked_into::<HtmlInputElement>().value(),
                ));
            })
        };
        let use_proposed = {
            let chosen_ttl = chosen_ttl.clone();
            Callback::from(move |_: MouseEvent| chosen_ttl.set(None))
        };
        let on_offset = {
            let offset = offset.clone();
            Callback::from(move |event: InputEvent| {
                let value = event.target_unchecked_into::<HtmlInputElement>().value();
                offset.set(value.parse::<u32>().unwrap_or(0).min(1000));
            })
        };
        let used = SimDuration(self.ttl.0.clamp(MIN_TTL.0, MAX_TTL.0));
        let words = &SANDBOX.pitfall;
        let (offset, period) = (self.attempt.offset, self.period);
        html! {
            <div class="pitfall-choice">
                <div class="field">
                    <label for="pitfall-ttl">{words.your_ttl}</label>
                    <input id="pitfall-ttl" type="text" inputmode="decimal" value={self.ttl_text.clone()} oninput={on_ttl}
                        aria-invalid={self.ttl_refused.to_string()}
                        aria-describedby={self.ttl_refused.then_some("pitfall-ttl-refused")} />
                    <span class="unit">{words.unit}</span>
                </div>
                <button type="button" class="button small" onclick={use_proposed}>{words.use_proposed}</button>
                if self.ttl_refused {
                    <p id="pitfall-ttl-refused" class="status-warn small" role="status">
                        {sentences::sandbox::pitfall::TtlRefused { min: MIN_TTL, max: MAX_TTL, used }.to_string()}
                    </p>
                }
                <p class="muted">{sentences::sandbox::pitfall::Heartbeat { period }.to_string()}</p>
                <label for="pitfall-offset">
                    {sentences::sandbox::pitfall::Offset { offset }.to_string()}
                </label>
                <input id="pitfall-offset" type="range" min="0" max="1000" step="1"
                    value={self.offset_permille.to_string()} oninput={on_offset}
                    aria-valuetext={sentences::sandbox::pitfall::OffsetValue { offset, period }.to_string()} />
            </div>
        }
    }
}

/// What became of client A, in a sentence.
fn verdict(case: &SweepCase, ttl: SimDuration) -> Html {
    let text = match case.lost {
        Some((at, reason)) => sentences::sandbox::pitfall::Lost {
            at,
            reason: describe::lost_reason(reason),
            after_flag: case.writes_after_lost_flag,
            rejected: sentences::sandbox::pitfall::StaleWrites {
                count: case.fence_rejections,
            }
            .to_string(),
            accepted: sentences::sandbox::pitfall::StaleWrites {
                count: case.stale_accepted,
            }
            .to_string(),
        }
        .to_string(),
        None => sentences::sandbox::pitfall::Kept {
            ttl,
            pause: PITFALL_PAUSE,
        }
        .to_string(),
    };
    let class = if case.is_lost() {
        "status-bad"
    } else {
        "status-ok"
    };
    html! { <p class={classes!("pitfall-verdict", class)} role="status">{text}</p> }
}

/// What became of the writes over the starts that lost the lease, as the runs counted them.
fn losses(sweep: &PauseSweep) -> String {
    let (after_flag, rejected, accepted) = sweep.losing_writes();
    sentences::sandbox::pitfall::SweepLosses {
        after_flag,
        rejected,
        accepted,
    }
    .to_string()
}

/// One bar per pause start across the renew period, and a marker at the chosen one.
fn sweep_figure(sweep: &PauseSweep, offset_permille: u32, period: SimDuration) -> Html {
    let bar_width = 600.0 / f64::from(SWEEP_STARTS);
    let marker = (10.0 + 600.0 * f64::from(offset_permille) / 1000.0).to_string();
    let words = &SANDBOX.pitfall;
    let (starts, lost) = (sweep.cases.len(), sweep.lost_count());
    let percent = sweep.lost_permille() / 10;
    html! {
        <figure class="sweep">
            <svg viewBox="0 0 620 90" role="img"
                aria-label={sentences::sandbox::pitfall::SweepLabel { starts, lost }.to_string()}>
                { for sweep.cases.iter().enumerate().map(|(i, case)| {
                    let x = 10.0 + bar_width * i as f64;
                    html! {
                        <rect class={if case.is_lost() { "sweep-lost" } else { "sweep-kept" }}
                            x={x.to_string()} y="10" width={(bar_width - 2.0).to_string()} height="50" rx="2">
                            <title>{sentences::sandbox::pitfall::SweepCase { offset: case.offset, outcome: (if case.is_lost() { words.lease_lost } else { words.lease_kept }).to_owned() }.to_string()}</title>
                        </rect>
                    }
                }) }
                <line class="sweep-marker" x1={marker.clone()} x2={marker} y1="4" y2="66" />
                <text x="10" y="82" class="sweep-axis">{"0"}</text>
                <text x="610" y="82" text-anchor="end" class="sweep-axis">{period.to_string()}</text>
            </svg>
            <figcaption>
                {sentences::sandbox::pitfall::SweepCaption { lost, starts, percent }.to_string()}
                if lost > 0 {
                    {" "}{losses(sweep)}
                }
            </figcaption>
        </figure>
    }
}
