//! Approval answers read from stdin: JSON lines `{"toolId": "…", "approved": true|false,
//! "reason": "…"}`, or — for a person at a terminal — `y`/`n` for the one pending confirmation.

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;
use warden_protocol::ToolApproval;

/// What a stdin line says.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Approval(ToolApproval),
    /// `y` / `n` for whichever confirmation is pending alone.
    YesNo(bool),
}

pub fn parse_line(line: &str) -> Option<Answer> {
    let line = line.trim();
    if line.starts_with('{') {
        return serde_json::from_str::<ToolApproval>(line).ok().map(Answer::Approval);
    }
    match line.to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(Answer::YesNo(true)),
        "n" | "no" | "" => Some(Answer::YesNo(false)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_yes_no_lines() {
        assert_eq!(
            parse_line(r#"{"toolId":"t1","approved":false,"reason":"no thanks"}"#),
            Some(Answer::Approval(ToolApproval {
                tool_id: "t1".into(),
                approved: false,
                reason: Some("no thanks".into()),
                remember: None
            }))
        );
        assert_eq!(parse_line("Y"), Some(Answer::YesNo(true)));
        assert_eq!(parse_line("n"), Some(Answer::YesNo(false)));
        assert_eq!(parse_line("{broken"), None);
        assert_eq!(parse_line("maybe"), None);
    }
}
