//! The loop of one user message: stream → relay → run the requested tools → call the provider
//! again, until a text-only answer, cancel, a sandbox violation, the budget, or the turn limit.

use std::sync::Arc;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use warden_protocol::{ContentBlock, ErrorCode, Message, Role, StopReason, Usage};

use super::assemble::{MessageBuilder, RequestedCall};
use super::budget::Budget;
use super::compaction::estimate_tokens;
use super::compaction::CompactionError;
use super::events::{Counted, Failure};
use super::session_core::SessionCore;
use super::tool_step::{run_tool_calls, StepOutcome};
use super::turn_plan::{TurnPlan, PLAN_PROMPT};
use crate::provider::{ChatRequest, ProviderError, StreamChunk, ToolChoice};

/// How the turn ended; the last `chat:stream-end` says the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnEnd {
    /// The model answered (text only).
    Completed,
    Cancelled,
    /// A provider failure or a sandbox violation ended the turn (a `chat:error` said why).
    Failed,
    /// The context budget was spent; the model gave its final answer without tools.
    BudgetSpent,
    /// The loop hit its iteration limit.
    MaxTurns,
}

/// A Stop hook may send the model on this many times in one turn (a hook that always blocks would
/// otherwise keep the turn going for ever).
const MAX_STOP_CONTINUES: u32 = 3;

/// The first `propose_plan` call of a message whose input is a plan: its id and the plan.
fn proposed_plan(calls: &[RequestedCall]) -> Option<(String, crate::tools::ProposePlanInput)> {
    calls.iter().filter(|c| c.name == crate::tools::PROPOSE_PLAN).find_map(|call| {
        let input = call.input.clone().ok()?;
        let plan: crate::tools::ProposePlanInput = serde_json::from_value(input).ok()?;
        plan.problem().is_none().then(|| (call.id.clone(), plan))
    })
}

/// The text the user typed: the message's text blocks.
fn user_text(message: &Message) -> String {
    message
        .content
        .iter()
        .filter_map(|block| if let ContentBlock::Text { text } = block { Some(text.as_str()) } else { None })
        .collect::<Vec<_>>()
        .join("\n")
}

const FINAL_ANSWER_PROMPT: &str = "The context budget of this conversation is nearly spent. Do not call any \
more tools: give your final answer now, with what you have found so far and what is left to do.";

/// One provider message as streamed.
enum Streamed {
    Complete { message: Message, calls: Vec<RequestedCall>, stop: StopReason, usage: Option<Usage> },
    Cancelled { partial: Message, usage: Option<Usage> },
    Failed { partial: Message, usage: Option<Usage>, error: ProviderError },
}

/// Tokens as counted (or, without usage, estimated) for one message: the request's size plus
/// what the model wrote.
fn counted(usage: Option<Usage>, request_estimate: u32, written: &Message) -> Counted {
    let estimated_context = usage
        .is_none()
        .then(|| request_estimate.saturating_add(estimate_tokens(std::slice::from_ref(written))));
    Counted { reported: usage, estimated_context }
}

/// The request's size in tokens, estimated as the compaction estimates (JSON length / 4).
fn request_estimate(request: &ChatRequest) -> u32 {
    let system = request.system.as_deref().map_or(0, str::len);
    let tools: usize = request
        .tools
        .iter()
        .map(|t| t.name.len() + t.description.len() + t.input_schema.to_string().len())
        .sum();
    let extra = u32::try_from((system + tools) / 4).unwrap_or(u32::MAX);
    estimate_tokens(&request.messages).saturating_add(extra)
}

