//! The MCP servers of the settings: added, removed, and where each stands — what `warden mcp`
//! and Settings → MCP servers show and change.

use std::collections::BTreeMap;
use std::path::Path;

use warden_protocol::{McpResourceText, McpServerConfig, McpServerState, McpServerStatus};

use super::{Engine, SetupError};
use crate::mcp::{ConfigError, ServerSpec};

#[derive(Debug, thiserror::Error)]
pub enum McpSetupError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("there is no MCP server named `{0}`")]
    Unknown(String),
    #[error("could not save the settings: {0}")]
    Save(#[from] crate::config::ConfigError),
    #[error("{0}")]
    SignIn(String),
    #[error("could not read the resource: {0}")]
    Read(String),
}

impl Engine {
    /// Add (or replace) the server `name`, checked first, and save the settings.
    pub fn add_mcp_server(&self, name: &str, config: McpServerConfig) -> Result<(), McpSetupError> {
        ServerSpec::from_config(name, &config)?;
        let mut settings = self.settings();
        settings.mcp_servers.insert(name.to_owned(), config);
        self.save_settings(settings)?;
        Ok(())
    }

    /// Remove the server `name` and save the settings (a running server is closed when the next
    /// session or status check no longer finds it).
    pub fn remove_mcp_server(&self, name: &str) -> Result<(), McpSetupError> {
        let mut settings = self.settings();
        if settings.mcp_servers.remove(name).is_none() {
            return Err(McpSetupError::Unknown(name.to_owned()));
        }
        self.save_settings(settings)?;
        Ok(())
    }

    /// Every server of the settings (and `extra`, for one run), started where needed, with its
    /// state and tools; for a project in `project`. Disabled and misconfigured servers are listed
    /// too, as such.
    pub async fn mcp_statuses(
        &self,
        project: &Path,
        extra: &BTreeMap<String, McpServerConfig>,
    ) -> Result<Vec<McpServerStatus>, SetupError> {
        let project = self.project_outside_home(project)?;
        let settings = self.settings();
        let servers = self.mcp_servers(&project, &settings, extra);
        let (specs, bad) = crate::mcp::entry_specs(&servers);
        let commands_box = self.commands_box(&project, &settings);
        let mut statuses = self.mcp.statuses(&specs, &project, Some(&commands_box)).await;
        for (name, error) in bad {
            statuses.push(not_running(
                &name,
                &servers[&name].config,
                McpServerState::Failed { error: error.to_string() },
            ));
        }
        for (name, entry) in servers.iter().filter(|(_, e)| e.config.disabled) {
            statuses.push(not_running(name, &entry.config, McpServerState::Disabled));
        }
        statuses.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(statuses)
    }

    /// [`Engine::mcp_statuses`] for the window: for the chosen project folder, or the empty
    /// folder no-project sessions use.
    pub async fn window_mcp_statuses(&self) -> Result<Vec<McpServerStatus>, SetupError> {
        self.mcp_statuses(&self.window_project()?, &BTreeMap::new()).await
    }

    /// The folder the window's sessions work in: the chosen project, or the empty stand-in.
    pub(super) fn window_project(&self) -> Result<std::path::PathBuf, SetupError> {
        match self.settings().project_dir {
            Some(dir) => self.project_outside_home(Path::new(&dir)),
            None => self.no_project_root(),
        }
    }

    /// Sign the user in to the HTTP server `name` (OAuth: the sign-in page through `authorizer`);
    /// the tokens go to the keychain and the server is connected again with them.
    pub async fn mcp_sign_in(
        &self,
        name: &str,
        authorizer: &dyn crate::mcp::auth::oauth::Authorizer,
    ) -> Result<(), McpSetupError> {
        let slot = self.mcp_slot(name).await?;
        slot.sign_in(authorizer).await.map_err(|e| McpSetupError::SignIn(e.to_string()))
    }

    /// Read the resource `uri` of the server `name` (started when it is not running), to go with
    /// the user's next message.
    pub async fn mcp_read_resource(&self, name: &str, uri: &str) -> Result<McpResourceText, McpSetupError> {
        let slot = self.mcp_slot(name).await?;
        let connection = slot.connection().await.map_err(McpSetupError::Read)?;
        let contents = connection.read_resource(uri).await.map_err(|e| McpSetupError::Read(e.to_string()))?;
        Ok(crate::mcp::resource::as_text(name, uri, &contents))
    }

    /// Forget the sign-in to the HTTP server `name` (its tokens leave the keychain).
    pub async fn mcp_sign_out(&self, name: &str) -> Result<(), McpSetupError> {
        let project = self.window_project().map_err(|e| McpSetupError::SignIn(e.to_string()))?;
        let entry = self
            .mcp_servers(&project, &self.settings(), &BTreeMap::new())
            .remove(name)
            .ok_or_else(|| McpSetupError::Unknown(name.to_owned()))?;
        let Some(url) = entry.config.url else {
            return Err(McpSetupError::SignIn("only servers reached by URL sign in".to_owned()));
        };
        crate::mcp::auth::oauth::KeychainCredentials::of(self.secrets.clone(), name, entry.origin, &url)
            .forget()
            .await
            .map_err(|e| McpSetupError::SignIn(e.to_string()))?;
        self.mcp.forget(name).await;
        Ok(())
    }

    /// The slot of the server `name` among the window project's servers (the same list its
    /// sessions and statuses use, so looking one up never closes another).
    async fn mcp_slot(&self, name: &str) -> Result<std::sync::Arc<crate::mcp::ServerSlot>, McpSetupError> {
        let project = self.window_project().map_err(|e| McpSetupError::SignIn(e.to_string()))?;
        let settings = self.settings();
        let (specs, _) = crate::mcp::entry_specs(&self.mcp_servers(&project, &settings, &BTreeMap::new()));
        let commands_box = self.commands_box(&project, &settings);
        self.mcp
            .slot(&specs, &project, Some(&commands_box), name)
            .await
            .ok_or_else(|| McpSetupError::Unknown(name.to_owned()))
    }

    /// Keep `value` in the keychain as the secret `name`, for entries that say `keychain:name`.
    pub async fn keep_mcp_secret(&self, name: &str, value: &str) -> Result<(), McpSetupError> {
        crate::mcp::secrets::keep(self.secrets.as_ref(), name, value)
            .await
            .map_err(|e| McpSetupError::SignIn(e.to_string()))
    }

    /// Who fills in the forms MCP servers ask for (the window); servers started from now on offer
    /// forms. Without one, forms are declined and not offered.
    pub fn set_mcp_elicitor(&self, elicitor: std::sync::Arc<dyn crate::mcp::Elicitor>) {
        self.mcp.set_elicitor(elicitor);
    }

    /// The MCP servers running for `project` (a restore there stops them first).
    pub async fn project_mcp_running(&self, project: &std::path::Path) -> Vec<String> {
        self.mcp.running_in(project).await
    }

    /// Stop the MCP servers running for `project`; they start again when next used.
    pub async fn stop_project_mcp(&self, project: &std::path::Path) {
        self.mcp.stop_in(project).await;
    }

    /// Close every MCP server (their process trees end).
    pub async fn close_mcp_servers(&self) {
        self.mcp.shutdown().await;
    }
}

fn not_running(name: &str, config: &McpServerConfig, state: McpServerState) -> McpServerStatus {
    McpServerStatus {
        name: name.to_owned(),
        transport: if config.url.is_some() { "http" } else { "stdio" }.to_owned(),
        state,
        tools: Vec::new(),
        stderr_tail: Vec::new(),
        resources: Vec::new(),
        prompts: Vec::new(),
    }
}
