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
//!   and `faults=none` drops the base plan first (syntax in [`faults`]); likewise `link=`
//!   adds a per-link network override (`A-service/200ms/5ms/0.5%`, see [`links`]) and
//!   `links=none` drops the base's.
//! - `t=17.5s` is the playback time; `compare=<switch slug>` the comparison run.
//! - `sel=<id>` a diagram node or edge; `py=` and `ts=` edited snippet code in base64url.
//! - `search=<seed>/<kinds>/<max faults>/<plans>` the counterexample search (see [`search`]).
//! - Times read `17.5s`, `250ms`, `20us`, or a bare number of seconds.
//! - `embed`, `theme`, `controls` and `diagram` belong to embed mode ([`embed`]).
//!
//! # Untrusted input
//!
//! [`decode`] never panics, reads at most [`MAX_LINK_CHARS`] characters and
//! [`MAX_FIELDS`] fields, checks every value, and runs [`Scenario::validate`]. What it cannot
//! read falls back to its default, and each problem becomes one plain sentence for the page
//! to show as text.

pub mod embed;
pub mod faults;
pub mod links;
pub mod search;
pub mod values;

use crate::lab::{Lab, LabAction, PolicySwitch};
use crate::model::search::SearchSpec;
use crate::model::{presets, Preset, Scenario, SimDuration, SimTime};
use crate::route::Tab;
use std::sync::OnceLock;
use values::{
    base64url, escape, parse_duration, parse_fraction, parse_percent_ppm, parse_switch,
    parse_whole, print_duration, print_percent_ppm, print_switch, unbase64url, unescape,
    ValueError,
};

/// The only format version this build writes and reads.
pub const VERSION: &str = "1";
/// Longest fragment decoded, in bytes; anything longer is refused as a whole.
pub const MAX_LINK_CHARS: usize = 32_768;
/// Most `key=value` fields read; the rest are ignored (with a message).
pub const MAX_FIELDS: usize = 400;
/// Longest snippet code carried by a link, in bytes of UTF-8.
pub const MAX_SNIPPET_BYTES: usize = 8_192;
/// Longest diagram selection id.
pub const MAX_SELECTION_CHARS: usize = 64;
/// Most link overrides read (the model accepts 16).
const MAX_LINK_OVERRIDES: usize = 16;
/// At most this many problems are listed; the rest are counted.
pub const MAX_PROBLEMS_SHOWN: usize = 8;

/// The presets, built once: decoding looks them up for every link.
fn all_presets() -> &'static [Preset] {
    static PRESETS: OnceLock<Vec<Preset>> = OnceLock::new();
    PRESETS.get_or_init(presets::presets)
}

fn preset(id: &str) -> Option<&'static Preset> {
    all_presets().iter().find(|p| p.id == id)
}

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
}

