//! Share links: the state worth sharing (tab, sandbox scenario and time, comparison,
//! diagram selection, edited snippets) to and from the URL fragment. Pure string handling,
//! tested natively; it never touches the DOM, and it never runs the model.
//!
//! # Format, version 1
//!
//! `#/<tab>?v=1&key=value&…`, for example
//! `#/sandbox?v=1&preset=2&t=17.5s&fencing=off&fault=pause:A@2s+15s`.
//!
//! - `v=1` comes first. A link without `v` is read as version 1; any other version is
//!   refused as a whole (with a message), because its fields may mean something else.
//! - `preset=<id>` names the preset the scenario starts from; without it the scenario
//!   starts from the default one. Scenario fields then list only what differs: `seed`,
//!   `clients`, `dur`, `ttl`, `renew` (`1/3`), `timeout`, `retry`, `acquire`, `rtt`,
//!   `jitter`, `loss` (`0.5%`), `slice`, `margin`, `lockdelay`, `token`, `stagger`,
//!   `release` (a time or `never`), each policy switch by its slug (`fencing=off`,
//!   `wall-timers=on`, …), and faults: each `fault=` is added after the base plan's faults,
//!   and `faults=none` drops the base plan first (syntax in [`crate::model::faults::text`]); likewise `link=`
//!   adds a per-link network override (`A-service/200ms/5ms/0.5%`, see [`links`]) and
//!   `links=none` drops the base's.
//! - `t=17.5s` is the playback time; `compare=<switch slug>` the comparison run.
//! - `sel=<id>` a diagram node or edge; `py=` and `ts=` edited snippet code in base64url,
//!   `pyz=` and `tsz=` longer code deflated first (see [`code`]).
//! - `search=<seed>/<kinds>/<max faults>/<plans>` the counterexample search (see [`search`]).
//! - `live=<base64url>` a recorded live run, compressed and capped (see
//!   [`crate::lab::live::trace`]); the Sandbox opens it in live mode, to scrub.
//! - `challenge=<id>.<goal>` a try at a challenge: the link's scenario is the try, graded
//!   against the challenge's goal only if its fingerprint matches (see
//!   [`crate::lab::challenge::link`]).
//! - Times read `17.5s`, `250ms`, `20us`, or a bare number of seconds.
//! - `embed`, `theme`, `controls` and `diagram` belong to embed mode ([`embed`]).
//!
//! # Untrusted input
//!
//! [`decode`] never panics, reads at most [`MAX_LINK_CHARS`] characters and
//! [`MAX_FIELDS`] fields, checks every value, and runs [`Scenario::validate`]. What it cannot
//! read falls back to its default, and each problem becomes one plain sentence for the page
//! to show as text.

pub mod code;
pub mod embed;
pub mod links;
pub mod search;
/// The value syntaxes, kept in a leaf module that live mode's link codec shares.
pub use crate::values;

use crate::lab::live::trace::{LiveTrace, TraceRefusal};
use crate::lab::{Lab, PolicySwitch};
use crate::lesson::content::{LinkProblems, SANDBOX};
use crate::lesson::diagram::{ArchSelection, LifecycleSelection, SequenceStep};
use crate::lesson::reasons;
use crate::lesson::sentences;
use crate::lesson::LESSON;
use crate::model::faults::text as faults;
use crate::model::fields::SCENARIO_FIELDS;
use crate::model::presets::{self, preset};
use crate::model::search::SearchSpec;
use crate::model::{Scenario, SimTime};
use crate::route::Tab;
use values::{
    escape, parse_duration, parse_switch, print_duration, print_switch, unescape, ValueError,
};

/// The only format version this build writes and reads.
pub const VERSION: &str = "1";
/// Longest fragment decoded, in bytes; anything longer is refused as a whole.
pub const MAX_LINK_CHARS: usize = 32_768;
/// Most `key=value` fields read; the rest are ignored (with a message).
pub const MAX_FIELDS: usize = 400;
/// Longest snippet code carried by a link as plain base64url, in bytes of UTF-8; longer code
/// is deflated ([`code`]).
pub const MAX_SNIPPET_BYTES: usize = 8_192;
/// Longest diagram selection id.
pub const MAX_SELECTION_CHARS: usize = 64;
/// Most link overrides read (the model accepts 16).
const MAX_LINK_OVERRIDES: usize = 16;
/// Longest challenge reference read.
pub const MAX_CHALLENGE_CHARS: usize = 64;
/// At most this many problems are listed; the rest are counted.
pub const MAX_PROBLEMS_SHOWN: usize = 8;

