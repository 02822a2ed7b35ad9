//! `warden sessions`: the saved conversations — the window's and `warden exec`'s, from the same
//! store — listed, shown, searched and deleted. Exit status: 0 done, 1 the store failed, 2 no such
//! conversation or a bad id (every status: [`crate::exit`]).

use serde_json::json;
use warden_core::config::WardenHome;
use warden_core::conversations::{self as saved, ConversationStore};
use warden_protocol::{ContentBlock, ConversationHit, ConversationSummary, Message, ResultCode, Role};

use crate::args::{SessionsAction, SessionsArgs};
use crate::exit::Exit;
use crate::{sanitize, say};

/// How much of a tool result `show` prints without --json.
const RESULT_PREVIEW_CHARS: usize = 400;

pub fn run(args: SessionsArgs) -> Result<(), Exit> {
    let store = WardenHome::from_env()
        .map_err(|e| e.to_string())
        .and_then(|home| ConversationStore::open_home(&home).map_err(|e| e.to_string()))
        .map_err(Exit::failed)?;
    run_action(&store, args.action)
}

/// One subcommand; a store that fails is [`Exit::failed`] with its error.
fn run_action(store: &ConversationStore, action: SessionsAction) -> Result<(), Exit> {
    match action {
        SessionsAction::List { limit, json } => {
            print_list(&store.list(0, limit).map_err(Exit::failed)?.conversations, json);
            Ok(())
        }
        SessionsAction::Show { id, json } => {
            let summary = known(store, &id)?;
            // What can be read of it: a message that cannot be read is marked in its place.
            let back = store.read_back(&id).map_err(Exit::failed)?;
            let rows: Vec<_> = back.rows.into_iter().map(|row| (row.seq + 1, row.message)).collect();
            print_conversation(&Conversation { summary, rows, stopped: back.stopped }, json);
            Ok(())
        }
        SessionsAction::Search { query, limit, json } => {
            print_hits(&query, &store.search(&query, limit).map_err(Exit::failed)?, json);
            Ok(())
        }
        SessionsAction::Delete { id, json } => {
            known(store, &id)?;
            store.remove(&id).map_err(Exit::failed)?;
            print_deleted(&id, json);
            Ok(())
        }
    }
}

/// A saved conversation as far as it could be read, here or on another machine.
pub(crate) struct Conversation {
    pub summary: ConversationSummary,
    /// Each message's position (from 1) and the message, or why it could not be read.
    pub rows: Vec<(usize, Result<Message, String>)>,
    /// Why the read stopped before the last message, if it did.
    pub stopped: Option<String>,
}

pub(crate) fn print_list(conversations: &[ConversationSummary], json: bool) {
    if json {
        print_json(&json!(conversations));
    } else if conversations.is_empty() {
        out("No saved conversations.");
    } else {
        conversations.iter().for_each(print_summary);
    }
}

pub(crate) fn print_hits(query: &str, hits: &[ConversationHit], json: bool) {
    if json {
        print_json(&json!(hits));
    } else if hits.is_empty() {
        out(&format!("No conversation holds “{}”.", sanitize::line(query)));
    } else {
        for hit in hits {
            print_summary(&hit.conversation);
            if let Some(snippet) = &hit.snippet {
                out(&format!("    {}", sanitize::line(snippet)));
            }
        }
    }
}

pub(crate) fn print_deleted(id: &str, json: bool) {
    if json {
        print_json(&json!({"deleted": id}));
    } else {
        out(&format!("Deleted {}.", sanitize::line(id)));
    }
}

