//! A project's own files approved from the face, and the face's settings taken up by a session
//! that is already open there: the offers are read there, the answers are kept by the face (under
//! `host:/path`), and the session is made again with the settings that hold them.

use std::path::Path;
use std::sync::Arc;

use warden_protocol::{RemoteError, RemoteProjectOffers, RemoteResult, RemoteSession, Settings};

use super::history::idle_session;
use super::live::Live;
use super::refusal::{failed, setup as refused, usage};
use crate::engine::Engine;

/// The hooks and `.mcp.json` of `project` there, as `engine` (with the face's settings) offers them.
pub(super) fn offers(engine: &Engine, project: &Path) -> Result<RemoteResult, RemoteError> {
    let hooks = engine.project_hooks_offer(project).map_err(refused)?;
    let mcp = engine.project_mcp_offer(project).map_err(refused)?;
    Ok(RemoteResult::ProjectOffers(Box::new(RemoteProjectOffers { hooks, mcp })))
}

/// Between turns, the session `live` holds is made again with `settings` and `wanted`'s choices
/// (its trust level, its provider), and goes on from its history. What "always" kept in the
/// session and the face has not taken home yet is kept in the new settings too.
pub(super) async fn resettle(
    live: &Arc<Live>,
    settings: Settings,
    wanted: RemoteSession,
) -> Result<RemoteResult, RemoteError> {
    let old = idle_session(live, "changing its settings")?;
    let engine = live.held_engine()?;
    if wanted.project != live.project() {
        return Err(usage(&format!("this session works in {}, not {}", live.project(), wanted.project)));
    }
    let mut spec = super::open::session_spec(&wanted).map_err(|e| usage(&e))?;
    spec.conversation_id = old.conversation_id().to_owned();
    engine.save_settings(super::settings_at_real_path(settings, live.project())).map_err(failed)?;
    let real = super::real_path(live.project());
    for kept in live.kept_rules() {
        if let Err(why) = engine.keep_rule(&real, kept.scope, kept.rule) {
            tracing::warn!(%why, "a rule kept in the session is not kept in its new settings");
        }
    }
    let (session, events) = engine.start(spec).await.map_err(refused)?;
    let session = session.with_history(old.history()).with_compaction(old.compaction());
    if !live.replace(session, events) {
        return Err(usage("the session is over"));
    }
    Ok(RemoteResult::Done)
}
