//! HTTP plumbing shared by every provider: one `reqwest` client, and the classification of an
//! error response into a [`ProviderError`] — done once, here, so retrying and what the user reads
//! never depend on which provider failed.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use reqwest::header::HeaderMap;
use serde_json::Value;

use super::{ErrorCategory, ProviderError};
use crate::secrets::ApiKey;

/// The process-wide client: connection pools and TLS configuration are built once.
///
/// It follows no redirect: every provider request carries the API key in a header, and a redirect
/// to another origin would hand it over. A `3xx` comes back as an error that names where it
/// pointed ([`classify_http_error`]); the user puts the final address in the base URL.
pub(crate) fn shared_client() -> Result<reqwest::Client, ProviderError> {
    static CLIENT: OnceLock<Result<reqwest::Client, String>> = OnceLock::new();
    CLIENT
        .get_or_init(|| {
            reqwest::Client::builder()
                .use_rustls_tls()
                .redirect(reqwest::redirect::Policy::none())
                .connect_timeout(Duration::from_secs(30))
                .tcp_nodelay(true)
                .build()
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|e| ProviderError::network(format!("Could not set up the HTTP client: {e}")))
}

/// The most bytes of an error response read: any provider's error object fits many times over,
/// and a server that answers an error with an endless body is not read past it.
pub(crate) const MAX_ERROR_BODY: usize = 64 * 1024;
/// The most bytes of an answer that is not a stream: a model list (OpenRouter's, the longest
/// known, is a few MB), a model's details.
pub(crate) const MAX_ANSWER_BODY: usize = 16 * 1024 * 1024;

/// Up to `limit` bytes of `response`'s body, read as it arrives; the flag says whether there was
/// more (never read: dropping the response closes the connection).
pub(crate) async fn read_at_most(
    response: &mut reqwest::Response,
    limit: usize,
) -> Result<(Vec<u8>, bool), reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        let room = limit - body.len();
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, true));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, false))
}

/// `8 MiB`, `64 KiB`, `300 bytes`: a limit as the user reads it.
pub(crate) fn size_in_words(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// For clients that may follow redirects (web search): up to 5 hops, each on the origin (scheme,
/// host, port) of the first request; a redirect elsewhere is not followed and its `3xx` is the
/// answer. Credentials in headers therefore never reach another origin.
pub(crate) fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let same = attempt.previous().first().is_some_and(|first| first.origin() == attempt.url().origin());
        if !same {
            attempt.stop()
        } else if attempt.previous().len() > 5 {
            attempt.error("too many redirects")
        } else {
            attempt.follow()
        }
    })
}

/// `scheme://host:port` of a `Location` header, or the header itself when it is relative, so a
/// message can say where a redirect pointed without repeating its path or query (which may hold
/// tokens).
fn redirect_target(headers: &HeaderMap) -> String {
    let Some(location) = headers.get(reqwest::header::LOCATION).and_then(|v| v.to_str().ok()) else {
        return "an address it did not name".to_owned();
    };
    match reqwest::Url::parse(location.trim()) {
        Ok(url) => url.origin().ascii_serialization(),
        Err(_) => "another path of the same server".to_owned(),
    }
}

/// The provider's error body, whatever its shape: Anthropic `{"type":"error","error":{type,message}}`,
/// OpenAI `{"error":{message,type,code}}` (code may be a number on OpenRouter), Ollama `{"error":"…"}`.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct ErrorBody {
    pub kind: Option<String>,
    pub code: Option<String>,
    pub message: Option<String>,
}

impl ErrorBody {
    pub fn parse(body: &[u8]) -> Self {
        match serde_json::from_slice::<Value>(body) {
            Ok(value) => Self::from_value(value.get("error").unwrap_or(&value)),
            Err(_) => Self::default(),
        }
    }

