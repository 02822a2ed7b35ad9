//! Compaction: when a long conversation fills the context window, the model is sent a summary of
//! its older part instead of that part, and the turn goes on. The history itself stays whole (the
//! user sees every message; the store keeps them all); only what the model is sent changes.
//!
//! The split keeps the recent exchanges verbatim, and always the last assistant message with its
//! thinking blocks and signatures, so a turn with extended thinking stays valid. It never falls
//! between a tool call and its result: the kept part starts at an assistant message or at a
//! message the user wrote. The summary is asked of the same model, from a transcript of the older
//! part in which long tool results are cut first.

use tokio_util::sync::CancellationToken;
use warden_protocol::{ContentBlock, Message, Role};

use crate::provider::{answer_text, ChatRequest, Provider, ToolChoice};

/// Share of the context window the kept recent messages may take.
const KEEP_SHARE: f64 = 0.3;
/// The least share of the context window a compaction must free to be worth a request.
const MIN_GAIN_SHARE: f64 = 0.1;
/// Share of the context window the transcript sent for summarising may take.
const TRANSCRIPT_SHARE: f64 = 0.5;
/// How much of one tool result the transcript keeps, in characters.
const TOOL_RESULT_CHARS: usize = 1_000;
/// How much of an older tool result the model is still sent once results are cut (the first,
/// cheapest step of compaction), in characters.
pub const TRIM_CHARS: usize = 2_000;
/// What marks a cut tool result.
pub const TRIM_NOTE: &str =
    "[cut in what the model is sent to fit the context window; the conversation keeps it whole]";
/// A cut that brings the context under this share of the threshold is enough; else a summary.
const TRIM_TARGET: f64 = 0.8;
/// Characters per token, for estimates (the provider's count calibrates them when known).
const CHARS_PER_TOKEN: usize = 4;
/// The longest summary asked for, in tokens.
const SUMMARY_MAX_TOKENS: u32 = 4_096;

const SUMMARY_SYSTEM: &str = "You write the working memory of a coding agent whose conversation has \
grown too long. Another model will continue the work from your summary alone, so be complete and \
concrete.";

const SUMMARY_REQUEST: &str = "Summarize the conversation above so the work can continue from the \
summary alone. Include, under these headings:\n\
- What the user asked: their goals, constraints and preferences (quote them where wording matters).\n\
- What was done: commands run and what they showed, files read, every file created or changed (with \
paths) and how.\n\
- Decisions: what was decided and why.\n\
- Current state: where the work stands now.\n\
- Open items: what is left to do, next steps, unanswered questions.\n\
Write only the summary.";

/// How the model is told what the summary is.
pub const SUMMARY_INTRO: &str = "[The earlier part of this conversation was summarized to fit the \
context window. Summary:]";

/// What the model is sent instead of the whole history: the summary standing for
/// `history[..upto]` (none while `upto` is 0), and the tool results of `history[upto..trimmed_upto]`
/// cut to [`TRIM_CHARS`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Compacted {
    pub upto: usize,
    pub summary: String,
    pub trimmed_upto: usize,
}

impl From<crate::conversations::Compaction> for Compacted {
    fn from(stored: crate::conversations::Compaction) -> Self {
        Self { upto: stored.upto_seq, summary: stored.summary, trimmed_upto: stored.trimmed_upto_seq }
    }
}

/// What the model is sent: the summary instead of the messages it stands for, the older tool
/// results cut, the rest as it is.
pub fn model_view(history: &[Message], compacted: Option<&Compacted>) -> Vec<Message> {
    let Some(compacted) = compacted.filter(|c| c.upto <= history.len()) else {
        return history.to_vec();
    };
    let mut rest = history[compacted.upto..].to_vec();
    let trimmed = compacted.trimmed_upto.clamp(compacted.upto, history.len()) - compacted.upto;
    rest[..trimmed].iter_mut().for_each(trim_results);
    if compacted.upto == 0 || compacted.summary.is_empty() {
        return rest;
    }
    let intro = ContentBlock::Text { text: format!("{SUMMARY_INTRO}\n\n{}", compacted.summary) };
    match rest.first_mut() {
        // A message the user wrote: the summary goes first in it (turns must alternate).
        Some(first) if first.role == Role::User => {
            first.content.insert(0, intro);
            rest
        }
        _ => {
            rest.insert(0, Message { role: Role::User, content: vec![intro] });
            rest
        }
    }
}

