//! `warden exec`: one message through the whole loop, events on stdout, approvals on stdin
//! (`--json`) or on the terminal (without it).
//!
//! Exit status (every status: [`crate::exit`]): 0 the turn ended normally; 1 it ended in an error
//! (provider, sandbox violation, budget, turn limit), or the conversation to continue cannot be
//! read whole (it is left as it is); 2 usage error (and a `--resume` id that names no
//! conversation); 130 / 143 / 129 interrupted (SIGINT / SIGTERM / SIGHUP), after stopping running
//! tools and killing every process they started.

use std::collections::BTreeMap;

use warden_core::agent::{Session, TurnEnd};
use warden_core::engine::{ConversationError, Engine, SetupError};
use warden_protocol::{ChatError, Event, Remember, ToolApproval};

use crate::approvals_input::{self, Answer, Named};
use crate::args::{ApproveArg, ExecArgs};
use crate::exit::{Exit, Signal};
use crate::render::{Human, JsonLines, Render};
use crate::signals::Signals;
use crate::{sanitize, say};

/// Events printed between two flushes at most.
const MAX_BATCH: usize = 1024;

#[allow(clippy::too_many_lines)] // `warden exec` from its arguments to its exit status, each step in the order it happens.
pub async fn run(args: ExecArgs) -> Result<(), Exit> {
    let mut render: Box<dyn Render> = if args.common.json {
        Box::new(JsonLines::new(say::renderer_stdout()))
    } else {
        Box::new(Human::stdout())
    };
    let mut spec = crate::tool_cmd::session_spec(&args.common, Some(&args)).map_err(Exit::usage)?;
    let engine = Engine::from_env().map_err(Exit::failed)?;
    let images = read_images(&args.images).map_err(Exit::usage)?;
    let resumed = conversation_to_continue(&engine, &args, &spec.project)?;
    if let Some(id) = &resumed {
        spec.conversation_id = id.clone();
    }
    spec.save = !args.ephemeral;
    let conversation_id = spec.conversation_id.clone();
    let started = match &resumed {
        Some(id) => engine.resume(spec, id).await,
        None => engine.start(spec).await,
    };
    let (session, mut events) = match started {
        Ok(started) => started,
        Err(error) => {
            // With --json the event is for the script and stderr for the person; without, the
            // transcript already shows it.
            if args.common.json {
                say::err(&format!("warden: {error}"));
            }
            if let SetupError::Unreadable(unreadable) = &error {
                say::err(&format!(
                    "warden: see what can be read of it with: warden sessions show {}",
                    sanitize::line(&unreadable.id)
                ));
            }
            render.event(&Event::Error(ChatError {
                conversation_id,
                message_id: None,
                code: error.code(),
                message: error.to_string(),
                detail: None,
                retryable: false,
                retry_after_secs: None,
                retrying: false,
            }));
            return Err(if error.is_usage() { Exit::UsageAsShown } else { Exit::FailedAsShown });
        }
    };

    let turn = {
        let session = session.clone();
        let prompt = args.prompt.clone();
        let mode = warden_core::agent::SendMode { plan: args.plan, ..Default::default() };
        tokio::spawn(async move { session.send_as(prompt, images, mode).await })
    };
    let driven =
        drive(&session, &mut events, turn, render.as_mut(), args.common.approve, args.common.json).await;
    let (end, interrupted, mut not_saved) = (driven.end, driven.interrupted, driven.not_saved);
    // The session's SessionEnd hooks, then every event of the turn (all sent before it ended).
    if interrupted.is_none() {
        session.end("exit").await;
    }
    while let Ok(event) = events.try_recv() {
        render.event(&event);
        if let Event::Saving(saving) = &event {
            not_saved = if saving.saved { None } else { saving.reason.clone() };
        }
    }
    render.flush();
    // The session is over: its background commands and whatever any command left behind end too.
    drop(session);
    if !args.ephemeral {
        saved_note(&conversation_id, args.common.json, not_saved.as_deref());
    }
    let _ = tokio::task::spawn_blocking(warden_core::process_guard::kill_all_descendants).await;
    match end {
        Ok(Ok(TurnEnd::Completed)) => Ok(()),
        // Cancelled without a signal seen: as Ctrl-C.
        Ok(Ok(TurnEnd::Cancelled)) => Err(Exit::Interrupted(interrupted.unwrap_or(Signal::Interrupt))),
        // The transcript shows why.
        Ok(Ok(TurnEnd::Failed | TurnEnd::BudgetSpent | TurnEnd::MaxTurns)) => Err(Exit::FailedAsShown),
        Ok(Err(error)) => Err(Exit::failed(error)),
        Err(error) => Err(Exit::failed(format!("the turn failed: {error}"))),
    }
}

/// What the event loop drives: a session here, or one on another machine (`--remote`).
pub(crate) trait Control {
    /// Answer a confirmation; `false` when none with that id waits.
    fn approve(&self, approval: ToolApproval) -> bool;
    fn cancel(&self);
}

