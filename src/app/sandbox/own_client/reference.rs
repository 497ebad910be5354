//! The calls a learner's client receives and makes, in the chosen language: a table folded
//! under the code's printed output and errors, from `content/sandbox.toml`.

use yew::prelude::*;

use crate::app::snippets::SnippetLanguage;
use crate::lesson::content::{ClientCall, SANDBOX};

#[derive(Properties, PartialEq)]
pub struct ClientReferenceProps {
    pub language: SnippetLanguage,
}

#[component]
pub fn ClientReference(props: &ClientReferenceProps) -> Html {
    let words = &SANDBOX.own_client.reference;
    let language = props.language;
    let row = |call: &ClientCall| {
        let name = match language {
            SnippetLanguage::Python => call.python,
            SnippetLanguage::TypeScript => call.typescript,
        };
        html! {
            <tr><th scope="row"><code>{name}</code></th><td>{call.meaning}</td></tr>
        }
    };
    html! {
        <details class="client-reference">
            <summary>{words.heading}</summary>
            <p class="muted">{words.intro}</p>
            <div class="table-wrap">
                <table>
                    <thead>
                        <tr><th scope="col">{words.call}</th><th scope="col">{words.meaning}</th></tr>
                    </thead>
                    <tbody>{ for words.rows.iter().map(row) }</tbody>
                </table>
            </div>
        </details>
    }
}
