//! Warden's memory stays flat while `bash` runs a command that prints gigabytes: the tool keeps a
//! bounded head and tail for the model and the window's stream is capped, so nothing grows with
//! the output. The peak is the child test process's own (`wait4`'s `ru_maxrss`), the same check
//! `bench/bash_memory` makes on a release build.

use serde_json::json;
use warden_core::tool::OutputSink;

use super::common::*;

/// What a command prints in the test, and the bound on the peak RSS of the process running it. A
/// debug build peaked at 32 MiB alone and 96 MiB under the whole suite's load (the pipe read in
/// bigger bursts while the machine is busy); memory that grew with the output would pass 2 GiB.
/// `bench/bash_memory` holds the release build to 96 MiB.
const PRINTED: u64 = 2_000_000_000;
const PEAK_BOUND_MIB: i64 = 256;

/// The child: runs the command with a window listening to its stream. Run only by the test below
/// (it is told the size through the environment).
#[tokio::test]
#[ignore = "run as a child process by a_command_printing_gigabytes_keeps_wardens_memory_flat"]
async fn child_runs_a_command_printing_gigabytes() {
    let Some(bytes) = std::env::var("WARDEN_TEST_BASH_BYTES").ok().and_then(|b| b.parse::<u64>().ok()) else {
        return;
    };
    let env = TestEnv::new();
    let (sink, mut rx) = OutputSink::channel(env.registry.config().stream_cap_bytes);
    let window = tokio::spawn(async move {
        let mut streamed = 0usize;
        while let Some((_, chunk)) = rx.recv().await {
            streamed += chunk.len();
        }
        streamed
    });
    let ctx = env.ctx.clone().with_output(sink);
    let command = format!("head -c {bytes} /dev/zero | tr '\\0' 'a'");
    let out = env.call_with("bash", json!({ "command": command, "timeout": 600 }), ctx).await;
    assert_ok(&out);
    assert_eq!(meta(&out, "output_bytes"), &json!(bytes), "the whole output went through");
    let streamed = window.await.expect("the window's listener");
    assert!(streamed < 64 * 1024 * 1024, "the window was sent {streamed} bytes");
    assert!(out.content.len() < 1024 * 1024, "the model was given {} bytes", out.content.len());
}

#[cfg(target_os = "linux")]
#[test]
// The peak is printed: a figure for `--nocapture`.
#[allow(clippy::print_stdout)]
fn a_command_printing_gigabytes_keeps_wardens_memory_flat() {
    let peak_mib = child_test_peak_mib(
        "tools::bash_memory::child_runs_a_command_printing_gigabytes",
        ("WARDEN_TEST_BASH_BYTES", &PRINTED.to_string()),
    );
    println!("peak RSS while a command printed {PRINTED} bytes: {peak_mib} MiB (bound {PEAK_BOUND_MIB} MiB)");
    assert!(peak_mib < PEAK_BOUND_MIB, "a command printing {PRINTED} bytes peaked Warden at {peak_mib} MiB");
}
