//! Asking the user about a call: the confirmation (why it asks, the rule "Always allow…" offers),
//! the wait for the answer, and keeping the rule the answer chose.

use tokio_util::sync::CancellationToken;
use warden_protocol::{
    AskStep, ConfirmKind, DangerLevel, PermissionRule, Remember, RuleEffect, RuleNote, RuleOrigin, RuleScope,
    SuggestedRule, ToolConfirm, ToolErrorCode,
};

use super::{lock, Asking, ToolRunner, Why};
use crate::agent::approvals::{new_confirm_id, ApprovalOutcome};
use crate::policy::{self, Asked, Grants};
use crate::rules::{self, Files, RuleBook, Subject};
use crate::tool::{Needs, Tool, ToolContext, ToolOutput};

impl ToolRunner {
    /// Ask the user. `Ok` = approved, with what became of a rule the answer asked to keep
    /// (kept, or why not); `Err(result)` = not run, and why.
    pub(super) async fn ask(
        &self,
        asking: &Asking<'_>,
        tool: &dyn Tool,
        input: &serde_json::Value,
        ctx: &ToolContext,
        cancel: &CancellationToken,
        why: Why,
    ) -> Result<Option<RuleNote>, ToolOutput> {
        let Asking { message_id, call, needs, files, queue } = *asking;
        let timeout = self.policy.approval_timeout;
        let preview = tool.preview(input, ctx).await;
        let (reason, asked) = match &why {
            Why::Policy(asked) => (self.ask_reason(&call.name, needs, asked), Some(asked.clone())),
            Why::NoCheckpoint(error) => (
                Some(format!(
                    "No checkpoint could be taken before this call ({error}): what it changes could not \
                     be undone. Run it anyway?"
                )),
                None,
            ),
        };
        let suggested = asked.as_ref().and_then(|asked| self.suggestion(tool, needs, files, asked));
        let confirm_id = new_confirm_id();
        let rx = self.approvals.register(&confirm_id);
        if let Some(hooks) = self.hooks() {
            hooks.notify(&self.events, format!("Warden needs your approval to use {}", call.name));
        }
        self.events.tool_confirm(ToolConfirm {
            conversation_id: String::new(),
            confirm_id: confirm_id.clone(),
            message_id: message_id.to_owned(),
            tool_id: call.id.clone(),
            tool_name: call.name.clone(),
            mcp: tool.mcp_origin(),
            input: input.clone(),
            danger_level: tool.definition().danger,
            preview,
            // 0: no time limit.
            timeout_secs: timeout.map_or(0, |t| u32::try_from(t.as_secs()).unwrap_or(u32::MAX).max(1)),
            reason,
            queue,
            kind: ConfirmKind::Tool,
            network: None,
            asked_because: Some(asked.as_ref().map_or(AskStep::NoCheckpoint, |a| a.step)),
            rule: asked.as_ref().and_then(|a| a.rule.clone()),
            suggested_rule: suggested.clone(),
        });
        match self.approvals.wait(&confirm_id, rx, timeout, cancel).await {
            ApprovalOutcome::Answered(answer) if answer.approved => {
                // "For this session" and "always" cover what the policy asked about, never a
                // missing checkpoint. "Always for this project" is a network question's answer: a
                // call takes it as "for this session".
                let remember = answer.remember.unwrap_or_default();
                if matches!(remember, Remember::Once) || asked.is_none() {
                    return Ok(None);
                }
                if let Some(grant) = Grants::grant_for(&call.name, needs) {
                    lock(&self.grants).insert(grant);
                }
                if remember != Remember::Always {
                    return Ok(None);
                }
                let subject = Subject { tool: &call.name, command: needs.command.as_deref(), files };
                Ok(Some(match self.keep_rule(subject, suggested.as_ref(), answer.always) {
                    Ok(kept) => RuleNote { kept: true, words: kept },
                    Err(why) => RuleNote { kept: false, words: why },
                }))
            }
            ApprovalOutcome::Answered(answer) => {
                let text = match answer.reason.filter(|r| !r.trim().is_empty()) {
                    Some(reason) => format!("The user rejected this call: {reason}"),
                    None => "The user rejected this call.".to_owned(),
                };
                Err(ToolOutput::error(ToolErrorCode::UserRejected, text))
            }
            ApprovalOutcome::TimedOut => Err(ToolOutput::error(
                ToolErrorCode::ApprovalTimeout,
                format!(
                    "Not run: nobody approved this call within {} s.",
                    timeout.map_or(0, |t| t.as_secs())
                ),
            )),
            ApprovalOutcome::Cancelled => {
                Err(ToolOutput::error(ToolErrorCode::Cancelled, "Not run: the turn was cancelled."))
            }
        }
    }

