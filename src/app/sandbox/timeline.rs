//! The timeline: one lane per node, drawn up to the cursor. The service lane shows whom it
//! considers the holder, and each failover from the old holder's last renewal to the next
//! grant; each client lane shows when the client believes it holds the
//! lease, its pauses, renewals, losses and writes. Clicking moves the cursor.

use crate::lesson::sentences;
use yew::prelude::*;

use super::reading::RunReading;
use super::RunProps;
use crate::lab::timeline::{client_lane, lane_y, Plot, DEFAULT_WIDTH, GUTTER, LANE, TOP};
use crate::lesson::content::SANDBOX;
use crate::model::overview::{ClientLane, Mark, MarkGroup, Overview, Span, Spans};
use crate::model::{ClientId, RunQuestions, Scenario, SimTime};

/// Titled marks of one kind on one lane are drawn one by one up to this many; beyond it
/// they are drawn as one shape, so the page stays small however long the run.
const TITLED_MARKS: usize = 12;

fn circle_path(d: &mut String, cx: f64, cy: f64, r: f64) {
    d.push_str(&format!(
        "M{:.1},{cy:.1}a{r},{r} 0 1,0 {},0a{r},{r} 0 1,0 -{},0",
        cx - r,
        2.0 * r,
        2.0 * r
    ));
}

fn rect_path(d: &mut String, from: f64, to: f64, y: f64, height: f64, min_width: f64) {
    d.push_str(&format!(
        "M{from:.1},{y:.1}h{:.1}v{height}h-{:.1}z",
        (to - from).max(min_width),
        (to - from).max(min_width)
    ));
}

