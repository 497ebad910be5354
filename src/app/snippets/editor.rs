//! The code editor of a snippet: CodeMirror once its bundle has loaded, a plain textarea
//! until then (and for good if it never loads). Either way it shows `code` and reports edits.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::bridge::{create_editor, EditorHandle};
use super::SnippetLanguage;

#[derive(Properties, PartialEq)]
pub struct EditorHostProps {
    pub language: SnippetLanguage,
    pub code: String,
    /// Called with the whole new text after each edit.
    pub on_edit: Callback<String>,
}

#[component]
pub fn EditorHost(props: &EditorHostProps) -> Html {
    let language = props.language;
    let host = use_node_ref();
    let editor = use_state(|| None::<EditorHandle>);
    // The newest text typed into CodeMirror; kept as state, so the newest `on_edit` gets it.
    let typed = use_state(|| None::<String>);
    use_mounted_editor(language, host.clone(), props.code.clone(), &editor, &typed);
    {
        let on_edit = props.on_edit.clone();
        use_effect_with((*typed).clone(), move |typed| {
            if let Some(code) = typed {
                on_edit.emit(code.clone());
            }
        });
    }
    // The editor follows `code` (a reset, a link, or text typed into the textarea meanwhile);
    // the editor ignores text it already shows.
    {
        let shown = (*editor).clone();
        use_effect_with((props.code.clone(), shown.is_some()), move |(code, _)| {
            if let Some(handle) = shown {
                handle.set_text(code);
            }
        });
    }
    let on_input = props.on_edit.reform(|event: InputEvent| {
        event
            .target_dyn_into::<HtmlTextAreaElement>()
            .map(|textarea| textarea.value())
            .unwrap_or_default()
    });
    let id = format!("snippet-{}-code", language.id());
    html! {
        <div class="snippet-editor">
            <div class="snippet-editor-host" ref={host}></div>
            if editor.is_none() {
                <label class="visually-hidden" for={id.clone()}>
                    {language.code_label()}
                </label>
                <textarea {id} class="snippet-textarea" spellcheck="false" rows="20"
                    value={props.code.clone()} oninput={on_input} />
            }
        </div>
    }
}

/// What the mounting effect owns, so its clean-up can destroy what a late load produced.
#[derive(Default)]
struct Mount {
    unmounted: bool,
    handle: Option<EditorHandle>,
}

/// Mounts CodeMirror once, and destroys it with the component.
#[hook]
fn use_mounted_editor(
    language: SnippetLanguage,
    host: NodeRef,
    code: String,
    editor: &UseStateHandle<Option<EditorHandle>>,
    typed: &UseStateHandle<Option<String>>,
) {
    let show = editor.setter();
    let report = typed.setter();
    use_effect_with((), move |_| {
        let mount = Rc::new(RefCell::new(Mount::default()));
        if let Some(host) = host.cast::<HtmlElement>() {
            let mount = mount.clone();
            spawn_local(async move {
                let on_change = move |code: String| report.set(Some(code));
                // Without the editor bundle the accessible textarea simply stays.
                let Ok(handle) = create_editor(host, language, &code, on_change).await else {
                    return;
                };
                let mut mount = mount.borrow_mut();
                if mount.unmounted {
                    handle.destroy();
                } else {
                    mount.handle = Some(handle.clone());
                    show.set(Some(handle));
                }
            });
        }
        move || {
            let mut mount = mount.borrow_mut();
            mount.unmounted = true;
            if let Some(handle) = mount.handle.take() {
                handle.destroy();
            }
        }
    });
}
