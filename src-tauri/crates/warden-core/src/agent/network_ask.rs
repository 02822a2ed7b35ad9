//! The session's questions about the network: when a boxed command of a project whose network is
//! `rules` wants a host no rule names, the proxy holds the connection and asks here; this emits a
//! confirmation of `kind: "network"` (its own confirmId, the host and port, and the call that was
//! running) and waits for the answer as long as any approval waits. "Always for this project"
//! saves an allow rule through the engine's settings ([`SaveRule`]) — also when the answer comes
//! after the command gave up, so the next run finds it allowed.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use warden_protocol::{ConfirmKind, DangerLevel, NetworkRequest, Remember, ToolConfirm};

use super::approvals::{new_confirm_id, ApprovalOutcome, ApprovalRouter};
use super::events::EventEmitter;
use crate::containment::net::ask::{cannot_wait_here, wait_on};
use crate::containment::net::{Answer, Asker, HostRule, Question, Reach, SharedNet};

/// Saves an allow rule (a host pattern, `host:port`) for the session's project.
#[derive(Clone)]
pub struct SaveRule(pub Arc<SaveFn>);

/// What [`SaveRule`] calls: the pattern in, whether it was saved (or why not) out.
pub type SaveFn = dyn Fn(&str) -> Result<(), String> + Send + Sync;

impl std::fmt::Debug for SaveRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SaveRule")
    }
}

/// The call running when a question comes, which the question names.
#[derive(Debug, Clone)]
pub(crate) struct RunningCall {
    pub message_id: String,
    pub tool_id: String,
    pub tool_name: String,
    pub input: serde_json::Value,
    /// The turn's: a cancelled turn answers no question.
    pub cancel: CancellationToken,
}

pub(crate) struct NetworkQuestions {
    events: EventEmitter,
    approvals: Arc<ApprovalRouter>,
    timeout: Option<Duration>,
    runtime: tokio::runtime::Handle,
    running: Mutex<Option<RunningCall>>,
    /// The question open now, with the call it was asked for (its tool id; empty for none).
    open: Mutex<Option<(String, Question)>>,
    save: Option<SaveRule>,
}

impl NetworkQuestions {
    pub(crate) fn new(
        events: EventEmitter,
        approvals: Arc<ApprovalRouter>,
        timeout: Option<Duration>,
        runtime: tokio::runtime::Handle,
        save: Option<SaveRule>,
    ) -> Self {
        Self { events, approvals, timeout, runtime, running: Mutex::new(None), open: Mutex::new(None), save }
    }

    /// The call whose command may ask from now on (`None` when it has ended).
    fn set_running(&self, call: Option<RunningCall>) {
        *self.running.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = call;
    }

    /// `call` runs from now on; the questions it asks name it until the returned guard is dropped.
    pub(crate) fn call_started(self: &Arc<Self>, call: RunningCall, shared: Option<SharedNet>) -> CallEnded {
        let tool_id = call.tool_id.clone();
        self.set_running(Some(call));
        CallEnded { questions: Arc::clone(self), shared, tool_id }
    }

    /// The question still open for the call `tool_id`: its command ended while the user was asked.
    fn still_asked(&self, tool_id: &str) -> Option<Question> {
        let open = self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        open.as_ref().filter(|(asked_for, _)| asked_for == tool_id).map(|(_, question)| question.clone())
    }

    fn confirm(&self, confirm_id: &str, question: &Question, call: Option<&RunningCall>) -> ToolConfirm {
        let reach = (question.reach != Reach::Public).then(|| question.reach.describe().to_owned());
        let target = format!("{}:{}", question.host, question.port);
        let who = match call {
            Some(call) => format!("A command of this session (`{}`)", call.tool_name),
            None => "A process of this session's sandbox".to_owned(),
        };
        ToolConfirm {
            conversation_id: String::new(),
            confirm_id: confirm_id.to_owned(),
            message_id: call.map(|c| c.message_id.clone()).unwrap_or_default(),
            tool_id: call.map(|c| c.tool_id.clone()).unwrap_or_default(),
            tool_name: call.map_or_else(|| "network".to_owned(), |c| c.tool_name.clone()),
            mcp: None,
            input: call
                .map_or_else(|| json!({"host": question.host, "port": question.port}), |c| c.input.clone()),
            danger_level: DangerLevel::Dangerous,
            preview: None,
            timeout_secs: self.timeout.map_or(0, |t| u32::try_from(t.as_secs()).unwrap_or(u32::MAX).max(1)),
            reason: Some(format!(
                "{who} wants to reach {target}{}, which no rule allows.",
                reach.as_deref().map(|r| format!(" ({r})")).unwrap_or_default()
            )),
            queue: None,
            kind: ConfirmKind::Network,
            network: Some(NetworkRequest { host: question.host.clone(), port: question.port, reach }),
            asked_because: Some(warden_protocol::AskStep::NoRule),
            rule: None,
            suggested_rule: None,
        }
    }
}

/// When a call ends (however it ends, a dropped future included): its network questions are
/// over and the hosts allowed once for it are asked about again.
pub(crate) struct CallEnded {
    questions: Arc<NetworkQuestions>,
    shared: Option<SharedNet>,
    tool_id: String,
}

impl CallEnded {
    /// The question the call's command left open by ending before the user answered.
    pub(crate) fn left_asking(&self) -> Option<Question> {
        self.questions.still_asked(&self.tool_id)
    }
}

impl Drop for CallEnded {
    fn drop(&mut self) {
        self.questions.set_running(None);
        if let Some(shared) = &self.shared {
            shared.call_ended();
        }
    }
}

