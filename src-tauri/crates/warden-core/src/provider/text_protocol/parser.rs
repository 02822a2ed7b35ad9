//! Finds ```` ```tool ```` blocks in streamed text.
//!
//! Visible text is released as soon as it cannot be the start of a fence (at most the 7 bytes of
//! a possible ```` ```tool ```` are held back). A block is buffered until its closing fence and
//! then becomes `ToolCallStart` → one `ToolCallDelta` → `ToolCallEnd`.
//!
//! The closing fence is the first ```` ``` ```` that either starts a line (JSON strings cannot hold
//! a raw newline, so that fence is never inside the arguments) or ends a complete JSON value — so
//! ```` ``` ```` inside an argument string (a markdown file being written) does not close the block.
//!
//! A block that is not `{"name": …, "args": {…}}` becomes a [`StreamChunk::ToolCallUnreadable`] —
//! named from the block when a name can be found, else `invalid_tool_call` — carrying the block
//! exactly as the model wrote it and the parser's reason. The loop keeps the block as written in
//! the history and reports the reason as the call's failed result, so the model can correct itself
//! (rather than read back a tidied call it never made and a JSON error about something else).

use serde_json::{Map, Value};

use crate::provider::common::generate_call_id;
use crate::provider::StreamChunk;

const OPEN: &str = "```tool";
const CLOSE: &str = "```";

#[derive(Debug, Default)]
pub struct ToolBlockParser {
    buf: String,
    in_block: bool,
    /// Inside a block: where to continue looking for a closing fence.
    search_from: usize,
    blocks: usize,
}

impl ToolBlockParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many tool blocks were found so far.
    pub fn blocks_found(&self) -> usize {
        self.blocks
    }

    pub fn push(&mut self, text: &str, out: &mut Vec<StreamChunk>) {
        self.buf.push_str(text);
        loop {
            let progressed = if self.in_block { self.close_block(out) } else { self.open_block(out) };
            if !progressed {
                break;
            }
        }
    }

    /// The text ended: release what was held back; an unclosed block is judged as it stands.
    pub fn finish(&mut self, out: &mut Vec<StreamChunk>) {
        if self.in_block {
            let body = std::mem::take(&mut self.buf);
            self.in_block = false;
            self.emit_call(&body, false, out);
        } else if !self.buf.is_empty() {
            out.push(StreamChunk::Text(std::mem::take(&mut self.buf)));
        }
    }

    /// Outside a block: release text up to a fence. Returns whether a block was entered.
    fn open_block(&mut self, out: &mut Vec<StreamChunk>) -> bool {
        let mut from = 0;
        while let Some(rel) = self.buf[from..].find(OPEN) {
            let at = from + rel;
            let after = at + OPEN.len();
            match self.buf[after..].chars().next() {
                // Cannot tell ```tool from ```toolbox yet.
                None => {
                    self.release(at, out);
                    return false;
                }
                Some(c) if c.is_whitespace() || c == '{' => {
                    self.release(at, out);
                    self.buf.drain(..OPEN.len());
                    self.in_block = true;
                    self.search_from = 0;
                    return true;
                }
                Some(_) => from = after,
            }
        }
        // Hold back only a tail that may still grow into the opening fence.
        let keep = (1..OPEN.len())
            .rev()
            .find(|&k| self.buf.as_bytes().ends_with(&OPEN.as_bytes()[..k]))
            .unwrap_or(0);
        self.release(self.buf.len() - keep, out);
        false
    }

    /// Inside a block: look for its closing fence. Returns whether the block was closed.
    fn close_block(&mut self, out: &mut Vec<StreamChunk>) -> bool {
        while let Some(rel) = self.buf[self.search_from..].find(CLOSE) {
            let at = self.search_from + rel;
            let body = &self.buf[..at];
            let starts_line = body.trim_end_matches([' ', '\t']).ends_with('\n') || body.trim().is_empty();
            if starts_line || serde_json::from_str::<Value>(body.trim()).is_ok() {
                let body = body.to_owned();
                self.buf.drain(..at + CLOSE.len());
                self.in_block = false;
                self.emit_call(&body, true, out);
                return true;
            }
            self.search_from = at + 1;
        }
        // A fence may be cut at the end of this piece: look at the last two bytes again next time.
        self.search_from = self.buf.len().saturating_sub(CLOSE.len() - 1);
        while !self.buf.is_char_boundary(self.search_from) {
            self.search_from -= 1;
        }
        false
    }

    fn release(&mut self, upto: usize, out: &mut Vec<StreamChunk>) {
        if upto > 0 {
            let text: String = self.buf.drain(..upto).collect();
            out.push(StreamChunk::Text(text));
        }
    }

    /// One call from a block's `body` (what lies between the fences); `closed`: whether its
    /// closing fence was written.
    fn emit_call(&mut self, body: &str, closed: bool, out: &mut Vec<StreamChunk>) {
        self.blocks += 1;
        let tool_id = generate_call_id();
        match parse_block(body) {
            Ok((tool_name, args)) => {
                out.push(StreamChunk::ToolCallStart { tool_id: tool_id.clone(), tool_name });
                out.push(StreamChunk::ToolCallDelta { tool_id: tool_id.clone(), partial_json: args.to_string() });
                out.push(StreamChunk::ToolCallEnd { tool_id });
            }
            Err(problem) => out.push(StreamChunk::ToolCallUnreadable {
                tool_id,
                tool_name: find_name(body).unwrap_or_else(|| "invalid_tool_call".to_owned()),
                written: format!("{OPEN}{body}{}", if closed { CLOSE } else { "" }),
                reason: format!(
                    "the ```tool block could not be read: {problem}. Write the call again as one block \
                     holding one JSON object: ```tool\n{{\"name\": \"<tool name>\", \"args\": {{<arguments>}}}}\n```"
                ),
            }),
        }
    }
}

