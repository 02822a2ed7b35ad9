//! Stream one answer from `URL` through a real provider and print chunk counts — the Warden side
//! of `bench/stream/run.sh`.
//!
//! Usage: `stream_drain <anthropic|openai|ollama> <base-url>`

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use futures::StreamExt;
use warden_core::provider::{build_provider, ChatRequest, ProviderKind, ProviderOptions, StreamChunk};
use warden_core::secrets::ApiKey;
use warden_protocol::Message;

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
    runtime.block_on(async move {
        let settings =
            ProviderOptions { base_url: Some(url.clone()), api_key: ApiKey::new("bench-key"), ..Default::default() };
        let provider = build_provider(kind, settings);
        let request = ChatRequest {
            model: "bench".into(),
            messages: vec![Message::user_text("go")],
            max_tokens: 1024,
            ..ChatRequest::default()
        };
        let mut stream = provider.stream(request);
        let (mut text, mut text_bytes, mut starts, mut deltas, mut arg_bytes, mut other) = (0, 0, 0, 0, 0, 0);
        while let Some(item) = stream.next().await {
            match item {
                Ok(StreamChunk::Text(t)) => {
                    text += 1;
                    text_bytes += t.len();
                }
                Ok(StreamChunk::ToolCallStart { .. }) => starts += 1,
                Ok(StreamChunk::ToolCallDelta { partial_json, .. }) => {
                    deltas += 1;
                    arg_bytes += partial_json.len();
                }
                Ok(_) => other += 1,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        println!(
            "text_chunks={text} text_bytes={text_bytes} tool_calls={starts} tool_deltas={deltas} arg_bytes={arg_bytes} other={other}"
        );
        ExitCode::SUCCESS
    })
}
