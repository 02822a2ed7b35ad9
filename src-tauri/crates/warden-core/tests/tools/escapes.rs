//! Escapes the adversarial review found: a `..` after a component that does not exist used to stop
//! symlink resolution for the rest of the path, and the walkers followed path strings after the
//! check (so a directory swapped for a symlink mid-walk led outside). Every tool that takes a path
//! is tried, with the canary outside the project.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use warden_core::scope::Scope;
use warden_core::tool::ToolsConfig;
use warden_protocol::ToolErrorCode;

use super::common::*;

const CANARY: &str = "CANARY-OUTSIDE-7f3a";

/// `path` relative to `/`, so that it can follow a link to `/`.
fn from_slash(path: &Path) -> String {
    path.to_string_lossy().trim_start_matches('/').to_owned()
}

/// A project with `up -> ../..`-style links and a canary tree outside.
fn escape_env() -> (TestEnv, PathBuf) {
    let env = TestEnv::new();
    let outside = env.outside.path().canonicalize().expect("outside");
    write(&outside.join("canary_dir/CANARY-file.txt"), &format!("{CANARY}\n"));
    write(&outside.join("canary.txt"), &format!("{CANARY}\n"));
    env.write("README.md", "inside\n");
    // `up` leads to `/` whatever depth the project has: enough `..` for any temp path.
    symlink(Path::new(&"../".repeat(40)), &env.path("up"));
    symlink(Path::new("/proc/self"), &env.path("pself"));
    (env, outside)
}

fn leaked(out: &warden_core::tool::ToolOutput) -> bool {
    out.content.contains(CANARY) || out.metadata.values().any(|v| v.to_string().contains(CANARY))
}

/// Inputs for every path-taking tool, aimed at `path`.
fn every_tool(path: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("file_read", json!({ "path": path })),
        ("file_info", json!({ "path": path })),
        ("list_dir", json!({ "path": path, "depth": 3 })),
        ("search_files", json!({ "pattern": "*", "path": path })),
        ("search_in_files", json!({ "query": CANARY, "path": path })),
    ]
}

#[tokio::test]
async fn dot_dot_after_a_missing_component_still_resolves_the_links_after_it() {
    let (env, outside) = escape_env();
    every_tool_is_refused_the_way_out(&env, &outside).await;
}

/// A session's workspace is remade under a new scope when its MCP servers' tools change: it keeps
/// every refusal the first one had.
#[tokio::test]
async fn a_workspace_remade_under_a_new_scope_refuses_the_same_escapes() {
    let (env, outside) = escape_env();
    let mut wider = Scope::all();
    wider.allow("mcp__server__tool");
    let env = env.rescoped(wider);
    every_tool_is_refused_the_way_out(&env, &outside).await;
    for path in ["x/../pself/environ", "x/../pself/cwd/README.md"] {
        let out = env.call("file_read", json!({ "path": path })).await;
        assert!(out.is_error, "{path}: expected a refusal, got {}", out.content);
    }
}

#[tokio::test]
async fn a_workspace_remade_under_a_new_scope_keeps_its_write_globs() {
    let scope = Scope { write_globs: vec!["src/**".to_owned()], ..Scope::all() };
    let env = TestEnv::with(scope.clone(), ToolsConfig::default()).rescoped(scope);
    env.write("README.md", "original\n");
    env.write("src/lib.rs", "// lib\n");
    symlink(Path::new(".."), &env.path("src/lnk"));
    for path in ["README.md", "x/../src/lnk/README.md", "src/lnk/README.md"] {
        let out = env.call("file_write", json!({ "path": path, "content": "pwned\n" })).await;
        assert!(out.is_error, "{path}: the write went through: {}", out.content);
    }
    assert_eq!(env.read("README.md"), "original\n");
    let out = env.call("file_write", json!({ "path": "src/new.rs", "content": "ok\n" })).await;
    assert!(!out.is_error, "{}", out.content);
}

/// Every path-taking tool, aimed outside through `..` after a missing component: refused, and
/// nothing of the canary comes back.
async fn every_tool_is_refused_the_way_out(env: &TestEnv, outside: &Path) {
    let dir = from_slash(&outside.join("canary_dir"));
    let file = from_slash(&outside.join("canary.txt"));
    let paths = [
        format!("x/../up/{dir}"),
        format!("x/../up/{file}"),
        format!("x/y/../../up/{dir}"),
        format!("x/../x/../up/{dir}"),
        format!("./x/.././up/{dir}"),
        format!("{}/x/../up/{dir}", env.root().display()),
        format!("x/../up/{dir}/CANARY-file.txt"),
    ];
    for path in &paths {
        for (tool, input) in every_tool(path) {
            let out = env.call(tool, input).await;
            assert!(!leaked(&out), "{tool} {path}: outside content leaked: {}", out.content);
            assert!(out.is_error, "{tool} {path}: expected a refusal, got {}", out.content);
        }
    }
}

