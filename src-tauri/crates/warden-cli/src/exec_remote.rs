//! `warden exec --remote HOST:/PATH`: the same turn, run by an engine on another machine. The link
//! carries the local settings and the provider's key there for this session; events, approvals and
//! exit statuses are those of a local `warden exec`. The session outlives the link: when it drops
//! mid-turn, a new link is made and attached, and the turn's events go on from where they were.

use std::sync::Arc;

use warden_core::engine::Engine;
use warden_core::remote::{
    split_frames, Attached, LinkError, LinkStatus, RemoteTarget, SessionFrame, Transport,
};
use warden_protocol::{
    ChatCancel, ChatError, ChatSend, ErrorCode, Event, RemoteOpen, RemoteRequest, RemoteSession,
    RemoteTurnEnd, ToolApproval,
};

use crate::args::ExecArgs;
use crate::exec::{drive, Control};
use crate::exit::{Exit, Signal};
use crate::render::{Human, JsonLines, Render};
use crate::{sanitize, say};

type Frames = tokio::sync::mpsc::UnboundedReceiver<SessionFrame>;

/// The remote session, as the event loop drives it: answers and cancels go out as requests (on
/// the next link when the current one is down).
struct Remote {
    attached: Arc<Attached>,
}

impl Control for Remote {
    fn approve(&self, approval: ToolApproval) -> bool {
        let attached = self.attached.clone();
        // The remote engine ignores an answer to a confirmation that no longer waits, as a local
        // session does; the answer is not awaited here, so the loop keeps reading events.
        tokio::spawn(async move {
            if let Err(error) = attached.request(RemoteRequest::Approve(approval)).await {
                tracing::warn!(%error, "the remote engine did not take an answer");
            }
        });
        true
    }

    fn cancel(&self) {
        let attached = self.attached.clone();
        let cancel = ChatCancel { conversation_id: attached.conversation_id().to_owned() };
        tokio::spawn(async move {
            let _ = attached.request(RemoteRequest::Cancel(cancel)).await;
        });
    }
}

pub async fn run(args: ExecArgs, remote: &str) -> Result<(), Exit> {
    let target = RemoteTarget::parse(remote).map_err(|e| Exit::usage(format!("--remote: {e}")))?;
    refuse_local_only(&args)?;
    // Read here, sent with the message (the engine there checks and scales them).
    let images = crate::exec::read_images(&args.images).map_err(Exit::usage)?;
    let mut render: Box<dyn Render> = if args.common.json {
        Box::new(JsonLines::new(say::renderer_stdout()))
    } else {
        Box::new(Human::stdout())
    };
    let (attached, frames, opened, engine) = match connect_and_open(&args, &target).await {
        Ok(connected) => connected,
        Err((conversation_id, error)) => {
            if args.common.json {
                say::err(&format!("warden: {error}"));
            }
            render.event(&error_event(&conversation_id, error.to_string()));
            render.flush();
            return Err(match error {
                LinkError::Remote { usage: true, .. } => Exit::UsageAsShown,
                _ => Exit::FailedAsShown,
            });
        }
    };
    tokio::spawn(say_link_status(attached.status(), target.host.clone()));
    let split = split_frames(frames);
    let (mut events, turn_ends) = (split.events, split.ends);
    let control = Remote { attached: attached.clone() };
    let send = ChatSend {
        conversation_id: opened.clone(),
        content: args.prompt.clone(),
        images,
        plan: args.plan,
        approved_plan: Vec::new(),
    };
    let turn = turn_end(attached.clone(), send, turn_ends);
    let driven =
        drive(&control, &mut events, turn, render.as_mut(), args.common.approve, args.common.json).await;
    if driven.end.is_ok() {
        keep_rules_home(&attached, &engine, &target).await;
    }
    if driven.interrupted.is_none() && driven.end.is_ok() {
        let _ = attached.request(RemoteRequest::End).await;
    }
    // Every event the engine numbered before the turn's end is already queued here.
    let mut not_saved = driven.not_saved;
    while let Ok(event) = events.try_recv() {
        if let Event::Saving(saving) = &event {
            not_saved = if saving.saved { None } else { saving.reason.clone() };
        }
        render.event(&event);
    }
    let link = attached.link();
    drop((control, attached));
    if let Ok(link) = Arc::try_unwrap(link) {
        link.close().await;
    }
    match driven.end {
        Ok(end) => {
            render.flush();
            if !args.ephemeral {
                crate::exec::saved_note(&opened, args.common.json, not_saved.as_deref());
            }
            match end {
                RemoteTurnEnd::Completed => Ok(()),
                RemoteTurnEnd::Cancelled => {
                    Err(Exit::Interrupted(driven.interrupted.unwrap_or(Signal::Interrupt)))
                }
                _ => Err(Exit::FailedAsShown),
            }
        }
        Err(error) => {
            render.event(&error_event(&opened, error.to_string()));
            render.flush();
            Err(Exit::FailedAsShown)
        }
    }
}

