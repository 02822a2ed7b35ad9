//! Driving an engine on another machine: the engine's side (`warden serve --stdio`, [`serve`]) and
//! the face's side ([`link`]: the transport started, the handshake, requests and events). The
//! frames are `warden_protocol`'s remote ones; the transport is OpenSSH or any command that gives
//! a pipe ([`transport`]), never a listening socket of Warden's.

pub mod approvals;
pub mod askpass;
mod asks;
mod attached;
mod checkpoints;
pub mod daemon;
mod history;
mod hub;
pub mod install;
pub mod known;
pub mod link;
mod live;
mod machine;
mod open;
mod refusal;
mod resettle;
mod saved;
pub mod serve;
pub mod transport;

pub use attached::{split_frames, Attached, LinkStatus, SessionFrame, SplitFrames};
pub use hub::Hub;
pub use link::{Link, LinkError};
pub use machine::this_machine;
pub use transport::{RemoteTarget, Transport};

/// This build's side of the handshake.
pub fn hello() -> warden_protocol::Hello {
    warden_protocol::Hello {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        protocol: warden_protocol::REMOTE_PROTOCOL,
    }
}

/// Why two sides cannot work together, in words, or `None` when they can: the same protocol and
/// the same version (a remote engine of another version may read settings or events differently).
pub fn mismatch(
    ours: &warden_protocol::Hello,
    theirs: &warden_protocol::Hello,
    theirs_are: &str,
) -> Option<String> {
    (ours != theirs).then(|| {
        format!(
            "the {theirs_are} is Warden {} (link protocol {}), this is Warden {} (link protocol {}): \
             both sides must be the same version. Install Warden {} there (or copy this one: \
             ~/.local/share/warden/bin/warden is looked for first)",
            theirs.version, theirs.protocol, ours.version, ours.protocol, ours.version
        )
    })
}

/// This machine's settings as a remote engine gets them for `target`: see [`settings_there`].
pub fn settings_for(engine: &crate::engine::Engine, target: &RemoteTarget) -> warden_protocol::Settings {
    settings_there(engine.settings(), target)
}

/// `settings` as a remote engine gets them for `target`: what is kept here per project (its
/// permissions and rules, the approval of its `.mcp.json` and of its own hooks) under `host:/path`
/// is given under its path there, and a project of this machine at the same path lends it nothing:
/// an approval given here is for this machine's files.
pub fn settings_there(
    mut settings: warden_protocol::Settings,
    target: &RemoteTarget,
) -> warden_protocol::Settings {
    let (here, there) = (target.to_string(), target.path.clone());
    move_entry(&mut settings.tool_permissions, &here, &there);
    move_entry(&mut settings.project_mcp, &here, &there);
    move_entry(&mut settings.project_hooks, &here, &there);
    settings
}

/// `settings` as sent for the project `named` there, with what is kept for it under the name it
/// was given moved to its real path, under which the engine looks it up (a name with a trailing
/// `/` or through a symbolic link is the same project).
pub(crate) fn settings_at_real_path(
    mut settings: warden_protocol::Settings,
    named: &str,
) -> warden_protocol::Settings {
    let real = real_path(named);
    if real != named {
        move_entry(&mut settings.tool_permissions, named, &real);
        move_entry(&mut settings.project_mcp, named, &real);
        move_entry(&mut settings.project_hooks, named, &real);
    }
    settings
}

/// The real path of the project named `named` there (as named when it cannot be resolved): what
/// the engine keys a project's settings and storage by.
pub(crate) fn real_path(named: &str) -> String {
    std::fs::canonicalize(named).map_or_else(|_| named.to_owned(), |real| real.to_string_lossy().into_owned())
}

/// The entry under `from` put under `to`, whatever was under `to` before removed.
fn move_entry<T>(map: &mut std::collections::BTreeMap<String, T>, from: &str, to: &str) {
    match map.remove(from) {
        Some(entry) => map.insert(to.to_owned(), entry),
        None => map.remove(to),
    };
}

/// Ask the session `attached` to for what "always" kept there so far, and keep it here: rules of
/// every project among the user's rules, the project's under `host:/path` (each once). What
/// cannot be kept here is returned in words (and logged); a link that cannot be asked is logged.
pub async fn bring_rules_home(
    attached: &Attached,
    engine: &crate::engine::Engine,
    target: &RemoteTarget,
) -> Vec<String> {
    let kept = match attached.request(warden_protocol::RemoteRequest::KeptRules).await {
        Ok(warden_protocol::RemoteResult::KeptRules(kept)) => kept,
        Ok(_) => return Vec::new(),
        Err(error) => {
            tracing::warn!(%error, "the rules kept there could not be asked for");
            return Vec::new();
        }
    };
    let project = target.to_string();
    let mut not_kept = Vec::new();
    for warden_protocol::KeptRule { scope, rule } in kept {
        let shown = rule.to_string();
        if let Err(why) = engine.keep_rule(&project, scope, rule) {
            tracing::warn!(rule = %shown, %why, "a rule kept there is not kept here");
            not_kept.push(format!("{shown}: {why}"));
        }
    }
    not_kept
}

