//! A project's own `.mcp.json` (the file Claude Code and Cursor read from a repository): offered
//! to the user, never used before they approve it. The approval is for the file's content: a
//! changed file (a pull that adds a server) is offered again. Approvals live in the sealed
//! settings, so a repository cannot approve itself. What an approval grants is only what a
//! project may say (`mcp::project`): the offer holds exactly the fields that will be used, and
//! those left out with why, so the user approves what they were shown.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};
use warden_protocol::{ProjectMcpChoice, ProjectMcpOffer};

use super::{Engine, SetupError};
use crate::config::ConfigError;
use crate::mcp::{Entry, Origin};

/// The file's name at the project root.
pub const PROJECT_MCP_FILE: &str = ".mcp.json";
/// Larger than any real server list; a larger file is not read.
const MAX_FILE: u64 = 256 * 1024;

impl Engine {
    /// The project's `.mcp.json`, when it has one, with what the user chose for this content.
    pub fn project_mcp_offer(&self, project: &Path) -> Result<Option<ProjectMcpOffer>, SetupError> {
        let project = self.project_outside_home(project)?;
        let path = project.join(PROJECT_MCP_FILE);
        let Ok(meta) = std::fs::metadata(&path) else { return Ok(None) };
        let settings = self.settings();
        let mut offer = ProjectMcpOffer {
            path: path.display().to_string(),
            servers: BTreeMap::new(),
            ignored: BTreeMap::new(),
            network: self.commands_box(&project, &settings).network,
            digest: String::new(),
            approved: None,
            error: None,
        };
        if !meta.is_file() || meta.len() > MAX_FILE {
            offer.error = Some(format!("{PROJECT_MCP_FILE} is not a file of at most 256 KB"));
            return Ok(Some(offer));
        }
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) => {
                offer.error = Some(format!("cannot read {PROJECT_MCP_FILE}: {error}"));
                return Ok(Some(offer));
            }
        };
        offer.digest = hex::encode(Sha256::digest(&bytes));
        match crate::mcp::project::trim_document(&String::from_utf8_lossy(&bytes)) {
            Ok(servers) => (offer.servers, offer.ignored) = servers,
            Err(error) => offer.error = Some(error.to_string()),
        }
        offer.approved = settings
            .project_mcp
            .get(&project.to_string_lossy().into_owned())
            .filter(|choice| choice.digest == offer.digest)
            .map(|choice| choice.approved);
        Ok(Some(offer))
    }

    /// The user's answer for the project's `.mcp.json` with this `digest` (what they were shown).
    /// An approval is refused when the file's content is no longer what has `digest`: the user
    /// would approve what they did not see.
    pub fn choose_project_mcp(&self, project: &Path, digest: &str, approved: bool) -> Result<(), SetupError> {
        if approved {
            check_mcp_approval(self.project_mcp_offer(project)?.as_ref(), digest)?;
        }
        let project = self.project_outside_home(project)?;
        let mut settings = self.settings();
        settings.project_mcp.insert(
            project.to_string_lossy().into_owned(),
            ProjectMcpChoice { digest: digest.to_owned(), approved },
        );
        self.save_settings(settings).map_err(|e: ConfigError| SetupError::Config(e))
    }

    /// The project's servers the user approved, as the file has them now, each with only what a
    /// project may say (none when it changed since, could not be read, or was declined).
    pub(super) fn approved_project_servers(&self, project: &Path) -> BTreeMap<String, Entry> {
        match self.project_mcp_offer(project) {
            Ok(Some(offer)) if offer.approved == Some(true) && offer.error.is_none() => offer
                .servers
                .into_iter()
                .map(|(name, config)| (name, Entry { config, origin: Origin::Project }))
                .collect(),
            _ => BTreeMap::new(),
        }
    }
}

/// Whether an approval of the `.mcp.json` shown with `digest` holds for `now`, the file as offered
/// now (here, or read on a remote project's machine): refused when there is none, when it changed
/// since, or when it cannot be used.
pub(crate) fn check_mcp_approval(now: Option<&ProjectMcpOffer>, digest: &str) -> Result<(), SetupError> {
    let now = now.ok_or(SetupError::NoProjectMcp)?;
    if now.digest != digest {
        return Err(SetupError::ProjectMcpChanged { given: digest.to_owned(), now: now.digest.clone() });
    }
    match &now.error {
        Some(error) => Err(SetupError::ProjectMcpUnusable(error.clone())),
        None => Ok(()),
    }
}
