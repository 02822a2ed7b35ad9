//! The desktop's view of the engine: the calls the commands make, with engine errors turned into
//! [`CommandError`]s. PLACEHOLDER until `warden_core::setup::Engine` lands: settings and keys are
//! kept in memory so the window is usable, sessions refuse to start.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc::UnboundedReceiver;
use warden_protocol::{Event, KeyName, KeyStatus, Message, ModelEntry, Op, ProviderId, Settings};

use crate::error::{CommandError, CommandErrorCode, CommandResult};

/// One running conversation, as the commands use it.
pub trait SessionHandle: Send + Sync + 'static {
    fn submit(&self, op: Op) -> CommandResult<()>;
    fn history(&self) -> Vec<Message>;
}

pub struct Engine {
    settings: Mutex<Settings>,
    keys: Mutex<BTreeSet<KeyName>>,
}

impl Engine {
    pub fn from_env() -> CommandResult<Self> {
        Ok(Self { settings: Mutex::new(Settings::default()), keys: Mutex::new(BTreeSet::new()) })
    }

    pub fn settings(&self) -> Settings {
        self.settings.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub fn save_settings(&self, settings: Settings) -> CommandResult<()> {
        *self.settings.lock().unwrap_or_else(PoisonError::into_inner) = settings;
        Ok(())
    }

    pub async fn start_session(
        &self,
        _conversation_id: &str,
    ) -> CommandResult<(Arc<dyn SessionHandle>, UnboundedReceiver<Event>)> {
        Err(not_ready())
    }

    pub async fn list_models(&self, _provider: ProviderId) -> CommandResult<Vec<ModelEntry>> {
        Err(not_ready())
    }

    pub async fn test_connection(&self, _provider: ProviderId) -> CommandResult<()> {
        Err(not_ready())
    }

    pub async fn key_status(&self) -> CommandResult<Vec<KeyStatus>> {
        let keys = self.keys.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(KeyName::ALL.iter().map(|&name| KeyStatus { name, is_set: keys.contains(&name) }).collect())
    }

    pub async fn set_key(&self, name: KeyName, _value: String) -> CommandResult<()> {
        self.keys.lock().unwrap_or_else(PoisonError::into_inner).insert(name);
        Ok(())
    }

    pub async fn delete_key(&self, name: KeyName) -> CommandResult<()> {
        self.keys.lock().unwrap_or_else(PoisonError::into_inner).remove(&name);
        Ok(())
    }

    pub async fn ollama_reachable(&self) -> bool {
        false
    }
}

fn not_ready() -> CommandError {
    CommandError::new(CommandErrorCode::Engine, "The engine is not available in this build yet.")
}
