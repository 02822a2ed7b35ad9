//! What Warden asks an OpenAI-compatible server beyond Chat Completions, because the format itself
//! has no place for it: how large a model's context window is (llama.cpp's `/props`, vLLM's
//! `max_model_len` in the model list, LM Studio's model info) and, once, whether the server
//! honours native tools at all (the probe). See `docs/LOCAL_MODELS.md`.

use std::sync::Arc;

use futures::StreamExt;
use serde_json::{json, Value};

use warden_protocol::{StopReason, Usage};

use super::request::Body;
use crate::provider::common::{generate_call_id, join_url};
use crate::provider::http::shared_client;
use crate::provider::transport::{answer_body, ChunkResult, Transport};
use crate::provider::{ChunkStream, ErrorCategory, ProviderError, StreamChunk};

/// The request of a stream, not streamed: what is sent again when the stream's body held no
/// event. llama-cpp-python answers `200` and then nothing when a request does not fit the context
/// or its chat template fails, and `chatml-function-calling` cannot stream a call the model chose
/// itself ("Automatic streaming tool choice is not supported"); asked without streaming, it says
/// what went wrong, or answers.
pub(crate) fn unstreamed_body(body: &Body<'_>) -> Option<bytes::Bytes> {
    let mut value = serde_json::to_value(body).ok()?;
    let map = value.as_object_mut()?;
    map.insert("stream".to_owned(), Value::Bool(false));
    map.remove("stream_options");
    serde_json::to_vec(&value).ok().map(bytes::Bytes::from)
}

/// `streamed`, except that when its body held no event, the same request is sent once without
/// streaming: its answer, whole, is the message (or the server's own error is the failure).
pub(crate) fn unstreamed_when_empty(
    streamed: ChunkStream,
    transport: Arc<Transport>,
    base_url: String,
    unstreamed: bytes::Bytes,
) -> ChunkStream {
    let mut asked = Some((transport, base_url, unstreamed));
    let mut began = false;
    Box::pin(
        streamed
            .then(move |item| {
                let ask = match &item {
                    Err(error) if !began && error.message.contains(super::decoder::EMPTY_STREAM) => {
                        asked.take()
                    }
                    Ok(StreamChunk::Retrying { .. }) => None,
                    _ => {
                        began = true;
                        None
                    }
                };
                async move {
                    match (item, ask) {
                        (Err(error), Some((transport, base_url, body))) => {
                            ask_unstreamed(&transport, &base_url, body, error).await
                        }
                        (item, _) => vec![item],
                    }
                }
            })
            .flat_map(futures::stream::iter),
    )
}

/// The request sent without streaming: the answer as chunks, or the server's error. When that
/// second ask fails too, `empty` (the empty stream's error) is the failure, saying what became of
/// the second ask: a model that writes a long answer whole may take longer than the idle timeout,
/// and "an empty stream" alone would hide that.
async fn ask_unstreamed(
    transport: &Transport,
    base_url: &str,
    body: bytes::Bytes,
    empty: ProviderError,
) -> Vec<ChunkResult> {
    let failed = |category: ErrorCategory, what: String| {
        let mut error = empty.clone();
        error.category = category;
        error.message = format!("{} Asked once more without streaming, it {what}.", empty.message);
        vec![Err(error)]
    };
    let silent = || {
        failed(
            ErrorCategory::IdleTimeout,
            format!(
                "sent nothing for {} s (a long answer written whole by a slow model), so the request was stopped",
                transport.idle_timeout.as_secs_f64()
            ),
        )
    };
    let Ok(client) = shared_client() else { return vec![Err(empty)] };
    let send = || {
        let mut request = client
            .post(join_url(base_url, "chat/completions"))
            .header("content-type", "application/json")
            .body(body.clone());
        if let Some(key) = &transport.key {
            request = request.bearer_auth(key.expose());
        }
        tokio::time::timeout(transport.idle_timeout, request.send())
    };
    // The server closes the connection the empty stream came on; the client may hand that one out
    // again before it sees the close, so a failed send is made once more, on a new connection.
    let response = match send().await {
        Ok(Ok(response)) => response,
        Ok(Err(error)) => {
            tracing::debug!(%error, "asking again without streaming: sending once more");
            match send().await {
                Ok(Ok(response)) => response,
                Ok(Err(error)) => return failed(empty.category, format!("could not be reached ({error})")),
                Err(_) => return silent(),
            }
        }
        Err(_) => return silent(),
    };
    // Read as any answer is: at most Warden's limit, and a refusal classified from its first bytes.
    let read = answer_body(transport, response, "answer (not streamed)");
    let bytes = match tokio::time::timeout(transport.idle_timeout, read).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(error)) => {
            tracing::info!(%error, "the stream was empty; asked without streaming, the server refused");
            return vec![Err(error)];
        }
        Err(_) => return silent(),
    };
    tracing::info!("the stream was empty; asked without streaming, the server answered");
    match serde_json::from_slice(&bytes).ok().as_ref().and_then(whole_answer) {
        Some(chunks) => chunks,
        None => failed(empty.category, "answered with something that is not a chat completion".to_owned()),
    }
}

