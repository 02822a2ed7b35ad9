//! One project's policy, read from the settings once: the tools' scope, the box its commands (and
//! its stdio MCP servers) run in, and whether its changes are checkpointed. A session, `warden
//! tool` and Settings → Sandbox all take them from here, from one reading of the settings, so
//! none of them can see a project differently from the others.

use std::path::Path;

use warden_protocol::{NetworkMode, Settings, ToolPermissions};

use super::{Engine, SessionSpec};
use crate::config::managed::Managed;
use crate::containment::{net, BoxPolicy};
use crate::scope::Scope;
use crate::tool::TypedTool;
use crate::tools::BashTool;

/// What the settings decide for one project.
#[derive(Debug, Clone)]
pub(super) struct ProjectPolicy {
    /// The tools it may use (before its MCP servers' tools are added).
    pub scope: Scope,
    /// The box its commands run in (when the machine can build one).
    pub commands_box: BoxPolicy,
    /// Whether the project is checkpointed before each change (on unless the user turned it off).
    pub checkpoints: bool,
}

impl Engine {
    /// `project`'s policy for a session as `spec` says, from `settings` (one reading of them).
    pub(super) fn project_policy(
        &self,
        spec: &SessionSpec,
        project: &Path,
        settings: &Settings,
    ) -> ProjectPolicy {
        let perms = permissions(project, settings);
        let mut commands_box = self.commands_box(project, settings);
        if let Some(mode) = spec.network {
            set_network(&mut commands_box, mode);
        }
        ProjectPolicy {
            scope: scope_for(spec, perms),
            commands_box,
            checkpoints: perms.is_none_or(|perms| perms.checkpoints),
        }
    }

    /// The box the project's commands (and its stdio MCP servers) run in: Warden's own files
    /// hidden (its settings, the keys' seal, conversations), the package caches' writes in the
    /// project's private layer (in its storage), with the project's own choices.
    pub(super) fn commands_box(&self, project: &Path, settings: &Settings) -> BoxPolicy {
        let mut commands_box = BoxPolicy::for_project(project, &self.home.dirs())
            .with_cache_layer(self.cache_layer_dir(project))
            .with_git_aside(self.home.project_dir(project).join(crate::containment::GIT_ASIDE_DIR));
        let perms = permissions(project, settings);
        let project_rules = perms.map(|p| p.permission_rules.as_slice()).unwrap_or_default();
        // The organisation's rules with the user's and the project's, read whenever a project's
        // box is set up (a session's start, `warden tool`, Settings): a changed policy holds from
        // the next conversation on. Its deny rules win over their allows.
        let managed = Managed::load(self.home.managed_file());
        let managed_rules = managed.rules();
        let rules = managed_rules.iter().chain(&settings.permission_rules).chain(project_rules);
        commands_box.network_rules =
            net::Rules { resolve: net::resolve_from_env(), ..net::Rules::from_permission_rules(rules) };
        if let Some(domains) = managed.allowed_domains() {
            commands_box.network_rules.pin(&domains);
        }
        // The package registries without a question when the project allows them.
        if perms.is_some_and(|p| p.allow_registries) {
            commands_box.network_rules.allow_public = net::registries::rules();
        }
        set_network(&mut commands_box, perms.map(|p| p.network).unwrap_or_default());
        // The user's own skills, read-only: a skill's scripts and references are there for the
        // commands it asks for. The rest of Warden's folders stay hidden.
        let skills = [Some(self.home.config_dir()), self.home.agents_dir()].into_iter().flatten();
        commands_box.readable.extend(skills.map(|dir| dir.join("skills")).filter(|dir| dir.is_dir()));
        match perms {
            Some(perms) => {
                let network = commands_box.network;
                let home = dirs::home_dir();
                commands_box.with_project_choices(
                    network,
                    &perms.extra_writable,
                    &perms.extra_readable,
                    home.as_deref(),
                )
            }
            None => commands_box,
        }
    }
}

impl Engine {
    /// Where `project`'s boxes write what they write to the package caches.
    pub(super) fn cache_layer_dir(&self, project: &Path) -> std::path::PathBuf {
        self.home.project_dir(project).join(crate::containment::cache_layer::LAYER_DIR)
    }
}

/// The box's network as `mode` says, as this machine can hold it: `rules` is Warden's proxy with
/// every host no rule names asked about, `off` none.
fn set_network(commands_box: &mut BoxPolicy, mode: NetworkMode) {
    let on = holdable(mode).is_on();
    commands_box.network = on;
    commands_box.network_rules.ask = on;
}

/// `mode` as this machine's box can hold it: `rules` needs a box whose network goes only through
/// Warden's proxy; where it would be this machine's whole network (macOS, an old Landlock), the
/// commands get none, as with `off`, and a command may still ask for it.
fn holdable(mode: NetworkMode) -> NetworkMode {
    holdable_by(mode, crate::containment::mechanism())
}

fn holdable_by(mode: NetworkMode, mechanism: &crate::containment::Mechanism) -> NetworkMode {
    if mechanism.is_contained() && !mechanism.filters_network() {
        NetworkMode::Off
    } else {
        mode
    }
}

/// The project's own permissions, when the user set any.
fn permissions<'a>(project: &Path, settings: &'a Settings) -> Option<&'a ToolPermissions> {
    settings.tool_permissions.get(&project.to_string_lossy().into_owned())
}

/// The spec's scope, else the project's permissions, else the spec's default.
fn scope_for(spec: &SessionSpec, perms: Option<&ToolPermissions>) -> Scope {
    if let Some(scope) = &spec.scope {
        return scope.clone();
    }
    match perms {
        Some(perms) => {
            let mut scope = match &perms.allowed_tools {
                Some(list) => Scope::only(list.iter().cloned()),
                None => spec.default_scope.clone(),
            };
            scope.write_globs = perms.write_globs.clone();
            // The project's command timeout is the command tool's.
            scope.timeouts_secs.insert(BashTool::NAME.to_owned(), u64::from(perms.bash_timeout_secs));
            scope
        }
        None => spec.default_scope.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::containment::Mechanism;

    /// `rules` holds only where the box's network goes through Warden's proxy; macOS's box and
    /// Landlock before ABI 4 would give the whole network, so they give none.
    #[test]
    fn rules_need_a_box_that_filters_the_network() {
        let bwrap = Mechanism::Bubblewrap { program: "/usr/bin/bwrap".into() };
        let seatbelt = Mechanism::Seatbelt { program: "/usr/bin/sandbox-exec".into() };
        let none = Mechanism::Unavailable { why: "test".into() };
        for (mechanism, rules) in [
            (bwrap, NetworkMode::Rules),
            (Mechanism::Landlock { abi: 4 }, NetworkMode::Rules),
            (Mechanism::Landlock { abi: 3 }, NetworkMode::Off),
            (seatbelt, NetworkMode::Off),
            (none, NetworkMode::Rules),
        ] {
            assert_eq!(holdable_by(NetworkMode::Rules, &mechanism), rules, "{mechanism:?}");
            assert_eq!(holdable_by(NetworkMode::Off, &mechanism), NetworkMode::Off, "{mechanism:?}");
        }
    }
}
