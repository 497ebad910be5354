//! Geometry and meaning of the three lesson diagrams, apart from any rendering.
//!
//! The SVG components in `app::diagrams` draw what this module computes: where each box and
//! arrow goes, where a message in flight sits at a given progress, and what a selection
//! explains. Pure, so the sandbox and native tests can use it without a browser.

use super::content::{ArchEdge, ArchNode, LeaseState, LESSON};
use super::number::Decimal;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

const fn pt(x: f64, y: f64) -> Point {
    Point { x, y }
}

/// A rectangle given by its centre and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub center: Point,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn left(&self) -> f64 {
        self.center.x - self.width / 2.0
    }
    pub fn top(&self) -> f64 {
        self.center.y - self.height / 2.0
    }
}

/// How a label lines up with its anchor point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
}

impl Anchor {
    /// The SVG `text-anchor` value.
    pub fn svg(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
        }
    }
}

/// An arrow drawn as one cubic Bézier curve (a straight arrow has its controls on the line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    pub points: [Point; 4],
    pub label_at: Point,
    pub label_anchor: Anchor,
}

impl Curve {
    fn straight(from: Point, to: Point, label_at: Point, label_anchor: Anchor) -> Curve {
        let third = |k: f64| pt(from.x + (to.x - from.x) * k, from.y + (to.y - from.y) * k);
        Curve {
            points: [from, third(1.0 / 3.0), third(2.0 / 3.0), to],
            label_at,
            label_anchor,
        }
    }

    /// The SVG path data.
    pub fn path(&self) -> String {
        let [a, b, c, d] = self.points.map(|p| (Decimal(p.x), Decimal(p.y)));
        format!(
            "M{} {} C{} {} {} {} {} {}",
            a.0, a.1, b.0, b.1, c.0, c.1, d.0, d.1
        )
    }

    /// The point at `progress` along the curve; progress outside 0..=1 (or NaN) is clamped,
    /// so a late or early message is drawn at an end rather than off the diagram.
    pub fn point_at(&self, progress: f64) -> Point {
        let t = if progress.is_nan() {
            0.0
        } else {
            progress.clamp(0.0, 1.0)
        };
        let [a, b, c, d] = self.points;
        let u = 1.0 - t;
        let mix = |p: f64, q: f64, r: f64, s: f64| {
            u * u * u * p + 3.0 * u * u * t * q + 3.0 * u * t * t * r + t * t * t * s
        };
        pt(mix(a.x, b.x, c.x, d.x), mix(a.y, b.y, c.y, d.y))
    }
}

// ------------------------------------------------------------------------ lifecycle

/// The lifecycle diagram's coordinate space.
pub const LIFECYCLE_VIEW: (f64, f64) = (820.0, 300.0);

/// Where each state's box sits.
pub fn lifecycle_box(state: LeaseState) -> Rect {
    let (x, y, width) = match state {
        LeaseState::Acquiring => (85.0, 100.0, 150.0),
        LeaseState::Holding => (360.0, 100.0, 150.0),
        LeaseState::RenewResult => (660.0, 100.0, 160.0),
        LeaseState::Lost => (660.0, 250.0, 200.0),
        LeaseState::Releasing => (360.0, 250.0, 150.0),
    };
    Rect {
        center: pt(x, y),
        width,
        height: 52.0,
    }
}

/// The arrow for a transition of the lesson's state machine, if it is one.
pub fn lifecycle_curve(from: LeaseState, to: LeaseState) -> Option<Curve> {
    use LeaseState::*;
    let curve = match (from, to) {
        (Acquiring, Holding) => Curve::straight(
            pt(160.0, 100.0),
            pt(285.0, 100.0),
            pt(222.0, 62.0),
            Anchor::Middle,
        ),
        (Holding, RenewResult) => Curve {
            points: [
                pt(420.0, 74.0),
                pt(470.0, 20.0),
                pt(560.0, 20.0),
                pt(610.0, 74.0),
            ],
            label_at: pt(515.0, 30.0),
            label_anchor: Anchor::Middle,
        },
        (RenewResult, Holding) => Curve {
            points: [
                pt(610.0, 126.0),
                pt(560.0, 180.0),
                pt(470.0, 180.0),
                pt(420.0, 126.0),
            ],
            label_at: pt(515.0, 182.0),
            label_anchor: Anchor::Middle,
        },
        (RenewResult, Lost) => Curve::straight(
            pt(660.0, 126.0),
            pt(660.0, 224.0),
            pt(670.0, 180.0),
            Anchor::Start,
        ),
        (Holding, Releasing) => Curve::straight(
            pt(360.0, 126.0),
            pt(360.0, 224.0),
            pt(370.0, 180.0),
            Anchor::Start,
        ),
        _ => return None,
    };
    Some(curve)
}

