//! Tools for models without native tool calling.
//!
//! [`TextToolProtocol`] wraps any provider: it takes `tools` out of the request, describes them in
//! the system prompt as ```` ```tool {"name": …, "args": {…}} ``` ```` blocks, renders earlier tool
//! calls and results in the history as text, and turns blocks in the streamed answer back into
//! the usual `ToolCallStart` / `ToolCallDelta` / `ToolCallEnd` chunks (see [`parser`]).

pub mod parser;
mod prompt;

use std::collections::VecDeque;
use std::sync::Arc;

use async_trait::async_trait;
use futures::{stream, StreamExt};
use warden_protocol::StopReason;

use super::{ChatRequest, ChunkStream, ModelInfo, Provider, ProviderError, StreamChunk};
pub use parser::ToolBlockParser;

pub struct TextToolProtocol {
    inner: Arc<dyn Provider>,
}

impl TextToolProtocol {
    pub fn new(inner: Arc<dyn Provider>) -> Self {
        Self { inner }
    }
}

struct State {
    inner: ChunkStream,
    parser: ToolBlockParser,
    pending: VecDeque<Result<StreamChunk, ProviderError>>,
    done: bool,
}

#[async_trait]
impl Provider for TextToolProtocol {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn stream(&self, request: ChatRequest) -> ChunkStream {
        let inner = self.inner.stream(prompt::rewrite(request));
        let state = State { inner, parser: ToolBlockParser::new(), pending: VecDeque::new(), done: false };
        Box::pin(stream::unfold(state, |mut st| async move {
            loop {
                if let Some(item) = st.pending.pop_front() {
                    return Some((item, st));
                }
                if st.done {
                    return None;
                }
                let mut out = Vec::new();
                match st.inner.next().await {
                    Some(Ok(StreamChunk::Text(text))) => st.parser.push(&text, &mut out),
                    Some(Ok(StreamChunk::End { stop_reason })) => {
                        st.parser.finish(&mut out);
                        let found = st.parser.blocks_found() > 0;
                        let stop_reason = match stop_reason {
                            StopReason::EndTurn | StopReason::StopSequence if found => StopReason::ToolUse,
                            other => other,
                        };
                        out.push(StreamChunk::End { stop_reason });
                    }
                    Some(Ok(other)) => out.push(other),
                    Some(Err(error)) => {
                        st.done = true;
                        st.pending.push_back(Err(error));
                    }
                    None => st.done = true,
                }
                // Chunks produced before an error still go out first.
                let error = st.pending.pop_front();
                st.pending.extend(out.into_iter().map(Ok));
                st.pending.extend(error);
            }
        }))
    }

    async fn list_models(&self) -> Result<Vec<ModelInfo>, ProviderError> {
        self.inner.list_models().await
    }

    async fn validate_credentials(&self) -> Result<(), ProviderError> {
        self.inner.validate_credentials().await
    }

    async fn context_window(&self, model: &str) -> Option<u32> {
        self.inner.context_window(model).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden_protocol::Usage;

    /// A provider that replays fixed chunks and records the request it got.
    struct Scripted {
        chunks: Vec<StreamChunk>,
        seen: std::sync::Mutex<Option<ChatRequest>>,
    }

    #[async_trait]
    impl Provider for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }
        fn stream(&self, request: ChatRequest) -> ChunkStream {
            *self.seen.lock().unwrap() = Some(request);
            Box::pin(stream::iter(self.chunks.clone().into_iter().map(Ok)))
        }
    }

    #[tokio::test]
    async fn blocks_become_tool_calls_and_the_stop_reason_says_so() {
        let text = "Reading.\n```tool\n{\"name\": \"file_read\", \"args\": {\"path\": \"README.md\"}}\n```\n";
        let mut chunks = vec![StreamChunk::Start { message_id: None, model: None }];
        chunks
            .extend(text.as_bytes().chunks(5).map(|c| StreamChunk::Text(String::from_utf8_lossy(c).into())));
        chunks.push(StreamChunk::Usage(Usage { input_tokens: 1, output_tokens: 2 }));
        chunks.push(StreamChunk::End { stop_reason: StopReason::EndTurn });
        let scripted = Arc::new(Scripted { chunks, seen: Default::default() });
        let wrapped = TextToolProtocol::new(scripted.clone());
        let out: Vec<_> = wrapped.stream(ChatRequest::default()).collect().await;
        let out: Vec<StreamChunk> = out.into_iter().map(Result::unwrap).collect();
        assert!(matches!(out.first(), Some(StreamChunk::Start { .. })));
        assert_eq!(out.last(), Some(&StreamChunk::End { stop_reason: StopReason::ToolUse }));
        let names: Vec<&str> = out
            .iter()
            .filter_map(|c| match c {
                StreamChunk::ToolCallStart { tool_name, .. } => Some(tool_name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(names, vec!["file_read"]);
        assert!(scripted.seen.lock().unwrap().as_ref().unwrap().tools.is_empty());
    }
}