/// Everything a share link carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkState {
    /// The open tab.
    pub tab: Tab,
    /// The sandbox, if the link carries one.
    pub lab: Option<LabLink>,
    /// The selected diagram node or edge, by id (`[A-Za-z0-9._:-]`, at most 64).
    pub selection: Option<String>,
    /// Edited snippet code.
    pub snippets: SnippetCode,
    /// The counterexample search, so that its result reproduces.
    pub search: Option<SearchSpec>,
    /// A recorded live run.
    pub live: Option<LiveTrace>,
    /// The challenge the link's scenario is a try at, as written (`<id>.<goal>`, at most
    /// [`MAX_CHALLENGE_CHARS`]); the laboratory checks it against the challenges.
    pub challenge: Option<String>,
}

impl Default for LinkState {
    fn default() -> Self {
        LinkState {
            tab: Tab::Gist,
            lab: None,
            selection: None,
            snippets: SnippetCode::default(),
            search: None,
            live: None,
            challenge: None,
        }
    }
}

/// The sandbox part of a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabLink {
    /// The preset the scenario is written against (the link lists only differences).
    pub preset: Option<&'static str>,
    /// The full scenario.
    pub scenario: Scenario,
    /// The playback time.
    pub time: SimTime,
    /// The comparison run's flipped switch.
    pub compare: Option<PolicySwitch>,
}

/// Snippet code that differs from the original; `None` keeps the original.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SnippetCode {
    /// Python.
    pub python: Option<String>,
    /// TypeScript.
    pub typescript: Option<String>,
    /// The laboratory shows "Your client" in this language (`client=`).
    pub client: Option<crate::lab::own_client::Language>,
}

impl SnippetCode {
    /// The one language the link carries code for, if it carries code for exactly one: the
    /// language "Your client" opens in when the link does not name one.
    pub fn only_language(&self) -> Option<crate::lab::own_client::Language> {
        use crate::lab::own_client::Language;
        match (&self.python, &self.typescript) {
            (Some(_), None) => Some(Language::Python),
            (None, Some(_)) => Some(Language::TypeScript),
            _ => None,
        }
    }

    /// The code in `language`, if it differs from the original.
    pub fn code(&self, language: crate::lab::own_client::Language) -> Option<&str> {
        use crate::lab::own_client::Language;
        match language {
            Language::Python => self.python.as_deref(),
            Language::TypeScript => self.typescript.as_deref(),
        }
    }

    /// The code in `language`, to change.
    pub fn code_mut(&mut self, language: crate::lab::own_client::Language) -> &mut Option<String> {
        use crate::lab::own_client::Language;
        match language {
            Language::Python => &mut self.python,
            Language::TypeScript => &mut self.typescript,
        }
    }
}

/// What [`decode`] read, and a sentence for each thing it could not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The state, with defaults wherever the link could not be read.
    pub state: LinkState,
    /// Plain sentences, to be shown as text.
    pub problems: Vec<String>,
}

impl LabLink {
    /// Whether a lab at `self` shows what `other` asks for: the same scenario, time and
    /// comparison, whichever preset each is written against.
    pub fn shows_same(&self, other: &LabLink) -> bool {
        (&self.scenario, self.time, self.compare) == (&other.scenario, other.time, other.compare)
    }

    /// The link for a lab. A lab whose scenario was edited away from its preset is written
    /// against whichever preset (or the default scenario) gives the shortest link.
    pub fn of(lab: &Lab) -> LabLink {
        let mut link = match lab.preset() {
            Some(preset) => LabLink {
                preset: Some(preset),
                scenario: lab.scenario().clone(),
                time: lab.now(),
                compare: None,
            },
            None => LabLink::for_scenario(lab.scenario().clone(), lab.now()),
        };
        link.compare = lab.compare().map(|c| c.switch);
        link
    }

