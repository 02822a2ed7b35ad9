//! What Settings → Sandbox shows: how this machine contains commands, and what the box of the
//! current project lets them write and hides from them.

use std::path::PathBuf;

use warden_protocol::SandboxStatus;

use super::Engine;
use crate::containment::{self, BoxPolicy};

impl Engine {
    /// The mechanism in use (or why there is none) and the default box of the settings' project
    /// (the user's home when no project is chosen).
    pub fn sandbox_status(&self) -> SandboxStatus {
        let mechanism = containment::mechanism();
        let home = dirs::home_dir();
        let project = self
            .settings()
            .project_dir
            .map(PathBuf::from)
            .or_else(|| home.clone())
            .unwrap_or_else(|| PathBuf::from("/"));
        let policy = BoxPolicy::with_home(&project, home.as_deref(), &self.home().dirs());
        let show = |paths: Vec<PathBuf>| paths.into_iter().map(|p| p.display().to_string()).collect();
        SandboxStatus {
            contained: mechanism.is_contained(),
            mechanism: mechanism.describe(),
            writable_caches: show(policy.writable),
            hidden: show(policy.hidden),
        }
    }
}
