//! The timeline: one lane per node, drawn up to the cursor. The service lane shows whom it
//! considers the holder; each client lane shows when the client believes it holds the
//! lease, its pauses, renewals, losses and writes. Clicking moves the cursor.

use yew::prelude::*;

use super::{LabStore, StepProps};
use crate::lab::LabAction;
use crate::model::{ClientId, Lifecycle, NodeId, RenewOutcome, Run, SimTime, WriteVerdict};

/// The drawing's width (CSS pixels, so text keeps its size) before the figure is measured.
const DEFAULT_WIDTH: u32 = 1000;
/// Narrower than this, the drawing scales down instead of losing its plot.
const MIN_WIDTH: u32 = 280;
const GUTTER: f64 = 96.0;
/// Room right of the plot for half of the last axis label, which is centred on its tick.
const RIGHT_MARGIN: f64 = 34.0;
const LANE: f64 = 34.0;
const TOP: f64 = 8.0;
/// Room for one axis label and the gap to the next: "600.000 s" is about 62 px at 13 px.
const TICK_LABEL_WIDTH: f64 = 90.0;
/// The width of one character of an axis label at 13 px, generously.
const TICK_CHAR_WIDTH: f64 = 7.5;

/// Round tick spacing for a run of `end` with about `count` ticks.
fn tick_step(end: SimTime, count: u64) -> u64 {
    let target = (end.0 / count.max(1)).max(1);
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

/// Where times fall on a drawing `width` wide for a run of `end`.
#[derive(Clone, Copy)]
struct Plot {
    width: f64,
    end: SimTime,
}

impl Plot {
    fn new(width: u32, end: SimTime) -> Plot {
        Plot {
            width: f64::from(width.max(MIN_WIDTH)),
            end: end.max(SimTime(1)),
        }
    }

    fn span(&self) -> f64 {
        self.width - GUTTER - RIGHT_MARGIN
    }

    fn x(&self, t: SimTime) -> f64 {
        GUTTER + self.span() * (t.0.min(self.end.0) as f64 / self.end.0 as f64)
    }

    /// The time at a horizontal position of the drawing, clamped to the run.
    fn time_at(&self, x: f64) -> SimTime {
        let fraction = ((x - GUTTER) / self.span()).clamp(0.0, 1.0);
        SimTime((fraction * self.end.0 as f64) as u64)
    }

    /// The axis ticks: as many as fit their labels side by side.
    fn ticks(&self) -> impl Iterator<Item = SimTime> {
        let fit = (self.span() / TICK_LABEL_WIDTH) as u64;
        let step = tick_step(self.end, fit.clamp(3, 8));
        (0..=self.end.0 / step).map(move |k| SimTime(k * step))
    }

    /// A label centred on its tick, unless that would cross the right edge: then it ends
    /// at the tick, so the last label is never cut off.
    fn tick_anchor(&self, x: f64, label: &str) -> &'static str {
        let half = TICK_CHAR_WIDTH * label.chars().count() as f64 / 2.0;
        if x + half > self.width {
            "end"
        } else {
            "middle"
        }
    }
}

fn client_lane(c: ClientId) -> f64 {
    TOP + LANE * (2.0 + f64::from(c.0))
}

fn lane_y(node: NodeId) -> f64 {
    match node {
        NodeId::Service | NodeId::Storage => TOP + LANE,
        NodeId::Client(c) => client_lane(c),
    }
}

/// A bar from `from` to `until` (the cursor if it has not ended yet).
fn bar_ends(plot: &Plot, now: SimTime, from: SimTime, until: Option<SimTime>) -> (f64, f64) {
    (plot.x(from), plot.x(until.unwrap_or(plot.end).min(now)))
}

/// Props of [`TimelineLanes`]: the step the other panels show, and the drawing's width.
#[derive(Properties, PartialEq, Clone)]
struct LanesProps {
    step: StepProps,
    width: u32,
}

/// Everything drawn on the lanes up to the latest event: it changes only when an event
/// happens, so playback between events redraws just the cursor.
#[component]
fn TimelineLanes(props: &LanesProps) -> Html {
    let run = props.step.lab.0.run();
    let plot = Plot::new(props.width, run.end());
    let now = props.step.at;
    html! {
        <g class="lanes">
            { for tenure_bars(run, &plot, now) }
            { for failover_lines(run, &plot, now) }
            { for (0..run.scenario().clients).map(|c| client_lane_shapes(run, &plot, now, ClientId(c))) }
            { for renew_dots(run, &plot, now) }
            { for write_marks(run, &plot, now) }
            { for fault_markers(run, &plot) }
        </g>
    }
}

