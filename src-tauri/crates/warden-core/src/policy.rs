//! The policy: a pure function from (trust level, tool, what the call needs, scope, session grants,
//! containment) to Allow | Ask | Deny. Trust never widens scope; the blocklist holds in every mode; a
//! command the blocklist cannot judge ([`Verdict::Unknown`]) asks in every mode unless an OS sandbox
//! contains it. It knows no tool by name: what it judges is what the tool declared for the call
//! ([`Needs`]: a command, the network, the outside of the box).

use std::collections::HashSet;

use warden_protocol::{AskStep, DangerLevel, ToolDefinition, ToolErrorCode, TrustLevel};

use crate::rules::{RuleVerdict, NEVER_REMEMBERED};
use crate::scope::Scope;
use crate::shell::blocklist::{self, Verdict};
use crate::tool::Needs;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// The user is asked; which step of the policy made it ask.
    Ask(Asked),
    Deny {
        code: ToolErrorCode,
        reason: String,
    },
}

impl Decision {
    pub fn asks(&self) -> bool {
        matches!(self, Self::Ask(_))
    }

    fn ask(step: AskStep) -> Self {
        Self::Ask(Asked { step, rule: None })
    }
}

/// Why a call asks: the step, and the rule it names (an ask rule, or the allow rule that was not
/// used because commands are not in the box here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    pub step: AskStep,
    pub rule: Option<String>,
}

/// What "Allow for this session" remembered (the protocol's type: the window lists and revokes them).
pub use warden_protocol::SessionGrant as Grant;

/// The session's remembered approvals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grants(HashSet<Grant>);

impl Grants {
    /// The grant an approval of this call would remember, if it may be remembered at all.
    /// A call's command is remembered by its prefix, any other call by its tool.
    pub fn grant_for(tool: &str, needs: &Needs) -> Option<Grant> {
        if needs.unreadable {
            return None;
        }
        if let Some(command) = &needs.command {
            let prefix = crate::shell::command_prefix(command)?;
            // A grant for these would cover every later use, whatever it destroys or sends away:
            // each call asks again.
            let program = prefix.split_whitespace().next().unwrap_or_default();
            if NEVER_REMEMBERED.contains(&program) {
                return None;
            }
            Some(Grant::BashPrefix { prefix })
        } else {
            Some(Grant::Tool { name: tool.to_owned() })
        }
    }

    pub fn insert(&mut self, grant: Grant) {
        self.0.insert(grant);
    }

    /// Forget a grant; false when there was none.
    pub fn remove(&mut self, grant: &Grant) -> bool {
        self.0.remove(grant)
    }

    /// Every grant, sorted (tools first, then command prefixes).
    pub fn list(&self) -> Vec<Grant> {
        let mut all: Vec<Grant> = self.0.iter().cloned().collect();
        all.sort();
        all
    }

    /// Whether a remembered approval covers this call.
    pub fn covers(&self, tool: &str, needs: &Needs) -> bool {
        Self::grant_for(tool, needs).is_some_and(|grant| self.0.contains(&grant))
    }
}

/// What the OS box gives a session's commands by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Containment {
    /// Commands run inside an OS sandbox.
    pub contained: bool,
    /// The box lets commands use the network (the project's setting).
    pub network: bool,
    /// The box leaves this machine's unix sockets reachable (the Landlock fallback with the
    /// network: the session bus, where the keychain answers, and agents' sockets): its commands
    /// ask as uncontained ones do, though what they ask for beyond the box is still an escalation.
    pub sockets_reachable: bool,
    /// The box is bubblewrap's (a private file system, network and session): only there does a
    /// command allow rule let a command run unasked.
    pub bubblewrap: bool,
}

impl Containment {
    /// Commands run as the user: no OS sandbox on this machine.
    pub const NONE: Self =
        Self { contained: false, network: true, sockets_reachable: false, bubblewrap: false };
    /// The default box: bubblewrap's, no network.
    pub const BOXED: Self =
        Self { contained: true, network: false, sockets_reachable: false, bubblewrap: true };

    /// Whether a command runs unasked where the trust level alone would let it: only in a box that
    /// holds it in entirely.
    fn holds(self) -> bool {
        self.contained && !self.sockets_reachable
    }
}

/// A call that asks for more than the session's box gives: it always asks, in every trust
/// level, and no remembered approval covers it (Autonomous never escalates by itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escalation {
    /// The network where the box has none ([`Needs::network`]).
    Network,
    /// The outside of the box where commands are contained ([`Needs::outside_sandbox`]).
    OutsideSandbox,
    /// A plain `git init` outside the box, as a hardened git ([`Needs::hardened_git`]).
    HardenedGit,
}

impl Escalation {
    /// What the approval dialog says about it.
    pub fn reason(self) -> &'static str {
        match self {
            Self::Network => {
                "This command asks for the network, which Warden's sandbox otherwise blocks: it could send \
                 data anywhere or download and run anything. Approve only if it needs it."
            }
            Self::OutsideSandbox => {
                "Dangerous: this command asks to run outside Warden's sandbox, with your full access to files, \
                 secrets, network and processes."
            }
            Self::HardenedGit => {
                "Warden runs this git init outside its sandbox, so that the repository is made from your own \
                 git configuration as you would make it: git itself, not a shell, with hooks and the file \
                 system monitor off, in a folder of the project. Declined, nothing runs."
            }
        }
    }
}

/// What a call asks for beyond the box, if anything (the outside of the box first).
pub fn escalation(needs: &Needs, containment: Containment) -> Option<Escalation> {
    if !containment.contained {
        return None;
    }
    if needs.outside_sandbox {
        Some(Escalation::OutsideSandbox)
    } else if needs.hardened_git {
        Some(Escalation::HardenedGit)
    } else if needs.network && !containment.network {
        Some(Escalation::Network)
    } else {
        None
    }
}