impl Control for Session {
    fn approve(&self, approval: ToolApproval) -> bool {
        Session::approve(self, approval).is_ok()
    }

    fn cancel(&self) {
        Session::cancel(self);
    }
}

/// How the loop ended: the turn's own result, the signal that stopped it, and why the
/// conversation is not being saved (the last `chat:saving` said so).
pub(crate) struct Driven<T> {
    pub end: T,
    pub interrupted: Option<Signal>,
    pub not_saved: Option<String>,
}

/// Print `events` as they come, answer confirmations (`approve`, stdin, the terminal), and stop
/// the turn on a signal, until `turn` ends.
pub(crate) async fn drive<T>(
    control: &dyn Control,
    events: &mut tokio::sync::mpsc::UnboundedReceiver<Event>,
    turn: impl std::future::Future<Output = T>,
    render: &mut dyn Render,
    approve: ApproveArg,
    json: bool,
) -> Driven<T> {
    let (mut answers, mut closed) = answer_source(approve, json);
    // The confirmations waiting for a stdin answer: confirmId → the call's toolId.
    let mut pending: BTreeMap<String, String> = BTreeMap::new();
    let mut interrupted: Option<Signal> = None;
    // Why the conversation is not being saved, while it is not (`chat:saving`).
    let mut not_saved: Option<String> = None;
    // One listener for the whole turn: a listener made anew in each round of the loop below could
    // miss a signal that arrives between two rounds.
    let mut signals = Signals::listen();
    tokio::pin!(turn);
    let end = loop {
        tokio::select! {
            biased;
            signal = signals.recv() => match interrupted {
                // A second signal: no more waiting for the turn to wind down.
                Some(_) => {
                    render.flush();
                    crate::signals::exit_now(signal)
                }
                None => {
                    interrupted = Some(signal);
                    tracing::info!(code = Exit::Interrupted(signal).code(), "interrupted: stopping the turn");
                    control.cancel();
                }
            },
            Some(event) = events.recv() => {
                // Everything already queued goes out in one write; a confirmation is flushed before
                // anything waits for its answer.
                // (At most a batch's worth, so a signal or an answer is never kept waiting by a
                // stream that keeps the queue full.)
                let mut next = Some(event);
                let mut batch = 0;
                while let Some(event) = next.take() {
                    render.event(&event);
                    if matches!(event, Event::ToolConfirm(_)) {
                        render.flush();
                    }
                    on_event(control, &event, approve, closed.as_deref(), &mut pending);
                    if let Event::Saving(saving) = &event {
                        not_saved = if saving.saved { None } else { saving.reason.clone() };
                    }
                    batch += 1;
                    next = if batch < MAX_BATCH { events.try_recv().ok() } else { None };
                }
                render.flush();
            }
            answer = recv_answer(&mut answers), if answers.is_some() => match answer {
                Some(answer) => answer_pending(control, answer, &mut pending),
                None => {
                    // End of input: every waiting and every later confirmation is rejected.
                    let why = if json { "stdin closed" } else { "terminal closed" };
                    closed = Some(why.to_owned());
                    answers = None;
                    for confirm_id in std::mem::take(&mut pending).into_keys() {
                        control.approve(reject(&confirm_id, why));
                    }
                }
            },
            joined = &mut turn => break joined,
        }
    };
    Driven { end, interrupted, not_saved }
}

/// The saved conversation `--resume` or `--continue` names (`None` for a new one), or why it
/// cannot be continued: a usage error for a name that names none, a failure when the store failed.
fn conversation_to_continue(
    engine: &Engine,
    args: &ExecArgs,
    project: &std::path::Path,
) -> Result<Option<String>, Exit> {
    if let Some(id) = &args.resume {
        return match engine.conversation_summary(id) {
            Ok(_) => Ok(Some(id.clone())),
            Err(ConversationError::NotFound(_)) => Err(Exit::usage(format!(
                "--resume: there is no saved conversation `{id}` (see: warden sessions list)"
            ))),
            Err(error @ ConversationError::BadId(_)) => Err(Exit::usage(format!("--resume: {error}"))),
            Err(error) => Err(Exit::failed(format!("--resume: conversation {id} cannot be read: {error}"))),
        };
    }
    if !args.continue_last {
        return Ok(None);
    }
    let root = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    match engine.latest_conversation(Some(&root)) {
        Ok(Some(id)) => Ok(Some(id)),
        Ok(None) => Err(Exit::usage(format!(
            "--continue: no saved conversation in {} (start one without --continue)",
            root.display()
        ))),
        Err(error) => Err(Exit::failed(format!("--continue: {error}"))),
    }
}