/// Cuts the message's tool results to [`TRIM_CHARS`] (and drops their images), saying so.
fn trim_results(message: &mut Message) {
    for block in &mut message.content {
        if let ContentBlock::ToolResult(result) = block {
            if let Some((kept, more)) = split_chars(&result.content, TRIM_CHARS) {
                result.content = format!("{kept}\n{TRIM_NOTE} ({more} more characters)");
            }
            if !result.images.is_empty() {
                result.content.push_str(&format!("\n{TRIM_NOTE} ({} images)", result.images.len()));
                result.images.clear();
            }
        }
    }
}

/// Whether cutting the tool results of `messages` would change anything.
fn has_long_results(messages: &[Message]) -> bool {
    messages.iter().flat_map(|m| &m.content).any(|b| {
        matches!(b, ContentBlock::ToolResult(r) if !r.images.is_empty() || r.content.chars().count() > TRIM_CHARS)
    })
}

/// A rough token count of messages: their JSON length over four.
pub fn estimate_tokens(messages: &[Message]) -> u32 {
    let chars: usize = messages.iter().map(|m| serde_json::to_string(m).map_or(0, |s| s.len())).sum();
    u32::try_from(chars / CHARS_PER_TOKEN).unwrap_or(u32::MAX)
}

/// Where the kept part may start: an assistant message, or a message the user wrote (not tool
/// results, whose calls would be summarized away).
fn is_boundary(message: &Message) -> bool {
    match message.role {
        Role::Assistant => true,
        Role::User => !message.content.iter().any(|b| matches!(b, ContentBlock::ToolResult(_))),
    }
}

/// Where to split `history` so that the kept part holds at most `keep_tokens` (estimated), and
/// always the last assistant message. The summarized part (after `done`, what an earlier compaction
/// already covers) holds at least one assistant message: a lone prompt is not worth a summary.
/// With `whole_exchanges` the kept part starts at a message the user wrote (a manual compaction
/// between turns keeps the last exchange whole). `None` when there is nothing to summarize.
pub fn choose_split(
    history: &[Message],
    done: usize,
    keep_tokens: u32,
    whole_exchanges: bool,
) -> Option<usize> {
    let last_assistant = history.iter().rposition(|m| m.role == Role::Assistant)?;
    let first_assistant = done + history.get(done..)?.iter().position(|m| m.role == Role::Assistant)?;
    let wanted = |m: &Message| is_boundary(m) && (!whole_exchanges || m.role == Role::User);
    let candidates: Vec<usize> =
        (first_assistant + 1..=last_assistant).filter(|&i| wanted(&history[i])).collect();
    // The earliest split whose kept part fits; else the latest (the least kept).
    let mut kept = 0_u64;
    let mut best = None;
    let mut next = history.len();
    for &i in candidates.iter().rev() {
        kept += u64::from(estimate_tokens(&history[i..next]));
        next = i;
        if kept <= u64::from(keep_tokens) {
            best = Some(i);
        } else {
            break;
        }
    }
    best.or_else(|| candidates.last().copied())
}

