//! The blocklist matches parsed commands: evasions are caught, look-alikes in data are not.

use serde_json::json;
use warden_core::sandbox::blocklist::{check_command, command_prefix};
use warden_protocol::ToolErrorCode;

use super::common::*;

#[test]
fn destructive_commands_and_their_evasions_are_blocked() {
    let blocked = [
        "rm -rf /",
        "rm -rf /*",
        "rm  -rf   / ",
        "rm -fr /",
        "rm -r -f /",
        "rm -Rf /",
        "rm --recursive --force /",
        "rm -rf --no-preserve-root /",
        "rm -r --no-preserve-root /x",
        "rm -rf \"/\"",
        "rm -rf '/'",
        "rm -rf //",
        "rm -rf /tmp/../",
        "rm -rf ~",
        "rm -rf ~/",
        "rm -rf ~/*",
        "rm -rf $HOME",
        "rm -rf \"$HOME\"",
        "rm -rf ${HOME}/",
        "rm -rf /usr",
        "rm -rf /etc/*",
        "rm -rf -- /",
        "sudo rm -rf /",
        "sudo -u root rm -rf /",
        "env rm -rf /",
        "env -i FOO=1 rm -rf /",
        "nice -n 10 rm -rf /",
        "command rm -rf /",
        "exec rm -rf /",
        "nohup rm -rf / &",
        "timeout 5 rm -rf /",
        "FOO=bar rm -rf /",
        "/bin/rm -rf /",
        "\\rm -rf /",
        "echo hi; rm -rf /",
        "true && rm -rf ~",
        "false || rm -rf /",
        "ls | rm -rf /",
        "(rm -rf /)",
        "echo $(rm -rf /)",
        "echo \"`rm -rf /`\"",
        "sh -c 'rm -rf /'",
        "bash -c \"sudo rm -rf /\"",
        "bash -lc 'rm -rf ~'",
        "eval 'rm -rf /'",
        "env -S 'rm -rf /'",
        "if true; then rm -rf /; fi",
        "mkfs /dev/sda1",
        "mkfs.ext4 /dev/sda1",
        "sudo mkfs.xfs -f /dev/nvme0n1",
        "dd if=/dev/zero of=/dev/sda",
        "dd if=img of=/dev/nvme0n1 bs=4M",
        "sudo dd of=/dev/disk2 if=x",
        ":(){ :|:& };:",
        ":(){ :|: & };:",
        "bomb() { bomb | bomb & }; bomb",
        "shutdown -h now",
        "sudo reboot",
        "halt",
        "poweroff",
        "/sbin/shutdown now",
        "systemctl poweroff",
        "init 0",
        "chmod -R 777 /",
        "chmod --recursive 000 /",
        "chown -R nobody /",
        "sudo chown -R me:me /*",
        "echo x > /dev/sda",
        "cat image >/dev/sda",
        "echo x >> /dev/nvme0n1",
        "cat x | tee /dev/sdb",
        "cp disk.img /dev/sdc",
    ];
    for command in blocked {
        match check_command(command) {
            Err(b) => assert!(!b.reason.is_empty(), "{command}: no reason"),
            Ok(()) => panic!("not blocked: {command}"),
        }
        assert_eq!(command_prefix(command), None, "a blocked command must never be remembered: {command}");
    }
}

#[test]
fn ordinary_commands_and_mentions_in_data_are_not_blocked() {
    let allowed = [
        "rm -rf ./build",
        "rm -rf build/ target/",
        "rm -rf /tmp/warden-test-123",
        "rm -f /etc/hosts.bak",
        "rm -rf ~/projects/old",
        "rm -rf $HOME/.cache/foo",
        "rm /",
        "echo \"rm -rf /\"",
        "echo 'rm -rf /'",
        "grep shutdown log.txt",
        "grep -r 'mkfs' docs/",
        "git commit -m 'fix: rm -rf / guard'",
        "cat notes-about-reboot.md",
        "dd if=/dev/zero of=./disk.img bs=1M count=10",
        "dd if=/dev/urandom of=/dev/null count=1",
        "echo hi > /dev/null 2>&1",
        "ls > /dev/stderr",
        "chmod -R 755 ./scripts",
        "chmod 644 /",
        "chown -R me ./dir",
        "cargo test -- --nocapture",
        "find . -name '*.rs' | xargs wc -l",
        "python3 -c 'print(1)'",
        "sh -c 'echo hello'",
        "f() { echo hi; }; f",
        "echo ':(){ :|:& };:' > fork.txt",
    ];
    for command in allowed {
        if let Err(b) = check_command(command) {
            panic!("false positive: {command}: {}", b.reason);
        }
    }
}

#[test]
fn command_prefixes_cover_one_program_and_subcommand_never_compounds() {
    let cases = [
        ("git status", Some("git status")),
        ("git status --short", Some("git status")),
        ("cargo test -p warden-core", Some("cargo test")),
        ("npm run build", Some("npm run")),
        ("ls", Some("ls")),
        ("ls -la src", Some("ls")),
        ("cargo build 2>&1", Some("cargo build")),
        ("make test > /dev/null", Some("make test")),
        ("git status && rm -rf ~", None),
        ("git status; rm -rf build", None),
        ("git status || true", None),
        ("git log | head", None),
        ("git status &", None),
        ("(git status)", None),
        ("echo $(whoami)", None),
        ("echo `whoami`", None),
        ("ls > files.txt", None),
        ("cat < input.txt", None),
        ("FOO=1 cargo test", None),
        ("sudo ls", None),
        ("env ls", None),
        ("sh -c 'git status'", None),
        ("git -c core.pager=evil log", None),
        ("", None),
    ];
    for (command, expected) in cases {
        assert_eq!(command_prefix(command).as_deref(), expected, "{command}");
    }
}

#[tokio::test]
async fn bash_refuses_blocked_commands_before_running_anything() {
    let env = TestEnv::new();
    let marker = env.path("ran.txt");
    let command = format!("touch {} ; rm -rf /", marker.display());
    let out = env.call("bash", json!({ "command": command })).await;
    assert_code(&out, ToolErrorCode::BlockedCommand);
    assert!(meta(&out, "reason").as_str().is_some_and(|r| r.contains("recursive delete")), "{}", out.content);
    assert!(!marker.exists(), "nothing may run when any part is blocked");
}
