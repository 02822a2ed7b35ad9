//! The adversarial sandbox suite: nothing outside the roots is read or written, no secret is read
//! or written, and every refusal says why.

use serde_json::json;
use warden_core::sandbox::{Access, SandboxError};
use warden_protocol::ToolErrorCode;

use super::common::*;

const SECRET: &str = "TOP-SECRET-CONTENT-4242";

/// A project with every kind of trap in it.
fn trapped() -> TestEnv {
    let env = TestEnv::new();
    let out = env.outside.path().to_path_buf();
    env.outside_file("private.txt", SECRET);
    env.outside_file("dir/inner.txt", SECRET);
    env.write("ok.txt", "fine\n");
    env.write(".env", SECRET);
    env.write("sub/.ssh/config", SECRET);
    env.write("cert.pem", SECRET);
    env.write("tls.key", SECRET);
    env.write("ID_RSA", SECRET);
    env.write("my_secret_notes.txt", SECRET);
    env.write("aws-credentials.json", SECRET);
    env.write(".git/config", SECRET);
    env.write(".git/HEAD", "ref: refs/heads/main\n");
    symlink(&out.join("private.txt"), &env.path("file_out"));
    symlink(&out.join("dir"), &env.path("dir_out"));
    symlink(&env.path("loop_b"), &env.path("loop_a"));
    symlink(&env.path("loop_a"), &env.path("loop_b"));
    symlink(&env.path(".env"), &env.path("innocent.txt"));
    symlink(std::path::Path::new("sub/.ssh"), &env.path("keys_here"));
    symlink(std::path::Path::new("ok.txt"), &env.path("inside_link"));
    symlink(std::path::Path::new("../../../../../../../../etc"), &env.path("relative_out"));
    env
}

#[tokio::test]
async fn reads_outside_the_roots_or_of_secrets_are_violations_with_reasons() {
    let env = trapped();
    let outside_abs = env.outside.path().join("private.txt").to_string_lossy().into_owned();
    let long = "a/".repeat(2100);
    // Each reason is a phrase of the rule's own explanation, never a piece of the path, so that
    // finding it proves the refusal said why (the path alone would be in any message).
    const OUTSIDE: &str = "outside the project";
    const LINK: &str = "through a symlink it resolves to";
    const ENV: &str = "`.env*` files hold credentials";
    const SSH: &str = "`.ssh/` holds keys";
    const KEYS: &str = "`*.pem` / `*.key` files hold keys";
    const IDENTITY: &str = "SSH identity files hold keys";
    let cases: Vec<(String, &str)> = vec![
        ("../private.txt".into(), OUTSIDE),
        ("../../../../../../etc/passwd".into(), OUTSIDE),
        ("/etc/passwd".into(), OUTSIDE),
        (outside_abs, OUTSIDE),
        ("sub/../../x".into(), OUTSIDE),
        ("file_out".into(), LINK),
        ("dir_out/inner.txt".into(), LINK),
        ("relative_out/passwd".into(), LINK),
        ("loop_a".into(), "too many levels of symbolic links"),
        (".env".into(), ENV),
        (".ENV".into(), ENV),
        ("sub/.ssh/config".into(), SSH),
        ("keys_here/config".into(), SSH),
        ("cert.pem".into(), KEYS),
        ("tls.key".into(), KEYS),
        ("ID_RSA".into(), IDENTITY),
        ("id_rsa.pub".into(), IDENTITY),
        ("my_secret_notes.txt".into(), "`*secret*` paths hold secrets"),
        ("aws-credentials.json".into(), "`*credential*` paths hold credentials"),
        (".git/config".into(), "can hold credentials"),
        ("innocent.txt".into(), ENV),
        (".\u{0435}nv".into(), ENV),
        ("\u{FF0E}env".into(), ENV),
        ("/proc/self/environ".into(), "/proc is never accessible"),
        ("/sys/kernel".into(), "/sys is never accessible"),
        ("/dev/sda".into(), "/dev is never accessible"),
        ("ok.txt\0../../etc/passwd".into(), "contains a NUL byte"),
        (long, "bytes long; at most"),
        ("x".repeat(300), "a path component is"),
    ];
    for (path, why) in cases {
        let out = env.call("file_read", json!({ "path": path })).await;
        assert_code(&out, ToolErrorCode::SandboxViolation);
        assert!(!out.content.contains(SECRET), "{path}: secret leaked");
        let reason = meta(&out, "reason").as_str().unwrap_or_default();
        assert!(
            reason.contains(why),
            "{}: the reason should say {why:?}: {reason}",
            path.chars().take(60).collect::<String>()
        );
    }
}

