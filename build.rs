//! Turns the content files (`content/*.toml`) into Rust at compile time.
//!
//! The lesson's, the laboratory's and the checks' words live in those files so a course
//! author can change them without touching Rust. This script takes each sentence with
//! `{placeholders}` out as a typed struct (`build/sentences.rs`, written to
//! `$OUT_DIR/sentences.rs`), reads the rest with the shapes of `src/lesson/schema.rs`, which
//! `src/lesson/content.rs` declares from too (unknown or missing keys and unknown diagram
//! ids fail the build naming the file and key), and writes one Rust expression per file to
//! `$OUT_DIR`, so no parser ships in the page.

use serde::Deserialize;
use std::{env, fs, path::Path};

#[path = "build/sentences.rs"]
mod sentences;
use sentences::{pieces, sentence_module, take_sentences, Piece};

const LESSON_SOURCE: &str = "content/lesson.toml";
const SANDBOX_SOURCE: &str = "content/sandbox.toml";
const CHECKS_SOURCE: &str = "content/checks.toml";
const REASONS_SOURCE: &str = "content/reasons.toml";
const CHALLENGES_SOURCE: &str = "content/challenges.toml";
const SEARCH_SOURCE: &str = "content/search.toml";
const LIVE_SOURCE: &str = "content/live.toml";
const RUNTIME_SOURCE: &str = "content/runtime.toml";

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

