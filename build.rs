//! Turns `content/lesson.toml` and `content/sandbox.toml` into Rust statics at compile time.
//!
//! The lesson's and the sandbox's words live in those files so a course author can change
//! them without touching Rust. This script reads them with the shapes of
//! `src/lesson/schema.rs`, which `src/lesson/content.rs` declares from too (unknown or
//! missing keys and unknown diagram ids fail the build with the TOML line and column), and
//! writes one Rust expression per file to `$OUT_DIR`, so no parser ships in the page.

use serde::Deserialize;
use std::{env, fs, path::Path};

const LESSON_SOURCE: &str = "content/lesson.toml";
const SANDBOX_SOURCE: &str = "content/sandbox.toml";
const CHECKS_SOURCE: &str = "content/checks.toml";
const REASONS_SOURCE: &str = "content/reasons.toml";
const CHALLENGES_SOURCE: &str = "content/challenges.toml";

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

/// The counterexample search's words: flat `[section] key = "text"` tables, written out as
/// `pub const SECTION_KEY: &str` so that a word the code uses and the file lacks fails the build.
const SEARCH_WORDS: &str = "content/search.toml";
/// Live mode's words, the same way.
const LIVE_WORDS: &str = "content/live.toml";

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
    check_event_lines(&sandbox.event_lines)?;
    check_fault_lines(&sandbox.fault_lines)?;
    let n = &sandbox.nodes;
    placeholders(&n.service, &[]).map_err(|e| format!("nodes: {e}"))?;
    placeholders(&n.storage, &[]).map_err(|e| format!("nodes: {e}"))?;
    placeholders(&n.client, &["letter"]).map_err(|e| format!("nodes: {e}"))?;
    for fault in &sandbox.faults {
        placeholders(&fault.label, &[]).map_err(|e| format!("faults.{}: {e}", fault.keyword))?;
    }
    let m = &sandbox.messages;
    for words in [
        &m.acquire,
        &m.renew,
        &m.release,
        &m.granted,
        &m.busy,
        &m.renew_ok,
        &m.not_owner,
        &m.release_reply,
        &m.write,
    ] {
        placeholders(words, &[]).map_err(|e| format!("messages: {e}"))?;
    }
    let c = &sandbox.client_states;
    for words in [
        &c.idle,
        &c.renew_in_flight,
        &c.released,
        &c.lost_not_owner,
        &c.lost_deadline_passed,
        &c.lost_deadline_passed_at_write,
    ] {
        placeholders(words, &[]).map_err(|e| format!("client_states: {e}"))?;
    }
    Ok(())
}

/// Checks that each of the event log's sentences names only the facts its event carries.
fn check_event_lines(e: &EventLineWords) -> Result<(), String> {
    let client_token = &["client", "token"][..];
    let lines = [
        (&e.line, &["node", "what"][..]),
        (&e.with_token, &["name", "token"][..]),
        (&e.lost, &["token", "reason"][..]),
        (&e.timer_fired, &["timer"][..]),
        (&e.timer_fired_late, &["timer", "late"][..]),
        (&e.sent, &["message", "to", "due"][..]),
        (&e.delivered, &["message", "from", "sent"][..]),
        (&e.dropped, &["message", "to", "reason"][..]),
        (&e.read_buffered, &["message", "from"][..]),
        (&e.stale_reply, &["message"][..]),
        (&e.fault, &["fault"][..]),
        (&e.paused, &["until"][..]),
        (&e.paused_in_write_path, &["until"][..]),
        (&e.write_issued, &["seq", "token"][..]),
        (&e.write_accepted, client_token),
        (&e.write_accepted_stale, &["client", "token", "highest"][..]),
        (&e.write_rejected, &["client", "token", "highest"][..]),
        (&e.granted, client_token),
        (&e.regranted, client_token),
        (&e.renewed, client_token),
        (&e.busy, &["client"][..]),
        (&e.busy_lock_delay, &["client"][..]),
        (&e.not_owner, client_token),
        (&e.expired, client_token),
        (&e.released, client_token),
        (&e.revoked, client_token),
        (&e.check_broken, &["check"][..]),
    ];
    for (words, facts) in lines {
        placeholders(words, facts).map_err(|e| format!("event_lines: {e}"))?;
    }
    for words in [
        &e.timer_acquire,
        &e.timer_request_timeout,
        &e.timer_renew,
        &e.timer_safe_deadline,
        &e.timer_work,
        &e.timer_release,
        &e.dropped_lost,
        &e.dropped_link_down,
        &e.dropped_receiver_crashed,
        &e.woke,
        &e.crashed,
    ] {
        placeholders(words, &[]).map_err(|e| format!("event_lines: {e}"))?;
    }
    Ok(())
}