#[tokio::test]
async fn symlinks_that_stay_inside_are_followed() {
    let env = trapped();
    let out = env.call("file_read", json!({ "path": "inside_link" })).await;
    assert_ok(&out);
    assert_eq!(out.content, "fine\n");
    let abs = env.path("ok.txt").to_string_lossy().into_owned();
    assert_ok(&env.call("file_read", json!({ "path": abs })).await);
    assert_ok(&env.call("file_read", json!({ "path": "sub/../ok.txt" })).await);
}

#[tokio::test]
async fn the_storage_root_is_inside() {
    let env = trapped();
    let storage = env.ctx.workspace.roots()[1].join("plan.md");
    let path = storage.to_string_lossy().into_owned();
    assert_ok(&env.call("file_write", json!({ "path": path, "content": "# plan\n" })).await);
    assert_eq!(std::fs::read_to_string(&storage).unwrap_or_default(), "# plan\n");
    assert!(storage.starts_with(env.home.path().canonicalize().unwrap_or_default().join("projects")));
}

#[tokio::test]
async fn writes_outside_or_to_secrets_change_nothing() {
    let env = trapped();
    let cases = [
        "../escape.txt",
        "dir_out/new.txt",
        "file_out",
        "dir_out/deeper/new.txt",
        "newdir/../../escape2.txt",
        "innocent.txt",
        ".env.local",
        "keys_here/authorized_keys",
        "relative_out/evil",
    ];
    for path in cases {
        let out = env.call("file_write", json!({ "path": path, "content": "pwned" })).await;
        assert_code(&out, ToolErrorCode::SandboxViolation);
        assert!(meta(&out, "reason").as_str().is_some_and(|r| !r.is_empty()), "{path}: no reason");
    }
    assert_eq!(std::fs::read_to_string(env.outside.path().join("private.txt")).unwrap_or_default(), SECRET);
    assert!(!env.outside.path().join("dir/new.txt").exists());
    assert!(!env.outside.path().join("dir/deeper").exists());
    assert!(!env.outside.path().join("escape.txt").exists());
    assert!(!env.project.path().parent().map(|p| p.join("escape2.txt").exists()).unwrap_or(false));
    assert_eq!(env.read(".env"), SECRET);
    assert!(!env.path(".env.local").exists());
    assert!(!env.path("newdir").exists(), "a refused write must not create parents");
}

#[tokio::test]
async fn a_symlink_swapped_in_after_the_check_cannot_read_outside() {
    let env = trapped();
    env.write("victim.txt", "harmless\n");
    let ws = env.ctx.workspace.clone();
    let resolved = ws.resolve("victim.txt", Access::Read).expect("inside");
    // The race: between the check and the open, the file becomes a symlink to a secret outside.
    std::fs::remove_file(env.path("victim.txt")).expect("remove");
    symlink(&env.outside.path().join("private.txt"), &env.path("victim.txt"));
    match ws.open_read(&resolved) {
        Err(SandboxError::Violation { reason, .. }) => assert!(reason.contains("after"), "{reason}"),
        other => panic!("expected a violation, got {other:?}"),
    }
}

#[tokio::test]
async fn a_symlink_swapped_in_after_the_check_cannot_write_outside() {
    let env = trapped();
    env.write("victim.txt", "harmless\n");
    let ws = env.ctx.workspace.clone();
    let resolved = ws.resolve("victim.txt", Access::Write).expect("inside");
    std::fs::remove_file(env.path("victim.txt")).expect("remove");
    symlink(&env.outside.path().join("private.txt"), &env.path("victim.txt"));
    assert!(matches!(ws.write_atomic(&resolved, b"pwned"), Err(SandboxError::Violation { .. })));
    // Not truncated, not changed.
    assert_eq!(std::fs::read_to_string(env.outside.path().join("private.txt")).unwrap_or_default(), SECRET);
}

