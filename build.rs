//! Turns `content/lesson.toml` into Rust statics at compile time.
//!
//! The lesson's words live in that file so a course author can change them without touching
//! Rust. This script checks them against the same shapes as `src/lesson/content.rs` (unknown
//! or missing keys and unknown diagram ids fail the build with the TOML line and column) and
//! writes one Rust expression to `$OUT_DIR/lesson.rs`, so no parser ships in the page.

use serde::Deserialize;
use std::{env, fs, path::Path};

const SOURCE: &str = "content/lesson.toml";

/// Renders a value as a Rust expression of the matching `'static` type in `src/lesson`.
trait Lit {
    fn lit(&self) -> String;
}

impl Lit for String {
    fn lit(&self) -> String {
        format!("{self:?}")
    }
}

impl Lit for u32 {
    fn lit(&self) -> String {
        self.to_string()
    }
}

impl<T: Lit> Lit for Vec<T> {
    fn lit(&self) -> String {
        let items: Vec<String> = self.iter().map(Lit::lit).collect();
        format!("&[{}]", items.join(", "))
    }
}

/// Declares a record read from the TOML file and how it is written out as Rust.
macro_rules! records {
    ($( $name:ident { $($field:ident : $ty:ty),* $(,)? } )*) => {
        $(
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct $name { $($field: $ty),* }

            impl Lit for $name {
                fn lit(&self) -> String {
                    let fields: Vec<String> = vec![
                        $(format!("{}: {}", stringify!($field), self.$field.lit())),*
                    ];
                    format!("{} {{ {} }}", stringify!($name), fields.join(", "))
                }
            }
        )*
    };
}

/// Declares an id enum whose TOML spelling is snake_case.
macro_rules! ids {
    ($( $name:ident { $($variant:ident),* $(,)? } )*) => {
        $(
            #[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
            #[serde(rename_all = "snake_case")]
            enum $name { $($variant),* }

            impl $name {
                const ALL: &'static [$name] = &[$($name::$variant),*];
            }

            impl Lit for $name {
                fn lit(&self) -> String {
                    format!("{}::{:?}", stringify!($name), self)
                }
            }
        )*
    };
}

ids! {
    LeaseState { Acquiring, Holding, RenewResult, Lost, Releasing }
    ArchNode { Client, LockService }
    ArchEdge { Acquire, Renew, Ok, Fail }
}

records! {
    Lesson {
        masthead: Masthead, voice: Voice, gist: Gist, lifecycle: Lifecycle, maps: Maps,
        architecture: Architecture, sequence: Sequence, lifecycle_map: LifecycleMap,
        pattern: Pattern, tables: Vec<Table>, blips: Blips, ttl: Ttl, unlock: Unlock, qa: Qa,
        deeper: Deeper,
    }
    Masthead { series: String, title: String, summary: String }
    Voice {
        label: String, play: String, pause: String, resume: String, stop: String,
        rate: String, voice: String, default_voice: String, unsupported: String,
        reading: String, paused: String, finished: String, failed: String,
    }
    Gist {
        holding_heading: String, holding_intro: String, prefer: Card, alternative: Card,
        heartbeat: Heartbeat, overview: Overview,
    }
    Card { tag: String, title: String, body: Vec<String>, bullets: Vec<String> }
    Heartbeat { heading: String, lead: String, steps: Vec<Step> }
    Step { title: String, body: Vec<String> }
    Overview {
        heading: String, paragraphs: Vec<String>, objectives_heading: String,
        objectives: Vec<String>,
    }
    Lifecycle {
        heading: String, intro: String, hint: String, summary: String, diagram_label: String,
        decisions_heading: String, end_state: String, states: Vec<StateText>, transitions: Vec<TransitionText>,
    }
    StateText { id: LeaseState, number: String, label: String, decision: String }
    TransitionText { from: LeaseState, to: LeaseState, label: String, decision: String }
    Maps {
        map_heading: String, map_intro: String, map: Vec<MapEntry>, export_heading: String,
        export_intro: String, copy: String, download: String, copied: String,
        copy_failed: String, downloaded: String, download_failed: String,
    }
    MapEntry { title: String, place: String, idea: String }
    Architecture {
        heading: String, intro: String, diagram_label: String, file: String,
        nodes: Vec<NodeText>, edges: Vec<EdgeText>,
    }
    NodeText { id: ArchNode, number: String, label: String, duties: Vec<String>, why: String }
    EdgeText {
        id: ArchEdge, from: ArchNode, to: ArchNode, label: String, protocol: String,
        direction: String, effect: String, consequence: String,
    }
    Sequence {
        heading: String, intro: String, diagram_label: String, file: String,
        messages: Vec<MessageText>,
    }
    MessageText { from: ArchNode, to: ArchNode, label: String, explain: String }
    LifecycleMap { heading: String, intro: String, file: String }
    Pattern { heading: String, lead: String, steps: Vec<String> }
    Table {
        id: String, heading: String, caption: String, columns: Vec<String>,
        rows: Vec<Vec<String>>, note: String,
    }
    Blips { heading: String, bullets: Vec<String>, note: String }
    Ttl {
        heading: String, lead: String, formula: String, after: Vec<String>,
        calculator_heading: String, calculator_intro: String, work_label: String,
        rtt_label: String, gc_label: String, margin_label: String, unit: String,
        minimum_label: String, proposed_label: String, heartbeat_label: String,
        calculator_invalid: String, error_empty: String, error_negative: String,
        error_not_whole: String, error_too_large: String,
        work_default: u32, rtt_default: u32, gc_default: u32, margin_default: u32,
        exercise: String,
    }
    Unlock { heading: String, answer: String }
    Qa {
        heading: String, intro: String, reveal: String, hide: String, knew: String,
        review: String, shuffle: String, reset: String, progress: String,
        storage_unavailable: String, answer_label: String, grade_group: String, questions: Vec<Question>,
    }
    Question { id: String, question: String, answer: String }
    Deeper { heading: String, new_tab: String, links: Vec<Link> }
    Link { label: String, url: String, note: String }
}

