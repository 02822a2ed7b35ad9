//! What ssh asks while it connects to a remote project (a host key it does not know, with its
//! fingerprint; a key's passphrase; a password), asked in the window: the question goes out as
//! the `remote:askpass` event, the window shows it, and `remote_askpass_answer` brings the answer
//! back to ssh through Warden's own `SSH_ASKPASS` (`warden_core::remote::askpass`). A question
//! nobody answers in time is withdrawn (the event again, `open: false`) and ssh takes it as "no".

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use specta::Type;
use tokio::sync::oneshot;
use warden_core::remote::askpass::{Ask, Prompt, PromptKind, ANSWER_WITHIN};

/// `remote:askpass`: ssh asks the user something while it connects to `host`, or (`open: false`)
/// the question is withdrawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, tauri_specta::Event)]
#[serde(rename_all = "camelCase")]
#[tauri_specta(event_name = "remote:askpass")]
pub struct RemoteAskpassEvent {
    pub id: String,
    pub host: String,
    /// ssh's own words (a host key's question holds its fingerprint).
    pub prompt: String,
    /// `hostKey` (accept a key ssh does not know), `confirm` (yes or no), `secret` (typed hidden).
    pub kind: String,
    pub open: bool,
}

type Emit = Box<dyn Fn(RemoteAskpassEvent) + Send + Sync>;

/// The questions waiting for the user.
#[derive(Default)]
pub struct WindowAskpass {
    emit: OnceLock<Emit>,
    pending: Mutex<HashMap<String, oneshot::Sender<Option<String>>>>,
}

impl WindowAskpass {
    /// Where questions go (the window's event, once it exists).
    pub fn connect(&self, emit: impl Fn(RemoteAskpassEvent) + Send + Sync + 'static) {
        let _ = self.emit.set(Box::new(emit));
    }

    /// The user's answer to question `id` (`None`: refused); `false` when none of that id waits.
    pub fn answer(&self, id: &str, answer: Option<String>) -> bool {
        let waiting = self.pending.lock().ok().and_then(|mut pending| pending.remove(id));
        waiting.is_some_and(|waiting| waiting.send(answer).is_ok())
    }

    /// How ssh's questions for `host` are asked.
    pub fn asker(self: &Arc<Self>, host: &str) -> Ask {
        let this = self.clone();
        let host = host.to_owned();
        Arc::new(move |prompt: Prompt| {
            let (this, host) = (this.clone(), host.clone());
            Box::pin(async move { this.ask(&host, prompt).await })
        })
    }

    async fn ask(&self, host: &str, prompt: Prompt) -> Option<String> {
        let emit = self.emit.get()?;
        let id = uuid::Uuid::new_v4().to_string();
        let (tx, rx) = oneshot::channel();
        self.pending.lock().ok()?.insert(id.clone(), tx);
        let kind = match prompt.kind {
            PromptKind::HostKey => "hostKey",
            PromptKind::Confirm => "confirm",
            PromptKind::Secret => "secret",
        };
        let event = |open| RemoteAskpassEvent {
            id: id.clone(),
            host: host.to_owned(),
            prompt: prompt.text.clone(),
            kind: kind.to_owned(),
            open,
        };
        emit(event(true));
        // A little sooner than the askpass gives up, so the window is told.
        let within = ANSWER_WITHIN.saturating_sub(std::time::Duration::from_secs(5));
        let answer = tokio::time::timeout(within, rx).await;
        if let Ok(mut pending) = self.pending.lock() {
            pending.remove(&id);
        }
        match answer {
            Ok(Ok(answer)) => answer,
            _ => {
                emit(event(false));
                None
            }
        }
    }
}
