//! The page shell's side of the address: it owns the open tab and the diagram selection,
//! and writes the address bar. The laboratory, a separate wasm module, owns its own fields
//! (scenario, time, search, snippets) and hands them over through [`record_lab_fields`];
//! until it has loaded, the shell keeps the link's lab fields as they were written. A link
//! followed in the open page (typed, clicked, `location.hash`, Back or Forward) is read by
//! [`follow_link`], so the lab shows it however the page arrived there.
//!
//! The link codec is [`crate::share`]; only its string-level parts are used here, so the
//! lesson's module carries no scenario decoding. Every browser call may fail (a sandboxed
//! iframe has an opaque origin) without breaking anything.

use std::cell::RefCell;

use wasm_bindgen::JsValue;

use crate::route::{Route, Tab};
use crate::share::embed::{self, EmbedOptions};
use crate::share::{compose, lab_fields_of, selection_of, tab_problems};

/// What the shell knows of the address, besides the tab (which is the address's own).
#[derive(Default)]
struct ShellAddress {
    selection: Option<String>,
    lab_fields: String,
    /// The link the laboratory reads when it starts: the one the page was opened with, or
    /// the latest one followed since that carries lab fields.
    lab_link: String,
    /// How many followed links changed the selection (see [`SelectionFollows`]).
    selections_followed: u32,
}

/// Provided by the page: how many followed links have changed the diagram selection. A
/// diagram is keyed by it, so a followed link shows its selection even where the diagram
/// is already on screen (the diagram reads the selection when it mounts).
#[derive(Clone, Copy, PartialEq, Default)]
pub struct SelectionFollows(pub u32);

/// The key a diagram that shows the link's selection is mounted under.
#[yew::hook]
pub fn use_selection_key() -> u32 {
    yew::use_context::<SelectionFollows>().unwrap_or_default().0
}

/// How many followed links have changed the selection so far.
pub fn selections_followed() -> SelectionFollows {
    ADDRESS.with(|address| SelectionFollows(address.borrow().selections_followed))
}

thread_local! {
    static ADDRESS: RefCell<ShellAddress> = RefCell::new(ShellAddress::default());
}

/// Reads the page's address once, at start: the selection, the lab's fields, the problems
/// with embed mode's options for the link notice, and embed mode's options.
pub fn restore_from_location() -> EmbedOptions {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    let query = query_of(&hash);
    let (options, problems) = options_of(query);
    super::share::add_problems(problems);
    let (selection, problems) = selection_of(query);
    let misread = !problems.is_empty();
    super::share::add_problems(problems);
    ADDRESS.with(|address| {
        *address.borrow_mut() = ShellAddress {
            selection,
            lab_fields: lab_fields_of(query),
            lab_link: hash.clone(),
            selections_followed: 0,
        }
    });
    // The address drops a selection the page does not show, as it drops the lab's fields.
    if misread {
        write_address(History::Replace);
    }
    options
}

/// Whether the address asks for embed mode (read only: [`restore_from_location`] records it).
pub fn embed_asked() -> bool {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    options_of(query_of(&hash)).0.embed
}

/// What follows the `?` of a fragment, if anything.
fn query_of(fragment: &str) -> &str {
    fragment.split_once('?').map_or("", |(_, q)| q)
}

/// The link the laboratory starts from (see `ShellAddress::lab_link`).
pub fn lab_link() -> String {
    ADDRESS.with(|address| address.borrow().lab_link.clone())
}

/// Reads a fragment the page went to after it opened. One without a query only opens a tab
/// (the tablist's own links), and one whose lab fields are the shell's already changes
/// nothing for the lab; otherwise its selection and lab fields become the page's, and it is
/// returned for the laboratory to follow. The shell's notice then speaks of this link's
/// selection (and of a tab that does not exist, when the laboratory does not read the link),
/// and the address, of what is on screen.
pub fn follow_link(fragment: &str) -> Option<String> {
    let query = query_of(fragment);
    let tab_problems = tab_problems(fragment);
    let opens_a_tab = query.is_empty() || fragment == tab_fragment(Route::parse(fragment).tab);
    if opens_a_tab && tab_problems.is_empty() {
        return None;
    }
    let fields = lab_fields_of(query);
    let (selection, selection_problems) = selection_of(query);
    // Said in the order a fresh link's are: embed mode's options, then the selection.
    let mut problems = options_of(query).1;
    problems.extend(selection_problems);
    let followed = ADDRESS.with(|address| {
        let mut address = address.borrow_mut();
        if address.selection != selection {
            address.selections_followed += 1;
        }
        address.selection = selection;
        if fields.is_empty() || fields == address.lab_fields {
            return None;
        }
        address.lab_fields = fields;
        address.lab_link = fragment.to_owned();
        Some(fragment.to_owned())
    });
    // A tab that does not exist: the laboratory says so when it reads the link, else the
    // shell; and what the laboratory said of the last link is not about this one.
    if followed.is_none() {
        problems.splice(0..0, tab_problems);
        super::share::show_lab_problems(Vec::new());
    }
    // What could not be shown is said, and the address shows what is on screen instead.
    if !problems.is_empty() {
        write_address(History::Replace);
    }
    super::share::show_followed_problems(problems);
    followed
}

