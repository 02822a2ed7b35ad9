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

use std::ffi::OsString;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
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

/// A socket that asks the user what ssh asks, for as long as it is held.
pub struct Askpass {
    dir: tempfile::TempDir,
    token: String,
    program: PathBuf,
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
        let task = tokio::spawn(serve(listener, token.clone(), ask));
        Ok(Self { dir, token, program, task })
    }

    /// The environment of an ssh that asks through this.
    pub fn env(&self) -> Vec<(OsString, OsString)> {
        vec![
            ("SSH_ASKPASS".into(), self.program.clone().into()),
            ("SSH_ASKPASS_REQUIRE".into(), "force".into()),
            (SOCKET_ENV.into(), self.dir.path().join("socket").into()),
            (TOKEN_ENV.into(), self.token.clone().into()),
        ]
    }
}

impl Drop for Askpass {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(listener: UnixListener, token: String, ask: Ask) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => drop(tokio::spawn(one_question(stream, token.clone(), ask.clone()))),
            // Out of descriptors, say: try again shortly rather than spin.
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// One connection: a question with the right token is asked; any other gets no answer.
async fn one_question(stream: UnixStream, token: String, ask: Ask) {
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    let Ok(Some(line)) = super::read_line(&mut read, MAX_LINE).await else { return };
    let Ok(question) = serde_json::from_slice::<Question>(&line) else { return };
    if question.token != token {
        tracing::warn!("a question on Warden's askpass socket without its token was ignored");
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
    async fn a_question_is_answered_only_with_the_token() {
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = asked.clone();
        let ask: Ask = Arc::new(move |prompt: Prompt| {
            seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(prompt);
            Box::pin(async { Some("hunter2".to_owned()) })
        });
        let askpass = Askpass::start(PathBuf::from("/unused"), ask).unwrap_or_else(|e| panic!("{e}"));
        let socket = askpass.dir.path().join("socket");
        let token = askpass.token.clone();
        let (right, wrong) = tokio::task::spawn_blocking(move || {
            let right = ask_over(&socket, token, "Password: ".into());
            let wrong = ask_over(&socket, "not-the-token".into(), "Password: ".into());
            (right, wrong)
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(right.ok().flatten().as_deref(), Some("hunter2"));
        assert_eq!(wrong.ok().flatten(), None, "no answer without the token");
        let asked = asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        assert_eq!(*asked, [Prompt { text: "Password: ".into(), kind: PromptKind::Secret }]);
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(askpass.dir.path()).unwrap_or_else(|e| panic!("{e}")).permissions(),
        );
        assert_eq!(mode & 0o777, 0o700);
    }
}
