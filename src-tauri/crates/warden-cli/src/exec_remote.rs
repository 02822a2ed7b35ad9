//! `warden exec --remote HOST:/PATH`: the same turn, run by an engine on another machine. The link
//! carries the local settings and the provider's key there for this session; events, approvals and
//! exit statuses are those of a local `warden exec`.

use std::sync::Arc;

use warden_core::engine::Engine;
use warden_core::remote::{Link, LinkError, RemoteTarget, Transport};
use warden_protocol::{
    ChatCancel, ChatError, ChatSend, ErrorCode, Event, ProviderId, RemoteKey, RemoteOpen, RemoteRequest,
    RemoteResult, RemoteSession, RemoteTurnEnd, ToolApproval,
};

use crate::args::{ExecArgs, ProviderArg};
use crate::exec::{drive, Control};
use crate::exit::{Exit, Signal};
use crate::render::{Human, JsonLines, Render};
use crate::say;

/// The link, as the event loop drives it: answers and cancels go out as requests.
struct Remote {
    link: Arc<Link>,
    conversation_id: String,
}

impl Control for Remote {
    fn approve(&self, approval: ToolApproval) -> bool {
        let link = self.link.clone();
        // The remote engine ignores an answer to a confirmation that no longer waits, as a local
        // session does; the answer is not awaited here, so the loop keeps reading events.
        tokio::spawn(async move {
            if let Err(error) = link.request(RemoteRequest::Approve(approval)).await {
                tracing::warn!(%error, "the remote engine did not take an answer");
            }
        });
        true
    }

    fn cancel(&self) {
        let link = self.link.clone();
        let cancel = ChatCancel { conversation_id: self.conversation_id.clone() };
        tokio::spawn(async move {
            let _ = link.request(RemoteRequest::Cancel(cancel)).await;
        });
    }
}

pub async fn run(args: ExecArgs, remote: &str) -> Result<(), Exit> {
    let target = RemoteTarget::parse(remote).map_err(|e| Exit::usage(format!("--remote: {e}")))?;
    if args.common.project.is_some() {
        return Err(Exit::usage(
            "--project names a folder on this machine; with --remote the project is the path after the host",
        ));
    }
    if args.common.mcp_config.is_some() {
        return Err(Exit::usage("--mcp-config is not carried to a remote engine (its servers would run there): add them to the settings"));
    }
    let mut render: Box<dyn Render> = if args.common.json {
        Box::new(JsonLines::new(say::renderer_stdout()))
    } else {
        Box::new(Human::stdout())
    };
    let (link, mut events, opened) = match connect_and_open(&args, &target).await {
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
    let control = Remote { link: link.clone(), conversation_id: opened.clone() };
    let send = ChatSend {
        conversation_id: opened.clone(),
        content: args.prompt.clone(),
        images: Vec::new(),
        plan: args.plan,
        approved_plan: Vec::new(),
    };
    let turn = {
        let link = link.clone();
        async move { link.request(RemoteRequest::Send(send)).await }
    };
    let driven =
        drive(&control, &mut events, turn, render.as_mut(), args.common.approve, args.common.json).await;
    if driven.interrupted.is_none() {
        let _ = link.request(RemoteRequest::End).await;
    }
    // Every event the engine sent before it answered is already queued here.
    let mut not_saved = driven.not_saved;
    while let Ok(event) = events.try_recv() {
        if let Event::Saving(saving) = &event {
            not_saved = if saving.saved { None } else { saving.reason.clone() };
        }
        render.event(&event);
    }
    render.flush();
    if let Ok(link) = Arc::try_unwrap(link) {
        link.close().await;
    }
    if !args.ephemeral {
        crate::exec::saved_note(&opened, args.common.json, not_saved.as_deref());
    }
    match driven.end {
        Ok(RemoteResult::Turn(RemoteTurnEnd::Completed)) => Ok(()),
        Ok(RemoteResult::Turn(RemoteTurnEnd::Cancelled)) => {
            Err(Exit::Interrupted(driven.interrupted.unwrap_or(Signal::Interrupt)))
        }
        Ok(RemoteResult::Turn(_)) => Err(Exit::FailedAsShown),
        Ok(other) => Err(Exit::failed(format!("the remote engine answered the message with {other:?}"))),
        Err(error) => Err(Exit::failed(format!("the turn failed: {error}"))),
    }
}

type Events = tokio::sync::mpsc::UnboundedReceiver<Event>;

/// The link started and the session opened there: the link, its events, and the conversation's
/// id; or the conversation the error belongs to and the error.
async fn connect_and_open(
    args: &ExecArgs,
    target: &RemoteTarget,
) -> Result<(Arc<Link>, Events, String), (String, LinkError)> {
    // This machine's settings and keychain: the remote machine's own are never read.
    let engine = Engine::from_env()
        .map_err(|e| (String::new(), LinkError::Start { command: "warden".into(), error: e.to_string() }))?;
    let open = open_request(&engine, args, target).await;
    let conversation_id = open.session.conversation_id.clone();
    let transport = match &args.transport {
        Some(command) => Transport::command(command),
        None => Transport::ssh(&target.host),
    };
    let (link, mut remote_events) =
        Link::connect(&transport).await.map_err(|e| (conversation_id.clone(), e))?;
    let link = Arc::new(link);
    tracing::info!(host = %link.machine.host, user = %link.machine.user, box = %link.machine.containment, "connected");
    let opened = match link.request(RemoteRequest::Open(open)).await {
        Ok(RemoteResult::Opened { conversation_id }) => conversation_id,
        Ok(other) => {
            let error = LinkError::Protocol(format!("the open was answered with {other:?}"));
            return Err((conversation_id, error));
        }
        Err(error) => return Err((conversation_id, error)),
    };
    let (events_tx, events) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some((_, event)) = remote_events.recv().await {
            if events_tx.send(event).is_err() {
                return;
            }
        }
    });
    Ok((link, events, opened))
}

/// The session to open there: this machine's settings, the keys the provider needs, and the
/// choices given on the command line.
async fn open_request(engine: &Engine, args: &ExecArgs, target: &RemoteTarget) -> RemoteOpen {
    let provider = match args.provider {
        ProviderArg::Anthropic => ProviderId::Anthropic,
        ProviderArg::Openai => ProviderId::Openai,
        ProviderArg::Ollama => ProviderId::Ollama,
    };
    let keys = engine.keys_for_remote(provider).await;
    let allow = args.common.allow.as_deref().map(|list| {
        list.split(',').map(str::trim).filter(|name| !name.is_empty()).map(str::to_owned).collect()
    });
    let (conversation_id, resume) = match &args.resume {
        Some(id) => (id.clone(), true),
        None => (uuid::Uuid::new_v4().to_string(), false),
    };
    RemoteOpen {
        settings: engine.settings(),
        keys: keys.into_iter().map(|(name, value)| RemoteKey { name, value }).collect(),
        session: RemoteSession {
            project: target.path.clone(),
            conversation_id,
            resume,
            provider,
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
        },
    }
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
