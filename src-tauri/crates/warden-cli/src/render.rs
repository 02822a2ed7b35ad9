//! Printing events: JSON lines (`--json`) or a human-readable transcript, coloured on a tty. The
//! transcript prints nothing raw: model text, tool output, names and commands go through
//! [`crate::sanitize`], so no escape sequence from them reaches the terminal.

use std::io::Write;

use warden_core::shell::read_only::READ_ONLY_MEANS;
use warden_protocol::{ApprovalPreview, Event, SuggestedRule, TodoState, ToolStatus};

use crate::{legacy_keys, sanitize, say};

pub trait Render {
    fn event(&mut self, event: &Event);
    /// Write out what is buffered. Called whenever no event is waiting, before an approval is
    /// waited for, and at the end: a script sees every event promptly without a system call each.
    fn flush(&mut self) {}
}

/// `{"event": "<name>", "payload": {…}}` per line, buffered: one `write` carries every event that
/// arrived together (a 60,000-delta stream made 50,000 writes when each line was flushed).
pub struct JsonLines<W: Write> {
    out: std::io::BufWriter<W>,
}

impl<W: Write> JsonLines<W> {
    pub fn new(out: W) -> Self {
        Self { out: std::io::BufWriter::with_capacity(64 * 1024, out) }
    }
}

impl<W: Write> Render for JsonLines<W> {
    fn event(&mut self, event: &Event) {
        let with_old_keys;
        let event = match event {
            Event::ToolResult(result) => {
                with_old_keys = Event::ToolResult(legacy_keys::with_legacy_keys(result));
                &with_old_keys
            }
            _ => event,
        };
        // Serializing protocol types cannot fail (no maps with non-string keys, no NaN). What a
        // terminal could act on goes out as `\uXXXX` (the same string to a JSON reader).
        if let Ok(line) = serde_json::to_string(event) {
            let _ = self.out.write_all(sanitize::json(&line).as_bytes());
            let _ = self.out.write_all(b"\n");
        }
    }

    fn flush(&mut self) {
        let _ = self.out.flush();
    }
}

impl<W: Write> Drop for JsonLines<W> {
    fn drop(&mut self) {
        let _ = self.out.flush();
    }
}

/// A transcript for people: text as it streams, one line per tool call and result. Notices (how
/// the answer is produced, not part of it) go to `notes`, dim, so the transcript stays the answer.
pub struct Human<W: Write> {
    out: W,
    colour: bool,
    /// Whether the cursor sits after streamed text (so the next block starts on a new line).
    mid_line: bool,
    notes: Box<dyn Write + Send>,
    notes_colour: bool,
}

