//! Stream one answer from `URL` through a real provider and build the final assistant message, as
//! the engine's turn does — the Warden side of `bench/stream/run.sh`'s parsers row.
//!
//! The provider's public stream ([`Provider::stream`]) yields [`StreamChunk`]s; they are put
//! together the way the engine's message builder does: text appended to the current text block,
//! each tool call's argument fragments concatenated and parsed into JSON once, at the call's end.
//! Prints a summary of the final message in the format the SDK scripts print (text bytes, the tool
//! call's name, its input's keys and the length of its `content` in UTF-16 units, as JavaScript
//! counts it), so the run can check both sides built the same message; on stderr, the time from the
//! request to the message built (`in_process_ms`, start-up left out).
//!
//! Usage: `stream_drain <anthropic|openai|ollama> <base-url>`

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::HashMap;
use std::process::ExitCode;

use futures::StreamExt;
use warden_core::provider::{
    build_provider, ChatRequest, ProviderError, ProviderKind, ProviderOptions, StreamChunk,
};
use warden_core::secrets::ApiKey;
use warden_protocol::{ContentBlock, Message, Role, StopReason, ToolUse};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(kind), Some(url)) = (args.get(1).and_then(|k| k.parse::<ProviderKind>().ok()), args.get(2))
    else {
        eprintln!("usage: stream_drain <anthropic|openai|ollama> <base-url>");
        return ExitCode::from(2);
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let started = std::time::Instant::now();
    match runtime.block_on(final_message(kind, url)) {
        Ok((message, stop)) => {
            // The time after start-up: the request and the message built (as the SDK scripts say).
            eprintln!("in_process_ms={:.1}", started.elapsed().as_secs_f64() * 1000.0);
            println!("{}", summary(&message));
            if stop != Some(StopReason::ToolUse) {
                eprintln!("unexpected stop reason: {stop:?}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Stream the answer and build the final message from its chunks.
async fn final_message(
    kind: ProviderKind,
    url: &str,
) -> Result<(Message, Option<StopReason>), Box<dyn std::error::Error>> {
    let settings = ProviderOptions {
        base_url: Some(url.to_owned()),
        api_key: ApiKey::new("bench-key"),
        ..Default::default()
    };
    let provider = build_provider(kind, settings);
    let request = ChatRequest {
        model: "bench".into(),
        messages: vec![Message::user_text("go")],
        max_tokens: 1024,
        ..ChatRequest::default()
    };
    let mut stream = provider.stream(request);
    let mut builder = Builder::default();
    while let Some(chunk) = stream.next().await {
        builder.apply(chunk?)?;
    }
    Ok(builder.finish())
}

/// The final message being built: blocks in the order they came, open tool calls by id with their
/// argument text so far.
#[derive(Default)]
struct Builder {
    blocks: Vec<ContentBlock>,
    open_calls: HashMap<String, (usize, String)>,
    stop: Option<StopReason>,
}

impl Builder {
    fn apply(&mut self, chunk: StreamChunk) -> Result<(), ProviderError> {
        match chunk {
            StreamChunk::Text(text) => match self.blocks.last_mut() {
                Some(ContentBlock::Text { text: last }) => last.push_str(&text),
                _ => self.blocks.push(ContentBlock::Text { text }),
            },
            StreamChunk::ToolCallStart { tool_id, tool_name } => {
                self.blocks.push(ContentBlock::ToolUse(ToolUse {
                    id: tool_id.clone(),
                    name: tool_name,
                    input: serde_json::Value::Object(serde_json::Map::new()),
                    raw_arguments: None,
                    written: None,
                }));
                self.open_calls.insert(tool_id, (self.blocks.len() - 1, String::new()));
            }
            StreamChunk::ToolCallDelta { tool_id, partial_json } => {
                if let Some((_, raw)) = self.open_calls.get_mut(&tool_id) {
                    raw.push_str(&partial_json);
                }
            }
            StreamChunk::ToolCallEnd { tool_id } => self.close_call(&tool_id)?,
            StreamChunk::End { stop_reason } => self.stop = Some(stop_reason),
            _ => {}
        }
        Ok(())
    }

    /// Parse a finished call's arguments, once.
    fn close_call(&mut self, tool_id: &str) -> Result<(), ProviderError> {
        let Some((index, raw)) = self.open_calls.remove(tool_id) else { return Ok(()) };
        let Some(ContentBlock::ToolUse(call)) = self.blocks.get_mut(index) else { return Ok(()) };
        if !raw.trim().is_empty() {
            call.input = serde_json::from_str(&raw).map_err(|e| {
                ProviderError::new(
                    warden_core::provider::ErrorCategory::BadRequest,
                    format!("tool input is not JSON: {e}"),
                )
            })?;
        }
        call.raw_arguments = Some(raw);
        Ok(())
    }

    fn finish(self) -> (Message, Option<StopReason>) {
        (Message { role: Role::Assistant, content: self.blocks }, self.stop)
    }
}

/// `text_bytes=… tool=… input_keys=… content_chars=…`, as the SDK scripts print it.
fn summary(message: &Message) -> String {
    let text_bytes: usize = message
        .content
        .iter()
        .map(|b| match b {
            ContentBlock::Text { text } => text.len(),
            _ => 0,
        })
        .sum();
    let tool = message.content.iter().find_map(|b| match b {
        ContentBlock::ToolUse(call) => Some(call),
        _ => None,
    });
    let name = tool.map_or("undefined", |t| t.name.as_str());
    let keys = tool.and_then(|t| t.input.as_object()).map_or(0, serde_json::Map::len);
    let content_chars = tool
        .and_then(|t| t.input.get("content"))
        .and_then(serde_json::Value::as_str)
        .map_or_else(|| "undefined".to_owned(), |c| c.encode_utf16().count().to_string());
    format!("text_bytes={text_bytes} tool={name} input_keys={keys} content_chars={content_chars}")
}
