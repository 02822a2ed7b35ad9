//! Running the tool calls of one assistant message: decide each (policy, approval), run the safe
//! parallel-capable ones concurrently and everything else one at a time in order, and hand the
//! results back in the model's order.

use std::sync::Arc;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use warden_protocol::{
    ApprovalPreview, DangerLevel, Event, Remember, ToolCall, ToolConfirm, ToolDelta, ToolErrorCode,
    ToolResult, ToolResultBlock, ToolStart, ToolStatus,
};

use super::approvals::ApprovalOutcome;
use super::assemble::RequestedCall;
use super::session::SessionCore;
use super::tool_env::execute_streaming;
use crate::policy::{self, Decision, Grants};
use crate::tool::{Tool, ToolOutput};

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

/// A call with its decision made up front, so that the batches can be formed.
struct Planned {
    call: RequestedCall,
    tool: Option<Arc<dyn Tool>>,
    decision: Decision,
}

impl Planned {
    /// Safe, parallel-capable and needing no approval: may run alongside its neighbours.
    fn runs_in_parallel(&self) -> bool {
        matches!(self.decision, Decision::Allow)
            && self.call.input.is_ok()
            && self.tool.as_ref().is_some_and(|t| {
                let def = t.definition();
                def.parallel && def.danger == DangerLevel::Safe
            })
    }
}

pub(crate) async fn run_tool_calls(
    core: &Arc<SessionCore>,
    message_id: &str,
    calls: Vec<RequestedCall>,
    refusal: Option<String>,
    cancel: &CancellationToken,
) -> StepResult {
    let planned: Vec<Planned> = calls.into_iter().map(|call| plan(core, call)).collect();
    let mut results = Vec::with_capacity(planned.len());
    let mut step = StepOutcome::Continue;
    let mut queue = planned.into_iter().peekable();
    while let Some(first) = queue.next() {
        // A batch: a run of consecutive parallel calls, or one call on its own.
        let mut batch = vec![first];
        if batch[0].runs_in_parallel() {
            while let Some(next) = queue.next_if(Planned::runs_in_parallel) {
                batch.push(next);
            }
        }
        let stop_reason = match (&refusal, &step) {
            (Some(reason), _) => Some((ToolErrorCode::Cancelled, reason.clone())),
            (None, StepOutcome::Cancelled) => {
                Some((ToolErrorCode::Cancelled, "Not run: the turn was cancelled.".to_owned()))
            }
            (None, StepOutcome::SandboxViolation(_)) => Some((
                ToolErrorCode::Cancelled,
                "Not run: the turn was stopped by a sandbox violation.".to_owned(),
            )),
            (None, StepOutcome::Continue) => None,
        };
        let outputs: Vec<(Planned, ToolOutput)> = if let Some((code, reason)) = stop_reason {
            batch
                .into_iter()
                .map(|p| {
                    announce(core, message_id, &p.call);
                    (p, ToolOutput::error(code, reason.clone()))
                })
                .collect()
        } else {
            futures::stream::iter(batch.into_iter().map(|p| async move {
                let output = run_one(core, message_id, &p, cancel).await;
                (p, output)
            }))
            .buffered(core.config.max_parallel.max(1))
            .collect()
            .await
        };
        for (planned, output) in outputs {
            if cancel.is_cancelled() && matches!(step, StepOutcome::Continue) {
                step = StepOutcome::Cancelled;
            }
            if output.code == Some(ToolErrorCode::SandboxViolation) && matches!(step, StepOutcome::Continue) {
                step = StepOutcome::SandboxViolation(output.content.clone());
            }
            results.push(finish(core, message_id, &planned, output));
        }
    }
    StepResult { results, step }
}

fn plan(core: &SessionCore, call: RequestedCall) -> Planned {
    let tool = core.tools.get(&call.name);
    let decision = match (&tool, &call.input) {
        (Some(tool), Ok(input)) => {
            let grants = core.grants();
            policy::decide(core.config.trust, tool.definition(), &core.config.scope, input, &grants)
        }
        // Unknown tools and invalid input are reported to the model when the call is handled.
        _ => Decision::Allow,
    };
    Planned { call, tool, decision }
}

