//! The one path every tool call takes, the loop's and `warden tool`'s alike: check the input,
//! decide (policy and the session's grants), ask (the approval router), run with streamed output,
//! and turn the outcome into a result. Each step's event is emitted here and nowhere else, so what
//! hooks into a tool call (the OS sandbox, checkpoints before a change, MCP tools) hooks in here.

mod asking;
mod checkpointed;
mod narrowing;

use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use warden_protocol::{
    ApprovalQueue, AskStep, DangerLevel, Event, KeptAside, RuleNote, ToolApproval, ToolCall, ToolDefinition,
    ToolErrorCode, ToolResult, ToolResultBlock, ToolStatus, TrustLevel,
};

use super::approvals::ApprovalRouter;
use super::events::EventEmitter;
use super::hooks::{HookVerdict, SessionHooks};
use super::network_ask::{NetworkQuestions, RunningCall};
use super::tool_env::{execute_streaming, ToolEnvironment};
use crate::checkpoint::{CheckpointStore, Origin};
use crate::containment::net::SharedNet;
use crate::policy::{self, Asked, Decision, Grant, Grants};
use crate::rules::{self, Files, RuleVerdict, Subject};
use crate::sandbox::Workspace;
use crate::scope::Scope;
use crate::tool::{changes_files, Needs, Tool, ToolContext, ToolOutput, ToolRegistry};
use checkpointed::Checkpointed;

/// A call as the model (or `warden tool`) asked for it; `input` is `Err` when it was not valid JSON.
#[derive(Debug, Clone)]
pub struct RequestedCall {
    pub id: String,
    pub name: String,
    pub input: Result<serde_json::Value, String>,
}

/// What the runner may do without asking, and how long it waits when it asks.
#[derive(Debug, Clone)]
pub struct CallPolicy {
    pub trust: TrustLevel,
    /// The scope the runner starts with; a session's MCP tools may change later (see
    /// [`ToolRunner::offer`]).
    pub scope: Scope,
    /// `None`: a confirmation waits until it is answered or the turn is stopped.
    pub approval_timeout: Option<Duration>,
}

/// A call with its decision made, before it runs (the loop forms its parallel batches from these).
pub struct PlannedCall {
    call: RequestedCall,
    tool: Option<Arc<dyn Tool>>,
    /// What the tool declared the call needs (nothing special for an unknown tool or bad JSON).
    needs: Needs,
    /// The paths it reads or writes, as Warden resolved them (what path rules are matched on).
    files: Files,
    decision: Decision,
    /// Its place among the calls of its message that ask (see [`number_the_asks`]).
    queue: Option<ApprovalQueue>,
    /// Planned in plan mode: a command runs in the read-only box.
    plan_box: bool,
}

/// Number the calls of one message that will ask, in order, when there is more than one: the
/// approval card says "2 of 3".
pub fn number_the_asks(planned: &mut [PlannedCall]) {
    let total = planned.iter().filter(|p| p.decision.asks()).count();
    if total < 2 {
        return;
    }
    let total = u32::try_from(total).unwrap_or(u32::MAX);
    let asking = planned.iter_mut().filter(|p| p.decision.asks());
    for (position, p) in (1..).zip(asking) {
        p.queue = Some(ApprovalQueue { position, total });
    }
}

impl PlannedCall {
    pub fn id(&self) -> &str {
        &self.call.id
    }

    /// The call as it was decided (a hook may have rewritten its input).
    pub(crate) fn call(&self) -> &RequestedCall {
        &self.call
    }

    /// Safe, parallel-capable and needing no approval: may run alongside its neighbours.
    pub fn runs_in_parallel(&self) -> bool {
        matches!(self.decision, Decision::Allow)
            && self.call.input.is_ok()
            && self.tool.as_ref().is_some_and(|t| {
                let def = t.definition();
                def.parallel && def.danger == DangerLevel::Safe
            })
    }
}

/// How one call ended: the event the faces saw and the block the model receives.
#[derive(Debug, Clone)]
pub struct CallOutcome {
    pub result: ToolResult,
    pub block: ToolResultBlock,
}

