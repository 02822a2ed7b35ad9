//! The queue a wire decoder fills from one network read.
//!
//! A read carries many deltas at once (a 16 KiB read of an Anthropic stream holds about a hundred
//! text deltas). They all arrived together, so nothing is gained by handing them on one by one:
//! consecutive text, consecutive thinking and consecutive fragments of one tool call's input are
//! joined into one chunk as they are queued. The loop then makes one event, one allocation and
//! one write for what would have been a hundred, and the user sees the same text at the same
//! moment. The queue is only filled while it is empty (the stream hands out everything queued
//! before it reads again), so joining never holds text back past its read.

use std::collections::VecDeque;

use super::transport::ChunkResult;
use super::StreamChunk;

pub(crate) trait ChunkQueue {
    /// Queue answer text, joined onto the text queued just before it.
    fn push_text(&mut self, text: &str);
    /// Queue reasoning text, joined onto the reasoning queued just before it.
    fn push_thinking(&mut self, text: &str);
    /// Queue a fragment of a tool call's input, joined onto a fragment of the same call queued just
    /// before it.
    fn push_tool_fragment(&mut self, tool_id: &str, fragment: &str);
}

impl ChunkQueue for VecDeque<ChunkResult> {
    fn push_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.back_mut() {
            Some(Ok(StreamChunk::Text(queued))) => queued.push_str(text),
            _ => self.push_back(Ok(StreamChunk::Text(text.to_owned()))),
        }
    }

    fn push_thinking(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.back_mut() {
            Some(Ok(StreamChunk::Thinking(queued))) => queued.push_str(text),
            _ => self.push_back(Ok(StreamChunk::Thinking(text.to_owned()))),
        }
    }

    fn push_tool_fragment(&mut self, tool_id: &str, fragment: &str) {
        if fragment.is_empty() {
            return;
        }
        match self.back_mut() {
            Some(Ok(StreamChunk::ToolCallDelta { tool_id: queued_id, partial_json }))
                if queued_id == tool_id =>
            {
                partial_json.push_str(fragment)
            }
            _ => self.push_back(Ok(StreamChunk::ToolCallDelta {
                tool_id: tool_id.to_owned(),
                partial_json: fragment.to_owned(),
            })),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(queue: VecDeque<ChunkResult>) -> Vec<StreamChunk> {
        queue.into_iter().map(|chunk| chunk.unwrap_or_else(|e| panic!("unexpected error {e}"))).collect()
    }

    #[test]
    fn consecutive_text_is_one_chunk_and_a_different_kind_starts_a_new_one() {
        let mut queue = VecDeque::new();
        queue.push_text("Hel");
        queue.push_text("lo");
        queue.push_thinking("hm");
        queue.push_thinking(", yes");
        queue.push_text(" there");
        queue.push_text("");
        assert_eq!(
            chunks(queue),
            vec![
                StreamChunk::Text("Hello".into()),
                StreamChunk::Thinking("hm, yes".into()),
                StreamChunk::Text(" there".into()),
            ]
        );
    }

    #[test]
    fn fragments_join_only_within_one_call() {
        let mut queue = VecDeque::new();
        queue.push_tool_fragment("a", "{\"x\":");
        queue.push_tool_fragment("a", "1}");
        queue.push_tool_fragment("b", "{}");
        queue.push_tool_fragment("a", "");
        assert_eq!(
            chunks(queue),
            vec![
                StreamChunk::ToolCallDelta { tool_id: "a".into(), partial_json: "{\"x\":1}".into() },
                StreamChunk::ToolCallDelta { tool_id: "b".into(), partial_json: "{}".into() },
            ]
        );
    }

    #[test]
    fn nothing_is_joined_across_another_chunk() {
        let mut queue = VecDeque::new();
        queue.push_text("a");
        queue.push_back(Ok(StreamChunk::ToolCallEnd { tool_id: "t".into() }));
        queue.push_text("b");
        assert_eq!(queue.len(), 3);
    }
}
