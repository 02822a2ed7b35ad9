//! Which provider to talk to, and building it from settings.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use super::anthropic::AnthropicProvider;
use super::learned::LearnedAt;
use super::ollama::OllamaProvider;
use super::openai::OpenAiProvider;
use super::retry::RetryPolicy;
use super::text_protocol::TextToolProtocol;
use super::tool_fallback::ToolFallback;
use super::transport::Transport;
use super::Provider;
use crate::secrets::ApiKey;

/// How long a stream may stay silent before it is given up.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// The wire protocol to speak. OpenAI-compatible servers (vLLM, LM Studio, llama.cpp, OpenRouter,
/// Groq, …) are `OpenAi` with their base URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProviderKind {
    Anthropic,
    OpenAi,
    Ollama,
}

impl ProviderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::OpenAi => "openai",
            Self::Ollama => "ollama",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            Self::Anthropic => super::anthropic::DEFAULT_BASE_URL,
            Self::OpenAi => super::openai::DEFAULT_BASE_URL,
            Self::Ollama => super::ollama::DEFAULT_BASE_URL,
        }
    }
}

impl FromStr for ProviderKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "anthropic" => Ok(Self::Anthropic),
            "openai" => Ok(Self::OpenAi),
            "ollama" => Ok(Self::Ollama),
            other => Err(format!("unknown provider `{other}` (expected anthropic, openai or ollama)")),
        }
    }
}

impl std::fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything needed to build a provider.
#[derive(Debug, Clone)]
pub struct ProviderOptions {
    /// `None` means the kind's default (`ProviderKind::default_base_url`).
    pub base_url: Option<String>,
    /// Required for Anthropic and api.openai.com; optional for local servers.
    pub api_key: Option<ApiKey>,
    /// `false` wraps the provider in the text tool protocol (```` ```tool ```` blocks in the prompt).
    /// `true` uses native tools where the model takes them and falls back to the text protocol on
    /// its own where it does not (see [`ToolFallback`]).
    pub native_tools: bool,
    /// A stream silent for this long ends with `ErrorCategory::IdleTimeout`.
    pub idle_timeout: Duration,
    pub retry: RetryPolicy,
    /// Where what is found out about the server's models is kept between sessions (how tools
    /// reach them); with it, a local server may be probed once ([`ToolFallback`]).
    pub learned: Option<LearnedAt>,
}

impl Default for ProviderOptions {
    fn default() -> Self {
        Self {
            base_url: None,
            api_key: None,
            native_tools: true,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            retry: RetryPolicy::default(),
            learned: None,
        }
    }
}

impl ProviderOptions {
    pub(crate) fn transport(&self, label: &str) -> Transport {
        Transport {
            label: label.to_owned(),
            key: self.api_key.clone(),
            idle_timeout: self.idle_timeout,
            retry: self.retry.clone(),
        }
    }
}

/// Build the provider for `kind`. With `native_tools: false` the result describes tools in the
/// system prompt and parses ```` ```tool ```` blocks out of the answer. With `native_tools: true`,
/// Ollama and OpenAI-compatible servers do the same on their own for a model that has no native
/// tool calling ([`ToolFallback`]); Anthropic's models all have it.
pub fn build_provider(kind: ProviderKind, settings: ProviderOptions) -> Arc<dyn Provider> {
    let inner: Arc<dyn Provider> = match kind {
        ProviderKind::Anthropic => Arc::new(AnthropicProvider::new(&settings)),
        ProviderKind::OpenAi => Arc::new(OpenAiProvider::new(&settings)),
        ProviderKind::Ollama => Arc::new(OllamaProvider::new(&settings)),
    };
    match (settings.native_tools, kind) {
        (false, _) => Arc::new(TextToolProtocol::new(inner)),
        (true, ProviderKind::Anthropic) => inner,
        (true, ProviderKind::OpenAi | ProviderKind::Ollama) => {
            Arc::new(ToolFallback::with_learned(inner, settings.learned))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_and_print() {
        for kind in [ProviderKind::Anthropic, ProviderKind::OpenAi, ProviderKind::Ollama] {
            assert_eq!(kind.as_str().parse::<ProviderKind>(), Ok(kind));
        }
        assert_eq!(" OpenAI ".parse::<ProviderKind>(), Ok(ProviderKind::OpenAi));
        assert!("gemini".parse::<ProviderKind>().is_err());
    }

    #[test]
    fn native_tools_off_wraps_in_the_text_protocol() {
        let settings = ProviderOptions { native_tools: false, ..ProviderOptions::default() };
        assert_eq!(build_provider(ProviderKind::Ollama, settings).name(), "ollama");
        assert_eq!(build_provider(ProviderKind::Anthropic, ProviderOptions::default()).name(), "anthropic");
    }
}
