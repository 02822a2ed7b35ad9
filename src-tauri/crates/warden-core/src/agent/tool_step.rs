//! Running the tool calls of one assistant message: each is decided up front, the safe
//! parallel-capable ones run concurrently and everything else one at a time in order, and the
//! results go back in the model's order. Every call goes through the session's [`ToolRunner`];
//! this module only forms the batches and stops the rest once the turn is cancelled or a call
//! left the sandbox.

use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use warden_protocol::{HookRun, ToolErrorCode, ToolResultBlock};

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
    let (mut planned, mut pre_runs) = plan_calls(core, message_id, calls, refusal.is_some(), cancel).await;
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
                let runs = batch.into_iter().map(|p| run_one(core, message_id, p, cancel));
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
            let mut block = outcome.block;
            if let Some(runs) = pre_runs.remove(&block.tool_use_id) {
                // Before the PostToolUse runs the block may hold already.
                let report = block.report.get_or_insert_with(Default::default);
                report.hooks.splice(0..0, runs);
            }
            results.push(block);
        }
    }
    StepResult { results, step }
}

/// Each call decided, after its PreToolUse hooks (what they say, and an input they rewrote, are
/// decided on; none run for calls refused already), and each call's runs by its id.
async fn plan_calls(
    core: &Arc<SessionCore>,
    message_id: &str,
    calls: Vec<RequestedCall>,
    refused: bool,
    cancel: &CancellationToken,
) -> (Vec<PlannedCall>, HashMap<String, Vec<HookRun>>) {
    let hooks = core.runner.hooks().cloned();
    let mut planned = Vec::with_capacity(calls.len());
    let mut runs = HashMap::new();
    for mut call in calls {
        let verdict = match &hooks {
            Some(hooks) if !refused && !cancel.is_cancelled() => {
                let (tool, id) = (call.name.clone(), call.id.clone());
                let about = Call { tool: &tool, id: &id };
                hooks.pre_tool_use(&core.events, message_id, about, &mut call.input, cancel).await
            }
            _ => HookVerdict::default(),
        };
        let id = call.id.clone();
        planned.push(core.runner.plan_with(call, &verdict));
        if !verdict.runs.is_empty() {
            runs.insert(id, verdict.runs);
        }
    }
    (planned, runs)
}

/// Run one decided call, then its PostToolUse hooks when it ran.
async fn run_one(
    core: &Arc<SessionCore>,
    message_id: &str,
    planned: PlannedCall,
    cancel: &CancellationToken,
) -> CallOutcome {
    let mut outcome = core.runner.run(message_id, &planned, cancel).await;
    if let Some(hooks) = core.runner.hooks().filter(|_| ran(&outcome)) {
        let call = planned.call();
        let input = call.input.clone().unwrap_or(serde_json::Value::Null);
        let about = Call { tool: &call.name, id: &call.id };
        hooks.post_tool_use(&core.events, message_id, about, &input, &mut outcome.block, cancel).await;
    }
    outcome
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
