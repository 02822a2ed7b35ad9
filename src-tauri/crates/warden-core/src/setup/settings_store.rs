//! The settings store: the settings in use, saved and sealed, and the user's acceptance of a file
//! Warden did not write.

use warden_protocol::Settings;

use super::Engine;
use crate::config::{ConfigError, Integrity};

impl Engine {
    /// The settings in use (when the file is not trusted: with the safe defaults, see `config`).
    pub fn settings(&self) -> Settings {
        self.settings.read().map(|s| s.0.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().0.clone())
    }

    /// Whether the settings in use are the file as Warden wrote it.
    pub fn settings_integrity(&self) -> Integrity {
        self.settings.read().map(|s| s.1.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().1.clone())
    }

    /// What loading the settings file had to say at start (see [`crate::config::LoadedSettings`]).
    pub fn settings_notice(&self) -> Option<&str> {
        self.load_notice.as_deref()
    }

    fn replace_settings(&self, settings: Settings, integrity: Integrity) {
        match self.settings.write() {
            Ok(mut current) => *current = (settings, integrity),
            Err(poisoned) => *poisoned.into_inner() = (settings, integrity),
        }
    }

    /// Saves (and seals) the settings; they are trusted from now on.
    pub fn save_settings(&self, settings: Settings) -> Result<(), ConfigError> {
        match &self.seal_key {
            Ok(key) => {
                self.home.save_sealed(&settings, key)?;
                self.replace_settings(settings, Integrity::Trusted);
            }
            Err(why) => {
                self.home.save_settings(&settings)?;
                let integrity = Integrity::NoSealKey(why.clone());
                self.replace_settings(crate::config::restricted(&settings), integrity);
            }
        }
        Ok(())
    }

    /// The user accepts the settings file as it is now (after the window showed it was not written
    /// by Warden): it is sealed and used as it is.
    pub fn accept_settings_file(&self) -> Result<(), ConfigError> {
        let key = self.seal_key.as_ref().map_err(|why| ConfigError::NoSealKey(why.clone()))?;
        let loaded = self.home.accept_file(key)?;
        self.replace_settings(loaded.settings, loaded.integrity);
        Ok(())
    }
}