/// Decide what happens to one tool call whose commands no OS sandbox contains, without rules (see
/// [`decide_with`]).
pub fn decide(
    trust: TrustLevel,
    tool: &ToolDefinition,
    scope: &Scope,
    needs: &Needs,
    grants: &Grants,
) -> Decision {
    decide_with(trust, tool, scope, needs, grants, Containment::NONE, &RuleVerdict::default())
}

/// Why a call's command must be asked about whatever the trust level: the blocklist could not judge
/// it, and no OS sandbox (`contained`) limits what it can do. `None` for a call without a command.
pub fn must_ask_reason(needs: &Needs, contained: bool) -> Option<String> {
    if contained {
        return None;
    }
    let command = needs.command.as_deref()?;
    match blocklist::judge(command) {
        Verdict::Unknown { reason } => Some(format!("Warden cannot tell what this command does: {reason}.")),
        Verdict::Known | Verdict::Blocked(_) => None,
    }
}

/// Why a call asks although the trust level alone would not: an [`Escalation`], a command the
/// blocklist cannot judge outside an OS sandbox ([`must_ask_reason`]), or any command in Autonomous
/// where commands are not contained. Shown in the approval dialog.
pub fn ask_reason(trust: TrustLevel, needs: &Needs, containment: Containment) -> Option<String> {
    if let Some(escalation) = escalation(needs, containment) {
        return Some(escalation.reason().to_owned());
    }
    if needs.command.is_some() && containment.contained && containment.sockets_reachable {
        return Some(
            "This machine's sandbox (Landlock) leaves its unix sockets reachable to commands with the \
             network (the session bus, where your keychain answers, and agents' sockets), so even in \
             Autonomous each one asks."
                .to_owned(),
        );
    }
    let contained = containment.contained;
    if let Some(reason) = must_ask_reason(needs, contained) {
        return Some(reason);
    }
    (trust == TrustLevel::Autonomous && needs.command.is_some() && !contained).then(|| {
        "Commands are not contained by an OS sandbox on this machine, so even in Autonomous each one asks.".to_owned()
    })
}

/// Decide one call: the trust level, the scope, the box (`containment`), the session's grants and
/// what the permission rules say of it (`rules`), in this order:
///
/// 1. refused: a tool out of scope, a command the blocklist refuses, a deny rule;
/// 2. asked whatever allows it: more than the box gives ([`escalation`]), a command nobody can
///    judge outside a box, any command in Autonomous without a box, an ask rule, a tool the user
///    wants to be asked about;
/// 3. what the trust level lets run unasked runs; else a session grant, or an allow rule — in
///    Supervised only for a tool that changes nothing, and for a command only in bubblewrap's box.
pub fn decide_with(
    trust: TrustLevel,
    tool: &ToolDefinition,
    scope: &Scope,
    needs: &Needs,
    grants: &Grants,
    containment: Containment,
    rules: &RuleVerdict,
) -> Decision {
    let contained = containment.holds();
    if !scope.allows_tool(tool) {
        return Decision::Deny {
            code: ToolErrorCode::PermissionDenied,
            reason: format!(
                "`{}` is not allowed in this project (see the tool permissions in Settings).",
                tool.name
            ),
        };
    }
    if let Some(command) = &needs.command {
        if let Err(blocked) = blocklist::check_command(command) {
            return Decision::Deny {
                code: ToolErrorCode::BlockedCommand,
                reason: format!("Refused in every trust level: {blocked}"),
            };
        }
    }
    if let Some(rule) = &rules.deny {
        return Decision::Deny {
            code: ToolErrorCode::PermissionDenied,
            reason: format!("A permission rule refuses this call: {rule} (Settings → Permissions)."),
        };
    }
    // A tool that changes nothing but the conversation (the task list) never asks.
    if tool.conversation_only {
        return Decision::Allow;
    }
    // Never covered by a grant or a rule: the grant was for the program in the box.
    if escalation(needs, containment).is_some() {
        return Decision::ask(AskStep::OutsideBox);
    }
    // Never covered either: an unknown command has no remembered prefix.
    if must_ask_reason(needs, contained).is_some() {
        return Decision::ask(AskStep::Unjudgeable);
    }
    if trust == TrustLevel::Autonomous && needs.command.is_some() && !contained {
        return Decision::ask(AskStep::NotContained);
    }
    if let Some(rule) = &rules.ask {
        return Decision::Ask(Asked { step: AskStep::AskRule, rule: Some(rule.clone()) });
    }
    if scope.always_asks(&tool.name) && !grants.covers(&tool.name, needs) {
        return Decision::ask(AskStep::ToolAlwaysAsks);
    }
    let changes = tool.danger != DangerLevel::Safe;
    let asks = match trust {
        TrustLevel::Autonomous => false,
        TrustLevel::Guided => changes,
        TrustLevel::Supervised => true,
    };
    if !asks || grants.covers(&tool.name, needs) {
        return Decision::Allow;
    }
    let not_allowed = if trust == TrustLevel::Supervised { AskStep::Supervised } else { AskStep::NoRule };
    match &rules.allow {
        None => Decision::ask(not_allowed),
        Some(_) if trust == TrustLevel::Supervised && changes => Decision::ask(AskStep::Supervised),
        Some(rule) if needs.command.is_some() && !(containment.bubblewrap && contained) => {
            Decision::Ask(Asked { step: AskStep::RuleNeedsBox, rule: Some(rule.clone()) })
        }
        Some(_) => Decision::Allow,
    }
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
