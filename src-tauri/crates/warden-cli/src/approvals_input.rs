//! Approval answers. With `--json`, scripts write JSON lines `{"confirmId": "…", "approved":
//! true|false, "reason": "…", "remember": "once|session|always", "always": {"tool": "bash",
//! "pattern": "cargo test *", "scope": "project|user"}}` (or `y`/`n`/`a`) on stdin; a line naming the call's `toolId` instead
//! of the `confirmId` is still read for one release (deprecated). Without it a person answers `y`/`n` on the
//! controlling terminal (`/dev/tty`), never on stdin: stdin is a pipe or file any process of the same
//! user — a command Warden itself ran — may reach through `/proc/<pid>/fd/0`, while the commands
//! Warden runs are in sessions of their own and cannot open its terminal.

use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;
use warden_protocol::{AlwaysRule, Remember, ToolApproval};

/// What a stdin line says.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Approval(ApprovalLine),
    /// `y` / `n` for whichever confirmation is pending alone.
    YesNo(bool),
    /// `a`: yes, and keep the rule the confirmation offers ("Always allow…"), for the one pending.
    Always,
}

/// A JSON approval line: a [`ToolApproval`] that may name its confirmation the old way.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalLine {
    /// Which confirmation it answers.
    pub to: Named,
    pub approved: bool,
    pub reason: Option<String>,
    pub remember: Option<Remember>,
    pub always: Option<AlwaysRule>,
}

/// How a line names the confirmation it answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Named {
    /// The `confirmId` of the `chat:tool-confirm`.
    Confirm(String),
    /// Deprecated, read for one release: the tool call's id. It answers the confirmation pending
    /// for that call (one call may ask more than once, and the call's id is the model server's).
    Tool(String),
}

impl ApprovalLine {
    /// The approval for confirmation `confirm_id`.
    pub fn answering(self, confirm_id: String) -> ToolApproval {
        ToolApproval {
            confirm_id,
            approved: self.approved,
            reason: self.reason,
            remember: self.remember,
            always: self.always,
        }
    }
}

/// The line as written: `confirmId` or, deprecated, `toolId`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Line {
    confirm_id: Option<String>,
    tool_id: Option<String>,
    approved: bool,
    reason: Option<String>,
    remember: Option<Remember>,
    always: Option<AlwaysRule>,
}

fn parse_json(line: &str) -> Option<ApprovalLine> {
    let Line { confirm_id, tool_id, approved, reason, remember, always } = serde_json::from_str(line).ok()?;
    let to = match (confirm_id, tool_id) {
        (Some(id), _) => Named::Confirm(id),
        (None, Some(id)) => Named::Tool(id),
        (None, None) => return None,
    };
    Some(ApprovalLine { to, approved, reason, remember, always })
}

pub fn parse_line(line: &str) -> Option<Answer> {
    let line = line.trim();
    if line.starts_with('{') {
        return parse_json(line).map(Answer::Approval);
    }
    match line.to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(Answer::YesNo(true)),
        "n" | "no" | "" => Some(Answer::YesNo(false)),
        "a" | "always" => Some(Answer::Always),
        _ => None,
    }
}

/// Read stdin until it ends; `None` is sent once at end of input.
pub fn spawn_reader() -> mpsc::UnboundedReceiver<Option<Answer>> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut lines = BufReader::new(tokio::io::stdin()).lines();
        loop {
            match lines.next_line().await {
                Ok(Some(line)) => match parse_line(&line) {
                    Some(answer) => {
                        if tx.send(Some(answer)).is_err() {
                            return;
                        }
                    }
                    None => tracing::warn!("ignoring an unreadable approval line"),
                },
                Ok(None) | Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
            }
        }
    });
    rx
}

/// Read `y`/`n` lines from the controlling terminal on a thread of its own, until it ends; `None` is
/// sent once at the end. Fails when there is no controlling terminal.
pub fn spawn_tty_reader() -> std::io::Result<mpsc::UnboundedReceiver<Option<Answer>>> {
    let tty = open_tty()?;
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::Builder::new().name("warden-tty".to_owned()).spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(tty).lines() {
            let Ok(line) = line else { break };
            match parse_tty_line(&line) {
                Some(answer) => {
                    if tx.send(Some(answer)).is_err() {
                        return;
                    }
                }
                None => tracing::warn!("answer y, n or a"),
            }
        }
        let _ = tx.send(None);
    })?;
    Ok(rx)
}

/// The controlling terminal, for reading answers (the file is opened close-on-exec: no command
/// inherits it).
pub fn open_tty() -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty")
}

/// A person at the terminal answers yes, no or always, nothing else.
pub fn parse_tty_line(line: &str) -> Option<Answer> {
    parse_line(line).filter(|answer| matches!(answer, Answer::YesNo(_) | Answer::Always))
}

/// Why confirmations cannot be asked without a terminal, and what to do instead.
pub fn no_terminal_message(error: &std::io::Error) -> String {
    format!(
        "no terminal to ask for approval on (/dev/tty: {error}); confirmations are refused. \
         Approvals are never read from stdin without --json: use --json and write approval lines \
         on stdin, or --approve all|none"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_yes_no_lines() {
        assert_eq!(
            parse_line(r#"{"confirmId":"q1","approved":false,"reason":"no thanks"}"#),
            Some(Answer::Approval(ApprovalLine {
                to: Named::Confirm("q1".into()),
                approved: false,
                reason: Some("no thanks".into()),
                remember: None,
                always: None,
            }))
        );
        assert_eq!(
            parse_line(r#"{"toolId":"t1","approved":true,"remember":"session"}"#),
            Some(Answer::Approval(ApprovalLine {
                to: Named::Tool("t1".into()),
                approved: true,
                reason: None,
                remember: Some(Remember::Session),
                always: None,
            }))
        );
        let always = r#"{"confirmId":"q2","approved":true,"remember":"always","always":{"tool":"bash","pattern":"cargo test *","scope":"user"}}"#;
        assert_eq!(
            parse_line(always),
            Some(Answer::Approval(ApprovalLine {
                to: Named::Confirm("q2".into()),
                approved: true,
                reason: None,
                remember: Some(Remember::Always),
                always: Some(AlwaysRule {
                    tool: "bash".into(),
                    pattern: Some("cargo test *".into()),
                    scope: warden_protocol::RuleScope::User,
                }),
            }))
        );
        assert_eq!(parse_line(r#"{"approved":true}"#), None, "names no confirmation");
        assert_eq!(parse_line("Y"), Some(Answer::YesNo(true)));
        assert_eq!(parse_line("n"), Some(Answer::YesNo(false)));
        assert_eq!(parse_line("{broken"), None);
        assert_eq!(parse_line("maybe"), None);
    }

    #[test]
    fn the_terminal_takes_yes_no_or_always_only() {
        assert_eq!(parse_tty_line("y"), Some(Answer::YesNo(true)));
        assert_eq!(parse_tty_line("a"), Some(Answer::Always));
        assert_eq!(parse_tty_line(""), Some(Answer::YesNo(false)));
        assert_eq!(parse_tty_line(r#"{"toolId":"t1","approved":true}"#), None);
    }
}