impl Human<std::io::Stdout> {
    pub fn stdout() -> Self {
        let no_colour = std::env::var_os("NO_COLOR").is_some();
        let colour = say::stdout_is_terminal() && !no_colour;
        let notes_colour = say::stderr_is_terminal() && !no_colour;
        Self {
            out: say::renderer_stdout(),
            colour,
            mid_line: false,
            notes: Box::new(say::renderer_stderr()),
            notes_colour,
        }
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

    /// A question: the tool or host, what it is about, why it asks, the rule "always" would keep.
    fn confirm(&mut self, e: &warden_protocol::ToolConfirm) {
        let head = self.paint("1;33", &confirm_head(e));
        let mut what = confirm_text(e);
        if let Some(reason) = &e.reason {
            what.push_str(&format!("  why it asks: {}\n", sanitize::line(reason)));
        } else if let Some(step) = e.asked_because {
            what.push_str(&format!("  why it asks: {}\n", step.words()));
        }
        let limit = match e.timeout_secs {
            0 => String::new(),
            secs => format!(", {secs} s"),
        };
        // "Always" saves the rule shown, for this project.
        let always = match &e.suggested_rule {
            Some(rule) => {
                let (shown, means) = offered_rule(rule);
                what.push_str(&format!("  a = always allow, for this project: {shown}\n"));
                if let Some(means) = means {
                    what.push_str(&format!("      ({means}: `warden rules add` keeps that one instead)\n"));
                }
                "/a"
            }
            None => "",
        };
        let ask = self.paint("1;33", &format!("  approve? [y/N{always}{limit}]"));
        self.line(&format!("{head}\n{what}{ask}"));
    }
}

/// A rule "Always allow…" offers, as a line (`bash: cargo test *`), and for a class of commands
/// what the class means and the narrower rule beside it; both safe to print.
pub fn offered_rule(rule: &SuggestedRule) -> (String, Option<String>) {
    let pattern = rule.pattern.as_deref().map(|p| format!(": {p}")).unwrap_or_default();
    let means = rule.narrower.as_deref().map(|narrower| format!("{READ_ONLY_MEANS}; narrower: {narrower}"));
    (
        sanitize::line(&format!("{}{pattern}", rule.tool)).into_owned(),
        means.map(|m| sanitize::line(&m).into_owned()),
    )
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

impl<W: Write> Human<W> {
    /// The model's task list, whole: a count, then one line per task with its mark.
    fn todo(&mut self, items: &[warden_protocol::TodoItem]) {
        let done = items.iter().filter(|i| i.state == TodoState::Done).count();
        let head = self.paint("1", &format!("Tasks ({done} of {} done):", items.len()));
        self.line(&head);
        for item in items {
            let mark = match item.state {
                TodoState::Pending => "[ ]",
                TodoState::InProgress => "[>]",
                TodoState::Done => "[x]",
            };
            self.line(&format!("  {mark} {}", sanitize::line(&item.text)));
        }
    }
}

impl<W: Write> Render for Human<W> {
    fn event(&mut self, event: &Event) {
        match event {
            Event::StreamStart(_) => {}
            Event::TextDelta(e) => {
                let _ = write!(self.out, "{}", sanitize::body(&e.delta));
                let _ = self.out.flush();
                self.mid_line = !e.delta.ends_with('\n');
            }
            Event::ThinkingDelta(e) => {
                let text = self.paint("2", &sanitize::body(&e.delta));
                let _ = write!(self.out, "{text}");
                self.mid_line = !e.delta.ends_with('\n');
            }
            Event::ToolStart(e) => {
                let head = self.paint("1;36", &format!("● {}", sanitize::line(&e.tool_name)));
                self.line(&format!("{head} {}", sanitize::line(&summary(&e.input))));
            }
            Event::ToolDelta(e) => {
                let text = self.paint("2", &sanitize::body(&e.chunk));
                let _ = write!(self.out, "{text}");
                self.mid_line = !e.chunk.ends_with('\n');
            }
            Event::ToolResult(e) => {
                let first = sanitize::line(e.result.lines().next().unwrap_or_default()).into_owned();
                let more = e.result.lines().count().saturating_sub(1);
                let tail = if more > 0 { format!(" (+{more} lines)") } else { String::new() };
                let text = match e.status {
                    ToolStatus::Success => self.paint("32", &format!("  ✓ {first}{tail}")),
                    ToolStatus::Error => self.paint("31", &format!("  ✗ {first}{tail}")),
                };
                self.line(&text);
            }
            Event::ToolConfirm(e) => self.confirm(e),
            Event::StreamEnd(e) => {
                if e.partial {
                    let text = self.paint("33", &format!("[stopped: {:?}]", e.stop_reason));
                    self.line(&text);
                } else if self.mid_line {
                    self.line("");
                }
            }
            Event::Error(e) => {
                // While the engine retries by itself the message has no countdown: say when here.
                let again = e
                    .retry_after_secs
                    .filter(|_| e.retrying)
                    .map(|s| format!(" Retrying in {s} s."))
                    .unwrap_or_default();
                let text =
                    self.paint("31", &format!("error ({:?}): {}{again}", e.code, sanitize::body(&e.message)));
                self.line(&text);
            }
            Event::Compacted(e) => {
                let text = format!(
                    "note: the older part of the conversation ({} messages) was summarized for the model: \
                     {} → {} tokens",
                    e.summarized_messages, e.tokens_before, e.tokens_after
                );
                let text = if self.notes_colour { format!("\x1b[2m{text}\x1b[0m") } else { text };
                let _ = writeln!(self.notes, "{text}");
                let _ = self.notes.flush();
            }
            Event::Saving(e) => {
                let text = if e.saved {
                    "warden: this conversation is saved again".to_owned()
                } else {
                    let why = e.reason.as_deref().unwrap_or("the conversation store failed");
                    format!("warden: this conversation is not being saved: {}", sanitize::line(why))
                };
                let text = if self.notes_colour { format!("\x1b[33m{text}\x1b[0m") } else { text };
                let _ = writeln!(self.notes, "{text}");
                let _ = self.notes.flush();
            }
            Event::Todo(e) => self.todo(&e.items),
            Event::Snapshot(e) => self.dim_note(&snapshot_line(e)),
            Event::Notice(e) => self.dim_note(&format!("note: {}", sanitize::line(&e.text))),
            Event::Plan(e) => self.plan(e),
            Event::Hook(e) => self.hook(e),
        }
    }
}

impl<W: Write> Human<W> {
    /// The plan a plan-mode turn ended with: its text, then its numbered steps.
    fn plan(&mut self, plan: &warden_protocol::PlanProposed) {
        let head = self.paint("1", "Plan:");
        self.line(&head);
        for line in plan.plan.lines() {
            self.line(&format!("  {}", sanitize::line(line)));
        }
        for (n, step) in plan.steps.iter().enumerate() {
            self.line(&format!("  {}. {}", n + 1, sanitize::line(step)));
        }
    }

    /// A hook ran: a note with its event, origin, command and what it decided.
    fn hook(&mut self, run: &warden_protocol::HookRun) {
        let place = if run.contained { "" } else { ", outside the box" };
        self.dim_note(&format!(
            "hook {} ({}{place}): {} — {}",
            run.hook_event,
            run.origin,
            sanitize::line(&run.command),
            sanitize::line(&run.outcome)
        ));
    }

    /// A line for the notes stream, dim on a terminal.
    fn dim_note(&mut self, text: &str) {
        if self.notes_colour {
            let _ = writeln!(self.notes, "\x1b[2m{text}\x1b[0m");
        } else {
            let _ = writeln!(self.notes, "{text}");
        }
        let _ = self.notes.flush();
    }
}

/// A line for the first look at the project's files.
fn snapshot_line(progress: &warden_protocol::SnapshotProgress) -> String {
    let files = progress.files;
    match (progress.done, progress.stopped, &progress.waiting_tool_id) {
        (_, true, _) => format!("note: looking at the project's files stopped after {files}; no checkpoints"),
        (true, _, _) => format!("note: looked at the project's {files} files for checkpoints"),
        (false, _, Some(_)) => {
            format!(
                "note: the call waits for its checkpoint: looking at the project's files ({files} so far)"
            )
        }
        (false, _, None) => format!("note: looking at the project's files for checkpoints ({files} so far)"),
    }
}

/// What a confirmation asks for, sanitised, one or more whole lines: the exact command and where
/// it runs, the diff of a change, or the tool's whole input.
/// The first line of a question: the tool to approve, or the host the sandbox wants to reach.
pub fn confirm_head(confirm: &warden_protocol::ToolConfirm) -> String {
    match &confirm.network {
        Some(network) => {
            format!("? allow the sandbox to reach {}:{}", sanitize::line(&network.host), network.port)
        }
        None => format!("? approve {}", sanitize::line(&confirm.tool_name)),
    }
}

/// What a question is about: the call (its command, diff or input), or for a network question the
/// call it came from, when one was running.
pub fn confirm_text(confirm: &warden_protocol::ToolConfirm) -> String {
    match (&confirm.network, confirm.tool_id.is_empty()) {
        (Some(_), true) => String::new(),
        (Some(_), false) => {
            let what = confirm
                .input
                .get("command")
                .and_then(serde_json::Value::as_str)
                .unwrap_or(&confirm.tool_name);
            format!("  while `{}` runs\n", sanitize::line(what))
        }
        (None, _) => approval_text(&confirm.tool_name, &confirm.input, confirm.preview.as_ref()),
    }
}

pub fn approval_text(
    tool_name: &str,
    input: &serde_json::Value,
    preview: Option<&ApprovalPreview>,
) -> String {
    match preview {
        Some(ApprovalPreview::Command { command, cwd }) => {
            format!("{}  in {}\n", sanitize::command_block(command), sanitize::line(cwd))
        }
        Some(ApprovalPreview::Diff { path, diff }) => {
            let diff = sanitize::body(diff);
            let newline = if diff.ends_with('\n') { "" } else { "\n" };
            format!("  change {}:\n{diff}{newline}", sanitize::line(path))
        }
        None => {
            // The whole input, not a summary: nothing of what will run is left out.
            let input = serde_json::to_string(input).unwrap_or_default();
            format!("  {} {}\n", sanitize::line(tool_name), sanitize::line(&input))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden_protocol::TextDelta;

    #[test]
    fn the_first_look_says_how_far_it_came_who_waits_and_how_it_ended() {
        let at = |files, done, stopped, waiting: Option<&str>| {
            snapshot_line(&warden_protocol::SnapshotProgress {
                conversation_id: "c".into(),
                files,
                done,
                stopped,
                waiting_tool_id: waiting.map(str::to_owned),
            })
        };
        assert_eq!(
            at(120, false, false, None),
            "note: looking at the project's files for checkpoints (120 so far)"
        );
        assert!(at(120, false, false, Some("t")).starts_with("note: the call waits for its checkpoint"));
        assert_eq!(at(4000, true, false, None), "note: looked at the project's 4000 files for checkpoints");
        assert!(at(300, true, true, None).contains("stopped after 300; no checkpoints"));
    }

    #[test]
    fn a_network_question_names_the_host_and_the_command_it_came_from() {
        let confirm = warden_protocol::ToolConfirm {
            conversation_id: "c".into(),
            confirm_id: "q".into(),
            message_id: "m".into(),
            tool_id: "t".into(),
            tool_name: "bash".into(),
            mcp: None,
            input: serde_json::json!({"command": "npm ci"}),
            danger_level: warden_protocol::DangerLevel::Dangerous,
            preview: None,
            timeout_secs: 30,
            reason: None,
            queue: None,
            kind: warden_protocol::ConfirmKind::Network,
            network: Some(warden_protocol::NetworkRequest {
                host: "registry.\u{1b}[2Jtest".into(),
                port: 443,
                reach: None,
            }),
            asked_because: None,
            rule: None,
            suggested_rule: None,
        };
        let head = confirm_head(&confirm);
        assert!(
            head.starts_with("? allow the sandbox to reach registry.") && head.ends_with("test:443"),
            "{head}"
        );
        assert!(!head.contains('\u{1b}'), "a control character reached the terminal: {head:?}");
        assert_eq!(confirm_text(&confirm), "  while `npm ci` runs\n");
        let without_call = warden_protocol::ToolConfirm { tool_id: String::new(), ..confirm };
        assert_eq!(confirm_text(&without_call), "");
    }

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

    fn human(event: Event) -> String {
        let mut buf = Vec::new();
        Human {
            out: &mut buf,
            colour: false,
            mid_line: false,
            notes: Box::new(std::io::sink()),
            notes_colour: false,
        }
        .event(&event);
        String::from_utf8(buf).unwrap()
    }

    /// A `Write` both the renderer and the test can see.
    #[derive(Clone, Default)]
    struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn notice() -> Event {
        Event::Notice(warden_protocol::Notice {
            conversation_id: "c".into(),
            message_id: "m".into(),
            text: "This model has no native tool calling; Warden describes the tools in the prompt instead.\x1b[2J"
                .into(),
        })
    }

    #[test]
    fn a_notice_goes_to_the_notes_dim_and_not_into_the_transcript() {
        let notes = Shared::default();
        let mut out = Vec::new();
        Human {
            out: &mut out,
            colour: true,
            mid_line: false,
            notes: Box::new(notes.clone()),
            notes_colour: true,
        }
        .event(&notice());
        assert!(out.is_empty(), "the transcript is the answer only");
        let written = String::from_utf8(notes.0.lock().unwrap().clone()).unwrap();
        assert!(written.starts_with("\x1b[2mnote: This model has no native tool calling;"), "{written:?}");
        assert!(written.ends_with("\x1b[0m\n"), "{written:?}");
        assert!(!written.contains("\x1b[2J"), "the text itself is sanitised: {written:?}");
    }

    #[test]
    fn a_notice_is_a_json_line_in_json_mode() {
        let mut buf = Vec::new();
        JsonLines::new(&mut buf).event(&notice());
        let line: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(line["event"], "chat:notice");
        assert_eq!(line["payload"]["messageId"], "m");
        assert!(line["payload"]["text"]
            .as_str()
            .unwrap()
            .starts_with("This model has no native tool calling"));
    }

    #[test]
    fn the_transcript_never_prints_a_control_character() {
        let evil = "hi\x1b]0;title\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J\r\x1b[2K\u{202e}";
        let events = [
            Event::TextDelta(TextDelta {
                conversation_id: "c".into(),
                message_id: "m".into(),
                delta: evil.into(),
            }),
            Event::ToolStart(warden_protocol::ToolStart {
                conversation_id: "c".into(),
                message_id: "m".into(),
                tool_id: "t".into(),
                tool_name: format!("bash{evil}"),
                category: None,
                mcp: None,
                input: serde_json::json!({"command": evil}),
            }),
        ];
        for event in events {
            let out = human(event);
            assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
            assert!(out.contains("\\x1b]52;c;ZXZpbA==") && out.contains("\\u{202e}"), "{out:?}");
        }
    }

    #[test]
    fn json_lines_escape_what_a_terminal_would_act_on_and_keep_the_text() {
        let evil = "hi\u{9b}31m\u{202e}\u{7f}\x1b]52;c;ZXZpbA==\x07";
        let mut buf = Vec::new();
        JsonLines::new(&mut buf).event(&Event::TextDelta(TextDelta {
            conversation_id: "c".into(),
            message_id: "m".into(),
            delta: evil.into(),
        }));
        let line = String::from_utf8(buf).unwrap();
        assert!(!line.chars().any(|c| c.is_control() && c != '\n' || c == '\u{202e}'), "{line:?}");
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["payload"]["delta"], evil);
    }

    #[test]
    fn summary_picks_the_telling_field() {
        assert_eq!(summary(&serde_json::json!({"command": "ls -la\nmore"})), "ls -la");
        assert_eq!(summary(&serde_json::json!({"path": "src/main.rs"})), "src/main.rs");
        assert_eq!(summary(&serde_json::json!({})), "");
    }
}
