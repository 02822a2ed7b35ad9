//! `warden sessions --remote HOST`: the saved conversations of another machine, listed, shown,
//! searched and deleted there over the link (the remote engine reads its own store), printed as
//! `warden sessions` prints this machine's.

use warden_core::remote::transport::check_host;
use warden_core::remote::{Link, LinkError, Transport};
use warden_protocol::{RemoteConversation, RemoteRequest, RemoteResult, SavedRow};

use crate::args::{SessionsAction, SessionsArgs};
use crate::exit::Exit;
use crate::sanitize;
use crate::sessions_cmd::{print_conversation, print_deleted, print_hits, print_list, Conversation};

pub async fn run(args: SessionsArgs, host: &str) -> Result<(), Exit> {
    check_host(host).map_err(|why| Exit::usage(format!("--remote: {}", sanitize::line(&why))))?;
    let transport = match &args.transport {
        Some(command) => Transport::command(command),
        None => Transport::ssh(host),
    };
    let (link, _frames) = Link::connect(&transport).await.map_err(|e| exit(host, e))?;
    let done = act(&link, args.action).await.map_err(|e| exit(host, e));
    link.close().await;
    done
}

/// One subcommand, over `link`.
async fn act(link: &Link, action: SessionsAction) -> Result<(), LinkError> {
    match action {
        SessionsAction::List { limit, json } => {
            let page = expect(
                link.request(RemoteRequest::ConversationList { offset: 0, limit, project: None }).await?,
                |r| match r {
                    RemoteResult::Conversations(page) => Some(page),
                    _ => None,
                },
            )?;
            print_list(&page.conversations, json);
        }
        SessionsAction::Show { id, json } => {
            let read = link.request(RemoteRequest::ConversationRead { id }).await?;
            let conversation = expect(read, |r| match r {
                RemoteResult::Conversation(conversation) => Some(conversation),
                _ => None,
            })?;
            print_conversation(&shown(conversation), json);
        }
        SessionsAction::Search { query, limit, json } => {
            let found = link
                .request(RemoteRequest::ConversationSearch { query: query.clone(), limit, project: None })
                .await?;
            let hits = expect(found, |r| match r {
                RemoteResult::Hits(hits) => Some(hits),
                _ => None,
            })?;
            print_hits(&query, &hits, json);
        }
        SessionsAction::Delete { id, json } => {
            let removed = link.request(RemoteRequest::ConversationRemove { id: id.clone() }).await?;
            expect(removed, |r| matches!(r, RemoteResult::Done).then_some(()))?;
            print_deleted(&id, json);
        }
    }
    Ok(())
}

/// The answer `pick` takes, or a protocol error for any other.
fn expect<T>(result: RemoteResult, pick: impl FnOnce(RemoteResult) -> Option<T>) -> Result<T, LinkError> {
    pick(result).ok_or_else(|| LinkError::Protocol("an answer of another kind than the request's".into()))
}

/// A conversation read there, as `warden sessions show` prints one.
fn shown(conversation: RemoteConversation) -> Conversation {
    let rows = conversation
        .rows
        .into_iter()
        .zip(1..)
        .map(|(row, n)| match SavedRow::from(row) {
            SavedRow::Read { message, .. } => (n, Ok(message)),
            SavedRow::Unreadable { reason } => (n, Err(reason)),
        })
        .collect();
    Conversation { summary: conversation.summary, rows, stopped: conversation.stopped }
}

/// The link's error as this command's: the remote engine's refusal of a bad or unknown id is a
/// usage error, as it is here.
fn exit(host: &str, error: LinkError) -> Exit {
    let message = format!("warden sessions --remote {host}: {error}");
    match error {
        LinkError::Remote { usage: true, .. } => Exit::usage(message),
        _ => Exit::failed(message),
    }
}