/// Checks what the shapes alone cannot: each diagram id appears once, tables are
/// rectangular, question ids are unique, and links are https.
fn check(lesson: &Lesson) -> Result<(), String> {
    for state in LeaseState::ALL {
        let count = lesson
            .lifecycle
            .states
            .iter()
            .filter(|s| s.id == *state)
            .count();
        if count != 1 {
            return Err(format!(
                "lifecycle.states must list {state:?} once, not {count} times"
            ));
        }
    }
    for node in ArchNode::ALL {
        let count = lesson
            .architecture
            .nodes
            .iter()
            .filter(|n| n.id == *node)
            .count();
        if count != 1 {
            return Err(format!(
                "architecture.nodes must list {node:?} once, not {count} times"
            ));
        }
    }
    for edge in ArchEdge::ALL {
        let count = lesson
            .architecture
            .edges
            .iter()
            .filter(|e| e.id == *edge)
            .count();
        if count != 1 {
            return Err(format!(
                "architecture.edges must list {edge:?} once, not {count} times"
            ));
        }
    }
    for (index, t) in lesson.lifecycle.transitions.iter().enumerate() {
        let twin = lesson.lifecycle.transitions[..index]
            .iter()
            .any(|u| u.from == t.from && u.to == t.to);
        if twin || t.from == t.to {
            return Err(format!(
                "lifecycle.transitions: {:?} → {:?} is repeated or a loop",
                t.from, t.to
            ));
        }
    }
    for table in &lesson.tables {
        if let Some(row) = table.rows.iter().find(|r| r.len() != table.columns.len()) {
            return Err(format!(
                "table {}: row {row:?} does not have {} cells",
                table.id,
                table.columns.len()
            ));
        }
    }
    for (index, q) in lesson.qa.questions.iter().enumerate() {
        if lesson.qa.questions[..index].iter().any(|p| p.id == q.id) {
            return Err(format!("qa.questions: the id {} is used twice", q.id));
        }
        if q.id.is_empty()
            || !q
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(format!(
                "qa.questions: the id {:?} must be lowercase letters, digits and dashes",
                q.id
            ));
        }
    }
    if let Some(link) = lesson
        .deeper
        .links
        .iter()
        .find(|l| !l.url.starts_with("https://"))
    {
        return Err(format!(
            "deeper.links: {} must be an https:// address",
            link.label
        ));
    }
    Ok(())
}

/// The counterexample search's words: flat `[section] key = "text"` tables, written out as
/// `pub const SECTION_KEY: &str` so that a word the code uses and the file lacks fails the build.
const SEARCH_WORDS: &str = "content/search.toml";

fn word_consts(text: &str) -> Result<String, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for (section, words) in &table {
        let words = words
            .as_table()
            .ok_or(format!("[{section}] must be a table"))?;
        for (key, word) in words {
            let word = word
                .as_str()
                .ok_or(format!("{section}.{key} must be text"))?;
            let name = format!("{section}_{key}").to_uppercase().replace('-', "_");
            out.push_str(&format!("pub const {name}: &str = {word:?};\n"));
        }
    }
    Ok(out)
}

fn main() {
    println!("cargo:rerun-if-changed={SEARCH_WORDS}");
    let words = fs::read_to_string(SEARCH_WORDS)
        .unwrap_or_else(|e| panic!("cannot read {SEARCH_WORDS}: {e}"));
    let words = word_consts(&words).unwrap_or_else(|e| panic!("{SEARCH_WORDS}: {e}"));
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("search_words.rs");
    fs::write(&out, words).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
    println!("cargo:rerun-if-changed={SOURCE}");
    println!("cargo:rerun-if-changed=build.rs");
    let text = fs::read_to_string(SOURCE).unwrap_or_else(|e| panic!("cannot read {SOURCE}: {e}"));
    let lesson: Lesson = toml::from_str(&text).unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
    if let Err(problem) = check(&lesson) {
        panic!("{SOURCE}: {problem}");
    }
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lesson.rs");
    fs::write(&out, lesson.lit()).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
