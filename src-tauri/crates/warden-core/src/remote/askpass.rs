//! Warden's own `SSH_ASKPASS`: what ssh asks while it connects — to accept a host key it does not
//! know yet (shown with its fingerprint), a key's passphrase, a password — is asked in the window,
//! not on a terminal the window does not have.
//!
//! The face starts an [`Askpass`]: a unix socket in a private folder (mode 0700), and a token. ssh
//! is started with `SSH_ASKPASS` naming Warden's own program and `SSH_ASKPASS_REQUIRE=force`; for
//! each question it runs that program with the prompt, which finds the socket and the token in
//! its environment ([`run_if_asked`]), asks over the socket and prints the answer for ssh. No
//! answer (refused, or none in time) ends that program with status 1, which ssh takes as "no".
//! Host key checking stays ssh's own: a key is written to `known_hosts` by ssh, after the user
//! accepts it here; a changed key is refused by ssh without a question.
//!
//! The socket's path and token are in ssh's environment, which a process of the same user may
//! read (`/proc/<ssh>/environ`, where the box does not hide it). So a question is taken only from
//! a process whose parent is one of the ssh processes started with [`SshAsks`] (the peer's
//! credentials, then its parent in `/proc`): anything else that asks gets no answer and the user
//! is not asked.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};

/// Where the program ssh starts finds the socket, and the token it must send.
pub const SOCKET_ENV: &str = "WARDEN_ASKPASS_SOCKET";
pub const TOKEN_ENV: &str = "WARDEN_ASKPASS_TOKEN";

/// How long a question waits for the user (ssh's own handshake waits longer).
pub const ANSWER_WITHIN: Duration = Duration::from_secs(110);

/// The longest question or answer line.
const MAX_LINE: usize = 64 * 1024;

/// What ssh asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PromptKind {
    /// Whether to trust a host key it does not know (the prompt holds the fingerprint): "yes" or
    /// nothing.
    HostKey,
    /// A yes-or-no question of another kind.
    Confirm,
    /// A passphrase or a password, typed hidden.
    Secret,
}

impl PromptKind {
    /// What kind of question `prompt` is, from ssh's own words.
    pub fn of(prompt: &str) -> Self {
        let yes_no = prompt.contains("(yes/no");
        match (yes_no, prompt.contains("fingerprint")) {
            (true, true) => Self::HostKey,
            (true, false) => Self::Confirm,
            (false, _) => Self::Secret,
        }
    }
}

/// The question the program ssh started passes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub text: String,
    pub kind: PromptKind,
}

/// Asks the user `Prompt`; `None` when refused or not answered.
pub type Ask = Arc<dyn Fn(Prompt) -> Pin<Box<dyn Future<Output = Option<String>> + Send>> + Send + Sync>;

#[derive(Serialize, Deserialize)]
struct Question {
    token: String,
    prompt: String,
}

#[derive(Serialize, Deserialize)]
struct Answer {
    answer: Option<String>,
}

/// The ssh processes started to ask through an [`Askpass`] (the last few: a link made again starts
/// another): only their children are answered.
type Started = Arc<Mutex<VecDeque<u32>>>;

/// How many started ssh processes are remembered.
const STARTED_KEPT: usize = 16;

/// What an ssh that asks through an [`Askpass`] is started with: its environment, and where its
/// process id is noted once it runs ([`SshAsks::started`]).
#[derive(Clone)]
pub struct SshAsks {
    pub env: Vec<(OsString, OsString)>,
    started: Started,
}

impl SshAsks {
    /// The ssh process `pid` was started with this environment: its children may ask.
    pub fn started(&self, pid: u32) {
        let mut started = self.started.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        started.push_back(pid);
        while started.len() > STARTED_KEPT {
            started.pop_front();
        }
    }
}

impl std::fmt::Debug for SshAsks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a secret of the window's: not in a log.
        f.debug_struct("SshAsks").field("vars", &self.env.len()).finish_non_exhaustive()
    }
}

impl PartialEq for SshAsks {
    fn eq(&self, other: &Self) -> bool {
        self.env == other.env
    }
}