/// The older part as text for the summary request: who said what, the tools asked and (cut) what
/// they answered; cut in the middle when longer than `max_chars`.
fn transcript(previous: Option<&str>, older: &[Message], max_chars: usize) -> String {
    let mut out = String::new();
    if let Some(summary) = previous {
        out.push_str("[Summary of what came before]\n");
        out.push_str(summary);
        out.push_str("\n\n");
    }
    for message in older {
        for block in &message.content {
            let line = match (message.role, block) {
                (Role::User, ContentBlock::Text { text }) => format!("[user] {text}"),
                (Role::Assistant, ContentBlock::Text { text }) => format!("[assistant] {text}"),
                (_, ContentBlock::ToolUse(call)) => {
                    format!("[assistant → tool {}] {}", call.name, call.input)
                }
                (_, ContentBlock::ToolResult(result)) => {
                    let status = if result.is_error { "failed" } else { "result" };
                    format!(
                        "[tool {status}: {}] {}",
                        result.tool_name,
                        cut_chars(&result.content, TOOL_RESULT_CHARS)
                    )
                }
                _ => continue,
            };
            out.push_str(&line);
            out.push_str("\n\n");
        }
    }
    cut_middle(out, max_chars)
}

fn cut_chars(text: &str, max: usize) -> String {
    match split_chars(text, max) {
        Some((kept, more)) => format!("{kept}… [{more} more characters]"),
        None => text.to_owned(),
    }
}

/// The first `max` characters of `text` and how many follow; `None` when it is no longer.
fn split_chars(text: &str, max: usize) -> Option<(String, usize)> {
    let count = text.chars().count();
    (count > max).then(|| (text.chars().take(max).collect(), count - max))
}

fn cut_middle(text: String, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text;
    }
    let half = max / 2;
    let head: String = text.chars().take(half).collect();
    let tail: String = text.chars().skip(count - half).collect();
    format!("{head}\n\n[… {} characters left out …]\n\n{tail}", count - 2 * half)
}

/// Why no compaction took place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompactionError {
    #[error("there is nothing older to summarize yet")]
    NothingToCompact,
    #[error("the model could not summarize the conversation: {0}")]
    Provider(String),
    #[error("the model gave an empty summary")]
    EmptySummary,
    #[error("stopped")]
    Cancelled,
}

/// What a compaction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionReport {
    /// `false` when cutting older tool results was enough and no summary was made.
    pub summarized: bool,
    pub summarized_messages: u32,
    pub tokens_before: u32,
    pub tokens_after: u32,
}

/// What compaction reads of a conversation: its history and earlier compaction, the model and
/// what the session allows it.
pub(crate) struct Conversation<'a> {
    pub history: &'a [Message],
    pub previous: Option<&'a Compacted>,
    /// The context window budgeted with, when known.
    pub context_window: Option<u32>,
    pub budget_threshold: f32,
    pub model: &'a str,
    pub max_tokens: u32,
    /// How long the summary request may take.
    pub timeout: std::time::Duration,
    pub provider: &'a dyn Provider,
}