/// What is selected on the lifecycle diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LifecycleSelection {
    State(LeaseState),
    Transition { from: LeaseState, to: LeaseState },
}

impl LifecycleSelection {
    /// The id a share link carries, e.g. `lifecycle.holding` or
    /// `lifecycle.holding-renew_result`.
    pub fn id(self) -> String {
        match self {
            LifecycleSelection::State(state) => format!("lifecycle.{}", state.slug()),
            LifecycleSelection::Transition { from, to } => {
                format!("lifecycle.{}-{}", from.slug(), to.slug())
            }
        }
    }

    /// The selection an id names, if it is a state or one of the diagram's transitions.
    pub fn from_id(id: &str) -> Option<LifecycleSelection> {
        let rest = id.strip_prefix("lifecycle.")?;
        let state = |slug: &str| LeaseState::ALL.into_iter().find(|s| s.slug() == slug);
        match rest.split_once('-') {
            None => state(rest).map(LifecycleSelection::State),
            Some((from, to)) => {
                let (from, to) = (state(from)?, state(to)?);
                lifecycle_curve(from, to).map(|_| LifecycleSelection::Transition { from, to })
            }
        }
    }
}

// ---------------------------------------------------------------------- architecture

/// The architecture diagram's coordinate space.
pub const ARCHITECTURE_VIEW: (f64, f64) = (720.0, 250.0);

pub fn architecture_box(node: ArchNode) -> Rect {
    let x = match node {
        ArchNode::Client => 110.0,
        ArchNode::LockService => 610.0,
    };
    Rect {
        center: pt(x, 125.0),
        width: 180.0,
        height: 170.0,
    }
}

/// Each message is a straight arrow between the two boxes, one lane per message.
pub fn architecture_curve(edge: ArchEdge) -> Curve {
    let y = match edge {
        ArchEdge::Acquire => 70.0,
        ArchEdge::Renew => 110.0,
        ArchEdge::Ok => 150.0,
        ArchEdge::Fail => 190.0,
    };
    let text = edge.text();
    let side = |node: ArchNode, toward: ArchNode| {
        let r = architecture_box(node);
        if architecture_box(toward).center.x > r.center.x {
            r.left() + r.width
        } else {
            r.left()
        }
    };
    let from = pt(side(text.from, text.to), y);
    let to = pt(side(text.to, text.from), y);
    Curve::straight(from, to, pt((from.x + to.x) / 2.0, y - 8.0), Anchor::Middle)
}

/// What is selected on the architecture diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArchSelection {
    Node(ArchNode),
    Edge(ArchEdge),
}

impl ArchSelection {
    /// The id a share link carries, e.g. `architecture.client` or `architecture.edge.renew`.
    pub fn id(self) -> String {
        match self {
            ArchSelection::Node(node) => format!("architecture.{}", node.slug()),
            ArchSelection::Edge(edge) => format!("architecture.edge.{}", edge.slug()),
        }
    }

    /// The selection an id names, if any.
    pub fn from_id(id: &str) -> Option<ArchSelection> {
        let rest = id.strip_prefix("architecture.")?;
        match rest.strip_prefix("edge.") {
            Some(edge) => ArchEdge::ALL
                .into_iter()
                .find(|e| e.slug() == edge)
                .map(ArchSelection::Edge),
            None => ArchNode::ALL
                .into_iter()
                .find(|n| n.slug() == rest)
                .map(ArchSelection::Node),
        }
    }
}

// -------------------------------------------------------------------------- sequence

/// A step of the lesson's heartbeat sequence (Maps), by its index; a link names it by its
/// number from 1, as the diagram does: `sel=sequence.3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceStep(pub usize);

impl SequenceStep {
    /// The id a link uses.
    pub fn id(self) -> String {
        format!("sequence.{}", self.0 + 1)
    }

    /// The step an id names, if the sequence has it (written as [`SequenceStep::id`] does).
    pub fn from_id(id: &str) -> Option<SequenceStep> {
        let number: usize = id.strip_prefix("sequence.")?.parse().ok()?;
        let step = SequenceStep(number.checked_sub(1)?);
        (step.0 < LESSON.sequence.messages.len() && step.id() == id).then_some(step)
    }
}

/// Positions for a sequence diagram of `participants` lifelines and `messages` rows,
/// with an optional gutter on the left for message times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SequenceLayout {
    pub participants: usize,
    pub messages: usize,
    pub time_gutter: bool,
}

impl SequenceLayout {
    pub const HEAD_HEIGHT: f64 = 44.0;
    pub const ROW: f64 = 46.0;
    const COLUMN: f64 = 250.0;
    const MARGIN: f64 = 90.0;
    const GUTTER: f64 = 70.0;

