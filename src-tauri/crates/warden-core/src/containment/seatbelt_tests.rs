//! The generated profile, read back as SBPL: these run on every platform; `sandbox-exec` itself is
//! only exercised by [`probe`] on macOS.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::*;

fn policy() -> BoxPolicy {
    BoxPolicy {
        project: "/srv/p".into(),
        writable: vec![],
        caches: vec!["/home/u/.cargo/registry".into()],
        cache_layer: None,
        hidden: vec!["/home/u/.netrc".into(), "/srv/p/deploy/keys/server.pem".into()],
        read_only: vec!["/srv/p/.git/hooks".into(), "/srv/p/.git/config".into()],
        pinned: vec![],
        visible: vec![],
        network: false,
        network_rules: Default::default(),
        home: None,
        readable: vec![],
        home_known: true,
        shared_net: None,
        own_proxy: None,
        git_aside: None,
    }
}

fn temp() -> &'static Path {
    Path::new("/var/folders/xy/T")
}

/// The top-level forms of an SBPL text; `Err` when a string or a list is not closed or a list
/// closes that was not opened. Knows `;` comments, `"…"` strings with `\` escapes and `#"…"`.
fn forms(text: &str) -> Result<Vec<String>, String> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0usize, 0usize);
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            ';' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' => loop {
                match chars.next() {
                    Some((_, '\\')) => {
                        chars.next();
                    }
                    Some((_, '"')) => break,
                    Some(_) => {}
                    None => return Err(format!("string at {i} not closed")),
                }
            },
            '(' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            ')' => {
                depth = depth.checked_sub(1).ok_or(format!("unopened ) at {i}"))?;
                if depth == 0 {
                    out.push(text[start..=i].to_owned());
                }
            }
            c if depth == 0 && !c.is_whitespace() && c != '#' => {
                return Err(format!("stray {c:?} at top level at {i}"));
            }
            _ => {}
        }
    }
    if depth == 0 {
        Ok(out)
    } else {
        Err("list not closed".to_owned())
    }
}

/// The parameter names that stand for `path`.
fn names(profile: &Profile, path: &str) -> Vec<String> {
    profile.params.iter().filter(|(_, p)| p == Path::new(path)).map(|(n, _)| n.clone()).collect()
}

/// The index of the top-level form `rule`, which must be there exactly once.
fn index(forms: &[String], rule: &str) -> usize {
    let found: Vec<_> = forms.iter().enumerate().filter(|(_, f)| f.as_str() == rule).collect();
    assert_eq!(found.len(), 1, "{rule} is there {} times in {forms:#?}", found.len());
    found[0].0
}

fn one(profile: &Profile, path: &str) -> String {
    let found = names(profile, path);
    assert_eq!(found.len(), 1, "{path}: {:?}", profile.params);
    found[0].clone()
}

#[test]
fn the_parser_sees_a_broken_profile() {
    assert_eq!(forms("(a \"b)\" #\"c(\") ; (d\n(e)").unwrap().len(), 2);
    assert!(forms("(a \"b)").is_err() && forms("(a))").is_err() && forms("(a) b").is_err());
}

#[test]
fn everything_is_denied_first_and_every_denial_comes_after_every_allowance() {
    let profile = profile(&policy(), temp());
    let forms = forms(&profile.text).unwrap();
    assert_eq!(forms[..2], ["(version 1)", "(deny default)"]);
    assert!(!profile.text.contains("(allow default"), "{}", profile.text);
    let last_allow = forms.iter().rposition(|f| f.starts_with("(allow")).unwrap();
    let first_deny = forms.iter().skip(2).position(|f| f.starts_with("(deny")).unwrap() + 2;
    assert!(last_allow < first_deny, "an allowance after a denial would win: {forms:#?}");
    assert!(forms.contains(&"(allow file-read*)".to_owned()));
    assert!(forms.contains(&"(allow signal (target same-sandbox))".to_owned()));
}

#[test]
fn hidden_folders_and_files_cannot_be_read_written_or_connected_to() {
    let home = tempfile::tempdir().unwrap();
    let ssh = home.path().join(".ssh");
    std::fs::create_dir(&ssh).unwrap();
    let mut p = policy();
    p.hidden.push(ssh.clone());
    let profile = profile(&p, temp());
    let forms = forms(&profile.text).unwrap();
    let ssh = one(&profile, ssh.to_str().unwrap());
    index(&forms, &format!("(deny file-read* file-write* (subpath (param \"{ssh}\")))"));
    for file in ["/home/u/.netrc", "/srv/p/deploy/keys/server.pem"] {
        let name = one(&profile, file);
        index(&forms, &format!("(deny file-read* file-write* (literal (param \"{name}\")))"));
        index(&forms, &format!("(deny network-outbound (remote unix-socket (subpath (param \"{name}\"))))"));
    }
}