/// A `chat.completion` answer (not streamed) as the chunks a stream of it would have given.
fn whole_answer(answer: &Value) -> Option<Vec<ChunkResult>> {
    let text_of = |v: Option<&Value>| v.and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned);
    let choice = answer.get("choices")?.get(0)?;
    let message = choice.get("message")?;
    let mut out = vec![Ok(StreamChunk::Start {
        message_id: text_of(answer.get("id")),
        model: text_of(answer.get("model")),
    })];
    if let Some(thinking) =
        text_of(message.get("reasoning_content")).or_else(|| text_of(message.get("reasoning")))
    {
        out.push(Ok(StreamChunk::Thinking(thinking)));
    }
    if let Some(text) = text_of(message.get("content")) {
        out.push(Ok(StreamChunk::Text(text)));
    }
    let calls = message.get("tool_calls").and_then(Value::as_array).cloned().unwrap_or_default();
    for call in &calls {
        let tool_id = text_of(call.get("id")).unwrap_or_else(generate_call_id);
        let function = call.get("function");
        out.push(Ok(StreamChunk::ToolCallStart {
            tool_id: tool_id.clone(),
            tool_name: text_of(function.and_then(|f| f.get("name"))).unwrap_or_default(),
        }));
        if let Some(arguments) = text_of(function.and_then(|f| f.get("arguments"))) {
            out.push(Ok(StreamChunk::ToolCallDelta { tool_id: tool_id.clone(), partial_json: arguments }));
        }
        out.push(Ok(StreamChunk::ToolCallEnd { tool_id }));
    }
    if let Some(usage) = answer.get("usage").filter(|u| u.is_object()) {
        let count = |name: &str| {
            usage.get(name).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok()).unwrap_or(0)
        };
        out.push(Ok(StreamChunk::Usage(Usage {
            input_tokens: count("prompt_tokens"),
            output_tokens: count("completion_tokens"),
        })));
    }
    let stop_reason = match choice.get("finish_reason").and_then(Value::as_str) {
        _ if !calls.is_empty() => StopReason::ToolUse,
        Some("length") => StopReason::MaxTokens,
        Some("content_filter") => StopReason::Refusal,
        _ => StopReason::EndTurn,
    };
    out.push(Ok(StreamChunk::End { stop_reason }));
    Some(out)
}

/// The tool the probe asks the model to call.
pub(crate) const PROBE_TOOL: &str = "warden_probe";

/// The probe: one short request, not streamed, asking the model to call the one tool offered, with
/// `tool_choice: "auto"` and temperature 0. A server that honours tools gets the call; one that
/// ignores `tools` lets the model answer in text. Not a `tool_choice` that names the tool: even a
/// server that ignores `tools` under `"auto"` (llama-cpp-python's default chat formats) forces the
/// named call with a grammar, which would hide exactly what is asked. Never `"required"`:
/// llama-cpp-python 0.3.36 fails an assertion on it and then stops answering altogether.
pub(crate) fn probe_body(model: &str) -> Value {
    json!({
        "model": model,
        "messages": [{"role": "user", "content": format!("Call the function {PROBE_TOOL}.")}],
        "tools": [{
            "type": "function",
            "function": {
                "name": PROBE_TOOL,
                "description": "Answers Warden's check that tools reach the model.",
                "parameters": {"type": "object", "properties": {}},
            },
        }],
        "tool_choice": "auto",
        "max_tokens": 48,
        "temperature": 0,
        "stream": false,
    })
}

