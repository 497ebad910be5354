//! Embed mode's options and the iframe snippet a course author pastes into a page.
//!
//! Options come from the page's query (`index.html?embed&theme=dark`, before the `#`) or
//! from the fragment's query (`#/qa?embed`); the fragment wins when both give one.
//!
//! - `embed` (any value but `0`/`off`): minimal chrome, one view.
//! - `theme=light|dark`: forces a theme (`data-theme` on `<html>`); otherwise the reader's.
//! - `controls=off`: hides the controls (playback bar, settings, copy buttons).
//! - `diagram=architecture|lifecycle|sequence`: shows only that diagram.

use super::values::unescape;
use crate::lesson::sentences;

/// The keys embed mode reads; [`super::decode`] leaves them alone.
pub const KEYS: [&str; 4] = ["embed", "theme", "controls", "diagram"];

/// The message an embedded page posts to its parent. Its shape is
/// `{ type: "lease-lab:height", height: <CSS pixels, a whole number> }`.
pub const HEIGHT_MESSAGE_TYPE: &str = "lease-lab:height";

/// A forced colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    /// The value of `data-theme` and of the `theme` key.
    pub fn slug(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// One diagram shown alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagramView {
    Architecture,
    Lifecycle,
    Sequence,
}

impl DiagramView {
    /// Every diagram, in the order the Maps tab shows them.
    pub const ALL: [DiagramView; 3] = [
        DiagramView::Architecture,
        DiagramView::Lifecycle,
        DiagramView::Sequence,
    ];

    /// The value of the `diagram` key.
    pub fn slug(self) -> &'static str {
        match self {
            DiagramView::Architecture => "architecture",
            DiagramView::Lifecycle => "lifecycle",
            DiagramView::Sequence => "sequence",
        }
    }
}

/// How the page presents itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmbedOptions {
    /// Minimal chrome: no masthead, tabs or footer.
    pub embed: bool,
    /// A forced theme.
    pub theme: Option<Theme>,
    /// Hide controls.
    pub hide_controls: bool,
    /// Show only this diagram.
    pub diagram: Option<DiagramView>,
}

/// Reads the options from the page's query (`location.search`, with or without `?`) and
/// the fragment's query (after `#/tab?`), with a sentence for each value it cannot read.
pub fn read(search: &str, fragment_query: &str) -> (EmbedOptions, Vec<String>) {
    let mut options = EmbedOptions::default();
    let mut problems = Vec::new();
    let search = search.strip_prefix('?').unwrap_or(search);
    let mut budget = super::MAX_FIELDS;
    for part in [search, fragment_query] {
        let mut seen: Vec<&str> = Vec::new();
        let pairs = part.split('&').filter(|p| !p.is_empty()).take(budget);
        for pair in pairs {
            budget -= 1;
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if !KEYS.contains(&key) {
                continue;
            }
            if seen.contains(&key) {
                problems.push(
                    sentences::lesson::link_problems::EmbedRepeated {
                        key: super::quote(key),
                    }
                    .to_string(),
                );
                continue;
            }
            seen.push(key);
            let value = unescape(value).unwrap_or_default();
            if let Some(problem) = options.set(key, &value) {
                problems.push(problem);
            }
        }
    }
    (options, problems)
}

impl EmbedOptions {
    /// Applies one option; a sentence if its value cannot be read.
    fn set(&mut self, key: &str, value: &str) -> Option<String> {
        match key {
            "embed" => self.embed = !matches!(value, "0" | "off"),
            "theme" => match value {
                "light" => self.theme = Some(Theme::Light),
                "dark" => self.theme = Some(Theme::Dark),
                "" | "auto" => self.theme = None,
                _ => {
                    return Some(
                        sentences::lesson::link_problems::NoTheme {
                            theme: super::quote(value),
                        }
                        .to_string(),
                    )
                }
            },
            "controls" => self.hide_controls = matches!(value, "off" | "0" | "hide"),
            _ => match DiagramView::ALL.into_iter().find(|d| d.slug() == value) {
                Some(d) => self.diagram = Some(d),
                None => {
                    return Some(
                        sentences::lesson::link_problems::NoDiagram {
                            diagram: super::quote(value),
                        }
                        .to_string(),
                    )
                }
            },
        }
        None
    }
}

/// The options on show once the page follows a link whose fragment query is
/// `fragment_query`: each option the link names is what a fresh load of the link would
/// show (`search` is the page's own query), and the others stay as they are, so moving
/// about inside an embedded view keeps them. Embed mode itself is the page's for its life.
pub fn follow(shown: EmbedOptions, search: &str, fragment_query: &str) -> EmbedOptions {
    let fresh = read(search, fragment_query).0;
    let mut options = shown;
    for pair in fragment_query.split('&') {
        match pair.split('=').next() {
            Some("theme") => options.theme = fresh.theme,
            Some("controls") => options.hide_controls = fresh.hide_controls,
            Some("diagram") => options.diagram = fresh.diagram,
            _ => {}
        }
    }
    options
}

