//! A project's permission rules as its sessions apply them: the organisation's, the user's and
//! the project's, read from the settings in use for every call (a rule deleted in Settings holds
//! at once), and "Always allow…" kept in the sealed settings.

use std::path::Path;
use std::sync::Arc;

use warden_protocol::{
    AskStep, DangerLevel, PermissionRule, RuleCheck, RuleEffect, RuleScope, Settings, ToolCategory,
    ToolDefinition, TrustLevel,
};

use super::settings_store::SettingsCell;
use super::{Engine, SessionSpec, SetupError};
use crate::agent::ToolEnvironment;
use crate::config::managed::Managed;
use crate::policy::{self, Decision, Grants};
use crate::rules::{self, RuleBook, RuleSource, Subject};
use crate::sandbox::Workspace;
use crate::tool::{Needs, ToolRegistry, ToolsConfig};

/// The rules of one project.
pub(crate) struct ProjectRules {
    settings: Arc<SettingsCell>,
    /// The project, as the settings key it.
    project: String,
    /// The organisation's policy, read when the session started.
    managed: Managed,
    /// When each rule last decided a call.
    used: Arc<rules::used::RuleUse>,
}

impl std::fmt::Debug for ProjectRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProjectRules").field("project", &self.project).finish_non_exhaustive()
    }
}

impl RuleSource for ProjectRules {
    fn book(&self) -> RuleBook {
        book(&self.managed, &self.settings.settings(), &self.project)
    }

    fn keep(&self, rule: PermissionRule, scope: RuleScope) -> Result<(), String> {
        self.settings.keep_rule(&self.project, scope, rule)
    }

    fn always_forbidden(&self) -> bool {
        self.managed.forbids_always()
    }

    fn used(&self, shown: &str) {
        self.used.record(shown);
    }
}

/// Every scope's rules for `project`, as `settings` and the organisation's policy have them.
pub(crate) fn book(managed: &Managed, settings: &Settings, project: &str) -> RuleBook {
    let project_rules =
        settings.tool_permissions.get(project).map(|p| p.permission_rules.clone()).unwrap_or_default();
    let scoped = managed
        .rules()
        .into_iter()
        .map(|r| (r, RuleScope::Managed))
        .chain(settings.permission_rules.iter().cloned().map(|r| (r, RuleScope::User)))
        .chain(project_rules.into_iter().map(|r| (r, RuleScope::Project)));
    RuleBook::new(scoped).with_managed_allows_only(managed.allows_only_its_own())
}

impl Engine {
    /// The rules `project`'s sessions are decided with.
    pub(crate) fn project_rules(&self, project: &std::path::Path) -> Arc<dyn RuleSource> {
        Arc::new(ProjectRules {
            settings: Arc::clone(&self.settings),
            project: project.to_string_lossy().into_owned(),
            managed: Managed::load(self.home.managed_file()),
            used: Arc::new(rules::used::RuleUse::new(self.home.config_dir())),
        })
    }

    /// Every rule that applies in `project`, with its scope and when it last decided a call.
    pub fn list_rules(&self, project: &Path) -> Vec<warden_protocol::ScopedRule> {
        let used = rules::used::RuleUse::new(self.home.config_dir()).load();
        self.rules_for(project).list_with(&used)
    }

    /// `trust` as the organisation allows it: Guided where it forbids Autonomous.
    pub(crate) fn trust_allowed(&self, trust: TrustLevel) -> TrustLevel {
        if trust == TrustLevel::Autonomous && Managed::load(self.home.managed_file()).forbids_autonomous() {
            tracing::info!("the organisation's policy forbids Autonomous: this session runs in Guided");
            TrustLevel::Guided
        } else {
            trust
        }
    }

    /// Every scope's rules for `project` now (`warden rules`, Settings → Permissions).
    pub fn rules_for(&self, project: &std::path::Path) -> RuleBook {
        self.project_rules(project).book()
    }
}

impl Engine {
    /// What the policy would do with a call of `tool` with `input` in `project`, as the window's
    /// sessions decide (the settings' trust level, the project's scope and box, every scope's
    /// rules, no session grant), and why.
    pub fn check_call(
        &self,
        project: &Path,
        tool: &str,
        input: &serde_json::Value,
    ) -> Result<RuleCheck, SetupError> {
        let settings = self.settings();
        let project = self.project_outside_home(project)?;
        let mut spec = SessionSpec::new(project.clone());
        spec.default_scope = crate::tools::window_default_scope();
        let policy = self.project_policy(&spec, &project, &settings);
        let workspace = Workspace::new(&project, self.home.project_dir(&project), policy.scope.clone())?;
        let env = ToolEnvironment::with_box(workspace, policy.commands_box);
        let registry = ToolRegistry::with_core_tools(ToolsConfig::default());
        // A tool this engine does not have (an MCP server's): its rules, as a tool that may
        // change anything.
        let (definition, needs) = match registry.get(tool) {
            Some(known) => (known.definition().clone(), known.needs(input)),
            None => (unknown_tool(tool), Needs::default()),
        };
        let mut scope = policy.scope;
        if registry.get(tool).is_none() {
            scope.allow(tool);
        }
        let files = rules::resolve_files(env.workspace(), &needs);
        let source = self.project_rules(&project);
        let subject = Subject { tool, command: needs.command.as_deref(), files: &files };
        let verdict = source.book().judge(subject);
        let trust = self.trust_allowed(settings.trust_level);
        let containment = env.containment();
        let decision = policy::decide_with(
            trust,
            &definition,
            &scope,
            &needs,
            &Grants::default(),
            containment,
            &verdict,
        );
        Ok(match decision {
            Decision::Allow => RuleCheck {
                decision: RuleEffect::Allow,
                asked_because: None,
                reason: match &verdict.allow {
                    Some(rule) if trust != TrustLevel::Autonomous => {
                        format!("Runs unasked: {rule} covers it.")
                    }
                    _ => format!("Runs unasked: {} lets it run.", trust_name(trust)),
                },
                rule: verdict.allow.clone(),
                suggested_rule: None,
            },
            Decision::Deny { reason, .. } => RuleCheck {
                decision: RuleEffect::Deny,
                asked_because: None,
                rule: verdict.deny.clone(),
                reason,
                suggested_rule: None,
            },
            Decision::Ask(asked) => {
                let offered = asked.step == AskStep::NoRule && !source.always_forbidden();
                let reason = policy::ask_reason(trust, &needs, containment)
                    .unwrap_or_else(|| step_words(asked.step, asked.rule.as_deref()));
                RuleCheck {
                    decision: RuleEffect::Ask,
                    asked_because: Some(asked.step),
                    rule: asked.rule,
                    reason,
                    suggested_rule: offered
                        .then(|| rules::suggest(tool, needs.command.as_deref(), &files))
                        .flatten(),
                }
            }
        })
    }