impl Eq for SshAsks {}

/// A socket that asks the user what ssh asks, for as long as it is held.
pub struct Askpass {
    dir: tempfile::TempDir,
    token: String,
    program: PathBuf,
    started: Started,
    task: tokio::task::JoinHandle<()>,
}

impl Askpass {
    /// Listen for the questions of ssh processes started with [`Askpass::env`]; `program` is the
    /// one ssh runs (this program: it answers through [`run_if_asked`]).
    pub fn start(program: PathBuf, ask: Ask) -> std::io::Result<Self> {
        let dir = tempfile::Builder::new().prefix("warden-askpass-").tempdir()?;
        std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o700))?;
        let listener = UnixListener::bind(dir.path().join("socket"))?;
        let token = uuid::Uuid::new_v4().simple().to_string();
        let started = Started::default();
        let task =
            tokio::spawn(serve(listener, Gate { token: token.clone(), started: started.clone() }, ask));
        Ok(Self { dir, token, program, started, task })
    }

    /// What an ssh that asks through this is started with.
    pub fn asks(&self) -> SshAsks {
        let env = vec![
            ("SSH_ASKPASS".into(), self.program.clone().into()),
            ("SSH_ASKPASS_REQUIRE".into(), "force".into()),
            (SOCKET_ENV.into(), self.dir.path().join("socket").into()),
            (TOKEN_ENV.into(), self.token.clone().into()),
        ];
        SshAsks { env, started: self.started.clone() }
    }
}

/// What a question must show to be asked: the token, and a parent among the ssh processes started.
#[derive(Clone)]
struct Gate {
    token: String,
    started: Started,
}

impl Gate {
    /// The asker descends, within [`ASKER_DEPTH`] generations, from a process started with the
    /// askpass (ssh itself, or the `sh` a transport runs it under): only the transport's own tree.
    fn lets_in(&self, peer: Option<u32>, token: &str) -> bool {
        let ancestors: Vec<u32> = std::iter::successors(peer.and_then(parent_of), |pid| parent_of(*pid))
            .take(ASKER_DEPTH)
            .collect();
        let started = self.started.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        token == self.token && ancestors.iter().any(|pid| started.contains(pid))
    }
}

/// How many generations above the asker a started process may be: ssh starts the askpass; a
/// transport may run ssh under `sh -c`.
const ASKER_DEPTH: usize = 2;

/// The parent of process `pid`, from `/proc/<pid>/stat` (the field after the command's name,
/// which may itself hold spaces and parentheses, then the state).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

impl Drop for Askpass {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(listener: UnixListener, gate: Gate, ask: Ask) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => drop(tokio::spawn(one_question(stream, gate.clone(), ask.clone()))),
            // Out of descriptors, say: try again shortly rather than spin.
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// One connection: a question from a child of a started ssh, with the token, is asked; any other
/// gets no answer.
async fn one_question(stream: UnixStream, gate: Gate, ask: Ask) {
    let peer = stream.peer_cred().ok().and_then(|cred| cred.pid()).and_then(|pid| u32::try_from(pid).ok());
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    let Ok(Some(line)) = super::read_line(&mut read, MAX_LINE).await else { return };
    let Ok(question) = serde_json::from_slice::<Question>(&line) else { return };
    if !gate.lets_in(peer, &question.token) {
        tracing::warn!(
            ?peer,
            "a question on Warden's askpass socket not from the ssh it started was ignored"
        );
        return;
    }
    let prompt = Prompt { kind: PromptKind::of(&question.prompt), text: question.prompt };
    let answer = tokio::time::timeout(ANSWER_WITHIN, ask(prompt)).await.ok().flatten();
    let Ok(mut line) = serde_json::to_vec(&Answer { answer }) else { return };
    line.push(b'\n');
    let _ = write.write_all(&line).await;
}

/// When this program was started by ssh as Warden's `SSH_ASKPASS` (its socket and token in the
/// environment, the prompt its one argument): ask, print the answer, and give the exit status.
/// `None` when it was not (the program goes on as itself).
pub fn run_if_asked() -> Option<i32> {
    let socket = std::env::var_os(SOCKET_ENV)?;
    let token = std::env::var(TOKEN_ENV).ok()?;
    let mut args = std::env::args_os().skip(1);
    let prompt = args.next().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    if args.next().is_some() {
        return None;
    }
    Some(match ask_over(&PathBuf::from(socket), token, prompt) {
        Ok(Some(answer)) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            match writeln!(out, "{answer}").and_then(|()| out.flush()) {
                Ok(()) => 0,
                Err(_) => 1,
            }
        }
        Ok(None) => 1,
        Err(error) => {
            // ssh passes the askpass's stderr on: the user sees why nothing was asked.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "warden askpass: {error}");
            1
        }
    })
}