    /// Read the `error` member of a response or stream event.
    pub fn from_value(error: &Value) -> Self {
        let text = |v: Option<&Value>| match v {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        match error {
            Value::String(s) => Self { message: Some(s.clone()), ..Self::default() },
            Value::Object(_) => Self {
                kind: text(error.get("type")),
                code: text(error.get("code")),
                message: text(error.get("message")),
            },
            _ => Self::default(),
        }
    }

    fn is(&self, name: &str) -> bool {
        self.kind.as_deref() == Some(name) || self.code.as_deref() == Some(name)
    }

    /// The provider's own name for the error, preferring the specific `code` over the `type`.
    fn provider_code(&self) -> Option<String> {
        match (&self.code, &self.kind) {
            (Some(code), _) if code.parse::<u16>().is_err() => Some(code.clone()),
            (_, Some(kind)) => Some(kind.clone()),
            (Some(code), None) => Some(code.clone()),
            (None, None) => None,
        }
    }
}

/// Whether the error says the request did not fit the model's context window, and the window it
/// names if it names one. The servers' own words: OpenAI and vLLM "This model's maximum context
/// length is 8192 tokens" (`context_length_exceeded`, also llama-cpp-python's), llama.cpp "the
/// request exceeds the available context size" (`exceed_context_size_error`, with `n_ctx`),
/// llama-cpp-python's own "Requested tokens (N) exceed context window of 2048".
fn context_overflow(body: &ErrorBody, error: &Value) -> Option<Option<u32>> {
    let message = body.message.as_deref().unwrap_or_default().to_lowercase();
    let named = body.is("context_length_exceeded")
        || body.is("exceed_context_size_error")
        || message.contains("maximum context length")
        || message.contains("exceed context window")
        || message.contains("exceeds the available context size");
    if !named {
        return None;
    }
    let number_after = |phrase: &str| {
        let at = message.find(phrase)? + phrase.len();
        let digits: String = message[at..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(|c| *c != ',')
            .collect();
        digits.parse::<u32>().ok().filter(|n| *n > 0)
    };
    let window = error
        .get("n_ctx")
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .or_else(|| number_after("maximum context length is"))
        .or_else(|| number_after("context window of"));
    Some(window)
}

/// What servers answer with a 5xx when the request itself was wrong, lower-cased: sending it
/// again cannot help, so it is not retried. Each is a real server's wording.
const INVALID_REQUEST_WORDINGS: &[&str] = &[
    // llama-cpp-python (FastAPI) answers a body its schema refuses with 500 and pydantic's
    // "7 validation errors: {'type': 'string_type', 'loc': ('body', 'messages', 2, …" (an
    // assistant turn's `"content": null`, `openai_compat/llama_cpp_python_http_500_content_null.http`).
    "validation error",
];

/// Whether a 5xx's message says the request itself was invalid ([`INVALID_REQUEST_WORDINGS`]).
fn names_an_invalid_request(body: &ErrorBody) -> bool {
    let message = body.message.as_deref().unwrap_or_default().to_lowercase();
    INVALID_REQUEST_WORDINGS.iter().any(|wording| message.contains(wording))
}

/// The category a provider's error type names, when it names one we know.
fn category_of_error_type(body: &ErrorBody) -> Option<ErrorCategory> {
    if body.is("insufficient_quota") || body.is("billing_error") {
        return Some(ErrorCategory::Quota);
    }
    if body.is("overloaded_error") {
        return Some(ErrorCategory::Overloaded);
    }
    if body.is("rate_limit_error") || body.is("rate_limit_exceeded") {
        return Some(ErrorCategory::RateLimited);
    }
    if body.is("authentication_error") || body.is("permission_error") || body.is("invalid_api_key") {
        return Some(ErrorCategory::Auth);
    }
    if body.is("api_error") || body.is("server_error") {
        return Some(ErrorCategory::Server);
    }
    if body.is("invalid_request_error") || body.is("not_found_error") || body.is("request_too_large") {
        return Some(ErrorCategory::BadRequest);
    }
    None
}

fn category_of_status(status: u16) -> ErrorCategory {
    match status {
        401 | 403 => ErrorCategory::Auth,
        402 => ErrorCategory::Quota,
        408 => ErrorCategory::Network,
        429 => ErrorCategory::RateLimited,
        529 => ErrorCategory::Overloaded,
        500..=599 => ErrorCategory::Server,
        _ => ErrorCategory::BadRequest,
    }
}

/// What a response's status says about the key its request carried: a success accepted it, a
/// 401 or 403 rejected it; anything else says nothing about the key.
pub(crate) fn note_key_verdict(key: Option<&ApiKey>, status: u16) {
    let accepted = match status {
        200..=299 => true,
        401 | 403 => false,
        _ => return,
    };
    if let Some(key) = key {
        crate::secrets::verdict::record(key, accepted);
    }
}

/// Classify a non-success HTTP response. `provider` is the name the user knows ("Anthropic");
/// `key` is scrubbed from everything the provider echoed back.
pub(crate) fn classify_http_error(
    provider: &str,
    status: u16,
    headers: &HeaderMap,
    body: &[u8],
    key: Option<&ApiKey>,
) -> ProviderError {
    if (300..400).contains(&status) {
        let target = redirect_target(headers);
        return ProviderError::new(
            ErrorCategory::BadRequest,
            format!(
                "{provider} answered with a redirect ({status}) to {target}. Warden does not follow \
                 redirects from a provider, so the API key is never sent anywhere but the base URL; \
                 put the final address in the base URL in Settings."
            ),
        )
        .with_status(status);
    }
    let parsed = ErrorBody::parse(body);
    let error_value = serde_json::from_slice::<Value>(body)
        .ok()
        .map(|v| v.get("error").cloned().unwrap_or(v))
        .unwrap_or(Value::Null);
    let overflow = context_overflow(&parsed, &error_value);
    let by_status = category_of_status(status);
    let category = match (by_status, category_of_error_type(&parsed)) {
        // A request too large for the model is the request's fault whatever the status says.
        _ if overflow.is_some() => ErrorCategory::BadRequest,
        // The status decides, except where the body is more specific for the same status:
        // a 429 may be a quota problem, a 5xx may say "overloaded" — or that the request itself
        // was invalid (sending it again cannot help).
        (ErrorCategory::RateLimited, Some(ErrorCategory::Quota)) => ErrorCategory::Quota,
        (ErrorCategory::Server, Some(ErrorCategory::Overloaded)) => ErrorCategory::Overloaded,
        (ErrorCategory::Server, Some(ErrorCategory::BadRequest)) => ErrorCategory::BadRequest,
        (ErrorCategory::Server, _) if names_an_invalid_request(&parsed) => ErrorCategory::BadRequest,
        (ErrorCategory::BadRequest, Some(specific)) if status != 404 => specific,
        (by_status, _) => by_status,
    };
    let detail = match parsed.message.as_deref() {
        Some(m) => m.to_owned(),
        None => String::from_utf8_lossy(body).trim().chars().take(200).collect(),
    };
    let mut error = ProviderError::new(category, describe(provider, category, Some(status), &detail, key))
        .with_status(status);
    if let Some(code) = parsed.provider_code() {
        error = error.with_provider_code(code);
    }
    error.context_overflow = overflow;
    error = error.with_retry_after(retry_after(headers, SystemTime::now()));
    if let Some(should) = headers.get("x-should-retry").and_then(|v| v.to_str().ok()) {
        match should.trim() {
            "true" => error.should_retry = Some(true),
            "false" => error.should_retry = Some(false),
            _ => {}
        }
    }
    error
}

/// Classify an error reported inside a stream after HTTP 200 (Anthropic `event: error`,
/// an OpenAI `data:` object with `error`, an Ollama `{"error":…}` line).
pub(crate) fn classify_stream_error(provider: &str, error: &Value, key: Option<&ApiKey>) -> ProviderError {
    let parsed = ErrorBody::from_value(error);
    let status = parsed.code.as_deref().and_then(|c| c.parse::<u16>().ok()).filter(|s| *s >= 400);
    let overflow = context_overflow(&parsed, error);
    let category = if overflow.is_some() {
        ErrorCategory::BadRequest
    } else {
        category_of_error_type(&parsed)
            .or_else(|| status.map(category_of_status))
            .unwrap_or(ErrorCategory::Server)
    };
    let detail = parsed.message.clone().unwrap_or_else(|| "no details".to_owned());
    let mut err = ProviderError::new(category, describe(provider, category, status, &detail, key));
    err.context_overflow = overflow;
    if let Some(status) = status {
        err = err.with_status(status);
    }
    match parsed.provider_code() {
        Some(code) => err.with_provider_code(code),
        None => err,
    }
}

/// The sentence the user reads. Never contains the key, even if the provider echoed it.
pub(crate) fn describe(
    provider: &str,
    category: ErrorCategory,
    status: Option<u16>,
    detail: &str,
    key: Option<&ApiKey>,
) -> String {
    let detail = scrub(detail.trim(), key);
    let what = match status {
        Some(status) if detail.is_empty() => format!("{status}"),
        Some(status) => format!("{status} {detail}"),
        None => detail,
    };
    match category {
        ErrorCategory::Auth => {
            format!("{provider} rejected the API key ({what}). Check the key in Settings.")
        }
        ErrorCategory::Quota => format!(
            "{provider} says the account has no quota or credit left ({what}). Check your plan and billing."
        ),
        ErrorCategory::RateLimited => {
            format!("{provider} is rate-limiting requests ({what}). Wait a moment and try again.")
        }
        ErrorCategory::Overloaded => {
            format!("{provider} is overloaded right now ({what}). Try again in a little while.")
        }
        ErrorCategory::Server => format!("{provider} had a server error ({what}). Try again later."),
        ErrorCategory::BadRequest if status == Some(404) => format!(
            "{provider} could not find what was asked for ({what}). Check the model name and the base URL in Settings."
        ),
        ErrorCategory::BadRequest => {
            format!("{provider} refused the request ({what}). Check the model in Settings, or change the message.")
        }
        ErrorCategory::Network => format!("{provider} gave up waiting for the request ({what}). Try again."),
        _ => format!("{provider} answered with an error ({what}). Try again."),
    }
}

fn scrub(text: &str, key: Option<&ApiKey>) -> String {
    match key {
        Some(key) if key.expose().len() >= 4 => text.replace(key.expose(), "[redacted]"),
        _ => text.to_owned(),
    }
}

/// How long the provider asked us to wait: `retry-after-ms`, else `retry-after` as seconds or
/// as an HTTP-date (relative to `now`).
pub(crate) fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        if ms.is_finite() && ms >= 0.0 {
            return Some(Duration::from_secs_f64(ms / 1000.0));
        }
    }
    let value = header("retry-after")?;
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let at = parse_http_date(value)?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Parse an HTTP-date in any of the three forms RFC 9110 allows (IMF-fixdate, RFC 850, asctime).
pub(crate) fn parse_http_date(value: &str) -> Option<SystemTime> {
    httpdate::parse_http_date(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderName, HeaderValue};
    use std::time::UNIX_EPOCH;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(HeaderName::from_bytes(k.as_bytes()).unwrap(), HeaderValue::from_str(v).unwrap());
        }
        map
    }

    #[test]
    fn scrub_takes_every_copy_of_the_key_out_and_leaves_the_rest() {
        let key = ApiKey::new("sk-abcd").unwrap();
        assert_eq!(scrub("a sk-abcd b sk-abcd.", Some(&key)), "a [redacted] b [redacted].");
        assert_eq!(scrub("nothing to hide", Some(&key)), "nothing to hide");
        assert_eq!(scrub("sk-abcd", None), "sk-abcd");
        // From four characters on a key is taken out; a shorter one would blank ordinary words.
        assert_eq!(scrub("xabcdx", ApiKey::new("abcd").as_ref()), "x[redacted]x");
        assert_eq!(scrub("abc", ApiKey::new("abc").as_ref()), "abc");
    }

    #[test]
    fn sizes_in_words() {
        assert_eq!(size_in_words(8 * 1024 * 1024), "8 MiB");
        assert_eq!(size_in_words(64 * 1024), "64 KiB");
        assert_eq!(size_in_words(1000), "1000 bytes");
    }

    #[test]
    fn retry_after_forms() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777 - 10);
        assert_eq!(retry_after(&headers(&[("retry-after", "13")]), now), Some(Duration::from_secs(13)));
        assert_eq!(
            retry_after(&headers(&[("retry-after-ms", "250"), ("retry-after", "13")]), now),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            retry_after(&headers(&[("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT")]), now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(retry_after(&headers(&[("retry-after", "soon")]), now), None);
        assert_eq!(retry_after(&headers(&[]), now), None);
    }

    #[test]
    fn http_date_is_parsed() {
        let t = parse_http_date("Thu, 20 Aug 2026 09:14:03 GMT").unwrap();
        assert_eq!(t.duration_since(UNIX_EPOCH).unwrap().as_secs(), 1_787_217_243);
        assert!(parse_http_date("Thu, 32 Aug 2026 09:14:03 GMT").is_none());
        // The two obsolete forms a recipient must still accept (RFC 9110 §5.6.7).
        let fixdate = parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT");
        assert!(fixdate.is_some());
        assert_eq!(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), fixdate);
        assert_eq!(parse_http_date("Sun Nov  6 08:49:37 1994"), fixdate);
        assert!(parse_http_date("yesterday").is_none());
    }

    #[test]
    fn quota_on_429_is_not_a_rate_limit() {
        let body = br#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#;
        let e = classify_http_error("OpenAI", 429, &HeaderMap::new(), body, None);
        assert_eq!(e.category, ErrorCategory::Quota);
        assert!(!e.is_retryable());
    }

    #[test]
    fn statuses_map_to_categories() {
        for (status, category) in [
            (401, ErrorCategory::Auth),
            (403, ErrorCategory::Auth),
            (429, ErrorCategory::RateLimited),
            (529, ErrorCategory::Overloaded),
            (500, ErrorCategory::Server),
            (503, ErrorCategory::Server),
            (400, ErrorCategory::BadRequest),
            (404, ErrorCategory::BadRequest),
            (422, ErrorCategory::BadRequest),
        ] {
            assert_eq!(classify_http_error("X", status, &HeaderMap::new(), b"oops", None).category, category);
        }
    }

    #[test]
    fn the_key_never_appears_in_a_message() {
        let key = ApiKey::new("sk-secret-123456").unwrap();
        let body = br#"{"error":{"message":"bad key sk-secret-123456","type":"invalid_request_error","code":"invalid_api_key"}}"#;
        let e = classify_http_error("OpenAI", 401, &HeaderMap::new(), body, Some(&key));
        assert!(!e.message.contains("sk-secret-123456"), "{}", e.message);
        assert!(e.message.contains("Check the key in Settings"));
    }

    #[test]
    fn should_retry_header_is_kept() {
        let e = classify_http_error("X", 500, &headers(&[("x-should-retry", "false")]), b"", None);
        assert!(!e.is_retryable());
        let e = classify_http_error("X", 409, &headers(&[("x-should-retry", "true")]), b"", None);
        assert!(e.is_retryable());
    }

    /// Whatever the category, the person reads what happened and then one thing to do.
    #[test]
    fn every_category_is_a_sentence_and_an_action() {
        use ErrorCategory as C;
        for category in [
            C::Auth,
            C::RateLimited,
            C::Overloaded,
            C::Quota,
            C::BadRequest,
            C::Server,
            C::Network,
            C::IdleTimeout,
            C::InvalidResponse,
            C::MissingCredentials,
        ] {
            let message = describe("Acme", category, Some(400), "what it said", None);
            assert!(message.starts_with("Acme "), "{category:?}: {message}");
            let (happened, action) =
                message.split_once("). ").unwrap_or_else(|| panic!("{category:?}: {message}"));
            assert!(happened.ends_with("400 what it said"), "{category:?}: {message}");
            assert!(action.ends_with('.') && action.len() > 8, "{category:?}: no action in {message}");
        }
    }

    #[test]
    fn stream_errors_are_classified() {
        let v: Value = serde_json::from_str(r#"{"type":"overloaded_error","message":"Overloaded"}"#).unwrap();
        assert_eq!(classify_stream_error("Anthropic", &v, None).category, ErrorCategory::Overloaded);
        let v: Value = serde_json::from_str(r#"{"message":"Rate limited","code":429}"#).unwrap();
        assert_eq!(classify_stream_error("OpenRouter", &v, None).category, ErrorCategory::RateLimited);
        let v = Value::String("an error was encountered while running the model".into());
        assert_eq!(classify_stream_error("Ollama", &v, None).category, ErrorCategory::Server);
    }
}
