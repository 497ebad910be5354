//! Mermaid text for the three lesson diagrams, and for any run's message sequence.
//!
//! Pure string building, tested natively on exact output. Every piece of lesson text goes
//! through [`escape`], because Mermaid 12 misreads some characters without complaint: `;`
//! splits a statement, `#` truncates a sequence message, and quotes, brackets and pipes
//! break flowchart labels. Those become Mermaid entity codes (`#59;`, `#35;`, `#quot;`).

use super::content::{ArchEdge, ArchNode, LeaseState, LESSON};

/// Replaces every character Mermaid could misread with its entity code, and line breaks
/// with spaces, so a label always stays one label on one line.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => out.push_str("#35;"),
            ';' => out.push_str("#59;"),
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '|' => out.push_str("#124;"),
            '[' => out.push_str("#91;"),
            ']' => out.push_str("#93;"),
            '{' => out.push_str("#123;"),
            '}' => out.push_str("#125;"),
            '(' => out.push_str("#40;"),
            ')' => out.push_str("#41;"),
            '%' => out.push_str("#37;"),
            '\r' | '\n' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A Mermaid identifier made from `name`: ASCII letters, digits and `_` only, never empty
/// and never starting with a digit.
pub fn identifier(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert(0, 'n');
    }
    id
}

/// The architecture diagram as a flowchart.
pub fn architecture_flowchart() -> String {
    let mut out = String::from("flowchart LR\n");
    for node in ArchNode::ALL {
        out.push_str(&format!(
            "  {}[\"{}\"]\n",
            node.slug(),
            escape(&node.title())
        ));
    }
    for edge in ArchEdge::ALL {
        let text = edge.text();
        out.push_str(&format!(
            "  {} -->|\"{}\"| {}\n",
            text.from.slug(),
            escape(text.label),
            text.to.slug()
        ));
    }
    out
}

/// The lease lifecycle as a state diagram, with its start and its two ends.
pub fn lifecycle_state_diagram() -> String {
    let mut out = String::from("stateDiagram-v2\n");
    for state in LeaseState::ALL {
        let text = state.text();
        out.push_str(&format!(
            "  state \"{} {}\" as {}\n",
            escape(text.number),
            escape(text.label),
            state.slug()
        ));
    }
    out.push_str(&format!("  [*] --> {}\n", LeaseState::Acquiring.slug()));
    for t in LESSON.lifecycle.transitions {
        out.push_str(&format!(
            "  {} --> {} : {}\n",
            t.from.slug(),
            t.to.slug(),
            escape(t.label)
        ));
    }
    for end in [LeaseState::Lost, LeaseState::Releasing] {
        out.push_str(&format!("  {} --> [*]\n", end.slug()));
    }
    out
}

/// One arrow of a sequence diagram: indexes into the participants, and the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceArrow<'a> {
    pub from: usize,
    pub to: usize,
    pub label: &'a str,
}

/// A sequence diagram. `participants` are (identifier, shown name) pairs; arrows whose
/// ends are not participants are skipped rather than producing broken text.
pub fn sequence_diagram(participants: &[(&str, &str)], arrows: &[SequenceArrow]) -> String {
    let ids: Vec<String> = participants.iter().map(|(id, _)| identifier(id)).collect();
    let mut out = String::from("sequenceDiagram\n");
    for (id, (_, name)) in ids.iter().zip(participants) {
        out.push_str(&format!("  participant {id} as {}\n", escape(name)));
    }
    for arrow in arrows {
        let (Some(from), Some(to)) = (ids.get(arrow.from), ids.get(arrow.to)) else {
            continue;
        };
        out.push_str(&format!("  {from}->>{to}: {}\n", escape(arrow.label)));
    }
    out
}

/// The lesson's heartbeat sequence: acquire, renew, OK, renew, FAIL, cancel.
pub fn heartbeat_sequence() -> String {
    let titles: Vec<(ArchNode, String)> = ArchNode::ALL.iter().map(|&n| (n, n.title())).collect();
    let participants: Vec<(&str, &str)> = titles
        .iter()
        .map(|(n, title)| (n.slug(), title.as_str()))
        .collect();
    let index = |node: ArchNode| ArchNode::ALL.iter().position(|&n| n == node).unwrap_or(0);
    let arrows: Vec<SequenceArrow> = LESSON
        .sequence
        .messages
        .iter()
        .map(|m| SequenceArrow {
            from: index(m.from),
            to: index(m.to),
            label: m.label,
        })
        .collect();
    sequence_diagram(&participants, &arrows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mermaid_traps_become_entity_codes() {
        assert_eq!(escape("a;b#c\"d"), "a#59;b#35;c#quot;d");
        assert_eq!(
            escape("f(x) [y] {z} |w| <v> 5%"),
            "f#40;x#41; #91;y#93; #123;z#125; #124;w#124; #lt;v#gt; 5#37;"
        );
        assert_eq!(escape("two\nlines"), "two lines");
        assert_eq!(escape("acquire TTL=30s — ok"), "acquire TTL=30s — ok");
    }

    #[test]
    fn identifiers_are_plain_ascii() {
        assert_eq!(identifier("lock service"), "lock_service");
        assert_eq!(identifier("1st"), "n1st");
        assert_eq!(identifier(""), "n");
        assert_eq!(identifier("A→B"), "A_B");
    }

    #[test]
    fn arrows_to_unknown_participants_are_skipped() {
        let text = sequence_diagram(
            &[("a", "A; one"), ("b", "B")],
            &[
                SequenceArrow {
                    from: 0,
                    to: 1,
                    label: "x#1",
                },
                SequenceArrow {
                    from: 0,
                    to: 7,
                    label: "lost",
                },
            ],
        );
        assert_eq!(
            text,
            "sequenceDiagram\n  participant a as A#59; one\n  participant b as B\n  a->>b: x#35;1\n"
        );
    }
}
