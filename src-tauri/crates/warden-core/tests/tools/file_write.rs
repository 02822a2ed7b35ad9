//! `file_write`: create with parents, overwrite, sha before/after, diff preview.

use serde_json::json;
use warden_protocol::{ApprovalPreview, ToolCall};

use super::common::*;

#[tokio::test]
async fn creates_files_and_their_parents() {
    let env = TestEnv::new();
    let out = env.call("file_write", json!({"path": "a/b/c/new.txt", "content": "hello\n"})).await;
    assert_ok(&out);
    assert_eq!(env.read("a/b/c/new.txt"), "hello\n");
    assert_eq!(meta(&out, "created"), &json!(true));
    assert_eq!(meta(&out, "sha256_before"), &json!(null));
    assert_eq!(meta(&out, "sha256_after"), &json!(sha256_hex(b"hello\n")));
    assert_eq!(meta(&out, "bytes_written"), &json!(6));
}

#[tokio::test]
async fn overwrites_and_reports_both_hashes() {
    let env = TestEnv::new();
    env.write("f.txt", "old content that is longer\n");
    let out = env.call("file_write", json!({"path": "f.txt", "content": "new\n"})).await;
    assert_ok(&out);
    assert_eq!(env.read("f.txt"), "new\n");
    assert_eq!(meta(&out, "created"), &json!(false));
    assert_eq!(meta(&out, "sha256_before"), &json!(sha256_hex(b"old content that is longer\n")));
}

#[tokio::test]
async fn preview_is_a_unified_diff_against_the_old_content_and_writes_nothing() {
    let env = TestEnv::new();
    env.write("f.txt", "one\ntwo\nthree\n");
    let call = ToolCall {
        id: "t".into(),
        name: "file_write".into(),
        input: json!({"path": "f.txt", "content": "one\nTWO\nthree\n"}),
    };
    match env.registry.preview(&call, &env.ctx).await {
        Some(ApprovalPreview::Diff { path, diff }) => {
            assert_eq!(path, "f.txt");
            assert!(diff.contains("--- a/f.txt") && diff.contains("+++ b/f.txt"), "{diff}");
            assert!(diff.contains("-two\n+TWO\n"), "{diff}");
        }
        other => panic!("expected a diff preview, got {other:?}"),
    }
    assert_eq!(env.read("f.txt"), "one\ntwo\nthree\n");
    let call = ToolCall {
        id: "t".into(),
        name: "file_write".into(),
        input: json!({"path": "n.txt", "content": "x\n"}),
    };
    match env.registry.preview(&call, &env.ctx).await {
        Some(ApprovalPreview::Diff { diff, .. }) => assert!(diff.contains("+x"), "{diff}"),
        other => panic!("expected a diff preview, got {other:?}"),
    }
    assert!(!env.path("n.txt").exists());
}