#[tokio::test]
async fn dot_dot_after_a_missing_component_cannot_reach_proc() {
    let (env, _) = escape_env();
    for path in ["x/../pself/environ", "x/../pself/fd", "x/../pself/cwd/README.md"] {
        for (tool, input) in every_tool(path) {
            let out = env.call(tool, input).await;
            assert!(out.is_error, "{tool} {path}: expected a refusal, got {}", out.content);
        }
    }
}

#[tokio::test]
async fn dot_dot_after_a_missing_component_cannot_write_around_the_write_globs() {
    let scope = Scope { write_globs: vec!["src/**".to_owned()], ..Scope::all() };
    let env = TestEnv::with(scope, ToolsConfig::default());
    env.write("README.md", "original\n");
    env.write("src/lib.rs", "// lib\n");
    symlink(Path::new(".."), &env.path("src/lnk"));
    for path in ["x/../src/lnk/README.md", "src/x/../lnk/README.md", "src/new/../lnk/README.md"] {
        let out = env.call("file_write", json!({ "path": path, "content": "pwned\n" })).await;
        assert!(out.is_error, "{path}: the write went through: {}", out.content);
        assert_eq!(env.read("README.md"), "original\n", "{path}: README overwritten");
    }
    let out = env
        .call(
            "file_edit",
            json!({ "path": "x/../src/lnk/README.md", "old_text": "original", "new_text": "pwned" }),
        )
        .await;
    assert_code(&out, ToolErrorCode::SandboxViolation);
    assert_eq!(env.read("README.md"), "original\n");
}

#[tokio::test]
async fn dot_dot_after_a_missing_component_is_refused_with_its_reason() {
    let (env, _) = escape_env();
    env.write("a.txt", "a\n");
    let out = env.call("file_read", json!({ "path": "missing/../a.txt" })).await;
    assert_code(&out, ToolErrorCode::SandboxViolation);
    let reason = meta(&out, "reason").as_str().unwrap_or_default();
    assert!(reason.contains("missing") && reason.contains("does not exist"), "{reason}");
    let out = env.call("file_write", json!({ "path": "missing/../b.txt", "content": "b" })).await;
    assert!(out.is_error, "wrote through a missing directory: {}", out.content);
    assert!(!env.path("b.txt").exists());
}

