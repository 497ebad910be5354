//! The shapes of the content files' plain text, and the text itself, compiled in from
//! `content/*.toml` (their sentences with placeholders are in [`super::sentences`]).
//!
//! The shapes are declared once, in `schema.rs`: `build.rs` reads the TOML files with them,
//! checks them and writes them out as Rust expressions, and this module declares the same
//! shapes as `'static` data, so wording lives in the content files and never in component code.

/// A text compiled in from a content file.
pub type Text = &'static str;
/// A list compiled in from a content file.
pub type List<T> = &'static [T];

/// Declares the compiled form of each record of `schema.rs`.
macro_rules! records {
    ($( $(#[$meta:meta])* $name:ident { $($(#[$field_meta:meta])* $field:ident : $ty:ty),* $(,)? } )*) => {
        $(
            $(#[$meta])*
            #[derive(Debug)]
            pub struct $name { $($(#[$field_meta])* pub $field: $ty),* }
        )*
    };
}

/// Declares each id enum of `schema.rs`, with every value in the content's order.
macro_rules! ids {
    ($( $name:ident { $($variant:ident),* $(,)? } )*) => {
        $(
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum $name { $($variant),* }

            impl $name {
                /// Every value, in the order the schema lists them.
                pub const ALL: [$name; [$(stringify!($variant)),*].len()] = [$($name::$variant),*];
            }
        )*
    };
}

include!("schema.rs");

impl LeaseState {
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

impl ArchNode {
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

impl ArchEdge {
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

impl Lesson {
    /// The table with this id. Panics only if the content file lost a table the code draws.
    pub fn table(&'static self, id: &str) -> &'static Table {
        self.tables
            .iter()
            .find(|t| t.id == id)
            .unwrap_or_else(|| panic!("content/lesson.toml has no table {id}"))
    }
}

impl Sandbox {
    /// The words of the preset with this id.
    pub fn preset(&'static self, id: &str) -> Option<&'static PresetText> {
        self.presets.iter().find(|p| p.id == id)
    }

    /// The words of the scenario field with this key (every field of
    /// [`crate::model::fields::SCENARIO_FIELDS`] has them; a test checks it).
    pub fn field(&'static self, key: &str) -> &'static FieldText {
        worded(self.fields.iter().find(|f| f.key == key), "field", key)
    }

    /// The words of the policy switch with this slug (every
    /// [`crate::lab::PolicySwitch`] has them; a test checks it).
    pub fn switch(&'static self, slug: &str) -> &'static SwitchText {
        worded(
            self.switches.iter().find(|s| s.slug == slug),
            "switch",
            slug,
        )
    }

    /// The words of the real system with this slug (every one of
    /// [`crate::model::presets::system_defaults`] has them; a test checks it).
    pub fn system(&'static self, slug: &str) -> &'static SystemText {
        worded(self.systems.iter().find(|s| s.slug == slug), "system", slug)
    }

    /// The Faults form's words for the kind of fault with this keyword (every
    /// [`crate::model::FaultKind`] has them; a test checks it).
    pub fn fault(&'static self, keyword: &str) -> &'static FaultText {
        worded(
            self.faults.iter().find(|f| f.keyword == keyword),
            "fault",
            keyword,
        )
    }
}

/// The words found for an id the code names; panics only if the content file lost them.
fn worded<T>(found: Option<&'static T>, what: &str, id: &str) -> &'static T {
    found.unwrap_or_else(|| panic!("content/sandbox.toml has no {what} {id}"))
}

/// The whole lesson.
pub static LESSON: Lesson = include!(concat!(env!("OUT_DIR"), "/lesson.rs"));

/// The sandbox's words.
pub static SANDBOX: Sandbox = include!(concat!(env!("OUT_DIR"), "/sandbox.rs"));

/// The checks' words, compiled in from `content/checks.toml`.
pub static CHECK_TEXTS: CheckTexts = include!(concat!(env!("OUT_DIR"), "/checks.rs"));

/// Why a value, a fault, a scenario or a search was refused, compiled in from
/// `content/reasons.toml`.
pub static REASONS: Reasons = include!(concat!(env!("OUT_DIR"), "/reasons.rs"));

/// The Sandbox's challenges, compiled in from `content/challenges.toml`.
pub static CHALLENGES: Challenges = include!(concat!(env!("OUT_DIR"), "/challenges.rs"));

/// The counterexample search's words, compiled in from `content/search.toml`.
pub static SEARCH: SearchWords = include!(concat!(env!("OUT_DIR"), "/search.rs"));

/// Live mode's words, compiled in from `content/live.toml`.
pub static LIVE: LiveWords = include!(concat!(env!("OUT_DIR"), "/live.rs"));

/// The sentences the sandbox's client runtime fills (in JavaScript and Python), by key,
/// compiled in from `content/runtime.toml`; the client engine hands them to the runtime.
pub static RUNTIME_WORDS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/runtime_words.rs"));
