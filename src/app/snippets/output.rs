//! A snippet's output console: what the run printed, and its errors, as plain text.

use yew::prelude::*;
use yew::virtual_dom::VText;

use super::state::OutputText;
use super::SnippetLanguage;
use crate::lesson::content::SANDBOX;

#[derive(Properties, PartialEq)]
pub struct OutputConsoleProps {
    pub language: SnippetLanguage,
    pub stdout: OutputText,
    pub stderr: OutputText,
}

#[component]
pub fn OutputConsole(props: &OutputConsoleProps) -> Html {
    let language = props.language.id();
    let stream = |part: &str, title: &str, empty: &str, text: &OutputText| {
        let heading = format!("snippet-{language}-{part}-heading");
        html! {
            <>
                <h4 id={heading.clone()}>{title.to_owned()}</h4>
                // Text nodes only: whatever the code prints is never read as HTML.
                // An empty console says so in its `data-empty` words (the style sheet shows them).
                <pre class={format!("snippet-{part}")} role="region" tabindex="0" data-empty={empty.to_owned()}
                    aria-labelledby={format!("snippet-{language}-heading {heading}")}>
                    { for text.pieces().map(|piece| Html::from(VText::new(piece.clone()))) }
                </pre>
            </>
        }
    };
    html! {
        <>
            {stream("stdout", SANDBOX.snippets.output, SANDBOX.snippets.output_empty, &props.stdout)}
            {stream("stderr", SANDBOX.snippets.errors, SANDBOX.snippets.errors_empty, &props.stderr)}
        </>
    }
}
