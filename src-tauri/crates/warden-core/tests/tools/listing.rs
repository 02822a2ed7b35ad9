//! `list_dir`, `file_info`, `search_files`: gitignore respected, hidden on request, depth honoured.

use serde_json::json;
use warden_protocol::ToolErrorCode;

use super::common::*;

fn project() -> TestEnv {
    let env = TestEnv::new();
    env.write(".gitignore", "target/\n*.log\n");
    env.write("Cargo.toml", "[package]\n");
    env.write("src/main.rs", "fn main() {}\n");
    env.write("src/deep/mod.rs", "// deep\n");
    env.write("target/debug/app", "binary");
    env.write("build.log", "log");
    env.write(".hidden/conf.toml", "x");
    env
}

#[tokio::test]
async fn list_dir_respects_gitignore_hidden_and_depth() {
    let env = project();
    let out = env.call("list_dir", json!({})).await;
    assert_ok(&out);
    let c = &out.content;
    assert!(c.contains("Cargo.toml") && c.contains("src/"), "{c}");
    assert!(!c.contains("target") && !c.contains("build.log"), "ignored entries listed: {c}");
    assert!(!c.contains(".hidden") && !c.contains(".gitignore"), "hidden listed: {c}");
    assert!(!c.contains("main.rs"), "depth 1 must not descend: {c}");
    let line = c.lines().find(|l| l.ends_with("Cargo.toml")).unwrap_or_default();
    assert!(line.starts_with("file") && line.contains(" 10 "), "type and size: {line}");
    assert!(line.contains('T') && line.contains('Z'), "mtime RFC 3339: {line}");

    let out = env.call("list_dir", json!({"path": "src", "depth": 2})).await;
    assert!(out.content.contains("src/deep/mod.rs"), "{}", out.content);
    let out = env.call("list_dir", json!({"include_hidden": true})).await;
    assert!(out.content.contains(".hidden/") && out.content.contains(".gitignore"), "{}", out.content);
    // The project's .gitignore applies when a subdirectory is listed, too.
    env.write("src/generated.log", "x");
    let out = env.call("list_dir", json!({"path": "src"})).await;
    assert!(!out.content.contains("generated.log"), "{}", out.content);
    assert_code(&env.call("list_dir", json!({"path": "nope"})).await, ToolErrorCode::FileNotFound);
    assert_code(&env.call("list_dir", json!({"path": "Cargo.toml"})).await, ToolErrorCode::ExecutionError);
}

#[tokio::test]
async fn file_info_reports_type_size_mtime_permissions() {
    let env = project();
    let out = env.call("file_info", json!({"path": "Cargo.toml"})).await;
    assert_ok(&out);
    assert_eq!(meta(&out, "type"), &json!("file"));
    assert_eq!(meta(&out, "size_bytes"), &json!(10));
    assert!(meta(&out, "permissions").as_str().is_some_and(|p| p.contains("rw")), "{}", out.content);
    assert!(meta(&out, "modified").as_str().is_some_and(|m| m.ends_with('Z')));
    let out = env.call("file_info", json!({"path": "src"})).await;
    assert_eq!(meta(&out, "type"), &json!("dir"));
    assert_code(&env.call("file_info", json!({"path": "missing"})).await, ToolErrorCode::FileNotFound);
}

#[tokio::test]
async fn search_files_matches_names_anywhere_or_paths_with_slashes() {
    let env = project();
    let cases = [
        (json!({"pattern": "*.rs"}), vec!["src/deep/mod.rs", "src/main.rs"]),
        (json!({"pattern": "src/*.rs"}), vec!["src/main.rs"]),
        (json!({"pattern": "**/mod.rs"}), vec!["src/deep/mod.rs"]),
        (json!({"pattern": "*.rs", "path": "src/deep"}), vec!["src/deep/mod.rs"]),
        (json!({"pattern": "Cargo.toml"}), vec!["Cargo.toml"]),
        (json!({"pattern": ".hidden/*"}), vec![".hidden/conf.toml"]),
    ];
    for (input, expected) in cases {
        let out = env.call("search_files", input.clone()).await;
        assert_ok(&out);
        let lines: Vec<&str> = out.content.lines().collect();
        assert_eq!(lines, expected, "{input}");
    }
    let out = env.call("search_files", json!({"pattern": "*.log"})).await;
    assert_code(&out, ToolErrorCode::ExecutionError);
    assert!(out.content.contains("no files match"));
}
