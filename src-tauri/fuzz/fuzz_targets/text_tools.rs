//! The text tool-protocol parser (for models without native tools): whatever the model writes,
//! fed in any pieces, gives the same text and tool calls as fed whole, and never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warden_core::provider::text_protocol::ToolBlockParser;
use warden_core::provider::StreamChunk;

/// Chunks with generated call ids replaced by their order, and adjacent texts joined (how text
/// is split into chunks depends on the reads; what it says does not).
fn normalized(chunks: Vec<StreamChunk>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut text = String::new();
    let mut calls = 0;
    for chunk in chunks {
        match chunk {
            StreamChunk::Text(t) => text.push_str(&t),
            other => {
                if !text.is_empty() {
                    out.push(format!("text {}", std::mem::take(&mut text)));
                }
                let shown = match other {
                    StreamChunk::ToolCallStart { tool_name, .. } => {
                        calls += 1;
                        format!("start {calls} {tool_name}")
                    }
                    StreamChunk::ToolCallDelta { partial_json, .. } => format!("delta {calls} {partial_json}"),
                    StreamChunk::ToolCallEnd { .. } => format!("end {calls}"),
                    StreamChunk::ToolCallUnreadable { tool_name, written, reason, .. } => {
                        calls += 1;
                        format!("unreadable {calls} {tool_name} {written} {reason}")
                    }
                    other => format!("{other:?}"),
                };
                out.push(shown);
            }
        }
    }
    if !text.is_empty() {
        out.push(format!("text {text}"));
    }
    out
}

fn parse(pieces: &[&str]) -> Vec<String> {
    let mut parser = ToolBlockParser::new();
    let mut out = Vec::new();
    for piece in pieces {
        parser.push(piece, &mut out);
    }
    parser.finish(&mut out);
    normalized(out)
}

fuzz_target!(|input: &[u8]| {
    let Some((&cut, rest)) = input.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let step = usize::from(cut % 11) + 1;
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + step).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        pieces.push(&text[at..end]);
        at = end;
    }
    assert_eq!(parse(&pieces), parse(&[text]));
});
