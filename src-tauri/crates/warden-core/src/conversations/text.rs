//! What of a message is searchable, and the title a conversation gets from its first message.

use warden_protocol::{ContentBlock, Message, Role};

/// How long a title made from a first message may be, in characters.
const TITLE_CHARS: usize = 60;
/// How long a title the user gives may be, in characters.
const MAX_TITLE_CHARS: usize = 200;
/// The title of a conversation with nothing to name it after.
pub const UNTITLED: &str = "New conversation";

/// The words a search finds a message by: what was said, what tools were asked (their name and
/// the values of their input) and what they answered. Thinking is left out: it is the model's
/// scratch work, not what the user saw said.
pub fn searchable(message: &Message) -> String {
    let mut out = String::new();
    for block in &message.content {
        match block {
            ContentBlock::Text { text } => push_line(&mut out, text),
            ContentBlock::ToolUse(call) => {
                push_line(&mut out, &call.name);
                push_values(&mut out, &call.input);
            }
            ContentBlock::ToolResult(result) => push_line(&mut out, &result.content),
            ContentBlock::Thinking { .. }
            | ContentBlock::RedactedThinking { .. }
            | ContentBlock::Image(_)
            | ContentBlock::Unknown(_) => {}
        }
    }
    out
}

fn push_values(out: &mut String, value: &serde_json::Value) {
    match value {
        serde_json::Value::String(s) => push_line(out, s),
        serde_json::Value::Array(items) => items.iter().for_each(|v| push_values(out, v)),
        serde_json::Value::Object(map) => map.values().for_each(|v| push_values(out, v)),
        serde_json::Value::Number(n) => push_line(out, &n.to_string()),
        serde_json::Value::Bool(_) | serde_json::Value::Null => {}
    }
}

fn push_line(out: &mut String, text: &str) {
    if text.is_empty() {
        return;
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(text);
}

/// The first line of what the user wrote in `message`, cut to a title; `None` for a message that
/// is not the user's or holds no text (tool results).
pub fn title_from(message: &Message) -> Option<String> {
    if message.role != Role::User {
        return None;
    }
    message.content.iter().find_map(|block| match block {
        ContentBlock::Text { text } => {
            text.lines().map(str::trim).find(|line| !line.is_empty()).map(|line| cut(line, TITLE_CHARS))
        }
        _ => None,
    })
}

/// A title as given by the user: one line, trimmed, at most 200 characters; `None` when empty.
pub fn clean_title(title: &str) -> Option<String> {
    let one_line: String = title.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let trimmed = one_line.trim();
    (!trimmed.is_empty()).then(|| cut(trimmed, MAX_TITLE_CHARS))
}

/// `text` cut to at most `max` characters, an ellipsis marking the cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden_protocol::{ToolResultBlock, ToolUse};

    #[test]
    fn searchable_text_holds_what_was_said_asked_and_answered_but_not_thinking() {
        let message = Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Thinking { thinking: "secretplan".into(), signature: None },
                ContentBlock::Text { text: "Looking".into() },
                ContentBlock::ToolUse(ToolUse {
                    id: "t1".into(),
                    name: "bash".into(),
                    input: serde_json::json!({"command": "cargo test", "timeout": 30, "x": [true]}),
                    raw_arguments: None,
                    written: None,
                }),
                ContentBlock::ToolResult(ToolResultBlock {
                    tool_use_id: "t1".into(),
                    report: None,
                    tool_name: "bash".into(),
                    content: "ok: 3 passed".into(),
                    is_error: false,
                    code: None,
                    images: Vec::new(),
                }),
            ],
        };
        assert_eq!(searchable(&message), "Looking\nbash\ncargo test\n30\nok: 3 passed");
    }

    #[test]
    fn a_title_is_the_first_non_empty_line_of_the_users_text_cut_short() {
        assert_eq!(
            title_from(&Message::user_text("\n  Fix the build  \nplease")).as_deref(),
            Some("Fix the build")
        );
        let long = "x".repeat(100);
        assert_eq!(title_from(&Message::user_text(long)).map(|t| t.chars().count()), Some(60));
        let answer =
            Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: "hi".into() }] };
        assert_eq!(title_from(&answer), None);
        assert_eq!(clean_title(" \t "), None);
        assert_eq!(clean_title("a\nb").as_deref(), Some("a b"));
    }
}