    /// The link for `scenario` at `time`, written against whichever preset (or the default
    /// scenario) gives the shortest link.
    pub fn for_scenario(scenario: Scenario, time: SimTime) -> LabLink {
        let mut link = LabLink {
            preset: None,
            scenario,
            time,
            compare: None,
        };
        let base_len = |preset: Option<&'static str>| {
            let mut pairs = Vec::new();
            LabLink {
                preset,
                ..link.clone()
            }
            .write(&mut pairs);
            pairs
                .iter()
                .map(|(k, v)| k.len() + v.len() + 2)
                .sum::<usize>()
        };
        let candidates = presets::presets().iter().map(|p| Some(p.id));
        link.preset = core::iter::once(None)
            .chain(candidates)
            .min_by_key(|&p| base_len(p))
            .flatten();
        link
    }

    /// The preset the link's scenario is exactly, if it names one (a lab shows its label).
    pub fn preset_label(&self) -> Option<&'static str> {
        self.preset
            .filter(|id| preset(id).is_some_and(|p| p.scenario == self.scenario))
    }

    fn base(&self) -> Scenario {
        self.preset
            .and_then(preset)
            .map(|p| p.scenario.clone())
            .unwrap_or_default()
    }

    fn write(&self, out: &mut Vec<(&'static str, String)>) {
        if let Some(preset) = self.preset {
            out.push(("preset", preset.to_owned()));
        }
        out.push(("t", print_duration(self.time.0)));
        if let Some(switch) = self.compare {
            out.push(("compare", switch.slug().to_owned()));
        }
        let base = self.base();
        for field in SCENARIO_FIELDS {
            let value = field.print(&self.scenario);
            if value != field.print(&base) {
                out.push((field.key, value));
            }
        }
        for switch in PolicySwitch::ALL {
            let on = switch.is_on(&self.scenario.policy);
            if on != switch.is_on(&base.policy) {
                out.push((switch.slug(), print_switch(on).to_owned()));
            }
        }
        write_list(
            out,
            ("links", "link"),
            &self.scenario.links,
            &base.links,
            links::print_link,
        );
        write_list(
            out,
            ("faults", "fault"),
            &self.scenario.faults.0,
            &base.faults.0,
            faults::print_fault,
        );
    }
}

