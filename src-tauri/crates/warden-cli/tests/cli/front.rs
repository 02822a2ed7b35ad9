//! The `warden` front and its engine: a plain `warden sandbox` runs in the front without the engine;
//! every other command line reaches the engine unchanged; the engine runs the same box.

use std::path::Path;
use std::process::{Command, Output};

const FRONT: &str = env!("CARGO_BIN_EXE_warden");
const ENGINE: &str = env!("CARGO_BIN_EXE_warden-engine");

fn run(program: &Path, args: &[&str]) -> Output {
    Command::new(program).args(args).stdin(std::process::Stdio::null()).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `sandbox --project P -- sh -c SCRIPT`, through `program`.
fn boxed(program: &Path, project: &Path, script: &str) -> Output {
    let project = project.to_str().unwrap();
    run(program, &["sandbox", "--project", project, "--", "sh", "-c", script])
}

#[test]
fn a_plain_sandbox_runs_without_the_engine_and_everything_else_says_it_is_missing() {
    let alone = tempfile::tempdir().unwrap();
    let front = alone.path().join("warden");
    std::fs::copy(FRONT, &front).unwrap();
    let project = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();

    let out = boxed(&front, project.path(), "echo boxed > made; exit 5");
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
    assert!(project.path().join("made").exists(), "the project is writable");
    let escape = format!("echo x > {}/written", outside.path().display());
    let out = boxed(&front, project.path(), &escape);
    assert_ne!(out.status.code(), Some(0));
    assert!(!outside.path().join("written").exists(), "the front's box is the agent's box");

    // Without HOME the front leaves even a plain sandbox to the engine (see front::home_is_set).
    let project_arg = project.path().to_str().unwrap();
    let homeless = Command::new(&front)
        .args(["sandbox", "--project", project_arg, "--", "true"])
        .env_remove("HOME")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(homeless.status.code(), Some(127), "{}", text(&homeless.stderr));

    for args in [&["--version"][..], &["sandbox", "--help"], &["exec", "hi"]] {
        let out = run(&front, args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(127), "{args:?}: {stderr}");
        assert!(stderr.contains("cannot find warden-engine") && stderr.contains("reinstall"), "{stderr}");
    }
}

#[test]
fn every_other_command_line_reaches_the_engine() {
    let front = Path::new(FRONT);
    let version = run(front, &["--version"]);
    assert_eq!(text(&version.stdout).trim(), format!("warden {}", env!("CARGO_PKG_VERSION")));

    let help = run(front, &["sandbox", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(text(&help.stdout).contains("Usage: warden sandbox"), "{}", text(&help.stdout));

    // Not the plain form (no `--`): the engine's parser answers, as a usage error.
    let usage = run(front, &["sandbox", "true"]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(text(&usage.stderr).contains("Usage: warden sandbox"), "{}", text(&usage.stderr));
}

#[test]
fn the_engine_runs_the_same_box() {
    let engine = Path::new(ENGINE);
    let project = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let out = boxed(engine, project.path(), "echo boxed > made; exit 6");
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    assert!(project.path().join("made").exists());
    let escape = format!("echo x > {}/written", outside.path().display());
    assert_ne!(boxed(engine, project.path(), &escape).status.code(), Some(0));
    assert!(!outside.path().join("written").exists());
}