#[tokio::test]
async fn a_parent_directory_swapped_for_a_symlink_cannot_lead_outside() {
    let env = trapped();
    env.write("d/f.txt", "x");
    let ws = env.ctx.workspace.clone();
    let resolved = ws.resolve("d/new.txt", Access::Write).expect("inside");
    std::fs::rename(env.path("d"), env.path("d_old")).expect("rename");
    symlink(&env.outside.path().join("dir"), &env.path("d"));
    let result = ws.write_atomic(&resolved, b"pwned");
    assert!(matches!(result, Err(SandboxError::Violation { .. })), "{result:?}");
    assert!(!env.outside.path().join("dir/new.txt").exists());
}

#[tokio::test]
async fn a_symlink_to_a_secret_inside_swapped_in_after_the_check_is_refused() {
    let env = trapped();
    env.write("notes.txt", "harmless\n");
    let ws = env.ctx.workspace.clone();
    let resolved = ws.resolve("notes.txt", Access::Read).expect("inside");
    std::fs::remove_file(env.path("notes.txt")).expect("remove");
    // Relative, so the capability open follows it (it stays inside); the descriptor check refuses it.
    symlink(std::path::Path::new(".env"), &env.path("notes.txt"));
    match ws.open_read(&resolved) {
        Err(SandboxError::Violation { reason, .. }) => assert!(reason.contains(".env"), "{reason}"),
        other => panic!("expected a violation, got {other:?}"),
    }
}

#[tokio::test]
async fn hard_links_are_never_written_through() {
    let env = trapped();
    let outside = env.outside_file("linked.txt", "outside original\n");
    std::fs::hard_link(&outside, env.path("hardlink.txt")).expect("hard link (same file system)");
    let out = env.call("file_write", json!({ "path": "hardlink.txt", "content": "changed" })).await;
    assert_code(&out, ToolErrorCode::SandboxViolation);
    assert!(out.content.contains("hard links"), "{}", out.content);
    let out = env
        .call("file_edit", json!({ "path": "hardlink.txt", "old_text": "original", "new_text": "x" }))
        .await;
    assert_code(&out, ToolErrorCode::SandboxViolation);
    assert_eq!(std::fs::read_to_string(&outside).unwrap_or_default(), "outside original\n");
    // Reading is allowed (documented): the link's name is inside and was checked like any other.
    assert_ok(&env.call("file_read", json!({ "path": "hardlink.txt" })).await);
}

#[tokio::test]
async fn write_globs_limit_where_write_tools_go() {
    let mut scope = warden_core::scope::Scope::all();
    scope.write_globs = vec!["src/**".to_owned()];
    let env = TestEnv::with(scope, Default::default());
    assert_ok(&env.call("file_write", json!({ "path": "src/lib.rs", "content": "//" })).await);
    let out = env.call("file_write", json!({ "path": "README.md", "content": "x" })).await;
    assert_code(&out, ToolErrorCode::PermissionDenied);
    assert!(out.content.contains("src/**"), "{}", out.content);
    assert!(!env.path("README.md").exists());
    // Reading is not limited by write globs.
    assert_ok(&env.call("file_read", json!({ "path": "src/lib.rs" })).await);
}

#[tokio::test]
async fn listings_and_searches_never_show_secret_files() {
    let env = trapped();
    let listing = env.call("list_dir", json!({ "include_hidden": true, "depth": 3 })).await;
    assert_ok(&listing);
    for hidden in [".env", "cert.pem", "tls.key", "ID_RSA", "my_secret", "credentials", ".ssh", ".git/config"]
    {
        assert!(!listing.content.contains(hidden), "{hidden} listed:\n{}", listing.content);
    }
    assert!(listing.content.contains("ok.txt"));
    let search = env.call("search_in_files", json!({ "query": "TOP-SECRET" })).await;
    assert!(!search.content.contains(SECRET), "{}", search.content);
    assert_code(&search, ToolErrorCode::ExecutionError);
}
