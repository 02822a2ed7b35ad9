//! MCP sampling: a server asks for a completion from the user's model. It is offered only to
//! servers whose entry says `"sampling": true`, only where someone can be asked (the window), and
//! every request is shown to the user, who allows or declines it, before anything is sent. The
//! completion comes from the model of the conversation started last (servers are shared by every
//! conversation of the process), without tools, and at most [`MAX_TOKENS`] tokens long.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use serde_json::{json, Value};
use warden_protocol::{ContentBlock, Message, Role};

use super::elicitor::{Elicitor, SHOWN_MAX};
use crate::provider::{answer_text, ChatRequest, Provider, ToolChoice};

/// The longest completion a server gets, whatever it asks for.
pub const MAX_TOKENS: u32 = 4096;
/// How long the model may take to answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(180);

/// The model servers' requests go to: the one of the conversation started last.
#[derive(Default)]
pub struct ServersModel {
    current: RwLock<Option<(Arc<dyn Provider>, String)>>,
}

impl ServersModel {
    /// From now on, servers' requests go to `model` through `provider`.
    pub fn set(&self, provider: Arc<dyn Provider>, model: String) {
        match self.current.write() {
            Ok(mut current) => *current = Some((provider, model)),
            Err(poisoned) => *poisoned.into_inner() = Some((provider, model)),
        }
    }

    fn get(&self) -> Option<(Arc<dyn Provider>, String)> {
        self.current.read().map(|c| c.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }
}

/// Why a request was not answered, in words for the server.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SamplingError {
    #[error("the user declined the request")]
    Declined,
    #[error("the request has no text to answer: {0}")]
    Unreadable(String),
    #[error("no conversation has started yet, so there is no model to ask")]
    NoModel,
    #[error("the model did not answer: {0}")]
    Model(String),
}

/// Answer the server's `sampling/createMessage` request (`params`, as sent): shown to the user
/// through `asker`, then sent to the model; the result as the protocol's `CreateMessageResult`.
pub async fn answer(
    model: &ServersModel,
    asker: &dyn Elicitor,
    server: &str,
    params: &Value,
) -> Result<Value, SamplingError> {
    let messages = messages_of(params)?;
    let system = params.get("systemPrompt").and_then(Value::as_str).map(str::to_owned);
    let asked = params.get("maxTokens").and_then(Value::as_u64).unwrap_or(u64::from(MAX_TOKENS));
    let max_tokens = u32::try_from(asked).unwrap_or(MAX_TOKENS).clamp(1, MAX_TOKENS);
    let Some((provider, model)) = model.get() else { return Err(SamplingError::NoModel) };
    let shown = shown(&model, system.as_deref(), &messages, max_tokens);
    let length = shown.chars().count();
    if length > SHOWN_MAX {
        return Err(SamplingError::Unreadable(format!(
            "it is {length} characters long; Warden shows the user every request in full and passes on at most {SHOWN_MAX}"
        )));
    }
    if !asker.allow_sampling(server, &shown).await {
        return Err(SamplingError::Declined);
    }
    let request = ChatRequest {
        model: model.clone(),
        system,
        messages,
        tools: Vec::new(),
        max_tokens,
        thinking: None,
        tool_choice: ToolChoice::None,
    };
    let text = tokio::time::timeout(ANSWER_TIMEOUT, completion(provider.as_ref(), request))
        .await
        .map_err(|_| SamplingError::Model(format!("no answer within {} s", ANSWER_TIMEOUT.as_secs())))??;
    Ok(json!({
        "model": model,
        "stopReason": "endTurn",
        "role": "assistant",
        "content": { "type": "text", "text": text },
    }))
}

/// The request's messages as Warden's: their text (a message's content is one block or a list);
/// anything else (images, audio, tool use) is refused rather than silently dropped.
fn messages_of(params: &Value) -> Result<Vec<Message>, SamplingError> {
    let listed = params.get("messages").and_then(Value::as_array).filter(|m| !m.is_empty());
    let Some(listed) = listed else { return Err(SamplingError::Unreadable("no messages".to_owned())) };
    listed
        .iter()
        .map(|message| {
            let role = match message.get("role").and_then(Value::as_str) {
                Some("user") => Role::User,
                Some("assistant") => Role::Assistant,
                other => return Err(SamplingError::Unreadable(format!("a message's role is {other:?}"))),
            };
            let blocks = match message.get("content") {
                Some(Value::Array(blocks)) => blocks.iter().collect::<Vec<_>>(),
                Some(block) => vec![block],
                None => Vec::new(),
            };
            let mut text = String::new();
            for block in blocks {
                match (block.get("type").and_then(Value::as_str), block.get("text").and_then(Value::as_str)) {
                    (Some("text"), Some(part)) => text.push_str(part),
                    (kind, _) => {
                        return Err(SamplingError::Unreadable(format!(
                            "Warden passes on text only, and a message holds {}",
                            kind.unwrap_or("an unknown kind of content")
                        )))
                    }
                }
            }
            Ok(Message { role, content: vec![ContentBlock::Text { text }] })
        })
        .collect()
}