/// The conversation's messages; one that could not be read is marked in its place, and a
/// conversation that cannot be read whole is said so on stderr.
pub(crate) fn print_conversation(conversation: &Conversation, json: bool) {
    let Conversation { summary, rows, stopped } = conversation;
    if json {
        let messages: Vec<_> = rows.iter().filter_map(|(_, message)| message.as_ref().ok()).collect();
        let unreadable: Vec<_> = rows
            .iter()
            .filter_map(|(n, message)| message.as_ref().err().map(|why| json!({"message": n, "reason": why})))
            .collect();
        print_json(&json!({
            "conversation": summary,
            "messages": messages,
            "unreadable": unreadable,
            "stopped": stopped,
        }));
    } else {
        print_summary(summary);
        out("");
        for (n, message) in rows {
            match message {
                Ok(message) => print_message(message),
                Err(why) => out(&format!("  [message {n} could not be read: {}]\n", sanitize::line(why))),
            }
        }
        if let Some(why) = stopped {
            out(&format!("  [the rest could not be read: {}]", sanitize::line(why)));
        }
    }
    let first_unreadable = rows.iter().find_map(|(n, message)| message.as_ref().err().map(|why| (n, why)));
    let problem = match (first_unreadable, stopped) {
        (Some((n, why)), _) => Some(format!("message {n} cannot be read: {why}")),
        (None, Some(why)) => Some(format!("the read stopped: {why}")),
        (None, None) => None,
    };
    if let Some(problem) = problem {
        say::err(&format!(
            "warden: conversation {} cannot be read whole: {}. It is shown as far as it can be read, and it \
             cannot be continued",
            sanitize::line(&summary.id),
            sanitize::line(&problem)
        ));
    }
}

/// The conversation's summary; a usage error when `id` names none.
fn known(store: &ConversationStore, id: &str) -> Result<ConversationSummary, Exit> {
    if !saved::is_conversation_id(id) {
        return Err(Exit::usage(format!(
            "`{}` is not a conversation id (letters, digits, `-` and `_`)",
            sanitize::line(id)
        )));
    }
    store.summary(id).map_err(Exit::failed)?.ok_or_else(|| {
        Exit::usage(format!(
            "there is no saved conversation `{}` (see: warden sessions list)",
            sanitize::line(id)
        ))
    })
}

fn print_json(value: &serde_json::Value) {
    say::json_line(value);
}

/// A line for people on stdout (see [`say::out`]).
fn out(line: &str) {
    say::out(line);
}

/// `<id>  <when>  <n> messages  <title>  (<project>)` on one line.
fn print_summary(summary: &ConversationSummary) {
    let when = i64::try_from(summary.updated_at_ms)
        .ok()
        .and_then(chrono::DateTime::from_timestamp_millis)
        .map(|t| t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default();
    let project = summary.project_root.as_deref().map(|p| format!("  ({p})")).unwrap_or_default();
    out(&format!(
        "{}  {when}  {:>4} messages  {}{}",
        sanitize::line(&summary.id),
        summary.message_count,
        sanitize::line(&summary.title),
        sanitize::line(&project)
    ));
}

/// A message as a transcript: who spoke, what was said, the tools asked for and what they gave.
fn print_message(message: &Message) {
    for block in &message.content {
        match (message.role, block) {
            (Role::User, ContentBlock::Text { text }) => out(&format!("you: {}\n", sanitize::body(text))),
            (Role::Assistant, ContentBlock::Text { text }) => {
                out(&format!("warden: {}\n", sanitize::body(text)))
            }
            (_, ContentBlock::ToolUse(call)) => out(&format!(
                "  → {} {}",
                sanitize::line(&call.name),
                sanitize::line(&call.input.to_string())
            )),
            (_, ContentBlock::ToolResult(result)) => {
                let mark = if result.is_error { "✗" } else { "←" };
                let preview = saved::text::cut(&result.content, RESULT_PREVIEW_CHARS);
                // A reason this version does not know is said to come from a newer Warden.
                let newer = match &result.code {
                    Some(ResultCode::Newer(code)) => {
                        format!("  ({} — a reason from a newer Warden)", sanitize::line(code))
                    }
                    _ => String::new(),
                };
                out(&format!("  {mark} {}{newer}\n", sanitize::body(&preview)));
            }
            (_, ContentBlock::Image(image)) => {
                out(&format!("  [image: {}]\n", sanitize::line(&image.media_type)))
            }
            (_, ContentBlock::Unknown(block)) => out(&format!(
                "  [a \"{}\" part from a newer Warden, which this version cannot show]\n",
                sanitize::line(&block.kind())
            )),
            (_, ContentBlock::Thinking { .. } | ContentBlock::RedactedThinking { .. }) => {}
        }
    }
}
