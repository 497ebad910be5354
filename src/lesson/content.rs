//! The shapes of the lesson text, and the text itself, compiled in from `content/lesson.toml`.
//!
//! `build.rs` reads the TOML file, checks it against these same shapes and writes them out as
//! one Rust expression, so wording lives in the content file and never in component code.

/// A step of the lease lifecycle state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LeaseState {
    Acquiring,
    Holding,
    RenewResult,
    Lost,
    Releasing,
}

impl LeaseState {
    /// Every state, in the lesson's order.
    pub const ALL: [LeaseState; 5] = [
        LeaseState::Acquiring,
        LeaseState::Holding,
        LeaseState::RenewResult,
        LeaseState::Lost,
        LeaseState::Releasing,
    ];

    /// A stable identifier for Mermaid, DOM ids and tests.
    pub fn slug(self) -> &'static str {
        match self {
            LeaseState::Acquiring => "acquiring",
            LeaseState::Holding => "holding",
            LeaseState::RenewResult => "renew_result",
            LeaseState::Lost => "lost",
            LeaseState::Releasing => "releasing",
        }
    }

    /// This state's text in the lesson.
    pub fn text(self) -> &'static StateText {
        LESSON
            .lifecycle
            .states
            .iter()
            .find(|s| s.id == self)
            .expect("build.rs checks that every state is in the lesson")
    }
}

/// A box of the architecture diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArchNode {
    Client,
    LockService,
}

impl ArchNode {
    pub const ALL: [ArchNode; 2] = [ArchNode::Client, ArchNode::LockService];

    pub fn slug(self) -> &'static str {
        match self {
            ArchNode::Client => "client",
            ArchNode::LockService => "lock_service",
        }
    }

    pub fn text(self) -> &'static NodeText {
        LESSON
            .architecture
            .nodes
            .iter()
            .find(|n| n.id == self)
            .expect("build.rs checks that every node is in the lesson")
    }

    /// "1 Client": the number and the name, as the lesson shows them.
    pub fn title(self) -> String {
        let text = self.text();
        format!("{} {}", text.number, text.label)
    }
}

/// An arrow of the architecture diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArchEdge {
    Acquire,
    Renew,
    Ok,
    Fail,
}

impl ArchEdge {
    pub const ALL: [ArchEdge; 4] = [
        ArchEdge::Acquire,
        ArchEdge::Renew,
        ArchEdge::Ok,
        ArchEdge::Fail,
    ];

    pub fn slug(self) -> &'static str {
        match self {
            ArchEdge::Acquire => "acquire",
            ArchEdge::Renew => "renew",
            ArchEdge::Ok => "ok",
            ArchEdge::Fail => "fail",
        }
    }

    pub fn text(self) -> &'static EdgeText {
        LESSON
            .architecture
            .edges
            .iter()
            .find(|e| e.id == self)
            .expect("build.rs checks that every edge is in the lesson")
    }
}

#[derive(Debug)]
pub struct Lesson {
    pub masthead: Masthead,
    pub voice: Voice,
    pub gist: Gist,
    pub lifecycle: Lifecycle,
    pub maps: Maps,
    pub architecture: Architecture,
    pub sequence: Sequence,
    pub lifecycle_map: LifecycleMap,
    pub pattern: Pattern,
    pub tables: &'static [Table],
    pub blips: Blips,
    pub ttl: Ttl,
    pub unlock: Unlock,
    pub qa: Qa,
    pub deeper: Deeper,
}

#[derive(Debug)]
pub struct Masthead {
    pub series: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
}

/// The voice readout control's words.
#[derive(Debug)]
pub struct Voice {
    pub label: &'static str,
    pub play: &'static str,
    pub pause: &'static str,
    pub resume: &'static str,
    pub stop: &'static str,
    pub rate: &'static str,
    pub voice: &'static str,
    pub default_voice: &'static str,
    pub unsupported: &'static str,
    pub reading: &'static str,
    pub paused: &'static str,
    pub finished: &'static str,
    pub failed: &'static str,
}

#[derive(Debug)]
pub struct Gist {
    pub holding_heading: &'static str,
    pub holding_intro: &'static str,
    pub prefer: Card,
    pub alternative: Card,
    pub heartbeat: Heartbeat,
    pub overview: Overview,
}

/// A "Prefer" or "Alternative" card: a tag, a title, body sentences and bullets.
#[derive(Debug)]
pub struct Card {
    pub tag: &'static str,
    pub title: &'static str,
    pub body: &'static [&'static str],
    pub bullets: &'static [&'static str],
}

#[derive(Debug)]
pub struct Heartbeat {
    pub heading: &'static str,
    pub lead: &'static str,
    pub steps: &'static [Step],
}

#[derive(Debug)]
pub struct Step {
    pub title: &'static str,
    pub body: &'static [&'static str],
}

#[derive(Debug)]
pub struct Overview {
    pub heading: &'static str,
    pub paragraphs: &'static [&'static str],
    pub objectives_heading: &'static str,
    pub objectives: &'static [&'static str],
}

#[derive(Debug)]
pub struct Lifecycle {
    pub heading: &'static str,
    pub intro: &'static str,
    pub hint: &'static str,
    pub summary: &'static str,
    pub diagram_label: &'static str,
    pub decisions_heading: &'static str,
    pub end_state: &'static str,
    pub states: &'static [StateText],
    pub transitions: &'static [TransitionText],
}

