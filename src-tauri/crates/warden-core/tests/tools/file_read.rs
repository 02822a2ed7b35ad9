//! `file_read`: ranges, byte caps with a note, sha256 of the whole file, binary refused.

use serde_json::json;
use warden_protocol::ToolErrorCode;

use super::common::*;

#[tokio::test]
async fn reads_whole_files_and_line_ranges_table() {
    let env = TestEnv::new();
    let text: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    env.write("ten.txt", &text);
    env.write("no_newline.txt", "a\nb");
    env.write("empty.txt", "");
    let cases = [
        (json!({"path": "ten.txt"}), text.clone()),
        (json!({"path": "ten.txt", "start_line": 3, "end_line": 4}), "line 3\nline 4\n".to_owned()),
        (json!({"path": "ten.txt", "start_line": 10}), "line 10\n".to_owned()),
        (json!({"path": "ten.txt", "end_line": 1}), "line 1\n".to_owned()),
        (json!({"path": "no_newline.txt", "start_line": 2}), "b".to_owned()),
        (json!({"path": "empty.txt"}), String::new()),
        (json!({"path": "./ten.txt", "start_line": 2, "end_line": 2}), "line 2\n".to_owned()),
    ];
    for (input, expected) in cases {
        let out = env.call("file_read", input.clone()).await;
        assert_ok(&out);
        assert_eq!(out.content, expected, "{input}");
    }
    let out = env.call("file_read", json!({"path": "ten.txt", "start_line": 2, "end_line": 3})).await;
    assert_eq!(meta(&out, "sha256"), &json!(sha256_hex(text.as_bytes())), "sha covers the whole file");
    assert_eq!(meta(&out, "total_lines"), &json!(10));
    assert_eq!(meta(&out, "lines"), &json!([2, 3]));
}

#[tokio::test]
async fn byte_caps_truncate_with_a_note_saying_where_to_go_on() {
    let env = TestEnv::new();
    let text: String = (1..=1000).map(|i| format!("this is line number {i}\n")).collect();
    env.write("big.txt", &text);
    let out = env.call("file_read", json!({"path": "big.txt", "max_bytes": 100})).await;
    assert_ok(&out);
    assert!(out.content.starts_with("this is line number 1\n"));
    assert!(out.content.contains("[truncated at 100 bytes"), "{}", out.content);
    assert!(out.content.contains("start_line=5"), "{}", out.content);
    assert_eq!(meta(&out, "truncated"), &json!(true));
    // A single line longer than the cap is cut rather than dropped.
    env.write("wide.txt", &"w".repeat(500));
    let out = env.call("file_read", json!({"path": "wide.txt", "max_bytes": 50})).await;
    assert!(out.content.starts_with(&"w".repeat(50)));
}

#[tokio::test]
async fn binary_missing_and_directories_are_expected_errors() {
    let env = TestEnv::new();
    std::fs::write(env.path("blob.bin"), [0x89, b'P', b'N', b'G', 0, 0, 1, 2]).expect("write");
    std::fs::create_dir(env.path("dir")).expect("mkdir");
    let out = env.call("file_read", json!({"path": "blob.bin"})).await;
    assert_code(&out, ToolErrorCode::ExecutionError);
    assert!(out.content.contains("binary"));
    assert_code(&env.call("file_read", json!({"path": "nope.txt"})).await, ToolErrorCode::FileNotFound);
    let out = env.call("file_read", json!({"path": "dir"})).await;
    assert_code(&out, ToolErrorCode::ExecutionError);
    assert!(out.content.contains("list_dir"));
    let out = env.call("file_read", json!({"path": "nope.txt", "start_line": 5, "end_line": 2})).await;
    assert_code(&out, ToolErrorCode::ValidationError);
}

#[tokio::test]
async fn a_decompression_bomb_is_refused_from_its_header_and_a_picture_still_reads() {
    let env = TestEnv::new();
    std::fs::write(env.project.path().join("bomb.png"), warden_testkit::images::bomb_png(20_000, 20_000))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = env.call("file_read", json!({"path": "bomb.png"})).await;
    assert!(out.is_error);
    assert_eq!(out.code, Some(ToolErrorCode::ExecutionError));
    assert!(
        out.content.starts_with("bomb.png looks like an image but it is 20000×20000 pixels (400 megapixels)"),
        "{}",
        out.content
    );
    assert!(out.images.is_empty());
    std::fs::write(env.project.path().join("small.png"), warden_testkit::images::bomb_png(64, 48))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = env.call("file_read", json!({"path": "small.png"})).await;
    assert!(!out.is_error, "{}", out.content);
    assert!(out.content.contains("is an image (PNG, 64×48"), "{}", out.content);
    assert_eq!(out.images.len(), 1);
}
