//! Saying why a command failed when the box is the reason, in words the model and the user
//! understand: the raw errors ("Read-only file system", "Network is unreachable", EPERM from the
//! seccomp filter) look like bugs of the command, and a model that does not know about the box
//! retries the same thing or works around it badly.

use super::BoxPolicy;

/// A note for a failed command's output when it shows the signs of a denial by `policy`'s box;
/// `None` when nothing in `output` points at the box.
pub fn explain_denial(output: &str, policy: &BoxPolicy) -> Option<String> {
    let mut notes = Vec::new();
    if output.contains("Read-only file system") {
        notes.push(
            "Warden's sandbox refused a write outside the project: commands may write only in the \
             project, its build caches and /tmp (and never in .git/hooks or .git/config)",
        );
    }
    if !policy.network && NETWORK_SIGNS.iter().any(|sign| output.contains(sign)) {
        notes.push(
            "the sandbox has no network: if this command needs it, call bash again with \
             \"network\": true and the user will be asked",
        );
    }
    if notes.is_empty() && output.contains("Operation not permitted") {
        notes.push(
            "the sandbox may have refused this operation (commands cannot see or signal processes \
             outside it, mount, trace or open sockets without the network)",
        );
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// What failed connections print, in the tools people run (curl, wget, git, pip, npm, cargo,
/// Python, ssh).
const NETWORK_SIGNS: &[&str] = &[
    "Network is unreachable",
    "Could not resolve host",
    "Temporary failure in name resolution",
    "Name or service not known",
    "Could not resolve hostname",
    "getaddrinfo",
    "EAI_AGAIN",
    "ENETUNREACH",
    "Connection refused",
    "Failed to connect",
    "unable to access",
    "socket: Operation not permitted",
    "PermissionError: [Errno 1] Operation not permitted",
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn policy(network: bool) -> BoxPolicy {
        BoxPolicy {
            project: PathBuf::from("/p"),
            writable: vec![],
            hidden: vec![],
            read_only: vec![],
            pinned: vec![],
            visible: vec![],
            network,
            network_rules: Default::default(),
            home: None,
            readable: vec![],
            home_known: true,
        }
    }

    #[test]
    fn the_signs_of_the_box_are_explained() {
        let write = explain_denial("sh: 1: cannot create /etc/x: Read-only file system", &policy(false));
        assert!(write.is_some_and(|n| n.contains("write outside the project")));
        let curl = "curl: (6) Could not resolve host: example.com";
        assert!(explain_denial(curl, &policy(false)).is_some_and(|n| n.contains("\"network\": true")));
        let python = "PermissionError: [Errno 1] Operation not permitted";
        assert!(explain_denial(python, &policy(false)).is_some_and(|n| n.contains("no network")));
        assert!(explain_denial("kill: (1): Operation not permitted", &policy(false))
            .is_some_and(|n| n.contains("may have refused")));
    }

    #[test]
    fn nothing_is_said_when_the_box_is_not_the_reason() {
        assert_eq!(explain_denial("error[E0425]: cannot find value `x`", &policy(false)), None);
        // With the network allowed, a failed connection is the network's business, not the box's.
        assert_eq!(explain_denial("curl: (6) Could not resolve host: x", &policy(true)), None);
    }
}