/// Checks that each one-line fault names only the facts its kind of fault carries.
fn check_fault_lines(f: &FaultLineWords) -> Result<(), String> {
    let lines = [
        (&f.line, &["kind", "detail"][..]),
        (&f.pause, &["client", "duration"][..]),
        (&f.partition, &["a", "b", "duration"][..]),
        (&f.delay, &["from", "to", "extra"][..]),
        (&f.step, &["node", "step"][..]),
        (&f.drift, &["node", "ppm"][..]),
        (&f.crash, &["client"][..]),
        (&f.revoke, &[][..]),
        (&f.at, &["fault", "at"][..]),
    ];
    for (words, facts) in lines {
        placeholders(words, facts).map_err(|e| format!("fault_lines: {e}"))?;
    }
    Ok(())
}

/// Every `{name}` in `text` must be one of `facts`, the facts its sentence is filled with.
fn placeholders(text: &str, facts: &[&str]) -> Result<(), String> {
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or("an unclosed {")?;
        let name = &after[..close];
        if !facts.contains(&name) {
            return Err(format!(
                "{{{name}}} is not known here (known: {})",
                facts.join(", ")
            ));
        }
        rest = &after[close + 1..];
    }
    Ok(())
}

/// Checks that each check's sentences name only the facts its violations carry.
fn check_checks(t: &CheckTexts) -> Result<(), String> {
    let stale = &["at", "client", "token", "highest"][..];
    let checks = [
        (
            "single_holder",
            &t.single_holder,
            &[
                "at",
                "previous",
                "previous_token",
                "new",
                "new_token",
                "remaining",
            ][..],
        ),
        ("no_stale_accepted", &t.no_stale_accepted, stale),
        (
            "no_write_after_lost",
            &t.no_write_after_lost,
            &["at", "client", "token", "lost_at"][..],
        ),
        ("ordered_by_token", &t.ordered_by_token, stale),
    ];
    for (id, text, facts) in checks {
        for (field, words) in [
            ("title", &text.title),
            ("explanation", &text.explanation),
            ("prevention", &text.prevention),
            ("not_applicable", &text.not_applicable),
        ] {
            placeholders(words, facts).map_err(|e| format!("{id}.{field}: {e}"))?;
        }
    }
    let p = &t.panel;
    let panel = [
        &p.holding,
        &p.not_applicable,
        &p.broken,
        &p.broken_times,
        &p.prevented_by,
        &p.go_to,
        &p.counts_caption,
        &p.compare_caption,
        &p.measure,
        &p.as_of,
        &p.whole_run,
        &p.this_run,
        &p.no_failover,
    ];
    for words in panel {
        placeholders(words, &["at", "count", "now"]).map_err(|e| format!("panel: {e}"))?;
    }
    for (words, names) in [
        (&p.heading, &[][..]),
        (&p.earlier_losses, &["earlier", "latest"][..]),
        (&p.went_lost, &["client", "at", "reason"][..]),
        (&p.without, &["switch"][..]),
        (&p.with, &["switch"][..]),
        (&p.breaks_here, &["check"][..]),
        (&p.breaks_flipped, &["check"][..]),
        (&p.differs, &["figure", "here", "there", "compared"][..]),
        (&p.agree, &["switch"][..]),
        (&p.difference, &["differences"][..]),
    ] {
        placeholders(words, names).map_err(|e| format!("panel: {e}"))?;
    }
    let c = &t.counts;
    let labels = [
        &c.renews_sent,
        &c.renews_ok,
        &c.renews_not_owner,
        &c.renews_timed_out,
        &c.renews_lost_on_wire,
        &c.losses,
        &c.false_losses,
        &c.writes_accepted,
        &c.writes_rejected,
        &c.stale_accepted,
        &c.max_failover,
    ];
    for label in labels {
        placeholders(label, &[]).map_err(|e| format!("counts: {e}"))?;
    }
    Ok(())
}

/// Checks that each reason names only the facts its typed reason carries.
fn check_reasons(r: &Reasons) -> Result<(), String> {
    let (v, f, s, q) = (&r.value, &r.fault, &r.scenario, &r.search);
    let plain = [
        &v.empty,
        &v.negative,
        &v.not_a_number,
        &v.too_precise,
        &v.too_large,
        &v.not_a_switch,
        &v.not_a_fraction,
        &v.not_text,
        &f.no_time,
        &f.bad_node,
        &s.not_a_renew_fraction,
        &s.renews_too_often,
        &s.faults,
        &s.links,
        &s.other,
        &s.link_nodes,
        &s.round_trip,
        &s.jitter,
        &s.link_loss,
        &q.shape,
        &q.kinds,
        &q.seed,
        &q.fault_count,
        &q.plan_count,
    ];
    for words in plain {
        placeholders(words, &[]).map_err(|e| format!("{words:?}: {e}"))?;
    }
    let filled = [
        (&f.unknown_kind, &["known"][..]),
        (&f.bad_time, &["why"][..]),
        (&f.no_amount, &["fault"][..]),
        (&f.negative_length, &["fault"][..]),
        (&f.bad_amount, &["fault", "why"][..]),
        (&f.unexpected_amount, &["fault"][..]),
        (&s.refused, &["field", "why"][..]),
        (&s.out_of_range, &["value", "min", "max"][..]),
        (&s.margin_not_under_ttl, &["margin", "ttl"][..]),
        (&s.too_many_events, &["estimate", "max"][..]),
        (&s.too_many_faults, &["max"][..]),
        (&s.fault_after_end, &["at"][..]),
        (&s.fault_out_of_range, &["fault", "at"][..]),
        (&s.too_many_links, &["max"][..]),
        (&s.link_too_slow, &["delay", "value", "max"][..]),
        (&q.number, &["part", "why"][..]),
        (&q.range, &["part"][..]),
    ];
    for (words, facts) in filled {
        placeholders(words, facts).map_err(|e| format!("{words:?}: {e}"))?;
    }
    Ok(())
}