    /// Add `rule` to `scope`'s rules (the user's or `project`'s), checked first; typed by the user.
    pub fn add_rule(&self, project: &Path, scope: RuleScope, rule: PermissionRule) -> Result<(), String> {
        rules::check(&rule)?;
        self.settings.keep_rule(&project.to_string_lossy(), scope, rule)
    }

    /// Remove the rule saying what `rule` says from `scope`'s rules; false when there was none.
    pub fn remove_rule(
        &self,
        project: &Path,
        scope: RuleScope,
        rule: &PermissionRule,
    ) -> Result<bool, String> {
        self.settings.drop_rule(&project.to_string_lossy(), scope, rule)
    }
}

fn unknown_tool(name: &str) -> ToolDefinition {
    ToolDefinition {
        name: name.to_owned(),
        description: String::new(),
        input_schema: serde_json::json!({"type": "object"}),
        category: ToolCategory::Mcp,
        danger: DangerLevel::Dangerous,
        parallel: false,
        conversation_only: false,
    }
}

fn trust_name(trust: TrustLevel) -> &'static str {
    match trust {
        TrustLevel::Supervised => "Supervised",
        TrustLevel::Guided => "Guided",
        TrustLevel::Autonomous => "Autonomous",
    }
}

/// A step of the policy in words, for a call that asks.
fn step_words(step: AskStep, rule: Option<&str>) -> String {
    let rule = rule.unwrap_or("a rule");
    match step {
        AskStep::NoRule => "No rule allows it, and the trust level asks before it.".to_owned(),
        AskStep::AskRule => format!("A permission rule says to ask: {rule}."),
        AskStep::RuleNeedsBox => format!(
            "{rule} would allow it, but commands do not run in Warden's bubblewrap sandbox here, so it is not used."
        ),
        AskStep::Supervised => "Supervised asks before every call that changes something.".to_owned(),
        AskStep::ToolAlwaysAsks => "You chose to be asked before every call of this tool.".to_owned(),
        AskStep::OutsideBox => "It asks for more than the sandbox gives.".to_owned(),
        AskStep::Unjudgeable => "Warden cannot tell what this command does, and no sandbox contains it.".to_owned(),
        AskStep::NotContained => "Commands are not contained here, so each one asks.".to_owned(),
        AskStep::NoCheckpoint => "No checkpoint could be taken before this change.".to_owned(),
    }
}

/// The window's Settings → Permissions: the rules of the project chosen now.
impl Engine {
    /// Every rule that applies in the window's project, with its scope.
    pub fn window_rules(&self) -> Result<Vec<warden_protocol::ScopedRule>, SetupError> {
        Ok(self.list_rules(&self.window_project()?))
    }

    /// [`Engine::add_rule`] for the window's project.
    pub fn window_add_rule(&self, scope: RuleScope, rule: PermissionRule) -> Result<(), String> {
        self.add_rule(&self.window_project().map_err(|e| e.to_string())?, scope, rule)
    }

    /// [`Engine::remove_rule`] for the window's project.
    pub fn window_remove_rule(&self, scope: RuleScope, rule: &PermissionRule) -> Result<bool, String> {
        self.remove_rule(&self.window_project().map_err(|e| e.to_string())?, scope, rule)
    }

    /// [`Engine::check_call`] in the window's project.
    pub fn window_check_call(&self, tool: &str, input: &serde_json::Value) -> Result<RuleCheck, SetupError> {
        self.check_call(&self.window_project()?, tool, input)
    }
}

/// Bringing other agents' rules (`rules::import`).
impl Engine {
    /// The rules of Claude Code's and codex's files for `project` and the user's home, converted
    /// and not yet added.
    pub fn import_rules(&self, project: &Path) -> Result<warden_protocol::RuleImport, SetupError> {
        let project = self.project_outside_home(project)?;
        let home = dirs::home_dir().unwrap_or_default();
        Ok(rules::import::import(&rules::import::sources(&project, &home), &project))
    }

    /// [`Engine::import_rules`] for the window's project.
    pub fn window_import_rules(&self) -> Result<warden_protocol::RuleImport, SetupError> {
        self.import_rules(&self.window_project()?)
    }
}