#[derive(Debug)]
pub struct StateText {
    pub id: LeaseState,
    pub number: &'static str,
    pub label: &'static str,
    pub decision: &'static str,
}

#[derive(Debug)]
pub struct TransitionText {
    pub from: LeaseState,
    pub to: LeaseState,
    pub label: &'static str,
    pub decision: &'static str,
}

#[derive(Debug)]
pub struct Maps {
    pub map_heading: &'static str,
    pub map_intro: &'static str,
    pub map: &'static [MapEntry],
    pub export_heading: &'static str,
    pub export_intro: &'static str,
    pub copy: &'static str,
    pub download: &'static str,
    pub copied: &'static str,
    pub copy_failed: &'static str,
    pub downloaded: &'static str,
    pub download_failed: &'static str,
}

#[derive(Debug)]
pub struct MapEntry {
    pub title: &'static str,
    pub place: &'static str,
    pub idea: &'static str,
}

#[derive(Debug)]
pub struct Architecture {
    pub heading: &'static str,
    pub intro: &'static str,
    pub diagram_label: &'static str,
    pub file: &'static str,
    pub nodes: &'static [NodeText],
    pub edges: &'static [EdgeText],
}

#[derive(Debug)]
pub struct NodeText {
    pub id: ArchNode,
    pub number: &'static str,
    pub label: &'static str,
    /// Short phrases drawn inside the node's box: what it keeps track of.
    pub duties: &'static [&'static str],
    pub why: &'static str,
}

#[derive(Debug)]
pub struct EdgeText {
    pub id: ArchEdge,
    pub from: ArchNode,
    pub to: ArchNode,
    pub label: &'static str,
    pub protocol: &'static str,
    pub direction: &'static str,
    pub effect: &'static str,
    pub consequence: &'static str,
}

#[derive(Debug)]
pub struct Sequence {
    pub heading: &'static str,
    pub intro: &'static str,
    pub diagram_label: &'static str,
    pub file: &'static str,
    pub messages: &'static [MessageText],
}

#[derive(Debug)]
pub struct MessageText {
    pub from: ArchNode,
    pub to: ArchNode,
    pub label: &'static str,
    pub explain: &'static str,
}

#[derive(Debug)]
pub struct LifecycleMap {
    pub heading: &'static str,
    pub intro: &'static str,
    pub file: &'static str,
}

#[derive(Debug)]
pub struct Pattern {
    pub heading: &'static str,
    pub lead: &'static str,
    pub steps: &'static [&'static str],
}

/// A table of the lesson: every row has one cell per column; the first column heads its row.
#[derive(Debug)]
pub struct Table {
    pub id: &'static str,
    pub heading: &'static str,
    pub caption: &'static str,
    pub columns: &'static [&'static str],
    pub rows: &'static [&'static [&'static str]],
    pub note: &'static str,
}

#[derive(Debug)]
pub struct Blips {
    pub heading: &'static str,
    pub bullets: &'static [&'static str],
    pub note: &'static str,
}

#[derive(Debug)]
pub struct Ttl {
    pub heading: &'static str,
    pub lead: &'static str,
    pub formula: &'static str,
    pub after: &'static [&'static str],
    pub calculator_heading: &'static str,
    pub calculator_intro: &'static str,
    pub work_label: &'static str,
    pub rtt_label: &'static str,
    pub gc_label: &'static str,
    pub margin_label: &'static str,
    pub unit: &'static str,
    pub minimum_label: &'static str,
    pub proposed_label: &'static str,
    pub heartbeat_label: &'static str,
    pub calculator_invalid: &'static str,
    pub error_empty: &'static str,
    pub error_negative: &'static str,
    pub error_not_whole: &'static str,
    pub error_too_large: &'static str,
    pub work_default: u32,
    pub rtt_default: u32,
    pub gc_default: u32,
    pub margin_default: u32,
    pub exercise: &'static str,
}

#[derive(Debug)]
pub struct Unlock {
    pub heading: &'static str,
    pub answer: &'static str,
}

#[derive(Debug)]
pub struct Qa {
    pub heading: &'static str,
    pub intro: &'static str,
    pub reveal: &'static str,
    pub hide: &'static str,
    pub knew: &'static str,
    pub review: &'static str,
    pub shuffle: &'static str,
    pub reset: &'static str,
    /// With the placeholders `{known}`, `{review}`, `{open}` and `{total}`.
    pub progress: &'static str,
    pub storage_unavailable: &'static str,
    pub answer_label: &'static str,
    pub grade_group: &'static str,
    pub questions: &'static [Question],
}

#[derive(Debug)]
pub struct Question {
    /// Stable across rewordings: saved progress is keyed by it.
    pub id: &'static str,
    pub question: &'static str,
    pub answer: &'static str,
}

#[derive(Debug)]
pub struct Deeper {
    pub heading: &'static str,
    pub new_tab: &'static str,
    pub links: &'static [Link],
}

#[derive(Debug)]
pub struct Link {
    pub label: &'static str,
    pub url: &'static str,
    pub note: &'static str,
}

impl Lesson {
    /// The table with this id. Panics only if the content file lost a table the code draws.
    pub fn table(&'static self, id: &str) -> &'static Table {
        self.tables
            .iter()
            .find(|t| t.id == id)
            .unwrap_or_else(|| panic!("content/lesson.toml has no table {id}"))
    }
}

/// The whole lesson.
pub static LESSON: Lesson = include!(concat!(env!("OUT_DIR"), "/lesson.rs"));
