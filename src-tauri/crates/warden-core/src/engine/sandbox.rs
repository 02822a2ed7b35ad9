//! What Settings → Sandbox shows: how this machine contains commands, and what the box of the
//! current project lets them write and hides from them; and its cache layer, which it clears.

use warden_protocol::SandboxStatus;

use super::sessions::chosen_project;
use super::Engine;
use crate::config::managed::Managed;
use crate::containment;

impl Engine {
    /// The mechanism in use (or why there is none) and the box of the settings' project (the
    /// user's home when no project is chosen): the one its sessions and `warden tool` get
    /// ([`Engine::commands_box`], with the project's own choices).
    pub fn sandbox_status(&self) -> SandboxStatus {
        self.sandbox_status_of(&chosen_project(&self.settings()))
    }

    /// The same for the project at `named` (a remote project's, asked over the link).
    pub fn sandbox_status_of(&self, named: &std::path::Path) -> SandboxStatus {
        let mechanism = containment::mechanism();
        let settings = self.settings();
        let project = self.project_as_boxed(named);
        let policy = self.commands_box(&project, &settings);
        let layer_unavailable = containment::cache_layer_unavailable();
        let show =
            |paths: Vec<std::path::PathBuf>| paths.into_iter().map(|p| p.display().to_string()).collect();
        SandboxStatus {
            contained: mechanism.is_contained(),
            mechanism: mechanism.describe(),
            layered: layer_unavailable.is_none()
                && matches!(mechanism, containment::Mechanism::Bubblewrap { .. }),
            layer_unavailable,
            cache_layer_bytes: policy.cache_layer.as_deref().map(containment::cache_layer::size).unwrap_or(0),
            writable: show(policy.writable),
            caches: show(policy.caches),
            hidden: show(policy.hidden),
            readable: show(policy.readable),
            registry_hosts: containment::net::registries::REGISTRIES
                .iter()
                .map(|(host, _)| (*host).to_owned())
                .collect(),
            credential_locations: dirs::home_dir()
                .map(|home| show(containment::credential_locations(&home)))
                .unwrap_or_default(),
            managed: Managed::load(self.home.managed_file()).status(),
        }
    }

    /// The user let `project`'s commands read `path`, which a failed command's block offered
    /// (`hiddenHomePaths`): checked again as the box sees it now — the path came from a command's
    /// output, which the model controls, so one the box hides on purpose is refused here whatever
    /// the window sent — then saved with the project's other readable paths. The project's next
    /// box shows it.
    pub fn allow_read(&self, project: &std::path::Path, path: &str) -> Result<(), String> {
        self.may_offer_read(project, path)?;
        self.settings.allow_read(&project.to_string_lossy(), path)
    }

    /// Whether the commands of `project` may be let read `path`: refused, with the reason, for a
    /// path the box hides on purpose (or not of the home).
    pub fn may_offer_read(&self, project: &std::path::Path, path: &str) -> Result<(), String> {
        let settings = self.settings();
        self.commands_box(project, &settings)
            .may_offer_read(std::path::Path::new(path))
            .map_err(|why| format!("Commands cannot be let read {path}: {why}."))
    }

    /// The user let the remote project `target` (named `host:/path`) have its commands read
    /// `path`, which its engine there found it may ([`Engine::may_offer_read`] there): kept under
    /// `target`, sent with the settings of its sessions.
    pub fn allow_read_there(&self, target: &str, path: &str) -> Result<(), String> {
        self.settings.allow_read(target, path)
    }

    /// Put back what a sweep moved out of `project`'s git metadata (a hook, a config, a gitfile a
    /// boxed command wrote), when the user asks on the command's block: `from` where it was,
    /// `aside` its name in the project's storage. It will run code outside the box again — the
    /// block says so before asking. Only a file Warden keeps aside, only to a place in the project.
    pub fn restore_git_aside(
        &self,
        project: &std::path::Path,
        from: &str,
        aside: &str,
    ) -> Result<(), String> {
        let relative = std::path::Path::new(from)
            .strip_prefix(project)
            .map_err(|_| format!("{from} is not in the project {}", project.display()))?;
        containment::restore_git_aside(project, relative, &self.home.project_dir(project), aside)
    }

    /// Remove the cache layer of the settings' project (what its boxes wrote to the package
    /// caches): the next box reads the user's caches alone. A box running now keeps what it has
    /// open; what it writes after lands in a layer made anew.
    pub fn clear_cache_layer(&self) -> std::io::Result<()> {
        self.clear_cache_layer_of(&chosen_project(&self.settings()))
    }

    /// The same for the project at `named` (a remote project's, asked over the link).
    pub fn clear_cache_layer_of(&self, named: &std::path::Path) -> std::io::Result<()> {
        containment::cache_layer::clear(&self.cache_layer_dir(&self.project_as_boxed(named)))
    }

    /// The project at `named` as a session sees the folder (canonical); as named when no session
    /// could start in it (the home, which holds Warden's own folders, when none is chosen).
    fn project_as_boxed(&self, named: &std::path::Path) -> std::path::PathBuf {
        self.project_outside_home(named).unwrap_or_else(|_| named.to_path_buf())
    }
}