/// The service lane: who holds the lease, with its token where the bar has room.
fn tenure_bars<'a>(run: &'a Run, plot: &'a Plot, now: SimTime) -> impl Iterator<Item = Html> + 'a {
    run.holder_intervals()
        .iter()
        .filter(move |t| t.span.from <= now)
        .map(move |tenure| {
            let (from, to) = bar_ends(plot, now, tenure.span.from, tenure.span.until);
            let y = TOP + LANE + 6.0;
            html! {
                <g class={format!("tenure client-{}", tenure.client.0)}>
                    <rect x={from.to_string()} y={y.to_string()} width={(to - from).max(1.0).to_string()} height="18" rx="3" />
                    if to - from > 44.0 {
                        <text x={(from + 4.0).to_string()} y={(y + 13.0).to_string()} class="bar-label">
                            {format!("{} · {}", tenure.client, tenure.token)}
                        </text>
                    }
                </g>
            }
        })
}

/// One client's lane: when it believes it holds, its pauses, its losses and its crash.
fn client_lane_shapes(run: &Run, plot: &Plot, now: SimTime, client: ClientId) -> Html {
    let y = client_lane(client);
    let believed = run
        .believed_intervals(client)
        .into_iter()
        .filter(|i| i.from <= now)
        .map(|span| {
            let (from, to) = bar_ends(plot, now, span.from, span.until);
            html! {
                <rect class={format!("believed client-{}", client.0)} x={from.to_string()} y={(y + 8.0).to_string()}
                    width={(to - from).max(1.0).to_string()} height="14" rx="3" />
            }
        });
    let pauses = run.pauses(client).filter(|i| i.from <= now).map(|pause| {
        let (from, to) = bar_ends(plot, now, pause.from, pause.until);
        html! {
            <rect class="pause" x={from.to_string()} y={(y + 4.0).to_string()}
                width={(to - from).max(2.0).to_string()} height="22" />
        }
    });
    let losses = run
        .lifecycle_history(client)
        .iter()
        .filter(|p| p.from <= now && matches!(p.state, Lifecycle::Lost(_)))
        .map(|point| {
            let px = plot.x(point.from);
            html! {
                <path class="lost-marker" d={format!("M{px},{} l6,8 l-6,8 l-6,-8 z", y + 7.0)}>
                    <title>{format!("Client {client} lost the lease at {}", point.from)}</title>
                </path>
            }
        });
    let crash = run.crashed_at(client).filter(|&t| t <= now).map(|at| {
        html! {
            <text class="crash-marker" x={plot.x(at).to_string()} y={(y + 20.0).to_string()} text-anchor="middle">{"✕"}</text>
        }
    });
    html! { <>{ for believed }{ for pauses }{ for losses }{ for crash }</> }
}

/// Renew attempts on the client's lane: a dot when sent, and one coloured by what became
/// of it when the client learned it (the observer's per-renew record, as the counts use).
fn renew_dots<'a>(run: &'a Run, plot: &'a Plot, now: SimTime) -> impl Iterator<Item = Html> + 'a {
    run.renews().iter().filter(move |r| r.sent_at <= now).map(move |renew| {
        let cy = (client_lane(renew.client) + 29.0).to_string();
        let answer = match renew.outcome {
            RenewOutcome::Ok(t) => Some(("renew-dot renew-ok", t)),
            RenewOutcome::NotOwner(t) => Some(("renew-dot renew-refused", t)),
            RenewOutcome::TimedOut(t) => Some(("renew-dot renew-lost", t)),
            RenewOutcome::Unanswered => None,
        }
        .filter(|&(_, at)| at <= now);
        html! {
            <>
                <circle class="renew-dot" cx={plot.x(renew.sent_at).to_string()} cy={cy.clone()} r="2.5" />
                if let Some((class, at)) = answer {
                    <circle class={class} cx={plot.x(at).to_string()} cy={cy} r="2.5" />
                }
            </>
        }
    })
}

/// Each failover on the service lane, from the old holder's last renewal to the next grant.
fn failover_lines<'a>(
    run: &'a Run,
    plot: &'a Plot,
    now: SimTime,
) -> impl Iterator<Item = Html> + 'a {
    run.failovers().iter().filter(move |f| f.last_effective <= now).map(move |failover| {
        let from = plot.x(failover.last_effective);
        let to = plot.x(failover.granted_at.min(now));
        let y = (TOP + LANE + 28.0).to_string();
        html! {
            <line class="failover" x1={from.to_string()} x2={to.max(from + 1.0).to_string()} y1={y.clone()} y2={y}>
                <title>{format!("Failover from {} to {}: {}", failover.from, failover.to, failover.duration())}</title>
            </line>
        }
    })
}

/// Each write on its client's lane: a tick if accepted, a dot too if rejected or stale.
fn write_marks<'a>(run: &'a Run, plot: &'a Plot, now: SimTime) -> impl Iterator<Item = Html> + 'a {
    run.storage_log_until(now).iter().map(move |write| {
        let px = plot.x(write.at);
        let y = client_lane(write.client);
        let (class, flagged) = match write.verdict {
            WriteVerdict::Accepted { stale_over: None } => ("write accepted", false),
            WriteVerdict::Accepted {
                stale_over: Some(_),
            } => ("write stale", true),
            WriteVerdict::Rejected { .. } => ("write rejected", true),
        };
        html! {
            <>
                <line class={class} x1={px.to_string()} x2={px.to_string()} y1={(y + 2.0).to_string()} y2={(y + 8.0).to_string()} />
                if flagged {
                    <circle class={class} cx={px.to_string()} cy={(y + 3.0).to_string()} r="4">
                        <title>{format!("Write with token {} at {}", write.token, write.at)}</title>
                    </circle>
                }
            </>
        }
    })
}