impl EmbedOptions {
    /// The page query (`?embed&theme=dark…`) that asks for these options.
    pub fn to_search(self) -> String {
        let mut out = String::from("?embed");
        if let Some(theme) = self.theme {
            out.push_str("&theme=");
            out.push_str(theme.slug());
        }
        if self.hide_controls {
            out.push_str("&controls=off");
        }
        if let Some(diagram) = self.diagram {
            out.push_str("&diagram=");
            out.push_str(diagram.slug());
        }
        out
    }
}

/// Escapes text for an HTML attribute value in double quotes.
fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The `<iframe>` element for a course page: sandboxed to scripts only, lazily loaded,
/// titled, and sized; `src` is the page address with the embed query and the fragment.
pub fn iframe_snippet(src: &str, title: &str, width: u32, height: u32) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"{width}\" height=\"{height}\" loading=\"lazy\" \
         sandbox=\"allow-scripts\" style=\"border:0;max-width:100%\"></iframe>",
        attribute(src),
        attribute(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_come_from_either_query_and_round_trip() {
        let (options, problems) = read("?embed&theme=dark", "v=1&controls=off&diagram=lifecycle");
        assert!(problems.is_empty());
        assert_eq!(
            options,
            EmbedOptions {
                embed: true,
                theme: Some(Theme::Dark),
                hide_controls: true,
                diagram: Some(DiagramView::Lifecycle),
            }
        );
        let search = options.to_search();
        assert_eq!(search, "?embed&theme=dark&controls=off&diagram=lifecycle");
        assert_eq!(read(&search, "").0, options);
        assert_eq!(read("", "").0, EmbedOptions::default());
        assert!(!read("embed=0", "").0.embed);
    }

    #[test]
    fn unknown_themes_and_diagrams_are_explained_not_applied() {
        let (options, problems) = read("embed&theme=%3Cscript%3E&diagram=nope", "");
        assert_eq!(options.theme, None);
        assert_eq!(options.diagram, None);
        assert_eq!(problems.len(), 2);
        assert!(
            problems[0].contains("\u{201c}<script>\u{201d}"),
            "{}",
            problems[0]
        );
    }

    #[test]
    fn an_option_given_twice_in_one_query_is_named_and_the_fragment_still_wins() {
        let (options, problems) = read("?embed&theme=dark&theme=light", "theme=light");
        assert_eq!(options.theme, Some(Theme::Light));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("\u{201c}theme\u{201d} more than once"));
        let (options, problems) = read("", "embed&diagram=sequence&diagram=lifecycle");
        assert_eq!(options.diagram, Some(DiagramView::Sequence));
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn a_followed_link_sets_the_options_it_names_as_a_fresh_load_would_and_keeps_the_rest() {
        let (shown, _) = read("?embed&theme=dark", "controls=off&diagram=lifecycle");
        // Named: taken from the link. Unnamed: kept.
        let followed = follow(shown, "?embed&theme=dark", "v=1&diagram=sequence");
        assert_eq!(followed.diagram, Some(DiagramView::Sequence));
        assert!(followed.hide_controls);
        assert_eq!(followed.theme, Some(Theme::Dark));
        let followed = follow(shown, "?embed&theme=dark", "theme=light&controls=on");
        assert_eq!(followed.theme, Some(Theme::Light));
        assert!(!followed.hide_controls);
        assert_eq!(followed.diagram, Some(DiagramView::Lifecycle));
        // A value that cannot be read shows what a fresh load of the link would: the
        // page query's value, here the reader's own theme.
        let followed = follow(shown, "?embed", "theme=neon&diagram=nope");
        assert_eq!(followed.theme, None);
        assert_eq!(followed.diagram, None);
        // Embed mode is not the link's to leave.
        assert!(follow(shown, "?embed", "embed=off").embed);
        assert_eq!(follow(shown, "?embed", "v=1&ttl=7s"), shown);
    }

    #[test]
    fn the_snippet_escapes_its_attributes() {
        let html = iframe_snippet("https://x/?embed&a=\"b\"#/qa", "Q&A <cards>", 640, 480);
        assert_eq!(
            html,
            "<iframe src=\"https://x/?embed&amp;a=&quot;b&quot;#/qa\" title=\"Q&amp;A &lt;cards&gt;\" \
             width=\"640\" height=\"480\" loading=\"lazy\" sandbox=\"allow-scripts\" \
             style=\"border:0;max-width:100%\"></iframe>"
        );
    }
}
