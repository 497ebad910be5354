// The snippet editor: CodeMirror 6 with only what a short snippet needs. tools/vendor.mjs
// bundles this file with its imports into www/vendor/editor.js, which the page imports lazily.
import { EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { javascript } from "@codemirror/lang-javascript";

const languageSupport = {
  python: () => [python(), indentUnit.of("    ")],
  typescript: () => [javascript({ typescript: true }), indentUnit.of("  ")],
};

/**
 * Mounts an editor into `host` and returns a small handle.
 * Tab indents; Escape then Tab moves focus on, so keyboard users are never trapped.
 */
export function createEditor(host, language, doc, label, onChange) {
  const view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        drawSelection(),
        history(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(defaultHighlightStyle),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        languageSupport[language](),
        EditorView.contentAttributes.of({ "aria-label": label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    setText(text) {
      if (text === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    destroy() {
      view.destroy();
    },
  };
}
