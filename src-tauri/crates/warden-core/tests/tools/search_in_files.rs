//! `search_in_files`: the three output modes, globs, case, caps, binary and ignored files skipped.

use serde_json::json;
use warden_protocol::ToolErrorCode;

use super::common::*;

fn corpus() -> TestEnv {
    let env = TestEnv::new();
    env.write(".gitignore", "vendor/\n");
    env.write("src/a.rs", "fn alpha() {}\nfn beta() {}\n// Fn upper\n");
    env.write("src/b.rs", "fn gamma() {}\n");
    env.write("web/app.js", "function start() {}\nconst fn_like = 1;\n");
    env.write("vendor/lib.rs", "fn vendored() {}\n");
    env.write("notes.md", "nothing here\n");
    let mut binary = b"fn hidden_in_binary()\n".to_vec();
    binary.extend_from_slice(&[0, 1, 2, 3]);
    std::fs::write(env.path("src/blob.bin"), binary).expect("binary");
    env
}

#[tokio::test]
async fn content_files_and_count_modes() {
    let env = corpus();
    let out = env.call("search_in_files", json!({"query": "fn "})).await;
    assert_ok(&out);
    let lines: Vec<&str> = out.content.lines().collect();
    assert_eq!(
        lines[..3],
        ["src/a.rs:1:fn alpha() {}", "src/a.rs:2:fn beta() {}", "src/b.rs:1:fn gamma() {}"]
    );
    assert!(!out.content.contains("vendored"), "gitignored file searched");
    assert!(!out.content.contains("hidden_in_binary"), "binary file searched");
    assert_eq!(meta(&out, "matches"), &json!(3));

    let out = env.call("search_in_files", json!({"query": "fn |function ", "output_mode": "files"})).await;
    assert_eq!(out.content.lines().take(3).collect::<Vec<_>>(), ["src/a.rs", "src/b.rs", "web/app.js"]);

    let out = env.call("search_in_files", json!({"query": "fn |function ", "output_mode": "count"})).await;
    assert_eq!(out.content.lines().take(3).collect::<Vec<_>>(), ["src/a.rs:2", "src/b.rs:1", "web/app.js:1"]);
    assert_eq!(meta(&out, "matches"), &json!(4));
    assert_eq!(meta(&out, "files_with_matches"), &json!(3));
}

#[tokio::test]
async fn the_projects_ignore_files_apply_when_a_subdirectory_is_searched() {
    let env = TestEnv::new();
    env.write(".gitignore", "gen/\n");
    env.write("src/gen/out.rs", "fn generated() {}\n");
    env.write("src/lib.rs", "fn real() {}\n");
    let out =
        env.call("search_in_files", json!({"query": "fn ", "path": "src", "output_mode": "files"})).await;
    assert_eq!(out.content.lines().next(), Some("src/lib.rs"), "{}", out.content);
    assert!(!out.content.contains("gen/out.rs"), "{}", out.content);
}

#[tokio::test]
async fn globs_case_and_paths() {
    let env = corpus();
    let cases = [
        (json!({"query": "fn", "globs": ["*.js"], "output_mode": "files"}), vec!["web/app.js"]),
        (json!({"query": "fn ", "globs": ["!src/b.rs"], "output_mode": "files"}), vec!["src/a.rs"]),
        (json!({"query": "fn ", "path": "src", "output_mode": "files"}), vec!["src/a.rs", "src/b.rs"]),
        (json!({"query": "^// fn", "case_sensitive": false, "output_mode": "files"}), vec!["src/a.rs"]),
        (json!({"query": "gamma", "path": "src/b.rs", "output_mode": "files"}), vec!["src/b.rs"]),
    ];
    for (input, expected) in cases {
        let out = env.call("search_in_files", input.clone()).await;
        assert_ok(&out);
        let files: Vec<&str> = out.content.lines().filter(|l| !l.starts_with('[')).collect();
        assert_eq!(files, expected, "{input}");
    }
    let out = env.call("search_in_files", json!({"query": "^// fn"})).await;
    assert_code(&out, ToolErrorCode::ExecutionError);
    assert!(out.content.contains("no matches"));
}

#[tokio::test]
async fn max_results_caps_and_says_so() {
    let env = TestEnv::new();
    for i in 0..20 {
        env.write(&format!("f{i:02}.txt"), &"needle\n".repeat(10));
    }
    let out = env.call("search_in_files", json!({"query": "needle", "max_results": 5})).await;
    assert_ok(&out);
    assert_eq!(out.content.lines().filter(|l| l.contains(":needle")).count(), 5);
    assert!(out.content.contains("result cap reached"));
    assert_eq!(meta(&out, "capped"), &json!(true));
    // Counting still counts everything while listing at most max_results files.
    let out = env
        .call("search_in_files", json!({"query": "needle", "output_mode": "count", "max_results": 3}))
        .await;
    assert_eq!(meta(&out, "matches"), &json!(200));
    assert_eq!(out.content.lines().filter(|l| l.ends_with(":10")).count(), 3);
}