/// Makes room in what the model is sent: first by cutting the older tool results (when that is
/// enough; the caller says so), else by summarizing the older part. Returns what it decided; the
/// caller records it (the session and the store) and says a summary with `chat:compacted`.
/// `tokens_in_use` is the provider's count of the context as last sent, when known; it calibrates
/// the estimates.
pub(crate) async fn compact(
    conversation: Conversation<'_>,
    tokens_in_use: Option<u32>,
    manual: bool,
    cancel: &CancellationToken,
) -> Result<(Compacted, CompactionReport), CompactionError> {
    let history = conversation.history;
    let previous = conversation.previous;
    let view = model_view(history, previous);
    let estimated_before = estimate_tokens(&view).max(1);
    // Real tokens per estimated one, from the provider's count when there is one.
    let scale = tokens_in_use.map_or(1.0, |used| f64::from(used) / f64::from(estimated_before));
    let window = f64::from(conversation.context_window.unwrap_or(super::budget::FALLBACK_CONTEXT_WINDOW));
    // Asked for by the user: keep only the last exchange. Else keep what the share allows.
    let keep_tokens = if manual { 0 } else { (window * KEEP_SHARE / scale.max(0.01)) as u32 };
    let done = previous.map_or(0, |c| c.upto);
    let upto = choose_split(history, done, keep_tokens, manual).ok_or(CompactionError::NothingToCompact)?;
    let tokens_before = tokens_in_use.unwrap_or(estimated_before);
    // First the cheap step: the older tool results cut, the conversation's words kept.
    let trimmed_before = previous.map_or(0, |c| c.trimmed_upto).max(done);
    if !manual && upto > trimmed_before && has_long_results(&history[trimmed_before..upto]) {
        let trimmed = Compacted {
            upto: done,
            summary: previous.map(|c| c.summary.clone()).unwrap_or_default(),
            trimmed_upto: upto,
        };
        let after = f64::from(estimate_tokens(&model_view(history, Some(&trimmed)))) * scale;
        let target = window * f64::from(conversation.budget_threshold) * TRIM_TARGET;
        if after <= target {
            let report = CompactionReport {
                summarized: false,
                summarized_messages: u32::try_from(done).unwrap_or(u32::MAX),
                tokens_before,
                tokens_after: after.round() as u32,
            };
            return Ok((trimmed, report));
        }
    }
    let freed = f64::from(estimate_tokens(&history[done..upto])) * scale;
    if !manual && freed < window * MIN_GAIN_SHARE {
        return Err(CompactionError::NothingToCompact);
    }

    let max_chars = (window * TRANSCRIPT_SHARE) as usize * CHARS_PER_TOKEN;
    let text = transcript(previous.map(|c| c.summary.as_str()), &history[done..upto], max_chars);
    let request = ChatRequest {
        model: conversation.model.to_owned(),
        system: Some(SUMMARY_SYSTEM.to_owned()),
        messages: vec![Message::user_text(format!("{text}\n\n---\n\n{SUMMARY_REQUEST}"))],
        tools: Vec::new(),
        max_tokens: conversation.max_tokens.min(SUMMARY_MAX_TOKENS),
        thinking: None,
        tool_choice: ToolChoice::None,
    };
    let summary = summarize(conversation.provider, conversation.timeout, request, cancel).await?;
    let compacted = Compacted { upto, summary, trimmed_upto: upto.max(trimmed_before) };
    let estimated_after = estimate_tokens(&model_view(history, Some(&compacted)));
    let tokens_after = (f64::from(estimated_after) * scale).round() as u32;
    let report = CompactionReport {
        summarized: true,
        summarized_messages: u32::try_from(upto).unwrap_or(u32::MAX),
        tokens_before,
        tokens_after,
    };
    Ok((compacted, report))
}