/// The request as the user is shown it: the model, the limit, the system prompt and each message.
fn shown(model: &str, system: Option<&str>, messages: &[Message], max_tokens: u32) -> String {
    let mut out = format!("It asks {model} to answer (at most {max_tokens} tokens):\n");
    if let Some(system) = system.filter(|s| !s.trim().is_empty()) {
        out.push_str(&format!("\n[instructions] {system}\n"));
    }
    for message in messages {
        let who = if message.role == Role::User { "[user]" } else { "[assistant]" };
        for block in &message.content {
            if let ContentBlock::Text { text } = block {
                out.push_str(&format!("\n{who} {text}\n"));
            }
        }
    }
    out
}

/// The model's answer to `request`, as text.
async fn completion(provider: &dyn Provider, request: ChatRequest) -> Result<String, SamplingError> {
    let text = answer_text(provider, request).await.map_err(|error| SamplingError::Model(error.message))?;
    if text.trim().is_empty() {
        return Err(SamplingError::Model("the answer was empty".to_owned()));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_messages_are_read_and_anything_else_is_refused() {
        let params = json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Hello"}},
            {"role": "assistant", "content": [{"type": "text", "text": "Hi"}, {"type": "text", "text": "!"}]},
        ]});
        let messages = messages_of(&params).unwrap();
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[1].content, vec![ContentBlock::Text { text: "Hi!".to_owned() }]);

        let image = json!({"messages": [{"role": "user", "content": {"type": "image", "data": "AA==", "mimeType": "image/png"}}]});
        assert!(matches!(messages_of(&image), Err(SamplingError::Unreadable(why)) if why.contains("image")));
        assert!(matches!(messages_of(&json!({"messages": []})), Err(SamplingError::Unreadable(_))));
        let role = json!({"messages": [{"role": "system", "content": {"type": "text", "text": "x"}}]});
        assert!(matches!(messages_of(&role), Err(SamplingError::Unreadable(_))));
    }

    #[test]
    fn the_user_is_shown_the_whole_request() {
        let messages =
            vec![Message { role: Role::User, content: vec![ContentBlock::Text { text: "Why?".into() }] }];
        let text = shown("m-1", Some("Be brief."), &messages, 100);
        assert!(text.contains("m-1") && text.contains("100 tokens"), "{text}");
        assert!(text.contains("[instructions] Be brief.") && text.contains("[user] Why?"), "{text}");
    }

    /// Never to be reached: a request too long to show is refused before the user or the model.
    struct Unreached;

    #[async_trait::async_trait]
    impl Elicitor for Unreached {
        async fn elicit(&self, _: &str, _: &str, _: &Value) -> super::super::Elicitation {
            panic!("no form here")
        }
        async fn allow_sampling(&self, _: &str, _: &str) -> bool {
            panic!("a request too long to show was put to the user")
        }
    }

    #[async_trait::async_trait]
    impl Provider for Unreached {
        fn name(&self) -> &str {
            "unreached"
        }
        fn stream(&self, _: ChatRequest) -> crate::provider::ChunkStream {
            panic!("a request too long to show reached the model")
        }
    }

    #[tokio::test]
    async fn a_request_too_long_to_show_in_full_is_refused_before_anyone_is_asked() {
        let model = ServersModel::default();
        model.set(Arc::new(Unreached), "m".to_owned());
        let text = "x".repeat(SHOWN_MAX);
        let params = json!({"maxTokens": 10, "messages": [{"role": "user", "content": {"type": "text", "text": text}}]});
        let error = answer(&model, &Unreached, "s", &params).await.unwrap_err();
        assert!(matches!(&error, SamplingError::Unreadable(why) if why.contains("in full")), "{error}");
    }
}
