//! `apply_patch` against fixtures `tests/fixtures/apply_patch/<case>/{input/, patch, expected/, reject?}`:
//! the whole tree must equal `expected/`; a rejected patch leaves every file as it was and says why.

use serde_json::json;
use warden_protocol::{ApprovalPreview, ToolCall, ToolErrorCode};

use super::common::*;
use super::file_edit::{copy_tree, fixture_cases, tree};

#[tokio::test]
async fn apply_patch_fixtures() {
    let all = fixture_cases("apply_patch");
    assert!(all.len() >= 15);
    for case in all {
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let env = TestEnv::new();
        copy_tree(&case.join("input"), &env.root());
        let patch = std::fs::read_to_string(case.join("patch")).expect("patch");
        let before = tree(&env.root());

        // A dry run never changes anything, whatever the outcome.
        let dry = env.call("apply_patch", json!({"patch": patch, "dry_run": true})).await;
        assert_eq!(tree(&env.root()), before, "{name}: dry run changed files");

        let out = env.call("apply_patch", json!({"patch": patch})).await;
        let expected = tree(&case.join("expected"));
        assert_eq!(tree(&env.root()), expected, "{name}: {}", out.content);
        match std::fs::read_to_string(case.join("reject")) {
            Ok(reason) => {
                assert_code(&out, ToolErrorCode::ExecutionError);
                assert!(out.content.contains("nothing was changed"), "{name}: {}", out.content);
                assert!(out.content.contains(reason.trim()), "{name}: {}", out.content);
                assert!(dry.is_error, "{name}: dry run should reject too");
            }
            Err(_) => {
                assert_ok(&out);
                assert_ok(&dry);
                let files = meta(&out, "files").as_array().cloned().unwrap_or_default();
                assert!(!files.is_empty(), "{name}");
                for file in files {
                    let action = file["action"].as_str().unwrap_or_default();
                    assert_eq!(file["sha256_before"].is_null(), action == "created", "{name}: {file}");
                    assert_eq!(file["sha256_after"].is_null(), action == "deleted", "{name}: {file}");
                }
            }
        }
    }
}

#[tokio::test]
async fn dry_run_and_preview_show_the_diff_and_hashes_match_the_files() {
    let env = TestEnv::new();
    env.write("a.txt", "one\ntwo\n");
    let patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n";
    let dry = env.call("apply_patch", json!({"patch": patch, "dry_run": true})).await;
    assert_ok(&dry);
    assert!(dry.content.contains("-two\n+three"), "{}", dry.content);
    let call = ToolCall { id: "t".into(), name: "apply_patch".into(), input: json!({"patch": patch}) };
    match env.registry.preview(&call, &env.ctx).await {
        Some(ApprovalPreview::Diff { path, diff }) => {
            assert_eq!(path, "a.txt");
            assert!(diff.contains("-two\n+three"));
        }
        other => panic!("expected a diff, got {other:?}"),
    }
    let out = env.call("apply_patch", json!({"patch": patch})).await;
    assert_ok(&out);
    let file = &meta(&out, "files")[0];
    assert_eq!(file["sha256_before"], json!(sha256_hex(b"one\ntwo\n")));
    assert_eq!(file["sha256_after"], json!(sha256_hex(env.read("a.txt").as_bytes())));
}

#[tokio::test]
async fn a_patch_touching_a_path_outside_is_a_violation_and_changes_nothing() {
    let env = TestEnv::new();
    env.write("a.txt", "one\n");
    let patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n--- /dev/null\n+++ b/../escape.txt\n@@ -0,0 +1 @@\n+x\n";
    let out = env.call("apply_patch", json!({"patch": patch})).await;
    assert_code(&out, ToolErrorCode::SandboxViolation);
    assert_eq!(env.read("a.txt"), "one\n");
    let patch = "--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-A=1\n+A=2\n";
    assert_code(&env.call("apply_patch", json!({"patch": patch})).await, ToolErrorCode::SandboxViolation);
}
