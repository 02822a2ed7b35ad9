//! How the face reaches a remote engine: `ssh HOST` running `warden serve --stdio` there (the
//! user's own OpenSSH, configuration, agent and keys; host keys checked as ssh checks them), or a
//! command the user gives that does the same over its own pipe (`docker exec -i …`, `kubectl exec
//! -i …`, `runuser -u …`).

use std::ffi::OsString;

use super::askpass::SshAsks;

/// Set like git's `GIT_SSH_COMMAND`: the ssh command line to use (run by `sh`, the options after
/// it), e.g. `ssh -F ~/.ssh/work_config`.
pub const SSH_COMMAND_ENV: &str = "WARDEN_SSH_COMMAND";

/// Where a copied engine is looked for first on the remote machine, then `warden` on its `PATH`.
pub const REMOTE_BIN: &str = ".local/share/warden/bin/warden";

/// A remote project: `host:/path`. The host is anything ssh takes (`user@host`, an alias of
/// `~/.ssh/config`); the path is absolute on the remote machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteTarget {
    pub host: String,
    pub path: String,
}

impl RemoteTarget {
    pub fn parse(target: &str) -> Result<Self, String> {
        let Some((host, path)) = target.split_once(':') else {
            return Err(format!("`{target}` is not host:/path (a remote project is named by its host and its absolute path there)"));
        };
        check_host(host)?;
        if !path.starts_with('/') || path.contains('\0') {
            return Err(format!("`{path}` is not an absolute path (host:/path)"));
        }
        Ok(Self { host: host.to_owned(), path: path.to_owned() })
    }
}

/// Whether `host` can be given to ssh as a host (never as an option: no leading `-`).
pub fn check_host(host: &str) -> Result<(), String> {
    if host.is_empty() || host.starts_with('-') || host.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("`{host}` is not a host name"));
    }
    Ok(())
}

impl std::fmt::Display for RemoteTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.host, self.path)
    }
}

/// The command that gives the pipe to a remote `warden serve --stdio`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transport {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// How the user would name it ("ssh build-box", the command they gave).
    pub shown: String,
    /// ssh asks through Warden's own `SSH_ASKPASS` ([`super::askpass`]): its environment, and
    /// where its process is noted once started.
    pub asks: Option<SshAsks>,
}

/// The remote command: the copied engine when there is one, else `warden` on the remote `PATH`.
/// One argument for `sh -c` on the remote side, so it reads the same under any login shell.
fn remote_serve_command() -> String {
    format!("sh -c 'w=\"$HOME/{REMOTE_BIN}\"; [ -x \"$w\" ] || w=warden; exec \"$w\" serve --stdio'")
}

impl Transport {
    /// `ssh` to `host` (or `$WARDEN_SSH_COMMAND`) running `warden serve --stdio` there, with no
    /// terminal, keep-alives so a dead link is noticed, and the host key checked as the user's
    /// configuration says (never turned off).
    pub fn ssh(host: &str) -> Self {
        Self::ssh_running(host, &remote_serve_command())
    }

    /// `ssh` to `host` running `command` there (one argument, read by the remote login shell).
    pub fn ssh_running(host: &str, command: &str) -> Self {
        let options = ["-T", "-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3", "--"];
        let mut args: Vec<OsString> = options.iter().map(OsString::from).collect();
        args.push(host.into());
        args.push(command.into());
        match std::env::var(SSH_COMMAND_ENV).ok().filter(|c| !c.trim().is_empty()) {
            Some(ssh) => {
                let mut through_sh: Vec<OsString> =
                    vec!["-c".into(), format!("exec {ssh} \"$@\"").into(), "warden-ssh".into()];
                through_sh.extend(args);
                Self { program: "sh".into(), args: through_sh, shown: format!("{ssh} {host}"), asks: None }
            }
            None => Self { program: "ssh".into(), args, shown: format!("ssh {host}"), asks: None },
        }
    }

    /// A command line the user gave, run by `sh` (`docker exec -i box warden serve --stdio`).
    pub fn command(line: &str) -> Self {
        Self {
            program: "sh".into(),
            args: vec!["-c".into(), line.into()],
            shown: line.to_owned(),
            asks: None,
        }
    }

    /// This transport asking through `asks` (Warden's own `SSH_ASKPASS`).
    #[must_use]
    pub fn with_asks(mut self, asks: Option<SshAsks>) -> Self {
        self.asks = asks;
        self
    }

    /// The environment it is started with besides the inherited one.
    pub fn env(&self) -> &[(OsString, OsString)] {
        self.asks.as_ref().map_or(&[], |asks| asks.env.as_slice())
    }

    /// It was started as process `pid` (noted for the askpass, which answers only its children).
    pub fn started(&self, pid: Option<u32>) {
        if let (Some(asks), Some(pid)) = (&self.asks, pid) {
            asks.started(pid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_is_a_host_and_an_absolute_path() {
        assert_eq!(
            RemoteTarget::parse("me@build:/srv/app").unwrap(),
            RemoteTarget { host: "me@build".into(), path: "/srv/app".into() }
        );
        assert_eq!(RemoteTarget::parse("box:/a:b").unwrap().path, "/a:b");
        for bad in ["build", ":/srv", "build:srv", "-oProxyCommand=x:/srv", "a b:/srv", "build:"] {
            assert!(RemoteTarget::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ssh_gets_the_host_after_the_end_of_its_options() {
        let transport = Transport::ssh("build");
        let args: Vec<_> = transport.args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        let dashes = args.iter().position(|a| a == "--").unwrap();
        assert_eq!(args[dashes + 1], "build");
        assert!(args[dashes + 2].contains("serve --stdio"), "{args:?}");
        assert!(!args.iter().any(|a| a.contains("StrictHostKeyChecking")), "{args:?}");
    }
}
