//! The timeline: one lane per node, drawn up to the cursor. The service lane shows whom it
//! considers the holder; each client lane shows when the client believes it holds the
//! lease, its pauses, renewals, losses and writes. Clicking moves the cursor.

use yew::prelude::*;

use super::{LabStore, StepProps};
use crate::lab::LabAction;
use crate::model::{ClientId, Fault, Lifecycle, NodeId, RenewOutcome, SimTime, WriteVerdict};

const WIDTH: f64 = 1000.0;
const GUTTER: f64 = 96.0;
const PLOT: f64 = WIDTH - GUTTER - 12.0;
const LANE: f64 = 34.0;
const TOP: f64 = 8.0;

fn fault_node(fault: &Fault) -> Option<NodeId> {
    match *fault {
        Fault::Pause { client, .. } | Fault::Crash { client } => Some(NodeId::Client(client)),
        Fault::Partition { a, .. } => Some(a),
        Fault::DelayNextPacket { from, .. } => Some(from),
        Fault::ClockStep { node, .. } | Fault::ClockDrift { node, .. } => Some(node),
        Fault::RevokeLease => Some(NodeId::Service),
    }
}

/// Round tick spacing for a run of `end`: about eight ticks.
fn tick_step(end: SimTime) -> u64 {
    let target = (end.0 / 8).max(1);
    [
        1_000u64,
        5_000,
        10_000,
        50_000,
        100_000,
        250_000,
        500_000,
        1_000_000,
        2_000_000,
        5_000_000,
        10_000_000,
        20_000_000,
        30_000_000,
        60_000_000,
        120_000_000,
        300_000_000,
        600_000_000,
    ]
    .into_iter()
    .find(|&step| step >= target)
    .unwrap_or(600_000_000)
}

fn x_of(t: SimTime, end: SimTime) -> f64 {
    GUTTER + PLOT * (t.0.min(end.0) as f64 / end.0.max(1) as f64)
}

fn client_lane(c: ClientId) -> f64 {
    TOP + LANE * (2.0 + f64::from(c.0))
}

