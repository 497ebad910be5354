//! Turns each sentence with `{placeholders}` of a content file into a typed Rust struct.
//!
//! A sentence's placeholder names are written once, in the TOML: the struct has one public
//! field per placeholder, so code that fills a sentence names every fact, and a name missing
//! from the sentence or misspelt in it fails to compile at the call, in an error that names
//! the struct `sentences::<file>::<section>::<Key>`. Like Project Fluent's named message
//! arguments, but checked by the compiler.

use std::fmt::Write;

/// One piece of a sentence: words as written, a placeholder's name, or a word chosen by a
/// count (`{events:event|events}`: "event" when the fact `events` is 1, else "events").
#[derive(Debug, PartialEq)]
pub enum Piece {
    Words(String),
    Fact(String),
    Counted {
        fact: String,
        one: String,
        other: String,
    },
}

impl Piece {
    fn is_words(&self) -> bool {
        matches!(self, Piece::Words(_))
    }
}

/// A sentence with placeholders, taken out of a content file.
#[derive(Debug, PartialEq)]
pub struct Sentence {
    /// The tables that hold it, outermost first, then its key.
    pub path: Vec<String>,
    pub pieces: Vec<Piece>,
}

/// Removes every sentence with placeholders from `table` (the shapes of `schema.rs` hold
/// only plain text), and returns them. `file` names the content file in errors.
pub fn take_sentences(file: &str, table: &mut toml::Table) -> Result<Vec<Sentence>, String> {
    let mut found = Vec::new();
    take_from(file, &mut Vec::new(), table, &mut found)?;
    Ok(found)
}

fn take_from(
    file: &str,
    path: &mut Vec<String>,
    table: &mut toml::Table,
    found: &mut Vec<Sentence>,
) -> Result<(), String> {
    let keys: Vec<String> = table.keys().cloned().collect();
    for key in keys {
        path.push(key.clone());
        match &mut table[&key] {
            toml::Value::String(text) => {
                let pieces =
                    pieces(text).map_err(|e| format!("{file}: {}: {e}", path.join(".")))?;
                if !pieces.iter().all(Piece::is_words) {
                    table.remove(&key);
                    found.push(Sentence {
                        path: path.clone(),
                        pieces,
                    });
                }
            }
            toml::Value::Table(inner) => take_from(file, path, inner, found)?,
            toml::Value::Array(items) => refuse_in_list(file, path, items)?,
            _ => {}
        }
        path.pop();
    }
    Ok(())
}

/// A list's texts are shown as they are, so none may have a placeholder.
fn refuse_in_list(file: &str, path: &[String], items: &[toml::Value]) -> Result<(), String> {
    for item in items {
        let texts: Vec<&toml::Value> = match item {
            toml::Value::Table(table) => table.values().collect(),
            toml::Value::Array(inner) => inner.iter().collect(),
            other => vec![other],
        };
        for text in texts.iter().filter_map(|v| v.as_str()) {
            let pieces = pieces(text).map_err(|e| format!("{file}: {}: {e}", path.join(".")))?;
            if !pieces.iter().all(Piece::is_words) {
                return Err(format!(
                    "{file}: {}: {text:?} has a placeholder, but only a sentence in a table can be filled",
                    path.join(".")
                ));
            }
        }
    }
    Ok(())
}

/// Splits `text` at its `{name}` placeholders and `{name:one|other}` counted words; a name
/// is lowercase letters, digits and `_`.
pub fn pieces(text: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Words(rest[..open].to_owned()));
        }
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or("a { is never closed")?;
        pieces.push(placeholder(&after[..close])?);
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Words(rest.to_owned()));
    }
    Ok(pieces)
}

/// What is between a placeholder's braces: a fact's name, or a name, `:` and two forms.
fn placeholder(inside: &str) -> Result<Piece, String> {
    let Some((name, forms)) = inside.split_once(':') else {
        return fact_name(inside).map(|name| Piece::Fact(name.to_owned()));
    };
    let fact = fact_name(name)?.to_owned();
    match forms.split('|').collect::<Vec<_>>()[..] {
        [one, other] if !one.is_empty() && !other.is_empty() => Ok(Piece::Counted {
            fact,
            one: one.to_owned(),
            other: other.to_owned(),
        }),
        _ => Err(format!(
            "{{{inside}}} counts {name}: write its two forms as {{{name}:one|more}}"
        )),
    }
}

fn fact_name(name: &str) -> Result<&str, String> {
    let named = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !named {
        return Err(format!(
            "{{{name}}} is not a placeholder: write lowercase letters, digits and _"
        ));
    }
    if KEYWORDS.contains(&name) {
        return Err(format!(
            "{{{name}}} is a Rust keyword: name the fact otherwise"
        ));
    }
    Ok(name)
}

/// The Rust module `module` holding one struct per sentence of `file`, nested as its tables are.
pub fn sentence_module(file: &str, module: &str, sentences: &[Sentence]) -> String {
    let mut out = String::new();
    write_module(&mut out, file, &[module.to_owned()], sentences, 0);
    out
}

