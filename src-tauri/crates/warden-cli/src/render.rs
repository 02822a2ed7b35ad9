//! Printing events: JSON lines (`--json`) or a human-readable transcript, coloured on a tty.

use std::io::{IsTerminal, Write};

use warden_protocol::{ApprovalPreview, Event, ToolStatus};

pub trait Render {
    fn event(&mut self, event: &Event);
}

/// `{"event": "<name>", "payload": {…}}` per line, flushed per line so pipes see events live.
pub struct JsonLines<W: Write> {
    out: W,
}

impl<W: Write> JsonLines<W> {
    pub fn new(out: W) -> Self {
        Self { out }
    }
}

impl<W: Write> Render for JsonLines<W> {
    fn event(&mut self, event: &Event) {
        // Serializing protocol types cannot fail (no maps with non-string keys, no NaN).
        if let Ok(line) = serde_json::to_string(event) {
            let _ = writeln!(self.out, "{line}");
            let _ = self.out.flush();
        }
    }
}

/// A transcript for people: text as it streams, one line per tool call and result.
pub struct Human<W: Write> {
    out: W,
    colour: bool,
    /// Whether the cursor sits after streamed text (so the next block starts on a new line).
    mid_line: bool,
}

impl Human<std::io::Stdout> {
    pub fn stdout() -> Self {
        let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        Self { out: std::io::stdout(), colour, mid_line: false }
    }
}

impl<W: Write> Human<W> {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    fn line(&mut self, text: &str) {
        if self.mid_line {
            let _ = writeln!(self.out);
            self.mid_line = false;
        }
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }
}

/// The one-line gist of a tool input: the path, command or query.
pub fn summary(input: &serde_json::Value) -> String {
    ["command", "path", "pattern", "query", "handle", "patch"]
        .iter()
        .find_map(|k| input.get(*k).and_then(|v| v.as_str()))
        .map(|s| {
            let first = s.lines().next().unwrap_or_default();
            if first.chars().count() > 100 {
                format!("{}…", first.chars().take(100).collect::<String>())
            } else {
                first.to_owned()
            }
        })
        .unwrap_or_default()
}

impl<W: Write> Render for Human<W> {
    fn event(&mut self, event: &Event) {
        match event {
            Event::StreamStart(_) => {}
            Event::TextDelta(e) => {
                let _ = write!(self.out, "{}", e.delta);
                let _ = self.out.flush();
                self.mid_line = !e.delta.ends_with('\n');
            }
            Event::ThinkingDelta(e) => {
                let text = self.paint("2", &e.delta);
                let _ = write!(self.out, "{text}");
                self.mid_line = !e.delta.ends_with('\n');
            }
            Event::ToolStart(e) => {
                let head = self.paint("1;36", &format!("● {}", e.tool_name));
                self.line(&format!("{head} {}", summary(&e.input)));
            }
            Event::ToolDelta(e) => {
                let text = self.paint("2", &e.chunk);
                let _ = write!(self.out, "{text}");
                self.mid_line = !e.chunk.ends_with('\n');
            }
            Event::ToolResult(e) => {
                let first = e.result.lines().next().unwrap_or_default().to_owned();
                let more = e.result.lines().count().saturating_sub(1);
                let tail = if more > 0 { format!(" (+{more} lines)") } else { String::new() };
                let text = match e.status {
                    ToolStatus::Success => self.paint("32", &format!("  ✓ {first}{tail}")),
                    ToolStatus::Error => self.paint("31", &format!("  ✗ {first}{tail}")),
                };
                self.line(&text);
            }
            Event::ToolConfirm(e) => {
                let what = match &e.preview {
                    Some(ApprovalPreview::Command { command, cwd }) => format!("run `{command}` in {cwd}"),
                    Some(ApprovalPreview::Diff { path, diff }) => format!("change {path}:\n{diff}"),
                    None => format!("{} {}", e.tool_name, summary(&e.input)),
                };
                let head = self.paint("1;33", "? approve");
                self.line(&format!("{head} {what}  [y/N, {} s]", e.timeout_secs));
            }
            Event::StreamEnd(e) => {
                if e.partial {
                    let text = self.paint("33", &format!("[stopped: {:?}]", e.stop_reason));
                    self.line(&text);
                } else if self.mid_line {
                    self.line("");
                }
            }
            Event::Error(e) => {
                let text = self.paint("31", &format!("error ({:?}): {}", e.code, e.message));
                self.line(&text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden_protocol::TextDelta;

    #[test]
    fn json_lines_use_protocol_names_and_camel_case() {
        let mut buf = Vec::new();
        JsonLines::new(&mut buf).event(&Event::TextDelta(TextDelta {
            conversation_id: "c".into(),
            message_id: "m".into(),
            delta: "hi".into(),
        }));
        let line: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(line["event"], "chat:text-delta");
        assert_eq!(line["payload"]["conversationId"], "c");
        assert_eq!(line["payload"]["delta"], "hi");
    }

    #[test]
    fn summary_picks_the_telling_field() {
        assert_eq!(summary(&serde_json::json!({"command": "ls -la\nmore"})), "ls -la");
        assert_eq!(summary(&serde_json::json!({"path": "src/main.rs"})), "src/main.rs");
        assert_eq!(summary(&serde_json::json!({})), "");
    }
}
