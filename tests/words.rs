//! The words a learner reads live in `content/*.toml`, not in Rust: this scans the views and
//! pure layers whose words were moved there, and fails on a string literal that reads like
//! a sentence, a label or a button name.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::sync::OnceLock;

/// The files whose learner words live in `content/`.
const CLEANED: [&str; 47] = [
    "src/app/sandbox/challenges/mod.rs",
    "src/app/sandbox/challenges/card.rs",
    "src/app/sandbox/challenges/storage.rs",
    "src/app/sandbox/controls.rs",
    "src/app/sandbox/pitfall.rs",
    "src/app/sandbox/faults.rs",
    "src/app/sandbox/search.rs",
    "src/app/sandbox/search/view.rs",
    "src/app/sandbox/search/pool.rs",
    "src/app/sandbox/live.rs",
    "src/app/snippets/bridge.rs",
    "src/app/snippets/controls.rs",
    "src/app/snippets/editor.rs",
    "src/app/snippets/hooks.rs",
    "src/app/snippets/mod.rs",
    "src/app/snippets/output.rs",
    "src/app/snippets/state.rs",
    "src/app/snippets/status.rs",
    "src/app/shell.rs",
    "src/app/share.rs",
    "src/share/embed.rs",
    "src/share/mod.rs",
    "src/share/links.rs",
    "src/lab/switches.rs",
    "src/lab/mod.rs",
    "src/lab/fault_form.rs",
    "src/lesson/diagram.rs",
    "src/lab/sequence.rs",
    "src/app/error_panel.rs",
    "src/app/diagrams/mod.rs",
    "src/app/diagrams/architecture.rs",
    "src/app/diagrams/lifecycle.rs",
    "src/app/diagrams/sequence.rs",
    "src/app/diagrams/export.rs",
    "src/app/sandbox/timeline.rs",
    "src/app/sandbox/storage.rs",
    "src/app/sandbox/checks.rs",
    "src/app/sandbox/log.rs",
    "src/app/sandbox/progress.rs",
    "src/app/sandbox/mod.rs",
    "src/app/sandbox/reading.rs",
    "src/app/lab_loader.rs",
    "src/app/lab_entry.rs",
    "src/app/address.rs",
    "src/app/course.rs",
    "src/app/gist.rs",
    "src/app/maps.rs",
];

/// The pure layers, scanned whole (a new file in them is scanned too), apart from their
/// test modules (`tests.rs`).
const PURE_LAYERS: [&str; 3] = ["src/model", "src/lab", "src/share"];

/// Literals that look like words but are not the learner's: key names, a JavaScript
/// global, the languages' own names, CSS and SVG values, and the iframe snippet's markup.
const NOT_WORDS: [&str; 13] = [
    "Space",
    "Home",
    "End",
    "Enter",
    "Escape",
    "Worker",
    "Python",
    "TypeScript",
    "<iframe src=\\\"{}\\\" title=\\\"{}\\\" width=\\\"{width}\\\" height=\\\"{height}\\\" loading=\\\"lazy\\\" \\\n         sandbox=\\\"allow-scripts\\\" style=\\\"border:0;max-width:100%\\\"></iframe>",
    "snippet-{language}-heading {heading}",
    "--natural-width: {}px",
    "max-width: {}px",
    "xMidYMid meet",
];

/// Calls whose text is for developers (a broken invariant), never shown to a learner: a
/// literal anywhere inside their parentheses, on whatever line, is not a learner's word.
const DEVELOPER_CALLS: [&str; 9] = [
    "expect",
    "panic!",
    "unreachable!",
    "assert!",
    "assert_eq!",
    "assert_ne!",
    "debug_assert!",
    "debug_assert_eq!",
    "debug_assert_ne!",
];

/// A string literal of a source file: its line, its text as written, the code before it on
/// that line, and the calls whose parentheses it is inside (outermost first).
struct Literal {
    line: usize,
    text: String,
    before: String,
    calls: Vec<String>,
}