/// Swaps `d` (a directory inside) with a symlink to the canary tree outside, atomically, until told
/// to stop.
#[cfg(target_os = "linux")]
fn start_swapper(env: &TestEnv, outside: &Path) -> (Arc<AtomicBool>, std::thread::JoinHandle<u64>) {
    use nix::fcntl::{renameat2, RenameFlags};
    let real = env.path("d");
    write(&real.join("inner.txt"), "inside\n");
    let link = env.path("d_swap");
    symlink(&outside.join("canary_dir"), &link);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let handle = std::thread::spawn(move || {
        let mut swaps = 0u64;
        while !flag.load(Ordering::Relaxed) {
            if renameat2(None, &real, None, &link, RenameFlags::RENAME_EXCHANGE).is_ok() {
                swaps += 1;
            }
        }
        if swaps % 2 == 1 {
            let _ = renameat2(None, &real, None, &link, RenameFlags::RENAME_EXCHANGE);
        }
        swaps
    });
    (stop, handle)
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directory_swapped_for_a_symlink_mid_walk_leaks_nothing() {
    let (env, outside) = escape_env();
    write(&outside.join("canary_dir/deeper/more.txt"), &format!("{CANARY}\n"));
    let (stop, swapper) = start_swapper(&env, &outside);
    let calls: Vec<(&str, Value)> = vec![
        ("search_in_files", json!({ "query": "CANARY|inside", "path": "d" })),
        ("search_in_files", json!({ "query": "CANARY|inside" })),
        ("list_dir", json!({ "path": "d", "depth": 3 })),
        ("list_dir", json!({ "depth": 3 })),
        ("search_files", json!({ "pattern": "*", "path": "d" })),
        ("search_files", json!({ "pattern": "**/*.txt" })),
        ("file_info", json!({ "path": "d/inner.txt" })),
        ("file_info", json!({ "path": "d/CANARY-file.txt" })),
        ("file_read", json!({ "path": "d/inner.txt" })),
        ("file_read", json!({ "path": "d/CANARY-file.txt" })),
    ];
    let mut leaks = Vec::new();
    let mut ok = 0usize;
    for round in 0..60 {
        for (tool, input) in &calls {
            let out = env.call(tool, input.clone()).await;
            // Naming the link's target in a refusal is no leak; what lies behind it is.
            let leak = if input.to_string().contains("CANARY-file") {
                !out.is_error
            } else {
                leaked(&out) || out.content.contains("CANARY-file") || out.content.contains("more.txt")
            };
            if leak {
                leaks.push(format!("round {round} {tool} {input}: {}", out.content));
            }
            ok += usize::from(!out.is_error);
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().expect("swapper");
    assert!(swaps > 100, "the swapper barely ran ({swaps} swaps)");
    assert!(ok > 0, "no call ever succeeded: the race was not exercised");
    assert!(leaks.is_empty(), "{} leaks, first: {}", leaks.len(), leaks[0]);
}

/// The longest prefix of `path` that exists, canonicalized (what the path really reaches so far).
fn real_existing_prefix(path: &Path) -> PathBuf {
    let mut probe = path.to_path_buf();
    loop {
        if let Ok(real) = probe.canonicalize() {
            return real;
        }
        if !probe.pop() {
            return PathBuf::from("/");
        }
    }
}

/// Every sequence of components — existing and missing directories, `.`, `..`, links up, to `/`,
/// outside and inside — either is refused or resolves to a place inside the roots, as the kernel
/// would walk it.
#[tokio::test]
async fn no_sequence_of_components_and_links_resolves_outside() {
    use rand::{Rng, SeedableRng};
    use warden_core::sandbox::Access;
    let (env, outside) = escape_env();
    std::fs::create_dir_all(env.path("a/b")).expect("dirs");
    symlink(Path::new(".."), &env.path("a/l_up"));
    symlink(Path::new("../.."), &env.path("a/b/l_up2"));
    symlink(Path::new("/"), &env.path("l_root"));
    symlink(&outside, &env.path("a/l_out"));
    symlink(Path::new("a/b"), &env.path("l_in"));
    let outside_parts: Vec<String> =
        outside.components().skip(1).map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let mut parts: Vec<String> =
        ["a", "b", "x", "y", "..", ".", "l_up", "l_up2", "l_root", "l_out", "l_in", "up", "canary_dir"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
    parts.extend(outside_parts);
    let roots: Vec<PathBuf> = env.ctx.workspace.roots().to_vec();
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5eed9);
    let (mut resolved_inside, mut refused) = (0u32, 0u32);
    for _ in 0..4000 {
        let n = rng.random_range(1..9);
        let path: Vec<&str> = (0..n).map(|_| parts[rng.random_range(0..parts.len())].as_str()).collect();
        let path = path.join("/");
        match env.ctx.workspace.resolve(&path, Access::Read) {
            Ok(resolved) => {
                let real = real_existing_prefix(&resolved.absolute);
                assert!(
                    roots.iter().any(|r| real.starts_with(r)),
                    "{path} resolved to {} which really is {}",
                    resolved.absolute.display(),
                    real.display()
                );
                resolved_inside += 1;
            }
            Err(_) => refused += 1,
        }
    }
    assert!(resolved_inside > 100 && refused > 100, "{resolved_inside} inside, {refused} refused");
}

/// The write tools under the same swap: nothing is ever created or changed behind the link.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_into_a_directory_swapped_for_a_symlink_never_land_outside() {
    let (env, outside) = escape_env();
    let canary_dir = outside.join("canary_dir");
    let before: Vec<_> =
        std::fs::read_dir(&canary_dir).expect("canary dir").flatten().map(|e| e.path()).collect();
    let (stop, swapper) = start_swapper(&env, &outside);
    for round in 0..100 {
        let name = format!("d/new-{round}.txt");
        let _ = env.call("file_write", json!({ "path": name, "content": "written\n" })).await;
        let _ = env
            .call(
                "file_edit",
                json!({ "path": "d/CANARY-file.txt", "old_text": "CANARY", "new_text": "EDITED" }),
            )
            .await;
        let _ = env
            .call("file_edit", json!({ "path": "d/inner.txt", "old_text": "inside", "new_text": "inside" }))
            .await;
        let patch = format!("--- /dev/null\n+++ b/d/patched-{round}.txt\n@@ -0,0 +1 @@\n+patched\n");
        let _ = env.call("apply_patch", json!({ "patch": patch })).await;
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().expect("swapper");
    assert!(swaps > 100, "the swapper barely ran ({swaps} swaps)");
    let after: Vec<_> =
        std::fs::read_dir(&canary_dir).expect("canary dir").flatten().map(|e| e.path()).collect();
    assert_eq!(before.len(), after.len(), "files appeared outside: {after:?}");
    let canary = std::fs::read_to_string(canary_dir.join("CANARY-file.txt")).unwrap_or_default();
    assert_eq!(canary, format!("{CANARY}\n"), "the file behind the link was edited");
}
