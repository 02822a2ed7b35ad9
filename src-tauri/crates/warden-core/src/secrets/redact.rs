//! Taking keys and tokens out of text bound for a log file, which a user may attach to a bug
//! report. Two nets: every key Warden has held (each [`super::ApiKey`] is remembered here when it
//! is made) is replaced wherever it appears, and whatever *looks* like a credential — a token with a
//! known key prefix (`sk-…`, `ghp_…`), the word after `Bearer`, the value after a field called
//! `api_key`, `authorization`, `token`, `password`… — is replaced too, for keys Warden never held
//! (an MCP server's, a header a provider echoed).

use std::borrow::Cow;
use std::sync::{Mutex, PoisonError};

/// What stands where a secret was.
pub const REDACTED: &str = "[redacted]";

/// Keys shorter than this are not remembered: replacing every "abc" in a log helps nobody.
const MIN_REMEMBERED: usize = 8;
/// The most keys remembered (the newest win); a process holds a handful.
const MAX_REMEMBERED: usize = 64;
/// The shortest run after a key prefix that counts as a key (`sk-` alone is a word).
const MIN_TOKEN_TAIL: usize = 12;

/// Prefixes of the API keys and tokens people paste: Anthropic and OpenAI (`sk-`), GitHub,
/// Slack, Google, Groq, xAI, Hugging Face.
const KEY_PREFIXES: [&str; 11] =
    ["sk-", "ghp_", "gho_", "ghu_", "ghs_", "github_pat_", "xoxb-", "xoxp-", "AIza", "gsk_", "hf_"];

/// Field names whose value is a secret (compared without case; `-`, `_` and nothing alike).
const SECRET_FIELDS: [&str; 10] = [
    "apikey",
    "xapikey",
    "authorization",
    "password",
    "token",
    "accesstoken",
    "refreshtoken",
    "clientsecret",
    "secret",
    "idtoken",
];

static REMEMBERED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Remember `secret` so that [`redact`] replaces it wherever it appears.
pub fn remember(secret: &str) {
    if secret.len() < MIN_REMEMBERED {
        return;
    }
    let mut known = REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner);
    if known.iter().any(|k| k == secret) {
        return;
    }
    if known.len() == MAX_REMEMBERED {
        known.remove(0);
    }
    known.push(secret.to_owned());
}

/// `text` with every remembered key and everything that looks like a credential replaced by
/// [`REDACTED`]. Borrowed when there was nothing to take out.
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    {
        let known = REMEMBERED.lock().unwrap_or_else(PoisonError::into_inner);
        for secret in known.iter() {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), REDACTED));
            }
        }
    }
    match redact_shapes(&out) {
        Some(cleaned) => Cow::Owned(cleaned),
        None => out,
    }
}