fn ask_over(socket: &std::path::Path, token: String, prompt: String) -> std::io::Result<Option<String>> {
    use std::io::{BufRead, Read, Write};
    let mut stream = std::os::unix::net::UnixStream::connect(socket)?;
    let mut line = serde_json::to_vec(&Question { token, prompt }).map_err(std::io::Error::other)?;
    line.push(b'\n');
    stream.write_all(&line)?;
    let mut reply = Vec::new();
    std::io::BufReader::new(stream.take(MAX_LINE as u64)).read_until(b'\n', &mut reply)?;
    if reply.is_empty() {
        return Ok(None);
    }
    let answer: Answer = serde_json::from_slice(&reply).map_err(std::io::Error::other)?;
    Ok(answer.answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parent_is_read_past_a_name_with_spaces_and_parentheses() {
        assert_eq!(parent_of(std::process::id()), Some(std::os::unix::process::parent_id()));
        assert_eq!(parent_of(u32::MAX), None);
    }

    #[test]
    fn sshs_questions_are_told_apart_by_their_words() {
        let host_key = "The authenticity of host '[127.0.0.1]:2222 ([127.0.0.1]:2222)' can't be established.\n\
            ED25519 key fingerprint is SHA256:abc.\nAre you sure you want to continue connecting (yes/no/[fingerprint])? ";
        assert_eq!(PromptKind::of(host_key), PromptKind::HostKey);
        assert_eq!(
            PromptKind::of("Enter passphrase for key '/home/u/.ssh/id_ed25519': "),
            PromptKind::Secret
        );
        assert_eq!(PromptKind::of("me@host's password: "), PromptKind::Secret);
        assert_eq!(PromptKind::of("Allow use of key? (yes/no)"), PromptKind::Confirm);
    }

    #[tokio::test]
    async fn a_question_is_answered_only_from_a_child_of_a_started_ssh_with_the_token() {
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = asked.clone();
        let ask: Ask = Arc::new(move |prompt: Prompt| {
            seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(prompt);
            Box::pin(async { Some("hunter2".to_owned()) })
        });
        let askpass = Askpass::start(PathBuf::from("/unused"), ask).unwrap_or_else(|e| panic!("{e}"));
        let socket = askpass.dir.path().join("socket");
        let token = askpass.token.clone();
        let asking = |token: String| {
            let socket = socket.clone();
            tokio::task::spawn_blocking(move || ask_over(&socket, token, "Password: ".into()).ok().flatten())
        };
        // The attack: a process of the same user that read the socket and the token from ssh's
        // environment, but is no child of an ssh Warden started (this test's process).
        let stranger = asking(token.clone()).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stranger, None, "a process that is no child of a started ssh is not answered");
        assert!(
            asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner).is_empty(),
            "nor is the user asked"
        );
        // This process as if a started ssh's child: its parent noted as started.
        askpass.asks().started(std::os::unix::process::parent_id());
        let right = asking(token).await.unwrap_or_else(|e| panic!("{e}"));
        let wrong = asking("not-the-token".into()).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(right.as_deref(), Some("hunter2"));
        assert_eq!(wrong, None, "no answer without the token");
        let asked = asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        assert_eq!(*asked, [Prompt { text: "Password: ".into(), kind: PromptKind::Secret }]);
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(askpass.dir.path()).unwrap_or_else(|e| panic!("{e}")).permissions(),
        );
        assert_eq!(mode & 0o777, 0o700);
    }
}
