//! What Warden finds out about a model of a server that does not say (how tools reach it, how large
//! its context is), kept between sessions: the engine keeps it in the settings
//! (`Settings::learned_models`), where Settings → Providers shows it and the user can change it.

use std::sync::Arc;

use warden_protocol::ToolsDecision;

/// Where learned facts are kept, per (base URL, model).
pub trait LearnedFacts: Send + Sync {
    /// The decision saved for `model` at `base_url`, the user's or Warden's.
    fn tools(&self, base_url: &str, model: &str) -> Option<ToolsDecision>;
    /// Keep Warden's decision, unless the user has decided for this model.
    fn remember_tools(&self, base_url: &str, model: &str, decision: ToolsDecision);
    /// The window the server revealed (a request overflowed it), for the next sessions.
    fn remember_context_window(&self, base_url: &str, model: &str, window: u32);
    /// The window learned earlier, if any.
    fn context_window(&self, base_url: &str, model: &str) -> Option<u32>;
}

/// A [`LearnedFacts`] and the base URL it is asked about: what a provider and a session hold.
#[derive(Clone)]
pub struct LearnedAt {
    pub store: Arc<dyn LearnedFacts>,
    pub base_url: String,
}

impl LearnedAt {
    pub fn tools(&self, model: &str) -> Option<ToolsDecision> {
        self.store.tools(&self.base_url, model)
    }

    pub fn remember_tools(&self, model: &str, decision: ToolsDecision) {
        self.store.remember_tools(&self.base_url, model, decision);
    }

    pub fn remember_context_window(&self, model: &str, window: u32) {
        self.store.remember_context_window(&self.base_url, model, window);
    }

    pub fn context_window(&self, model: &str) -> Option<u32> {
        self.store.context_window(&self.base_url, model)
    }
}

impl std::fmt::Debug for LearnedAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LearnedAt").field("base_url", &self.base_url).finish_non_exhaustive()
    }
}

/// Whether `base_url` names this machine or a private network (a server the user runs), where a
/// one-time probe costs nothing but a little local compute. A host name other than `localhost`
/// is never taken as private: a name may lead to a paid API.
pub fn is_local_or_private(base_url: &str) -> bool {
    let Ok(url) = url::Url::parse(base_url) else { return false };
    match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback() || ip.is_private() || ip.is_link_local(),
        Some(url::Host::Ipv6(ip)) => {
            let unique_local = (ip.segments()[0] & 0xfe00) == 0xfc00;
            let link_local = (ip.segments()[0] & 0xffc0) == 0xfe80;
            ip.is_loopback() || unique_local || link_local
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_local_or_private;

    #[test]
    fn only_this_machine_and_private_networks_are_probed() {
        for local in [
            "http://127.0.0.1:8080/v1",
            "http://localhost:1234/v1",
            "http://LOCALHOST/v1",
            "http://[::1]:8000/v1",
            "http://10.0.0.5:8000/v1",
            "http://172.16.3.4/v1",
            "http://192.168.1.20:11434",
            "http://[fd12:3456::1]/v1",
        ] {
            assert!(is_local_or_private(local), "{local}");
        }
        for remote in [
            "https://api.openai.com/v1",
            "https://openrouter.ai/api/v1",
            "http://localhost.example.com/v1",
            "http://8.8.8.8/v1",
            "http://172.32.0.1/v1",
            "not a url",
        ] {
            assert!(!is_local_or_private(remote), "{remote}");
        }
    }
}
