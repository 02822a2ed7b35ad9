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
use super::hooks::{Call, HookVerdict};
use super::session_core::SessionCore;
use super::tool_runner::{CallOutcome, PlannedCall};

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
    let hooks = runner.hooks().cloned();
    let mut planned: Vec<PlannedCall> = Vec::with_capacity(calls.len());
    for mut call in calls {
        // The PreToolUse hooks first: what they say, and an input they rewrote, are decided on.
        let verdict = match &hooks {
            Some(hooks) if refusal.is_none() && !cancel.is_cancelled() => {
                let (tool, id) = (call.name.clone(), call.id.clone());
                let about = Call { tool: &tool, id: &id };
                hooks.pre_tool_use(&core.events, message_id, about, &mut call.input, cancel).await
            }
            _ => HookVerdict::default(),
        };
        planned.push(runner.plan_with(call, &verdict));
    }
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
                let hooks = hooks.as_ref();
                let runs = batch.into_iter().map(|p| async move {
                    let mut outcome = runner.run(message_id, &p, cancel).await;
                    if let Some(hooks) = hooks.filter(|_| ran(&outcome)) {
                        let call = p.call();
                        let input = call.input.clone().unwrap_or(serde_json::Value::Null);
                        let about = Call { tool: &call.name, id: &call.id };
                        hooks
                            .post_tool_use(
                                &core.events,
                                message_id,
                                about,
                                &input,
                                &mut outcome.block,
                                cancel,
                            )
                            .await;
                    }
                    outcome
                });
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

/// Whether the call ran (it was not refused, rejected or stopped before it started): only then do
/// the PostToolUse hooks see it.
fn ran(outcome: &CallOutcome) -> bool {
    use ToolErrorCode as Code;
    matches!(
        outcome.result.code,
        None | Some(Code::ExecutionError | Code::ToolTimeout | Code::FileNotFound | Code::SizeLimitExceeded)
    )
}
