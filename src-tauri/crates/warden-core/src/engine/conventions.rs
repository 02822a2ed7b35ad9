//! The skills and custom slash commands of a session (see [`crate::conventions`]): found when it
//! starts, named in its system prompt, offered through the `skill` tool; and the list the window
//! shows.

use std::path::Path;
use std::sync::Arc;

use warden_protocol::{
    ConventionOrigin, ConventionProblem, ConventionsInUse, Settings, SkillEntry, SlashCommandEntry,
};

use super::{Engine, SessionSpec};
use crate::conventions::{Conventions, Origin, Roots};

impl Engine {
    /// Where a session in `project` finds skills and commands (the project's own folders only
    /// when a project is chosen).
    fn convention_roots(&self, project: Option<&Path>) -> Roots {
        Roots {
            warden: Some(self.home.config_dir().to_path_buf()),
            agents: self.home.agents_dir().map(Path::to_path_buf),
            project: project.map(Path::to_path_buf),
        }
    }

    /// The skills (less those the user switched off) and commands of a session of `spec`, read off
    /// the async threads. A session without a project has none.
    pub(super) async fn conventions(
        &self,
        spec: &SessionSpec,
        project: &Path,
        settings: &Settings,
    ) -> Arc<Conventions> {
        if !spec.project_chosen {
            return Arc::default();
        }
        let roots = self.convention_roots(Some(project));
        let off = settings.skills_off.clone();
        match tokio::task::spawn_blocking(move || Conventions::discover(&roots, &off)).await {
            Ok(found) => {
                let skills: Vec<&str> = found.skills.list.iter().map(|s| s.name.as_str()).collect();
                let commands: Vec<&str> = found.commands.list.iter().map(|c| c.name.as_str()).collect();
                tracing::info!(?skills, ?commands, "skills and commands in use");
                Arc::new(found)
            }
            Err(error) => {
                tracing::warn!(%error, "the skills and commands were not read");
                Arc::default()
            }
        }
    }

    /// What a conversation started now in the chosen project would have, switched-off skills
    /// included (marked), for Settings → Skills and the composer.
    pub fn conventions_in_use(&self) -> ConventionsInUse {
        let settings = self.settings();
        self.conventions_in_use_of(settings.project_dir.as_deref().map(Path::new))
    }

    /// [`Engine::conventions_in_use`] of `project` (a remote face's project, here).
    pub fn conventions_in_use_of(&self, project: Option<&Path>) -> ConventionsInUse {
        let settings = self.settings();
        let project = project.and_then(|dir| self.project_outside_home(dir).ok());
        let found = Conventions::discover(&self.convention_roots(project.as_deref()), &[]);
        let shown = |path: &Path| path.to_string_lossy().into_owned();
        ConventionsInUse {
            skills: found
                .skills
                .list
                .iter()
                .map(|skill| SkillEntry {
                    name: skill.name.clone(),
                    description: skill.description.clone(),
                    origin: origin(skill.origin),
                    path: shown(&skill.dir),
                    on: !settings.skills_off.contains(&skill.name),
                })
                .collect(),
            commands: found
                .commands
                .list
                .iter()
                .map(|command| SlashCommandEntry {
                    name: command.name.clone(),
                    description: command.description.clone(),
                    argument_hint: command.argument_hint.clone(),
                    origin: origin(command.origin),
                    path: shown(&command.path),
                })
                .collect(),
            problems: found
                .skills
                .problems
                .iter()
                .chain(&found.commands.problems)
                .map(|problem| ConventionProblem {
                    path: shown(&problem.path),
                    message: problem.message.clone(),
                })
                .collect(),
        }
    }

    /// Switch the skill `name` on or off for every conversation started from now on.
    pub fn switch_skill(&self, name: &str, on: bool) -> Result<(), String> {
        if name.is_empty() || name.len() > 64 || name.chars().any(char::is_control) {
            return Err(format!("{name:?} is not a skill's name"));
        }
        let mut settings = self.settings();
        settings.skills_off.retain(|off| off != name);
        if !on {
            settings.skills_off.push(name.to_owned());
            settings.skills_off.sort();
        }
        self.save_settings(settings).map_err(|e| e.to_string())
    }
}

fn origin(origin: Origin) -> ConventionOrigin {
    match origin {
        Origin::Warden => ConventionOrigin::Warden,
        Origin::Agents => ConventionOrigin::Agents,
        Origin::Project => ConventionOrigin::Project,
    }
}
