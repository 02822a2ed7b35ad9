//! What Warden learns about the models of servers that do not say (how tools reach them, how large
//! their context is), kept in the settings' `learnedModels`, one entry per (base URL, model).
//! Settings → Providers shows each and lets the user change or remove it.

use std::sync::Arc;

use warden_protocol::{LearnedModel, Settings, ToolsDecidedBy, ToolsDecision};

use super::settings_store::SettingsCell;
use crate::provider::LearnedFacts;

/// The engine's [`LearnedFacts`]: the settings.
pub(super) struct SettingsFacts(pub(super) Arc<SettingsCell>);

fn entry<'a>(settings: &'a Settings, base_url: &str, model: &str) -> Option<&'a LearnedModel> {
    settings.learned_models.iter().find(|m| same_url(&m.base_url, base_url) && m.model == model)
}

/// The entry for (base URL, model), made when there is none.
fn entry_mut<'a>(settings: &'a mut Settings, base_url: &str, model: &str) -> &'a mut LearnedModel {
    let at = settings.learned_models.iter().position(|m| same_url(&m.base_url, base_url) && m.model == model);
    let at = at.unwrap_or_else(|| {
        settings.learned_models.push(LearnedModel {
            base_url: base_url.trim_end_matches('/').to_owned(),
            model: model.to_owned(),
            tools: None,
            context_window: None,
        });
        settings.learned_models.len() - 1
    });
    &mut settings.learned_models[at]
}

/// `http://h:8080/v1` and `http://h:8080/v1/` are one server.
fn same_url(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}

impl LearnedFacts for SettingsFacts {
    fn tools(&self, base_url: &str, model: &str) -> Option<ToolsDecision> {
        entry(&self.0.settings(), base_url, model).and_then(|m| m.tools.clone())
    }

    fn remember_tools(&self, base_url: &str, model: &str, decision: ToolsDecision) {
        self.0.update_on_its_own(|settings| {
            let entry = entry_mut(settings, base_url, model);
            // The user's own choice stands until the user changes it.
            if entry.tools.as_ref().is_none_or(|kept| kept.decided_by != ToolsDecidedBy::User) {
                entry.tools = Some(decision);
            }
        });
    }

    fn remember_context_window(&self, base_url: &str, model: &str, window: u32) {
        self.0
            .update_on_its_own(|settings| entry_mut(settings, base_url, model).context_window = Some(window));
    }

    fn context_window(&self, base_url: &str, model: &str) -> Option<u32> {
        entry(&self.0.settings(), base_url, model).and_then(|m| m.context_window)
    }
}