impl Literal {
    fn is_for_developers(&self) -> bool {
        self.calls
            .iter()
            .any(|call| DEVELOPER_CALLS.contains(&call.as_str()))
    }
}

/// The string literals of `source`, outside comments and character literals; panics if its
/// parentheses do not balance (the calls a literal is inside would then be wrong).
fn literals(source: &str) -> Vec<Literal> {
    let chars: Vec<char> = source.chars().collect();
    let mut found = Vec::new();
    let mut calls: Vec<String> = Vec::new();
    let (mut i, mut line, mut line_start) = (0, 1, 0);
    while i < chars.len() {
        match (chars[i], chars.get(i + 1).copied()) {
            ('(', _) => {
                let name_start = chars[..i]
                    .iter()
                    .rposition(|&c| !(c.is_alphanumeric() || c == '_' || c == '!'))
                    .map_or(0, |p| p + 1);
                calls.push(chars[name_start..i].iter().collect());
                i += 1;
            }
            (')', _) => {
                assert!(calls.pop().is_some(), "an unopened ) on line {line}");
                i += 1;
            }
            ('\n', _) => {
                line += 1;
                line_start = i + 1;
                i += 1;
            }
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
                i += 2;
            }
            // A character literal ('a', '\n', '\u{201c}'); a lifetime has no closing quote.
            ('\'', _) => {
                let close = chars[i + 1..]
                    .iter()
                    .take(12)
                    .position(|&c| c == '\'')
                    .filter(|&n| n == 1 || chars[i + 1] == '\\');
                i += close.map_or(1, |n| n + 2);
            }
            ('"', _) => {
                let before: String = chars[line_start..i].iter().collect();
                let (start, start_line) = (i + 1, line);
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    line += usize::from(chars.get(i) == Some(&'\n'));
                    i += 1;
                }
                found.push(Literal {
                    line: start_line,
                    text: chars[start..i].iter().collect(),
                    before,
                    calls: calls.clone(),
                });
                i += 1;
            }
            _ => i += 1,
        }
    }
    assert!(calls.is_empty(), "unclosed calls: {calls:?}");
    found
}

/// Two words with a space between them ("Step back"), one capitalised word ("Remove"), not
/// counting `{placeholders}`, or a word set apart from a placeholder by a space ("client {}").
fn reads_like_words(text: &str) -> bool {
    let mut bare = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        bare.push_str(&rest[..open]);
        bare.push(PLACEHOLDER);
        rest = rest[open..]
            .find('}')
            .map_or("", |close| &rest[open + close + 1..]);
    }
    bare.push_str(rest);
    let filled_in = bare.split(' ').any(|w| w == PLACEHOLDER.to_string())
        && bare
            .split(' ')
            .any(|w| w.chars().count() >= 2 && w.chars().all(char::is_alphabetic));
    let bare = bare.replace(PLACEHOLDER, "");
    let text = bare.as_str();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphabetic() && c != '\'')
        .filter(|w| w.chars().count() >= 2)
        .collect();
    let sentence = words.len() >= 2 && text.contains(' ');
    let mut letters = text.chars();
    let capitalised = letters.next().is_some_and(char::is_uppercase)
        && letters.clone().count() >= 2
        && letters.all(char::is_lowercase);
    sentence || capitalised || filled_in
}

/// What a `{placeholder}` stands for while a literal is read.
const PLACEHOLDER: char = '\u{1}';

/// A class list, the one place where spaced lowercase literals are not words: written
/// right after `class=`, or made of the stylesheets' class names only (as a match arm that
/// picks a row's classes is).
fn is_class_list(literal: &Literal) -> bool {
    let before = literal.before.trim_end();
    before.ends_with("class=")
        || before.ends_with("class={")
        || before.contains("classes!(")
        || names_only_stylesheet_classes(&literal.text)
}

/// Every class the stylesheets name, read once.
fn stylesheet_classes() -> &'static [String] {
    static CLASSES: OnceLock<Vec<String>> = OnceLock::new();
    CLASSES.get_or_init(read_stylesheet_classes)
}

