//! The instructions a session's system prompt adds to Warden's own (the user's global instructions
//! and the project's `AGENTS.md` files, see [`crate::instructions`]), and which of them the window
//! shows as in use.

use std::path::{Path, PathBuf};

use warden_protocol::{InstructionFile, InstructionsInUse, Settings};

use super::{Engine, SessionSpec};
use crate::instructions::{self, Caps, ProjectInstructions};

impl Engine {
    /// `base` with the global instructions and, for a session in a chosen project, the project's
    /// instruction files (read from the root down to the spec's work folder).
    pub(super) async fn with_instructions(
        &self,
        base: String,
        spec: &SessionSpec,
        project: &Path,
        settings: &Settings,
    ) -> String {
        let global = instructions::global_text(&settings.global_instructions);
        let files = if spec.project_chosen {
            let (root, work) = (project.to_path_buf(), spec.work_dir.clone());
            let read = tokio::task::spawn_blocking(move || {
                ProjectInstructions::load(&root, work.as_deref(), Caps::default())
            });
            match read.await {
                Ok(files) => Some(files),
                Err(error) => {
                    tracing::warn!(%error, "the project's instruction files were not read");
                    None
                }
            }
        } else {
            None
        };
        if let Some(files) = &files {
            let names: Vec<&str> = files.files.iter().map(|f| f.relative.as_str()).collect();
            tracing::info!(files = ?names, global = global.is_some(), "instructions in use");
        }
        instructions::system_prompt(&base, global.as_deref(), files.as_ref())
    }

    /// The instructions a conversation started now would get (in the chosen project, worked in
    /// at its root), for the window to show.
    pub fn instructions_in_use(&self) -> InstructionsInUse {
        let settings = self.settings();
        self.in_use(&settings, self.chosen_project_files(&settings))
    }

    /// [`Engine::instructions_in_use`] for the project `project` (a remote face's, read here).
    pub fn instructions_in_use_of(&self, project: &Path) -> InstructionsInUse {
        let files = match self.project_outside_home(project) {
            Ok(project) => ProjectInstructions::load(&project, None, Caps::default()),
            Err(_) => ProjectInstructions::default(),
        };
        self.in_use(&self.settings(), files)
    }

    fn in_use(&self, settings: &Settings, files: ProjectInstructions) -> InstructionsInUse {
        let files = files
            .files
            .into_iter()
            .map(|file| InstructionFile {
                path: file.path.to_string_lossy().into_owned(),
                relative_path: file.relative,
                bytes: u32::try_from(file.bytes).unwrap_or(u32::MAX),
                truncated: file.truncated,
            })
            .collect();
        InstructionsInUse {
            files,
            global: instructions::global_text(&settings.global_instructions).is_some(),
        }
    }

    /// The file to open for the user when they ask to see the instruction file at `path`: only one
    /// of the files in use (so only a file inside the project), where it really is (a link's
    /// target). `None` for any other path.
    pub fn instruction_file_to_open(&self, path: &str) -> Option<PathBuf> {
        let settings = self.settings();
        self.chosen_project_files(&settings)
            .files
            .into_iter()
            .find(|file| file.path.as_os_str() == path)
            .map(|file| file.read_from)
    }

    fn chosen_project_files(&self, settings: &Settings) -> ProjectInstructions {
        let Some(dir) = &settings.project_dir else { return ProjectInstructions::default() };
        match self.project_outside_home(Path::new(dir)) {
            Ok(project) => ProjectInstructions::load(&project, None, Caps::default()),
            Err(_) => ProjectInstructions::default(),
        }
    }
}