/// The model's answer to the summary request, as text.
async fn summarize(
    provider: &dyn Provider,
    timeout: std::time::Duration,
    request: ChatRequest,
    cancel: &CancellationToken,
) -> Result<String, CompactionError> {
    let answer = tokio::select! {
        biased;
        () = cancel.cancelled() => return Err(CompactionError::Cancelled),
        () = tokio::time::sleep(timeout) => {
            return Err(CompactionError::Provider("it did not answer in time".to_owned()))
        }
        answer = answer_text(provider, request) => answer,
    };
    let text = answer.map_err(|error| CompactionError::Provider(error.message))?;
    let text = text.trim();
    if text.is_empty() {
        Err(CompactionError::EmptySummary)
    } else {
        Ok(text.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden_protocol::{ToolResultBlock, ToolUse};

    fn assistant(text: &str) -> Message {
        Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: text.into() }] }
    }

    fn call(id: &str) -> Message {
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse(ToolUse {
                id: id.into(),
                name: "bash".into(),
                input: serde_json::json!({"command": "ls"}),
                raw_arguments: None,
                written: None,
            })],
        }
    }

    fn result(id: &str, content: &str) -> Message {
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResultBlock {
                tool_use_id: id.into(),
                report: None,
                tool_name: "bash".into(),
                content: content.into(),
                is_error: false,
                code: None,
                images: Vec::new(),
            })],
        }
    }

    #[test]
    fn the_view_puts_the_summary_first_and_keeps_turns_alternating() {
        let history =
            vec![Message::user_text("one"), assistant("a1"), Message::user_text("two"), assistant("a2")];
        let at_user =
            model_view(&history, Some(&Compacted { upto: 2, summary: "S".into(), trimmed_upto: 2 }));
        assert_eq!(at_user.len(), 2);
        assert_eq!(at_user[0].role, Role::User);
        assert!(matches!(&at_user[0].content[0], ContentBlock::Text { text } if text.ends_with("\n\nS")));
        assert_eq!(at_user[0].content[1], ContentBlock::Text { text: "two".into() });
        let at_assistant =
            model_view(&history, Some(&Compacted { upto: 3, summary: "S".into(), trimmed_upto: 3 }));
        assert_eq!(
            (at_assistant.len(), at_assistant[0].role, at_assistant[1].role),
            (2, Role::User, Role::Assistant)
        );
        assert_eq!(model_view(&history, None), history);
    }

    #[test]
    fn older_tool_results_are_cut_and_the_recent_ones_and_all_words_kept() {
        let long = "z".repeat(TRIM_CHARS + 500);
        let history =
            vec![Message::user_text("go"), call("t1"), result("t1", &long), call("t2"), result("t2", &long)];
        let view =
            model_view(&history, Some(&Compacted { upto: 0, summary: String::new(), trimmed_upto: 3 }));
        assert_eq!(view.len(), 5, "no summary: every message still sent");
        let ContentBlock::ToolResult(old) = &view[2].content[0] else { panic!() };
        assert!(
            old.content.starts_with(&"z".repeat(TRIM_CHARS))
                && old.content.ends_with("(500 more characters)")
        );
        assert_eq!(view[4], history[4], "the recent result is whole");
        assert_eq!(view[0], history[0]);
        assert!(has_long_results(&history[..3]) && !has_long_results(&history[..2]));
    }

    #[test]
    fn the_split_never_separates_a_call_from_its_result_and_keeps_the_last_assistant_message() {
        let big = "x".repeat(4_000);
        let history = vec![
            Message::user_text("start"),
            call("t1"),
            result("t1", &big),
            call("t2"),
            result("t2", &big),
            call("t3"),
            result("t3", "small"),
        ];
        // Room for little: the latest possible split, at the last call (its result stays with it).
        assert_eq!(choose_split(&history, 0, 10, false), Some(5));
        // Room for more: an earlier split, still at a call.
        assert_eq!(choose_split(&history, 0, 1_200, false), Some(3));
        // Nothing after what was already summarized; a lone prompt is not summarized.
        assert_eq!(choose_split(&history, 5, 10, false), None);
        assert_eq!(choose_split(&history[..3], 0, 10, false), None);
        assert_eq!(choose_split(&[Message::user_text("only")], 0, 10, false), None);
        // Whole exchanges: only at a message the user wrote.
        let turns = vec![
            Message::user_text("one"),
            call("t1"),
            result("t1", "r"),
            assistant("a1"),
            Message::user_text("two"),
            assistant("a2"),
        ];
        assert_eq!(choose_split(&turns, 0, 0, true), Some(4));
        assert_eq!(choose_split(&turns, 0, 0, false), Some(5));
    }

    #[test]
    fn the_transcript_cuts_tool_results_first_and_the_middle_when_too_long() {
        let history = vec![Message::user_text("fix it"), call("t1"), result("t1", &"y".repeat(5_000))];
        let text = transcript(Some("before"), &history, 100_000);
        assert!(text.starts_with("[Summary of what came before]\nbefore"));
        assert!(
            text.contains("[user] fix it") && text.contains("[assistant → tool bash] {\"command\":\"ls\"}")
        );
        assert!(text.contains("… [4000 more characters]"), "{text}");
        let short = transcript(None, &history, 200);
        assert!(short.contains("characters left out"), "{short}");
        assert!(short.chars().count() < 300);
    }
}
