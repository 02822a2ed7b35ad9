//! A secret string that never shows itself by accident.

use std::fmt;

/// An API key. `Debug` and `Display` print `[redacted]`; only [`ApiKey::expose`] gives the value,
/// so every place that sends a key over the wire is easy to find. Every key made is remembered by
/// [`super::redact`], so no log line carries it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// `None` for an empty or all-whitespace key (an unset environment variable often looks so).
    pub fn new(value: impl Into<String>) -> Option<Self> {
        let value = value.into();
        let trimmed = value.trim();
        if trimmed.is_empty() {
            None
        } else {
            super::redact::remember(trimmed);
            Some(Self(trimmed.to_owned()))
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_never_show_the_key() {
        let key = ApiKey::new("sk-ant-very-secret").expect("non-empty");
        assert!(!format!("{key:?}").contains("very-secret"));
        assert!(!format!("{key}").contains("very-secret"));
        assert_eq!(key.expose(), "sk-ant-very-secret");
    }

    #[test]
    fn blank_keys_are_no_keys() {
        assert!(ApiKey::new("  \n").is_none());
        assert_eq!(ApiKey::new(" k ").map(|k| k.expose().to_owned()), Some("k".to_owned()));
    }
}
