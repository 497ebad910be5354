//! Compiles `content/checks.toml` (the words of the four checks) into `$OUT_DIR/checks.rs`,
//! one Rust expression of the shapes in `src/lesson/checks.rs`. Unknown keys, a missing
//! check and placeholders the check has no fact for fail the build.

use serde::Deserialize;
use std::{env, fs, path::Path};

const SOURCE: &str = "content/checks.toml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckText {
    title: String,
    explanation: String,
    prevention: String,
    not_applicable: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckTexts {
    single_holder: CheckText,
    no_stale_accepted: CheckText,
    no_write_after_lost: CheckText,
    ordered_by_token: CheckText,
}

impl CheckText {
    fn lit(&self) -> String {
        format!(
            "CheckText {{ title: {:?}, explanation: {:?}, prevention: {:?}, not_applicable: {:?} }}",
            self.title, self.explanation, self.prevention, self.not_applicable
        )
    }

    /// Every `{name}` in the explanation must be one of `facts` (or `at`).
    fn check(&self, id: &str, facts: &[&str]) -> Result<(), String> {
        let mut rest = self.explanation.as_str();
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let close = after
                .find('}')
                .ok_or_else(|| format!("{id}.explanation: an unclosed {{"))?;
            let name = &after[..close];
            if name != "at" && !facts.contains(&name) {
                return Err(format!(
                    "{id}.explanation: {{{name}}} is not a fact of this check (known: at, {})",
                    facts.join(", ")
                ));
            }
            rest = &after[close + 1..];
        }
        Ok(())
    }
}

pub fn compile() {
    println!("cargo:rerun-if-changed={SOURCE}");
    let text = fs::read_to_string(SOURCE).unwrap_or_else(|e| panic!("cannot read {SOURCE}: {e}"));
    let texts: CheckTexts = toml::from_str(&text).unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
    let stale = ["client", "token", "highest"];
    let checks = [
        (
            "single_holder",
            &texts.single_holder,
            &[
                "previous",
                "previous_token",
                "new",
                "new_token",
                "remaining",
            ][..],
        ),
        ("no_stale_accepted", &texts.no_stale_accepted, &stale[..]),
        (
            "no_write_after_lost",
            &texts.no_write_after_lost,
            &["client", "token", "lost_at"][..],
        ),
        ("ordered_by_token", &texts.ordered_by_token, &stale[..]),
    ];
    let mut fields = Vec::new();
    for (id, t, facts) in checks {
        if let Err(problem) = t.check(id, facts) {
            panic!("{SOURCE}: {problem}");
        }
        fields.push(format!("{id}: {}", t.lit()));
    }
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("checks.rs");
    let expr = format!("CheckTexts {{ {} }}", fields.join(", "));
    fs::write(&out, expr).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
