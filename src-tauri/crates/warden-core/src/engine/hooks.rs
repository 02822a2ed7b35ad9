//! The hooks of a session: the user's (Warden's settings) and the project's own
//! (`.claude/settings.json`) once the user approved exactly those commands. The approval lives in
//! the sealed settings, so a repository cannot approve itself; a changed file is offered again
//! and none of its hooks runs until it is approved.

use std::path::Path;

use warden_protocol::{ProjectHooksChoice, ProjectHooksOffer, Settings};

use super::{Engine, SetupError};
use crate::hooks::project::ProjectHooks;
use crate::hooks::{HookOrigin, HookSet};

impl Engine {
    /// The hooks a session in `project` runs: the user's for every project, the user's for this
    /// project (both from Warden's settings), then the project's own approved ones.
    pub(super) fn session_hook_set(&self, project: &Path, settings: &Settings) -> HookSet {
        let key = project.to_string_lossy().into_owned();
        let this_project = settings.tool_permissions.get(&key).map(|p| &p.hooks);
        let mut user = HookSet::default();
        for config in std::iter::once(&settings.hooks).chain(this_project) {
            let (set, problems) = HookSet::from_config(config, HookOrigin::User);
            for problem in problems {
                tracing::warn!(%problem, "a hook of the settings does not run");
            }
            user = user.with(set);
        }
        let project_set = match ProjectHooks::read(project) {
            Some(found) if found.approved(settings.project_hooks.get(&key)) => {
                HookSet::from_config(&found.hooks, HookOrigin::Project).0
            }
            Some(found) if !found.hooks.is_empty() => {
                tracing::warn!(
                    file = crate::hooks::project::FILE,
                    "the project's hooks are not approved: they do not run"
                );
                HookSet::default()
            }
            _ => HookSet::default(),
        };
        user.with(project_set)
    }

    /// The project's own hooks, when its `.claude/settings.json` names any, with whether the user
    /// approved exactly these.
    pub fn project_hooks_offer(&self, project: &Path) -> Result<Option<ProjectHooksOffer>, SetupError> {
        let project = self.project_outside_home(project)?;
        let settings = self.settings();
        let choice = settings.project_hooks.get(&project.to_string_lossy().into_owned());
        Ok(ProjectHooks::read(&project).map(|found| found.offer(&project, choice)))
    }

    /// Approve the project's hooks the user was shown (`digest`), or withdraw an approval. An
    /// approval is refused when the file now holds other hooks than those shown, or none.
    pub fn choose_project_hooks(&self, project: &Path, digest: &str, approve: bool) -> Result<(), String> {
        let project = self.project_outside_home(project).map_err(|e| e.to_string())?;
        let key = project.to_string_lossy().into_owned();
        let mut settings = self.settings();
        if approve {
            let now = ProjectHooks::read(&project).map(|found| found.offer(&project, None));
            check_hooks_approval(now.as_ref(), digest)?;
            settings.project_hooks.insert(key, ProjectHooksChoice { approved_digest: digest.to_owned() });
        } else {
            settings.project_hooks.remove(&key);
        }
        self.save_settings(settings).map_err(|e| e.to_string())
    }
}

/// Whether an approval of the hooks shown with `digest` holds for `now`, the project's hooks as
/// offered now (here, or read on a remote project's machine): refused when it names none, or other
/// hooks than those shown.
pub(crate) fn check_hooks_approval(now: Option<&ProjectHooksOffer>, digest: &str) -> Result<(), String> {
    let now = now
        .filter(|offer| !offer.commands.is_empty())
        .ok_or_else(|| format!("{} names no hooks", crate::hooks::project::FILE))?;
    if now.digest != digest {
        return Err(format!(
            "the project's hooks changed since shown (now {}): look at them again",
            &now.digest[..12.min(now.digest.len())]
        ));
    }
    Ok(())
}
