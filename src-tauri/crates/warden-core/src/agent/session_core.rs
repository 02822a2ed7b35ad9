//! What a session holds for the life of a conversation, shared by its handle ([`super::Session`])
//! and its running turn: the fixed configuration, the provider, the tool runner, the history and
//! its compaction, the store it is saved in.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use warden_protocol::{ContentBlock, Message, Role, ToolDefinition, TrustLevel};

use super::compaction::{self, Compacted, CompactionError, CompactionReport};
use super::events::EventEmitter;
use super::saving::Saver;
use super::tool_runner::ToolRunner;
use super::tool_source::ToolSource;
use crate::provider::{Provider, ThinkingConfig};
use crate::scope::Scope;

/// Everything fixed for the life of a session.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    pub conversation_id: String,
    pub model: String,
    pub system_prompt: Option<String>,
    pub trust: TrustLevel,
    pub scope: Scope,
    /// `None`: a confirmation waits until it is answered or the turn is stopped.
    pub approval_timeout: Option<Duration>,
    /// Provider calls per user message.
    pub max_turns: u32,
    /// The model's context window in tokens; `None` while nobody has said (a local server that
    /// does not report it): then it is learned from the server's answer to a request that
    /// overflowed it.
    pub context_window: Option<u32>,
    /// Share of the context window after which the loop asks for a final answer.
    pub budget_threshold: f32,
    pub max_tokens: u32,
    pub thinking: Option<ThinkingConfig>,
    /// Safe calls of one message that may run at once.
    pub max_parallel: usize,
    /// How long one provider call may take from request to last byte.
    pub iteration_timeout: Duration,
    /// Where each message is saved as it completes; `None` keeps the conversation in memory only.
    pub store: Option<Arc<crate::conversations::ConversationStore>>,
    /// Why the conversation is not saved although it was to be (the store could not be opened):
    /// the face is told when the session starts (`chat:saving`).
    pub not_saved: Option<String>,
    /// Whether the model reads images; when not, it is sent a note in place of each.
    pub takes_images: bool,
    /// The project folder, recorded with the conversation so the list can show it.
    pub project_root: Option<std::path::PathBuf>,
    /// Where a context window learned from an overflow is kept for the next sessions.
    pub learned: Option<crate::provider::LearnedAt>,
    /// The custom commands and skills a message typed as `/name` invokes.
    pub conventions: Arc<crate::conventions::Conventions>,
}

impl SessionConfig {
    pub fn new(conversation_id: impl Into<String>, model: impl Into<String>) -> Self {
        let model = model.into();
        Self {
            conversation_id: conversation_id.into(),
            context_window: super::budget::known_context_window(&model),
            model,
            system_prompt: None,
            trust: TrustLevel::Guided,
            scope: Scope::read_only(),
            approval_timeout: Some(Duration::from_secs(30)),
            max_turns: 200,
            budget_threshold: super::budget::DEFAULT_THRESHOLD,
            max_tokens: 8192,
            thinking: None,
            max_parallel: 4,
            iteration_timeout: Duration::from_secs(600),
            store: None,
            not_saved: None,
            takes_images: true,
            project_root: None,
            learned: None,
            conventions: Arc::default(),
        }
    }
}

