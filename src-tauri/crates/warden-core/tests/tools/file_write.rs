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

/// The result carries the change's diff for the window (an auto-approved write shows what it did,
/// not its JSON input), unless it is too large or the old content was not text.
#[tokio::test]
async fn the_result_carries_the_diff_for_the_window() {
    let env = TestEnv::new();
    env.write("f.txt", "one\ntwo\n");
    let out = env.call("file_write", json!({"path": "f.txt", "content": "one\nTWO\n"})).await;
    assert_ok(&out);
    let diff = part(&out, "diff")["diff"].as_str().unwrap().to_owned();
    assert!(diff.contains("-two\n+TWO\n"), "{diff}");
    assert!(!out.content.contains("TWO"), "the model's text does not carry the diff: {}", out.content);

    let same = env.call("file_write", json!({"path": "f.txt", "content": "one\nTWO\n"})).await;
    assert_eq!(part(&same, "diff")["diff"], json!(""), "an identical write has an empty diff");

    let huge = "x\n".repeat(40_000);
    let big = env.call("file_write", json!({"path": "big.txt", "content": huge})).await;
    assert_ok(&big);
    assert_eq!(part(&big, "diff"), json!(null), "over the cap: no diff in the result");

    std::fs::write(env.path("bin.dat"), [0xff, 0xfe, 0x00, 0x01]).unwrap();
    let over_binary = env.call("file_write", json!({"path": "bin.dat", "content": "text now\n"})).await;
    assert_ok(&over_binary);
    assert_eq!(part(&over_binary, "diff"), json!(null), "the old content was not text");
}
