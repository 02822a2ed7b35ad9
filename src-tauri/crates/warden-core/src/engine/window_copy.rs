//! The window's copy of the settings. The window saves the settings whole, from the copy it last
//! read or saved; meanwhile Warden may have saved answers the user gave elsewhere ("Always for
//! this project" about a host, "Always allow…" on a call, a path a failed command's block offered) and what it learned about
//! a local model. Saving the window's older copy as it is would drop those, and the user would be
//! asked again. So a save from the window keeps what Warden added since the window's copy, and
//! applies what the window changed: a three-way merge of the lists Warden adds to, over that copy.

use warden_protocol::Settings;

/// `saved` (the window's settings to save) with what Warden added to `now` since `copy` (the
/// settings the window last read or saved): the project rules and paths to read it added (unless
/// `saved` has them), and the learned models when the window left them as they were in its copy.
/// What the window removed from its copy stays removed.
pub(super) fn keep_own_additions(copy: &Settings, now: &Settings, mut saved: Settings) -> Settings {
    for (project, current) in &now.tool_permissions {
        let before = copy.tool_permissions.get(project);
        let rules = added(&current.permission_rules, before.map(|b| b.permission_rules.as_slice()));
        let paths = added(&current.extra_readable, before.map(|b| b.extra_readable.as_slice()));
        if rules.is_empty() && paths.is_empty() {
            continue;
        }
        // A project the window's copy did not have: Warden's entry as it is.
        let target = saved.tool_permissions.entry(project.clone()).or_insert_with(|| current.clone());
        extend_missing(&mut target.permission_rules, rules);
        extend_missing(&mut target.extra_readable, paths);
    }
    // The user's own rules ("Always allow…" for every project).
    let rules = added(&now.permission_rules, Some(copy.permission_rules.as_slice()));
    extend_missing(&mut saved.permission_rules, rules);
    if saved.learned_models == copy.learned_models {
        saved.learned_models.clone_from(&now.learned_models);
    }
    saved
}

/// The items of `now` that `before` did not have.
fn added<T: PartialEq + Clone>(now: &[T], before: Option<&[T]>) -> Vec<T> {
    now.iter().filter(|item| before.is_none_or(|before| !before.contains(item))).cloned().collect()
}

fn extend_missing<T: PartialEq>(list: &mut Vec<T>, items: Vec<T>) {
    for item in items {
        if !list.contains(&item) {
            list.push(item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden_protocol::{LearnedModel, PermissionRule, RuleEffect, ToolPermissions, NETWORK_RULE_TOOL};

    fn allow(pattern: &str) -> PermissionRule {
        PermissionRule::new(RuleEffect::Allow, NETWORK_RULE_TOOL, Some(pattern.to_owned()))
    }

    fn with_rules(rules: &[&str], readable: &[&str]) -> Settings {
        let mut settings = Settings::default();
        let perms = ToolPermissions {
            permission_rules: rules.iter().map(|r| allow(r)).collect(),
            extra_readable: readable.iter().map(|p| (*p).to_owned()).collect(),
            ..ToolPermissions::default()
        };
        settings.tool_permissions.insert("/p".to_owned(), perms);
        settings
    }

    fn rules_of(settings: &Settings) -> Vec<String> {
        settings.tool_permissions["/p"].permission_rules.iter().filter_map(|r| r.pattern.clone()).collect()
    }

    #[test]
    fn what_warden_added_since_the_windows_copy_is_kept_and_what_the_window_removed_stays_removed() {
        let copy = with_rules(&["old.test:443", "gone.test:443"], &["/data"]);
        // Warden added a rule and a path since the window read its copy.
        let now = with_rules(&["old.test:443", "gone.test:443", "new.test:443"], &["/data", "/srv/shared"]);
        // The window removed a rule and changed the timeout.
        let mut saved = with_rules(&["old.test:443"], &["/data"]);
        saved.tool_permissions.get_mut("/p").unwrap().bash_timeout_secs = 120;
        let merged = keep_own_additions(&copy, &now, saved);
        assert_eq!(rules_of(&merged), ["old.test:443", "new.test:443"]);
        assert_eq!(merged.tool_permissions["/p"].extra_readable, ["/data", "/srv/shared"]);
        assert_eq!(merged.tool_permissions["/p"].bash_timeout_secs, 120);
    }

    #[test]
    fn a_project_warden_saved_first_and_learned_models_the_window_left_alone_are_kept() {
        let copy = Settings::default();
        let mut now = with_rules(&["new.test:443"], &[]);
        let learned = LearnedModel {
            base_url: "http://h/v1".into(),
            model: "m".into(),
            tools: None,
            context_window: Some(8192),
        };
        now.learned_models.push(learned.clone());
        let merged = keep_own_additions(&copy, &now, Settings::default());
        assert_eq!(rules_of(&merged), ["new.test:443"]);
        assert_eq!(merged.learned_models, std::slice::from_ref(&learned));

        // The window forgot what was learned: forgotten.
        let mut copy = now.clone();
        copy.learned_models = vec![learned];
        let merged = keep_own_additions(&copy, &now, with_rules(&["new.test:443"], &[]));
        assert!(merged.learned_models.is_empty());
    }

    /// The engine end to end: the window read its copy, a rule was saved from a question's answer,
    /// then the window saved its copy with a change of its own — the rule is still there, on disk
    /// too; and once the window has read it, removing it in the window removes it.
    #[test]
    fn a_save_from_the_windows_older_copy_keeps_the_rule_an_answer_saved_meanwhile() {
        let d = crate::engine::tests::dirs();
        let keychain = std::sync::Arc::new(crate::secrets::MemoryStore::new());
        let engine = crate::engine::Engine::new(d.home.clone(), keychain.clone()).unwrap();
        let mut copy = engine.settings_for_window();
        engine.settings.allow_host("/p", "new.test:443").unwrap();
        copy.searxng_url = "http://127.0.0.1:8888".to_owned();
        engine.save_settings_from_window(copy).unwrap();
        assert_eq!(rules_of(&engine.settings()), ["new.test:443"]);
        assert_eq!(engine.settings().searxng_url, "http://127.0.0.1:8888");
        let reopened = crate::engine::Engine::new(d.home.clone(), keychain).unwrap();
        assert_eq!(rules_of(&reopened.settings()), ["new.test:443"], "kept on disk");

        let mut seen = engine.settings_for_window();
        seen.tool_permissions.get_mut("/p").unwrap().permission_rules.clear();
        engine.save_settings_from_window(seen).unwrap();
        assert!(rules_of(&engine.settings()).is_empty(), "the window's removal stands");
    }

    #[test]
    fn nothing_added_leaves_the_windows_settings_as_they_are() {
        let copy = with_rules(&["a.test:443"], &[]);
        let saved = with_rules(&[], &[]);
        assert_eq!(keep_own_additions(&copy, &copy.clone(), saved.clone()), saved);
    }
}
