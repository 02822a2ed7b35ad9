//! Small pieces every wire format needs.

use rand::Rng;
use warden_protocol::ToolResultBlock;

/// A tool call id for providers that send none (Ollama's own scheme: `call_` + 8 characters).
pub(crate) fn generate_call_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    let suffix: String = (0..8).map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())])).collect();
    format!("call_{suffix}")
}

/// The text of a tool result for formats without an error flag (OpenAI, Ollama): a failure is
/// said in the text, unless the text already starts by saying so.
pub(crate) fn result_text_with_error_mark(result: &ToolResultBlock) -> std::borrow::Cow<'_, str> {
    let already_marked =
        result.content.trim_start().get(..5).is_some_and(|p| p.eq_ignore_ascii_case("error"));
    if result.is_error && !already_marked {
        std::borrow::Cow::Owned(format!("ERROR: {}", result.content))
    } else {
        std::borrow::Cow::Borrowed(&result.content)
    }
}

/// A tool definition in the OpenAI function format, which Ollama shares.
#[derive(serde::Serialize)]
pub(crate) struct FunctionTool<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub function: FunctionSpec<'a>,
}

#[derive(serde::Serialize)]
pub(crate) struct FunctionSpec<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub parameters: &'a serde_json::Value,
}

pub(crate) fn function_tools(tools: &[warden_protocol::ToolDefinition]) -> Vec<FunctionTool<'_>> {
    tools
        .iter()
        .map(|t| FunctionTool {
            kind: "function",
            function: FunctionSpec {
                name: &t.name,
                description: &t.description,
                parameters: &t.input_schema,
            },
        })
        .collect()
}

/// Join a base URL and a path without doubling or losing the slash.
pub(crate) fn join_url(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim_end_matches('/'), path.trim_start_matches('/'))
}

/// A request body as bytes. Serializing Warden's own types cannot really fail; if it ever does,
/// the request is refused as malformed rather than sent half-built.
pub(crate) fn encode_body(body: &impl serde::Serialize) -> Result<bytes::Bytes, super::ProviderError> {
    serde_json::to_vec(body).map(bytes::Bytes::from).map_err(|e| {
        super::ProviderError::new(
            super::ErrorCategory::BadRequest,
            format!("Could not encode the request: {e}"),
        )
    })
}

/// The text of a user turn, joined, borrowed when it is one block; `None` when there is none.
/// OpenAI and Ollama send it as its own message after the turn's tool results.
pub(crate) fn user_text(message: &warden_protocol::Message) -> Option<std::borrow::Cow<'_, str>> {
    let mut text: Option<std::borrow::Cow<'_, str>> = None;
    for block in &message.content {
        if let warden_protocol::ContentBlock::Text { text: t } = block {
            match &mut text {
                None => text = Some(std::borrow::Cow::Borrowed(t)),
                Some(joined) => joined.to_mut().push_str(t),
            }
        }
    }
    text.filter(|t| !t.is_empty())
}

/// The images of a user turn for formats whose tool messages cannot carry any (OpenAI, Ollama):
/// those the user attached, then those the turn's tool results returned.
pub(crate) fn user_images(message: &warden_protocol::Message) -> Vec<&warden_protocol::ToolImage> {
    let attached = message.content.iter().filter_map(|block| match block {
        warden_protocol::ContentBlock::Image(image) => Some(image),
        _ => None,
    });
    let returned = message.content.iter().flat_map(|block| match block {
        warden_protocol::ContentBlock::ToolResult(result) => result.images.iter(),
        _ => [].iter(),
    });
    attached.chain(returned).collect()
}

/// What introduces the images of a turn whose only text is tool results.
pub(crate) const TOOL_IMAGES_NOTE: &str = "Images returned by the tool calls above:";

/// A field that may be sent as `null`, read as its default (an empty list, `false`, `0`): for
/// `#[serde(default, deserialize_with = "null_as_default")]` on every non-`Option` field of a
/// wire type. Servers that serialize their whole response model write `null` for what they leave
/// out (llama-cpp-python's `"tool_calls": null` in every streamed chunk), and "absent" is what
/// they mean. `Option` fields need nothing: serde reads `null` as `None`.
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de> + Default,
{
    Ok(<Option<T> as serde::Deserialize>::deserialize(deserializer)?.unwrap_or_default())
}

/// A string field of a streamed event, borrowed from the event's text when it holds no escapes.
///
/// Use `Option<WireText>` rather than `Option<Cow<str>>`: serde borrows a `Cow` only when it is
/// the field itself, so the `Option` form allocates a `String` for every delta.
#[derive(serde::Deserialize, Debug)]
#[serde(transparent)]
pub(crate) struct WireText<'a>(#[serde(borrow)] pub std::borrow::Cow<'a, str>);

impl std::ops::Deref for WireText<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::WireText;

    #[derive(serde::Deserialize)]
    struct Delta<'a> {
        #[serde(borrow, default)]
        text: Option<WireText<'a>>,
    }

    #[test]
    fn optional_wire_text_is_borrowed_unless_it_has_escapes() {
        let plain: Delta<'_> =
            serde_json::from_str(r#"{"text":"Zürich "}"#).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(plain.text, Some(WireText(std::borrow::Cow::Borrowed("Zürich ")))));
        let escaped: Delta<'_> = serde_json::from_str(r#"{"text":"a\nb"}"#).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(escaped.text.as_deref(), Some("a\nb"));
        let absent: Delta<'_> = serde_json::from_str("{}").unwrap_or_else(|e| panic!("{e}"));
        assert!(absent.text.is_none());
    }
}
