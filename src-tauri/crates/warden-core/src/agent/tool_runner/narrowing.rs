//! A turn's narrower offer: a custom command's `allowed-tools`, or plan mode (only the tools that
//! read, `bash` in a read-only box, and `propose_plan`, which no other turn is offered). What the
//! model is offered and which of its calls are refused come from the same test, [`offers`].

use std::collections::BTreeSet;
use std::sync::PoisonError;

use warden_protocol::{AskStep, ToolErrorCode};

use super::ToolRunner;
use crate::policy::{Containment, Decision};
use crate::tool::Needs;
use crate::tools::{PLAN_TOOLS, PROPOSE_PLAN};

/// The tools one turn is narrowed to ([`ToolRunner::narrow`], [`ToolRunner::plan_mode`]).
#[derive(Debug, Clone)]
pub(super) struct Narrowed {
    tools: BTreeSet<String>,
    /// What narrowed them (`/commit`, `plan mode`), for the refusal.
    by: String,
    /// Plan mode: `propose_plan` is offered, and commands run only in the read-only box.
    pub planning: bool,
}

/// Whether a turn narrowed as `narrowed` offers the tool `name`: outside plan mode never
/// `propose_plan`.
pub(super) fn offers(narrowed: Option<&Narrowed>, name: &str) -> bool {
    match narrowed {
        Some(narrowed) => narrowed.tools.contains(name),
        None => name != PROPOSE_PLAN,
    }
}

/// The refusal of a call to a tool the turn does not offer; `None` when it does.
pub(super) fn refusal(narrowed: Option<&Narrowed>, name: &str) -> Option<Decision> {
    if offers(narrowed, name) {
        return None;
    }
    let reason = match narrowed {
        Some(narrowed) => {
            format!("`{name}` is not offered while {} runs: it lists the tools it may use.", narrowed.by)
        }
        None => format!("`{name}` is for plan mode only."),
    };
    Some(Decision::Deny { code: ToolErrorCode::PermissionDenied, reason })
}

/// A decision in plan mode: a command that wants more than the read-only box (the network, the
/// outside) is refused, and one the policy would only ask about runs in that box (it can change
/// nothing and reach nothing) unless the user's own ask rule names it; where commands are not in
/// bubblewrap's box there is no read-only box, and commands are refused.
pub(super) fn in_plan_mode(decision: Decision, needs: &Needs, containment: Containment) -> Decision {
    let user_asks = matches!(&decision, Decision::Ask(asked) if asked.step == AskStep::AskRule);
    if needs.command.is_none() || user_asks || matches!(decision, Decision::Deny { .. }) {
        return decision;
    }
    let refuse =
        |reason: &str| Decision::Deny { code: ToolErrorCode::PermissionDenied, reason: reason.to_owned() };
    if needs.network || needs.outside_sandbox || needs.hardened_git {
        return refuse("Plan mode only reads: a command runs in a read-only box without the network.");
    }
    if !(containment.contained && containment.bubblewrap) {
        return refuse("Plan mode runs commands only in bubblewrap's read-only box, and there is none here.");
    }
    Decision::Allow
}

impl ToolRunner {
    /// Offer only `tools` (of those in scope) until [`ToolRunner::widen`]; a call to another is
    /// refused. `by` names what narrowed them (`/commit`), for the refusal.
    pub(crate) fn narrow(&self, tools: BTreeSet<String>, by: String) {
        self.set_narrowed(Some(Narrowed { tools, by, planning: false }));
    }

    /// Plan mode until [`ToolRunner::widen`]: only [`PLAN_TOOLS`] are offered ([`in_plan_mode`]).
    pub(crate) fn plan_mode(&self) {
        let tools = PLAN_TOOLS.iter().map(|t| (*t).to_owned()).collect();
        self.set_narrowed(Some(Narrowed { tools, by: "plan mode".to_owned(), planning: true }));
    }

    /// Offer every tool in scope again.
    pub(crate) fn widen(&self) {
        self.set_narrowed(None);
    }

    pub(super) fn narrowed(&self) -> Option<Narrowed> {
        self.narrowed.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    fn set_narrowed(&self, narrowed: Option<Narrowed>) {
        *self.narrowed.write().unwrap_or_else(PoisonError::into_inner) = narrowed;
    }
}