    pub fn width(&self) -> f64 {
        let gutter = if self.time_gutter { Self::GUTTER } else { 0.0 };
        gutter + 2.0 * Self::MARGIN + Self::COLUMN * self.participants.saturating_sub(1) as f64
    }

    pub fn height(&self) -> f64 {
        self.row_y(self.messages) + 10.0
    }

    /// The x of participant `index`'s lifeline.
    pub fn lifeline_x(&self, index: usize) -> f64 {
        let gutter = if self.time_gutter { Self::GUTTER } else { 0.0 };
        gutter + Self::MARGIN + Self::COLUMN * index as f64
    }

    /// The y of message `index`'s arrow.
    pub fn row_y(&self, index: usize) -> f64 {
        Self::HEAD_HEIGHT + 40.0 + Self::ROW * index as f64
    }

    /// The arrow for a message; a message to oneself is a small loop to the right.
    pub fn arrow(&self, index: usize, from: usize, to: usize) -> Curve {
        let y = self.row_y(index);
        let x1 = self.lifeline_x(from);
        if from == to {
            return Curve {
                points: [
                    pt(x1, y - 12.0),
                    pt(x1 + 60.0, y - 12.0),
                    pt(x1 + 60.0, y + 12.0),
                    pt(x1 + 4.0, y + 12.0),
                ],
                label_at: pt(x1 + 52.0, y + 4.0),
                label_anchor: Anchor::Start,
            };
        }
        let x2 = self.lifeline_x(to);
        let end = if x2 > x1 { x2 - 4.0 } else { x2 + 4.0 };
        Curve::straight(
            pt(x1, y),
            pt(end, y),
            pt((x1 + x2) / 2.0, y - 8.0),
            Anchor::Middle,
        )
    }
}

// ---------------------------------------------------------------------- explanations

/// What a selection explains: a title, then labelled lines ("Protocol: …").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub title: String,
    pub lines: Vec<(&'static str, String)>,
}

/// The explanation for a lifecycle selection; `None` for a transition the lesson lacks.
pub fn explain_lifecycle(selection: LifecycleSelection) -> Option<Explanation> {
    match selection {
        LifecycleSelection::State(state) => {
            let text = state.text();
            Some(Explanation {
                title: format!("{} {}", text.number, text.label),
                lines: vec![(LESSON.explain.decision, text.decision.to_owned())],
            })
        }
        LifecycleSelection::Transition { from, to } => {
            let t = LESSON
                .lifecycle
                .transitions
                .iter()
                .find(|t| t.from == from && t.to == to)?;
            Some(Explanation {
                title: format!("{} → {}: {}", from.text().label, to.text().label, t.label),
                lines: vec![(LESSON.explain.decision, t.decision.to_owned())],
            })
        }
    }
}