/// Runs the tool calls of one session (or of one `warden tool` command).
pub struct ToolRunner {
    offered: RwLock<Arc<Offered>>,
    env: ToolEnvironment,
    policy: CallPolicy,
    grants: Mutex<Grants>,
    approvals: Arc<ApprovalRouter>,
    events: EventEmitter,
    /// The session's questions about the network, when its boxes share a network.
    network: Option<Arc<NetworkQuestions>>,
    /// While a custom command or plan mode narrows the turn's offer ([`narrowing`]).
    narrowed: RwLock<Option<narrowing::Narrowed>>,
}

/// The tools, the scope they are offered in and the workspace that enforces it, replaced together
/// when a session's MCP tools change.
struct Offered {
    tools: Arc<ToolRegistry>,
    scope: Scope,
    workspace: Arc<Workspace>,
}

impl ToolRunner {
    pub(crate) fn new(
        tools: Arc<ToolRegistry>,
        env: ToolEnvironment,
        policy: CallPolicy,
        events: EventEmitter,
    ) -> Self {
        let offered = Offered { tools, scope: policy.scope.clone(), workspace: env.workspace().clone() };
        let approvals = Arc::new(ApprovalRouter::new());
        // A host no rule names is asked about in the window, as calls are (same router, same
        // time limit); without a runtime to wait in, nobody is asked and such hosts are refused.
        let network = match (env.shared_net(), tokio::runtime::Handle::try_current()) {
            (Some(shared), Ok(runtime)) => {
                let questions = Arc::new(NetworkQuestions::new(
                    events.clone(),
                    Arc::clone(&approvals),
                    policy.approval_timeout,
                    runtime,
                    env.rule_saver(),
                ));
                shared.set_asker(questions.clone());
                Some(questions)
            }
            _ => None,
        };
        Self {
            offered: RwLock::new(Arc::new(offered)),
            env,
            policy,
            grants: Mutex::new(Grants::default()),
            approvals,
            events,
            network,
            narrowed: RwLock::new(None),
        }
    }

