//! The settings store: the settings in use, saved and sealed, and the user's acceptance of a file
//! Warden did not write. The settings live in a [`SettingsCell`] the engine shares with what
//! writes them on its own (what is learned about local models, [`super::learned`]).

use std::sync::{Arc, Mutex, MutexGuard, RwLock};

use warden_protocol::{PermissionRule, RuleEffect, RuleScope, Settings, NETWORK_RULE_TOOL};

use super::Engine;
use crate::config::{ConfigError, Integrity, WardenHome};
use crate::secrets::SealKey;

/// The settings in use, where they are saved and the key of their seal.
pub(crate) struct SettingsCell {
    home: WardenHome,
    /// The key of the settings file's seal, or why there is none.
    seal_key: Result<SealKey, String>,
    state: RwLock<(Settings, Integrity)>,
    /// Held by every change that reads the settings and saves them changed, so that two at once
    /// (an answer saved while the window saves) do not drop one another.
    writing: Mutex<()>,
    /// The settings the window holds: what it last read or saved ([`super::window_copy`]).
    window_copy: Mutex<Option<Settings>>,
    /// `false` for a remote engine's settings (the face's, [`Engine::remote`]): changes are kept
    /// in memory and never written to this machine.
    persist: bool,
    /// The rules "always" kept in these settings while they are not persisted (a remote
    /// session's), for the face to keep in its own.
    kept: Arc<Mutex<Vec<warden_protocol::KeptRule>>>,
}

impl SettingsCell {
    pub(crate) fn new(
        home: WardenHome,
        seal_key: Result<SealKey, String>,
        settings: Settings,
        integrity: Integrity,
    ) -> Self {
        Self {
            home,
            seal_key,
            state: RwLock::new((settings, integrity)),
            writing: Mutex::default(),
            window_copy: Mutex::default(),
            persist: true,
            kept: Arc::default(),
        }
    }

    /// Settings that live in memory only, trusted as given ([`Engine::remote`]).
    pub(crate) fn in_memory(home: WardenHome, settings: Settings) -> Self {
        let why = "a remote session's settings are the face's".to_owned();
        Self { persist: false, ..Self::new(home, Err(why), settings, Integrity::Trusted) }
    }

    fn writing(&self) -> MutexGuard<'_, ()> {
        self.writing.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn window_copy(&self) -> MutexGuard<'_, Option<Settings>> {
        self.window_copy.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The settings as the window reads them, which are the window's copy from now on.
    pub(crate) fn read_for_window(&self) -> Settings {
        let _writing = self.writing();
        let settings = self.settings();
        *self.window_copy() = Some(settings.clone());
        settings
    }

    /// Save the settings the window sends, keeping what Warden added since the window's copy
    /// ([`super::window_copy::keep_own_additions`]); what the window sent is its copy from now on.
    /// A model price that is negative, not a number or names no model is refused, and nothing is saved.
    pub(crate) fn save_from_window(&self, settings: Settings) -> Result<(), ConfigError> {
        crate::config::check_model_prices(&settings.model_prices)?;
        let _writing = self.writing();
        let mut copy = self.window_copy();
        let merged = match copy.as_ref() {
            Some(copy) => super::window_copy::keep_own_additions(copy, &self.settings(), settings.clone()),
            None => settings.clone(),
        };
        self.save(merged)?;
        *copy = Some(settings);
        Ok(())
    }

    /// Save `settings` whole (`warden exec`, tests: no window copy to merge with).
    pub(crate) fn save_whole(&self, settings: Settings) -> Result<(), ConfigError> {
        let _writing = self.writing();
        self.save(settings)
    }

    pub(crate) fn settings(&self) -> Settings {
        self.state.read().map(|s| s.0.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().0.clone())
    }

    pub(crate) fn integrity(&self) -> Integrity {
        self.state.read().map(|s| s.1.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().1.clone())
    }

    fn replace(&self, settings: Settings, integrity: Integrity) {
        match self.state.write() {
            Ok(mut current) => *current = (settings, integrity),
            Err(poisoned) => *poisoned.into_inner() = (settings, integrity),
        }
    }

    pub(crate) fn save(&self, settings: Settings) -> Result<(), ConfigError> {
        if !self.persist {
            self.replace(settings, Integrity::Trusted);
            return Ok(());
        }
        match &self.seal_key {
            Ok(key) => {
                self.home.save_sealed(&settings, key)?;
                self.replace(settings, Integrity::Trusted);
            }
            Err(why) => {
                self.home.save_settings(&settings)?;
                let integrity = Integrity::NoSealKey(why.clone());
                self.replace(crate::config::restricted(&settings), integrity);
            }
        }
        Ok(())
    }

