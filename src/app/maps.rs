//! The Maps tab: the lesson map, the architecture and sequence diagrams, the lifecycle's
//! export, the tables, the network-blip rules and the TTL inequality with its calculator.

use yew::prelude::*;

use super::address;
use super::diagrams::{ArchitectureDiagram, MermaidExport, SequenceDiagram, SequenceMessage};
use crate::lesson::content::{ArchNode, Table};
use crate::lesson::diagram::{ArchSelection, SequenceStep};
use crate::lesson::mermaid::{architecture_flowchart, heartbeat_sequence, lifecycle_state_diagram};
use crate::lesson::ttl::read_inputs;
use crate::lesson::LESSON;
use crate::model::calc::advise_ttl;
use crate::route::Tab;

/// The Maps tab, section by section in reading order.
#[component]
pub fn MapsTab() -> Html {
    let hydrated = super::hydration::use_hydrated();
    let key = address::use_selection_key();
    html! {
        <div class="lesson maps">
            { map_section() }
            { architecture_section(hydrated, key) }
            { lifecycle_section() }
            { pattern_section() }
            { sequence_section(hydrated, key) }
            { table_section(LESSON.table("soft_hard")) }
            { table_section(LESSON.table("clock_skew")) }
            { blips_section() }
            { table_section(LESSON.table("lease_length")) }
            { ttl_section() }
            <section aria-labelledby="maps-unlock">
                <h2 id="maps-unlock">{LESSON.unlock.heading}</h2>
                <p>{LESSON.unlock.answer}</p>
            </section>
        </div>
    }
}