/// The explanation for an architecture selection.
pub fn explain_architecture(selection: ArchSelection) -> Explanation {
    match selection {
        ArchSelection::Node(node) => Explanation {
            title: node.title(),
            lines: vec![(LESSON.explain.why, node.text().why.to_owned())],
        },
        ArchSelection::Edge(edge) => {
            let text = edge.text();
            Explanation {
                title: text.label.to_owned(),
                lines: vec![
                    (LESSON.explain.protocol, text.protocol.to_owned()),
                    (LESSON.explain.direction, text.direction.to_owned()),
                    (LESSON.explain.effect, text.effect.to_owned()),
                    (LESSON.explain.consequence, text.consequence.to_owned()),
                ],
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_step_is_named_by_its_number_from_one_and_only_if_the_sequence_has_it() {
        let steps = LESSON.sequence.messages.len();
        assert!(steps > 2);
        assert_eq!(SequenceStep::from_id("sequence.1"), Some(SequenceStep(0)));
        let last = SequenceStep(steps - 1);
        assert_eq!(SequenceStep::from_id(&last.id()), Some(last));
        for id in [
            "sequence.0",
            "sequence.+1",
            "sequence.01",
            "sequence.",
            "sequence.x",
        ] {
            assert_eq!(SequenceStep::from_id(id), None, "{id}");
        }
        assert_eq!(
            SequenceStep::from_id(&format!("sequence.{}", steps + 1)),
            None
        );
    }

    /// The characters a share link accepts in a selection id.
    fn link_safe(id: &str) -> bool {
        id.len() <= 64
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
    }

    #[test]
    fn every_diagram_selection_round_trips_through_a_link_safe_id() {
        let mut lifecycle: Vec<LifecycleSelection> = LeaseState::ALL
            .into_iter()
            .map(LifecycleSelection::State)
            .collect();
        lifecycle.extend(LESSON.lifecycle.transitions.iter().map(|t| {
            LifecycleSelection::Transition {
                from: t.from,
                to: t.to,
            }
        }));
        for selection in lifecycle {
            let id = selection.id();
            assert!(link_safe(&id), "{id}");
            assert_eq!(LifecycleSelection::from_id(&id), Some(selection));
            assert_eq!(ArchSelection::from_id(&id), None);
        }
        let mut architecture: Vec<ArchSelection> =
            ArchNode::ALL.into_iter().map(ArchSelection::Node).collect();
        architecture.extend(ArchEdge::ALL.into_iter().map(ArchSelection::Edge));
        for selection in architecture {
            let id = selection.id();
            assert!(link_safe(&id), "{id}");
            assert_eq!(ArchSelection::from_id(&id), Some(selection));
            assert_eq!(LifecycleSelection::from_id(&id), None);
        }
        for unknown in [
            "",
            "lifecycle.",
            "lifecycle.lost-acquiring",
            "architecture.edge.",
            "architecture.nope",
        ] {
            assert_eq!(LifecycleSelection::from_id(unknown), None, "{unknown}");
            assert_eq!(ArchSelection::from_id(unknown), None, "{unknown}");
        }
    }

    #[test]
    fn every_lesson_transition_has_an_arrow_and_no_other_pair_does() {
        for t in LESSON.lifecycle.transitions {
            assert!(
                lifecycle_curve(t.from, t.to).is_some(),
                "{:?} → {:?}",
                t.from,
                t.to
            );
        }
        assert!(lifecycle_curve(LeaseState::Lost, LeaseState::Holding).is_none());
    }

    #[test]
    fn state_boxes_stay_inside_the_view_and_do_not_overlap() {
        let (w, h) = LIFECYCLE_VIEW;
        for a in LeaseState::ALL {
            let r = lifecycle_box(a);
            assert!(
                r.left() >= 0.0
                    && r.left() + r.width <= w
                    && r.top() >= 0.0
                    && r.top() + r.height <= h
            );
            for b in LeaseState::ALL.into_iter().filter(|&b| b != a) {
                let s = lifecycle_box(b);
                let apart = r.left() + r.width <= s.left()
                    || s.left() + s.width <= r.left()
                    || r.top() + r.height <= s.top()
                    || s.top() + s.height <= r.top();
                assert!(apart, "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn a_message_in_flight_moves_along_its_arrow_and_is_clamped() {
        let curve = architecture_curve(ArchEdge::Acquire);
        let start = curve.point_at(0.0);
        let end = curve.point_at(1.0);
        assert_eq!(start, pt(200.0, 70.0));
        assert_eq!(end, pt(520.0, 70.0));
        assert!((curve.point_at(0.5).x - 360.0).abs() < 1e-9);
        assert_eq!(curve.point_at(-3.0), start);
        assert_eq!(curve.point_at(7.0), end);
        assert_eq!(curve.point_at(f64::NAN), start);
        let reply = architecture_curve(ArchEdge::Fail);
        assert!(
            reply.point_at(0.0).x > reply.point_at(1.0).x,
            "replies travel from the service to the client"
        );
    }

    #[test]
    fn sequence_rows_go_down_and_self_messages_loop_back() {
        let layout = SequenceLayout {
            participants: 2,
            messages: 6,
            time_gutter: false,
        };
        assert!(layout.row_y(1) > layout.row_y(0));
        assert!(layout.height() > layout.row_y(5));
        assert_eq!(layout.width(), 430.0);
        let own = layout.arrow(5, 0, 0);
        assert_eq!(own.points[0].x.round(), layout.lifeline_x(0).round());
        assert!(own.points[1].x > layout.lifeline_x(0));
        let timed = SequenceLayout {
            time_gutter: true,
            ..layout
        };
        assert!(timed.lifeline_x(0) > layout.lifeline_x(0));
    }

    #[test]
    fn each_selection_explains_itself() {
        let edge = explain_architecture(ArchSelection::Edge(ArchEdge::Renew));
        let labels: Vec<&str> = edge.lines.iter().map(|(label, _)| *label).collect();
        assert_eq!(labels, ["Protocol", "Direction", "Effect", "Consequence"]);
        assert_eq!(edge.title, "renew if token");
        let node = explain_architecture(ArchSelection::Node(ArchNode::LockService));
        assert_eq!(node.title, "2 Lock service");
        let lost = explain_lifecycle(LifecycleSelection::State(LeaseState::Lost)).unwrap();
        assert_eq!(lost.title, "4 Lost — stop writes");
        let fail = explain_lifecycle(LifecycleSelection::Transition {
            from: LeaseState::RenewResult,
            to: LeaseState::Lost,
        })
        .unwrap();
        assert!(fail.title.ends_with("fail / TTL expiry"));
        assert!(explain_lifecycle(LifecycleSelection::Transition {
            from: LeaseState::Lost,
            to: LeaseState::Acquiring
        })
        .is_none());
    }
}
