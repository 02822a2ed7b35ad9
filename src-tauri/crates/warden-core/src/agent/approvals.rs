//! The approval router: one oneshot per pending confirmation, keyed by its confirmId.
//!
//! The engine mints the confirmId ([`new_confirm_id`]) rather than reusing the tool call's id: that
//! one comes from the model's server (two conversations can both wait on a `call_0`) and one call
//! may ask more than one question. An answer releases exactly the confirmation it names: an unknown
//! id, or a second answer for an id that was already decided, is refused (`deliver` returns false)
//! and changes nothing.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use warden_protocol::ToolApproval;

#[derive(Debug, Default)]
pub struct ApprovalRouter {
    pending: Mutex<HashMap<String, oneshot::Sender<ToolApproval>>>,
}

/// How a wait for approval ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ApprovalOutcome {
    Answered(ToolApproval),
    TimedOut,
    Cancelled,
}

impl ApprovalRouter {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, oneshot::Sender<ToolApproval>>> {
        self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Start waiting for the answer to confirmation `confirm_id`.
    pub fn register(&self, confirm_id: &str) -> oneshot::Receiver<ToolApproval> {
        let (tx, rx) = oneshot::channel();
        self.lock().insert(confirm_id.to_owned(), tx);
        rx
    }

    /// Deliver an answer. True when it released a waiting call.
    pub fn deliver(&self, approval: ToolApproval) -> bool {
        let Some(tx) = self.lock().remove(&approval.confirm_id) else {
            return false;
        };
        tx.send(approval).is_ok()
    }

    pub fn is_pending(&self, confirm_id: &str) -> bool {
        self.lock().contains_key(confirm_id)
    }

    /// Wait for the answer to `confirm_id`, at most `timeout`, or until `cancel` fires.
    /// Whatever ends the wait, the id is no longer pending afterwards.
    pub async fn wait(
        &self,
        confirm_id: &str,
        rx: oneshot::Receiver<ToolApproval>,
        timeout: Option<Duration>,
        cancel: &CancellationToken,
    ) -> ApprovalOutcome {
        let expired = async {
            match timeout {
                Some(timeout) => tokio::time::sleep(timeout).await,
                None => std::future::pending().await,
            }
        };
        let outcome = tokio::select! {
            answer = rx => match answer {
                Ok(approval) => ApprovalOutcome::Answered(approval),
                // The sender was dropped without an answer: nobody can approve any more.
                Err(_) => ApprovalOutcome::Cancelled,
            },
            () = expired => ApprovalOutcome::TimedOut,
            () = cancel.cancelled() => ApprovalOutcome::Cancelled,
        };
        self.lock().remove(confirm_id);
        outcome
    }
}

/// A confirmId no other confirmation of this engine has, nor of any other (a random UUID: the
/// window and scripts treat it as opaque).
pub fn new_confirm_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(id: &str, approved: bool) -> ToolApproval {
        ToolApproval { confirm_id: id.to_owned(), approved, reason: None, remember: None, always: None }
    }

    #[tokio::test]
    async fn an_answer_releases_only_its_own_call() {
        let router = ApprovalRouter::new();
        let cancel = CancellationToken::new();
        let rx_a = router.register("a");
        let _rx_b = router.register("b");
        assert!(!router.deliver(answer("unknown", true)));
        assert!(router.deliver(answer("a", true)));
        assert!(!router.deliver(answer("a", false)), "a second answer is ignored");
        let outcome = router.wait("a", rx_a, Some(Duration::from_secs(5)), &cancel).await;
        assert_eq!(outcome, ApprovalOutcome::Answered(answer("a", true)));
        assert!(router.is_pending("b"));
    }

    #[tokio::test]
    async fn no_answer_times_out_and_a_late_answer_is_refused() {
        let router = ApprovalRouter::new();
        let rx = router.register("a");
        let outcome = router.wait("a", rx, Some(Duration::from_millis(50)), &CancellationToken::new()).await;
        assert_eq!(outcome, ApprovalOutcome::TimedOut);
        assert!(!router.deliver(answer("a", true)));
    }

    /// No time limit (the setting "never"): a day without an answer is still a wait; the answer,
    /// when it comes, releases the call.
    #[tokio::test(start_paused = true)]
    async fn without_a_time_limit_a_confirmation_waits_for_its_answer() {
        let router = ApprovalRouter::new();
        let cancel = CancellationToken::new();
        let rx = router.register("a");
        let waiting = router.wait("a", rx, None, &cancel);
        tokio::pin!(waiting);
        let a_day = tokio::time::timeout(Duration::from_secs(86_400), &mut waiting).await;
        assert!(a_day.is_err(), "timed out without a time limit: {a_day:?}");
        assert!(router.is_pending("a"));
        assert!(router.deliver(answer("a", true)));
        assert_eq!(waiting.await, ApprovalOutcome::Answered(answer("a", true)));
    }

    #[tokio::test]
    async fn cancel_ends_the_wait() {
        let router = ApprovalRouter::new();
        let cancel = CancellationToken::new();
        let rx = router.register("a");
        cancel.cancel();
        assert_eq!(
            router.wait("a", rx, Some(Duration::from_secs(30)), &cancel).await,
            ApprovalOutcome::Cancelled
        );
        assert!(!router.is_pending("a"));
    }
}
