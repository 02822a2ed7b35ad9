//! Running the tool calls of one assistant message: each is decided up front, the safe
//! parallel-capable ones run concurrently and everything else one at a time in order, and the
//! results go back in the model's order. Every call goes through the session's [`ToolRunner`];
//! this module only forms the batches and stops the rest once the turn is cancelled or a call
//! left the sandbox.

use std::sync::Arc;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use warden_protocol::{ToolErrorCode, ToolResultBlock};

use super::assemble::RequestedCall;
use super::session_core::SessionCore;
use super::tool_runner::PlannedCall;

pub(crate) enum StepOutcome {
    Continue,
    Cancelled,
    /// A tool tried to leave the roots: the loop stops.
    SandboxViolation(String),
}

pub(crate) struct StepResult {
    /// One result per call, in the model's order.
    pub results: Vec<ToolResultBlock>,
    pub step: StepOutcome,
}

pub(crate) async fn run_tool_calls(
    core: &Arc<SessionCore>,
    message_id: &str,
    calls: Vec<RequestedCall>,
    refusal: Option<String>,
    cancel: &CancellationToken,
) -> StepResult {
    let runner = &core.runner;
    let mut planned: Vec<PlannedCall> = calls.into_iter().map(|call| runner.plan(call)).collect();
    super::tool_runner::number_the_asks(&mut planned);
    let mut results = Vec::with_capacity(planned.len());
    let mut step = StepOutcome::Continue;
    let mut queue = planned.into_iter().peekable();
    while let Some(first) = queue.next() {
        // A batch: a run of consecutive parallel calls, or one call on its own.
        let mut batch = vec![first];
        if batch[0].runs_in_parallel() {
            while let Some(next) = queue.next_if(PlannedCall::runs_in_parallel) {
                batch.push(next);
            }
        }
        let stop_reason = match (&refusal, &step) {
            (Some(reason), _) => Some(reason.clone()),
            (None, StepOutcome::Cancelled) => Some("Not run: the turn was cancelled.".to_owned()),
            (None, StepOutcome::SandboxViolation(_)) => {
                Some("Not run: the turn was stopped by a sandbox violation.".to_owned())
            }
            (None, StepOutcome::Continue) => None,
        };
        let outcomes = match stop_reason {
            Some(reason) => batch
                .iter()
                .map(|p| runner.skip(message_id, p, ToolErrorCode::Cancelled, &reason))
                .collect::<Vec<_>>(),
            None => {
                let runs = batch.into_iter().map(|p| async move { runner.run(message_id, &p, cancel).await });
                futures::stream::iter(runs).buffered(core.config.max_parallel.max(1)).collect().await
            }
        };
        for outcome in outcomes {
            if cancel.is_cancelled() && matches!(step, StepOutcome::Continue) {
                step = StepOutcome::Cancelled;
            }
            if outcome.result.code == Some(ToolErrorCode::SandboxViolation)
                && matches!(step, StepOutcome::Continue)
            {
                step = StepOutcome::SandboxViolation(outcome.result.result.clone());
            }
            results.push(outcome.block);
        }
    }
    StepResult { results, step }
}