#[allow(clippy::too_many_lines)] // The agent loop of ARCHITECTURE §7, each step in the order it happens.
pub(crate) async fn run_turn(
    core: Arc<SessionCore>,
    user: Message,
    cancel: CancellationToken,
    plan: TurnPlan,
) -> TurnEnd {
    let hooks = core.runner.hooks().cloned();
    let mut user = user;
    if let Some(hooks) = &hooks {
        let verdict = hooks.prompt(&core.events, &user_text(&user), &cancel).await;
        if let Some(reason) = verdict.blocked {
            // The message never reaches the model (nor the history it is sent).
            let message_id = uuid::Uuid::new_v4().to_string();
            core.events.stream_start(
                &message_id,
                core.provider.name(),
                &core.config.model,
                core.context_window(),
            );
            core.events.notice(&message_id, format!("This message was not sent: {reason}"));
            core.events.stream_end(&message_id, StopReason::EndTurn, Counted::default(), false);
            return TurnEnd::Completed;
        }
        for context in verdict.context {
            user.content.push(ContentBlock::Text { text: format!("Context from a hook:\n{context}") });
        }
    }
    core.push_history(user);
    if let Some(end) = run_user_calls(&core, &plan, &cancel).await {
        return end;
    }
    // Plan mode, or a custom command's `allowed-tools`: the offer is narrowed for this turn only.
    let _narrowed = if plan.planning {
        core.runner.plan_mode();
        Some(Widen(&core))
    } else {
        plan.only_tools.clone().map(|tools| {
            core.runner.narrow(tools, plan.invoked.clone().unwrap_or_else(|| "the command".to_owned()));
            Widen(&core)
        })
    };
    let model = plan.model.clone().unwrap_or_else(|| core.config.model.clone());
    let config = &core.config;
    let system = match (&config.system_prompt, plan.planning) {
        (Some(prompt), true) => Some(format!("{prompt}{PLAN_PROMPT}")),
        (None, true) => Some(PLAN_PROMPT.trim_start().to_owned()),
        (prompt, false) => prompt.clone(),
    };
    let mut budget = Budget::new(core.context_window(), config.budget_threshold);
    let mut final_request = false;
    let mut iteration = 0_u32;
    // Times a Stop hook sent the model on in this turn.
    let mut stop_continues = 0_u32;
    loop {
        iteration += 1;
        let message_id = uuid::Uuid::new_v4().to_string();
        core.refresh_tools().await;
        core.events.stream_start(&message_id, core.provider.name(), &model, core.context_window());
        let request = ChatRequest {
            model: model.clone(),
            system: system.clone(),
            messages: core.model_view(),
            tools: core.tool_definitions(),
            max_tokens: config.max_tokens,
            thinking: config.thinking,
            tool_choice: if final_request { ToolChoice::None } else { ToolChoice::Auto },
        };
        let estimate = request_estimate(&request);
        let streamed = stream_message(&core, request, &message_id, &cancel).await;
        let (message, calls, stop, usage) = match streamed {
            Streamed::Complete { message, calls, stop, usage } => {
                let usage = counted(usage, estimate, &message);
                (message, calls, stop, usage)
            }
            Streamed::Cancelled { partial, usage } => {
                let usage = counted(usage, estimate, &partial);
                core.push_partial(partial);
                core.events.stream_end(&message_id, StopReason::Cancelled, usage, true);
                return TurnEnd::Cancelled;
            }
            Streamed::Failed { partial, usage, error } => {
                let usage = counted(usage, estimate, &partial);
                core.push_partial(partial);
                let mut failure = Failure::from(&error);
                if let Some(window) = error.context_overflow {
                    failure.message = overflowed(&core, window, estimate, &error);
                }
                core.events.failure(Some(&message_id), failure, error.is_retryable());
                core.events.stream_end(&message_id, StopReason::Error, usage, true);
                return TurnEnd::Failed;
            }
        };
        budget.record(usage);
        core.push_answer(message, usage);

        if calls.is_empty() && !final_request && stop_continues < MAX_STOP_CONTINUES {
            if let Some(hooks) = &hooks {
                if let Some(reason) = hooks.stop(&core.events, &message_id, stop_continues > 0, &cancel).await
                {
                    stop_continues += 1;
                    core.events.stream_end(&message_id, StopReason::ToolUse, usage, false);
                    core.push_history(Message::user_text(format!("A Stop hook asks you to go on: {reason}")));
                    continue;
                }
            }
        }
        if calls.is_empty() {
            let (reason, end) = if final_request {
                (StopReason::Budget, TurnEnd::BudgetSpent)
            } else {
                (stop, TurnEnd::Completed)
            };
            core.events.stream_end(&message_id, reason, usage, false);
            return end;
        }

        // The model asked for tools. Run them unless this message may not have any.
        let refusal = if final_request {
            Some("Not run: the context budget is spent and no more tools may run in this turn.".to_owned())
        } else if iteration >= config.max_turns {
            Some(format!("Not run: the turn reached its limit of {} iterations.", config.max_turns))
        } else {
            None
        };
        let proposed = if plan.planning { proposed_plan(&calls) } else { None };
        let outcome = run_tool_calls(&core, &message_id, calls, refusal, &cancel).await;
        // The plan went to the user when its call succeeded: the turn ends there.
        let plan_shown =
            proposed.filter(|(id, _)| outcome.results.iter().any(|r| &r.tool_use_id == id && !r.is_error));
        core.push_history(Message {
            role: Role::User,
            content: outcome.results.into_iter().map(ContentBlock::ToolResult).collect(),
        });
        if let (Some((_, proposal)), StepOutcome::Continue) = (plan_shown, &outcome.step) {
            core.events.emit(warden_protocol::Event::Plan(warden_protocol::PlanProposed {
                conversation_id: core.events.conv(),
                message_id: message_id.clone(),
                plan: proposal.plan,
                steps: proposal.steps,
            }));
            core.events.stream_end(&message_id, StopReason::EndTurn, usage, false);
            return TurnEnd::Completed;
        }
        match outcome.step {
            StepOutcome::Continue => {}
            StepOutcome::Cancelled => {
                core.events.stream_end(&message_id, StopReason::Cancelled, usage, true);
                return TurnEnd::Cancelled;
            }
            StepOutcome::SandboxViolation(reason) => {
                core.events.error(
                    Some(&message_id),
                    ErrorCode::SandboxViolation,
                    format!("The turn was stopped: a tool tried to reach outside the project. {reason}"),
                    false,
                );
                core.events.stream_end(&message_id, StopReason::Error, usage, true);
                return TurnEnd::Failed;
            }
        }
        if final_request {
            core.events.stream_end(&message_id, StopReason::Budget, usage, false);
            return TurnEnd::BudgetSpent;
        }
        if iteration >= config.max_turns {
            core.events.stream_end(&message_id, StopReason::MaxTurns, usage, false);
            return TurnEnd::MaxTurns;
        }
        core.events.stream_end(&message_id, StopReason::ToolUse, usage, false);
        if budget.is_spent() {
            // Summarize the older part and go on; when that is not possible (or not enough), ask
            // for the final answer as before. A stop during the summary ends the turn at the top
            // of the loop.
            match core.compact(Some(budget.used()), false, &cancel).await {
                Ok(report) => {
                    budget.set_used(report.tokens_after);
                    if !report.summarized {
                        core.events.notice(
                            &message_id,
                            format!(
                                "Older tool output was cut in what the model is sent, to fit its context window \
                                 ({} → {} tokens); the conversation keeps it whole.",
                                report.tokens_before, report.tokens_after
                            ),
                        );
                    }
                }
                Err(CompactionError::Cancelled) => {}
                Err(error) => {
                    core.events
                        .notice(&message_id, format!("The conversation could not be compacted: {error}."));
                }
            }
            if budget.is_spent() && !cancel.is_cancelled() {
                final_request = true;
                core.push_history(Message::user_text(FINAL_ANSWER_PROMPT));
            }
        }
    }
}

