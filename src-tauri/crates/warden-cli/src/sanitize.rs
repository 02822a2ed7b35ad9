//! Text from the model, from tools and from commands is shown on a terminal, never obeyed by it.
//!
//! Every character a terminal could act on, or that could make text look like other text, is
//! printed as a visible escape: C0 controls (`\r`, `\x1b`, …), DEL, C1 controls (`\u{9b}`, the
//! one-byte CSI), bidi overrides and isolates (`\u{202e}`), zero-width characters and line
//! separators. Body text keeps its newlines and tabs; a single line keeps nothing.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must be shown escaped: what the one rule for untrusted text hides
/// (`warden_core::visible`, the window's list too). `\n` and `\t` pass only where `body` says so.
fn must_escape(c: char, body: bool) -> bool {
    match c {
        '\n' | '\t' => !body,
        c => warden_core::visible::is_hidden(c),
    }
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c if (c as u32) < 0x80 => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

fn escape(text: &str, body: bool, backslashes: bool) -> Cow<'_, str> {
    let needs = |c: char| must_escape(c, body) || (backslashes && c == '\\');
    if !text.chars().any(needs) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        // A CRLF line end in body text is just a line end.
        if body && c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if backslashes && c == '\\' {
            out.push_str("\\\\");
        } else if must_escape(c, body) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Body text (a message, a tool's output): newlines and tabs kept, every other control escaped.
pub fn body(text: &str) -> Cow<'_, str> {
    escape(text, true, false)
}

/// One line (a name, a path, a summary): newlines and tabs escaped too.
pub fn line(text: &str) -> Cow<'_, str> {
    escape(text, false, false)
}

/// Serialized JSON with every character a terminal could act on written as a `\uXXXX` escape.
/// serde_json escapes the C0 controls itself; DEL, the C1 controls, bidi and invisible characters
/// can only stand inside its strings, where the escape decodes to the same character (one past the
/// Basic Multilingual Plane, a tag character, as its UTF-16 surrogate pair).
pub fn json(serialized: &str) -> Cow<'_, str> {
    if !serialized.chars().any(|c| must_escape(c, false)) {
        return Cow::Borrowed(serialized);
    }
    let mut out = String::with_capacity(serialized.len() + 16);
    for c in serialized.chars() {
        if must_escape(c, false) {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `text` holds anything [`body`] would escape besides a CRLF.
pub fn has_controls(text: &str) -> bool {
    text.chars().any(|c| must_escape(c, true))
}

/// A command as the approval prompt shows it: exactly, on lines of its own (indented), with its
/// length. A command holding control characters is shown escaped with its backslashes doubled (so
/// `\x1b` written by the model cannot pass for an escape), and says so.
pub fn command_block(command: &str) -> String {
    let controls = has_controls(command);
    let lines = command.split('\n').count();
    let mut out = format!(
        "  command ({} characters, {} line{}):\n",
        command.chars().count(),
        lines,
        if lines == 1 { "" } else { "s" }
    );
    for text in command.split('\n') {
        let shown = if controls { escape(text, false, true) } else { Cow::Borrowed(text) };
        out.push_str("    ");
        out.push_str(&shown);
        out.push('\n');
    }
    if controls {
        out.push_str(
            "  ⚠ the command holds control or invisible characters, shown escaped (\\\\ is one backslash)\n",
        );
    }
    out
}

#[cfg(test)]
mod astral_tests {
    /// A tag character (past the Basic Multilingual Plane) in a JSON line is escaped as a surrogate
    /// pair, which a JSON reader decodes to the same character.
    #[test]
    fn a_hidden_character_past_the_bmp_stays_valid_json() {
        let line = serde_json::to_string(&serde_json::json!({"t": "tag\u{e0041}"})).unwrap();
        let escaped = super::json(&line);
        assert!(escaped.contains("\\udb40\\udc41"), "{escaped}");
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back["t"], "tag\u{e0041}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_sequences_are_shown_not_sent() {
        let forged = "ok\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J\r\x1b[2Kdone\u{9b}31m";
        let shown = body(forged);
        assert!(!shown.chars().any(|c| c.is_control() && c != '\n' && c != '\t'), "{shown:?}");
        assert_eq!(shown, "ok\\x1b]0;pwned\\x07\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\r\\x1b[2Kdone\\u{9b}31m");
    }

    #[test]
    fn body_keeps_lines_and_tabs_and_a_line_keeps_nothing() {
        assert_eq!(body("a\n\tb\r\nc\rd\x7f"), "a\n\tb\nc\\rd\\x7f");
        assert_eq!(line("a\n\tb\r\n"), "a\\n\\tb\\r\\n");
        assert!(matches!(body("plain text, émoji ✓"), Cow::Borrowed(_)));
        assert_eq!(body("C:\\path"), "C:\\path", "body text keeps its backslashes");
    }

    #[test]
    fn invisible_and_reordering_characters_are_named() {
        assert_eq!(
            line("a\u{202e}b\u{2066}c\u{200b}d\u{feff}e\u{2060}f\u{2028}"),
            "a\\u{202e}b\\u{2066}c\\u{200b}d\\u{feff}e\\u{2060}f\\u{2028}"
        );
        assert_eq!(body("\u{0}\u{1b}"), "\\x00\\x1b");
    }

    #[test]
    fn json_keeps_its_value_and_shows_nothing_a_terminal_acts_on() {
        let value = serde_json::json!({"name": "a\u{9b}31m\u{202e}b\u{7f}\x1b]52;c;x\x07", "n": 1});
        let line = json(&value.to_string()).into_owned();
        assert!(!line.chars().any(|c| must_escape(c, false)), "{line:?}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&line).unwrap_or_default(), value);
        assert!(matches!(json("{\"plain\":\"text ✓\"}"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_forged_command_shows_its_real_text() {
        let command = "rm -rf victim; exit 0 #\r\x1b[2Kls -la";
        let block = command_block(command);
        assert!(block.contains("    rm -rf victim; exit 0 #\\r\\x1b[2Kls -la\n"), "{block}");
        assert!(block.contains(&format!("({} characters, 1 line)", command.chars().count())));
        assert!(block.contains("⚠"));
        assert!(!block.contains('\r') && !block.contains('\x1b'));
        // A literal backslash-x cannot pass for an escape once something needed escaping.
        assert!(command_block("echo '\\x1b'\r").contains("echo '\\\\x1b'\\r"));
        // A plain command is shown as it is, each line on its own.
        let plain = command_block("cd src &&\ncargo test 'a\\.b'");
        assert_eq!(plain, "  command (27 characters, 2 lines):\n    cd src &&\n    cargo test 'a\\.b'\n");
    }
}
