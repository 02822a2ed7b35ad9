//! Warden's own `SSH_ASKPASS` with a real ssh and sshd: a host key ssh does not know is asked
//! about with its fingerprint and written to `known_hosts` by ssh only once accepted; a refused
//! one ends the link as ssh ends it; a key's passphrase is asked the same way. Nothing is asked
//! without the askpass's token.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use warden_core::remote::askpass::{Ask, Askpass, Prompt, PromptKind};
use warden_core::remote::{Link, LinkError, Transport};

use super::remote_side::{remote_user, Sshd, USER};

const PASSPHRASE: &str = "correct horse 7";

/// An askpass that records each question and answers the host key question with `host_key`
/// (`None`: refused) and the passphrase question with [`PASSPHRASE`].
fn askpass(host_key: Option<&'static str>) -> (Askpass, Arc<Mutex<Vec<Prompt>>>) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = asked.clone();
    let ask: Ask = Arc::new(move |prompt: Prompt| {
        let answer = match prompt.kind {
            PromptKind::HostKey => host_key.map(str::to_owned),
            PromptKind::Secret => Some(PASSPHRASE.to_owned()),
            PromptKind::Confirm => None,
        };
        seen.lock().unwrap().push(prompt);
        Box::pin(async move { answer })
    });
    (Askpass::start(PathBuf::from(env!("CARGO_BIN_EXE_warden")), ask).unwrap(), asked)
}

fn kinds(asked: &Mutex<Vec<Prompt>>) -> Vec<PromptKind> {
    asked.lock().unwrap().iter().map(|p| p.kind).collect()
}

#[tokio::test]
async fn an_unknown_host_key_is_accepted_here_before_ssh_writes_it_and_a_passphrase_is_asked_here() {
    let user = remote_user();
    let sshd = Sshd::start();
    let (ssh, known_hosts) = sshd.ssh_that_asks(PASSPHRASE);
    let serve = format!("{} serve --stdio", user.warden.display());
    let transport = |askpass: &Askpass| {
        Transport::command(&format!("{ssh} -T -- warden-ask '{serve}'")).with_asks(Some(askpass.asks()))
    };
    let fingerprint = {
        let out = std::process::Command::new("ssh-keygen")
            .args(["-l", "-E", "sha256", "-f"])
            .arg(sshd.dir.path().join("host_key.pub"))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).split_whitespace().nth(1).unwrap().to_owned()
    };

    // Refused: ssh ends as it does when a user says no, and writes nothing.
    let (refusing, asked) = askpass(None);
    let error = Link::connect(&transport(&refusing)).await.err().expect("a refused host key links");
    assert!(matches!(error, LinkError::Closed { .. }), "{error}");
    assert!(error.to_string().contains("Host key verification failed"), "{error}");
    assert_eq!(kinds(&asked), [PromptKind::HostKey], "{error}");
    let question = asked.lock().unwrap()[0].text.clone();
    assert!(question.contains(&fingerprint), "the question shows the key's fingerprint: {question}");
    assert_eq!(std::fs::read_to_string(&known_hosts).unwrap(), "", "nothing written before it is accepted");

    // Accepted: ssh writes the key, then the key's passphrase is asked, and the link is made.
    let (accepting, asked) = askpass(Some("yes"));
    let (link, _frames) =
        Link::connect(&transport(&accepting)).await.unwrap_or_else(|e| panic!("{e}\n{}", sshd.log()));
    assert_eq!(link.machine.user, USER);
    link.close().await;
    assert_eq!(kinds(&asked), [PromptKind::HostKey, PromptKind::Secret]);
    let host_key = std::fs::read_to_string(sshd.dir.path().join("host_key.pub")).unwrap();
    let body = host_key.split_whitespace().nth(1).unwrap();
    assert!(std::fs::read_to_string(&known_hosts).unwrap().contains(body), "ssh wrote the accepted key");

    // Known now: only the passphrase is asked.
    let (again, asked) = askpass(Some("yes"));
    let (link, _frames) = Link::connect(&transport(&again)).await.unwrap();
    link.close().await;
    assert_eq!(kinds(&asked), [PromptKind::Secret]);
}