/// Everything drawn on the lanes up to the latest event: it changes only when an event
/// happens, so playback between events redraws just the cursor.
#[component]
fn TimelineLanes(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let run = lab.run();
    let end = run.end().max(SimTime(1));
    let now = props.at;
    let clients = run.scenario().clients;
    let x = move |t: SimTime| x_of(t, end);
    let mut shapes: Vec<Html> = Vec::new();
    let lane_y = |node: NodeId| match node {
        NodeId::Service | NodeId::Storage => TOP + LANE,
        NodeId::Client(c) => client_lane(c),
    };

    for tenure in run.holder_intervals().iter().filter(|t| t.span.from <= now) {
        let from = x(tenure.span.from);
        let to = x(tenure.span.until.unwrap_or(end).min(now));
        let y = TOP + LANE + 6.0;
        shapes.push(html! {
            <g class={format!("tenure client-{}", tenure.client.0)}>
                <rect x={from.to_string()} y={y.to_string()} width={(to - from).max(1.0).to_string()} height="18" rx="3" />
                if to - from > 44.0 {
                    <text x={(from + 4.0).to_string()} y={(y + 13.0).to_string()} class="bar-label">
                        {format!("{} · {}", tenure.client, tenure.token)}
                    </text>
                }
            </g>
        });
    }

    // Each failover on the service lane, from the old holder's last renewal to the next grant.
    for failover in run.failovers().iter().filter(|f| f.last_effective <= now) {
        let from = x(failover.last_effective);
        let to = x(failover.granted_at.min(now));
        let y = (TOP + LANE + 28.0).to_string();
        shapes.push(html! {
            <line class="failover" x1={from.to_string()} x2={to.max(from + 1.0).to_string()} y1={y.clone()} y2={y}>
                <title>{format!("Failover from {} to {}: {}", failover.from, failover.to, failover.duration())}</title>
            </line>
        });
    }

    for c in 0..clients {
        let client = ClientId(c);
        let y = client_lane(client);
        for span in run
            .believed_intervals(client)
            .into_iter()
            .filter(|i| i.from <= now)
        {
            let from = x(span.from);
            let to = x(span.until.unwrap_or(end).min(now));
            shapes.push(html! {
                <rect class={format!("believed client-{c}")} x={from.to_string()} y={(y + 8.0).to_string()}
                    width={(to - from).max(1.0).to_string()} height="14" rx="3" />
            });
        }
        for pause in run.pauses(client).filter(|i| i.from <= now) {
            let from = x(pause.from);
            let to = x(pause.until.unwrap_or(end).min(now));
            shapes.push(html! {
                <rect class="pause" x={from.to_string()} y={(y + 4.0).to_string()}
                    width={(to - from).max(2.0).to_string()} height="22" />
            });
        }
        for point in run
            .lifecycle_history(client)
            .iter()
            .filter(|p| p.from <= now)
        {
            if let Lifecycle::Lost(_) = point.state {
                let px = x(point.from);
                shapes.push(html! {
                    <path class="lost-marker" d={format!("M{px},{} l6,8 l-6,8 l-6,-8 z", y + 7.0)}>
                        <title>{format!("Client {client} lost the lease at {}", point.from)}</title>
                    </path>
                });
            }
        }
        if let Some(at) = run.crashed_at(client).filter(|&t| t <= now) {
            let px = x(at);
            shapes.push(html! {
                <text class="crash-marker" x={px.to_string()} y={(y + 20.0).to_string()} text-anchor="middle">{"✕"}</text>
            });
        }
    }

    // Renew attempts on the client's lane: a dot when sent, and one coloured by what became
    // of it when the client learned it (the observer's per-renew record, as the counts use).
    for renew in run.renews().iter().filter(|r| r.sent_at <= now) {
        let cy = (client_lane(renew.client) + 29.0).to_string();
        shapes.push(html! {
            <circle class="renew-dot" cx={x(renew.sent_at).to_string()} cy={cy.clone()} r="2.5" />
        });
        let (class, at) = match renew.outcome {
            RenewOutcome::Ok(t) => ("renew-dot renew-ok", t),
            RenewOutcome::NotOwner(t) => ("renew-dot renew-refused", t),
            RenewOutcome::TimedOut(t) => ("renew-dot renew-lost", t),
            RenewOutcome::Unanswered => continue,
        };
        if at <= now {
            shapes.push(html! {
                <circle class={class} cx={x(at).to_string()} cy={cy} r="2.5" />
            });
        }
    }

    for write in run.storage_log_until(now) {
        let px = x(write.at);
        let y = client_lane(write.client);
        let class = match write.verdict {
            WriteVerdict::Accepted { stale_over: None } => "write accepted",
            WriteVerdict::Accepted {
                stale_over: Some(_),
            } => "write stale",
            WriteVerdict::Rejected { .. } => "write rejected",
        };
        shapes.push(html! {
            <line class={class} x1={px.to_string()} x2={px.to_string()} y1={(y + 2.0).to_string()} y2={(y + 8.0).to_string()} />
        });
        if !matches!(write.verdict, WriteVerdict::Accepted { stale_over: None }) {
            shapes.push(html! {
                <circle class={class} cx={px.to_string()} cy={(y + 3.0).to_string()} r="4">
                    <title>{format!("Write with token {} at {}", write.token, write.at)}</title>
                </circle>
            });
        }
    }

    for planned in &run.scenario().faults.0 {
        let px = x(planned.at);
        let node_y = fault_node(&planned.fault).map_or(TOP + LANE, lane_y);
        shapes.push(html! {
            <g class="fault-marker">
                <line x1={px.to_string()} x2={px.to_string()} y1={(TOP + 20.0).to_string()} y2={(node_y + 26.0).to_string()} />
                <path d={format!("M{px},{} l-5,-9 h10 z", TOP + 20.0)}>
                    <title>{format!("{} at {}", super::faults::describe(&planned.fault), planned.at)}</title>
                </path>
            </g>
        });
    }

    html! { <g class="lanes">{ for shapes }</g> }
}

/// The cursor every frame, and the lanes as of the step the other panels show.
#[derive(Properties, PartialEq, Clone)]
pub struct TimelineProps {
    pub lab: UseReducerHandle<LabStore>,
    pub lanes: StepProps,
}