impl Lit for bool {
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

impl<T: Lit> Lit for Option<T> {
    fn lit(&self) -> String {
        match self {
            Some(value) => format!("Some({})", value.lit()),
            None => "None".to_owned(),
        }
    }
}

/// A text of the content files, as read.
type Text = String;
/// A list of the content files, as read.
type List<T> = Vec<T>;

/// Declares a record read from a TOML file and how it is written out as Rust.
macro_rules! records {
    ($( $(#[$meta:meta])* $name:ident { $($(#[$field_meta:meta])* $field:ident : $ty:ty),* $(,)? } )*) => {
        $(
            $(#[$meta])*
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct $name { $($(#[$field_meta])* $field: $ty),* }

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

include!("src/lesson/schema.rs");

/// Checks what the shapes alone cannot: each diagram id appears once, tables are
/// rectangular, question ids are unique, and links are https.
fn check(lesson: &Lesson) -> Result<(), String> {
    check_diagrams(lesson)?;
    check_texts(lesson)
}

/// Each diagram id appears once, and no transition repeats or loops.
fn check_diagrams(lesson: &Lesson) -> Result<(), String> {
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
    Ok(())
}

/// Tables are rectangular, question ids are unique slugs, and links are https.
fn check_texts(lesson: &Lesson) -> Result<(), String> {
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

/// Checks that every preset, field, fault kind and policy switch is worded once.
fn check_sandbox(sandbox: &Sandbox) -> Result<(), String> {
    let keys = [
        (
            "presets",
            sandbox.presets.iter().map(|p| &p.id).collect::<Vec<_>>(),
        ),
        ("fields", sandbox.fields.iter().map(|f| &f.key).collect()),
        (
            "faults",
            sandbox.faults.iter().map(|f| &f.keyword).collect(),
        ),
        (
            "switches",
            sandbox.switches.iter().map(|s| &s.slug).collect(),
        ),
        ("systems", sandbox.systems.iter().map(|s| &s.slug).collect()),
    ];
    for (list, ids) in keys {
        if let Some((index, id)) = ids
            .iter()
            .enumerate()
            .find(|(i, id)| ids[..*i].contains(id))
        {
            return Err(format!(
                "{list}: {id} is worded twice (entry {})",
                index + 1
            ));
        }
    }
    Ok(())
}

/// Checks the challenges, then writes how many there are and how many count toward a
/// course's completion, `(total, required)`: the lesson reports both to a course platform
/// before the laboratory, which holds the challenges themselves, has loaded.
fn check_and_count_challenges(c: &Challenges) -> Result<(), String> {
    check_challenges(c)?;
    let required = c.challenges.iter().filter(|ch| ch.required).count();
    let counts = format!("({}, {required})", c.challenges.len());
    write_out("challenge_counts.rs", &counts);
    Ok(())
}

/// Checks what the challenges' words need before any Rust reads them: ids are unique slugs,
/// and every challenge has a goal and a hint. Whether a goal names known checks and metrics, and whether the start misses it and
/// the reference answer meets it, is the model's to say: `tests/challenges.rs` runs them all.
fn check_challenges(c: &Challenges) -> Result<(), String> {
    for (index, challenge) in c.challenges.iter().enumerate() {
        let id = &challenge.id;
        if c.challenges[..index].iter().any(|other| &other.id == id) {
            return Err(format!("challenges: the id {id} is used twice"));
        }
        let slug = !id.is_empty()
            && id
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-');
        if !slug {
            return Err(format!(
                "challenges: the id {id:?} must be lowercase letters, digits and dashes"
            ));
        }
        if challenge.trials.is_empty() || challenge.trials.iter().any(|t| t.goal.is_empty()) {
            return Err(format!("challenges.{id}: every trial needs a goal"));
        }
        if challenge.hints.is_empty() {
            return Err(format!("challenges.{id}: give at least one hint"));
        }
    }
    Ok(())
}

/// Reads `source`'s sentences with placeholders out as structs, then the rest with the
/// shape `T`, checks it and writes it to `$OUT_DIR/out`; returns the sentences' module.
fn compile<T: for<'de> Deserialize<'de> + Lit>(
    source: &str,
    out: &str,
    check: fn(&T) -> Result<(), String>,
) -> String {
    let (table, sentences) = read(source);
    let value: T = table.try_into().unwrap_or_else(|e| panic!("{source}: {e}"));
    if let Err(problem) = check(&value) {
        panic!("{source}: {problem}");
    }
    write_out(out, &value.lit());
    sentences
}

/// `source` without its sentences with placeholders, and those as a Rust module.
fn read(source: &str) -> (toml::Table, String) {
    println!("cargo:rerun-if-changed={source}");
    let text = fs::read_to_string(source).unwrap_or_else(|e| panic!("cannot read {source}: {e}"));
    let mut table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{source}: {e}"));
    let sentences = take_sentences(source, &mut table).unwrap_or_else(|e| panic!("{e}"));
    let module = Path::new(source)
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("content files have plain names");
    (table, sentence_module(source, module, &sentences))
}

/// The client runtime's sentences (`content/runtime.toml`, one flat table) as `(key,
/// sentence)` pairs: JavaScript and Python fill them, so they are not typed structs, but
/// their placeholders are checked as any sentence's, and counted words are refused.
fn runtime_words(source: &str) -> String {
    println!("cargo:rerun-if-changed={source}");
    let text = fs::read_to_string(source).unwrap_or_else(|e| panic!("cannot read {source}: {e}"));
    let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{source}: {e}"));
    let mut pairs = Vec::new();
    for (key, value) in &table {
        let sentence = value
            .as_str()
            .unwrap_or_else(|| panic!("{source}: {key} must be a sentence"));
        let pieces = pieces(sentence).unwrap_or_else(|e| panic!("{source}: {key}: {e}"));
        if pieces.iter().any(|p| matches!(p, Piece::Counted { .. })) {
            panic!("{source}: {key}: the runtime cannot count words; write the sentence without");
        }
        pairs.push(format!("({key:?}, {sentence:?})"));
    }
    format!("&[{}]", pairs.join(", "))
}

fn write_out(name: &str, rust: &str) {
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(name);
    fs::write(&out, rust).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/sentences.rs");
    println!("cargo:rerun-if-changed=src/lesson/schema.rs");
    let sentences = [
        compile::<Lesson>(LESSON_SOURCE, "lesson.rs", check),
        compile::<Sandbox>(SANDBOX_SOURCE, "sandbox.rs", check_sandbox),
        compile::<CheckTexts>(CHECKS_SOURCE, "checks.rs", |_| Ok(())),
        compile::<Reasons>(REASONS_SOURCE, "reasons.rs", |_| Ok(())),
        compile::<Challenges>(
            CHALLENGES_SOURCE,
            "challenges.rs",
            check_and_count_challenges,
        ),
        compile::<SearchWords>(SEARCH_SOURCE, "search.rs", |_| Ok(())),
        compile::<LiveWords>(LIVE_SOURCE, "live.rs", |_| Ok(())),
    ];
    write_out("sentences.rs", &sentences.join("\n"));
    write_out("runtime_words.rs", &runtime_words(RUNTIME_SOURCE));
}
