//! A project's own hooks: the `hooks` of its `.claude/settings.json`, read as the file tools read
//! the project (no link followed, never a secret-bearing path). They come with the repository, so
//! they run only once the user approved exactly these commands (by digest); a change to them is
//! asked about again, and until then none of them runs.

use std::path::Path;

use sha2::{Digest, Sha256};
use warden_protocol::{HooksConfig, ProjectHooksChoice, ProjectHooksOffer};

use crate::conventions::files::Folder;

/// The file, relative to the project root.
pub const FILE: &str = ".claude/settings.json";
/// A larger file is not read.
const FILE_CAP: usize = 256 * 1024;

/// The project's hooks as found: `None` when the file is missing or names no hooks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectHooks {
    pub hooks: HooksConfig,
    pub digest: String,
    pub problems: Vec<String>,
}

impl ProjectHooks {
    /// Read `project`'s file. A file that cannot be read or parsed gives its problem and no hooks.
    pub fn read(project: &Path) -> Option<Self> {
        let root = cap_std::fs::Dir::open_ambient_dir(project, cap_std::ambient_authority()).ok()?;
        let folder = Folder::project(&root, project, Path::new(".claude"))?;
        let (text, more) = match folder.read("settings.json", FILE_CAP) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
            Err(error) => return Some(Self::unreadable(format!("{FILE} cannot be read: {error}"))),
        };
        if more {
            return Some(Self::unreadable(format!("{FILE} is larger than {} KiB", FILE_CAP / 1024)));
        }
        let value: serde_json::Value = match serde_json::from_str(&text) {
            Ok(value) => value,
            Err(error) => return Some(Self::unreadable(format!("{FILE} is not valid JSON: {error}"))),
        };
        let hooks = value.get("hooks")?;
        match serde_json::from_value::<HooksConfig>(hooks.clone()) {
            Ok(hooks) if hooks.is_empty() => None,
            Ok(hooks) => Some(Self { digest: digest(&hooks), hooks, problems: Vec::new() }),
            Err(error) => Some(Self::unreadable(format!("the `hooks` of {FILE} cannot be read: {error}"))),
        }
    }

    fn unreadable(problem: String) -> Self {
        Self { hooks: HooksConfig::new(), digest: String::new(), problems: vec![problem] }
    }

    /// Whether the user approved exactly these hooks.
    pub fn approved(&self, choice: Option<&ProjectHooksChoice>) -> bool {
        !self.hooks.is_empty() && choice.is_some_and(|c| c.approved_digest == self.digest)
    }

    /// What the user is asked about.
    pub fn offer(&self, project: &Path, choice: Option<&ProjectHooksChoice>) -> ProjectHooksOffer {
        let state = match choice {
            _ if self.approved(choice) => "approved",
            Some(_) => "changed",
            None => "new",
        };
        let mut problems = self.problems.clone();
        let (_, unreadable) = super::HookSet::from_config(&self.hooks, super::HookOrigin::Project);
        problems.extend(unreadable);
        ProjectHooksOffer {
            file: project.join(FILE).to_string_lossy().into_owned(),
            hooks: self.hooks.clone(),
            commands: commands(&self.hooks),
            digest: self.digest.clone(),
            state: state.to_owned(),
            problems,
        }
    }
}

/// Every command, one line each: `PreToolUse [Bash]: ./check.sh`.
pub fn commands(hooks: &HooksConfig) -> Vec<String> {
    let mut out = Vec::new();
    for (event, groups) in hooks {
        for group in groups {
            let matcher =
                if group.matcher.trim().is_empty() { String::new() } else { format!(" [{}]", group.matcher) };
            for hook in &group.hooks {
                out.push(format!("{event}{matcher}: {}", hook.command));
            }
        }
    }
    out
}

/// The SHA-256 of the hooks as JSON (their maps are ordered, so the same hooks give the same
/// digest whatever the file's layout).
pub fn digest(hooks: &HooksConfig) -> String {
    let json = serde_json::to_vec(hooks).unwrap_or_default();
    hex::encode(Sha256::digest(json))
}