fn parse_block(body: &str) -> Result<(String, Value), String> {
    let value: Value =
        serde_json::from_str(body.trim()).map_err(|e| format!("the block is not valid JSON ({e})"))?;
    let Value::Object(mut map) = value else { return Err("the block is not a JSON object".to_owned()) };
    let name = match map.remove("name") {
        Some(Value::String(name)) if !name.trim().is_empty() => name,
        _ => return Err("the block has no \"name\"".to_owned()),
    };
    let args = ["args", "arguments", "input"].iter().find_map(|k| map.remove(*k)).unwrap_or(Value::Null);
    let args = if args.is_null() { Value::Object(Map::new()) } else { args };
    Ok((name, args))
}

/// The value of the first `"name": "…"` in a block that is not valid JSON.
fn find_name(body: &str) -> Option<String> {
    let after_key = &body[body.find("\"name\"")? + 6..];
    let after_colon = after_key.trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let name = &after_colon[..after_colon.find('"')?];
    (!name.trim().is_empty()).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a stream of pieces turns into: merged text, and (name, arguments) per call.
    fn run(pieces: &[&str]) -> (String, Vec<(String, String)>) {
        let mut parser = ToolBlockParser::new();
        let mut out = Vec::new();
        for piece in pieces {
            parser.push(piece, &mut out);
        }
        parser.finish(&mut out);
        let mut text = String::new();
        let mut calls: Vec<(String, String)> = Vec::new();
        let mut open: Option<String> = None;
        for chunk in out {
            match chunk {
                StreamChunk::Text(t) => text.push_str(&t),
                StreamChunk::ToolCallStart { tool_id, tool_name } => {
                    assert!(open.is_none(), "calls must not interleave");
                    open = Some(tool_id);
                    calls.push((tool_name, String::new()));
                }
                StreamChunk::ToolCallDelta { tool_id, partial_json } => {
                    assert_eq!(open.as_ref(), Some(&tool_id));
                    calls.last_mut().unwrap().1.push_str(&partial_json);
                }
                StreamChunk::ToolCallEnd { tool_id } => assert_eq!(open.take(), Some(tool_id)),
                StreamChunk::ToolCallUnreadable { tool_name, written, reason, .. } => {
                    assert!(open.is_none(), "calls must not interleave");
                    assert!(reason.starts_with("the ```tool block could not be read: "), "{reason}");
                    calls.push((tool_name, format!("unreadable: {written}")));
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(open.is_none());
        (text, calls)
    }

    const STREAM: &str = "Let me look — café ✓.\n```tool\n{\"name\": \"file_read\", \"args\": {\"path\": \"a```b.md\"}}\n```\nDone ```rust\nx\n```";

    #[test]
    fn text_and_block_split_at_every_byte_position() {
        let expected_text = "Let me look — café ✓.\n\nDone ```rust\nx\n```";
        let whole = run(&[STREAM]);
        assert_eq!(whole.0, expected_text);
        assert_eq!(whole.1.len(), 1);
        assert_eq!(whole.1[0].0, "file_read");
        let args: Value = serde_json::from_str(&whole.1[0].1).unwrap();
        assert_eq!(args, serde_json::json!({"path": "a```b.md"}));
        for i in (0..=STREAM.len()).filter(|&i| STREAM.is_char_boundary(i)) {
            let (a, b) = STREAM.split_at(i);
            assert_eq!(run(&[a, b]), whole, "split at {i}");
        }
        let chars: Vec<String> = STREAM.chars().map(String::from).collect();
        let pieces: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(run(&pieces), whole);
    }

    #[test]
    fn visible_text_is_released_at_once() {
        let mut parser = ToolBlockParser::new();
        let mut out = Vec::new();
        parser.push("Hello wor", &mut out);
        assert_eq!(out, vec![StreamChunk::Text("Hello wor".into())]);
        out.clear();
        parser.push("ld ``", &mut out);
        assert_eq!(out, vec![StreamChunk::Text("ld ".into())], "only a possible fence is held");
    }

    #[test]
    fn two_blocks_become_two_calls() {
        let (text, calls) =
            run(&["A\n```tool\n{\"name\":\"a\",\"args\":{\"x\":1}}\n```\nB\n```tool {\"name\":\"b\"}```\nC"]);
        assert_eq!(text, "A\n\nB\n\nC");
        assert_eq!(calls, vec![("a".into(), "{\"x\":1}".into()), ("b".into(), "{}".into())]);
    }

    #[test]
    fn malformed_block_is_kept_as_written_with_the_parsers_reason() {
        let block = "```tool\n{\"name\": \"bash\", \"args\": {\"command\": \"ls\"\n```";
        let (text, calls) = run(&[&format!("Try:\n{block}\nafter")]);
        assert_eq!(text, "Try:\n\nafter");
        assert_eq!(calls, vec![("bash".into(), format!("unreadable: {block}"))]);
        let mut parser = ToolBlockParser::new();
        let mut out = Vec::new();
        parser.push(block, &mut out);
        parser.finish(&mut out);
        let [StreamChunk::ToolCallUnreadable { reason, .. }] = out.as_slice() else { panic!("{out:?}") };
        assert!(
            reason.contains("not valid JSON (EOF while parsing an object"),
            "the parser's own words: {reason}"
        );
        assert_eq!(parser.blocks_found(), 1, "the model is answered, so the turn goes on");
    }

    #[test]
    fn block_without_name_or_unclosed_is_still_reported() {
        let (_, calls) = run(&["```tool\n{\"args\": {}}\n```"]);
        assert_eq!(
            calls,
            vec![("invalid_tool_call".into(), "unreadable: ```tool\n{\"args\": {}}\n```".into())]
        );
        let (_, calls) = run(&["```tool\n{\"name\": \"x\", \"args\": {\"a\": 1}}"]);
        assert_eq!(calls, vec![("x".into(), "{\"a\":1}".into())], "an unclosed but complete block counts");
        let (_, calls) = run(&["```tool\n```"]);
        assert_eq!(calls, vec![("invalid_tool_call".into(), "unreadable: ```tool\n```".into())]);
        let (_, calls) = run(&["```tool {\"name\": \"y\", "]);
        assert_eq!(
            calls,
            vec![("y".into(), "unreadable: ```tool {\"name\": \"y\", ".into())],
            "unclosed: no fence added"
        );
    }

    #[test]
    fn other_fences_are_plain_text() {
        let (text, calls) = run(&["```toolbox\nx\n```", " and ```tool"]);
        assert_eq!(text, "```toolbox\nx\n``` and ```tool");
        assert!(calls.is_empty());
    }
}
