//! What an MCP server of a remote session asks the user — a form, the use of the model, a host no
//! rule names — put to the window at the other end of the link: the question goes out numbered
//! with the session's events (a link that drops gets it again when it attaches), and the answer
//! comes back as a request. Nobody answering within [`ASK_WAIT`] dismisses it, as in the window.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use tokio::sync::oneshot;
use warden_protocol::{McpElicit, McpElicitAnswer};

use super::live::Live;
use super::lock;
use crate::mcp::{AskUser, Elicitation, ASK_WAIT};

/// The questions of every session here that wait for their answer, by request id.
#[derive(Default)]
pub struct Waiting(Mutex<HashMap<String, oneshot::Sender<McpElicitAnswer>>>);

impl Waiting {
    /// The answer to question `request_id`; `false` when none of that id waits (answered, or
    /// given up).
    pub fn answer(&self, request_id: &str, answer: McpElicitAnswer) -> bool {
        let waiting = lock(&self.0).remove(request_id);
        waiting.is_some_and(|waiting| waiting.send(answer).is_ok())
    }
}

/// The asker of one session's engine: its questions go to the link the session is attached to.
pub struct LinkAsker {
    waiting: Arc<Waiting>,
    /// The session, once it is held (its engine is made, and may start servers, before).
    live: OnceLock<Weak<Live>>,
}

impl LinkAsker {
    pub fn new(waiting: Arc<Waiting>) -> Self {
        Self { waiting, live: OnceLock::new() }
    }

    /// The session's questions go out with its frames from now on.
    pub fn bind(&self, live: &Arc<Live>) {
        let _ = self.live.set(Arc::downgrade(live));
    }
}

#[async_trait::async_trait]
impl AskUser for LinkAsker {
    async fn ask(&self, mut ask: McpElicit) -> Elicitation {
        let Some(live) = self.live.get().and_then(Weak::upgrade) else { return Elicitation::Cancel };
        let id = uuid::Uuid::new_v4().to_string();
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting.0).insert(id.clone(), tx);
        ask.request_id = id.clone();
        live.push_ask(ask);
        // The session is not held while the user thinks: one that ends meanwhile goes.
        drop(live);
        let answer = tokio::time::timeout(ASK_WAIT, rx).await;
        lock(&self.waiting.0).remove(&id);
        match answer {
            Ok(Ok(answer)) => answer.into(),
            _ => Elicitation::Cancel,
        }
    }
}
