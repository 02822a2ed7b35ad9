//! Files that are not plain files, and plain files of absurd shape: a FIFO or socket is refused at
//! once instead of hanging the tool until its timeout, and a gigantic single line is read with a
//! bounded buffer.

use std::time::Duration;

use serde_json::json;
use warden_protocol::ToolErrorCode;

use super::common::*;

/// A guard against a hang (the bug was a 120 s wait), not a speed claim.
const HANG_GUARD: Duration = Duration::from_secs(30);

#[cfg(unix)]
#[tokio::test]
async fn fifos_and_sockets_are_refused_without_hanging() {
    let env = TestEnv::new();
    nix::unistd::mkfifo(&env.path("pipe"), nix::sys::stat::Mode::from_bits_truncate(0o600)).expect("mkfifo");
    let _listener = std::os::unix::net::UnixListener::bind(env.path("sock")).expect("bind");
    env.write("plain.txt", "PLAIN-MARKER\n");
    for (tool, input) in [
        ("file_read", json!({ "path": "pipe" })),
        ("file_write", json!({ "path": "pipe", "content": "x" })),
        ("file_edit", json!({ "path": "pipe", "old_text": "a", "new_text": "b" })),
        ("file_read", json!({ "path": "sock" })),
        ("file_write", json!({ "path": "sock", "content": "x" })),
    ] {
        let out = tokio::time::timeout(HANG_GUARD, env.call(tool, input.clone()))
            .await
            .unwrap_or_else(|_| panic!("{tool} {input} hung"));
        assert!(out.is_error, "{tool} {input}: {}", out.content);
        assert!(
            out.content.contains("FIFO")
                || out.content.contains("socket")
                || out.content.contains("regular file"),
            "{tool} {input}: the error should say what the file is: {}",
            out.content
        );
    }
    // Walks list them and search past them.
    let out = tokio::time::timeout(HANG_GUARD, env.call("search_in_files", json!({ "query": "MARKER" })))
        .await
        .expect("search hung");
    assert_ok(&out);
    assert!(out.content.contains("plain.txt"));
    let out = env.call("list_dir", json!({})).await;
    assert!(out.content.contains("other") && out.content.contains("pipe"), "{}", out.content);
}

/// Runs in a child process of its own (see below) so that its peak memory can be measured alone.
#[tokio::test]
#[ignore = "run by reading_a_gigantic_line_keeps_memory_bounded in a child process"]
async fn child_reads_a_sparse_file_with_one_gigantic_line() {
    let Ok(path) = std::env::var("WARDEN_TEST_HUGE_LINE_PROJECT") else { return };
    let env = TestEnv::new();
    let link = env.path("huge.txt");
    std::fs::hard_link(&path, &link)
        .or_else(|_| std::fs::copy(&path, &link).map(|_| ()))
        .expect("place file");
    let out = env.call("file_read", json!({ "path": "huge.txt", "max_bytes": 1000 })).await;
    assert_ok(&out);
    assert_eq!(meta(&out, "total_lines"), &json!(1));
    assert!(meta(&out, "truncated").as_bool().unwrap_or(false));
    assert!(out.content.starts_with("aaaa"));
}

#[cfg(target_os = "linux")]
#[test]
fn reading_a_gigantic_line_keeps_memory_bounded() {
    const SIZE: u64 = 1 << 30;
    let dir = tempfile::TempDir::new().expect("temp dir");
    let path = dir.path().join("huge.txt");
    {
        use std::io::Write;
        // Text first (no NUL in the first 8 KB), then a hole: 1 GiB with no newline, no disk cost.
        let mut file = std::fs::File::create(&path).expect("create");
        file.write_all(&[b'a'; 64 * 1024]).expect("write");
        file.set_len(SIZE).expect("set_len");
    }
    let peak_mib = child_test_peak_mib(
        "tools::special_files::child_reads_a_sparse_file_with_one_gigantic_line",
        ("WARDEN_TEST_HUGE_LINE_PROJECT", path.to_str().expect("a UTF-8 temp path")),
    );
    assert!(peak_mib < 256, "reading a 1 GiB line peaked at {peak_mib} MiB");
}

#[tokio::test]
async fn file_read_keeps_whole_lines_and_counts_them_across_blocks() {
    let env = TestEnv::new();
    // Lines that straddle the 64 KiB read blocks.
    let line = format!("{}\n", "x".repeat(40_000));
    env.write("long.txt", &line.repeat(5));
    let out = env.call("file_read", json!({ "path": "long.txt", "max_bytes": 100_000 })).await;
    assert_ok(&out);
    assert_eq!(meta(&out, "total_lines"), &json!(5));
    assert_eq!(meta(&out, "lines"), &json!([1, 2]));
    assert!(out.content.starts_with(&line.repeat(2)), "whole lines only");
    let out = env.call("file_read", json!({ "path": "long.txt", "start_line": 5 })).await;
    assert_eq!(out.content, line);
    env.write("no_newline.txt", "a\nb");
    let out = env.call("file_read", json!({ "path": "no_newline.txt" })).await;
    assert_eq!(out.content, "a\nb");
    assert_eq!(meta(&out, "total_lines"), &json!(2));
    assert_eq!(meta(&out, "lines"), &json!([1, 2]));
}

#[tokio::test]
async fn a_file_read_error_code_for_special_files_is_not_a_violation() {
    // Refusing a FIFO is not an attack: the loop goes on (no SANDBOX_VIOLATION).
    let env = TestEnv::new();
    #[cfg(unix)]
    nix::unistd::mkfifo(&env.path("pipe"), nix::sys::stat::Mode::from_bits_truncate(0o600)).expect("mkfifo");
    let out = env.call("file_read", json!({ "path": "pipe" })).await;
    assert!(out.code != Some(ToolErrorCode::SandboxViolation), "{:?}", out.code);
}
