//! A remote project's own hooks and `.mcp.json`, approved from this side. The offer is read there
//! (what the files hold now, and their digests); the answer is kept in this machine's settings
//! under the project's `host:/path`, and sent with the settings of its sessions there, where the
//! engine runs only what matches the digest approved.

use warden_protocol::{ProjectHooksChoice, ProjectHooksOffer, ProjectMcpChoice, ProjectMcpOffer, Settings};

use super::RemoteTarget;

/// The user's answer about the hooks of `target` whose digest they were shown, checked against
/// `now` (the offer as read there just now) and kept in `settings`. An approval is refused when
/// the project there names no hooks, or other hooks than those shown.
pub fn choose_hooks(
    settings: &mut Settings,
    target: &RemoteTarget,
    now: Option<&ProjectHooksOffer>,
    digest: &str,
    approve: bool,
) -> Result<(), String> {
    let key = target.to_string();
    if !approve {
        settings.project_hooks.remove(&key);
        return Ok(());
    }
    crate::engine::check_hooks_approval(now, digest)?;
    settings.project_hooks.insert(key, ProjectHooksChoice { approved_digest: digest.to_owned() });
    Ok(())
}

/// The user's answer about the `.mcp.json` of `target` whose digest they were shown, checked as
/// [`choose_hooks`] checks hooks, and refused when the file cannot be used. The checks are those of
/// an approval here (`check_hooks_approval`, `check_mcp_approval`).
pub fn choose_mcp(
    settings: &mut Settings,
    target: &RemoteTarget,
    now: Option<&ProjectMcpOffer>,
    digest: &str,
    approved: bool,
) -> Result<(), String> {
    if approved {
        crate::engine::check_mcp_approval(now, digest).map_err(|e| e.to_string())?;
    }
    let choice = ProjectMcpChoice { digest: digest.to_owned(), approved };
    settings.project_mcp.insert(target.to_string(), choice);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hooks_offer(digest: &str, commands: &[&str]) -> ProjectHooksOffer {
        ProjectHooksOffer {
            file: "/srv/app/.claude/settings.json".into(),
            hooks: Default::default(),
            commands: commands.iter().map(|c| (*c).to_owned()).collect(),
            digest: digest.into(),
            state: "new".into(),
            problems: Vec::new(),
        }
    }

    #[test]
    fn hooks_are_approved_there_only_as_shown_and_kept_under_the_remote_name() {
        let target = RemoteTarget::parse("box:/srv/app").unwrap();
        let mut settings = Settings::default();
        let now = hooks_offer("abc", &["UserPromptSubmit: make lint"]);
        let refused = choose_hooks(&mut settings, &target, Some(&now), "other", true).unwrap_err();
        assert!(refused.contains("changed since shown"), "{refused}");
        assert!(choose_hooks(&mut settings, &target, None, "abc", true).is_err(), "no hooks there");
        let empty = hooks_offer("abc", &[]);
        assert!(choose_hooks(&mut settings, &target, Some(&empty), "abc", true).is_err(), "none named");
        assert!(settings.project_hooks.is_empty(), "nothing kept by a refusal");

        choose_hooks(&mut settings, &target, Some(&now), "abc", true).unwrap();
        assert_eq!(settings.project_hooks["box:/srv/app"].approved_digest, "abc");
        assert!(!settings.project_hooks.contains_key("/srv/app"), "a project here at that path gets nothing");
        choose_hooks(&mut settings, &target, None, "abc", false).unwrap();
        assert!(settings.project_hooks.is_empty(), "withdrawn");
    }

    #[test]
    fn an_mcp_json_is_approved_there_only_as_shown_and_usable() {
        let target = RemoteTarget::parse("box:/srv/app").unwrap();
        let mut settings = Settings::default();
        let mut now = ProjectMcpOffer {
            path: "/srv/app/.mcp.json".into(),
            servers: Default::default(),
            ignored: Default::default(),
            network: false,
            digest: "d1".into(),
            approved: None,
            error: Some("not JSON".into()),
        };
        assert!(choose_mcp(&mut settings, &target, Some(&now), "d1", true).unwrap_err().contains("not JSON"));
        now.error = None;
        assert!(choose_mcp(&mut settings, &target, Some(&now), "d0", true).is_err(), "changed since shown");
        assert!(settings.project_mcp.is_empty());
        choose_mcp(&mut settings, &target, Some(&now), "d1", true).unwrap();
        assert_eq!(
            settings.project_mcp["box:/srv/app"],
            ProjectMcpChoice { digest: "d1".into(), approved: true }
        );
        // Declining keeps the answer (it is not offered again for this content).
        choose_mcp(&mut settings, &target, None, "d1", false).unwrap();
        assert!(!settings.project_mcp["box:/srv/app"].approved);
    }
}