impl Default for LinkState {
    fn default() -> Self {
        LinkState {
            tab: Tab::Gist,
            lab: None,
            selection: None,
            snippets: SnippetCode::default(),
            search: None,
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
    /// The link for a lab. A lab whose scenario was edited away from its preset is written
    /// against whichever preset (or the default scenario) gives the shortest link.
    pub fn of(lab: &Lab) -> LabLink {
        let mut link = LabLink {
            preset: lab.preset(),
            scenario: lab.scenario().clone(),
            time: lab.now(),
            compare: lab.compare().map(|c| c.switch),
        };
        if link.preset.is_none() {
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
            let candidates = all_presets().iter().map(|p| Some(p.id));
            link.preset = core::iter::once(None)
                .chain(candidates)
                .min_by_key(|&p| base_len(p))
                .flatten();
        }
        link
    }

    /// The lab this link describes: its scenario at its time, comparing if asked. A
    /// scenario that does not validate (never the case after [`decode`]) gives the default lab.
    pub fn to_lab(&self) -> Lab {
        if self.scenario.validate().is_err() {
            return Lab::default();
        }
        let label = self
            .preset
            .filter(|id| preset(id).is_some_and(|p| p.scenario == self.scenario));
        let mut lab = Lab::with_scenario(self.scenario.clone(), label);
        for action in [
            LabAction::SetCompare(self.compare),
            LabAction::Seek(self.time),
        ] {
            if let Some(next) = lab.apply(action) {
                lab = next;
            }
        }
        lab
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
            let value = (field.print)(&self.scenario);
            if value != (field.print)(&base) {
                out.push((field.key, value));
            }
        }
        for switch in PolicySwitch::ALL {
            let on = switch.is_on(&self.scenario.policy);
            if on != switch.is_on(&base.policy) {
                out.push((switch.slug(), print_switch(on).to_owned()));
            }
        }
        let links = &self.scenario.links;
        let added = match links.strip_prefix(base.links.as_slice()) {
            Some(added) => added,
            None => {
                out.push(("links", "none".to_owned()));
                links.as_slice()
            }
        };
        for link in added {
            out.push(("link", links::print_link(link)));
        }
        let plan = &self.scenario.faults.0;
        let added = match plan.strip_prefix(base.faults.0.as_slice()) {
            Some(added) => added,
            None => {
                out.push(("faults", "none".to_owned()));
                plan.as_slice()
            }
        };
        for fault in added {
            out.push(("fault", faults::print_fault(fault)));
        }
    }
}

/// One scenario field: its key, its name in sentences, and how to print and read it.
struct ScenarioField {
    key: &'static str,
    name: &'static str,
    print: fn(&Scenario) -> String,
    read: fn(&mut Scenario, &str) -> Result<(), ValueError>,
}

fn read_time(text: &str) -> Result<SimDuration, ValueError> {
    parse_duration(text).map(SimDuration)
}

macro_rules! time_field {
    ($key:literal, $name:literal, $field:ident) => {
        ScenarioField {
            key: $key,
            name: $name,
            print: |s| print_duration(s.$field.0),
            read: |s, v| {
                s.$field = read_time(v)?;
                Ok(())
            },
        }
    };
}

const SCENARIO_FIELDS: [ScenarioField; 17] = [
    ScenarioField {
        key: "seed",
        name: "seed",
        print: |s| s.seed.to_string(),
        read: |s, v| {
            s.seed = parse_whole(v)?;
            Ok(())
        },
    },
    ScenarioField {
        key: "clients",
        name: "number of clients",
        print: |s| s.clients.to_string(),
        read: |s, v| {
            s.clients = u8::try_from(parse_whole(v)?).map_err(|_| ValueError::TooLarge)?;
            Ok(())
        },
    },
    time_field!("dur", "run length", duration),
    time_field!("ttl", "TTL", ttl),
    ScenarioField {
        key: "renew",
        name: "renewal fraction",
        print: |s| format!("{}/{}", s.renew_every.num, s.renew_every.den),
        read: |s, v| {
            let (num, den) = parse_fraction(v)?;
            s.renew_every = crate::model::Fraction { num, den };
            Ok(())
        },
    },
    time_field!("timeout", "request timeout", request_timeout),
    time_field!("retry", "renew retry interval", retry_interval),
    time_field!("acquire", "acquire retry interval", acquire_retry),
    time_field!("rtt", "round-trip time", rtt),
    time_field!("jitter", "jitter", jitter),
    ScenarioField {
        key: "loss",
        name: "packet loss",
        print: |s| print_percent_ppm(u64::from(s.loss_ppm)),
        read: |s, v| {
            s.loss_ppm = u32::try_from(parse_percent_ppm(v)?).map_err(|_| ValueError::TooLarge)?;
            Ok(())
        },
    },
    time_field!("slice", "work slice", work_slice),
    time_field!("margin", "drift margin", drift_margin),
    time_field!("lockdelay", "lock-delay", lock_delay),
    ScenarioField {
        key: "token",
        name: "first fencing token",
        print: |s| s.token_start.to_string(),
        read: |s, v| {
            s.token_start = parse_whole(v)?;
            Ok(())
        },
    },
    time_field!("stagger", "client stagger", client_stagger),
    ScenarioField {
        key: "release",
        name: "release time",
        print: |s| match s.release_after {
            Some(d) => print_duration(d.0),
            None => "never".to_owned(),
        },
        read: |s, v| {
            s.release_after = match v {
                "never" => None,
                _ => Some(read_time(v)?),
            };
            Ok(())
        },
    },
];

/// The fragment (with `#`) for `state`. Snippet code longer than [`MAX_SNIPPET_BYTES`] is
/// left out (see [`LinkState::left_out`]).
pub fn encode(state: &LinkState) -> String {
    let mut pairs: Vec<(&'static str, String)> = vec![("v", VERSION.to_owned())];
    if let Some(lab) = &state.lab {
        lab.write(&mut pairs);
    }
    if let Some(selection) = &state.selection {
        pairs.push(("sel", selection.clone()));
    }
    if let Some(spec) = &state.search {
        pairs.push(("search", search::print_search(spec)));
    }
    for (key, code) in [
        ("py", &state.snippets.python),
        ("ts", &state.snippets.typescript),
    ] {
        if let Some(code) = code.as_ref().filter(|c| c.len() <= MAX_SNIPPET_BYTES) {
            pairs.push((key, base64url(code.as_bytes())));
        }
    }
    let mut out = format!("#/{}?", state.tab.slug());
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(key);
        out.push('=');
        if *key == "loss" {
            out.push_str(value);
        } else {
            out.push_str(&escape(value));
        }
    }
    out
}

impl LinkState {
    /// What [`encode`] has to leave out of this state, as sentences for the page.
    pub fn left_out(&self) -> Vec<String> {
        [
            ("Python", &self.snippets.python),
            ("TypeScript", &self.snippets.typescript),
        ]
        .into_iter()
        .filter(|(_, code)| code.as_ref().is_some_and(|c| c.len() > MAX_SNIPPET_BYTES))
        .map(|(language, _)| {
            format!(
                "Your {language} code is longer than {MAX_SNIPPET_BYTES} bytes, so the link \
                 does not carry it."
            )
        })
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
        if self.more > 0 {
            let s = if self.more == 1 { "" } else { "s" };
            self.shown.push(format!(
                "…and {} more problem{s} with this link.",
                self.more
            ));
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

fn base_name(preset: Option<&str>) -> String {
    match preset {
        Some(id) => format!("the scenario of preset {id}"),
        None => "the default scenario".to_owned(),
    }
}

/// Keys this version knows besides the scenario fields and switch slugs.
const LINK_KEYS: [&str; 12] = [
    "v", "preset", "t", "compare", "sel", "py", "ts", "faults", "fault", "links", "link", "search",
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
    let path = path.trim_matches('/');
    let tab = match Tab::from_slug(path) {
        Some(tab) => tab,
        None => {
            if !path.is_empty() {
                problems.push(format!(
                    "This link asks for a tab {} that does not exist; showing the Gist instead.",
                    quote(&unescape(path).unwrap_or_else(|_| path.to_owned()))
                ));
            }
            Tab::Gist
        }
    };
    let mut state = LinkState {
        tab,
        ..LinkState::default()
    };
    if fragment.len() > MAX_LINK_CHARS {
        problems.push(format!(
            "This link is {} characters long, more than the {MAX_LINK_CHARS} Lease Lab reads; \
             showing the defaults instead.",
            fragment.len()
        ));
        return Decoded {
            state,
            problems: problems.finish(),
        };
    }

    let mut singles: Vec<(String, String)> = Vec::new();
    let mut fault_texts: Vec<String> = Vec::new();
    let mut link_texts: Vec<String> = Vec::new();
    let mut clear_faults = false;
    let mut clear_links = false;
    let mut fields = query.split('&').filter(|p| !p.is_empty());
    for pair in fields.by_ref().take(MAX_FIELDS) {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = unescape(raw_key).unwrap_or_default();
        if !is_known_key(&key) {
            problems.push(format!(
                "This link has a field {} that Lease Lab does not know; it was ignored.",
                quote(&unescape(raw_key).unwrap_or_else(|_| raw_key.to_owned()))
            ));
            continue;
        }
        let Ok(value) = unescape(raw_value) else {
            problems.push(format!(
                "This link's field {} is not readable text; it was ignored.",
                quote(&key)
            ));
            continue;
        };
        match key.as_str() {
            "fault" => fault_texts.push(value),
            "link" => link_texts.push(value),
            "links" if value == "none" => clear_links = true,
            "faults" if value == "none" => clear_faults = true,
            "faults" | "links" => problems.push(format!(
                "This link's {} should say {key}=none; it was ignored.",
                quote(&format!("{key}={value}"))
            )),
            _ if embed::KEYS.contains(&key.as_str()) => {}
            _ if singles.iter().any(|(k, _)| *k == key) => problems.push(format!(
                "This link gives {} more than once; the first one was used.",
                quote(&key)
            )),
            _ => singles.push((key, value)),
        }
    }
    if fields.next().is_some() {
        problems.push(format!(
            "This link has more than {MAX_FIELDS} fields; the rest were ignored."
        ));
    }
    let single = |key: &str| {
        singles
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };

    if let Some(version) = single("v").filter(|v| *v != VERSION) {
        problems.push(format!(
            "This link uses format version {}, which this Lease Lab cannot read (it reads \
             version {VERSION}); showing the defaults instead.",
            quote(version)
        ));
        return Decoded {
            state,
            problems: problems.finish(),
        };
    }

    let has_lab = singles
        .iter()
        .any(|(k, _)| !matches!(k.as_str(), "v" | "sel" | "py" | "ts" | "search"))
        || clear_faults
        || clear_links
        || !fault_texts.is_empty()
        || !link_texts.is_empty();
    if has_lab {
        let lists = Lists {
            clear_faults,
            faults: &fault_texts,
            clear_links,
            links: &link_texts,
        };
        state.lab = read_lab(&single, &lists, &mut problems);
    }

    if let Some(selection) = single("sel") {
        let ok = !selection.is_empty()
            && selection.len() <= MAX_SELECTION_CHARS
            && selection
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'));
        if ok {
            state.selection = Some(selection.to_owned());
        } else {
            problems.push(format!(
                "This link selects a diagram part {} that is not a valid name; nothing is \
                 selected instead.",
                quote(selection)
            ));
        }
    }
    if let Some(text) = single("search") {
        match search::parse_search(text) {
            Ok(spec) => state.search = Some(spec),
            Err(e) => problems.push(format!(
                "This link's search ({}) {}; the search starts from its usual settings instead.",
                quote(text),
                e.describe()
            )),
        }
    }
    for (key, language, slot) in [
        ("py", "Python", &mut state.snippets.python),
        ("ts", "TypeScript", &mut state.snippets.typescript),
    ] {
        if let Some(text) = single(key) {
            match unbase64url(text, MAX_SNIPPET_BYTES) {
                Ok(code) => *slot = Some(code),
                Err(ValueError::TooLarge) => problems.push(format!(
                    "This link's {language} code is longer than {MAX_SNIPPET_BYTES} bytes; \
                     showing the original snippet instead."
                )),
                Err(_) => problems.push(format!(
                    "This link's {language} code could not be decoded; showing the original \
                     snippet instead."
                )),
            }
        }
    }
    Decoded {
        state,
        problems: problems.finish(),
    }
}

/// The repeatable fields of a link: faults and link overrides, each with its `=none`.
struct Lists<'a> {
    clear_faults: bool,
    faults: &'a [String],
    clear_links: bool,
    links: &'a [String],
}

fn read_lab<'a>(
    single: &impl Fn(&str) -> Option<&'a str>,
    lists: &Lists<'_>,
    problems: &mut Problems,
) -> Option<LabLink> {
    let preset = match single("preset") {
        None => None,
        Some(id) => match preset(id) {
            Some(p) => Some(p.id),
            None => {
                problems.push(format!(
                    "This link names a preset {} that does not exist; showing the sandbox's \
                     usual scenario instead.",
                    quote(id)
                ));
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
    let fallback = base_name(preset);
    let mut scenario = base.clone();
    let mut readable = true;
    for field in &SCENARIO_FIELDS {
        if let Some(text) = single(field.key) {
            if let Err(e) = (field.read)(&mut scenario, text) {
                readable = false;
                problems.push(format!(
                    "This link's {} ({}) {e}; showing {fallback} instead.",
                    field.name,
                    quote(text)
                ));
            }
        }
    }
    for switch in PolicySwitch::ALL {
        if let Some(text) = single(switch.slug()) {
            match parse_switch(text) {
                Ok(on) if on != switch.is_on(&scenario.policy) => switch.flip(&mut scenario.policy),
                Ok(_) => {}
                Err(e) => {
                    readable = false;
                    problems.push(format!(
                        "This link's policy switch {} ({}) {e}; showing {fallback} instead.",
                        quote(switch.slug()),
                        quote(text)
                    ));
                }
            }
        }
    }
    if lists.clear_links {
        scenario.links.clear();
    }
    if scenario.links.len() + lists.links.len() > MAX_LINK_OVERRIDES {
        readable = false;
        problems.push(format!(
            "This link's network has more than {MAX_LINK_OVERRIDES} link overrides; showing \
             {fallback} instead."
        ));
    } else {
        for text in lists.links {
            match links::parse_link(text) {
                Ok(link) => scenario.links.push(link),
                Err(e) => {
                    readable = false;
                    problems.push(format!(
                        "This link's network has {} ({}); showing {fallback} instead.",
                        e.describe(),
                        quote(text)
                    ));
                }
            }
        }
    }
    if lists.clear_faults {
        scenario.faults.0.clear();
    }
    let fault_texts = lists.faults;
    let max_faults = crate::model::scenario::limits::MAX_FAULTS;
    if scenario.faults.0.len() + fault_texts.len() > max_faults {
        readable = false;
        problems.push(format!(
            "This link's fault plan has more than {max_faults} faults; showing {fallback} instead."
        ));
    } else {
        for text in fault_texts {
            match faults::parse_fault(text) {
                Ok(fault) => scenario.faults.0.push(fault),
                Err(e) => {
                    readable = false;
                    problems.push(format!(
                        "This link's fault plan has {} ({}); showing {fallback} instead.",
                        e.describe(),
                        quote(text)
                    ));
                }
            }
        }
    }
    if readable {
        if let Err(e) = scenario.validate() {
            readable = false;
            problems.push(format!(
                "This link's scenario does not hold together ({e}); showing {fallback} instead."
            ));
        }
    }
    link.scenario = if readable { scenario } else { base };

    if let Some(text) = single("t") {
        match parse_duration(text) {
            Ok(t) if t <= link.scenario.duration.0 => link.time = SimTime(t),
            Ok(_) => problems.push(format!(
                "This link's time ({}) is after the end of the run ({}); starting at 0 s instead.",
                quote(text),
                link.scenario.duration
            )),
            Err(e) => problems.push(format!(
                "This link's time ({}) {e}; starting at 0 s instead.",
                quote(text)
            )),
        }
    }
    if let Some(text) = single("compare") {
        match PolicySwitch::from_slug(text) {
            Some(switch) => link.compare = Some(switch),
            None => problems.push(format!(
                "This link compares with a switch {} that does not exist; not comparing instead.",
                quote(text)
            )),
        }
    }
    Some(link)
}

#[cfg(test)]
mod tests;
