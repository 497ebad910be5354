//! Compiles `content/checks.toml` (the words of the four checks and of the checks panel)
//! into `$OUT_DIR/checks.rs`, one Rust expression of the shapes in `src/lesson/checks.rs`.
//! Unknown keys, a missing check and placeholders with no fact to fill them fail the build.

use serde::Deserialize;
use std::{env, fs, path::Path};

const SOURCE: &str = "content/checks.toml";

/// Declares a table of strings read from the TOML file and how it is written out as Rust.
macro_rules! texts {
    ($( $name:ident { $($field:ident),* $(,)? } )*) => {
        $(
            #[derive(Deserialize)]
            #[serde(deny_unknown_fields)]
            struct $name { $($field: String),* }

            impl $name {
                fn lit(&self) -> String {
                    let fields: Vec<String> =
                        vec![$(format!("{}: {:?}", stringify!($field), self.$field)),*];
                    format!("{} {{ {} }}", stringify!($name), fields.join(", "))
                }

                /// Every `{name}` in every string must be one of `facts`.
                fn check(&self, table: &str, facts: &[&str]) -> Result<(), String> {
                    $(placeholders(&self.$field, facts)
                        .map_err(|e| format!("{table}.{}: {e}", stringify!($field)))?;)*
                    Ok(())
                }
            }
        )*
    };
}

texts! {
    CheckText { title, explanation, prevention, not_applicable }
    PanelText {
        holding, not_applicable, broken, broken_times, prevented_by, go_to, counts_caption,
        compare_caption, measure, as_of, whole_run, this_run, no_failover,
    }
    CountLabels {
        renews_sent, renews_ok, renews_not_owner, renews_timed_out, renews_lost_on_wire, losses,
        false_losses, writes_accepted, writes_rejected, stale_accepted, max_failover,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckTexts {
    single_holder: CheckText,
    no_stale_accepted: CheckText,
    no_write_after_lost: CheckText,
    ordered_by_token: CheckText,
    panel: PanelText,
    counts: CountLabels,
}

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

pub fn compile() {
    println!("cargo:rerun-if-changed={SOURCE}");
    let text = fs::read_to_string(SOURCE).unwrap_or_else(|e| panic!("cannot read {SOURCE}: {e}"));
    let t: CheckTexts = toml::from_str(&text).unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
    let stale = ["at", "client", "token", "highest"];
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
        ("no_stale_accepted", &t.no_stale_accepted, &stale[..]),
        (
            "no_write_after_lost",
            &t.no_write_after_lost,
            &["at", "client", "token", "lost_at"][..],
        ),
        ("ordered_by_token", &t.ordered_by_token, &stale[..]),
    ];
    let mut fields = Vec::new();
    for (id, text, facts) in checks {
        text.check(id, facts)
            .unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
        fields.push(format!("{id}: {}", text.lit()));
    }
    t.panel
        .check("panel", &["at", "count", "now"])
        .and_then(|()| t.counts.check("counts", &[]))
        .unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
    fields.push(format!("panel: {}", t.panel.lit()));
    fields.push(format!("counts: {}", t.counts.lit()));
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("checks.rs");
    let expr = format!("CheckTexts {{ {} }}", fields.join(", "));
    fs::write(&out, expr).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