    /// A runner of its own (for `warden tool`), and the receiver of its events.
    pub fn standalone(
        conversation_id: String,
        tools: Arc<ToolRegistry>,
        env: ToolEnvironment,
        policy: CallPolicy,
    ) -> (Self, mpsc::UnboundedReceiver<Event>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Self::new(tools, env, policy, EventEmitter::new(conversation_id, tx)), rx)
    }

    /// The tools the model is offered: those in scope.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        let offered = self.offered();
        let mut definitions = offered.tools.definitions(&offered.scope);
        let narrowed = self.narrowed();
        definitions.retain(|d| narrowing::offers(narrowed.as_ref(), &d.name));
        definitions
    }

    /// Whether a tool of this name exists at all (in scope or not).
    pub fn knows(&self, name: &str) -> bool {
        self.offered().tools.get(name).is_some()
    }

    /// Offer `tools` in `scope` from the next call on (a session's MCP servers changed their
    /// tools); calls already planned finish with what they had.
    pub(crate) fn offer(&self, tools: ToolRegistry, scope: Scope) {
        let workspace = match self.offered().workspace.rescoped(scope.clone()) {
            Ok(workspace) => Arc::new(workspace),
            Err(error) => {
                tracing::warn!(%error, "the MCP servers' new tools are not offered");
                return;
            }
        };
        let offered = Arc::new(Offered { tools: Arc::new(tools), scope, workspace });
        match self.offered.write() {
            Ok(mut current) => *current = offered,
            Err(poisoned) => *poisoned.into_inner() = offered,
        }
    }

    fn offered(&self) -> Arc<Offered> {
        self.offered.read().map(|o| o.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }

    /// Answer a pending approval. False when no call waits under that id (unknown or decided).
    pub fn approve(&self, approval: ToolApproval) -> bool {
        self.approvals.deliver(approval)
    }

    /// Decide a call: the policy for this trust level and scope, with the session's grants.
    /// Unknown tools and invalid input are decided `Allow` here and reported when the call runs.
    pub fn plan(&self, call: RequestedCall) -> PlannedCall {
        self.plan_with(call, &HookVerdict::default())
    }

    /// [`ToolRunner::plan`] with what the call's PreToolUse hooks said: a deny refuses it; an ask
    /// and an allow count as an ask rule and an allow rule of the user's for this one call.
    pub(crate) fn plan_with(&self, call: RequestedCall, hooks: &HookVerdict) -> PlannedCall {
        let tool = self.offered().tools.get(&call.name);
        let narrowed = self.narrowed();
        let planning = narrowed.as_ref().is_some_and(|n| n.planning);
        let (needs, files, decision) = match (&tool, &call.input) {
            (Some(tool), Ok(input)) => {
                let needs = tool.needs(input);
                let files = self.resolve_files(&needs);
                let refused = narrowing::refusal(narrowed.as_ref(), &call.name).or_else(|| {
                    hooks.deny.as_ref().map(|reason| Decision::Deny {
                        code: ToolErrorCode::PermissionDenied,
                        reason: format!("Refused by {reason}"),
                    })
                });
                let decision =
                    refused.unwrap_or_else(|| self.decide_and_note(tool.as_ref(), &needs, &files, hooks));
                let decision = if planning {
                    narrowing::in_plan_mode(decision, &needs, self.env.containment())
                } else {
                    decision
                };
                (needs, files, decision)
            }
            _ => (Needs::default(), Files::default(), Decision::Allow),
        };
        PlannedCall { call, tool, needs, files, decision, queue: None, plan_box: planning }
    }

    /// The whole path for one call: plan it, then [`ToolRunner::run`] it.
    pub async fn call(
        &self,
        message_id: &str,
        call: RequestedCall,
        cancel: &CancellationToken,
    ) -> CallOutcome {
        let planned = self.plan(call);
        self.run(message_id, &planned, cancel).await
    }

    /// Announce, check, ask when the decision says so, run, and report the result.
    pub async fn run(
        &self,
        message_id: &str,
        planned: &PlannedCall,
        cancel: &CancellationToken,
    ) -> CallOutcome {
        self.announce(message_id, planned);
        let output = self.attempt(message_id, planned, cancel).await;
        self.finish(message_id, &planned.call, output)
    }

    /// A call that is not run (the turn stopped before it): announced, and reported with `code`.
    pub fn skip(
        &self,
        message_id: &str,
        planned: &PlannedCall,
        code: ToolErrorCode,
        why: &str,
    ) -> CallOutcome {
        self.announce(message_id, planned);
        self.finish(message_id, &planned.call, ToolOutput::error(code, why))
    }

    fn announce(&self, message_id: &str, planned: &PlannedCall) {
        let call = &planned.call;
        let input = call.input.clone().unwrap_or_else(|_| serde_json::Value::Object(serde_json::Map::new()));
        let category = planned.tool.as_ref().map(|t| t.definition().category);
        let mcp = planned.tool.as_ref().and_then(|t| t.mcp_origin());
        self.events.tool_start(message_id, &call.id, &call.name, (category, mcp), input);
    }

    async fn attempt(
        &self,
        message_id: &str,
        planned: &PlannedCall,
        cancel: &CancellationToken,
    ) -> ToolOutput {
        let call = &planned.call;
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
            let known: Vec<String> = self.definitions().into_iter().map(|d| d.name).collect();
            return ToolOutput::error(
                ToolErrorCode::UnknownTool,
                format!("There is no tool named `{}`. Available tools: {}.", call.name, known.join(", ")),
            );
        };
        // One snapshot for the whole call: the tools, scope and workspace may be replaced meanwhile.
        let offered = self.offered();
        let ctx = self.env.context_in(&offered.workspace, &offered.tools, cancel.clone());
        // What became of a rule the user asked to keep ("Always allow…"), for the result.
        let mut rule_note: Option<RuleNote> = None;
        match &planned.decision {
            Decision::Deny { code, reason } => return ToolOutput::error(*code, reason.clone()),
            Decision::Allow => {}
            // Asked calls run one at a time: a session grant or a rule given for an earlier call
            // of the same turn covers this one if it would cover a new call.
            Decision::Ask(_) if self.covered_now(tool.as_ref(), &planned.needs, &planned.files) => {}
            Decision::Ask(asked) => {
                let asking = Asking {
                    message_id,
                    call,
                    needs: &planned.needs,
                    files: &planned.files,
                    queue: planned.queue,
                };
                match self.ask(&asking, tool.as_ref(), &input, &ctx, cancel, Why::Policy(asked.clone())).await
                {
                    Ok(kept) => rule_note = kept,
                    Err(refused) => return refused,
                }
            }
        }
        if cancel.is_cancelled() {
            return ToolOutput::error(ToolErrorCode::Cancelled, "Not run: the turn was cancelled.");
        }
        let asking = Asking { message_id, call, needs: &planned.needs, files: &planned.files, queue: None };
        let checkpoint = match self.checkpoint_before(&asking, tool.as_ref(), &input, &ctx, cancel).await {
            Ok(checkpoint) => checkpoint,
            Err(refused) => return refused,
        };
        // Approved (or allowed): the call runs in the box it was decided in, widened only by what it
        // asked for and the policy asked the user about.
        let commands_box = match self.env.box_for(&planned.needs) {
            Some(policy) if planned.plan_box => Some(Arc::new(policy.read_only_variant())),
            other => other,
        };
        // The project's git metadata before a boxed call that may change files: what the call
        // makes run code outside the box is taken out afterwards (`sweep_git_metadata`). The file
        // tools never write git metadata, and a command without a box runs as the user anyway.
        let git_before = (commands_box.is_some() && changes_files(tool.definition()))
            .then(|| crate::containment::GitBefore::now(self.env.workspace().project_root()));
        let tool_call = ToolCall { id: call.id.clone(), name: call.name.clone(), input };
        let mut output = self
            .run_in_box(message_id, &offered.tools, &tool_call, ctx.with_commands_box(commands_box), cancel)
            .await;
        if let Some(checkpoint) = checkpoint {
            output.report.changes = Some(checkpoint.after().await);
        }
        if let Some(before) = git_before {
            self.sweep_git_metadata(before, &mut output);
        }
        output.report.rule = rule_note;
        output
    }

    /// The project's checkpoint before a call that can change files (none for one that cannot,
    /// or when checkpoints are off). Without one the call could not be undone: never silently, in
    /// any trust level (a project that makes snapshots fail must not switch undo off unseen), so
    /// the user is asked; `Err` when they say no.
    async fn checkpoint_before(
        &self,
        asking: &Asking<'_>,
        tool: &dyn Tool,
        input: &serde_json::Value,
        ctx: &ToolContext,
        cancel: &CancellationToken,
    ) -> Result<Option<Checkpointed>, ToolOutput> {
        let store = match self.env.checkpoints() {
            Some(store) if changes_files(tool.definition()) => store.clone(),
            _ => return Ok(None),
        };
        let origin = self.origin(asking.message_id, asking.call);
        let checkpointed = Checkpointed::before(store, origin, &self.events).await;
        if let Err(error) = &checkpointed.before {
            let why = Why::NoCheckpoint(error.clone());
            self.ask(asking, tool, input, ctx, cancel, why).await?;
        }
        Ok(Some(checkpointed))
    }

    /// Run an approved call with `ctx` (its box set), its output streamed to the faces; a host
    /// its commands want that no rule names is asked about in its name ("allow once" ends with
    /// the call), and what the proxy decided meanwhile is added to the result.
    async fn run_in_box(
        &self,
        message_id: &str,
        tools: &ToolRegistry,
        tool_call: &ToolCall,
        ctx: ToolContext,
        cancel: &CancellationToken,
    ) -> ToolOutput {
        let running = self.network.as_ref().map(|questions| {
            let call = RunningCall {
                message_id: message_id.to_owned(),
                tool_id: tool_call.id.clone(),
                tool_name: tool_call.name.clone(),
                input: tool_call.input.clone(),
                cancel: cancel.clone(),
            };
            questions.call_started(call, self.env.shared_net().cloned())
        });
        let network_mark = self.env.shared_net().map(SharedNet::mark);
        let mut output = execute_streaming(tools, tool_call, ctx, |stream, chunk| {
            self.events.tool_delta(message_id, &tool_call.id, stream, chunk);
        })
        .await;
        let left = running.as_ref().and_then(super::network_ask::CallEnded::left_asking);
        drop(running);
        if let (Some(shared), Some(mark)) = (self.env.shared_net(), network_mark) {
            super::network_ask::network_decisions(&shared.decisions_since(mark), left.as_ref(), &mut output);
        }
        output
    }

    /// After a call that may have changed files (a command, an MCP tool, a write): what a boxed
    /// process left in the project's git metadata that would make git run code outside the box — a
    /// `commondir` in its `.git`, a repository it made (hooks, a config beyond the plain keys, a
    /// gitfile) — is moved into the project's Warden storage, and the result says so.
    fn sweep_git_metadata(&self, before: crate::containment::GitBefore, output: &mut ToolOutput) {
        let workspace = self.env.workspace();
        let Some(storage) = workspace.roots().get(1) else { return };
        let (project, aside) = (workspace.project_root(), storage.join(crate::containment::GIT_ASIDE_DIR));
        // What a box that outlives its call (a background command, an MCP server) could write to
        // is not "there before" until that box is gone.
        let swept = crate::containment::long_lived::since_oldest(project, before).sweep(project, &aside);
        if swept.is_empty() {
            return;
        }
        let words: Vec<String> = swept.iter().map(|s| s.describe()).collect();
        output.content.push_str("\n\n");
        output.content.push_str(&words.join("\n"));
        output.report.git_swept = words;
        // What the block offers to put back: where it was, its name aside, what it would do.
        output.report.git_aside = swept
            .iter()
            .filter_map(|s| {
                let aside = s.to.as_deref()?.file_name()?.to_str()?.to_owned();
                Some(KeptAside { from: s.from.display().to_string(), aside, danger: s.danger.to_owned() })
            })
            .collect();
    }

    fn origin(&self, message_id: &str, call: &RequestedCall) -> Origin {
        let conversation = self.events.conv();
        Origin {
            conversation_id: (!conversation.is_empty()).then_some(conversation),
            message_id: (!message_id.is_empty()).then(|| message_id.to_owned()),
            tool_id: Some(call.id.clone()),
            tool_name: Some(call.name.clone()),
        }
    }

    /// The project the session works in.
    pub fn project_root(&self) -> std::path::PathBuf {
        self.env.workspace().project_root().to_path_buf()
    }

    /// The session's background commands.
    pub fn background(&self) -> &Arc<crate::tool::BackgroundProcesses> {
        self.env.processes()
    }

    /// The project's checkpoint store, when checkpoints are on.
    pub fn checkpoints(&self) -> Option<&Arc<CheckpointStore>> {
        self.env.checkpoints()
    }

    /// What "Allow for this session" remembered so far, for the window to list.
    pub fn grants(&self) -> Vec<Grant> {
        lock(&self.grants).list()
    }

    /// Forget one grant: calls it covered ask again. False when there was no such grant.
    pub fn revoke(&self, grant: &Grant) -> bool {
        lock(&self.grants).remove(grant)
    }

    /// Whether the session's grants and the rules now let this call run unasked.
    fn covered_now(&self, tool: &dyn Tool, needs: &Needs, files: &Files) -> bool {
        matches!(self.decide(tool, needs, files), Decision::Allow)
    }

    /// The policy for this trust level, scope and box, with the session's grants and the rules as
    /// they are now.
    fn decide(&self, tool: &dyn Tool, needs: &Needs, files: &Files) -> Decision {
        self.decide_with(tool, needs, &self.rules_on(tool, needs, files))
    }

    fn decide_with(&self, tool: &dyn Tool, needs: &Needs, rules: &RuleVerdict) -> Decision {
        let grants = lock(&self.grants);
        let offered = self.offered();
        let trust = self.policy.trust;
        let containment = self.env.containment();
        policy::decide_with(trust, tool.definition(), &offered.scope, needs, &grants, containment, rules)
    }

    /// [`ToolRunner::decide`] for a call being planned, telling the rule that made the decision
    /// (if one did) that it was used.
    fn decide_and_note(
        &self,
        tool: &dyn Tool,
        needs: &Needs,
        files: &Files,
        hooks: &HookVerdict,
    ) -> Decision {
        let mut rules = self.rules_on(tool, needs, files);
        // A hook's ask or (the user's own hook's) allow, for this one call, as rules of the user's.
        if rules.ask.is_none() {
            rules.ask.clone_from(&hooks.ask);
        }
        if rules.allow.is_none() {
            rules.allow.clone_from(&hooks.allow);
        }
        let decision = self.decide_with(tool, needs, &rules);
        let decided_by = match &decision {
            // A deny rule decided when, without it, the call would not have been refused.
            Decision::Deny { .. } if rules.deny.is_some() => {
                let without = RuleVerdict { deny: None, ..rules.clone() };
                let refused_anyway = matches!(self.decide_with(tool, needs, &without), Decision::Deny { .. });
                (!refused_anyway).then(|| rules.deny.clone()).flatten()
            }
            Decision::Ask(asked) if asked.step == AskStep::AskRule => asked.rule.clone(),
            // An allow rule decided when, without it, the call would have asked.
            Decision::Allow if rules.allow.is_some() => {
                let without = RuleVerdict { allow: None, ..rules.clone() };
                self.decide_with(tool, needs, &without).asks().then(|| rules.allow.clone()).flatten()
            }
            _ => None,
        };
        if let (Some(shown), Some(source)) = (decided_by, self.env.rules()) {
            source.used(&shown);
        }
        decision
    }

    /// What the permission rules say of a call.
    fn rules_on(&self, tool: &dyn Tool, needs: &Needs, files: &Files) -> RuleVerdict {
        let Some(source) = self.env.rules() else { return RuleVerdict::default() };
        let subject = Subject { tool: &tool.definition().name, command: needs.command.as_deref(), files };
        source.book().judge(subject)
    }

    /// The session's hooks, when it has any.
    pub(crate) fn hooks(&self) -> Option<&Arc<SessionHooks>> {
        self.env.hooks()
    }

    /// The paths a call declared, resolved as the tool will resolve them.
    fn resolve_files(&self, needs: &Needs) -> Files {
        rules::resolve_files(&self.offered().workspace, needs)
    }

    fn finish(&self, message_id: &str, call: &RequestedCall, output: ToolOutput) -> CallOutcome {
        let result = ToolResult {
            conversation_id: self.events.conv(),
            message_id: message_id.to_owned(),
            tool_id: call.id.clone(),
            status: if output.is_error { ToolStatus::Error } else { ToolStatus::Success },
            code: output.code,
            result: output.content,
            report: *output.report,
            images: output.images,
            metadata: if output.metadata.is_empty() {
                None
            } else {
                Some(serde_json::Value::Object(output.metadata))
            },
        };
        self.events.tool_result(result.clone());
        let block = ToolResultBlock {
            tool_use_id: call.id.clone(),
            tool_name: call.name.clone(),
            content: result.result.clone(),
            is_error: output.is_error,
            code: result.code.map(Into::into),
            images: result.images.clone(),
            report: (!result.report.is_empty()).then(|| Box::new(result.report.clone())),
        };
        CallOutcome { result, block }
    }
}

/// What a confirmation is about.
enum Why {
    /// The policy (trust level, scope, the box, the rules) asks, at this step.
    Policy(Asked),
    /// No checkpoint could be taken before a call that changes files (the error).
    NoCheckpoint(String),
}

/// The call being asked about, and where it stands among its message's asks.
#[derive(Clone, Copy)]
struct Asking<'a> {
    message_id: &'a str,
    call: &'a RequestedCall,
    /// What the tool declared the call needs (what the policy asked about).
    needs: &'a Needs,
    /// The paths it reads or writes, resolved.
    files: &'a Files,
    queue: Option<ApprovalQueue>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