/// What a probe's answer says: `Some(true)` a native call came back, `Some(false)` only text.
/// `None` for an answer that is neither (no choices, an error object).
pub(crate) fn probe_verdict(answer: &Value) -> Option<bool> {
    let message = answer.get("choices")?.get(0)?.get("message")?;
    let called = message.get("tool_calls").and_then(Value::as_array).is_some_and(|calls| !calls.is_empty())
        || message.get("function_call").is_some_and(|call| !call.is_null());
    Some(called)
}

/// The server's root, where llama.cpp serves `/props` and LM Studio its own API: the base URL
/// without a trailing `/v1`.
pub(crate) fn server_root(base_url: &str) -> &str {
    let trimmed = base_url.trim_end_matches('/');
    trimmed.strip_suffix("/v1").unwrap_or(trimmed)
}

/// llama.cpp's `GET /props`: `default_generation_settings.n_ctx` (the context each slot has),
/// or a top-level `n_ctx` as some builds and compatible servers send.
pub(crate) fn props_window(props: &Value) -> Option<u32> {
    let n_ctx = props
        .get("default_generation_settings")
        .and_then(|settings| settings.get("n_ctx"))
        .or_else(|| props.get("n_ctx"))?;
    positive(n_ctx)
}

/// LM Studio's `GET /api/v1/models`: the loaded instance's `context_length` (what the model runs
/// with now), else the model's `max_context_length`.
pub(crate) fn lmstudio_window(listing: &Value, model: &str) -> Option<u32> {
    let entry = listing
        .get("models")?
        .as_array()?
        .iter()
        .find(|m| m.get("key").and_then(Value::as_str) == Some(model))?;
    let loaded = entry
        .get("loaded_instances")
        .and_then(Value::as_array)
        .and_then(|instances| instances.first())
        .and_then(|instance| instance.get("config")?.get("context_length"))
        .and_then(positive);
    loaded.or_else(|| entry.get("max_context_length").and_then(positive))
}

/// The URLs asked for a window, in order: llama.cpp's `/props`, LM Studio's model list.
pub(crate) fn window_lookups(base_url: &str) -> [String; 2] {
    let root = server_root(base_url);
    [join_url(root, "props"), join_url(root, "api/v1/models")]
}

fn positive(value: &Value) -> Option<u32> {
    value.as_u64().filter(|n| *n > 0).and_then(|n| u32::try_from(n).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_drops_v1_only() {
        assert_eq!(server_root("http://127.0.0.1:8080/v1"), "http://127.0.0.1:8080");
        assert_eq!(server_root("http://127.0.0.1:8080/v1/"), "http://127.0.0.1:8080");
        assert_eq!(server_root("http://h/openai"), "http://h/openai");
    }

    #[test]
    fn the_probe_leaves_the_choice_to_the_model() {
        let body = probe_body("m");
        assert_eq!(body["tool_choice"], "auto", "a named tool is forced even where tools are ignored");
        assert_eq!(body["tools"][0]["function"]["name"], PROBE_TOOL);
        assert_eq!(body["stream"], false);
    }

    #[test]
    fn a_whole_answer_becomes_the_chunks_of_its_stream() {
        let answer: Value = serde_json::from_slice(include_bytes!(
            "../../../../warden-testkit/wire/openai_compat/llama_cpp_python_probe_tool_call.json"
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        let chunks: Vec<StreamChunk> =
            whole_answer(&answer).unwrap_or_default().into_iter().filter_map(Result::ok).collect();
        assert!(matches!(&chunks[0], StreamChunk::Start { message_id: Some(_), .. }));
        assert!(
            matches!(&chunks[1], StreamChunk::ToolCallStart { tool_name, .. } if tool_name == "warden_probe")
        );
        assert!(
            matches!(&chunks[2], StreamChunk::ToolCallDelta { partial_json, .. } if partial_json == "{ }")
        );
        assert!(matches!(&chunks[4], StreamChunk::Usage(Usage { input_tokens: 27, output_tokens: 3 })));
        assert_eq!(chunks.last(), Some(&StreamChunk::End { stop_reason: StopReason::ToolUse }));
    }

    #[test]
    fn probe_answers_are_read() {
        let call = json!({"choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "warden_probe", "arguments": "{}"}}]}}]});
        assert_eq!(probe_verdict(&call), Some(true));
        let text =
            json!({"choices": [{"message": {"role": "assistant", "content": "Sure!", "tool_calls": null}}]});
        assert_eq!(probe_verdict(&text), Some(false));
        assert_eq!(probe_verdict(&json!({"error": {"message": "x"}})), None);
    }
}
