//! What a session's tool calls share: the sandbox and the background processes, plus running one
//! call while relaying its streamed output in order.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use warden_protocol::{OutputStream, ToolCall};

use crate::checkpoint::{CheckpointStore, SessionHold};
use crate::containment::{self, BoxPolicy};
use crate::policy::Containment;
use crate::rules::RuleSource;
use crate::sandbox::Workspace;
use crate::tool::{BackgroundProcesses, Needs, OutputSink, ToolContext, ToolOutput, ToolRegistry};

/// The sandbox, the box commands run in, and the process table of one session. Background
/// processes die with it.
#[derive(Debug, Clone)]
pub struct ToolEnvironment {
    workspace: Arc<Workspace>,
    processes: Arc<BackgroundProcesses>,
    /// The OS box meant for the session's commands; `None` for commands run as the user. Whether
    /// this machine can build it is asked when a call needs to know ([`containment::mechanism`],
    /// probed once per process), so a session starts without waiting for the probe.
    box_policy: Option<Arc<BoxPolicy>>,
    /// Where the project is checkpointed before each change; `None` when checkpoints are off.
    checkpoints: Option<Arc<CheckpointStore>>,
    /// This session's mark in the store, which a restore in another process sees.
    hold: Option<Arc<SessionHold>>,
    /// Saves a network allow rule for the project ("Always for this project").
    rule_saver: Option<super::network_ask::SaveRule>,
    /// The permission rules calls are decided with, and where "Always allow…" keeps one; none:
    /// no rule applies and nothing is kept beyond the session.
    rules: Option<Arc<dyn RuleSource>>,
    /// The session's hooks, when it has any.
    hooks: Option<Arc<super::hooks::SessionHooks>>,
}

impl ToolEnvironment {
    /// Commands in the default box of the project (hiding nothing of Warden's own: see
    /// [`ToolEnvironment::with_box`]), when this machine can contain them.
    pub fn new(workspace: Workspace) -> Self {
        let policy = BoxPolicy::for_project(workspace.project_root(), &[]);
        Self::with_box(workspace, policy)
    }

    /// Commands in `policy`'s box, when this machine can contain them. The session's boxes with
    /// the network share one network namespace ([`containment::net::SharedNet`]), which lives as
    /// long as the session.
    pub fn with_box(workspace: Workspace, mut policy: BoxPolicy) -> Self {
        policy.shared_net.get_or_insert_with(containment::net::SharedNet::default);
        Self {
            workspace: Arc::new(workspace),
            processes: Arc::new(BackgroundProcesses::new()),
            box_policy: Some(Arc::new(policy)),
            checkpoints: None,
            hold: None,
            rule_saver: None,
            rules: None,
            hooks: None,
        }
    }

    /// Commands run as the user, in no box: what a machine without a mechanism gets (tests use
    /// it to see the policy there).
    pub fn without_box(workspace: Workspace) -> Self {
        Self {
            workspace: Arc::new(workspace),
            processes: Arc::new(BackgroundProcesses::new()),
            box_policy: None,
            checkpoints: None,
            hold: None,
            rule_saver: None,
            rules: None,
            hooks: None,
        }
    }

    /// Checkpoint the project in `store` before every call that can change files.
    pub fn with_checkpoints(mut self, store: Arc<CheckpointStore>) -> Self {
        self.checkpoints = Some(store);
        self
    }

    /// Keep `hold` (the session's mark in the store) for as long as the session lives.
    pub fn with_hold(mut self, hold: SessionHold) -> Self {
        self.hold = Some(Arc::new(hold));
        self
    }

    /// Save the project's network allow rules with `saver` when the user answers "Always".
    pub fn with_rule_saver(mut self, saver: super::network_ask::SaveRule) -> Self {
        self.rule_saver = Some(saver);
        self
    }

    /// Decide calls with the rules of `source`, and keep "Always allow…" answers there.
    pub fn with_rules(mut self, source: Arc<dyn RuleSource>) -> Self {
        self.rules = Some(source);
        self
    }

    /// Run `hooks` at the points of this session's turns.
    pub fn with_hooks(mut self, hooks: super::hooks::SessionHooks) -> Self {
        self.hooks = (!hooks.is_empty()).then(|| Arc::new(hooks));
        self
    }

