//! The tool runner's git sweep through the engine, as `warden tool` and the agent's calls meet it:
//! what a boxed command leaves in the project's git metadata that would run code outside the box
//! is moved aside after the call (the red team's `.git/commondir`, `git init` then hooks, a nested
//! repository).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use warden_protocol::{Settings, ToolPermissions, TrustLevel};

use super::tests::{approve, dirs, Dirs};
use super::{Engine, SessionSpec};
use crate::secrets::MemoryStore;

/// An engine whose project allows `bash`, and a session in Autonomous: commands run in the box
/// unasked, as the agent's do.
fn bash_unasked(d: &Dirs) -> (Engine, SessionSpec) {
    let engine = Engine::new(d.home.clone(), Arc::new(MemoryStore::new())).unwrap();
    let mut settings = Settings::default();
    settings.tool_permissions.insert(
        d.project.to_string_lossy().into_owned(),
        ToolPermissions { allowed_tools: Some(vec!["bash".into()]), ..ToolPermissions::default() },
    );
    engine.save_settings(settings).unwrap();
    let mut spec = SessionSpec::new(d.project.clone());
    spec.trust = TrustLevel::Autonomous;
    (engine, spec)
}

/// The red team's `.git/commondir`: a boxed command points the project's git at a folder whose
/// config runs code (`core.fsmonitor`) at the user's next `git status`. After the call the file is
/// in Warden's storage for the project, and the result says so.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_commondir_a_command_plants_in_git_is_moved_aside_after_the_call() {
    let d = dirs();
    std::fs::create_dir_all(d.project.join(".git/objects")).unwrap();
    std::fs::write(d.project.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    let (engine, spec) = bash_unasked(&d);
    let command = "mkdir -p evil && printf '[core]\\n\\tfsmonitor = touch PWNED\\n' > evil/config && \
                   printf '%s/evil\\n' \"$PWD\" > .git/commondir && echo planted";
    let input = serde_json::json!({ "command": command });
    let shot = engine.run_tool(spec, "bash", input, |_, _| {}, approve).await.unwrap();
    let said = &shot.result.result;
    assert!(said.contains("planted"), "{said}");
    assert!(!d.project.join(".git/commondir").exists(), "the planted commondir is still there: {said}");
    assert!(said.contains("Warden moved") && said.contains(".git/commondir"), "{said}");
    let aside: Vec<_> =
        walk(d.home.data_dir()).into_iter().filter(|p| p.to_string_lossy().contains("git-aside")).collect();
    assert_eq!(aside.len(), 1, "kept in Warden's storage: {aside:?}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The red team's `git init` then hooks, and a nested repository: a boxed command makes a
/// repository whose hook and `core.fsmonitor` would run at the user's next git command there.
/// After the call both are in Warden's storage, the repository still works, and git outside runs
/// nothing of the command's; the project's own repository, there before, is untouched.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_repository_a_command_makes_runs_nothing_outside_the_box() {
    let d = dirs();
    let git = |dir: &Path, args: &[&str]| {
        std::process::Command::new("git")
            .args(["-c", "user.email=t@example.test", "-c", "user.name=t"])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap()
    };
    assert!(git(&d.project, &["init", "-q"]).status.success());
    std::fs::write(d.project.join(".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n").unwrap();
    let (engine, spec) = bash_unasked(&d);
    let command = "git init -q sub && printf '#!/bin/sh\\ntouch \"$PWD/HOOKED\"\\n' > sub/.git/hooks/post-checkout && \
                   chmod +x sub/.git/hooks/post-checkout && git -C sub config core.fsmonitor 'touch FSMONITORED' && \
                   git -C sub config core.repositoryformatversion 0 && echo made";
    let shot = engine
        .run_tool(spec, "bash", serde_json::json!({ "command": command }), |_, _| {}, approve)
        .await
        .unwrap();
    let said = &shot.result.result;
    assert!(said.contains("made"), "{said}");
    let sub = d.project.join("sub");
    assert!(!sub.join(".git/hooks/post-checkout").exists(), "{said}");
    let config = std::fs::read_to_string(sub.join(".git/config")).unwrap();
    assert!(!config.contains("fsmonitor") && config.contains("repositoryformatversion"), "{config}");
    assert!(said.contains("have run as a git hook") && said.contains("run programs"), "{said}");
    // The user's next git commands there run nothing of the command's.
    assert!(git(&sub, &["status"]).status.success());
    assert!(git(&sub, &["checkout", "-q", "-b", "next"]).status.success());
    assert!(!sub.join("FSMONITORED").exists() && !sub.join("HOOKED").exists(), "code ran outside the box");
    assert!(d.project.join(".git/hooks/pre-commit").exists(), "the project's own repository is the user's");
}

/// A repository a background command makes after its start's sweep has passed: its hook would
/// run at the user's next `git commit`, and the sweeps of later calls took it as there before
/// (it existed when they began). Now a repository made while a box that outlives its call runs
/// counts as new until that box is gone: the next call moves its hook aside, and so does the end
/// of the box when no call follows.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_repository_a_background_command_makes_later_runs_nothing_outside_the_box() {
    use crate::agent::RequestedCall;
    use tokio_util::sync::CancellationToken;

    let plant =
        "sleep 1; git init -q && printf '#!/bin/sh\\ntouch \"$PWD/HOOKED\"\\n' > .git/hooks/pre-commit \
                 && chmod +x .git/hooks/pre-commit && touch PLANTED; sleep 60";
    let call = |command: &str, background: bool| RequestedCall {
        id: uuid::Uuid::new_v4().to_string(),
        name: "bash".to_owned(),
        input: Ok(serde_json::json!({ "command": command, "background": background })),
    };
    async fn planted(project: &Path) {
        for _ in 0..100 {
            if project.join("PLANTED").exists() {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("the background command did not plant its hook");
    }
    let hook = |project: &Path| project.join(".git/hooks/pre-commit");
    let cancel = CancellationToken::new();

    // The next call of the session sweeps it.
    let d = dirs();
    let (engine, spec) = bash_unasked(&d);
    let (runner, _events) = engine.tool_runner(&spec).await.unwrap();
    runner.call("", call(plant, true), &cancel).await;
    planted(&d.project).await;
    let said = runner.call("", call("echo later", false), &cancel).await.result.result;
    assert!(said.contains("later"), "{said}");
    assert!(!hook(&d.project).exists(), "the background command's hook is still there: {said}");
    assert!(said.contains("have run as a git hook"), "{said}");
    drop(runner);

    // With no call after it, the end of its box (killed with the session) sweeps it.
    let d = dirs();
    let (engine, spec) = bash_unasked(&d);
    let (runner, _events) = engine.tool_runner(&spec).await.unwrap();
    runner.call("", call(plant, true), &cancel).await;
    planted(&d.project).await;
    drop(runner);
    for _ in 0..100 {
        if !hook(&d.project).exists() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the hook outlived the session");
}

/// A plain `git init` asks, in every trust level (Autonomous here), to run outside the box as a
/// hardened git; approved, git itself (not a shell) makes the repository in the project's folder,
/// and the sweep has nothing to move; declined, nothing is made. A folder that is a link out of
/// the project is refused, and nothing is made where it leads.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_plain_git_init_asks_and_runs_outside_the_box_as_a_hardened_git() {
    use std::sync::Mutex;
    use warden_protocol::{ToolApproval, ToolConfirm, ToolErrorCode};

    let d = dirs();
    let (engine, spec) = bash_unasked(&d);
    let asked = Arc::new(Mutex::new(Vec::<String>::new()));
    let answer = |yes: bool| {
        let asked = asked.clone();
        move |confirm: ToolConfirm| {
            asked.lock().unwrap().push(confirm.reason.clone().unwrap_or_default());
            async move {
                ToolApproval {
                    confirm_id: String::new(),
                    approved: yes,
                    reason: None,
                    remember: None,
                    always: None,
                }
            }
        }
    };
    let run = |command: &str| serde_json::json!({ "command": command });

    let shot = engine
        .run_tool(spec.clone(), "bash", run("git init -q -b trunk sub"), |_, _| {}, answer(false))
        .await
        .unwrap();
    assert_eq!(shot.result.code, Some(ToolErrorCode::UserRejected), "{:?}", shot.result);
    assert!(!d.project.join("sub").exists(), "declined, yet something was made");
    assert!(asked.lock().unwrap()[0].contains("outside its sandbox"), "{:?}", asked.lock().unwrap());

    let shot = engine
        .run_tool(spec.clone(), "bash", run("git init -q -b trunk sub"), |_, _| {}, answer(true))
        .await
        .unwrap();
    let contained = shot.result.report.sandbox.as_ref().map(|s| s.contained);
    assert_eq!(contained, Some(false), "{:?}", shot.result);
    let metadata = shot.result.metadata.clone().unwrap_or_default();
    assert!(
        metadata["hardened_git"].as_str().is_some_and(|s| s.contains("core.hooksPath=/dev/null")),
        "{metadata}"
    );
    assert!(!shot.result.result.contains("Warden moved"), "{}", shot.result.result);
    let head = std::fs::read_to_string(d.project.join("sub/.git/HEAD")).unwrap();
    assert_eq!(head, "ref: refs/heads/trunk\n");
    assert_eq!(asked.lock().unwrap().len(), 2, "asked each time, Autonomous too");

    // A folder that leads out of the project.
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), d.project.join("away")).unwrap();
    let shot =
        engine.run_tool(spec.clone(), "bash", run("git init away"), |_, _| {}, answer(true)).await.unwrap();
    assert_eq!(shot.result.code, Some(ToolErrorCode::SandboxViolation), "{:?}", shot.result);
    assert!(!outside.path().join(".git").exists(), "a repository was made outside the project");

    // Anything more than a plain git init is an ordinary command, in the box, unasked here.
    let shot = engine
        .run_tool(spec, "bash", run("git init -q other && echo made"), |_, _| {}, answer(false))
        .await
        .unwrap();
    assert!(shot.result.result.contains("made"), "{:?}", shot.result);
    assert_eq!(asked.lock().unwrap().len(), 3, "the compound command was not asked about");
}

/// The hardened `git init` runs outside the box, in a folder a boxed process could have prepared:
/// a `.git` gitfile or link there would make git re-initialize a repository elsewhere (writing its
/// templates, the user's hooks among them, into another repository). Warden makes `.git` itself,
/// and refuses when anything is already there.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_hardened_git_init_never_follows_a_git_entry_left_in_its_folder() {
    let d = dirs();
    let (engine, spec) = bash_unasked(&d);
    let outside = tempfile::tempdir().unwrap();
    let elsewhere = outside.path().join("repo.git");
    assert!(std::process::Command::new("git")
        .args(["init", "-q", "--bare"])
        .arg(&elsewhere)
        .status()
        .unwrap()
        .success());
    for entry in std::fs::read_dir(elsewhere.join("hooks")).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    std::fs::create_dir_all(d.project.join("gitfile")).unwrap();
    std::fs::write(d.project.join("gitfile/.git"), format!("gitdir: {}\n", elsewhere.display())).unwrap();
    std::fs::create_dir_all(d.project.join("linked")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, d.project.join("linked/.git")).unwrap();
    for folder in ["gitfile", "linked"] {
        let input = serde_json::json!({ "command": format!("git init -q {folder}") });
        let shot = engine.run_tool(spec.clone(), "bash", input, |_, _| {}, approve).await.unwrap();
        let written = std::fs::read_dir(elsewhere.join("hooks")).unwrap().count();
        assert_eq!(
            written, 0,
            "{folder}: git wrote into a repository outside the project: {:?}",
            shot.result
        );
        assert_ne!(shot.result.status, warden_protocol::ToolStatus::Success, "{folder}: {:?}", shot.result);
        assert!(shot.result.result.contains(".git"), "{folder}: says why: {}", shot.result.result);
    }
}