/// Every planned fault: a marker on the faults lane and a line down to the node it hits.
fn fault_markers<'a>(run: &'a Run, plot: &'a Plot) -> impl Iterator<Item = Html> + 'a {
    run.scenario().faults.0.iter().map(move |planned| {
        let px = plot.x(planned.at);
        let node_y = lane_y(planned.fault.target());
        html! {
            <g class="fault-marker">
                <line x1={px.to_string()} x2={px.to_string()} y1={(TOP + 20.0).to_string()} y2={(node_y + 26.0).to_string()} />
                <path d={format!("M{px},{} l-5,-9 h10 z", TOP + 20.0)}>
                    <title>{format!("{} at {}", planned.fault.describe(), planned.at)}</title>
                </path>
            </g>
        }
    })
}

/// The cursor every frame, and the lanes as of the step the other panels show.
#[derive(Properties, PartialEq, Clone)]
pub struct TimelineProps {
    pub lab: UseReducerHandle<LabStore>,
    pub lanes: StepProps,
}

/// The lanes of the run up to the cursor, drawn at the figure's width in CSS pixels so
/// the labels keep their size on a phone.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let lab = &props.lab.0;
    let run = lab.run();
    let scroll_ref = use_node_ref();
    let width = crate::app::resize::use_element_width(scroll_ref.clone(), DEFAULT_WIDTH);
    let plot = Plot::new(width, run.end());
    let end = plot.end;
    let now = lab.now();
    let clients = run.scenario().clients;
    let height = TOP + LANE * (2.0 + f64::from(clients)) + 26.0;
    let svg_ref = use_node_ref();

    let onclick = seek_on_click(svg_ref.clone(), props.lab.clone(), plot);
    let cursor = plot.x(now);
    let label_for = |i: u8| format!("Client {}", ClientId(i));
    let summary = format!(
        "Timeline from 0 to {end}, drawn up to t = {now}. Lanes: faults, lock service holder, {}.",
        (0..clients).map(label_for).collect::<Vec<_>>().join(", ")
    );
    html! {
        <figure class="timeline"><div ref={scroll_ref} class="timeline-scroll" tabindex="0" role="group"
            aria-label="Timeline: click to move the cursor; Space plays or pauses, the arrow keys step between events">
            <svg ref={svg_ref} viewBox={format!("0 0 {} {height}", plot.width)} role="img" aria-label={summary}
                {onclick}>
                <defs>
                    <pattern id="pause-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                        <rect width="3" height="6" class="hatch" />
                    </pattern>
                </defs>
                { for plot.ticks().map(|t| axis_tick(&plot, t, height)) }
                <rect class="future" x={cursor.to_string()} y={TOP.to_string()}
                    width={(GUTTER + plot.span() - cursor).max(0.0).to_string()} height={(height - 22.0 - TOP).to_string()} />
                <text class="lane-label" x="6" y={(TOP + 18.0).to_string()}>{"Faults"}</text>
                <text class="lane-label" x="6" y={(TOP + LANE + 19.0).to_string()}>{"Service"}</text>
                { for (0..clients).map(|i| html! {
                    <text class="lane-label" x="6" y={(client_lane(ClientId(i)) + 19.0).to_string()}>{label_for(i)}</text>
                }) }
                <TimelineLanes step={props.lanes.clone()} {width} />
                <line class="cursor" x1={cursor.to_string()} x2={cursor.to_string()} y1={TOP.to_string()} y2={(height - 22.0).to_string()} />
            </svg></div>
            { legend() }
        </figure>
    }
}

/// Moves the cursor to the time under the pointer.
fn seek_on_click(
    svg_ref: NodeRef,
    lab: UseReducerHandle<LabStore>,
    plot: Plot,
) -> Callback<MouseEvent> {
    Callback::from(move |event: MouseEvent| {
        let Some(svg) = svg_ref.cast::<web_sys::Element>() else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return;
        }
        let view_x = (f64::from(event.client_x()) - rect.left()) / rect.width() * plot.width;
        lab.dispatch(LabAction::Seek(plot.time_at(view_x)));
    })
}

/// A grid line at `t` with its time under the lanes.
fn axis_tick(plot: &Plot, t: SimTime, height: f64) -> Html {
    let px = plot.x(t);
    let label = t.to_string();
    html! {
        <g class="tick">
            <line x1={px.to_string()} x2={px.to_string()} y1={TOP.to_string()} y2={(height - 22.0).to_string()} />
            <text x={px.to_string()} y={(height - 8.0).to_string()} text-anchor={plot.tick_anchor(px, &label)}>{label}</text>
        </g>
    }
}

/// What each mark on the lanes means.
fn legend() -> Html {
    html! {
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
    }
}