/// Writes a repeatable field: the items added after the base's, or `<list>=none` and all
/// of them when the list does not start with the base's.
fn write_list<T: PartialEq>(
    out: &mut Vec<(&'static str, String)>,
    (list_key, item_key): (&'static str, &'static str),
    items: &[T],
    base: &[T],
    print: fn(&T) -> String,
) {
    let added = items.strip_prefix(base).unwrap_or_else(|| {
        out.push((list_key, "none".to_owned()));
        items
    });
    for item in added {
        out.push((item_key, print(item)));
    }
}

/// The fragment (with `#`) for `state`. Snippet code too long for a link even deflated is
/// left out (see [`LinkState::left_out`]).
pub fn encode(state: &LinkState) -> String {
    compose(state.tab, &lab_fields(state), state.selection.as_deref())
}

/// The fields of `state` that the laboratory owns (its scenario and time, the search, the
/// snippets), as they appear in a link, without the version and the shell's selection.
pub fn lab_fields(state: &LinkState) -> String {
    let mut pairs: Vec<(&'static str, String)> = Vec::new();
    if let Some(lab) = &state.lab {
        lab.write(&mut pairs);
    }
    if let Some(spec) = &state.search {
        pairs.push(("search", search::print_search(spec)));
    }
    if let Some(live) = state.live.as_ref().and_then(|t| t.to_link().ok()) {
        pairs.push(("live", live));
    }
    if let Some(challenge) = &state.challenge {
        pairs.push(("challenge", challenge.clone()));
    }
    if let Some(language) = state.snippets.client {
        pairs.push(("client", language.slug().to_owned()));
    }
    for (keys, code) in [
        (("py", "pyz"), &state.snippets.python),
        (("ts", "tsz"), &state.snippets.typescript),
    ] {
        match code.as_deref().and_then(code::to_field) {
            Some(code::CodeField::Plain(text)) => pairs.push((keys.0, text)),
            Some(code::CodeField::Packed(text)) => pairs.push((keys.1, text)),
            None => {}
        }
    }
    let mut out = String::new();
    for (key, value) in &pairs {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(key);
        out.push('=');
        out.push_str(&escape(value));
    }
    out
}

/// A fragment from its owners' parts: the page shell's tab and diagram selection, and the
/// laboratory's fields as [`lab_fields`] wrote them (the two live in separate wasm modules).
pub fn compose(tab: Tab, lab_fields: &str, selection: Option<&str>) -> String {
    let mut out = format!("#/{}?v={VERSION}", tab.slug());
    if !lab_fields.is_empty() {
        out.push('&');
        out.push_str(lab_fields);
    }
    if let Some(selection) = selection {
        out.push_str("&sel=");
        out.push_str(&escape(selection));
    }
    out
}

/// The laboratory's fields of a fragment's query, as written: every field but the version,
/// the selection and embed mode's. The page shell keeps them unread until the lab reads them.
pub fn lab_fields_of(query: &str) -> String {
    query
        .split('&')
        .filter(|pair| {
            let key = pair.split_once('=').map_or(*pair, |(key, _)| key);
            !pair.is_empty() && key != "v" && key != "sel" && !embed::KEYS.contains(&key)
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The diagram part a fragment's query selects, if it names one, and the sentences about a
/// selection it cannot show. The shell owns the selection, so it reports them: an embedded
/// diagram, which never loads the laboratory, says so too.
pub fn selection_of(query: &str) -> (Option<String>, Vec<String>) {
    let mut problems = Problems::default();
    let selection = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "sel")
        .and_then(|(_, raw)| match unescape(raw) {
            Ok(text) => read_selection(&text, &mut problems),
            Err(_) => {
                problems.push(
                    sentences::lesson::link_problems::BadSelection { part: quote(raw) }.to_string(),
                );
                None
            }
        });
    (selection, problems.finish())
}

/// The sentence about a fragment's tab when it names none that exists (the page then shows
/// the Gist), for the shell, which owns the tab; nothing for a known tab or none.
pub fn tab_problems(fragment: &str) -> Vec<String> {
    let mut problems = Problems::default();
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let path = fragment.split_once('?').map_or(fragment, |(path, _)| path);
    read_tab(path, &mut problems);
    problems.finish()
}

impl LinkState {
    /// What [`encode`] has to leave out of this state, as sentences for the page.
    pub fn left_out(&self) -> Vec<String> {
        [
            ("Python", &self.snippets.python),
            ("TypeScript", &self.snippets.typescript),
        ]
        .into_iter()
        .filter(|(_, code)| code.as_deref().is_some_and(|c| code::to_field(c).is_none()))
        .map(|(language, _)| sentences::lesson::link_problems::LeftOut { language }.to_string())
        .collect()
    }
}

/// Sentences about a link, capped at [`MAX_PROBLEMS_SHOWN`] plus a count of the rest.
#[derive(Default)]
struct Problems {
    shown: Vec<String>,
    more: usize,
}

impl Problems {
    fn push(&mut self, sentence: String) {
        if self.shown.len() < MAX_PROBLEMS_SHOWN {
            self.shown.push(sentence);
        } else {
            self.more += 1;
        }
    }

    fn finish(mut self) -> Vec<String> {
        match self.more {
            0 => {}
            1 => self.shown.push(words().one_more.to_owned()),
            more => self
                .shown
                .push(sentences::lesson::link_problems::More { count: more }.to_string()),
        }
        self.shown
    }
}

/// Link text quoted for a sentence: at most 40 characters, control characters replaced.
fn quote(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(40)
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    if text.chars().count() > 40 {
        shown.push('…');
    }
    format!("\u{201c}{shown}\u{201d}")
}

/// The sentences about links, from `content/lesson.toml`.
fn words() -> &'static LinkProblems {
    &LESSON.link_problems
}

fn base_name(preset: Option<&str>) -> String {
    match preset {
        Some(id) => sentences::lesson::link_problems::PresetBase { id }.to_string(),
        None => words().default_base.to_owned(),
    }
}

/// Keys this version knows besides the scenario fields and switch slugs.
const LINK_KEYS: [&str; 17] = [
    "v",
    "client",
    "preset",
    "t",
    "compare",
    "sel",
    "py",
    "ts",
    "pyz",
    "tsz",
    "faults",
    "fault",
    "links",
    "link",
    "search",
    "live",
    "challenge",
];

fn is_known_key(key: &str) -> bool {
    LINK_KEYS.contains(&key)
        || embed::KEYS.contains(&key)
        || SCENARIO_FIELDS.iter().any(|f| f.key == key)
        || PolicySwitch::from_slug(key).is_some()
}

/// Reads a fragment such as `#/sandbox?v=1&preset=2&t=17.5s`. Never fails and never panics:
/// what cannot be read is replaced by its default and explained in `problems`.
pub fn decode(fragment: &str) -> Decoded {
    let mut problems = Problems::default();
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let (path, query) = fragment.split_once('?').unwrap_or((fragment, ""));
    let mut state = LinkState {
        tab: read_tab(path, &mut problems),
        ..LinkState::default()
    };
    if fragment.len() > MAX_LINK_CHARS {
        problems.push(
            sentences::lesson::link_problems::TooLong {
                length: fragment.len(),
                max: MAX_LINK_CHARS,
            }
            .to_string(),
        );
        return Decoded {
            state,
            problems: problems.finish(),
        };
    }
    let fields = Fields::collect(query, &mut problems);
    if let Some(version) = fields.single("v").filter(|v| *v != VERSION) {
        problems.push(
            sentences::lesson::link_problems::Version {
                version: quote(version),
                known: VERSION,
            }
            .to_string(),
        );
        return Decoded {
            state,
            problems: problems.finish(),
        };
    }
    if fields.has_lab() {
        state.lab = read_lab(&fields, &mut problems);
    }
    // The shell reports what is wrong with the selection ([`selection_of`]), not the lab.
    state.selection = fields
        .single("sel")
        .and_then(|selection| read_selection(selection, &mut Problems::default()));
    read_snippets(&fields, &mut state.snippets, &mut problems);
    state.search = fields
        .single("search")
        .and_then(|text| read_search(text, &mut problems));
    state.live = fields
        .single("live")
        .and_then(|text| read_live(text, &mut problems));
    state.challenge = fields.single("challenge").and_then(|text| {
        let fits = text.len() <= MAX_CHALLENGE_CHARS;
        if !fits {
            problems.push(
                sentences::lesson::link_problems::UnreadableField {
                    key: quote("challenge"),
                }
                .to_string(),
            );
        }
        fits.then(|| text.to_owned())
    });
    Decoded {
        state,
        problems: problems.finish(),
    }
}

/// The tab a link's path names, or the Gist with a sentence.
fn read_tab(path: &str, problems: &mut Problems) -> Tab {
    let path = path.trim_matches('/');
    Tab::from_slug(path).unwrap_or_else(|| {
        if !path.is_empty() {
            let tab = quote(&unescape(path).unwrap_or_else(|_| path.to_owned()));
            problems.push(sentences::lesson::link_problems::NoTab { tab }.to_string());
        }
        Tab::Gist
    })
}

/// A link's fields, sorted: keys given once, and the repeatable faults and link overrides
/// with their `=none`.
#[derive(Default)]
struct Fields {
    singles: Vec<(String, String)>,
    faults: Vec<String>,
    links: Vec<String>,
    clear_faults: bool,
    clear_links: bool,
}

impl Fields {
    /// Reads at most [`MAX_FIELDS`] `key=value` pairs, explaining unknown keys, unreadable
    /// values, repeats and the rest.
    fn collect(query: &str, problems: &mut Problems) -> Fields {
        let mut fields = Fields::default();
        let mut pairs = query.split('&').filter(|p| !p.is_empty());
        for pair in pairs.by_ref().take(MAX_FIELDS) {
            let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = unescape(raw_key).unwrap_or_default();
            if !is_known_key(&key) {
                let key = quote(&unescape(raw_key).unwrap_or_else(|_| raw_key.to_owned()));
                problems.push(sentences::lesson::link_problems::UnknownField { key }.to_string());
                continue;
            }
            match unescape(raw_value) {
                Ok(value) => fields.add(key, value, problems),
                Err(_) => problems.push(
                    sentences::lesson::link_problems::UnreadableField { key: quote(&key) }
                        .to_string(),
                ),
            }
        }
        if pairs.next().is_some() {
            problems.push(
                sentences::lesson::link_problems::TooManyFields { max: MAX_FIELDS }.to_string(),
            );
        }
        fields
    }

    fn add(&mut self, key: String, value: String, problems: &mut Problems) {
        match key.as_str() {
            "fault" => self.faults.push(value),
            "link" => self.links.push(value),
            "links" if value == "none" => self.clear_links = true,
            "faults" if value == "none" => self.clear_faults = true,
            "faults" | "links" => problems.push(
                sentences::lesson::link_problems::NotNone {
                    pair: quote(&format!("{key}={value}")),
                    key,
                }
                .to_string(),
            ),
            _ if embed::KEYS.contains(&key.as_str()) => {}
            _ if self.single(&key).is_some() => problems
                .push(sentences::lesson::link_problems::Repeated { key: quote(&key) }.to_string()),
            _ => self.singles.push((key, value)),
        }
    }

    /// The value of a key given once.
    fn single(&self, key: &str) -> Option<&str> {
        self.singles
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// True if the link says anything about the sandbox.
    fn has_lab(&self) -> bool {
        self.singles.iter().any(|(k, _)| {
            !matches!(
                k.as_str(),
                "v" | "sel"
                    | "py"
                    | "ts"
                    | "pyz"
                    | "tsz"
                    | "search"
                    | "live"
                    | "challenge"
                    | "client"
            )
        }) || self.clear_faults
            || self.clear_links
            || !self.faults.is_empty()
            || !self.links.is_empty()
    }
}

/// A recorded live run, or a sentence saying why the link's one cannot be shown.
fn read_live(text: &str, problems: &mut Problems) -> Option<LiveTrace> {
    let why = match LiveTrace::from_link(text) {
        Ok(trace) => return Some(trace),
        Err(TraceRefusal::TooLong) => words().live_too_long,
        Err(TraceRefusal::Unreadable) => words().live_unreadable,
        Err(TraceRefusal::Inconsistent) => words().live_inconsistent,
    };
    problems.push(sentences::lesson::link_problems::Live { why }.to_string());
    None
}

/// A diagram selection: safe characters only, naming a part of a diagram this page draws.
fn read_selection(selection: &str, problems: &mut Problems) -> Option<String> {
    let safe = !selection.is_empty()
        && selection.len() <= MAX_SELECTION_CHARS
        && selection
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'));
    if !safe {
        problems.push(
            sentences::lesson::link_problems::BadSelection {
                part: quote(selection),
            }
            .to_string(),
        );
        return None;
    }
    let found = LifecycleSelection::from_id(selection).is_some()
        || ArchSelection::from_id(selection).is_some()
        || SequenceStep::from_id(selection).is_some();
    if !found {
        problems.push(
            sentences::lesson::link_problems::MissingSelection {
                part: quote(selection),
            }
            .to_string(),
        );
        return None;
    }
    Some(selection.to_owned())
}

/// The counterexample search's settings; a bad one is named and the search starts from
/// its usual settings.
fn read_search(text: &str, problems: &mut Problems) -> Option<SearchSpec> {
    search::parse_search(text)
        .map_err(|e| {
            problems.push(
                sentences::lesson::link_problems::Search {
                    search: quote(text),
                    why: e.describe(),
                }
                .to_string(),
            )
        })
        .ok()
}

/// Edited snippet code, plain or deflated (see [`code`]).
fn read_snippets(fields: &Fields, snippets: &mut SnippetCode, problems: &mut Problems) {
    if let Some(slug) = fields.single("client") {
        snippets.client = crate::lab::own_client::Language::from_slug(slug);
        if snippets.client.is_none() {
            problems.push(
                sentences::lesson::link_problems::ClientUnknown {
                    language: quote(slug),
                }
                .to_string(),
            );
        }
    }
    for ((plain, packed), language, slot) in [
        (("py", "pyz"), "Python", &mut snippets.python),
        (("ts", "tsz"), "TypeScript", &mut snippets.typescript),
    ] {
        let read = match (fields.single(plain), fields.single(packed)) {
            (Some(text), _) => code::from_plain(text),
            (None, Some(text)) => code::from_packed(text),
            (None, None) => continue,
        };
        match read {
            Ok(code) => *slot = Some(code),
            Err(ValueError::TooLarge) => problems
                .push(sentences::lesson::link_problems::CodeTooLong { language }.to_string()),
            Err(_) => problems
                .push(sentences::lesson::link_problems::CodeUnreadable { language }.to_string()),
        }
    }
}

/// `base` with a link's scenario fields applied (`ttl=1s&fencing=on&fault=crash:A@2s`, the
/// keys of a sandbox link's scenario: fields, switches, faults and links), or the sentences
/// saying what could not be read. Challenges write their starts and answers this way.
pub fn scenario_with(base: &Scenario, fields_text: &str) -> Result<Scenario, Vec<String>> {
    let mut problems = Problems::default();
    let fields = Fields::collect(fields_text, &mut problems);
    let mut reader = ScenarioReader {
        scenario: base.clone(),
        fallback: words().default_base.to_owned(),
        readable: true,
        problems: &mut problems,
    };
    reader.fields(&fields);
    reader.switches(&fields);
    reader.links(&fields);
    reader.faults(&fields);
    reader.validate();
    let (scenario, readable) = (reader.scenario, reader.readable);
    let others = fields.singles.iter().any(|(key, _)| !is_scenario_key(key));
    match problems.finish() {
        found if found.is_empty() && readable && !others => Ok(scenario),
        found => Err(found),
    }
}

/// A key of a link's scenario: a field, a switch, or the fault and link lists.
fn is_scenario_key(key: &str) -> bool {
    SCENARIO_FIELDS.iter().any(|f| f.key == key) || PolicySwitch::from_slug(key).is_some()
}

/// The scenario a link's fields describe on its `preset=` (or the default scenario), as
/// [`decode`] reads a sandbox link, or the sentences saying what could not be read.
pub fn scenario_of(fields_text: &str) -> Result<Scenario, Vec<String>> {
    let decoded = decode(&format!("#/sandbox?v={VERSION}&{fields_text}"));
    match (decoded.state.lab, decoded.problems.is_empty()) {
        (Some(lab), true) => Ok(lab.scenario),
        (_, _) => Err(decoded.problems),
    }
}

/// The sandbox part of a link: the scenario (or, if any of it cannot be read, its base),
/// the time and the comparison.
fn read_lab(fields: &Fields, problems: &mut Problems) -> Option<LabLink> {
    let preset = match fields.single("preset") {
        None => None,
        Some(id) => match preset(id) {
            Some(p) => Some(p.id),
            None => {
                problems.push(
                    sentences::lesson::link_problems::NoPreset { preset: quote(id) }.to_string(),
                );
                return None;
            }
        },
    };
    let mut link = LabLink {
        preset,
        scenario: Scenario::default(),
        time: SimTime::ZERO,
        compare: None,
    };
    let base = link.base();
    let mut reader = ScenarioReader {
        scenario: base.clone(),
        fallback: base_name(preset),
        readable: true,
        problems,
    };
    reader.fields(fields);
    reader.switches(fields);
    reader.links(fields);
    reader.faults(fields);
    reader.validate();
    link.scenario = if reader.readable {
        reader.scenario
    } else {
        base
    };
    read_time(fields, &mut link, problems);
    read_compare(fields, &mut link, problems);
    Some(link)
}

/// Reads a link's scenario onto its base, noting whether every part could be read.
struct ScenarioReader<'p> {
    scenario: Scenario,
    fallback: String,
    readable: bool,
    problems: &'p mut Problems,
}

impl ScenarioReader<'_> {
    fn refuse(&mut self, what: String) {
        self.readable = false;
        self.problems.push(
            sentences::lesson::link_problems::Refused {
                what: what.as_str(),
                fallback: &self.fallback,
            }
            .to_string(),
        );
    }

    fn fields(&mut self, fields: &Fields) {
        for field in &SCENARIO_FIELDS {
            let Some(text) = fields.single(field.key) else {
                continue;
            };
            if let Err(e) = field.read(&mut self.scenario, text) {
                let name = SANDBOX.field(field.key).name;
                self.refuse(
                    sentences::lesson::link_problems::Field {
                        name,
                        text: quote(text),
                        why: reasons::value(e),
                    }
                    .to_string(),
                );
            }
        }
    }

    fn switches(&mut self, fields: &Fields) {
        for switch in PolicySwitch::ALL {
            let Some(text) = fields.single(switch.slug()) else {
                continue;
            };
            match parse_switch(text) {
                Ok(on) if on != switch.is_on(&self.scenario.policy) => {
                    switch.flip(&mut self.scenario.policy)
                }
                Ok(_) => {}
                Err(e) => self.refuse(
                    sentences::lesson::link_problems::Switch {
                        switch: quote(switch.slug()),
                        text: quote(text),
                        why: reasons::value(e),
                    }
                    .to_string(),
                ),
            }
        }
    }

    fn links(&mut self, fields: &Fields) {
        if fields.clear_links {
            self.scenario.links.clear();
        }
        if self.scenario.links.len() + fields.links.len() > MAX_LINK_OVERRIDES {
            return self.refuse(
                sentences::lesson::link_problems::TooManyLinks {
                    max: MAX_LINK_OVERRIDES,
                }
                .to_string(),
            );
        }
        for text in &fields.links {
            match links::parse_link(text) {
                Ok(link) => self.scenario.links.push(link),
                Err(e) => self.refuse(
                    sentences::lesson::link_problems::BadLink {
                        why: e.describe(),
                        text: quote(text),
                    }
                    .to_string(),
                ),
            }
        }
    }

    fn faults(&mut self, fields: &Fields) {
        if fields.clear_faults {
            self.scenario.faults.0.clear();
        }
        let max_faults = crate::model::scenario::limits::MAX_FAULTS;
        if self.scenario.faults.0.len() + fields.faults.len() > max_faults {
            return self.refuse(
                sentences::lesson::link_problems::TooManyFaults { max: max_faults }.to_string(),
            );
        }
        for text in &fields.faults {
            match faults::parse_fault(text) {
                Ok(fault) => self.scenario.faults.0.push(fault),
                Err(e) => self.refuse(
                    sentences::lesson::link_problems::BadFault {
                        why: reasons::fault(&e),
                        text: quote(text),
                    }
                    .to_string(),
                ),
            }
        }
    }

    fn validate(&mut self) {
        if !self.readable {
            return;
        }
        for e in self.scenario.problems() {
            self.refuse(
                sentences::lesson::link_problems::Inconsistent {
                    why: reasons::scenario(&e),
                }
                .to_string(),
            );
        }
    }
}

/// The playback time, within the run.
fn read_time(fields: &Fields, link: &mut LabLink, problems: &mut Problems) {
    let Some(text) = fields.single("t") else {
        return;
    };
    match parse_duration(text) {
        Ok(t) if t <= link.scenario.duration.0 => link.time = SimTime(t),
        Ok(_) => problems.push(
            sentences::lesson::link_problems::LateTime {
                text: quote(text),
                end: link.scenario.duration,
            }
            .to_string(),
        ),
        Err(e) => problems.push(
            sentences::lesson::link_problems::BadTime {
                text: quote(text),
                why: reasons::value(e),
            }
            .to_string(),
        ),
    }
}

/// The switch the comparison run flips.
fn read_compare(fields: &Fields, link: &mut LabLink, problems: &mut Problems) {
    let Some(text) = fields.single("compare") else {
        return;
    };
    match PolicySwitch::from_slug(text) {
        Some(switch) => link.compare = Some(switch),
        None => problems.push(
            sentences::lesson::link_problems::NoSwitch {
                switch: quote(text),
            }
            .to_string(),
        ),
    }
}

#[cfg(test)]
mod tests;
