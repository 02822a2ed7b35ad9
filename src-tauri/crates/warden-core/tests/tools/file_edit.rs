//! `file_edit` against fixtures `tests/fixtures/file_edit/<case>/{input, args.json, expected | reject}`:
//! success cases must produce `expected`; failure cases leave the file unchanged and say why.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use warden_protocol::{ApprovalPreview, ToolCall, ToolErrorCode};

use super::common::*;

fn cases(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(kind);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
}

#[tokio::test]
async fn file_edit_fixtures() {
    let all = cases("file_edit");
    assert!(all.len() >= 8);
    for case in all {
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let env = TestEnv::new();
        let input = std::fs::read_to_string(case.join("input")).expect("input");
        env.write("target.txt", &input);
        let mut args: Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("args.json")).expect("args"))
                .expect("json");
        args["path"] = json!("target.txt");
        let out = env.call("file_edit", args).await;
        if let Ok(expected) = std::fs::read_to_string(case.join("expected")) {
            assert_ok(&out);
            assert_eq!(env.read("target.txt"), expected, "{name}");
            assert_eq!(meta(&out, "sha256_before"), &json!(sha256_hex(input.as_bytes())), "{name}");
            assert_eq!(meta(&out, "sha256_after"), &json!(sha256_hex(expected.as_bytes())), "{name}");
        } else {
            let reason = std::fs::read_to_string(case.join("reject")).expect("expected or reject");
            assert_code(&out, ToolErrorCode::ExecutionError);
            assert!(out.content.contains(reason.trim()), "{name}: {}", out.content);
            assert_eq!(env.read("target.txt"), input, "{name}: a failed edit must change nothing");
        }
    }
}

#[tokio::test]
async fn file_edit_preview_is_the_diff_and_missing_files_are_not_found() {
    let env = TestEnv::new();
    env.write("f.rs", "let a = 1;\nlet b = 2;\n");
    let call = ToolCall {
        id: "t".into(),
        name: "file_edit".into(),
        input: json!({"path": "f.rs", "old_text": "let b = 2;", "new_text": "let b = 3;"}),
    };
    match env.registry.preview(&call, &env.ctx).await {
        Some(ApprovalPreview::Diff { path, diff }) => {
            assert_eq!(path, "f.rs");
            assert!(diff.contains("-let b = 2;\n+let b = 3;"), "{diff}");
        }
        other => panic!("expected a diff, got {other:?}"),
    }
    assert_eq!(env.read("f.rs"), "let a = 1;\nlet b = 2;\n");
    let out = env.call("file_edit", json!({"path": "nope.rs", "old_text": "a", "new_text": "b"})).await;
    assert_code(&out, ToolErrorCode::FileNotFound);
}

/// Every file under `dir`, relative, with its content.
pub fn tree(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel =
                    path.strip_prefix(dir).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
                files.push((rel, std::fs::read_to_string(&path).unwrap_or_default()));
            }
        }
    }
    files.sort();
    files
}

pub fn copy_tree(from: &Path, to: &Path) {
    for (rel, content) in tree(from) {
        write(&to.join(rel), &content);
    }
}

pub fn fixture_cases(kind: &str) -> Vec<PathBuf> {
    cases(kind)
}
