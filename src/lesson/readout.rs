//! Turning page text into the utterances the voice readout speaks.
//!
//! Pure text handling: the speech component collects the open tab's blocks in reading order
//! and speaks each block sentence by sentence, so the highlight follows closely.

/// Collapses runs of whitespace into single spaces and trims the ends.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Splits a block of text into sentences: a sentence ends at `.`, `?` or `!` followed by
/// a space. Dots inside words (`time.monotonic`) do not end a sentence.
pub fn sentences(text: &str) -> Vec<String> {
    let text = normalize(text);
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'?' | b'!') && bytes.get(i + 1) == Some(&b' ') {
            out.push(text[start..=i].to_owned());
            start = i + 2;
        }
    }
    if start < text.len() {
        out.push(text[start..].to_owned());
    }
    out
}

/// A table row read aloud: the cells joined as a list, each cell in turn.
pub fn row_sentence(cells: &[String]) -> String {
    let cells: Vec<String> = cells
        .iter()
        .map(|c| normalize(c))
        .filter(|c| !c.is_empty())
        .collect();
    cells.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_split_at_terminal_punctuation_only() {
        assert_eq!(
            sentences("  Use time.monotonic here.  Why? Because!\nDone"),
            vec!["Use time.monotonic here.", "Why?", "Because!", "Done"]
        );
        assert_eq!(sentences("   "), Vec::<String>::new());
        assert_eq!(
            sentences("T/3 gives three chances."),
            vec!["T/3 gives three chances."]
        );
    }

    #[test]
    fn rows_read_their_cells_in_order() {
        let cells = vec![
            "Meaning".to_owned(),
            " Hint\n to renew ".to_owned(),
            String::new(),
        ];
        assert_eq!(row_sentence(&cells), "Meaning; Hint to renew");
    }
}