/// The spans that started by `now`, cut at `now`, as (from, to) in view coordinates.
fn spans_until<'a>(
    spans: &'a Spans,
    now: SimTime,
    plot: &Plot,
) -> impl Iterator<Item = (&'a Span, f64, f64)> + 'a {
    let plot = *plot;
    spans
        .all()
        .iter()
        .filter(move |s| s.from <= now)
        .map(move |s| {
            (
                s,
                plot.x(s.from),
                plot.x(s.until.unwrap_or(plot.end).min(now)),
            )
        })
}

/// The lease holders at the service: one shape per client, a label where there is room.
fn tenure_shapes(view: &Overview, clients: u8, now: SimTime, plot: &Plot) -> Html {
    let y = TOP + LANE + 6.0;
    let mut paths = vec![String::new(); usize::from(clients)];
    let mut labels = Vec::new();
    for (span, from, to) in spans_until(&view.tenures, now, plot) {
        if let Some(d) = paths.get_mut(span.client.index()) {
            rect_path(d, from, to, y, 18.0, 1.0);
        }
        if let (true, Some(token)) = (to - from > 44.0, span.token) {
            labels.push(html! {
                <text x={format!("{:.1}", from + 4.0)} y={(y + 13.0).to_string()} class="bar-label">
                    {format!("{} · {token}", span.client)}
                </text>
            });
        }
    }
    html! {
        <>
            { for paths.into_iter().enumerate().filter(|(_, d)| !d.is_empty()).map(|(c, d)| html! {
                <g class={format!("tenure client-{c}")}><path {d} /></g>
            }) }
            { for labels }
        </>
    }
}

/// Each failover granted by `now`, under the holders on the service lane: a dashed line
/// from the old holder's last effective renewal to the next grant, between two ticks so a
/// short one still shows.
fn failover_shapes(run: &dyn RunReading, now: SimTime, plot: &Plot) -> Html {
    let words = &SANDBOX.timeline;
    let y = TOP + LANE + 29.0;
    html! {
        { for run.failovers_until(now).iter().map(|group| {
            let f = group.longest;
            let (from, to) = (plot.x(f.last_effective), plot.x(f.granted_at));
            let more = if group.count > 1 { words.more_close_by } else { "" };
            let title = sentences::sandbox::timeline::FailoverMark { from: f.from, to: f.to, took: run.shown_length(f.duration()), more }.to_string();
            html! {
                <g class="failover">
                    <title>{title}</title>
                    <path class="failover-span" d={format!("M{from:.1},{y:.1}H{:.1}", to.max(from + 1.0))} />
                    <path class="failover-ends" d={format!("M{from:.1},{:.1}v8M{to:.1},{:.1}v8", y - 4.0, y - 4.0)} />
                </g>
            }
        }) }
    }
}

/// Point marks of one kind on a lane, as (class, where it sits on the lane).
fn mark_style(mark: Mark) -> (&'static str, f64) {
    match mark {
        Mark::RenewSent => ("renew-dot", 29.0),
        Mark::RenewDropped => ("renew-dot renew-lost", 29.0),
        Mark::RenewOk => ("renew-dot renew-ok", 29.0),
        Mark::RenewRefused => ("renew-dot renew-refused", 29.0),
        Mark::WriteAccepted => ("write accepted", 3.0),
        Mark::WriteStale => ("write stale", 3.0),
        Mark::WriteRejected => ("write rejected", 3.0),
        Mark::Lost => ("lost-marker", 7.0),
    }
}

fn mark_title(run: &dyn RunReading, mark: Mark, client: ClientId, group: &MarkGroup) -> String {
    let words = &SANDBOX.timeline;
    let more = if group.count > 1 {
        words.more_close_by
    } else {
        ""
    };
    let token = group.token.map(|t| t.to_string()).unwrap_or_default();
    let at = run.shown_time(group.first).to_string();
    match mark {
        Mark::Lost => sentences::sandbox::timeline::LostMark { client, at, more }.to_string(),
        _ => sentences::sandbox::timeline::WriteMark { token, at, more }.to_string(),
    }
}

/// Adds one mark's outline at `px` on the lane line `y`.
fn mark_path(d: &mut String, mark: Mark, px: f64, y: f64) {
    match mark {
        Mark::Lost => d.push_str(&format!("M{px:.1},{y:.1}l6,8l-6,8l-6,-8z")),
        Mark::WriteAccepted => d.push_str(&format!("M{px:.1},{:.1}V{:.1}", y - 1.0, y + 5.0)),
        Mark::WriteStale | Mark::WriteRejected => {
            d.push_str(&format!("M{px:.1},{:.1}V{:.1}", y - 1.0, y + 5.0));
            circle_path(d, px, y, 4.0);
        }
        _ => circle_path(d, px, y, 2.5),
    }
}

/// One kind of mark on one lane, outlined once per run: a prefix of `d` draws the marks
/// up to any time, so moving the cursor formats no numbers.
#[derive(PartialEq)]
struct MarkPath {
    /// Each group's first time, in order.
    firsts: Vec<SimTime>,
    /// Where each group's outline ends in `d`.
    ends: Vec<usize>,
    /// How many marks the groups so far hold.
    counts: Vec<u32>,
    d: String,
}

/// Every lane's marks, `[client][mark]`.
fn mark_paths(view: &Overview, plot: &Plot) -> Vec<Vec<MarkPath>> {
    view.clients
        .iter()
        .enumerate()
        .map(|(c, lane)| {
            let client = ClientId(c as u8);
            Mark::ALL
                .into_iter()
                .map(|mark| {
                    let y = client_lane(client) + mark_style(mark).1;
                    let mut path = MarkPath {
                        firsts: Vec::new(),
                        ends: Vec::new(),
                        counts: Vec::new(),
                        d: String::new(),
                    };
                    let mut count = 0;
                    for g in lane.marks(mark) {
                        mark_path(&mut path.d, mark, plot.x(g.first), y);
                        count += g.count;
                        path.firsts.push(g.first);
                        path.ends.push(path.d.len());
                        path.counts.push(count);
                    }
                    path
                })
                .collect()
        })
        .collect()
}

/// One kind of mark on one client's lane, up to `now`.
fn mark_shapes(
    run: &dyn RunReading,
    lane: &ClientLane,
    path: &MarkPath,
    client: ClientId,
    mark: Mark,
    now: SimTime,
    plot: &Plot,
) -> Html {
    let (class, dy) = mark_style(mark);
    let shown = path.firsts.partition_point(|&t| t <= now);
    if shown == 0 {
        return Html::default();
    }
    let titled = matches!(mark, Mark::Lost | Mark::WriteStale | Mark::WriteRejected);
    if titled && shown <= TITLED_MARKS {
        let y = client_lane(client) + dy;
        return html! {
            { for lane.marks(mark).take(shown).map(|g| {
                let mut d = String::new();
                mark_path(&mut d, mark, plot.x(g.first), y);
                html! { <path class={class} {d}><title>{mark_title(run, mark, client, g)}</title></path> }
            }) }
        };
    }
    let d = path.d[..path.ends[shown - 1]].to_owned();
    let title = titled.then(|| {
        let count = path.counts[shown - 1];
        match mark {
            Mark::Lost => sentences::sandbox::timeline::LostMarks { client, count }.to_string(),
            _ => sentences::sandbox::timeline::WriteMarks { client, count }.to_string(),
        }
    });
    html! {
        <path class={classes!(class, "marks")} {d}>
            if let Some(title) = title { <title>{title}</title> }
        </path>
    }
}

/// One client's lane up to `now`: beliefs, pauses, crash, renewals, writes and losses.
fn client_shapes(
    run: &dyn RunReading,
    lane: &ClientLane,
    paths: &[MarkPath],
    client: ClientId,
    now: SimTime,
    plot: &Plot,
) -> Html {
    let y = client_lane(client);
    let mut believed = String::new();
    for (_, from, to) in spans_until(&lane.believed, now, plot) {
        rect_path(&mut believed, from, to, y + 8.0, 14.0, 1.0);
    }
    let mut paused = String::new();
    for (_, from, to) in spans_until(&lane.paused, now, plot) {
        rect_path(&mut paused, from, to, y + 4.0, 22.0, 2.0);
    }
    let crash = lane.crashed_at.filter(|&t| t <= now).map(|at| html! {
        <text class="crash-marker" x={format!("{:.1}", plot.x(at))} y={(y + 20.0).to_string()} text-anchor="middle">{"✕"}</text>
    });
    html! {
        <>
            if !believed.is_empty() {
                <path class={format!("believed client-{}", client.0)} d={believed} />
            }
            if !paused.is_empty() { <path class="pause" d={paused} /> }
            { for Mark::ALL.into_iter().zip(paths).map(|(mark, path)| mark_shapes(run, lane, path, client, mark, now, plot)) }
            { crash.unwrap_or_default() }
        </>
    }
}

/// The spans still open at the latest event `at`, drawn on from there to the cursor `now`.
/// The lanes are drawn only to the latest event (they change only then): without these, a
/// lease held across the cursor would seem to have ended before it.
fn open_tails(view: &Overview, at: SimTime, now: SimTime, plot: &Plot) -> Html {
    if now <= at {
        return Html::default();
    }
    let tail = |spans: &Spans, y: f64, height: f64| -> Vec<(usize, String)> {
        let open = spans
            .all()
            .iter()
            .filter(|s| s.from <= at && s.until.is_none_or(|until| until > at));
        open.map(|s| {
            let mut d = String::new();
            let to = plot.x(s.until.unwrap_or(plot.end).min(now));
            rect_path(&mut d, plot.x(at), to, y, height, 0.0);
            (s.client.index(), d)
        })
        .collect()
    };
    let tenures = tail(&view.tenures, TOP + LANE + 6.0, 18.0);
    let lanes = view.clients.iter().enumerate().map(|(c, lane)| {
        let y = client_lane(ClientId(c as u8));
        let believed: String = tail(&lane.believed, y + 8.0, 14.0).into_iter().map(|(_, d)| d).collect();
        let paused: String = tail(&lane.paused, y + 4.0, 22.0).into_iter().map(|(_, d)| d).collect();
        html! {
            <>
                if !believed.is_empty() { <path class={format!("believed client-{c}")} d={believed} /> }
                if !paused.is_empty() { <path class="pause" d={paused} /> }
            </>
        }
    });
    html! {
        <g class="lanes open-tails">
            { for tenures.into_iter().map(|(c, d)| html! { <g class={format!("tenure client-{c}")}><path {d} /></g> }) }
            { for lanes }
        </g>
    }
}

/// Props of [`TimelineLanes`]: the run at the time the other panels show, and the
/// drawing's width.
#[derive(Properties, PartialEq, Clone)]
struct LanesProps {
    step: RunProps,
    width: u32,
}

/// Everything drawn on the lanes up to the latest event: it changes only when an event
/// happens, so playback between events redraws just the cursor. Drawn from the run's
/// overview, so its size does not grow with the run.
#[component]
fn TimelineLanes(props: &LanesProps) -> Html {
    let run = &props.step.run;
    let plot = Plot::new(props.width, run.end());
    let now = props.step.at;
    let view = run.overview();
    let marks = {
        let run = run.clone();
        use_memo((props.step.run.clone(), props.width), move |(_, width)| {
            mark_paths(run.overview(), &Plot::new(*width, run.end()))
        })
    };
    html! {
        <g class="lanes">
            { tenure_shapes(view, run.scenario().clients, now, &plot) }
            { failover_shapes(&**run, now, &plot) }
            { for view.clients.iter().zip(marks.iter()).enumerate().map(|(c, (lane, paths))| client_shapes(&**run, lane, paths, ClientId(c as u8), now, &plot)) }
            { for fault_markers(&**run, &plot) }
        </g>
    }
}

/// Every planned fault: a marker on the faults lane and a line down to the node it hits.
fn fault_markers<'a>(run: &'a dyn RunReading, plot: &'a Plot) -> impl Iterator<Item = Html> + 'a {
    let scenario: &Scenario = run.scenario();
    scenario.faults.0.iter().map(move |planned| {
        let px = plot.x(planned.at);
        let node_y = lane_y(planned.fault.target());
        html! {
            <g class="fault-marker">
                <line x1={px.to_string()} x2={px.to_string()} y1={(TOP + 20.0).to_string()} y2={(node_y + 26.0).to_string()} />
                <path d={format!("M{px},{} l-5,-9 h10 z", TOP + 20.0)}>
                    <title>{crate::lab::describe::fault_at(&planned.fault, run.shown_time(planned.at))}</title>
                </path>
            </g>
        }
    })
}

/// The cursor every frame, and the lanes as of the step the other panels show.
#[derive(Properties, PartialEq, Clone)]
pub struct TimelineProps {
    /// The run, at the time the other panels show, and where a click moves the cursor.
    pub lanes: RunProps,
    /// The cursor.
    pub now: SimTime,
    /// What the timeline's group is called, with how to use it here.
    pub label: AttrValue,
}

/// The lanes of the run up to the cursor, drawn at the figure's width in CSS pixels so
/// the labels keep their size on a phone.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let run = &props.lanes.run;
    let scroll_ref = use_node_ref();
    let width = crate::app::resize::use_element_width(scroll_ref.clone(), DEFAULT_WIDTH);
    let plot = Plot::new(width, run.end());
    let end = run.shown_time(plot.end);
    let now = props.now;
    let clients = run.scenario().clients;
    let height = TOP + LANE * (2.0 + f64::from(clients)) + 26.0;
    let svg_ref = use_node_ref();

    let onclick = props
        .lanes
        .on_seek
        .clone()
        .map(|seek| seek_on_click(svg_ref.clone(), seek, plot));
    let cursor = plot.x(now);
    let words = &SANDBOX.timeline;
    let label_for = |i: u8| {
        sentences::sandbox::summary::Client {
            client: ClientId(i),
        }
        .to_string()
    };
    let summary = sentences::sandbox::timeline::Summary {
        end,
        now: run.shown_time(now),
        clients: (0..clients).map(label_for).collect::<Vec<_>>().join(", "),
    }
    .to_string();
    html! {
        <figure class="timeline"><div ref={scroll_ref} class="timeline-scroll" tabindex="0" role="group"
            aria-label={props.label.clone()}>
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
                <text class="lane-label" x="6" y={(TOP + 18.0).to_string()}>{words.faults_lane}</text>
                <text class="lane-label" x="6" y={(TOP + LANE + 19.0).to_string()}>{words.service_lane}</text>
                { for (0..clients).map(|i| html! {
                    <text class="lane-label" x="6" y={(client_lane(ClientId(i)) + 19.0).to_string()}>{label_for(i)}</text>
                }) }
                <TimelineLanes step={props.lanes.clone()} {width} />
                { open_tails(run.overview(), props.lanes.at, now, &plot) }
                <line class="cursor" x1={cursor.to_string()} x2={cursor.to_string()} y1={TOP.to_string()} y2={(height - 22.0).to_string()} />
            </svg></div>
            { legend() }
        </figure>
    }
}