/// The options that name something of this machine, which a remote engine cannot use.
fn refuse_local_only(args: &ExecArgs) -> Result<(), Exit> {
    if args.common.project.is_some() {
        return Err(Exit::usage(
            "--project names a folder on this machine; with --remote the project is the path after the host",
        ));
    }
    if args.common.mcp_config.is_some() {
        return Err(Exit::usage(
            "--mcp-config is not carried to a remote engine (its servers would run there): add them to the settings",
        ));
    }
    Ok(())
}

/// Sends the message, then waits for the end of the turn it starts (however many links it takes).
async fn turn_end(
    attached: Arc<Attached>,
    send: ChatSend,
    mut ends: tokio::sync::mpsc::UnboundedReceiver<RemoteTurnEnd>,
) -> Result<RemoteTurnEnd, LinkError> {
    attached.request(RemoteRequest::Send(send)).await?;
    match ends.recv().await {
        Some(end) => Ok(end),
        None => Err(LinkError::Local(match &*attached.status().borrow() {
            LinkStatus::Lost(why) => format!("the link to the remote engine is lost: {why}"),
            _ => "the link to the remote engine closed".to_owned(),
        })),
    }
}

/// Says on stderr when the link drops, comes back, or is given up.
async fn say_link_status(mut status: tokio::sync::watch::Receiver<LinkStatus>, host: String) {
    while status.changed().await.is_ok() {
        let line = match &*status.borrow_and_update() {
            LinkStatus::Up => format!("warden: the link to {host} is back; the session goes on"),
            LinkStatus::Reconnecting { attempt, why } => {
                format!("warden: the link to {host} dropped ({why}); linking again (attempt {attempt})")
            }
            LinkStatus::Lost(why) => format!("warden: the link to {host} is lost: {why}"),
        };
        say::err(&sanitize::line(&line));
    }
}

/// What "always" kept there during the turn, kept in this machine's settings; one that cannot be
/// kept here is said on stderr.
async fn keep_rules_home(attached: &Attached, engine: &Engine, target: &RemoteTarget) {
    for why in warden_core::remote::bring_rules_home(attached, engine, target).await {
        say::err(&sanitize::line(&format!("warden: a rule kept there is not kept here: {why}")));
    }
}

/// The link started and the session opened there: the session, its frames, and the
/// conversation's id; or the conversation the error belongs to and the error.
async fn connect_and_open(
    args: &ExecArgs,
    target: &RemoteTarget,
) -> Result<(Arc<Attached>, Frames, String, Engine), (String, LinkError)> {
    // This machine's settings and keychain: the remote machine's own are never read.
    let engine = Engine::from_env().map_err(|e| (String::new(), LinkError::Local(e.to_string())))?;
    let open = open_request(&engine, args, target).await;
    let conversation_id = open.session.conversation_id.clone();
    let transport = match &args.transport {
        Some(command) => Transport::command(command),
        None => Transport::ssh(&target.host),
    };
    let (attached, frames, _) =
        Attached::open(transport, open).await.map_err(|e| (conversation_id.clone(), e))?;
    let opened = attached.conversation_id().to_owned();
    Ok((attached, frames, opened, engine))
}

/// The session to open there: this machine's settings and the provider's keys (`open_request`),
/// and the choices given on the command line.
async fn open_request(engine: &Engine, args: &ExecArgs, target: &RemoteTarget) -> RemoteOpen {
    let allow = args.common.allow.as_deref().map(|list| {
        list.split(',').map(str::trim).filter(|name| !name.is_empty()).map(str::to_owned).collect()
    });
    let (conversation_id, resume) = match &args.resume {
        Some(id) => (id.clone(), true),
        None => (uuid::Uuid::new_v4().to_string(), false),
    };
    let session = RemoteSession {
        project: target.path.clone(),
        conversation_id,
        resume,
        continue_last: args.continue_last,
        provider: args.provider.into(),
        model: args.model.clone(),
        base_url: args.base_url.clone(),
        native_tools: args.text_tools.then_some(false),
        trust: args.common.trust.into(),
        allow,
        approval_timeout_secs: args.approval_timeout,
        max_turns: args.max_turns,
        searxng_url: args.searxng_url.clone(),
        network: args.common.network.map(Into::into),
        save: !args.ephemeral,
        window: false,
        remote_env_keys: args.remote_env_keys,
    };
    warden_core::remote::open_request(engine, target, session).await
}

fn error_event(conversation_id: &str, message: String) -> Event {
    Event::Error(ChatError {
        conversation_id: conversation_id.to_owned(),
        message_id: None,
        code: ErrorCode::Internal,
        message,
        detail: None,
        retryable: false,
        retry_after_secs: None,
        retrying: false,
    })
}