/// A mutex's guard; a poisoned one is still good (the state is plain data).
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The next line of `input` (with its newline), `None` at its end, or an error when it runs past
/// `max` bytes (a runaway writer does not fill memory).
pub(crate) async fn read_line<R: tokio::io::AsyncBufRead + Unpin>(
    input: &mut R,
    max: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt};
    let mut line = Vec::new();
    let read = (&mut *input).take(max as u64 + 1).read_until(b'\n', &mut line).await?;
    if read == 0 {
        return Ok(None);
    }
    if line.len() > max {
        return Err(std::io::Error::other(format!("a line longer than {max} bytes")));
    }
    Ok(Some(line))
}

/// What opens `session` on a remote engine: this machine's settings, the keys its provider needs,
/// the secrets its MCP servers name and the sign-ins of its HTTP servers (without their refresh
/// tokens; the remote machine's own are never read). The rules of the remote project are those kept
/// here under `target` (`host:/path`), given there under its path; a project of this machine at
/// the same path lends it none.
pub async fn open_request(
    engine: &crate::engine::Engine,
    target: &RemoteTarget,
    session: warden_protocol::RemoteSession,
) -> warden_protocol::RemoteOpen {
    let keys = match session.remote_env_keys {
        true => Vec::new(),
        false => engine.keys_for_remote(session.provider).await,
    };
    let settings = settings_for(engine, target);
    let mcp_secrets = engine.mcp_secrets_for_remote(&settings).await;
    let mcp_sign_ins = engine.mcp_sign_ins_for_remote(&settings).await;
    warden_protocol::RemoteOpen {
        settings,
        keys: keys.into_iter().map(|(name, value)| warden_protocol::RemoteKey { name, value }).collect(),
        mcp_secrets: mcp_secrets
            .into_iter()
            .map(|(name, value)| warden_protocol::RemoteMcpSecret { name, value })
            .collect(),
        mcp_sign_ins,
        session,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use warden_protocol::{ProjectHooksChoice, ProjectMcpChoice, Settings, ToolPermissions};

    use super::*;

    #[test]
    fn a_remote_project_gets_what_is_kept_here_for_it_and_nothing_of_a_local_project_at_its_path() {
        let target = RemoteTarget::parse("box:/srv/app").unwrap();
        let hooks = |digest: &str| ProjectHooksChoice { approved_digest: digest.to_owned() };
        let mcp = |digest: &str| ProjectMcpChoice { digest: digest.to_owned(), approved: true };
        let local = Settings {
            tool_permissions: BTreeMap::from([("/srv/app".to_owned(), ToolPermissions::default())]),
            project_mcp: BTreeMap::from([("/srv/app".to_owned(), mcp("local"))]),
            project_hooks: BTreeMap::from([("/srv/app".to_owned(), hooks("local"))]),
            ..Default::default()
        };
        let there = settings_there(local, &target);
        assert!(there.tool_permissions.is_empty(), "{:?}", there.tool_permissions);
        assert!(there.project_mcp.is_empty(), "a local .mcp.json approval is not the remote one's");
        assert!(there.project_hooks.is_empty(), "local hooks approved here do not run there");

        let kept = Settings {
            project_mcp: BTreeMap::from([
                ("/srv/app".to_owned(), mcp("local")),
                ("box:/srv/app".to_owned(), mcp("there")),
            ]),
            project_hooks: BTreeMap::from([("box:/srv/app".to_owned(), hooks("there"))]),
            ..Default::default()
        };
        let there = settings_there(kept, &target);
        assert_eq!(there.project_mcp, BTreeMap::from([("/srv/app".to_owned(), mcp("there"))]));
        assert_eq!(there.project_hooks, BTreeMap::from([("/srv/app".to_owned(), hooks("there"))]));
    }

    #[test]
    fn what_is_kept_for_a_project_named_through_a_link_or_a_slash_reaches_its_real_path() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("app");
        std::fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        let real = std::fs::canonicalize(&real).unwrap().to_string_lossy().into_owned();
        let hooks = ProjectHooksChoice { approved_digest: "abc".to_owned() };
        for named in [format!("{}/link", dir.path().display()), format!("{real}/")] {
            let sent = Settings {
                project_hooks: BTreeMap::from([(named.clone(), hooks.clone())]),
                tool_permissions: BTreeMap::from([(named.clone(), ToolPermissions::default())]),
                ..Default::default()
            };
            let held = settings_at_real_path(sent, &named);
            assert_eq!(held.project_hooks, BTreeMap::from([(real.clone(), hooks.clone())]), "{named}");
            assert!(held.tool_permissions.contains_key(&real), "{named}");
        }
        // A path that is not there is left as named.
        let sent = Settings {
            project_hooks: BTreeMap::from([("/no/such".to_owned(), hooks.clone())]),
            ..Default::default()
        };
        assert!(settings_at_real_path(sent, "/no/such").project_hooks.contains_key("/no/such"));
    }
}