fn read_stylesheet_classes() -> Vec<String> {
    let mut classes = Vec::new();
    for path in ["www/app.css", "www/lab.css", "www/snippets/snippets.css"] {
        let css = fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for piece in css.split('.').skip(1) {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
                classes.push(name);
            }
        }
    }
    classes
}

/// Whether each word of `text` is a class of the stylesheets; `client-{c}` stands for
/// any class that starts with `client-`.
fn names_only_stylesheet_classes(text: &str) -> bool {
    let classes = stylesheet_classes();
    text.split_whitespace()
        .all(|token| match token.split_once('{') {
            Some((prefix, _)) => {
                !prefix.is_empty() && classes.iter().any(|c| c.starts_with(prefix))
            }
            None => classes.iter().any(|c| c == token),
        })
}

fn learner_words_in(path: &str) -> Vec<String> {
    let source = fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // A module's own tests come last and may spell out what the page shows (a lone
    // `#[cfg(test)]` item before them is code like any other).
    let code = source
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    literals(code)
        .into_iter()
        .filter(|l| reads_like_words(&l.text))
        .filter(|l| !is_class_list(l))
        .filter(|l| !l.is_for_developers())
        .filter(|l| !NOT_WORDS.contains(&l.text.as_str()))
        .map(|l| format!("{path}:{}: \"{}\"", l.line, l.text))
        .collect()
}

/// The Rust files under `dir`, sorted.
fn rust_files_under(dir: &str) -> Vec<String> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| entry.expect("a readable directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let path = path.to_str().expect("a UTF-8 path").to_owned();
        if fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            files.extend(rust_files_under(&path));
        } else if path.ends_with(".rs") && !path.ends_with("/tests.rs") {
            files.push(path);
        }
    }
    files
}

/// Every file whose learner words must live in `content/`.
fn cleaned_files() -> Vec<String> {
    let layers = PURE_LAYERS.iter().flat_map(|dir| rust_files_under(dir));
    let mut files: Vec<String> = CLEANED.iter().map(|p| p.to_string()).collect();
    for path in layers {
        if !files.contains(&path) {
            files.push(path);
        }
    }
    files
}

#[test]
fn the_cleaned_views_and_layers_hold_no_learner_words() {
    let files = cleaned_files();
    for layer_file in [
        "src/model/client.rs",
        "src/model/faults/mod.rs",
        "src/model/ids.rs",
        "src/model/queue.rs",
    ] {
        assert!(
            files.iter().any(|p| p == layer_file),
            "{layer_file}: {files:?}"
        );
    }
    let found: Vec<String> = files.iter().flat_map(|p| learner_words_in(p)).collect();
    assert!(
        found.is_empty(),
        "words a learner reads belong in content/*.toml:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scanner_finds_words_in_text_nodes_labels_and_templates() {
    let planted = r#"
        html! { <button aria-label="Remove it">{"Step back"}</button> }
        let s = format!("Can't add {}.", e);
        let n = format!("client {}", c);
        let w = format!("{}px {}", n, "-9");
        let c = classes!("muted small", "state-lost");
        let row = match verdict { Ok => "check status-ok", _ => "Check status" };
        let o = x.expect("the default preset exists");
        debug_assert!(
            self.len < N,
            "an outbox of {N} is full: its owner is not drained"
        );
        let m = f(
            "Shown to people",
        );
        // a comment "With spaces"
        let q = '"';
        html! { <p class="muted small">{"Faults"}</p> }
    "#;
    let found: Vec<String> = literals(planted)
        .into_iter()
        .filter(|l| reads_like_words(&l.text) && !is_class_list(l))
        .filter(|l| !l.is_for_developers())
        .map(|l| l.text)
        .collect();
    assert_eq!(
        found,
        [
            "Remove it",
            "Step back",
            "Can't add {}.",
            "client {}",
            "Check status",
            "Shown to people",
            "Faults"
        ]
    );
}
