//! `warden exec` and `warden tool` for a person: on a real pseudo-terminal (openpty, made the
//! controlling terminal of the `warden` process), as an attacker's command would meet them.

use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::Dirs;

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

/// What `warden` gets as stdin besides its terminal.
#[derive(Clone, Copy, PartialEq)]
pub enum Stdin {
    /// The terminal itself.
    Terminal,
    /// A pipe the test holds open (writes to it only when told).
    Pipe,
}

/// `warden` on a pseudo-terminal: stdout and stderr are the terminal, which is its controlling
/// terminal; the test plays the person at the keyboard (the master side).
pub struct OnTerminal {
    pub child: Child,
    master: std::fs::File,
    output: Arc<Mutex<Vec<u8>>>,
}

impl OnTerminal {
    pub fn spawn(dirs: &Dirs, args: &[&str], stdin: Stdin) -> Self {
        let pty = nix::pty::openpty(None, None).unwrap();
        let slave: OwnedFd = pty.slave;
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_warden"));
        cmd.args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", dirs.home.path())
            .env("WARDEN_HOME", dirs.home.path())
            .env("ANTHROPIC_API_KEY", "sk-ant-test")
            .env("NO_COLOR", "1")
            .current_dir(dirs.project.path())
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave.try_clone().unwrap()));
        match stdin {
            Stdin::Terminal => cmd.stdin(Stdio::from(slave)),
            Stdin::Pipe => cmd.stdin(Stdio::piped()),
        };
        // A new session whose controlling terminal is the pty (stdout is its slave by now).
        #[allow(unsafe_code)]
        // SAFETY: between fork and exec only setsid(2) and ioctl(2), both async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                nix::unistd::setsid()?;
                if libc::ioctl(1, libc::TIOCSCTTY, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap();
        let master = std::fs::File::from(pty.master);
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().unwrap();
        let sink = output.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // EIO once every slave is closed.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Self { child, master, output }
    }

    /// Everything the terminal showed so far (bytes as written, `\n` made `\r\n` by the tty).
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// Wait until the screen shows `needle` at least `times` times.
    pub async fn wait_for(&self, needle: &str, times: usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.screen().matches(needle).count() < times {
            assert!(Instant::now() < deadline, "no {needle:?} (x{times}) on the screen:\n{}", self.screen());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The person types a line.
    pub fn type_line(&mut self, line: &str) {
        self.master.write_all(format!("{line}\r").as_bytes()).unwrap();
        self.master.flush().unwrap();
    }

    pub async fn exit_code(&mut self) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "warden did not exit:\n{}", self.screen());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for OnTerminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn human_exec<'a>(server: &'a TestServer, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args =
        vec!["exec", "--provider", "anthropic", "--model", "claude-test", "--base-url", &server.url];
    args.extend_from_slice(extra);
    args
}

/// Review #9, finding 2: an approved command keeps writing `y` where a person's answers used to be
/// read (Warden's stdin through `/proc/$PPID/fd/0`, and `/dev/tty`); the next dangerous calls must
/// still wait for the person, who does not answer, and time out rejected. Tests run as root, who
/// can open any process's fds even when it is not dumpable: here the wall is that answers are read
/// from the terminal only.
async fn a_command_cannot_answer_for_the_person(stdin: Stdin) {
    let writer = "while :; do \
        echo y > /proc/$PPID/fd/0 && : > wrote-stdin; \
        echo y > /dev/tty && : > opened-tty; \
        sleep 0.02; done";
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "bash", json!({"command": writer, "background": true}))]),
        answer(&[tool("toolu_2", "bash", json!({"command": "rm -rf victim"}))]),
        answer(&[tool("toolu_3", "file_write", json!({"path": "owned.txt", "content": "owned"}))]),
        answer(&[text("Done.")]),
    ])
    .await;
    let dirs = Dirs::new();
    std::fs::create_dir(dirs.path("victim")).unwrap();
    let args =
        human_exec(&server, &["--allow", "all", "--trust", "supervised", "--approval-timeout", "2", "do it"]);
    let mut warden = OnTerminal::spawn(&dirs, &args, stdin);
    warden.wait_for("approve? [y/N", 1).await;
    // The person approves the first call, typing on the terminal.
    warden.type_line("y");
    if stdin == Stdin::Pipe {
        // So that a Warden still reading stdin would run the writer too (and fail below).
        warden.child.stdin.as_mut().unwrap().write_all(b"y\n").unwrap();
    }
    warden.wait_for("approve? [y/N", 3).await;
    let code = warden.exit_code().await;
    let screen = warden.screen();
    assert_eq!(code, 0, "{screen}");
    assert!(dirs.path("victim").is_dir(), "rm -rf ran without the person:\n{screen}");
    assert!(!dirs.path("owned.txt").exists(), "file_write ran without the person:\n{screen}");
    assert!(!dirs.path("opened-tty").exists(), "a command opened Warden's terminal");
    if stdin == Stdin::Pipe && nix::unistd::geteuid().is_root() {
        assert!(dirs.path("wrote-stdin").exists(), "the attack had its channel: root writes Warden's stdin");
    }
    assert_eq!(server.requests().len(), 4);
}

#[tokio::test]
async fn a_command_writing_y_into_wardens_stdin_pipe_approves_nothing() {
    a_command_cannot_answer_for_the_person(Stdin::Pipe).await;
}

