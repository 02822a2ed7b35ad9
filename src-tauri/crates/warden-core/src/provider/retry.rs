//! When and how long to wait before sending a failed request again.
//!
//! Only failures before anything of the answer came are retried inside a provider (a stream that
//! already produced text cannot be replayed invisibly): a request that failed before its body, and
//! a stream that broke off before its first text, thinking or call (at most
//! [`super::transport::MAX_CUT_OFF_RETRIES`] times). Auth, quota and bad requests never are.

use std::time::Duration;

use rand::Rng;

use super::{ErrorCategory, ProviderError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in total, the first one included; 1 disables retrying.
    pub max_attempts: u32,
    /// The first backoff delay; doubled on every further attempt.
    pub base_delay: Duration,
    /// No delay — computed or asked for by the provider's `retry-after` — is longer than this.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self { max_attempts: 4, base_delay: Duration::from_millis(500), max_delay: Duration::from_secs(60) }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        Self { max_attempts: 1, ..Self::default() }
    }

    /// Whether `error`, seen on attempt `attempt` (1-based), should be followed by another attempt.
    pub fn should_retry(&self, attempt: u32, error: &ProviderError) -> bool {
        attempt < self.max_attempts && error.is_retryable() && error.category != ErrorCategory::IdleTimeout
    }

    /// The wait before attempt `attempt + 1`: the provider's `retry-after` when it sent one,
    /// otherwise exponential backoff with jitter (75–100 % of the step, so clients spread out).
    pub fn delay(&self, attempt: u32, error: &ProviderError) -> Duration {
        if let Some(asked) = error.retry_after {
            return asked.min(self.max_delay);
        }
        let exponent = attempt.saturating_sub(1).min(16);
        let step = self.base_delay.saturating_mul(1 << exponent).min(self.max_delay);
        let jitter: f64 = rand::rng().random_range(0.75..=1.0);
        step.mul_f64(jitter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_retries_auth_quota_or_bad_requests() {
        let policy = RetryPolicy::default();
        for category in [ErrorCategory::Auth, ErrorCategory::Quota, ErrorCategory::BadRequest] {
            assert!(!policy.should_retry(1, &ProviderError::new(category, "x")));
        }
        assert!(policy.should_retry(1, &ProviderError::new(ErrorCategory::RateLimited, "x")));
        assert!(!policy.should_retry(4, &ProviderError::new(ErrorCategory::RateLimited, "x")));
    }

    #[test]
    fn retry_after_wins_but_is_capped() {
        let policy = RetryPolicy { max_delay: Duration::from_secs(5), ..RetryPolicy::default() };
        let asked = ProviderError::new(ErrorCategory::RateLimited, "x")
            .with_retry_after(Some(Duration::from_secs(2)));
        assert_eq!(policy.delay(1, &asked), Duration::from_secs(2));
        let too_long = asked.with_retry_after(Some(Duration::from_secs(60)));
        assert_eq!(policy.delay(1, &too_long), Duration::from_secs(5));
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        let policy = RetryPolicy {
            max_attempts: 10,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(1000),
        };
        let e = ProviderError::new(ErrorCategory::Server, "x");
        let first = policy.delay(1, &e);
        assert!(first >= Duration::from_millis(75) && first <= Duration::from_millis(100));
        let third = policy.delay(3, &e);
        assert!(third >= Duration::from_millis(300) && third <= Duration::from_millis(400));
        assert!(policy.delay(9, &e) <= Duration::from_millis(1000));
    }
}