/// The lesson map: each idea and the tab where it lives.
fn map_section() -> Html {
    let maps = &LESSON.maps;
    html! {
        <section aria-labelledby="maps-map">
            <h2 id="maps-map">{maps.map_heading}</h2>
            <p class="lead">{maps.map_intro}</p>
            <ul class="lesson-map">
                { for maps.map.iter().map(|entry| {
                    let tab = Tab::ALL.into_iter().find(|t| t.label() == entry.place).unwrap_or(Tab::Maps);
                    html! {
                        <li class="map-entry">
                            <strong>{entry.title}</strong>
                            <span>{entry.idea}</span>
                            <a class="place" href={format!("#/{}", tab.slug())}>{entry.place}</a>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

/// The architecture diagram (its selection goes into the share link, read once `hydrated`,
/// and again under a new `key` when a followed link changes it) and its export.
fn architecture_section(hydrated: bool, key: u32) -> Html {
    let architecture = &LESSON.architecture;
    html! {
        <section aria-labelledby="maps-architecture">
            <h2 id="maps-architecture">{architecture.heading}</h2>
            <ArchitectureDiagram {key}
                initial={hydrated.then(address::initial_selection).flatten().and_then(|id| ArchSelection::from_id(&id))}
                on_select={Callback::from(|s: ArchSelection| address::record_selection(Some(s.id())))} />
            <MermaidExport title={architecture.heading} text={architecture_flowchart()} file={architecture.file} />
        </section>
    }
}

/// The lifecycle's summary and export; the diagram itself is on the Gist tab.
fn lifecycle_section() -> Html {
    let lifecycle_map = &LESSON.lifecycle_map;
    html! {
        <section aria-labelledby="maps-lifecycle">
            <h2 id="maps-lifecycle">{lifecycle_map.heading}</h2>
            <p>{LESSON.lifecycle.summary}</p>
            <p class="muted">{lifecycle_map.intro}{" "}<a href="#/gist">{Tab::Gist.label()}</a></p>
            <MermaidExport title={lifecycle_map.heading} text={lifecycle_state_diagram()} file={lifecycle_map.file} />
        </section>
    }
}

/// The heartbeat pattern, step by step.
fn pattern_section() -> Html {
    let pattern = &LESSON.pattern;
    html! {
        <section aria-labelledby="maps-pattern">
            <h2 id="maps-pattern">{pattern.heading}</h2>
            <p>{pattern.lead}</p>
            <ol class="pattern">
                { for pattern.steps.iter().map(|s| html! { <li>{*s}</li> }) }
            </ol>
        </section>
    }
}

/// The heartbeat story as a sequence diagram (its selected step goes into the share link, as
/// the architecture's does), and its export.
fn sequence_section(hydrated: bool, key: u32) -> Html {
    let sequence = &LESSON.sequence;
    html! {
        <section aria-labelledby="maps-sequence">
            <h2 id="maps-sequence">{sequence.heading}</h2>
            { heartbeat_sequence_diagram(key, hydrated) }
            <MermaidExport title={sequence.heading} text={heartbeat_sequence()} file={sequence.file} />
        </section>
    }
}

/// The heartbeat story's diagram, on the Maps tab and embedded alone: the link's step shows
/// selected once `hydrated` (the server renders none), and a selected step goes into the
/// share link.
pub fn heartbeat_sequence_diagram(key: u32, hydrated: bool) -> Html {
    let sequence = &LESSON.sequence;
    html! {
        <SequenceDiagram {key}
            selected={hydrated.then(address::initial_selection).flatten().and_then(|id| SequenceStep::from_id(&id)).map(|step| step.0)}
            on_select={Callback::from(|index: usize| address::record_selection(Some(SequenceStep(index).id())))}
            participants={ArchNode::ALL.iter().map(|n| AttrValue::from(n.title())).collect::<Vec<_>>()}
            messages={heartbeat_messages()}
            explanations={sequence.messages.iter().map(|m| AttrValue::from(m.explain)).collect::<Vec<_>>()}
            label={sequence.diagram_label}
            hint={sequence.intro} />
    }
}

/// What to do about a network blip.
fn blips_section() -> Html {
    let blips = &LESSON.blips;
    html! {
        <section aria-labelledby="maps-blips">
            <h2 id="maps-blips">{blips.heading}</h2>
            <ul>
                { for blips.bullets.iter().map(|b| html! { <li>{*b}</li> }) }
            </ul>
            <p class="note">{blips.note}</p>
        </section>
    }
}

/// The TTL inequality and its calculator.
fn ttl_section() -> Html {
    let ttl = &LESSON.ttl;
    html! {
        <section aria-labelledby="maps-ttl">
            <h2 id="maps-ttl">{ttl.heading}</h2>
            <p>{ttl.lead}</p>
            <pre class="formula"><code>{ttl.formula}</code></pre>
            { for ttl.after.iter().map(|p| html! { <p>{*p}</p> }) }
            <TtlCalculator />
        </section>
    }
}

/// The lesson's heartbeat story as sequence-diagram arrows (also drawn by embed mode).
fn heartbeat_messages() -> Vec<SequenceMessage> {
    let index = |node: ArchNode| ArchNode::ALL.iter().position(|&n| n == node).unwrap_or(0);
    LESSON
        .sequence
        .messages
        .iter()
        .map(|m| SequenceMessage {
            from: index(m.from),
            to: index(m.to),
            label: AttrValue::from(m.label),
            time: None,
        })
        .collect()
}

/// A lesson table as a real table: caption, column headers, and the first cell of each
/// row as its row header.
fn table_section(table: &'static Table) -> Html {
    let heading_id = format!("maps-{}", table.id);
    html! {
        <section aria-labelledby={heading_id.clone()}>
            <h2 id={heading_id}>{table.heading}</h2>
            <div class="table-wrap" role="region" tabindex="0" aria-labelledby={format!("caption-{}", table.id)}>
                <table id={format!("table-{}", table.id)} class="stack-table">
                    <caption id={format!("caption-{}", table.id)}>{table.caption}</caption>
                    <thead>
                        <tr>{ for table.columns.iter().map(|c| html! { <th scope="col">{*c}</th> }) }</tr>
                    </thead>
                    <tbody>
                        { for table.rows.iter().map(|row| html! {
                            <tr>
                                { for row.iter().enumerate().map(|(i, cell)| if i == 0 {
                                    html! { <th scope="row">{*cell}</th> }
                                } else {
                                    html! { <td data-label={table.columns[i]}>{*cell}</td> }
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            if !table.note.is_empty() {
                <p class="note">{table.note}</p>
            }
        </section>
    }
}

/// The TTL inequality as a form: four measurements in, minimum T, proposed T and heartbeat out.
#[component]
fn TtlCalculator() -> Html {
    let ttl = &LESSON.ttl;
    let fields = use_state(|| {
        [
            ttl.work_default,
            ttl.rtt_default,
            ttl.gc_default,
            ttl.margin_default,
        ]
        .map(|ms| ms.to_string())
    });
    let labels = [
        ttl.work_label,
        ttl.rtt_label,
        ttl.gc_label,
        ttl.margin_label,
    ];
    let result = read_inputs([&fields[0], &fields[1], &fields[2], &fields[3]]);

    let inputs = labels.iter().enumerate().map(|(index, label)| {
        let id = format!("ttl-field-{index}");
        let error_id = format!("{id}-error");
        let error = match result {
            Err((bad, problem)) if bad == index => Some(problem.message()),
            _ => None,
        };
        let oninput = {
            let fields = fields.clone();
            Callback::from(move |event: InputEvent| {
                let input: web_sys::HtmlInputElement = event.target_unchecked_into();
                let mut next = (*fields).clone();
                next[index] = input.value();
                fields.set(next);
            })
        };
        html! {
            <div class="field">
                <label for={id.clone()}>{*label}</label>
                <div class="with-unit">
                    <input id={id} type="text" inputmode="numeric" autocomplete="off"
                        value={fields[index].clone()} {oninput}
                        aria-invalid={error.is_some().to_string()}
                        aria-describedby={error.map(|_| error_id.clone())} />
                    <span class="unit" aria-hidden="true">{ttl.unit}</span>
                </div>
                if let Some(message) = error {
                    <p class="field-error" id={error_id}>{message}</p>
                }
            </div>
        }
    });

    html! {
        <div class="card calculator">
            <h3>{ttl.calculator_heading}</h3>
            <p class="muted">{ttl.calculator_intro}</p>
            <div class="fields">{ for inputs }</div>
            <div class="results" aria-live="polite">
                { match result {
                    Ok(inputs) => {
                        let advice = advise_ttl(inputs);
                        html! {
                            <dl>
                                <div class="result"><dt>{ttl.minimum_label}</dt><dd class="minimum">{format!("T > {}", advice.minimum)}</dd></div>
                                <div class="result"><dt>{ttl.proposed_label}</dt><dd>{advice.proposed.to_string()}</dd></div>
                                <div class="result"><dt>{ttl.heartbeat_label}</dt><dd>{advice.heartbeat.to_string()}</dd></div>
                            </dl>
                        }
                    }
                    Err(_) => html! { <p class="muted">{ttl.calculator_invalid}</p> },
                } }
            </div>
            <p class="exercise">{ttl.exercise}</p>
        </div>
    }
}