/// Checks what the challenges' words need before any Rust reads them: ids are unique slugs,
/// every challenge has a goal and a hint, and sentences name only the facts they are filled
/// with. Whether a goal names known checks and metrics, and whether the start misses it and
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
        for words in [&challenge.title, &challenge.story, &challenge.solved] {
            placeholders(words, &[]).map_err(|e| format!("challenges.{id}: {e}"))?;
        }
    }
    let w = &c.words;
    let filled = [
        (&w.progress, &["solved", "total", "required"][..]),
        (&w.builds_on, &["section"][..]),
        (&w.field_range, &["label", "min", "max"][..]),
        (&w.flips_limit, &["count"][..]),
        (&w.faults_label, &["max"][..]),
        (&w.fault_kinds, &["kinds"][..]),
        (&w.hint_button, &["shown", "total"][..]),
        (&w.over_sweep, &["fault", "starts"][..]),
        (&w.over_any, &["seed", "kinds", "max", "plans"][..]),
        (&w.over_run_with, &["faults"][..]),
        (&w.condition_holds, &["check"][..]),
        (&w.condition_broken, &["check"][..]),
        (&w.condition_at_most, &["metric", "value"][..]),
        (&w.failed, &["condition", "measured", "at"][..]),
        (&w.case_sweep, &["fault", "offset"][..]),
        (&w.case_any, &["index", "plan"][..]),
        (&w.go_to, &["at"][..]),
        (&w.trace, &["hash", "runs"][..]),
        (&w.refused, &["why"][..]),
        (&w.unknown_challenge, &["id"][..]),
        (&w.changed_goal, &["title"][..]),
        (&w.not_allowed, &["what"][..]),
        (&w.out_of_range, &["label", "value", "min", "max"][..]),
        (&w.too_many_flips, &["count"][..]),
        (&w.too_many_faults, &["count", "max"][..]),
        (&w.kind_not_allowed, &["kind"][..]),
        (&w.bad_fault, &["text", "why"][..]),
        (&w.bad_value, &["label", "text", "why"][..]),
        (&w.inconsistent, &["why"][..]),
    ];
    for (words, facts) in filled {
        placeholders(words, facts).map_err(|e| format!("words: {e}"))?;
    }
    Ok(())
}

/// Reads `source` with the shape `T`, checks it and writes it to `$OUT_DIR/out`.
fn compile<T: for<'de> Deserialize<'de> + Lit>(
    source: &str,
    out: &str,
    check: fn(&T) -> Result<(), String>,
) {
    println!("cargo:rerun-if-changed={source}");
    let text = fs::read_to_string(source).unwrap_or_else(|e| panic!("cannot read {source}: {e}"));
    let value: T = toml::from_str(&text).unwrap_or_else(|e| panic!("{source}: {e}"));
    if let Err(problem) = check(&value) {
        panic!("{source}: {problem}");
    }
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(out);
    fs::write(&out, value.lit()).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/lesson/schema.rs");
    compile::<Lesson>(LESSON_SOURCE, "lesson.rs", check);
    compile::<Sandbox>(SANDBOX_SOURCE, "sandbox.rs", check_sandbox);
    compile::<CheckTexts>(CHECKS_SOURCE, "checks.rs", check_checks);
    compile::<Reasons>(REASONS_SOURCE, "reasons.rs", check_reasons);
    compile::<Challenges>(CHALLENGES_SOURCE, "challenges.rs", check_challenges);
    for (source, name) in [
        (SEARCH_WORDS, "search_words.rs"),
        (LIVE_WORDS, "live_words.rs"),
    ] {
        println!("cargo:rerun-if-changed={source}");
        let words =
            fs::read_to_string(source).unwrap_or_else(|e| panic!("cannot read {source}: {e}"));
        let words = word_consts(&words).unwrap_or_else(|e| panic!("{source}: {e}"));
        let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(name);
        fs::write(&out, words).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
    }
}