/// The turn's narrowed offer ends with it, however it ends.
struct Widen<'a>(&'a SessionCore);

impl Drop for Widen<'_> {
    fn drop(&mut self) {
        self.0.runner.widen();
    }
}

/// The calls a custom command or skill makes for the user ([`TurnPlan::calls`]), before the model
/// answers: one assistant message of Warden's own whose calls go through the runner as the model's
/// do (decided by the policy, asked about, run in the box), their results sent with the next
/// request. `Some` when the turn ends there (stopped, or a call left the sandbox).
async fn run_user_calls(
    core: &Arc<SessionCore>,
    plan: &TurnPlan,
    cancel: &CancellationToken,
) -> Option<TurnEnd> {
    if plan.calls.is_empty() {
        return None;
    }
    let message_id = uuid::Uuid::new_v4().to_string();
    let model = plan.model.as_deref().unwrap_or(&core.config.model);
    core.events.stream_start(&message_id, core.provider.name(), model, core.context_window());
    let batch = uuid::Uuid::new_v4().simple().to_string();
    let calls: Vec<RequestedCall> = plan
        .calls
        .iter()
        .enumerate()
        .map(|(n, (name, input))| RequestedCall {
            id: format!("warden_{}_{n}", &batch[..12]),
            name: name.clone(),
            input: Ok(input.clone()),
        })
        .collect();
    let uses = calls
        .iter()
        .map(|call| {
            ContentBlock::ToolUse(warden_protocol::ToolUse {
                id: call.id.clone(),
                name: call.name.clone(),
                input: call.input.clone().unwrap_or_default(),
                raw_arguments: None,
                written: None,
            })
        })
        .collect();
    core.push_history(Message { role: Role::Assistant, content: uses });
    let outcome = run_tool_calls(core, &message_id, calls, None, cancel).await;
    core.push_history(Message {
        role: Role::User,
        content: outcome.results.into_iter().map(ContentBlock::ToolResult).collect(),
    });
    let none = Counted::default();
    match outcome.step {
        StepOutcome::Continue => {
            core.events.stream_end(&message_id, StopReason::ToolUse, none, false);
            None
        }
        StepOutcome::Cancelled => {
            core.events.stream_end(&message_id, StopReason::Cancelled, none, true);
            Some(TurnEnd::Cancelled)
        }
        StepOutcome::SandboxViolation(reason) => {
            core.events.error(
                Some(&message_id),
                ErrorCode::SandboxViolation,
                format!("The turn was stopped: a tool tried to reach outside the project. {reason}"),
                false,
            );
            core.events.stream_end(&message_id, StopReason::Error, none, true);
            Some(TurnEnd::Failed)
        }
    }
}