/// Embed mode's options as the page's query and `fragment`'s query set them, with a
/// sentence for each value that cannot be read.
fn options_of(fragment_query: &str) -> (EmbedOptions, Vec<String>) {
    let search = gloo::utils::window()
        .location()
        .search()
        .unwrap_or_default();
    embed::read(&search, fragment_query)
}

/// Embed mode's options once the page has followed `fragment`: those it names as a fresh
/// load of it would set them, the rest as `shown` (see [`embed::follow`]).
pub fn followed_options(shown: EmbedOptions, fragment: &str) -> EmbedOptions {
    let query = query_of(fragment);
    let search = gloo::utils::window()
        .location()
        .search()
        .unwrap_or_default();
    embed::follow(shown, &search, query)
}

/// Follows the fragment the page went to (see [`follow_link`]): the laboratory's part
/// too, and returns how many followed links have changed the selection, for the page's
/// [`SelectionFollows`].
pub fn follow_location(fragment: &str) -> SelectionFollows {
    if let Some(link) = follow_link(fragment) {
        super::lab_loader::follow(&link);
    }
    selections_followed()
}

/// The diagram part the link selected.
pub fn initial_selection() -> Option<String> {
    ADDRESS.with(|address| address.borrow().selection.clone())
}

/// Records the selected diagram part and updates the address.
pub fn record_selection(selection: Option<String>) {
    ADDRESS.with(|address| address.borrow_mut().selection = selection);
    write_address(History::Push);
}

/// Records the laboratory's fields, as it sends them, and updates the address.
pub fn record_lab_fields(fields: String, history: History) {
    super::course::lab_changed(&fields);
    ADDRESS.with(|address| address.borrow_mut().lab_fields = fields);
    write_address(history);
}

/// How a change goes into the browser's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// A new entry: a deliberate change (preset, fault, switch, compare, edit, selection).
    Push,
    /// The same entry: scrubbing, playing, stepping.
    Replace,
}

/// The page's address without query and fragment.
pub fn page_address() -> String {
    let href = gloo::utils::window().location().href().unwrap_or_default();
    href.split(['?', '#']).next().unwrap_or_default().to_owned()
}

/// The current state's fragment, on the open tab.
fn current_fragment() -> String {
    let tab = Route::parse(&gloo::utils::window().location().hash().unwrap_or_default()).tab;
    ADDRESS.with(|address| {
        let address = address.borrow();
        compose(tab, &address.lab_fields, address.selection.as_deref())
    })
}

/// The fragment that opens `tab` with the page's state: the tablist's links write it, so
/// the address keeps what a reload must restore (the lab's fields, the selection) from tab
/// to tab, as Copy link does. With nothing to keep, it is the tab's plain `#/slug`.
pub fn tab_fragment(tab: Tab) -> String {
    ADDRESS.with(|address| {
        let address = address.borrow();
        if address.lab_fields.is_empty() && address.selection.is_none() {
            Route {
                tab,
                query: String::new(),
            }
            .to_fragment()
        } else {
            compose(tab, &address.lab_fields, address.selection.as_deref())
        }
    })
}

/// The full link to the current state (for people: no embed options).
pub fn current_link() -> String {
    format!("{}{}", page_address(), current_fragment())
}

/// The address an iframe should load for the current state with `options`.
pub fn embed_address(options: EmbedOptions) -> String {
    format!(
        "{}{}{}",
        page_address(),
        options.to_search(),
        current_fragment()
    )
}

/// Writes the current state into the address bar, unless it is already there. Failures
/// (an opaque origin may refuse history changes) are ignored: the page keeps working.
fn write_address(history: History) {
    let window = gloo::utils::window();
    let fragment = current_fragment();
    if window.location().hash().unwrap_or_default() == fragment {
        return;
    }
    let Ok(history_api) = window.history() else {
        return;
    };
    // Inside a frame a pushed entry would land in the course page's Back button.
    let history = if in_frame() {
        History::Replace
    } else {
        history
    };
    let _ = match history {
        History::Push => history_api.push_state_with_url(&JsValue::NULL, "", Some(&fragment)),
        History::Replace => history_api.replace_state_with_url(&JsValue::NULL, "", Some(&fragment)),
    };
}

/// Whether the page runs inside a frame (where the clipboard API is blocked by default).
pub fn in_frame() -> bool {
    let window = gloo::utils::window();
    match window.parent() {
        Ok(Some(parent)) => JsValue::from(parent) != JsValue::from(window),
        _ => false,
    }
}