    /// The rule "Always allow…" offers for a call the policy asked about: only where a rule would
    /// let the next such call run unasked (no rule loosens an escalation, a command nobody can
    /// judge, an ask rule; in Supervised only a call that changes nothing), and never when the
    /// organisation forbids "always".
    fn suggestion(
        &self,
        tool: &dyn Tool,
        needs: &Needs,
        files: &Files,
        asked: &Asked,
    ) -> Option<SuggestedRule> {
        let source = self.env.rules()?;
        let offered = match asked.step {
            AskStep::NoRule => true,
            AskStep::Supervised => tool.definition().danger == DangerLevel::Safe,
            _ => false,
        };
        if !offered || needs.unreadable || source.always_forbidden() {
            return None;
        }
        // A command rule holds only in bubblewrap's box: offering one elsewhere would save a rule
        // that never applies.
        if needs.command.is_some() && !self.env.containment().bubblewrap {
            return None;
        }
        rules::suggest(&tool.definition().name, needs.command.as_deref(), files)
    }

    /// Keep the allow rule an "always" answer asks for: the one the answer names, or else the
    /// suggestion. Refused when it does not parse, does not cover the call it answers, widens an
    /// exact-only suggestion, or names the organisation's scope. The rule as kept, in words.
    fn keep_rule(
        &self,
        subject: Subject<'_>,
        suggested: Option<&SuggestedRule>,
        chosen: Option<warden_protocol::AlwaysRule>,
    ) -> Result<String, String> {
        let source = self.env.rules().ok_or("no rules are kept here (this run has no settings)")?;
        let suggested = suggested.ok_or("no rule may be kept for this call")?;
        let (tool, pattern, scope) = match chosen {
            Some(chosen) => (chosen.tool, chosen.pattern, chosen.scope),
            None => (suggested.tool.clone(), suggested.pattern.clone(), RuleScope::Project),
        };
        if scope == RuleScope::Managed {
            return Err("the organisation's rules are not changed from here".to_owned());
        }
        if suggested.exact_only && (tool != suggested.tool || pattern != suggested.pattern) {
            return Err(format!(
                "only the exact command may be kept for this program ({}), not a broader rule",
                suggested.pattern.as_deref().unwrap_or_default()
            ));
        }
        let rule = PermissionRule::new(RuleEffect::Allow, tool, pattern).with_origin(RuleOrigin::Card);
        rules::check(&rule)?;
        let alone = RuleBook::new([(rule.clone(), scope)]);
        if alone.judge(subject).allow.is_none() {
            return Err(format!("`{rule}` does not cover the call it answers"));
        }
        let shown = format!("{rule} ({})", scope.as_str());
        source.keep(rule, scope).map(|()| shown.clone()).map_err(|why| format!("{shown}: {why}"))
    }

    /// Why the policy asks about a call, in words for the card.
    fn ask_reason(&self, name: &str, needs: &Needs, asked: &Asked) -> Option<String> {
        let rule = asked.rule.as_deref().unwrap_or_default();
        match asked.step {
            AskStep::AskRule => return Some(format!("A permission rule says to ask: {rule}.")),
            AskStep::RuleNeedsBox => {
                return Some(format!(
                    "The rule {rule} would allow this command, but commands do not run in Warden's \
                     bubblewrap sandbox here, so it is not used."
                ))
            }
            _ => {}
        }
        policy::ask_reason(self.policy.trust, needs, self.env.containment()).or_else(|| {
            self.offered().scope.always_asks(name).then(|| {
                "You chose to be asked before every call of this tool (Settings → MCP servers).".to_owned()
            })
        })
    }
}