    /// A change Warden makes on its own (not the user): saved only while the file in use is the
    /// one Warden wrote. Saving would seal a file someone else wrote, and so trust it; then the
    /// change is kept for this run only.
    pub(crate) fn update_on_its_own(&self, change: impl FnOnce(&mut Settings)) {
        let _writing = self.writing();
        let mut settings = self.settings();
        change(&mut settings);
        if self.integrity() == Integrity::Trusted {
            if let Err(error) = self.save(settings) {
                tracing::warn!(%error, "could not save what was learned about a model");
            }
        } else {
            let integrity = self.integrity();
            self.replace(settings, integrity);
        }
    }

    /// The user answered "Always for this project" about a host: an allow rule for `pattern` in
    /// the project's permission rules, saved and sealed — while the file in use is the one Warden
    /// wrote; otherwise kept for this run only (saving would seal someone else's file), and said.
    pub(crate) fn allow_host(&self, project: &str, pattern: &str) -> Result<(), String> {
        let rule = PermissionRule::new(RuleEffect::Allow, NETWORK_RULE_TOOL, Some(pattern.to_owned()))
            .with_origin(warden_protocol::RuleOrigin::Card);
        let _writing = self.writing();
        let mut settings = self.settings();
        let rules = &mut settings.tool_permissions.entry(project.to_owned()).or_default().permission_rules;
        if !rules.iter().any(|r| r.same_as(&rule)) {
            self.note_kept(RuleScope::Project, &rule);
            rules.push(rule);
        }
        self.save_answer(settings, "the rule is kept")
    }

    /// The rules kept in memory only ([`Self::in_memory`]), as they are kept.
    pub(crate) fn kept_rules(&self) -> Arc<Mutex<Vec<warden_protocol::KeptRule>>> {
        self.kept.clone()
    }

    /// `rule` is kept in `scope`: noted for the face when these settings are not persisted.
    fn note_kept(&self, scope: RuleScope, rule: &PermissionRule) {
        if !self.persist {
            let mut kept = self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            kept.push(warden_protocol::KeptRule { scope, rule: rule.clone() });
        }
    }

    /// The user answered "Always allow…" on a call: `rule` kept in `scope` (the project's rules or
    /// the user's), saved as [`SettingsCell::allow_host`] saves a host.
    pub(crate) fn keep_rule(
        &self,
        project: &str,
        scope: RuleScope,
        rule: PermissionRule,
    ) -> Result<(), String> {
        let _writing = self.writing();
        let mut settings = self.settings();
        let rules = match scope {
            RuleScope::Project => {
                &mut settings.tool_permissions.entry(project.to_owned()).or_default().permission_rules
            }
            RuleScope::User => &mut settings.permission_rules,
            RuleScope::Managed => return Err("the organisation's rules are not changed from here".to_owned()),
        };
        if !rules.iter().any(|r| r.same_as(&rule)) {
            self.note_kept(scope, &rule);
            rules.push(rule);
        }
        self.save_answer(settings, "the rule is kept")
    }

    /// Remove the rule that says what `rule` says from `scope`'s rules; false when there was none.
    pub(crate) fn drop_rule(
        &self,
        project: &str,
        scope: RuleScope,
        rule: &PermissionRule,
    ) -> Result<bool, String> {
        let _writing = self.writing();
        let mut settings = self.settings();
        let rules = match scope {
            RuleScope::Project => match settings.tool_permissions.get_mut(project) {
                Some(permissions) => &mut permissions.permission_rules,
                None => return Ok(false),
            },
            RuleScope::User => &mut settings.permission_rules,
            RuleScope::Managed => return Err("the organisation's rules are not changed from here".to_owned()),
        };
        let before = rules.len();
        rules.retain(|r| !r.same_as(rule));
        if rules.len() == before {
            return Ok(false);
        }
        self.save_answer(settings, "the rule is removed").map(|()| true)
    }

    /// The user let the project's commands read `path` (offered on a command's block): added to
    /// the project's extra readable paths and saved as [`SettingsCell::allow_host`] saves a rule.
    pub(crate) fn allow_read(&self, project: &str, path: &str) -> Result<(), String> {
        let _writing = self.writing();
        let mut settings = self.settings();
        let readable = &mut settings.tool_permissions.entry(project.to_owned()).or_default().extra_readable;
        if !readable.iter().any(|p| p == path) {
            readable.push(path.to_owned());
        }
        self.save_answer(settings, "the path is readable")
    }