/// A request did not fit the model's context window: learn the window the server named, and say
/// what happened in words that tell what to do.
fn overflowed(core: &SessionCore, window: Option<u32>, estimate: u32, error: &ProviderError) -> String {
    let Some(window) = window else {
        return format!(
            "The conversation no longer fits the model's context window, and the server did not say how large \
             that is. Set the model's context window in Settings → Providers, then compact or start a new \
             conversation. ({})",
            error.message
        );
    };
    let known_before = core.context_window();
    core.learn_context_window(window);
    let learned = if known_before == Some(window) {
        String::new()
    } else {
        " Warden budgets with that window from now on, and compacts the conversation before it fills."
            .to_owned()
    };
    format!(
        "The request (about {} tokens) does not fit the model's context window: the server says it holds {} \
         tokens.{learned} Compact the conversation or start a new one{}.",
        group_thousands(estimate),
        group_thousands(window),
        if core.history().len() <= 1 {
            ", or give the server a larger context (llama.cpp: --ctx-size / --n_ctx)"
        } else {
            ""
        }
    )
}

/// `2048` → `2,048`.
fn group_thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Stream one assistant message, relaying text and thinking as they come.
async fn stream_message(
    core: &SessionCore,
    request: ChatRequest,
    message_id: &str,
    cancel: &CancellationToken,
) -> Streamed {
    let mut stream = core.provider.stream(request);
    let mut builder = MessageBuilder::new();
    let deadline = tokio::time::sleep(core.config.iteration_timeout);
    tokio::pin!(deadline);
    // One wait for cancellation for the whole message: a new one per chunk would enter and leave
    // the token's waiter list for each of tens of thousands of deltas.
    let cancelled = cancel.cancelled();
    tokio::pin!(cancelled);
    loop {
        let next = tokio::select! {
            biased;
            () = &mut cancelled => {
                // Dropping the stream drops the connection at once.
                let usage = builder.usage();
                return Streamed::Cancelled { partial: builder.into_partial(), usage };
            }
            () = &mut deadline => {
                let usage = builder.usage();
                let error = ProviderError::new(
                    crate::provider::ErrorCategory::IdleTimeout,
                    format!("The model did not finish within {} s.", core.config.iteration_timeout.as_secs()),
                );
                return Streamed::Failed { partial: builder.into_partial(), usage, error };
            }
            next = stream.next() => next,
        };
        match next {
            Some(Ok(chunk)) => {
                // The message keeps a copy; the event takes the chunk's own text.
                builder.apply(&chunk);
                match chunk {
                    StreamChunk::Text(text) if !text.is_empty() => core.events.text(message_id, text),
                    StreamChunk::Thinking(text) if !text.is_empty() => core.events.thinking(message_id, text),
                    StreamChunk::Retrying { delay, error, .. } => {
                        core.events.retrying(message_id, Failure::from(&error), delay);
                    }
                    StreamChunk::Notice(text) => core.events.notice(message_id, text),
                    _ => {}
                }
            }
            Some(Err(error)) => {
                let usage = builder.usage();
                return Streamed::Failed { partial: builder.into_partial(), usage, error };
            }
            None => break,
        }
    }
    let usage = builder.usage();
    let has_calls = builder.has_tool_calls();
    let (message, calls, stop) = builder.finish();
    let stop = stop.unwrap_or(if has_calls { StopReason::ToolUse } else { StopReason::EndTurn });
    Streamed::Complete { message, calls, stop, usage }
}