#[tokio::test]
async fn a_command_writing_y_into_wardens_terminal_approves_nothing() {
    a_command_cannot_answer_for_the_person(Stdin::Terminal).await;
}

/// Without a terminal a person cannot be asked: the confirmation is refused with a message saying
/// what to do instead, and a `y` on stdin is not taken.
#[tokio::test]
async fn without_a_terminal_confirmations_are_refused_and_stdin_is_not_read() {
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "file_write", json!({"path": "x.txt", "content": "x"}))]),
        answer(&[text("OK.")]),
    ])
    .await;
    let dirs = Dirs::new();
    let mut cmd = super::process::command(&dirs, &human_exec(&server, &["--allow", "all", "write"]));
    // No controlling terminal at all.
    #[allow(unsafe_code)]
    // SAFETY: only setsid(2) between fork and exec.
    unsafe {
        cmd.pre_exec(|| nix::unistd::setsid().map(drop).map_err(std::io::Error::from));
    }
    let mut child = cmd.spawn().unwrap();
    {
        use tokio::io::AsyncWriteExt;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"y\ny\n").await.unwrap();
    }
    let output =
        tokio::time::timeout(Duration::from_secs(60), child.wait_with_output()).await.unwrap().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!dirs.path("x.txt").exists(), "a y on stdin approved the write");
    assert!(
        stderr.contains("no terminal") && stderr.contains("--json") && stderr.contains("--approve all|none"),
        "{stderr}"
    );
}

/// Review #9, finding 4: model text, tool output and the command to approve reach the terminal
/// escaped; a command hiding `rm -rf victim` behind `\r\x1b[2K` shows its real text.
#[tokio::test]
async fn the_terminal_shows_forged_sequences_and_commands_as_text() {
    let forged = "rm -rf victim; exit 0 #\r\x1b[2K\x1b[1A? approve run `ls -la`";
    let server = TestServer::start(vec![
        answer(&[
            text("Sure.\x1b]0;owned title\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[H"),
            tool(
                "toolu_1",
                "bash",
                json!({"command": "printf 'out\\033]52;c;ZXZpbA==\\007\\033[2J\\r\\033[2Kfake\\n'"}),
            ),
        ]),
        answer(&[tool("toolu_2", "bash", json!({"command": forged}))]),
        answer(&[text("\u{202e}txt.exe\u{200b}")]),
    ])
    .await;
    let dirs = Dirs::new();
    std::fs::create_dir(dirs.path("victim")).unwrap();
    let args = human_exec(&server, &["--allow", "all", "go"]);
    let mut warden = OnTerminal::spawn(&dirs, &args, Stdin::Terminal);
    warden.wait_for("approve? [y/N", 1).await;
    warden.type_line("y");
    warden.wait_for("approve? [y/N", 2).await;
    let screen = warden.screen();
    // The prompt shows the whole command, escaped, with its length and a warning.
    assert!(
        screen.contains("    rm -rf victim; exit 0 #\\r\\x1b[2K\\x1b[1A? approve run `ls -la`"),
        "{screen}"
    );
    assert!(screen.contains(&format!("command ({} characters, 1 line)", forged.chars().count())), "{screen}");
    assert!(screen.contains("⚠ the command holds control or invisible characters"), "{screen}");
    warden.type_line("n");
    assert_eq!(warden.exit_code().await, 0);
    let screen = warden.screen();
    assert!(dirs.path("victim").is_dir());
    // Nothing on the screen is a control sequence: Warden wrote no ESC, BEL, CSI or bidi override.
    let bad: Vec<char> =
        screen.chars().filter(|c| ['\x1b', '\x07', '\u{9b}', '\u{202e}', '\u{200b}'].contains(c)).collect();
    assert!(bad.is_empty(), "raw controls {bad:?} reached the terminal:\n{screen:?}");
    for shown in [
        "\\x1b]0;owned title\\x07",
        "\\x1b]52;c;cm0gLXJmIH4=",
        "\\x1b]52;c;ZXZpbA==",
        "\\u{202e}txt.exe\\u{200b}",
    ] {
        assert!(screen.contains(shown), "{shown} not shown:\n{screen}");
    }
}

/// `warden tool` asks on the terminal too: a `y` piped on stdin is not an answer; a `y` typed is.
#[tokio::test]
async fn warden_tool_asks_on_the_terminal_not_on_stdin() {
    let dirs = Dirs::new();
    let args = ["tool", "file_write", r#"{"path": "w.txt", "content": "w"}"#, "--allow", "file_write"];
    let mut warden = OnTerminal::spawn(&dirs, &args, Stdin::Pipe);
    warden.child.stdin.as_mut().unwrap().write_all(b"y\n").unwrap();
    warden.wait_for("approve? [y/N]", 1).await;
    assert!(warden.screen().contains("w.txt"), "{}", warden.screen());
    warden.type_line("n");
    assert_eq!(warden.exit_code().await, 1, "{}", warden.screen());
    assert!(!dirs.path("w.txt").exists(), "the y on stdin was taken");

    let mut warden = OnTerminal::spawn(&dirs, &args, Stdin::Pipe);
    warden.wait_for("approve? [y/N]", 1).await;
    warden.type_line("y");
    assert_eq!(warden.exit_code().await, 0, "{}", warden.screen());
    assert_eq!(std::fs::read_to_string(dirs.path("w.txt")).unwrap(), "w");
}