#[test]
fn writes_go_to_the_project_caches_and_temp_folders_only() {
    let profile = profile(&policy(), temp());
    let forms = forms(&profile.text).unwrap();
    let mut writable = Vec::new();
    for form in forms.iter().filter(|f| f.starts_with("(allow file-write*")) {
        let param = form.split("(param \"").nth(1).and_then(|rest| rest.split('"').next());
        match param {
            Some(name) => {
                writable.extend(profile.params.iter().filter(|(n, _)| n == name).map(|(_, p)| p.clone()))
            }
            None => writable.push(PathBuf::from(form)),
        }
    }
    let want: Vec<PathBuf> = [
        "(allow file-write* (subpath \"/private/tmp\") (subpath \"/private/var/tmp\"))",
        "/var/folders/xy/T",
        "/home/u/.cargo/registry",
        "/srv/p",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    assert_eq!(writable, want);
    let data = forms.iter().filter(|f| f.starts_with("(allow file-write-data")).count();
    assert_eq!(data, 1, "/dev/null and the standard streams");
}

#[test]
fn read_only_paths_are_denied_after_the_project_and_their_folders_cannot_be_renamed() {
    let mut p = policy();
    // A cache holding the project: the outermost writable folder decides what can be renamed.
    p.writable.push("/srv".into());
    let profile = profile(&p, temp());
    let forms = forms(&profile.text).unwrap();
    let project = names(&profile, "/srv/p").into_iter().find(|n| n.starts_with("PROJECT")).unwrap();
    let project = index(&forms, &format!("(allow file-write* (subpath (param \"{project}\")))"));
    for path in ["/srv/p/.git/hooks", "/srv/p/.git/config"] {
        let denied =
            index(&forms, &format!("(deny file-write* (subpath (param \"{}\")))", one(&profile, path)));
        assert!(project < denied, "the later rule wins: {forms:#?}");
    }
    for parent in ["/srv/p/.git", "/srv/p", "/srv/p/deploy/keys", "/srv/p/deploy"] {
        let names = names(&profile, parent);
        let rule = |n: &String| format!("(deny file-write* (literal (param \"{n}\")))");
        assert!(names.iter().any(|n| forms.contains(&rule(n))), "{parent} can be renamed: {forms:#?}");
    }
    assert!(names(&profile, "/srv").len() == 1, "the root itself stays writable");
    assert!(names(&profile, "/home/u").is_empty(), "/home/u/.netrc is not in a writable folder");
}

#[test]
fn the_network_rules_follow_the_policy() {
    let mut p = policy();
    let closed = profile(&p, temp()).text;
    assert!(!closed.contains("(allow network") && !closed.contains("system-socket"), "{closed}");
    p.network = true;
    let open = profile(&p, temp());
    let forms = forms(&open.text).unwrap();
    let outbound =
        forms.iter().position(|f| f.starts_with("(allow network-outbound")).expect("network allowed");
    let socket = forms.iter().position(|f| f.starts_with("(deny network-outbound")).unwrap();
    assert!(outbound < socket, "hidden sockets stay closed with the network on");
    assert!(!open.text.contains("com.apple.SecurityServer"), "no keychain");
}

#[test]
fn hostile_paths_are_parameters_and_cannot_add_rules() {
    let hostile =
        |base: &str| -> PathBuf { format!("{base}\")) (allow default) ; \\\" \\\\ (deny\n#\"x").into() };
    let mut bad = policy();
    bad.project = hostile("/srv/p");
    bad.caches = vec![hostile("/home/u/.npm")];
    bad.hidden = vec![hostile("/home/u/.netrc"), hostile("/srv/p").join("deploy/keys/server.pem")];
    bad.read_only = vec![hostile("/srv/p").join(".git/hooks"), hostile("/srv/p").join(".git/config")];
    let good = profile(&policy(), temp());
    let evil = profile(&bad, &hostile("/var/folders/xy/T"));
    assert_eq!(evil.text, good.text, "the text depends on the policy's shape only");
    assert!(!evil.text.contains("allow default") && !evil.text.contains("/srv"));
    assert_eq!(forms(&evil.text).unwrap().len(), forms(&good.text).unwrap().len());
    let args = evil.arguments();
    assert_eq!(args[..2], [OsString::from("-p"), OsString::from(&evil.text)]);
    for (i, (name, path)) in evil.params.iter().enumerate() {
        assert!(name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'));
        let mut want = OsString::from(format!("{name}="));
        want.push(path);
        assert_eq!(args[2 + 2 * i..4 + 2 * i], [OsString::from("-D"), want]);
    }
    assert_eq!(args.len(), 2 + 2 * evil.params.len());
}

#[cfg(unix)]
#[test]
fn bytes_that_are_not_utf8_pass_unchanged() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let mut p = policy();
    p.project = PathBuf::from(OsStr::from_bytes(b"/tmp/a b\n\xff"));
    let args = profile(&p, temp()).arguments();
    assert!(args.iter().any(|a| a.as_bytes().ends_with(b"=/tmp/a b\n\xff")), "{args:?}");
}

#[cfg(unix)]
#[test]
fn a_symlinked_folder_is_named_as_given_and_as_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut p = policy();
    p.writable = vec![link.clone()];
    let profile = profile(&p, temp());
    let resolved = std::fs::canonicalize(&real).unwrap();
    for path in [link, resolved] {
        let name = one(&profile, path.to_str().unwrap());
        assert!(profile.text.contains(&format!("(allow file-write* (subpath (param \"{name}\")))")));
    }
}

#[test]
fn the_launch_is_sandbox_exec_then_the_command() {
    let argv: Vec<OsString> = ["sh", "-c", "echo hi"].map(OsString::from).to_vec();
    let run = launch(Path::new(PROGRAM), &policy(), &argv).unwrap();
    assert_eq!(run.program, Path::new("/usr/bin/sandbox-exec"));
    assert!(run.contained && run.fds.is_empty());
    assert_eq!(run.args[0], "-p");
    assert_eq!(run.args[run.args.len() - 4..], ["--", "sh", "-c", "echo hi"].map(OsString::from));
    assert!(launch(Path::new(PROGRAM), &policy(), &[]).is_err());
}

#[cfg(not(target_os = "macos"))]
#[test]
fn elsewhere_seatbelt_is_not_chosen() {
    assert!(!matches!(probe(), Mechanism::Seatbelt { .. }));
    assert!(!matches!(super::super::mechanism::platform(), Mechanism::Seatbelt { .. }));
    let said = Mechanism::Seatbelt { program: PROGRAM.into() }.describe();
    assert!(said.starts_with("Seatbelt (sandbox-exec): commands have no network unless"), "{said}");
}
