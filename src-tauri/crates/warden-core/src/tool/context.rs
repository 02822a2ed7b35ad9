//! What a tool runs with: the sandbox, cancellation, where streamed output goes, the session's
//! background processes, and the tools' configuration.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use warden_protocol::OutputStream;

use super::background::BackgroundProcesses;
use super::cap::DEFAULT_MODEL_OUTPUT_CAP;
use crate::containment::BoxPolicy;
use crate::sandbox::Workspace;
use crate::secrets::ApiKey;

/// Settings of the core tools. `Default` is what the product uses unless the settings say otherwise.
#[derive(Debug, Clone)]
pub struct ToolsConfig {
    /// Timeout of a `bash` call that names none (60 s, docs/ARCHITECTURE.md §5).
    pub bash_default_timeout: Duration,
    /// The most a `bash` call may ask for with `timeout`.
    pub bash_max_timeout: Duration,
    /// Timeout of every other tool (a scope's `timeouts_secs` overrides both).
    pub default_tool_timeout: Duration,
    /// What one result may put into the model's context (head and tail kept beyond it).
    pub model_output_cap: usize,
    /// How much a foreground command's output Warden keeps (head + tail), whatever it prints.
    pub bash_buffer_bytes: usize,
    /// How much of a background command's most recent output is kept for `command_output`.
    pub background_buffer_bytes: usize,
    /// How much streamed output one call sends to the UI before it only notes what it dropped.
    pub stream_cap_bytes: usize,
    /// `file_read` without `max_bytes` reads at most this much.
    pub file_read_default_bytes: usize,
    /// Files larger than this are not loaded by `file_edit` / `apply_patch` / `file_write` previews.
    pub max_edit_file_bytes: u64,
    /// SearXNG base URL (its JSON API must be enabled: `search.formats: [html, json]`).
    pub searxng_url: String,
    /// Brave Search key; when set, Brave is the fallback when SearXNG fails.
    pub brave_api_key: Option<ApiKey>,
    /// Brave Search base URL (tests point it at a loopback server).
    pub brave_base_url: String,
    pub web_timeout: Duration,
}

impl Default for ToolsConfig {
    fn default() -> Self {
        Self {
            bash_default_timeout: Duration::from_secs(60),
            bash_max_timeout: Duration::from_secs(600),
            default_tool_timeout: Duration::from_secs(120),
            model_output_cap: DEFAULT_MODEL_OUTPUT_CAP,
            bash_buffer_bytes: DEFAULT_MODEL_OUTPUT_CAP,
            background_buffer_bytes: 1024 * 1024,
            stream_cap_bytes: 16 * 1024 * 1024,
            file_read_default_bytes: DEFAULT_MODEL_OUTPUT_CAP,
            max_edit_file_bytes: 16 * 1024 * 1024,
            searxng_url: "http://localhost:8080".to_owned(),
            brave_api_key: None,
            brave_base_url: "https://api.search.brave.com".to_owned(),
            web_timeout: Duration::from_secs(20),
        }
    }
}

/// Where a tool's streamed output goes (`chat:tool-delta`). Cheap to clone; a no-op when nobody
/// listens. Past its byte cap it sends one notice and then drops, so a command printing gigabytes
/// cannot flood the UI.
#[derive(Clone, Default)]
pub struct OutputSink {
    inner: Option<Arc<SinkInner>>,
}

struct SinkInner {
    tx: mpsc::UnboundedSender<(OutputStream, String)>,
    sent: AtomicUsize,
    cap: usize,
}

impl std::fmt::Debug for OutputSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutputSink").field("listening", &self.inner.is_some()).finish()
    }
}

impl OutputSink {
    /// A sink that drops everything.
    pub fn none() -> Self {
        Self::default()
    }

    /// A sink forwarding to `tx`, at most `cap_bytes` in all.
    pub fn from_sender(tx: mpsc::UnboundedSender<(OutputStream, String)>, cap_bytes: usize) -> Self {
        Self { inner: Some(Arc::new(SinkInner { tx, sent: AtomicUsize::new(0), cap: cap_bytes })) }
    }

    /// A sink and the receiver of what it forwards.
    pub fn channel(cap_bytes: usize) -> (Self, mpsc::UnboundedReceiver<(OutputStream, String)>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Self::from_sender(tx, cap_bytes), rx)
    }

    pub fn is_listening(&self) -> bool {
        self.inner.as_ref().is_some_and(|i| !i.tx.is_closed())
    }

    pub fn send(&self, stream: OutputStream, chunk: String) {
        let Some(inner) = &self.inner else { return };
        if chunk.is_empty() {
            return;
        }
        let before = inner.sent.fetch_add(chunk.len(), Ordering::Relaxed);
        if before + chunk.len() <= inner.cap {
            let _ = inner.tx.send((stream, chunk));
        } else if before <= inner.cap {
            let _ = inner.tx.send((
                OutputStream::Stderr,
                format!(
                    "\n[warden: streamed output reached {} bytes; the rest is not streamed]\n",
                    inner.cap
                ),
            ));
        }
    }
}

/// Everything a tool call runs with.
#[derive(Clone)]
pub struct ToolContext {
    pub workspace: Arc<Workspace>,
    pub cancel: CancellationToken,
    pub output: OutputSink,
    pub processes: Arc<BackgroundProcesses>,
    pub config: Arc<ToolsConfig>,
    /// The OS box commands run in; `None` runs them as the user (no mechanism on this machine, or
    /// a context built for a test of the tool itself).
    pub commands_box: Option<Arc<BoxPolicy>>,
}

impl ToolContext {
    /// A context with a fresh cancellation token, no output listener and an empty process table.
    pub fn new(workspace: Arc<Workspace>, config: Arc<ToolsConfig>) -> Self {
        Self {
            workspace,
            cancel: CancellationToken::new(),
            output: OutputSink::none(),
            processes: Arc::new(BackgroundProcesses::new()),
            config,
            commands_box: None,
        }
    }

    /// Run the call's commands in `policy`'s box.
    pub fn with_commands_box(mut self, policy: Option<Arc<BoxPolicy>>) -> Self {
        self.commands_box = policy;
        self
    }

    pub fn with_output(mut self, output: OutputSink) -> Self {
        self.output = output;
        self
    }

    pub fn with_cancel(mut self, cancel: CancellationToken) -> Self {
        self.cancel = cancel;
        self
    }

    /// Share a session's background processes (they die when the last `Arc` is dropped).
    pub fn with_processes(mut self, processes: Arc<BackgroundProcesses>) -> Self {
        self.processes = processes;
        self
    }
}
