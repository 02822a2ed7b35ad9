//! A local MCP server's network. Its box goes out through a proxy of its own ([`OwnProxy`]) that
//! applies the project's network rules and asks the user about each host they leave open — in the
//! server's name, whether the server connects at start-up, between calls or during one — through
//! the window ([`Elicitor::allow_host`]). "Allow" holds while the server runs, "Always" also saves
//! an allow rule of the project's ([`SaveHostRule`]), "Deny" holds while it runs. With nobody to
//! ask (`warden exec`) a host no rule names is not reached.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use warden_protocol::NetworkRequest;

use super::elicitor::Elicitor;
use crate::containment::net::ask::{cannot_wait_here, wait_on};
use crate::containment::net::{Answer, Asker, HostRule, OwnProxy, Question, Reach, Rules};

/// Saves an allow rule (`host:port`) for the project at the path given.
pub type SaveHostRule = dyn Fn(&Path, &str) -> Result<(), String> + Send + Sync;

/// The proxy for the box of the server `server` of the project `project`: `rules`, asking about
/// what they leave open.
pub(super) fn server_proxy(
    server: &str,
    project: &Path,
    rules: &Rules,
    elicitor: Option<Arc<dyn Elicitor>>,
    save: Option<Arc<SaveHostRule>>,
) -> Result<OwnProxy, String> {
    let asker = ServerAsker {
        server: server.to_owned(),
        project: project.to_path_buf(),
        elicitor,
        save,
        runtime: tokio::runtime::Handle::try_current()
            .map_err(|_| "a server's network is set up on the engine's runtime".to_owned())?,
    };
    OwnProxy::start(Rules { ask: true, ..rules.clone() }, Arc::new(asker))
}

struct ServerAsker {
    server: String,
    project: PathBuf,
    elicitor: Option<Arc<dyn Elicitor>>,
    save: Option<Arc<SaveHostRule>>,
    runtime: tokio::runtime::Handle,
}

impl Asker for ServerAsker {
    fn ask(&self, question: &Question) -> Answer {
        if let Some(not_here) = cannot_wait_here() {
            return not_here;
        }
        let Some(elicitor) = self.elicitor.clone() else {
            return Answer::Unanswered("there is no window to ask in".to_owned());
        };
        let request = NetworkRequest {
            host: question.host.clone(),
            port: question.port,
            reach: (question.reach != Reach::Public).then(|| question.reach.describe().to_owned()),
        };
        let server = self.server.clone();
        let answer = wait_on(&self.runtime, async move { elicitor.allow_host(&server, &request).await });
        let Some(answer) = answer else {
            return Answer::Unanswered("Warden stopped before the answer".to_owned());
        };
        if answer == Answer::Always {
            let pattern = HostRule::exact(&question.host, question.port).to_string();
            if let Some(Err(error)) = self.save.as_ref().map(|save| save(&self.project, &pattern)) {
                tracing::warn!(%error, pattern, server = %self.server, "the network rule could not be saved; allowed while the server runs");
            }
        }
        answer
    }
}