/// The `--image` files as base64 images (the engine checks and scales them).
pub(crate) fn read_images(paths: &[std::path::PathBuf]) -> Result<Vec<warden_protocol::ToolImage>, String> {
    use base64::Engine as _;
    paths
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).map_err(|e| format!("--image {}: {e}", path.display()))?;
            let media_type = warden_core::images::media_type(&bytes)
                .ok_or_else(|| format!("--image {}: not a PNG, JPEG, GIF or WebP image", path.display()))?;
            let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
            Ok(warden_protocol::ToolImage { media_type: media_type.to_owned(), data })
        })
        .collect()
}

/// Says on stderr which conversation this was and how to go on with it, or that it is not saved
/// whole (`not_saved`: why).
pub(crate) fn saved_note(conversation_id: &str, json: bool, not_saved: Option<&str>) {
    let id = sanitize::line(conversation_id);
    match (not_saved, json) {
        (Some(why), _) => say::err(&format!("warden: conversation {id} is not saved whole: {why}")),
        (None, true) => say::err(&format!("warden: conversation {id}")),
        (None, false) => say::err(&format!(
            "warden: conversation {id} saved; continue it with: warden exec --resume {id} \"…\""
        )),
    }
}

/// Where answers come from, or why there are none: stdin with `--json` (scripts), the controlling
/// terminal without (a person), nothing when every confirmation is answered by `--approve`.
fn answer_source(approve: ApproveArg, json: bool) -> (Option<AnswerRx>, Option<String>) {
    match (approve, json) {
        (ApproveArg::Ask, true) => (Some(approvals_input::spawn_reader()), None),
        (ApproveArg::Ask, false) => match approvals_input::spawn_tty_reader() {
            Ok(rx) => (Some(rx), None),
            Err(error) => {
                say::err(&format!("warden: {}", approvals_input::no_terminal_message(&error)));
                (None, Some("no terminal to ask on".to_owned()))
            }
        },
        _ => (None, None),
    }
}

type AnswerRx = tokio::sync::mpsc::UnboundedReceiver<Option<Answer>>;

async fn recv_answer(answers: &mut Option<AnswerRx>) -> Option<Answer> {
    match answers {
        Some(rx) => rx.recv().await.flatten(),
        None => std::future::pending().await,
    }
}

fn on_event(
    control: &dyn Control,
    event: &Event,
    approve: ApproveArg,
    closed: Option<&str>,
    pending: &mut BTreeMap<String, String>,
) {
    match event {
        Event::ToolConfirm(confirm) => match approve {
            ApproveArg::All => {
                control.approve(ToolApproval {
                    confirm_id: confirm.confirm_id.clone(),
                    approved: true,
                    reason: None,
                    remember: None,
                    always: None,
                });
            }
            ApproveArg::None => {
                control.approve(reject(&confirm.confirm_id, "--approve none"));
            }
            ApproveArg::Ask => match closed {
                Some(why) => {
                    control.approve(reject(&confirm.confirm_id, why));
                }
                None => {
                    pending.insert(confirm.confirm_id.clone(), confirm.tool_id.clone());
                }
            },
        },
        Event::ToolResult(result) => {
            // The call is over: whatever it asked is no longer waiting.
            pending.retain(|_, tool_id| *tool_id != result.tool_id);
        }
        _ => {}
    }
}

fn answer_pending(control: &dyn Control, answer: Answer, pending: &mut BTreeMap<String, String>) {
    let approval = match answer {
        Answer::Approval(line) => {
            let confirm_id = match &line.to {
                Named::Confirm(id) => Some(id.clone()),
                // Deprecated: the call's id answers the confirmation waiting for that call.
                Named::Tool(tool_id) => {
                    tracing::warn!(%tool_id, "approval lines naming a toolId are deprecated: name the confirmId");
                    pending.iter().find(|(_, t)| *t == tool_id).map(|(confirm, _)| confirm.clone())
                }
            };
            let Some(confirm_id) = confirm_id else {
                tracing::warn!("ignoring an approval for a call that is not waiting");
                return;
            };
            line.answering(confirm_id)
        }
        // A bare y/n/a only answers when exactly one confirmation waits.
        Answer::YesNo(_) | Answer::Always => match (pending.len(), pending.keys().next()) {
            (1, Some(id)) => ToolApproval {
                confirm_id: id.clone(),
                approved: answer != Answer::YesNo(false),
                reason: None,
                remember: (answer == Answer::Always).then_some(Remember::Always),
                always: None,
            },
            _ => {
                tracing::warn!(
                    pending = pending.len(),
                    "a y/n answer needs exactly one waiting confirmation"
                );
                return;
            }
        },
    };
    // Unknown or already-decided ids are ignored by the session and release nothing.
    let confirm_id = approval.confirm_id.clone();
    if control.approve(approval) {
        pending.remove(&confirm_id);
    } else {
        tracing::warn!(%confirm_id, "ignoring an approval for a confirmation that is not waiting");
    }
}

fn reject(confirm_id: &str, why: &str) -> ToolApproval {
    ToolApproval {
        confirm_id: confirm_id.to_owned(),
        approved: false,
        reason: Some(why.to_owned()),
        remember: None,
        always: None,
    }
}