/// Announce, decide, maybe ask, and run one call.
async fn run_one(
    core: &Arc<SessionCore>,
    message_id: &str,
    planned: &Planned,
    cancel: &CancellationToken,
) -> ToolOutput {
    let call = &planned.call;
    announce(core, message_id, call);
    let input = match &call.input {
        Ok(input) => input.clone(),
        Err(reason) => {
            return ToolOutput::error(
                ToolErrorCode::ValidationError,
                format!("Invalid input for `{}`: {reason}", call.name),
            )
        }
    };
    let Some(tool) = &planned.tool else {
        let known: Vec<String> = core.tool_definitions().into_iter().map(|d| d.name).collect();
        return ToolOutput::error(
            ToolErrorCode::UnknownTool,
            format!("There is no tool named `{}`. Available tools: {}.", call.name, known.join(", ")),
        );
    };
    let ctx = core.tool_context(cancel.clone());
    match &planned.decision {
        Decision::Deny { code, reason } => return ToolOutput::error(*code, reason.clone()),
        Decision::Allow => {}
        Decision::Ask => {
            let preview = tool.preview(&input, &ctx).await;
            if let Some(refused) = ask(core, message_id, call, tool.as_ref(), &input, preview, cancel).await {
                return refused;
            }
        }
    }
    if cancel.is_cancelled() {
        return ToolOutput::error(ToolErrorCode::Cancelled, "Not run: the turn was cancelled.");
    }
    let tool_call = ToolCall { id: call.id.clone(), name: call.name.clone(), input };
    execute_streaming(&core.tools, &tool_call, ctx, |stream, chunk| {
        core.events.emit(Event::ToolDelta(ToolDelta {
            conversation_id: core.events.conv(),
            message_id: message_id.to_owned(),
            tool_id: call.id.clone(),
            chunk,
            stream: Some(stream),
        }));
    })
    .await
}

/// `chat:tool-start`: the call is complete and is about to be decided on.
fn announce(core: &SessionCore, message_id: &str, call: &RequestedCall) {
    let input = match &call.input {
        Ok(input) => input.clone(),
        Err(_) => serde_json::Value::Object(serde_json::Map::new()),
    };
    core.events.emit(Event::ToolStart(ToolStart {
        conversation_id: core.events.conv(),
        message_id: message_id.to_owned(),
        tool_id: call.id.clone(),
        tool_name: call.name.clone(),
        input,
    }));
}

/// Ask the user. `None` = approved; `Some(result)` = not run, and why.
async fn ask(
    core: &SessionCore,
    message_id: &str,
    call: &RequestedCall,
    tool: &dyn Tool,
    input: &serde_json::Value,
    preview: Option<ApprovalPreview>,
    cancel: &CancellationToken,
) -> Option<ToolOutput> {
    let timeout = core.config.approval_timeout;
    let rx = core.approvals.register(&call.id);
    core.events.emit(Event::ToolConfirm(ToolConfirm {
        conversation_id: core.events.conv(),
        message_id: message_id.to_owned(),
        tool_id: call.id.clone(),
        tool_name: call.name.clone(),
        input: input.clone(),
        danger_level: tool.definition().danger,
        preview,
        timeout_secs: u32::try_from(timeout.as_secs()).unwrap_or(u32::MAX),
        reason: crate::policy::must_ask_reason(&call.name, input, false),
    }));
    match core.approvals.wait(&call.id, rx, timeout, cancel).await {
        ApprovalOutcome::Answered(answer) if answer.approved => {
            if answer.remember == Some(Remember::Session) {
                if let Some(grant) = Grants::grant_for(&call.name, input) {
                    core.add_grant(grant);
                }
            }
            None
        }
        ApprovalOutcome::Answered(answer) => {
            let reason = answer.reason.filter(|r| !r.trim().is_empty());
            let text = match reason {
                Some(reason) => format!("The user rejected this call: {reason}"),
                None => "The user rejected this call.".to_owned(),
            };
            Some(ToolOutput::error(ToolErrorCode::UserRejected, text))
        }
        ApprovalOutcome::TimedOut => Some(ToolOutput::error(
            ToolErrorCode::ApprovalTimeout,
            format!("Not run: nobody approved this call within {} s.", timeout.as_secs()),
        )),
        ApprovalOutcome::Cancelled => {
            Some(ToolOutput::error(ToolErrorCode::Cancelled, "Not run: the turn was cancelled."))
        }
    }
}

/// Report the result and turn it into the history block the model receives.
fn finish(core: &SessionCore, message_id: &str, planned: &Planned, output: ToolOutput) -> ToolResultBlock {
    let mut metadata = output.metadata.clone();
    if let Some(code) = output.code {
        metadata.insert("code".to_owned(), serde_json::Value::String(code.as_str().to_owned()));
    }
    core.events.emit(Event::ToolResult(ToolResult {
        conversation_id: core.events.conv(),
        message_id: message_id.to_owned(),
        tool_id: planned.call.id.clone(),
        status: if output.is_error { ToolStatus::Error } else { ToolStatus::Success },
        result: output.content.clone(),
        metadata: if metadata.is_empty() { None } else { Some(serde_json::Value::Object(metadata)) },
    }));
    ToolResultBlock {
        tool_use_id: planned.call.id.clone(),
        tool_name: planned.call.name.clone(),
        content: output.content,
        is_error: output.is_error,
    }
}
