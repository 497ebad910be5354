//! The README's table of a learner client's calls tells course authors what the page's list
//! ("The calls your client can make", `content/sandbox.toml`) tells learners. The page's list
//! is the one home, held to the runtime by an e2e test; this holds the README's table to the
//! same names in each language, so the two cannot drift apart.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fs;

use lease_lab::lesson::content::SANDBOX;

type Names = BTreeSet<String>;

/// The identifiers in `text`: `node.settings: ttl, renewEvery` gives node, settings, ttl
/// and renewEvery.
fn identifiers(text: &str, into: &mut Names) {
    let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    into.extend(
        words
            .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))
            .map(String::from),
    );
}

/// The names the page's list gives, in TypeScript and in Python.
fn page_names() -> (Names, Names) {
    let (mut typescript, mut python) = (Names::new(), Names::new());
    for row in SANDBOX.own_client.reference.rows {
        identifiers(row.typescript, &mut typescript);
        identifiers(row.python, &mut python);
    }
    (typescript, python)
}

/// The code spans of a README cell that name a call or field: `node.…`, `answer.…` or a
/// handler; quoted values such as `"granted"` are not names.
fn cell_names(cell: &str) -> Names {
    let mut names = Names::new();
    let spans = cell.split('`').skip(1).step_by(2);
    let named = |span: &&str| {
        ["node.", "answer.", "start(", "reply(", "timer("]
            .iter()
            .any(|head| span.starts_with(head))
    };
    for span in spans.filter(named) {
        identifiers(span, &mut names);
    }
    names
}

/// The names the README's table under "## Your client" gives, in TypeScript and in Python;
/// a Python cell that names nothing ("the same fields") means the TypeScript cell's names.
fn readme_names(readme: &str) -> (Names, Names) {
    let section = readme
        .split("\n## Your client\n")
        .nth(1)
        .expect("README has ## Your client");
    let table = section
        .lines()
        .skip_while(|line| !line.starts_with("| | TypeScript | Python |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'));
    let (mut typescript, mut python) = (Names::new(), Names::new());
    for line in table {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert_eq!(cells.len(), 3, "a row of three cells: {line}");
        let (ts, py) = (cell_names(cells[1]), cell_names(cells[2]));
        python.extend(if py.is_empty() { ts.clone() } else { py });
        typescript.extend(ts);
    }
    (typescript, python)
}

fn readme() -> String {
    fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

#[test]
fn the_readme_names_the_calls_the_page_lists_in_each_language() {
    let (page_ts, page_py) = page_names();
    let (readme_ts, readme_py) = readme_names(&readme());
    assert_eq!(
        readme_ts, page_ts,
        "TypeScript: README table against content/sandbox.toml"
    );
    assert_eq!(
        readme_py, page_py,
        "Python: README table against content/sandbox.toml"
    );
    // The languages differ where they should, so each side is read in its own spelling.
    assert!(page_ts.contains("atWall") && page_py.contains("at_wall"));
}

#[test]
fn a_call_renamed_or_dropped_in_the_readme_is_caught() {
    let (page_ts, page_py) = page_names();
    let readme = readme();
    let renamed = readme.replace("`node.atWall(ms, name)`", "`node.atwall(ms, name)`");
    assert_ne!(readme_names(&renamed).0, page_ts);
    let dropped: String = readme
        .lines()
        .filter(|line| !line.contains("`node.cancel(name)`"))
        .map(|line| format!("{line}\n"))
        .collect();
    let (ts, py) = readme_names(&dropped);
    assert!(!ts.contains("cancel") && !py.contains("cancel"));
    assert_ne!(py, page_py);
}

/// The README's Challenges section says where a challenge in the learner's own code is, as
/// the section's own words do (content/challenges.toml `own_client`); it once said that the
/// learner's client "does not exist yet" after the page had pointed to Your client.
#[test]
fn the_readme_s_challenges_section_points_where_the_page_does() {
    let readme = readme();
    let start = readme
        .find("\n## Challenges")
        .or_else(|| readme.find("\n### Challenges"));
    let section = &readme[start.expect("a Challenges section")..];
    let section = &section[..section
        .find("### How to write a challenge")
        .unwrap_or(section.len())];
    let page = lease_lab::lesson::content::CHALLENGES.words.own_client;
    assert!(page.contains("Your client"), "{page}");
    assert!(section.contains("Your client"), "{section}");
    assert!(!section.contains("does not exist yet"), "{section}");
}