    pub(crate) fn hooks(&self) -> Option<&Arc<super::hooks::SessionHooks>> {
        self.hooks.as_ref()
    }

    pub(crate) fn rules(&self) -> Option<&Arc<dyn RuleSource>> {
        self.rules.as_ref()
    }

    pub(crate) fn rule_saver(&self) -> Option<super::network_ask::SaveRule> {
        self.rule_saver.clone()
    }

    /// The network the session's boxes share (without asking whether boxes can be built here).
    pub fn shared_net(&self) -> Option<&containment::net::SharedNet> {
        self.box_policy.as_ref()?.shared_net.as_ref()
    }

    pub fn checkpoints(&self) -> Option<&Arc<CheckpointStore>> {
        self.checkpoints.as_ref()
    }

    /// The session's background commands.
    pub fn processes(&self) -> &Arc<BackgroundProcesses> {
        &self.processes
    }

    pub fn workspace(&self) -> &Arc<Workspace> {
        &self.workspace
    }

    /// The box commands run in, if they are contained.
    pub fn commands_box(&self) -> Option<&Arc<BoxPolicy>> {
        self.box_policy.as_ref().filter(|_| containment::mechanism().is_contained())
    }

    /// What the policy needs to know of the box.
    pub fn containment(&self) -> Containment {
        match self.commands_box() {
            Some(policy) => Containment {
                contained: true,
                network: policy.network,
                sockets_reachable: containment::mechanism().leaves_sockets_reachable(policy.network),
                bubblewrap: matches!(containment::mechanism(), containment::Mechanism::Bubblewrap { .. }),
            },
            None => Containment::NONE,
        }
    }

    /// The box a call that needs `needs` runs in once decided: the session's, with the network
    /// when the call wants it, or none when it wants the outside — the policy asked the user about
    /// either ([`crate::policy::escalation`]). `None` when commands are not contained at all.
    pub fn box_for(&self, needs: &Needs) -> Option<Arc<BoxPolicy>> {
        let policy = self.commands_box()?;
        if needs.outside_sandbox || needs.hardened_git {
            return None;
        }
        if needs.network && !policy.network {
            // The user approved this call's network: the public internet, as asked, and the
            // hosts the rules name; no question per host.
            let network_rules = containment::net::Rules { ask: false, ..policy.network_rules.clone() };
            return Some(Arc::new(BoxPolicy { network: true, network_rules, ..(**policy).clone() }));
        }
        Some(policy.clone())
    }

    /// A context for one call, without an output listener, in the session's box (the runner
    /// replaces it with the box the call was granted: [`ToolEnvironment::box_for`]).
    pub fn context(&self, registry: &ToolRegistry, cancel: CancellationToken) -> ToolContext {
        self.context_in(&self.workspace, registry, cancel)
    }

    /// [`ToolEnvironment::context`] in `workspace` (the same roots under a later scope).
    pub fn context_in(
        &self,
        workspace: &Arc<Workspace>,
        registry: &ToolRegistry,
        cancel: CancellationToken,
    ) -> ToolContext {
        registry
            .context(workspace.clone())
            .with_cancel(cancel)
            .with_processes(self.processes.clone())
            .with_commands_box(self.commands_box().cloned())
    }
}

/// Run `call`, handing each piece of streamed output to `on_output` as it comes and strictly before
/// the result is returned (so a face never sees output after the result).
pub async fn execute_streaming(
    registry: &ToolRegistry,
    call: &ToolCall,
    ctx: ToolContext,
    mut on_output: impl FnMut(OutputStream, String),
) -> ToolOutput {
    let (sink, mut rx) = OutputSink::channel(registry.config().stream_cap_bytes);
    let run = registry.execute(call, ctx.with_output(sink));
    tokio::pin!(run);
    loop {
        tokio::select! {
            biased;
            Some((stream, chunk)) = rx.recv() => on_output(stream, chunk),
            output = &mut run => {
                while let Ok((stream, chunk)) = rx.try_recv() {
                    on_output(stream, chunk);
                }
                return output;
            }
        }
    }
}
