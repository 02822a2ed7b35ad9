//! What every tools test needs: a project, Warden's storage, a directory outside both, and a
//! registry with a context over them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use tempfile::TempDir;
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::tool::{ToolContext, ToolOutput, ToolRegistry, ToolsConfig};
use warden_protocol::{ToolCall, ToolErrorCode};

pub struct TestEnv {
    pub project: TempDir,
    pub home: TempDir,
    pub outside: TempDir,
    pub registry: ToolRegistry,
    pub ctx: ToolContext,
}

impl TestEnv {
    pub fn new() -> Self {
        Self::with(Scope::all(), ToolsConfig::default())
    }

    pub fn with(scope: Scope, config: ToolsConfig) -> Self {
        let project = TempDir::new().expect("project dir");
        let home = TempDir::new().expect("warden home");
        let outside = TempDir::new().expect("outside dir");
        // The second root where the product puts it: Warden's storage for this project.
        let storage = warden_core::config::WardenHome::at(home.path()).project_dir(project.path());
        let workspace = Workspace::new(project.path(), storage, scope).expect("workspace");
        let registry = ToolRegistry::with_core_tools(config);
        let ctx = registry.context(Arc::new(workspace));
        Self { project, home, outside, registry, ctx }
    }

    /// The same roots under `scope`, as a session's workspace is when its MCP servers' tools
    /// change (`Workspace::rescoped`).
    pub fn rescoped(mut self, scope: Scope) -> Self {
        let workspace = self.ctx.workspace.rescoped(scope).expect("rescoped workspace");
        self.ctx = self.registry.context(Arc::new(workspace));
        self
    }

    /// The project directory as the sandbox sees it (canonical).
    pub fn root(&self) -> PathBuf {
        self.ctx.workspace.project_root().to_path_buf()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    pub fn write(&self, rel: &str, content: &str) -> PathBuf {
        write(&self.path(rel), content)
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    pub fn outside_file(&self, name: &str, content: &str) -> PathBuf {
        write(&self.outside.path().join(name), content)
    }

    pub async fn call(&self, name: &str, input: Value) -> ToolOutput {
        self.call_with(name, input, self.ctx.clone()).await
    }

    pub async fn call_with(&self, name: &str, input: Value, ctx: ToolContext) -> ToolOutput {
        let call = ToolCall { id: "toolu_test".to_owned(), name: name.to_owned(), input };
        self.registry.execute(&call, ctx).await
    }
}

pub fn write(path: &Path, content: &str) -> PathBuf {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    std::fs::write(path, content).expect("write file");
    path.to_path_buf()
}

#[track_caller]
pub fn assert_ok(out: &ToolOutput) {
    assert!(!out.is_error, "expected success, got {:?}: {}", out.code, out.content);
}

#[track_caller]
pub fn assert_code(out: &ToolOutput, code: ToolErrorCode) {
    assert!(out.is_error, "expected {code}, got success: {}", out.content);
    assert_eq!(out.code, Some(code), "wrong code; content: {}", out.content);
}

pub fn meta<'a>(out: &'a ToolOutput, key: &str) -> &'a Value {
    out.metadata.get(key).unwrap_or(&Value::Null)
}

/// One part of the output's report (what the window renders), as JSON; `null` when absent.
pub fn part(out: &ToolOutput, key: &str) -> Value {
    serde_json::to_value(&out.report).ok().and_then(|r| r.get(key).cloned()).unwrap_or(Value::Null)
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

#[cfg(unix)]
pub fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// Whether a process exists (and is not a zombie).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

/// Runs the ignored test `name` of this binary in a child process with `env` set, and returns the
/// child's own peak RSS in MiB (from `wait4`) once it passed.
#[cfg(target_os = "linux")]
// wait4 is the one call that gives a child's own peak memory; std has no safe form of it. It also
// reaps the child, which clippy cannot see.
#[allow(unsafe_code, clippy::zombie_processes)]
pub fn child_test_peak_mib(name: &str, env: (&str, &str)) -> i64 {
    use std::os::unix::process::ExitStatusExt;
    let exe = std::env::current_exe().expect("test binary");
    let child = std::process::Command::new(exe)
        .args(["--exact", name, "--ignored", "--test-threads=1"])
        .env(env.0, env.1)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn the child test");
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid"));
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: waiting for our own child; both out-pointers are valid for writes.
    let waited = unsafe { libc::wait4(pid.as_raw(), &mut status, 0, usage.as_mut_ptr()) };
    assert_eq!(waited, pid.as_raw(), "wait4 failed");
    // SAFETY: wait4 succeeded, so it filled `usage`.
    let usage = unsafe { usage.assume_init() };
    let status = std::process::ExitStatus::from_raw(status);
    let mut output = String::new();
    if let Some(mut out) = child.stdout {
        use std::io::Read;
        let _ = out.read_to_string(&mut output);
    }
    assert!(status.success(), "the child test failed: {output}");
    assert!(output.contains("1 passed"), "the child test did not run: {output}");
    usage.ru_maxrss / 1024
}
