//! Once, after the box began to show commands only the toolchains of the user's home: each
//! project Warden had worked in before says what its commands no longer see, until the user has
//! read it. At the first start of this Warden, every project storage folder there is gets a mark
//! ([`mark_projects_from_before`]); a project made later never has one. The notice lists the
//! entries of the home the box leaves out only because it shows the toolchains alone — what a
//! failed command's block could offer to let it read — never the ones it always hid (credentials,
//! Warden's own folders), which commands did not see before either.

use std::path::{Path, PathBuf};

use warden_protocol::BoxHomeNotice;

use super::{Engine, SetupError};
use crate::config::WardenHome;
use crate::containment::BoxPolicy;

/// In Warden's data folder: the projects from before have been marked.
const MARKED: &str = "box-home-notice-marked";
/// In a project's storage folder: its notice is still to be shown.
const DUE: &str = "box-home-notice-due";
/// How many entries the notice names; the rest are counted.
const NAMED: usize = 30;

/// Mark the storage folder of every project Warden knows of now, once per Warden home.
pub fn mark_projects_from_before(home: &WardenHome) {
    let marked = home.data_dir().join(MARKED);
    if marked.exists() {
        return;
    }
    let projects = home.data_dir().join("projects");
    for entry in std::fs::read_dir(&projects).into_iter().flatten().flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            if let Err(error) = std::fs::write(entry.path().join(DUE), b"") {
                tracing::warn!(%error, project = %entry.path().display(), "the box's notice will not be shown");
            }
        }
    }
    let written = std::fs::create_dir_all(home.data_dir()).and_then(|()| std::fs::write(&marked, b""));
    if let Err(error) = written {
        tracing::warn!(%error, "the projects from before the box changed could not be marked as such");
    }
}

/// What of the home `policy`'s box no longer shows: its entries that the box leaves out only
/// because it shows the toolchains alone, sorted.
fn no_longer_seen(policy: &BoxPolicy) -> Vec<PathBuf> {
    let Some(home) = &policy.home else { return Vec::new() };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(home)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| policy.may_offer_read(path).is_ok())
        .collect();
    paths.sort();
    paths
}

impl Engine {
    /// For the project chosen now, once: what of the home its commands no longer see since the
    /// box shows only toolchains (`None` for a project Warden had not worked in before this
    /// version, one whose notice was read, or when nothing is left out).
    pub fn box_home_notice(&self) -> Result<Option<BoxHomeNotice>, SetupError> {
        self.box_home_notice_of(&self.current_project()?)
    }

    /// [`Engine::box_home_notice`] of `project` (a remote face's project, here).
    pub fn box_home_notice_of(&self, project: &Path) -> Result<Option<BoxHomeNotice>, SetupError> {
        let project = self.project_outside_home(project)?;
        let due = self.home.project_dir(&project).join(DUE);
        if !due.exists() {
            return Ok(None);
        }
        let paths = no_longer_seen(&self.commands_box(&project, &self.settings()));
        if paths.is_empty() {
            forget(&due);
            return Ok(None);
        }
        let more = u32::try_from(paths.len().saturating_sub(NAMED)).unwrap_or(u32::MAX);
        let paths = paths.iter().take(NAMED).map(|p| p.display().to_string()).collect();
        Ok(Some(BoxHomeNotice { paths, more }))
    }

    /// The user has read the chosen project's notice: it is not shown again.
    pub fn dismiss_box_home_notice(&self) -> Result<(), SetupError> {
        self.dismiss_box_home_notice_of(&self.current_project()?)
    }

    /// [`Engine::dismiss_box_home_notice`] of `project`.
    pub fn dismiss_box_home_notice_of(&self, project: &Path) -> Result<(), SetupError> {
        let project = self.project_outside_home(project)?;
        forget(&self.home.project_dir(&project).join(DUE));
        Ok(())
    }
}

fn forget(due: &Path) {
    if let Err(error) = std::fs::remove_file(due) {
        if error.kind() != std::io::ErrorKind::NotFound {
            tracing::warn!(%error, "the box's notice will be shown again");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::tests::dirs;
    use crate::secrets::MemoryStore;

    fn engine_in(home: &WardenHome, keychain: &Arc<MemoryStore>, project: &Path) -> Engine {
        let engine = Engine::new(home.clone(), keychain.clone()).unwrap();
        let mut settings = engine.settings();
        settings.project_dir = Some(project.display().to_string());
        engine.save_settings(settings).unwrap();
        engine
    }

    #[test]
    fn a_project_from_before_says_once_what_of_the_home_its_commands_no_longer_see() {
        let d = dirs();
        let keychain = Arc::new(MemoryStore::new());
        // Warden worked in the project before this version: its storage folder is there.
        std::fs::create_dir_all(d.home.project_dir(&d.project)).unwrap();
        let home = dirs::home_dir().unwrap();
        let left_out = tempfile::Builder::new().prefix("warden-notice-test").tempdir_in(&home).unwrap();
        let engine = engine_in(&d.home, &keychain, &d.project);

        let notice = engine.box_home_notice().unwrap().expect("a notice for a project from before");
        let named = left_out.path().display().to_string();
        assert!(notice.paths.contains(&named), "{named} not in {:?}", notice.paths);
        let policy = engine.commands_box(&d.project, &engine.settings());
        for path in &notice.paths {
            assert_eq!(
                policy.may_offer_read(Path::new(path)),
                Ok(()),
                "{path} is not one the box only left out"
            );
        }
        assert!(notice.paths.len() <= NAMED);
        assert_eq!(engine.box_home_notice().unwrap(), Some(notice), "shown until it is read");

        engine.dismiss_box_home_notice().unwrap();
        assert_eq!(engine.box_home_notice().unwrap(), None, "read: not shown again");
        drop(engine);
        let again = engine_in(&d.home, &keychain, &d.project);
        assert_eq!(again.box_home_notice().unwrap(), None, "Warden started again marks nothing again");

        // A project Warden first works in after the change has nothing to be told.
        let later = d.project.with_file_name("later");
        std::fs::create_dir_all(&later).unwrap();
        std::fs::create_dir_all(d.home.project_dir(&later)).unwrap();
        let engine = engine_in(&d.home, &keychain, &later);
        assert_eq!(engine.box_home_notice().unwrap(), None);
    }
}