/// The credential-shaped pieces of `text` replaced, or `None` when there are none.
fn redact_shapes(text: &str) -> Option<String> {
    let spans = secret_spans(text);
    if spans.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in spans {
        if start < at {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(REDACTED);
        at = end;
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// Byte ranges of the secrets in `text`, in order, not overlapping.
fn secret_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let at_word_start = i == 0 || !is_token_byte(bytes[i - 1]);
        if !at_word_start || !is_token_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let word_end = i + bytes[i..].iter().take_while(|b| is_token_byte(**b)).count();
        let word = &text[i..word_end];
        if let Some(span) = prefixed_key(word, i).or_else(|| value_after(text, i, word_end)) {
            i = span.1.max(word_end);
            spans.push(span);
        } else {
            i = word_end;
        }
    }
    spans
}

/// `word` itself when it starts with a key prefix and is long enough to be a key.
fn prefixed_key(word: &str, start: usize) -> Option<(usize, usize)> {
    KEY_PREFIXES
        .iter()
        .any(|prefix| word.starts_with(prefix) && word.len() >= prefix.len() + MIN_TOKEN_TAIL)
        .then_some((start, start + word.len()))
}

/// When the word at `start..end` is `Bearer`/`Basic` or a secret field's name, the value that
/// follows it: after spaces, or after `:`/`=` and optional quotes.
fn value_after(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let word = &text[start..end];
    let bytes = text.as_bytes();
    let scheme = word.eq_ignore_ascii_case("bearer") || word.eq_ignore_ascii_case("basic");
    let field = {
        let squashed: String =
            word.chars().filter(|c| *c != '-' && *c != '_').map(|c| c.to_ascii_lowercase()).collect();
        SECRET_FIELDS.contains(&squashed.as_str())
    };
    if !scheme && !field {
        return None;
    }
    let mut i = end;
    // A field's name may be quoted (`"api_key": "…"`) and is followed by `:` or `=`.
    if field {
        while i < bytes.len() && matches!(bytes[i], b'"' | b'\'') {
            i += 1;
        }
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        if i >= bytes.len() || !matches!(bytes[i], b':' | b'=') {
            return None;
        }
        i += 1;
    }
    while i < bytes.len() && matches!(bytes[i], b' ' | b'"' | b'\'') {
        i += 1;
    }
    // `Authorization: Bearer xyz`: the scheme word is not the secret, what follows it is.
    if field {
        let rest = &text[i..];
        for scheme in ["Bearer ", "bearer ", "Basic ", "basic "] {
            if rest.starts_with(scheme) {
                i += scheme.len();
                break;
            }
        }
    }
    let value_len = bytes[i..].iter().take_while(|b| is_value_byte(**b)).count();
    (value_len >= 4).then_some((i, i + value_len))
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// What a secret value is made of: anything but the characters that end a value in a log line.
fn is_value_byte(b: u8) -> bool {
    !b.is_ascii_whitespace() && !matches!(b, b'"' | b'\'' | b',' | b';' | b'}' | b')' | b']' | b'&')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_with_known_prefixes_are_replaced() {
        let line = "request failed: key sk-ant-api03-AbCdEfGhIjKlMnOp rejected; ghp_0123456789abcdefXYZ too";
        let cleaned = redact(line);
        assert_eq!(cleaned, "request failed: key [redacted] rejected; [redacted] too");
    }

    #[test]
    fn short_words_with_a_prefix_are_words() {
        for text in ["sk-learn is a library", "the hf_ prefix", "ask-me-anything"] {
            assert_eq!(redact(text), text);
        }
    }

    #[test]
    fn values_of_secret_fields_and_bearer_tokens_are_replaced() {
        let cases = [
            ("authorization: Bearer abc.def.ghi-123", "authorization: Bearer [redacted]"),
            ("Authorization=Basic dXNlcjpwYXNz", "Authorization=Basic [redacted]"),
            (r#"{"api_key": "k3y-value-here", "model": "m"}"#, r#"{"api_key": "[redacted]", "model": "m"}"#),
            ("x-api-key: plainvalue42", "x-api-key: [redacted]"),
            ("refresh_token=r.tok.en&next=1", "refresh_token=[redacted]&next=1"),
            ("sent with bearer zzzzzzzz", "sent with bearer [redacted]"),
        ];
        for (line, want) in cases {
            assert_eq!(redact(line), want, "{line}");
        }
    }

    #[test]
    fn a_field_name_without_a_value_is_left_alone() {
        for text in ["the token expired", "password reset", "no authorization header"] {
            assert_eq!(redact(text), text);
        }
    }

    #[test]
    fn a_remembered_key_of_any_shape_is_replaced() {
        let key = "ollama-local-7f3c9e1b";
        assert_eq!(redact(&format!("using {key} now")), format!("using {key} now"));
        remember(key);
        assert_eq!(
            redact(&format!("using {key} now, again {key}")),
            "using [redacted] now, again [redacted]"
        );
    }

    #[test]
    fn text_without_secrets_is_borrowed() {
        assert!(matches!(redact("an ordinary log line: 42 files read"), Cow::Borrowed(_)));
    }

    #[test]
    fn non_ascii_text_is_never_split_inside_a_character() {
        let line = "überprüft: api_key=ééééé and sk-ÄÖÜ token: ✓✓✓✓";
        let cleaned = redact(line);
        assert!(cleaned.starts_with("überprüft: api_key=[redacted]"), "{cleaned}");
    }
}
