//! `build/sentences.rs`, the generator of the typed sentences, on small TOML snippets: a
//! failing build cannot be a test, so these run the generator's own functions.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../build/sentences.rs"]
mod sentences;

use sentences::{pieces, sentence_module, take_sentences, Piece};

fn taken(toml_text: &str) -> Result<(toml::Table, String), String> {
    let mut table: toml::Table = toml::from_str(toml_text).expect("the snippet is TOML");
    let found = take_sentences("content/demo.toml", &mut table)?;
    Ok((table, sentence_module("content/demo.toml", "demo", &found)))
}

#[test]
fn a_sentence_becomes_a_struct_with_one_field_per_placeholder_and_leaves_the_shape() {
    let (rest, rust) = taken(
        r#"
        [event_lines]
        heading = "Events"
        granted = "{client} got token {token}; {client} holds it"
        "#,
    )
    .unwrap();
    assert_eq!(rest["event_lines"].as_table().unwrap().len(), 1);
    assert!(rest["event_lines"].get("heading").is_some());
    assert!(rust.contains("/// `content/demo.toml`, `event_lines.granted`."));
    assert!(rust.contains("pub struct Granted<Client, Token> {"));
    assert!(rust.contains("pub client: Client,\n"));
    assert!(rust.contains("pub token: Token,\n"));
    assert_eq!(
        rust.matches("pub client").count(),
        1,
        "a repeated fact is one field"
    );
    assert!(rust.contains(
        r#"write!(f, "{client} got token {token}; {client} holds it", client = self.client, token = self.token)"#
    ));
}

/// A misspelt placeholder becomes a misspelt field, so every call naming the right one fails
/// to compile (see the `compile_fail` example in `src/lesson/sentences.rs`); here, that the
/// struct carries the TOML's spelling and no other.
#[test]
fn a_misspelt_placeholder_is_the_only_field_its_struct_has() {
    let (_, rust) = taken("[story]\ngranted = \"At {at} client {clinet} acquired it.\"").unwrap();
    assert!(rust.contains("pub struct Granted<At, Clinet> {"));
    assert!(rust.contains("pub clinet: Clinet,"));
    assert!(!rust.contains("pub client"));
}

#[test]
fn a_malformed_placeholder_fails_naming_the_file_and_the_key() {
    for bad in ["{Client}", "{to ken}", "{}", "{type}", "{client"] {
        let snippet = format!("[story]\ngranted = \"At {{at}} {bad} acquired it.\"");
        let error = taken(&snippet).unwrap_err();
        assert!(
            error.starts_with("content/demo.toml: story.granted: "),
            "{bad}: {error}"
        );
    }
}

#[test]
fn a_placeholder_in_a_list_fails_naming_the_file_and_the_key() {
    let error = taken("[[challenges]]\ntitle = \"Beat {who}\"").unwrap_err();
    assert!(
        error.starts_with("content/demo.toml: challenges: "),
        "{error}"
    );
    assert!(taken("[[challenges]]\ntitle = \"Beat it\"").is_ok());
}

#[test]
fn a_fact_named_like_its_struct_or_the_trait_keeps_both_apart() {
    let (_, rust) = taken("[names]\nstep = \"Step {step}: {display}\"").unwrap();
    assert!(rust.contains("pub struct Step<StepFact, DisplayFact> {"));
    assert!(rust.contains("pub step: StepFact,"));
    assert!(rust.contains("impl<StepFact: Display, DisplayFact: Display> Display for Step<"));
}

#[test]
fn words_around_placeholders_keep_every_byte() {
    assert_eq!(
        pieces("a “{b}” c}").unwrap(),
        [
            Piece::Words("a “".into()),
            Piece::Fact("b".into()),
            Piece::Words("” c}".into()),
        ]
    );
    let (_, rust) = taken("[x]\ny = \"{b}} and \\\"{c}\\\"\"").unwrap();
    assert!(rust.contains(r#"write!(f, "{b}}} and \"{c}\"", b = self.b, c = self.c)"#));
}
