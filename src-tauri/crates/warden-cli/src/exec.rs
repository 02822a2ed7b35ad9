//! `warden exec`: one message through the whole loop, events on stdout, approvals on stdin.
//!
//! Exit status: 0 the turn ended normally; 1 it ended in an error (provider, sandbox violation,
//! budget, turn limit); 2 usage error; 130 interrupted (SIGINT), after stopping running tools.

use std::collections::BTreeSet;

use warden_core::agent::{Session, TurnEnd};
use warden_core::setup::Engine;
use warden_protocol::{ChatError, Event, ToolApproval};

use crate::approvals_input::{self, Answer};
use crate::args::{ApproveArg, ExecArgs};
use crate::render::{Human, JsonLines, Render};

pub async fn run(args: ExecArgs) -> u8 {
    let mut render: Box<dyn Render> = if args.common.json {
        Box::new(JsonLines::new(std::io::stdout()))
    } else {
        Box::new(Human::stdout())
    };
    let spec = match crate::tool_cmd::session_spec(&args.common, Some(&args)) {
        Ok(spec) => spec,
        Err(message) => {
            eprintln!("warden: {message}");
            return 2;
        }
    };
    let conversation_id = spec.conversation_id.clone();
    let engine = match Engine::from_env() {
        Ok(engine) => engine,
        Err(error) => {
            eprintln!("warden: {error}");
            return 1;
        }
    };
    let (session, mut events) = match engine.start(spec).await {
        Ok(started) => started,
        Err(error) => {
            // With --json the event is for the script and stderr for the person; without, the
            // transcript already shows it.
            if args.common.json {
                eprintln!("warden: {error}");
            }
            render.event(&Event::Error(ChatError {
                conversation_id,
                message_id: None,
                code: error.code(),
                message: error.to_string(),
                retryable: false,
                retry_after_secs: None,
                retrying: false,
            }));
            return if error.is_usage() { 2 } else { 1 };
        }
    };

    let approve = args.common.approve;
    let mut stdin = (approve == ApproveArg::Ask).then(approvals_input::spawn_reader);
    let mut stdin_closed = false;
    let mut pending: BTreeSet<String> = BTreeSet::new();
    let mut interrupted = false;

    // One listener for the whole turn: a listener made anew in each round of the loop below could
    // miss a signal that arrives between two rounds.
    let mut interrupt = Interrupt::listen();
    let turn = {
        let session = session.clone();
        let prompt = args.prompt.clone();
        tokio::spawn(async move { session.send(prompt).await })
    };
    tokio::pin!(turn);
    let end = loop {
        tokio::select! {
            biased;
            Some(event) = events.recv() => {
                render.event(&event);
                on_event(&session, &event, approve, stdin_closed, &mut pending);
            }
            answer = recv_answer(&mut stdin), if stdin.is_some() => match answer {
                Some(answer) => answer_pending(&session, answer, &mut pending),
                None => {
                    // End of stdin: every waiting and every later confirmation is rejected.
                    stdin_closed = true;
                    stdin = None;
                    for tool_id in std::mem::take(&mut pending) {
                        let _ = session.approve(reject(&tool_id, "stdin closed"));
                    }
                }
            },
            () = interrupt.recv(), if !interrupted => {
                interrupted = true;
                tracing::info!("interrupted: stopping the turn");
                session.cancel();
            }
            joined = &mut turn => break joined,
        }
    };
    // Every event of the turn was sent before it ended; print what is still queued.
    while let Ok(event) = events.try_recv() {
        render.event(&event);
    }
    match end {
        Ok(Ok(end)) if interrupted && end == TurnEnd::Cancelled => 130,
        Ok(Ok(TurnEnd::Completed)) => 0,
        Ok(Ok(TurnEnd::Cancelled)) => 130,
        Ok(Ok(TurnEnd::Failed | TurnEnd::BudgetSpent | TurnEnd::MaxTurns)) => 1,
        Ok(Err(error)) => {
            eprintln!("warden: {error}");
            1
        }
        Err(error) => {
            eprintln!("warden: the turn failed: {error}");
            1
        }
    }
}

async fn recv_answer(
    stdin: &mut Option<tokio::sync::mpsc::UnboundedReceiver<Option<Answer>>>,
) -> Option<Answer> {
    match stdin {
        Some(rx) => rx.recv().await.flatten(),
        None => std::future::pending().await,
    }
}

fn on_event(
    session: &Session,
    event: &Event,
    approve: ApproveArg,
    stdin_closed: bool,
    pending: &mut BTreeSet<String>,
) {
    match event {
        Event::ToolConfirm(confirm) => match approve {
            ApproveArg::All => {
                let _ = session.approve(ToolApproval {
                    tool_id: confirm.tool_id.clone(),
                    approved: true,
                    reason: None,
                    remember: None,
                });
            }
            ApproveArg::None => {
                let _ = session.approve(reject(&confirm.tool_id, "--approve none"));
            }
            ApproveArg::Ask if stdin_closed => {
                let _ = session.approve(reject(&confirm.tool_id, "stdin closed"));
            }
            ApproveArg::Ask => {
                pending.insert(confirm.tool_id.clone());
            }
        },
        Event::ToolResult(result) => {
            pending.remove(&result.tool_id);
        }
        _ => {}
    }
}

fn answer_pending(session: &Session, answer: Answer, pending: &mut BTreeSet<String>) {
    let approval = match answer {
        Answer::Approval(approval) => approval,
        // A bare y/n only answers when exactly one confirmation waits.
        Answer::YesNo(yes) => match (pending.len(), pending.iter().next()) {
            (1, Some(id)) => {
                ToolApproval { tool_id: id.clone(), approved: yes, reason: None, remember: None }
            }
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
    let tool_id = approval.tool_id.clone();
    if session.approve(approval).is_ok() {
        pending.remove(&tool_id);
    } else {
        tracing::warn!(%tool_id, "ignoring an approval for a call that is not waiting");
    }
}

fn reject(tool_id: &str, why: &str) -> ToolApproval {
    ToolApproval {
        tool_id: tool_id.to_owned(),
        approved: false,
        reason: Some(why.to_owned()),
        remember: None,
    }
}

/// SIGINT (Ctrl-C), listened to for the life of the value.
struct Interrupt {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Interrupt {
    fn listen() -> Self {
        #[cfg(unix)]
        {
            let signal = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
                .map_err(|error| tracing::warn!(%error, "cannot listen for Ctrl-C"))
                .ok();
            Self { signal }
        }
        #[cfg(not(unix))]
        Self {}
    }

    async fn recv(&mut self) {
        #[cfg(unix)]
        match &mut self.signal {
            Some(signal) => {
                if signal.recv().await.is_none() {
                    std::future::pending::<()>().await;
                }
            }
            None => std::future::pending().await,
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
