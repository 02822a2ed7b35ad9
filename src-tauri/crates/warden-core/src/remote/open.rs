//! The session a remote face opens, as the engine's own [`SessionSpec`].

use std::path::PathBuf;

use warden_protocol::RemoteSession;

use crate::engine::SessionSpec;
use crate::scope::Scope;

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
    if session.allow.as_deref() == Some(&["all".to_owned()][..]) {
        spec.scope = Some(Scope::all());
    } else if let Some(allow) = &session.allow {
        let known = crate::engine::tool_names();
        if let Some(unknown) = allow.iter().find(|name| !known.iter().any(|k| k == *name)) {
            return Err(format!("unknown tool `{unknown}` (known: {})", known.join(", ")));
        }
        spec.scope = Some(Scope::only(allow.iter().map(String::as_str)));
    }
    Ok(spec)
}