/// Moves the cursor to the time under the pointer.
fn seek_on_click(svg_ref: NodeRef, seek: Callback<SimTime>, plot: Plot) -> Callback<MouseEvent> {
    Callback::from(move |event: MouseEvent| {
        let Some(svg) = svg_ref.cast::<web_sys::Element>() else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return;
        }
        let view_x = (f64::from(event.client_x()) - rect.left()) / rect.width() * plot.width;
        seek.emit(plot.time_at(view_x));
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
    let words = &SANDBOX.timeline;
    html! {
        <figcaption class="legend">
            <span><i class="swatch tenure-swatch"></i>{words.legend_tenure}</span>
            <span><i class="swatch believed-swatch"></i>{words.legend_believed}</span>
            <span><i class="swatch pause-swatch"></i>{words.legend_paused}</span>
            <span><i class="swatch lost-swatch"></i>{words.legend_lost}</span>
            <span><i class="swatch write-ok-swatch"></i>{words.legend_write_ok}</span>
            <span><i class="swatch write-bad-swatch"></i>{words.legend_write_bad}</span>
            <span><i class="swatch renew-swatch"></i>{words.legend_renew}</span>
            <span><i class="swatch renew-ok-swatch"></i>{words.legend_renew_ok}</span>
            <span><i class="swatch renew-refused-swatch"></i>{words.legend_not_owner}</span>
            <span><i class="swatch renew-lost-swatch"></i>{words.legend_renew_lost}</span>
            <span><i class="swatch failover-swatch"></i>{words.legend_failover}</span>
            <span>{words.legend_fault}</span>
        </figcaption>
    }
}
