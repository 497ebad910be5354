//! The timeline's geometry, pure and tested natively: where a time falls on a drawing of a
//! given width, which axis ticks fit with room between their labels, and where each lane
//! lies. The Yew view (`app::sandbox::timeline`) only draws what this says.

use crate::model::{ClientId, NodeId, SimTime};

/// The drawing's width (CSS pixels, so text keeps its size) before the figure is measured.
pub const DEFAULT_WIDTH: u32 = 1000;
/// Narrower than this, the drawing scales down instead of losing its plot.
const MIN_WIDTH: u32 = 280;
/// Room left of the plot for the lanes' labels.
pub const GUTTER: f64 = 96.0;
/// Room right of the plot for half of the last axis label, which is centred on its tick.
const RIGHT_MARGIN: f64 = 34.0;
/// One lane's height.
pub const LANE: f64 = 34.0;
/// Room above the first lane.
pub const TOP: f64 = 8.0;
/// The width of one character of an axis label at 13 px, generously.
const TICK_CHAR_WIDTH: f64 = 7.5;
/// The least room between two axis labels.
const TICK_GAP: f64 = 12.0;
/// The most spans the axis is cut into.
const MAX_TICK_SPANS: u64 = 8;

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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plot {
    /// The drawing's width.
    pub width: f64,
    /// The run's end (at least 1 µs).
    pub end: SimTime,
}

impl Plot {
    /// The plot of a run of `end` on a drawing `width` wide.
    pub fn new(width: u32, end: SimTime) -> Plot {
        Plot {
            width: f64::from(width.max(MIN_WIDTH)),
            end: end.max(SimTime(1)),
        }
    }

    /// The plot's width, between the labels and the right margin.
    pub fn span(&self) -> f64 {
        self.width - GUTTER - RIGHT_MARGIN
    }

    /// Where `t` falls (clamped to the run's end).
    pub fn x(&self, t: SimTime) -> f64 {
        GUTTER + self.span() * (t.0.min(self.end.0) as f64 / self.end.0 as f64)
    }

    /// The time at a horizontal position of the drawing, clamped to the run.
    pub fn time_at(&self, x: f64) -> SimTime {
        let fraction = ((x - GUTTER) / self.span()).clamp(0.0, 1.0);
        SimTime((fraction * self.end.0 as f64) as u64)
    }

    /// The axis ticks, at least two: the most whose labels fit side by side with room between
    /// them.
    pub fn ticks(&self) -> impl Iterator<Item = SimTime> {
        let step = (1..=MAX_TICK_SPANS)
            .rev()
            .map(|spans| tick_step(self.end, spans))
            .find(|&step| step <= self.end.0 && self.labels_fit(step))
            .unwrap_or(self.end.0);
        (0..=self.end.0 / step).map(move |k| SimTime(k * step))
    }

    /// True if labels `step` apart leave room between them; the last label is the widest,
    /// and when it must end at its tick (see [`Plot::tick_anchor`]) it reaches half its
    /// width further towards the one before.
    fn labels_fit(&self, step: u64) -> bool {
        let last = SimTime(self.end.0 / step * step);
        let label = last.to_string();
        let widest = TICK_CHAR_WIDTH * label.chars().count() as f64;
        let pulled_in = match self.tick_anchor(self.x(last), &label) {
            "end" => widest / 2.0,
            _ => 0.0,
        };
        self.span() * step as f64 / self.end.0 as f64 >= widest + pulled_in + TICK_GAP
    }

    /// A label centred on its tick, unless that would cross the right edge: then it ends
    /// at the tick, so the last label is never cut off.
    pub fn tick_anchor(&self, x: f64, label: &str) -> &'static str {
        let half = TICK_CHAR_WIDTH * label.chars().count() as f64 / 2.0;
        if x + half > self.width {
            "end"
        } else {
            "middle"
        }
    }
}

/// The vertical position of client `c`'s lane.
pub fn client_lane(c: ClientId) -> f64 {
    TOP + LANE * (2.0 + f64::from(c.0))
}

/// The vertical position of `node`'s lane (storage shares the service's).
pub fn lane_y(node: NodeId) -> f64 {
    match node {
        NodeId::Service | NodeId::Storage => TOP + LANE,
        NodeId::Client(c) => client_lane(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SimDuration;

    /// The ticks' labels as drawn: their left and right edges.
    fn label_edges(plot: &Plot) -> Vec<(f64, f64)> {
        plot.ticks()
            .map(|t| {
                let x = plot.x(t);
                let width = TICK_CHAR_WIDTH * t.to_string().chars().count() as f64;
                match plot.tick_anchor(x, &t.to_string()) {
                    "end" => (x - width, x),
                    _ => (x - width / 2.0, x + width / 2.0),
                }
            })
            .collect()
    }

    #[test]
    fn axis_labels_never_overlap_and_stay_inside_down_to_a_phone() {
        for width in [320, 360, 390, 768, 1280] {
            for secs in [1, 7, 30, 60, 95, 600, 3_600] {
                let plot = Plot::new(width, SimTime::ZERO + SimDuration::from_secs(secs));
                let edges = label_edges(&plot);
                assert!(edges.len() >= 2, "{width} px, {secs} s: {edges:?}");
                for pair in edges.windows(2) {
                    assert!(
                        pair[1].0 - pair[0].1 >= TICK_GAP - 0.01,
                        "{width} px, {secs} s: {edges:?}"
                    );
                }
                let last = edges.last().unwrap();
                assert!(last.1 <= plot.width + 0.01, "{width} px, {secs} s");
            }
        }
    }

    #[test]
    fn a_position_reads_back_as_its_time_and_clicks_outside_clamp_to_the_run() {
        let end = SimTime::from_secs(60);
        let plot = Plot::new(1000, end);
        for t in [0, 1, 30, 59, 60].map(SimTime::from_secs) {
            let back = plot.time_at(plot.x(t));
            assert!(back.0.abs_diff(t.0) <= 1_000, "{t} read back as {back}");
        }
        assert_eq!(plot.time_at(0.0), SimTime::ZERO);
        assert_eq!(plot.time_at(5_000.0), end);
        assert_eq!(plot.x(SimTime::from_secs(600)), plot.x(end));
        // A narrow drawing scales down rather than losing its plot.
        assert_eq!(Plot::new(100, end).width, f64::from(MIN_WIDTH));
    }

    #[test]
    fn lanes_are_stacked_in_order_with_storage_beside_the_service() {
        assert_eq!(lane_y(NodeId::Storage), lane_y(NodeId::Service));
        assert!(lane_y(NodeId::Service) < client_lane(ClientId::A));
        assert_eq!(client_lane(ClientId::B) - client_lane(ClientId::A), LANE);
    }
}