/// The lanes of the run up to the cursor.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let lab = &props.lab.0;
    let run = lab.run();
    let end = run.end().max(SimTime(1));
    let now = lab.now();
    let clients = run.scenario().clients;
    let x = move |t: SimTime| x_of(t, end);
    let height = TOP + LANE * (2.0 + f64::from(clients)) + 26.0;
    let svg_ref = use_node_ref();

    let onclick = {
        let svg_ref = svg_ref.clone();
        let lab = props.lab.clone();
        Callback::from(move |event: MouseEvent| {
            let Some(svg) = svg_ref.cast::<web_sys::Element>() else {
                return;
            };
            let rect = svg.get_bounding_client_rect();
            if rect.width() <= 0.0 {
                return;
            }
            let view_x = (f64::from(event.client_x()) - rect.left()) / rect.width() * WIDTH;
            let fraction = ((view_x - GUTTER) / PLOT).clamp(0.0, 1.0);
            lab.dispatch(LabAction::Seek(SimTime(
                (fraction * lab.0.run().end().0 as f64) as u64,
            )));
        })
    };

    let step = tick_step(end);
    let ticks: Vec<Html> = (0..=end.0 / step)
        .map(|k| {
            let t = SimTime(k * step);
            let px = x(t);
            html! {
                <g class="tick">
                    <line x1={px.to_string()} x2={px.to_string()} y1={TOP.to_string()} y2={(height - 22.0).to_string()} />
                    <text x={px.to_string()} y={(height - 8.0).to_string()} text-anchor="middle">{t.to_string()}</text>
                </g>
            }
        })
        .collect();

    let cursor = x(now);
    let label_for = |i: u8| format!("Client {}", ClientId(i));
    let summary = format!(
        "Timeline from 0 to {end}, drawn up to t = {now}. Lanes: faults, lock service holder, {}.",
        (0..clients).map(label_for).collect::<Vec<_>>().join(", ")
    );
    html! {
        <figure class="timeline"><div class="timeline-scroll" tabindex="0" role="group"
            aria-label="Timeline: click to move the cursor; Space plays or pauses, the arrow keys step between events">
            <svg ref={svg_ref} viewBox={format!("0 0 {WIDTH} {height}")} role="img" aria-label={summary}
                {onclick}>
                <defs>
                    <pattern id="pause-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                        <rect width="3" height="6" class="hatch" />
                    </pattern>
                </defs>
                { for ticks }
                <rect class="future" x={cursor.to_string()} y={TOP.to_string()}
                    width={(GUTTER + PLOT - cursor).max(0.0).to_string()} height={(height - 22.0 - TOP).to_string()} />
                <text class="lane-label" x="6" y={(TOP + 18.0).to_string()}>{"Faults"}</text>
                <text class="lane-label" x="6" y={(TOP + LANE + 19.0).to_string()}>{"Service"}</text>
                { for (0..clients).map(|i| html! {
                    <text class="lane-label" x="6" y={(client_lane(ClientId(i)) + 19.0).to_string()}>{label_for(i)}</text>
                }) }
                <TimelineLanes ..props.lanes.clone() />
                <line class="cursor" x1={cursor.to_string()} x2={cursor.to_string()} y1={TOP.to_string()} y2={(height - 22.0).to_string()} />
            </svg></div>
            <figcaption class="legend">
                <span><i class="swatch tenure-swatch"></i>{"service: holder and token"}</span>
                <span><i class="swatch believed-swatch"></i>{"client believes it holds"}</span>
                <span><i class="swatch pause-swatch"></i>{"paused"}</span>
                <span><i class="swatch lost-swatch"></i>{"lost flag set"}</span>
                <span><i class="swatch write-ok-swatch"></i>{"write accepted"}</span>
                <span><i class="swatch write-bad-swatch"></i>{"write rejected or stale"}</span>
                <span><i class="swatch renew-swatch"></i>{"renew sent"}</span>
                <span><i class="swatch renew-ok-swatch"></i>{"renew OK"}</span>
                <span><i class="swatch renew-refused-swatch"></i>{"NOT_OWNER"}</span>
                <span><i class="swatch renew-lost-swatch"></i>{"renew timed out"}</span>
                <span><i class="swatch failover-swatch"></i>{"failover: last renewal to next grant"}</span>
                <span>{"▼ fault"}</span>
            </figcaption>
        </figure>
    }
}
