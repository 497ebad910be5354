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
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { python } from "@codemirror/lang-python";
import { javascript } from "@codemirror/lang-javascript";

// Colours are CSS variables (www/snippets/snippets.css), so they follow the light or dark theme.
const highlightStyle = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.controlKeyword], color: "var(--syntax-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--syntax-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--syntax-number)" },
  { tag: tags.comment, color: "var(--syntax-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.definition(tags.variableName)], color: "var(--syntax-name)" },
  { tag: [tags.typeName, tags.className], color: "var(--syntax-type)" },
]);

const theme = EditorView.theme({
  "&": { color: "var(--text)", backgroundColor: "var(--code-bg)" },
  ".cm-content": { caretColor: "var(--text)" },
  ".cm-gutters": { color: "var(--muted)", backgroundColor: "var(--surface-2)", border: "none" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--accent) 8%, transparent)" },
  // A clear focus ring, as every other control on the page has (CodeMirror's own is a faint
  // dotted line).
  "&.cm-focused": { outline: "3px solid var(--focus)", outlineOffset: "2px" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground": {
    backgroundColor: "color-mix(in srgb, var(--accent) 25%, transparent)",
  },
});

const languageSupport = {
  python: () => [python(), indentUnit.of("    ")],
  typescript: () => [javascript({ typescript: true }), indentUnit.of("  ")],
};

// Transactions that come from the learner typing, deleting, pasting or dropping text.
const TYPED = ["input", "delete"];

/**
 * Mounts an editor into `host` and returns a small handle.
 *
 * Tab never traps a keyboard user (WCAG 2.1.2). Arriving in the editor, Tab and Shift-Tab move
 * focus on, as everywhere else on the page. Once the learner types, Tab indents; Escape makes
 * Tab move focus on again, until the next edit. `keys.moves` and `keys.indents` say which holds;
 * the one in force is shown under the editor while it has focus, and is its description.
 */
export function createEditor(host, language, doc, label, keys, onChange) {
  const hint = document.createElement("p");
  hint.className = "snippet-keys";
  hint.id = `snippet-${language}-keys`;
  let view;
  const tabMoves = (moves) => {
    view.setTabFocusMode(moves);
    hint.textContent = moves ? keys.moves : keys.indents;
  };
  view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        drawSelection(),
        EditorView.lineWrapping,
        history(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(highlightStyle),
        theme,
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        languageSupport[language](),
        // tabindex lets axe and keyboard users see the scrolling editor as focusable.
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0", "aria-describedby": hint.id }),
        EditorView.domEventHandlers({
          focus: () => tabMoves(true),
          keydown: (event) => {
            if (event.key === "Escape") tabMoves(true);
          },
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          if (update.transactions.some((tr) => TYPED.some((event) => tr.isUserEvent(event)))) tabMoves(false);
          onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  host.appendChild(hint);
  tabMoves(true);
  return {
    setText(text) {
      if (text === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    destroy() {
      view.destroy();
      hint.remove();
    },
  };
}
