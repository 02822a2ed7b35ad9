//! The one rule for untrusted text shown to a person — a command, a path, a tool's or a
//! conversation's name, from the model, a tool, a server or a file: every character that would
//! make what is shown differ from what it is (controls, bidi overrides and isolates, zero-width and
//! other invisible characters) is shown as a visible escape, never applied and never removed.
//!
//! The list is `hidden_chars.json`, which the window reads too (`src/shared/hiddenChars.ts`);
//! both are tested against its cases.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::LazyLock;

#[derive(serde::Deserialize)]
struct Rule {
    /// Inclusive ranges of code points.
    hidden: Vec<(u32, u32)>,
    /// Characters that are layout (newline, tab) and pass where text keeps its lines.
    layout: Vec<u32>,
}

/// The list, as `hidden_chars.json` gives it. Should the file not parse (a test proves it does),
/// everything but printable ASCII is hidden: the rule fails closed.
static RULE: LazyLock<Rule> = LazyLock::new(|| {
    serde_json::from_str(include_str!("hidden_chars.json"))
        .unwrap_or_else(|_| Rule { hidden: vec![(0, 0x1f), (0x7f, u32::MAX)], layout: vec![0x09, 0x0a] })
});

/// Whether `c` must be shown as an escape. Newline and tab are layout and pass.
pub fn is_hidden(c: char) -> bool {
    let cp = c as u32;
    // Printable ASCII, almost every character of every line: no list to walk (the CLI asks this
    // of each character it prints).
    if (0x20..0x7f).contains(&cp) {
        return false;
    }
    if RULE.layout.contains(&cp) {
        return false;
    }
    RULE.hidden.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// `text` with every hidden character shown as its escape, `⟨U+202E⟩`.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_hidden(c) {
            let _ = write!(out, "⟨U+{:04X}⟩", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Fixture {
        hidden: Vec<(u32, u32)>,
        cases: Vec<Case>,
    }

    #[derive(serde::Deserialize)]
    struct Case {
        text: String,
        shown: String,
    }

    fn fixture() -> Fixture {
        serde_json::from_str(include_str!("hidden_chars.json")).unwrap()
    }

    #[test]
    fn the_list_parses_and_is_the_one_in_use() {
        assert_eq!(RULE.hidden, fixture().hidden, "the rule fell back: hidden_chars.json does not parse");
    }

    #[test]
    fn every_shared_case_is_shown_as_the_fixture_says() {
        for case in fixture().cases {
            assert_eq!(shown(&case.text), case.shown, "{:?}", case.text);
        }
    }

    #[test]
    fn bidi_controls_zero_width_and_c1_are_hidden_and_letters_are_not() {
        for c in ['\u{202e}', '\u{2066}', '\u{200b}', '\u{9b}', '\u{1b}', '\u{7f}', '\u{feff}', '\u{e0041}'] {
            assert!(is_hidden(c), "{:04X}", c as u32);
        }
        for c in ['a', 'é', '日', 'م', '☕', '\n', '\t', ' '] {
            assert!(!is_hidden(c), "{:04X}", c as u32);
        }
    }
}