/// State shared by the session handle and its running turn.
pub(crate) struct SessionCore {
    pub config: SessionConfig,
    pub provider: Arc<dyn Provider>,
    /// Every tool call of the session goes through it.
    pub runner: ToolRunner,
    /// Where tools that change mid-conversation come from (its MCP servers), if it has any.
    pub(super) tool_source: std::sync::OnceLock<Arc<dyn ToolSource>>,
    pub events: EventEmitter,
    pub(super) history: Mutex<Vec<Message>>,
    /// Saves the history in the conversation store, when the session has one.
    pub(super) saver: Option<Saver>,
    /// The summary the model is sent instead of the history's older part, once compacted.
    pub(super) compacted: Mutex<Option<Compacted>>,
    /// The context window the server revealed when a request overflowed it (the config had none,
    /// or a wrong one).
    pub(super) learned_window: Mutex<Option<u32>>,
    /// The running turn's cancel token.
    pub(super) running: Mutex<Option<CancellationToken>>,
    /// Held while a turn runs and while its end is recorded (the checkpoint, the saved history):
    /// the next turn, which may be sent as soon as the last event is out, starts after that.
    pub(super) finishing: tokio::sync::Mutex<()>,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl SessionCore {
    pub fn history(&self) -> Vec<Message> {
        lock(&self.history).clone()
    }

    /// The context window budgeted with: the one learned from an overflow, else the config's.
    pub fn context_window(&self) -> Option<u32> {
        (*lock(&self.learned_window)).or(self.config.context_window)
    }

    /// The server showed the window (a request overflowed it): use it from now on, and keep it
    /// for the next sessions of this model.
    pub fn learn_context_window(&self, window: u32) {
        *lock(&self.learned_window) = Some(window);
        if let Some(learned) = &self.config.learned {
            learned.remember_context_window(&self.config.model, window);
        }
    }

    /// Append a message and save it; consecutive user messages merge into one turn (providers
    /// want turns to alternate).
    pub fn push_history(&self, message: Message) {
        let changed = {
            let mut history = lock(&self.history);
            match history.last_mut() {
                Some(last) if last.role == Role::User && message.role == Role::User => {
                    last.content.extend(message.content)
                }
                _ => history.push(message),
            }
            history.len() - 1
        };
        // A few hundred microseconds: done in line, so messages are saved in their order. A
        // failure is told to the face and the conversation goes on in memory.
        if let Some(saver) = &self.saver {
            saver.save(&self.history, changed, &self.events);
        }
    }

    /// What the model is sent: the history, its older part replaced by the summary once compacted,
    /// a note in place of each block a newer Warden wrote.
    pub fn model_view(&self) -> Vec<Message> {
        let view = {
            let history = lock(&self.history);
            super::newer::noted(compaction::model_view(&history, lock(&self.compacted).as_ref()))
        };
        if self.config.takes_images {
            view
        } else {
            crate::images::without_images(view)
        }
    }

    pub fn compacted(&self) -> Option<Compacted> {
        lock(&self.compacted).clone()
    }

    /// Records a compaction: the model is sent its summary from now on, and the store keeps it so
    /// a resumed conversation does the same.
    pub fn set_compacted(&self, compacted: Compacted, report: CompactionReport) {
        if let Some(saver) = &self.saver {
            let record = crate::conversations::Compaction {
                upto_seq: compacted.upto,
                trimmed_upto_seq: compacted.trimmed_upto,
                summary: compacted.summary.clone(),
                tokens_before: report.tokens_before,
                tokens_after: report.tokens_after,
            };
            saver.save_compaction(record, &self.events);
        }
        *lock(&self.compacted) = Some(compacted);
    }

    /// Keep what a cut-short message said, when it said anything.
    /// Append an answer with what it cost (kept with it, for the gauge of the reopened
    /// conversation).
    pub fn push_answer(&self, message: Message, counted: super::events::Counted) {
        self.push_history(message);
        let seq = lock(&self.history).len().saturating_sub(1);
        if let Some(saver) = &self.saver {
            saver.count(seq, counted, &self.events);
        }
    }

    pub fn push_partial(&self, partial: Message) {
        if partial.content.iter().any(|b| matches!(b, ContentBlock::Text { text } if !text.is_empty())) {
            self.push_history(partial);
        }
    }

    pub fn tool_definitions(&self) -> Vec<ToolDefinition> {
        self.runner.definitions()
    }

    /// Take up the tools' changes since the last request to the model, if any.
    pub async fn refresh_tools(&self) {
        let Some(source) = self.tool_source.get() else { return };
        if let Some((tools, scope)) = source.changed().await {
            self.runner.offer(tools, scope);
        }
    }

    /// Make room in what the model is sent ([`compaction::compact`]), and record what it decided:
    /// in the session and the store, and, for a summary, with `chat:compacted`.
    pub async fn compact(
        &self,
        tokens_in_use: Option<u32>,
        manual: bool,
        cancel: &CancellationToken,
    ) -> Result<CompactionReport, CompactionError> {
        let history = self.history();
        let previous = self.compacted();
        let conversation = compaction::Conversation {
            history: &history,
            previous: previous.as_ref(),
            context_window: self.context_window(),
            budget_threshold: self.config.budget_threshold,
            model: &self.config.model,
            max_tokens: self.config.max_tokens,
            timeout: self.config.iteration_timeout,
            provider: self.provider.as_ref(),
        };
        let (compacted, report) = compaction::compact(conversation, tokens_in_use, manual, cancel).await?;
        self.set_compacted(compacted, report);
        if report.summarized {
            self.events.compacted(
                report.summarized_messages,
                report.tokens_before,
                report.tokens_after,
                manual,
            );
        }
        Ok(report)
    }
}