fn write_module(
    out: &mut String,
    file: &str,
    path: &[String],
    sentences: &[Sentence],
    depth: usize,
) {
    let indent = "    ".repeat(depth);
    let name = ident(path.last().expect("a module has a name"));
    let _ = writeln!(out, "{indent}pub mod {name} {{");
    let here = &path[1..];
    let inside: Vec<&Sentence> = sentences
        .iter()
        .filter(|s| s.path.starts_with(here))
        .collect();
    let own: Vec<&Sentence> = inside
        .iter()
        .copied()
        .filter(|s| s.path.len() == here.len() + 1)
        .collect();
    if !own.is_empty() {
        let _ = writeln!(
            out,
            "{indent}    use std::fmt::{{self, Display, Formatter}};"
        );
    }
    for sentence in own {
        out.push('\n');
        write_struct(out, file, sentence, depth + 1);
    }
    let mut children: Vec<&String> = Vec::new();
    for sentence in inside.iter().filter(|s| s.path.len() > here.len() + 1) {
        if !children.contains(&&sentence.path[here.len()]) {
            children.push(&sentence.path[here.len()]);
        }
    }
    for child in children {
        let mut inner = path.to_vec();
        inner.push(child.clone());
        out.push('\n');
        write_module(out, file, &inner, sentences, depth + 1);
    }
    let _ = writeln!(out, "{indent}}}");
}

/// A sentence as the parts of its `write!`: the format string, which names its facts and
/// counted words; the facts in order; those written out and those that choose a word; and
/// the counted words' arguments.
struct Format<'a> {
    string: String,
    facts: Vec<&'a str>,
    written: Vec<&'a str>,
    counts: Vec<&'a str>,
    counted_args: Vec<String>,
}

fn format_string(pieces: &[Piece]) -> Format<'_> {
    let mut format = Format {
        string: String::new(),
        facts: Vec::new(),
        written: Vec::new(),
        counts: Vec::new(),
        counted_args: Vec::new(),
    };
    for piece in pieces {
        match piece {
            Piece::Words(words) => format
                .string
                .push_str(&words.replace('{', "{{").replace('}', "}}")),
            Piece::Fact(fact) => {
                if !format.facts.contains(&fact.as_str()) {
                    format.facts.push(fact);
                }
                if !format.written.contains(&fact.as_str()) {
                    format.written.push(fact);
                }
                let _ = write!(format.string, "{{{fact}}}");
            }
            Piece::Counted { fact, one, other } => {
                if !format.facts.contains(&fact.as_str()) {
                    format.facts.push(fact);
                }
                if !format.counts.contains(&fact.as_str()) {
                    format.counts.push(fact);
                }
                let arg = format!("counted_{}", format.counted_args.len());
                let _ = write!(format.string, "{{{arg}}}");
                format.counted_args.push(format!(
                    "{arg} = if crate::lesson::sentences::Count::is_one(&self.{fact}) {{ {one:?} }} else {{ {other:?} }}"
                ));
            }
        }
    }
    format
}

fn write_struct(out: &mut String, file: &str, sentence: &Sentence, depth: usize) {
    let indent = "    ".repeat(depth);
    let key = sentence.path.join(".");
    let name = camel(sentence.path.last().expect("a sentence has a key"));
    let format = format_string(&sentence.pieces);
    let facts = &format.facts;
    // A fact's type is named after it, unless that would hide a name the impl uses.
    let kinds: Vec<String> = facts
        .iter()
        .map(|f| match camel(f) {
            kind if [name.as_str(), "Display", "Formatter"].contains(&kind.as_str()) => {
                format!("{kind}Fact")
            }
            kind => kind,
        })
        .collect();
    let generics = kinds.join(", ");
    let bounds: Vec<String> = facts
        .iter()
        .zip(&kinds)
        .map(|(fact, kind)| match format.counts.contains(fact) {
            true => format!("{kind}: Display + crate::lesson::sentences::Count"),
            false => format!("{kind}: Display"),
        })
        .collect();
    let mut args: Vec<String> = format
        .written
        .iter()
        .map(|f| format!("{f} = self.{f}"))
        .collect();
    args.extend(format.counted_args.iter().cloned());
    let _ = writeln!(out, "{indent}/// `{file}`, `{key}`.");
    let _ = writeln!(out, "{indent}pub struct {name}<{generics}> {{");
    for (fact, kind) in facts.iter().zip(&kinds) {
        let _ = writeln!(out, "{indent}    pub {fact}: {kind},");
    }
    let _ = writeln!(out, "{indent}}}\n");
    let _ = writeln!(
        out,
        "{indent}impl<{}> Display for {name}<{generics}> {{",
        bounds.join(", ")
    );
    let _ = writeln!(
        out,
        "{indent}    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {{"
    );
    let _ = writeln!(
        out,
        "{indent}        write!(f, {:?}, {})",
        format.string,
        args.join(", ")
    );
    let _ = writeln!(out, "{indent}    }}");
    let _ = writeln!(out, "{indent}}}");
}

/// `event_lines` → `EventLines`.
fn camel(name: &str) -> String {
    name.split(['_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The Rust keywords a TOML key might be.
const KEYWORDS: [&str; 16] = [
    "as", "box", "fn", "for", "if", "impl", "in", "loop", "match", "mod", "move", "ref", "self",
    "static", "type", "use",
];

/// A TOML key as a Rust identifier.
fn ident(name: &str) -> String {
    let name = name.replace('-', "_");
    if KEYWORDS.contains(&name.as_str()) {
        format!("r#{name}")
    } else {
        name
    }
}