impl Asker for NetworkQuestions {
    fn ask(&self, question: &Question) -> Answer {
        if let Some(not_here) = cannot_wait_here() {
            return not_here;
        }
        let call = self.running.lock().ok().and_then(|running| running.clone());
        let confirm_id = new_confirm_id();
        let rx = self.approvals.register(&confirm_id);
        self.events.tool_confirm(self.confirm(&confirm_id, question, call.as_ref()));
        let asked_for = call.as_ref().map(|c| c.tool_id.clone()).unwrap_or_default();
        *self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some((asked_for, question.clone()));
        let cancel = call.map(|c| c.cancel).unwrap_or_default();
        let (approvals, timeout) = (Arc::clone(&self.approvals), self.timeout);
        let outcome =
            wait_on(&self.runtime, async move { approvals.wait(&confirm_id, rx, timeout, &cancel).await });
        *self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        let Some(outcome) = outcome else {
            return Answer::Unanswered("Warden stopped before the answer".to_owned());
        };
        match outcome {
            ApprovalOutcome::Answered(answer) if answer.approved => {
                if !matches!(answer.remember, Some(Remember::Project | Remember::Always)) {
                    return Answer::Once;
                }
                let pattern = HostRule::exact(&question.host, question.port).to_string();
                match self.save.as_ref().map(|save| (save.0)(&pattern)) {
                    Some(Ok(())) => Answer::Always,
                    Some(Err(error)) => {
                        tracing::warn!(%error, pattern, "the network rule could not be saved; allowed for this session");
                        Answer::Always
                    }
                    None => Answer::Always,
                }
            }
            ApprovalOutcome::Answered(_) => Answer::Deny,
            ApprovalOutcome::TimedOut => Answer::Unanswered(format!(
                "nobody answered within {} s",
                self.timeout.map_or(0, |t| t.as_secs())
            )),
            ApprovalOutcome::Cancelled => Answer::Unanswered("the turn was cancelled".to_owned()),
        }
    }
}

/// The hosts the session's proxy refused while a call ran, said to the model and, with the ones
/// it reached, listed for the tool block (`network`: host, port, and why not when refused).
/// The host `left` is the one the call's command was still waiting for when it ended: the block
/// says it gave up while the user was asked (an answer given now still counts).
pub(crate) fn network_decisions(
    decisions: &[crate::containment::net::Decision],
    left: Option<&Question>,
    output: &mut crate::tool::ToolOutput,
) {
    let gave_up = left.map(|question| crate::containment::net::Decision {
        host: question.host.clone(),
        port: question.port,
        outcome: Err(GAVE_UP.to_owned()),
    });
    let decisions: Vec<crate::containment::net::Decision> =
        decisions.iter().cloned().chain(gave_up).collect();
    if decisions.is_empty() {
        return;
    }
    // One line per host and port, its last outcome.
    let mut seen: Vec<&crate::containment::net::Decision> = Vec::new();
    for decision in decisions.iter().rev() {
        if !seen.iter().any(|d| d.host == decision.host && d.port == decision.port) {
            seen.push(decision);
        }
    }
    seen.reverse();
    seen.truncate(MAX_NETWORK_LINES);
    let refused: Vec<String> = seen
        .iter()
        .filter_map(|d| {
            let why = d.outcome.as_ref().err()?;
            // The model is told in its own terms: the user is the one being asked.
            let why = if why == GAVE_UP { GAVE_UP_FOR_THE_MODEL } else { why.as_str() };
            Some(format!("{}:{} ({why})", d.host, d.port))
        })
        .collect();
    if !refused.is_empty() {
        output.content.push_str(&format!("\n[the sandbox's network refused: {}]", refused.join("; ")));
    }
    output.report.network = seen
        .iter()
        .map(|d| warden_protocol::HostReached {
            host: d.host.clone(),
            port: d.port,
            allowed: d.outcome.is_ok(),
            why: d.outcome.as_ref().err().cloned(),
        })
        .collect();
}

/// Why a host the command ended waiting for was not reached.
const GAVE_UP: &str = "the command gave up while you were asked — run it again (your answer still counts)";

/// The same, in the result the model reads.
const GAVE_UP_FOR_THE_MODEL: &str =
    "the command ended while the user was being asked about this host; if they allow it, run the command again";

/// At most this many hosts are listed on a call's block.
const MAX_NETWORK_LINES: usize = 20;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::containment::net::Reach;

    /// Warden closing with a question open (the runtime shuts down): the proxy's thread that asked
    /// hears "unanswered", and nothing panics in a timer the runtime no longer drives.
    #[test]
    fn a_question_open_when_warden_closes_ends_unanswered() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let questions = Arc::new(NetworkQuestions::new(
            EventEmitter::new("c".to_owned(), tx),
            Arc::new(ApprovalRouter::new()),
            Some(Duration::from_secs(60)),
            runtime.handle().clone(),
            None,
        ));
        let asking = Arc::clone(&questions);
        let asker = std::thread::spawn(move || {
            asking.ask(&Question { host: "example.org".to_owned(), port: 443, reach: Reach::Public })
        });
        // Asked, then Warden closes before anyone answers.
        assert!(runtime.block_on(rx.recv()).is_some(), "the question reached the window");
        runtime.shutdown_timeout(Duration::from_secs(5));
        let answer = asker.join().unwrap_or_else(|_| panic!("the asking thread panicked"));
        assert_eq!(answer, Answer::Unanswered("Warden stopped before the answer".to_owned()));
    }
}