    /// `settings` with an answer of the user's in it: saved and sealed while the file in use is the
    /// one Warden wrote; otherwise in use for this run only (saving would seal someone else's
    /// file), and `kept` ("the rule is kept") says so.
    fn save_answer(&self, settings: Settings, kept: &str) -> Result<(), String> {
        if self.integrity() == Integrity::Trusted {
            return self.save(settings).map_err(|e| e.to_string());
        }
        let integrity = self.integrity();
        self.replace(settings, integrity);
        Err(format!("the settings file in use was not written by Warden: {kept} for this run only"))
    }

    fn accept_file(&self) -> Result<(), ConfigError> {
        let _writing = self.writing();
        let key = self.seal_key.as_ref().map_err(|why| ConfigError::NoSealKey(why.clone()))?;
        let loaded = self.home.accept_file(key)?;
        self.replace(loaded.settings, loaded.integrity);
        Ok(())
    }
}

impl Engine {
    /// What "always" keeps in a remote engine's in-memory settings, as it is kept (shared: it
    /// holds no key, and outlives the engine for the face to collect).
    pub fn kept_rules(&self) -> Arc<Mutex<Vec<warden_protocol::KeptRule>>> {
        self.settings.kept_rules()
    }

    /// Keep `rule` in `scope` as an "always" answer would, `project` naming the project's rules
    /// (a remote project's are kept under its `host:/path`).
    pub fn keep_rule(&self, project: &str, scope: RuleScope, rule: PermissionRule) -> Result<(), String> {
        self.settings.keep_rule(project, scope, rule)
    }

    /// The settings in use (when the file is not trusted: with the safe defaults, see `config`).
    pub fn settings(&self) -> Settings {
        self.settings.settings()
    }

    /// Whether the settings in use are the file as Warden wrote it.
    pub fn settings_integrity(&self) -> Integrity {
        self.settings.integrity()
    }

    /// What loading the settings file had to say at start (see [`crate::config::LoadedSettings`]).
    pub fn settings_notice(&self) -> Option<&str> {
        self.load_notice.as_deref()
    }

    /// Saves (and seals) the settings whole; they are trusted from now on.
    pub fn save_settings(&self, settings: Settings) -> Result<(), ConfigError> {
        self.settings.save_whole(settings)
    }

    /// The settings in use, as the window reads them: its copy from now on, which
    /// [`Engine::save_settings_from_window`] merges over.
    pub fn settings_for_window(&self) -> Settings {
        self.settings.read_for_window()
    }

    /// Saves (and seals) the settings the window sends, from the copy it last read or saved: what
    /// Warden saved on its own meanwhile (a rule "Always for this project" added, a path to read,
    /// what it learned of a local model) is kept, and what the window changed is applied.
    pub fn save_settings_from_window(&self, settings: Settings) -> Result<(), ConfigError> {
        self.settings.save_from_window(settings)
    }

    /// The user accepts the settings file as it is now (after the window showed it was not written
    /// by Warden): it is sealed and used as it is.
    pub fn accept_settings_file(&self) -> Result<(), ConfigError> {
        self.settings.accept_file()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use warden_protocol::ModelPrice;

    use crate::config::{ConfigError, PriceError, WardenHome};
    use crate::engine::Engine;
    use crate::secrets::MemoryStore;

    /// The window's save refuses a price that cannot be right, with why, and changes nothing; a
    /// good one is saved and read back.
    #[test]
    fn a_bad_model_price_from_the_window_is_refused_and_nothing_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let home = WardenHome::at(dir.path());
        let engine = Engine::new(home.clone(), Arc::new(MemoryStore::new())).unwrap();
        let mut settings = engine.settings_for_window();
        settings.model_prices.insert("gpt-5".into(), ModelPrice { input: 1.25, output: 10.0 });
        engine.save_settings_from_window(settings.clone()).unwrap();
        let saved = std::fs::read(home.settings_path()).unwrap();

        let mut bad = settings.clone();
        bad.approval_timeout_secs = 99;
        bad.model_prices.insert("my-model".into(), ModelPrice { input: -2.0, output: 1.0 });
        let error = engine.save_settings_from_window(bad).unwrap_err();
        assert!(matches!(error, ConfigError::Price(PriceError::BadAmount { .. })), "{error}");
        assert!(error.to_string().contains("`my-model` per million input tokens"), "{error}");
        assert_eq!(std::fs::read(home.settings_path()).unwrap(), saved, "nothing written");
        assert_eq!(engine.settings(), settings, "nothing in use changed");
        let file: serde_json::Value = serde_json::from_slice(&saved).unwrap();
        assert_eq!(file["modelPrices"], serde_json::json!({ "gpt-5": { "input": 1.25, "output": 10.0 } }));
    }
}
