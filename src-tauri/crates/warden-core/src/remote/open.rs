//! The session a remote face opens, as the engine's own [`SessionSpec`].

use std::path::PathBuf;

use warden_protocol::RemoteSession;

use crate::engine::SessionSpec;

/// The spec of `session`, or why it names something this engine does not have (an unknown tool).
pub(crate) fn session_spec(session: &RemoteSession) -> Result<SessionSpec, String> {
    let mut spec = SessionSpec::new(PathBuf::from(&session.project));
    spec.conversation_id = session.conversation_id.clone();
    spec.provider = session.provider;
    spec.model = session.model.clone();
    spec.base_url = session.base_url.clone();
    spec.native_tools = session.native_tools;
    spec.trust = session.trust;
    spec.approval_timeout_secs = session.approval_timeout_secs;
    spec.max_turns = session.max_turns;
    spec.searxng_url = session.searxng_url.clone();
    spec.network = session.network;
    spec.save = session.save;
    if session.window {
        spec.default_scope = crate::tools::window_default_scope();
    }
    if let Some(allow) = &session.allow {
        spec.scope = Some(crate::tools::allowed_scope(allow)?);
    }
    Ok(spec)
}
