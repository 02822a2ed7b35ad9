//! Saying why a command failed when the box is the reason, in words the model and the user
//! understand: the raw errors ("Read-only file system", "Network is unreachable", EPERM from the
//! seccomp filter) look like bugs of the command, and a model that does not know about the box
//! retries the same thing or works around it badly.

use std::path::PathBuf;

use warden_protocol::BoxRefusal;

use super::BoxPolicy;

/// What `policy`'s box refused, as a failed command's `output` shows it (a hidden path is said
/// apart, by [`hidden_home_paths`]).
pub fn refusals(output: &str, policy: &BoxPolicy) -> Vec<BoxRefusal> {
    let mut found = Vec::new();
    if output.contains("Read-only file system") {
        found.push(BoxRefusal::WriteOutside);
    }
    if NETWORK_SIGNS.iter().any(|sign| output.contains(sign)) {
        found.push(if policy.network { BoxRefusal::PastTheProxy } else { BoxRefusal::NoNetwork });
    }
    found
}

/// A note for a failed command's output when it shows the signs of a denial by `policy`'s box;
/// `None` when nothing in `output` points at the box. Written for the model: it says what to do
/// next in its own terms.
pub fn explain_denial(output: &str, policy: &BoxPolicy) -> Option<String> {
    let mut notes = Vec::new();
    let hidden = hidden_home_paths(output, policy);
    let named: Vec<String> = hidden.iter().map(|p| p.display().to_string()).collect();
    let hidden_note = format!(
        "Warden's sandbox shows commands only the toolchains of the home, and {} not there; the \
         user can let this project's commands read a path in Settings → Sandbox",
        match named.as_slice() {
            [one] => format!("{one} is"),
            many => format!("{} are", many.join(", ")),
        }
    );
    if !hidden.is_empty() {
        notes.push(hidden_note.as_str());
    }
    for refusal in refusals(output, policy) {
        notes.push(match refusal {
            BoxRefusal::WriteOutside => {
                "Warden's sandbox refused a write outside the project: commands may write only in the \
                 project and /tmp (never in .git/hooks or .git/config; the package caches are read-only, \
                 their writes go to the project's private layer where the sandbox has one)"
            }
            // The box's own namespace has no route and no resolver: only programs that use the
            // proxy reach anything, and the proxy's refusals say so themselves.
            BoxRefusal::PastTheProxy => {
                "the sandbox reaches the network only through Warden's proxy (HTTP_PROXY, HTTPS_PROXY \
                 and ALL_PROXY are set, and the proxy resolves names): a program that ignores them, \
                 or connects to an address or resolves a name itself, reaches nothing"
            }
            BoxRefusal::NoNetwork => {
                "the sandbox has no network: if this command needs it, call bash again with \
                 \"network\": true and the user will be asked"
            }
        });
    }
    if notes.is_empty() && output.contains("Operation not permitted") {
        notes.push(
            "the sandbox may have refused this operation (commands cannot see or signal processes \
             outside it, mount, trace or open sockets without the network)",
        );
    }
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// The most paths [`hidden_home_paths`] names, and the most it looks at.
const MOST_HIDDEN_PATHS: usize = 8;
const MOST_CANDIDATES: usize = 256;

/// The paths under the home that `output` names, that exist, and that `policy`'s box does not
/// show (outside what it mounts in the emptied home, or hidden): what a command that failed may
/// have looked for in vain. At most [`MOST_HIDDEN_PATHS`], each once.
pub fn hidden_home_paths(output: &str, policy: &BoxPolicy) -> Vec<PathBuf> {
    let Some(home) = &policy.home else { return Vec::new() };
    let prefix = format!("{}/", home.display());
    let mut found: Vec<PathBuf> = Vec::new();
    // Each candidate costs a look at the file system: a command that printed a million home
    // paths is looked at for its first few hundred.
    for (at, _) in output.match_indices(&prefix).take(MOST_CANDIDATES) {
        let rest = &output[at..];
        let end = rest.find(|c: char| c.is_whitespace() || PATH_ENDS.contains(&c)).unwrap_or(rest.len());
        let path = PathBuf::from(rest[..end].trim_end_matches(['.', '/']));
        let absent = !policy.shows_in_home(&path) || policy.hidden.iter().any(|h| path.starts_with(h));
        if absent && std::fs::symlink_metadata(&path).is_ok() && !found.contains(&path) {
            found.push(path);
            if found.len() == MOST_HIDDEN_PATHS {
                break;
            }
        }
    }
    found
}

/// Of the [`hidden_home_paths`] `output` names, those a command's block may offer to let the
/// project's commands read ([`BoxPolicy::may_offer_read`]).
pub fn readable_offers(output: &str, policy: &BoxPolicy) -> Vec<PathBuf> {
    let mut offers = hidden_home_paths(output, policy);
    offers.retain(|path| policy.may_offer_read(path).is_ok());
    offers
}

/// What ends a path in a program's message: `cat: /x: No such…`, `'/x'`, `(/x)`, `"/x",`.
const PATH_ENDS: &[char] = &['\'', '"', '`', ':', ',', ';', '(', ')', '[', ']', '<', '>', '|'];

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
            caches: vec![],
            cache_layer: None,
            hidden: vec![],
            read_only: vec![],
            pinned: vec![],
            visible: vec![],
            network,
            network_rules: Default::default(),
            home: None,
            readable: vec![],
            home_known: true,
            shared_net: None,
            own_proxy: None,
            git_aside: None,
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
    fn paths_of_the_home_the_box_does_not_show_are_named() {
        let root = tempfile::tempdir().unwrap();
        let home = std::fs::canonicalize(root.path()).unwrap();
        for dir in ["Documents", ".cargo/bin", ".ssh", "proj"] {
            std::fs::create_dir_all(home.join(dir)).unwrap();
        }
        std::fs::write(home.join("Documents/notes.txt"), "").unwrap();
        let mut p = policy(false);
        p.project = home.join("proj");
        p.home = Some(home.clone());
        p.readable = vec![home.join(".cargo/bin")];
        p.hidden = vec![home.join(".ssh")];
        let h = home.display();
        let output = format!(
            "cat: {h}/Documents/notes.txt: No such file or directory\nopen('{h}/.ssh')\n\
             ls: {h}/.cargo/bin: fine\n{h}/proj/x missing\n{h}/Documents/notes.txt again\n\
             {h}/never-there: No such file\n{h}-other/x\n"
        );
        assert_eq!(hidden_home_paths(&output, &p), [home.join("Documents/notes.txt"), home.join(".ssh")]);
        let note = explain_denial(&output, &p).unwrap();
        assert!(note.contains("notes.txt, ") && note.contains("Settings → Sandbox"), "{note}");
        assert!(hidden_home_paths(&output, &policy(false)).is_empty(), "no emptied home, nothing hidden");
    }

    /// What a block may offer to make readable: a home path the box leaves out, never one it
    /// hides on purpose (a credential location even when the policy's list misses it), the home,
    /// what is outside it, what it shows already, or a path spelled with `..`.
    #[test]
    fn only_what_the_emptied_home_left_out_is_offered() {
        let root = tempfile::tempdir().unwrap();
        let home = std::fs::canonicalize(root.path()).unwrap().join("home");
        for dir in ["Documents", ".cargo/bin", ".ssh", ".aws", "proj", "warden"] {
            std::fs::create_dir_all(home.join(dir)).unwrap();
        }
        std::fs::write(home.join("Documents/notes.txt"), "").unwrap();
        let mut p = policy(false);
        p.project = home.join("proj");
        p.home = Some(home.clone());
        p.readable = vec![home.join(".cargo/bin")];
        p.hidden = vec![home.join(".ssh"), home.join("warden")];
        assert_eq!(p.may_offer_read(&home.join("Documents/notes.txt")), Ok(()));
        assert_eq!(p.may_offer_read(&home.join("Documents")), Ok(()));
        for (path, why) in [
            (home.join(".ssh"), "on purpose"),
            (home.join("warden"), "on purpose"),
            (home.join(".aws"), "on purpose"),
            (home.clone(), "not inside the home"),
            (root.path().to_path_buf(), "not inside the home"),
            (home.join(".cargo/bin"), "shows it already"),
            (home.join("proj"), "shows it already"),
            (home.join("proj/../Documents"), "plain absolute"),
            (PathBuf::from("Documents"), "plain absolute"),
            (home.join("never-there"), "does not exist"),
        ] {
            let refused = p.may_offer_read(&path);
            assert!(refused.is_err_and(|e| e.contains(why)), "{}: {refused:?}", path.display());
        }
        let h = home.display();
        let output =
            format!("cat: {h}/Documents/notes.txt: No such file\nopen('{h}/.ssh/id_rsa')\n{h}/.aws\n");
        assert_eq!(readable_offers(&output, &p), [home.join("Documents/notes.txt")]);
    }

    #[test]
    fn nothing_is_said_when_the_box_is_not_the_reason() {
        assert_eq!(explain_denial("error[E0425]: cannot find value `x`", &policy(false)), None);
        assert_eq!(refusals("error[E0425]: cannot find value `x`", &policy(false)), []);
    }

    /// What the block says, typed: a write outside, and a connection with no network or past the
    /// proxy (by whether the box has the network).
    #[test]
    fn the_refusals_are_named_for_the_block() {
        let write = "touch: cannot touch '/usr/x': Read-only file system";
        assert_eq!(refusals(write, &policy(false)), [BoxRefusal::WriteOutside]);
        let curl = "curl: (6) Could not resolve host: example.com";
        assert_eq!(refusals(curl, &policy(false)), [BoxRefusal::NoNetwork]);
        assert_eq!(refusals(curl, &policy(true)), [BoxRefusal::PastTheProxy]);
        let both = format!("{write}\n{curl}");
        assert_eq!(refusals(&both, &policy(false)), [BoxRefusal::WriteOutside, BoxRefusal::NoNetwork]);
    }

    #[test]
    fn with_the_network_a_failed_direct_connection_points_at_the_proxy() {
        let said = explain_denial("curl: (6) Could not resolve host: x", &policy(true));
        assert!(said.as_deref().is_some_and(|n| n.contains("only through Warden's proxy")), "{said:?}");
        assert!(!said.unwrap_or_default().contains("\"network\": true"), "no escalation to suggest");
        // The proxy's own refusal is not a sign: it says why itself.
        let refused = "curl: (56) CONNECT tunnel failed, response 403";
        assert_eq!(explain_denial(refused, &policy(true)), None);
    }
}
