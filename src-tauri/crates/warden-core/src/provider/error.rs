//! Provider failures, classified once where they are seen.

use std::time::Duration;

use warden_protocol::ErrorCode;

/// What a person reads when the answer broke off before its end.
pub const CUT_OFF: &str = "The model's answer was cut off (the connection closed early).";

/// What kind of failure it is; decides retrying and what the user is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCategory {
    Auth,
    RateLimited,
    Overloaded,
    Quota,
    BadRequest,
    Server,
    Network,
    IdleTimeout,
    InvalidResponse,
    MissingCredentials,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ProviderError {
    pub category: ErrorCategory,
    /// HTTP status, when the failure came with one.
    pub status: Option<u16>,
    /// The provider's own error type (`overloaded_error`, `insufficient_quota`, …).
    pub provider_code: Option<String>,
    /// How long the provider asked us to wait.
    pub retry_after: Option<Duration>,
    /// One sentence a person understands, and what to do about it. Never contains a key.
    pub message: String,
    /// What the engine underneath said (`tcp connect error: Connection refused (os error 111)`),
    /// for whoever wants to dig: shown apart from the message, never instead of it.
    pub detail: Option<String>,
    /// The answer broke off before its end (the connection closed or broke mid-stream). Such a
    /// stream is sent again by itself while nothing of the answer has come yet.
    pub cut_off: bool,
    /// The provider's explicit say on retrying (`x-should-retry`), which beats the category —
    /// except that auth and quota failures are never retried.
    pub should_retry: Option<bool>,
    /// The request did not fit the model's context window: `Some(window)` with the window the
    /// server named (`Some(None)` when it did not name one). Such a request is never retried.
    pub context_overflow: Option<Option<u32>>,
}

impl ProviderError {
    pub fn new(category: ErrorCategory, message: impl Into<String>) -> Self {
        Self {
            category,
            status: None,
            provider_code: None,
            retry_after: None,
            message: message.into(),
            detail: None,
            cut_off: false,
            should_retry: None,
            context_overflow: None,
        }
    }

    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    pub fn with_provider_code(mut self, code: impl Into<String>) -> Self {
        self.provider_code = Some(code.into());
        self
    }

    pub fn with_retry_after(mut self, retry_after: Option<Duration>) -> Self {
        self.retry_after = retry_after;
        self
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        let detail = detail.into();
        self.detail = (!detail.trim().is_empty()).then_some(detail);
        self
    }

    /// The answer broke off before its end: [`CUT_OFF`] for the person, `detail` for whoever digs.
    /// `category`: `Network` when reading broke, `InvalidResponse` when the body ended cleanly but
    /// without the provider's terminator.
    pub fn cut_off(category: ErrorCategory, detail: impl Into<String>) -> Self {
        let mut error = Self::new(category, CUT_OFF).with_detail(detail);
        error.cut_off = true;
        error
    }

    pub fn network(message: impl Into<String>) -> Self {
        Self::new(ErrorCategory::Network, message)
    }

    pub fn invalid_response(message: impl Into<String>) -> Self {
        Self::new(ErrorCategory::InvalidResponse, message)
    }

    /// Whether sending the same request again may succeed.
    pub fn is_retryable(&self) -> bool {
        if matches!(
            self.category,
            ErrorCategory::Auth | ErrorCategory::Quota | ErrorCategory::MissingCredentials
        ) {
            return false;
        }
        if let Some(should_retry) = self.should_retry {
            return should_retry;
        }
        if self.cut_off {
            return true;
        }
        matches!(
            self.category,
            ErrorCategory::RateLimited
                | ErrorCategory::Overloaded
                | ErrorCategory::Server
                | ErrorCategory::Network
                | ErrorCategory::IdleTimeout
        )
    }

    pub fn code(&self) -> ErrorCode {
        match self.category {
            ErrorCategory::Auth => ErrorCode::AuthFailed,
            ErrorCategory::RateLimited => ErrorCode::RateLimited,
            ErrorCategory::Overloaded => ErrorCode::Overloaded,
            ErrorCategory::Quota => ErrorCode::QuotaExceeded,
            ErrorCategory::BadRequest => ErrorCode::BadRequest,
            ErrorCategory::Server => ErrorCode::ServerError,
            ErrorCategory::Network => ErrorCode::Network,
            ErrorCategory::IdleTimeout => ErrorCode::IdleTimeout,
            ErrorCategory::InvalidResponse => ErrorCode::InvalidResponse,
            ErrorCategory::MissingCredentials => ErrorCode::MissingCredentials,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auth_and_quota_are_never_retried() {
        assert!(!ProviderError::new(ErrorCategory::Auth, "x").is_retryable());
        assert!(!ProviderError::new(ErrorCategory::Quota, "x").is_retryable());
        assert!(!ProviderError::new(ErrorCategory::BadRequest, "x").is_retryable());
        assert!(ProviderError::new(ErrorCategory::RateLimited, "x").is_retryable());
        assert!(ProviderError::new(ErrorCategory::Overloaded, "x").is_retryable());
    }
}
