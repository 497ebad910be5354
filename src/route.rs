//! The page's address: which tab is open, and the rest of the fragment for share state.
//!
//! Pure string handling, so it is tested natively. Fragments look like `#/maps` or
//! `#/sandbox?…`; anything unreadable falls back to the Gist tab rather than failing.

/// One of the four lesson tabs, in reading order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tab {
    Gist,
    Maps,
    Qa,
    Sandbox,
}

impl Tab {
    /// Every tab in the order the tablist shows them.
    pub const ALL: [Tab; 4] = [Tab::Gist, Tab::Maps, Tab::Qa, Tab::Sandbox];

    /// The path segment used in the URL fragment.
    pub fn slug(self) -> &'static str {
        match self {
            Tab::Gist => "gist",
            Tab::Maps => "maps",
            Tab::Qa => "qa",
            Tab::Sandbox => "sandbox",
        }
    }

    /// The visible tab name.
    pub fn label(self) -> &'static str {
        let names = &crate::lesson::LESSON.tabs;
        match self {
            Tab::Gist => names.gist,
            Tab::Maps => names.maps,
            Tab::Qa => names.qa,
            Tab::Sandbox => names.sandbox,
        }
    }

    /// The tab for a slug, ignoring ASCII case.
    pub fn from_slug(slug: &str) -> Option<Tab> {
        Tab::ALL
            .into_iter()
            .find(|tab| tab.slug().eq_ignore_ascii_case(slug))
    }

    /// The neighbour reached by an arrow key, wrapping around at either end.
    pub fn step(self, forward: bool) -> Tab {
        let index = Tab::ALL.iter().position(|&t| t == self).unwrap_or(0);
        let len = Tab::ALL.len();
        let next = if forward {
            (index + 1) % len
        } else {
            (index + len - 1) % len
        };
        Tab::ALL[next]
    }
}

/// A parsed fragment: the tab, and the query after `?` (share state, not parsed here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub tab: Tab,
    pub query: String,
}

impl Route {
    /// Reads `location.hash` (with or without the leading `#`). Never fails: an unknown
    /// or empty path opens the Gist tab.
    pub fn parse(fragment: &str) -> Route {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let (path, query) = fragment.split_once('?').unwrap_or((fragment, ""));
        let tab = Tab::from_slug(path.trim_matches('/')).unwrap_or(Tab::Gist);
        Route {
            tab,
            query: query.to_owned(),
        }
    }

    /// The fragment for this route, with the leading `#`.
    pub fn to_fragment(&self) -> String {
        if self.query.is_empty() {
            format!("#/{}", self.tab.slug())
        } else {
            format!("#/{}?{}", self.tab.slug(), self.query)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tab_round_trips_through_its_fragment() {
        for tab in Tab::ALL {
            let route = Route {
                tab,
                query: String::new(),
            };
            assert_eq!(Route::parse(&route.to_fragment()), route);
        }
    }

    #[test]
    fn the_query_is_kept_apart_from_the_tab() {
        let route = Route::parse("#/sandbox?v=1&preset=2");
        assert_eq!(route.tab, Tab::Sandbox);
        assert_eq!(route.query, "v=1&preset=2");
        assert_eq!(route.to_fragment(), "#/sandbox?v=1&preset=2");
    }

    #[test]
    fn unknown_or_empty_fragments_open_the_gist() {
        for fragment in ["", "#", "#/", "#/nope", "#<script>", "#/maps/extra"] {
            assert_eq!(Route::parse(fragment).tab, Tab::Gist, "{fragment}");
        }
        assert_eq!(Route::parse("#/QA").tab, Tab::Qa);
        assert_eq!(Route::parse("maps").tab, Tab::Maps);
    }

    #[test]
    fn arrow_keys_wrap_around_the_tablist() {
        assert_eq!(Tab::Gist.step(false), Tab::Sandbox);
        assert_eq!(Tab::Sandbox.step(true), Tab::Gist);
        assert_eq!(Tab::Maps.step(true), Tab::Qa);
    }
}
