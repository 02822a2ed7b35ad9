//! The loop's own cost per iteration: a provider on loopback that answers at once with one tool
//! call (`system_info`, which does next to nothing), N iterations, against bare keep-alive HTTP
//! round trips that send the same request bodies to the same kind of server in the same run.
//!
//!     cargo run --release -p warden-core --example loop_overhead -- [ITERATIONS]
//!
//! Prints the bare round trip, the loop's time per iteration, the overhead per iteration, and
//! the overhead in the first and last fifth of the run (growth beyond re-sending the history
//! shows up there).
// A benchmark's output is its report.
#![allow(clippy::print_stdout)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use warden_core::agent::{Session, SessionConfig, ToolEnvironment, TurnEnd};
use warden_core::provider::{build_provider, ProviderKind, ProviderOptions, RetryPolicy};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::secrets::ApiKey;
use warden_core::tool::{ToolRegistry, ToolsConfig};
use warden_protocol::{Event, TrustLevel};
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

#[tokio::main]
#[allow(clippy::too_many_lines)] // The benchmark's whole run, each measurement in the order it is printed.
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let iterations: usize = std::env::args().nth(1).map(|n| n.parse()).transpose()?.unwrap_or(200);

    let tool_answer = |i: usize| anthropic(&[tool(&format!("toolu_{i}"), "system_info", json!({}))], 10);
    let mut replies: Vec<Reply> = (0..iterations).map(|i| Reply::sse(tool_answer(i), Split::Whole)).collect();
    replies.push(Reply::sse(anthropic(&[text("done")], 10), Split::Whole));
    let server = TestServer::start(replies).await;
    let provider = build_provider(
        ProviderKind::Anthropic,
        ProviderOptions {
            base_url: Some(server.url.clone()),
            api_key: ApiKey::new("bench"),
            native_tools: true,
            idle_timeout: Duration::from_secs(10),
            retry: RetryPolicy { max_attempts: 1, ..RetryPolicy::default() },
            learned: None,
        },
    );
    let project = tempfile::tempdir()?;
    let storage = tempfile::tempdir()?;
    let mut config = SessionConfig::new("bench", "claude-bench");
    config.trust = TrustLevel::Autonomous;
    config.scope = Scope::read_only();
    config.max_turns = u32::try_from(iterations + 1)?;
    config.context_window = Some(u32::MAX);
    let workspace = Workspace::new(project.path(), storage.path(), config.scope.clone())?;
    let (session, mut events) = Session::new(
        config,
        provider,
        Arc::new(ToolRegistry::with_core_tools(ToolsConfig::default())),
        ToolEnvironment::new(workspace),
    );
    // Time each iteration from its stream-start to the next.
    let stamps = tokio::spawn(async move {
        let mut stamps = Vec::new();
        while let Some(event) = events.recv().await {
            if matches!(event, Event::StreamStart(_)) {
                stamps.push(Instant::now());
            }
        }
        stamps
    });
    let started = Instant::now();
    let end = session.send("go").await?;
    let total = started.elapsed();
    drop(session);
    let stamps = stamps.await?;
    assert_eq!(end, TurnEnd::Completed, "the loop did not complete");
    let loop_gaps: Vec<Duration> = stamps.windows(2).map(|w| w[1] - w[0]).collect();

    // The reference: bare keep-alive round trips that send exactly the bodies the loop sent (so
    // re-sending the growing history is in both) to a fresh server with the same answers.
    let bodies: Vec<Vec<u8>> =
        server.requests().iter().map(|r| serde_json::to_vec(&r.body)).collect::<Result<_, _>>()?;
    let replay =
        TestServer::start((0..bodies.len()).map(|i| Reply::sse(tool_answer(i), Split::Whole)).collect())
            .await;
    let client = reqwest::Client::new();
    let url = format!("{}/v1/messages", replay.url);
    let mut bare_times = Vec::with_capacity(bodies.len());
    for body in bodies {
        let started = Instant::now();
        let response = client.post(&url).header("content-type", "application/json").body(body).send().await?;
        std::hint::black_box(response.bytes().await?);
        bare_times.push(started.elapsed());
    }

    let n = loop_gaps.len().min(bare_times.len());
    let overhead: Vec<f64> =
        (0..n).map(|i| loop_gaps[i].as_secs_f64() - bare_times[i].as_secs_f64()).collect();
    let fifth = (n / 5).max(1);
    let mean_us = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64 * 1e6;
    let secs = |d: &[Duration]| d.iter().map(Duration::as_secs_f64).collect::<Vec<_>>();
    let (loop_s, bare_s) = (secs(&loop_gaps[..n]), secs(&bare_times[..n]));

    println!(
        "iterations                         {iterations} (turn total {:.1} ms)",
        total.as_secs_f64() * 1e3
    );
    println!("bare round trip, same bodies       {:>8.1} µs per iteration", mean_us(&bare_s));
    println!("loop                               {:>8.1} µs per iteration", mean_us(&loop_s));
    println!(
        "loop overhead                      {:>8.1} µs per iteration  (target < 1000 µs)",
        mean_us(&overhead)
    );
    println!("ratio loop / bare                  {:>8.2}×", mean_us(&loop_s) / mean_us(&bare_s));
    println!(
        "overhead, first fifth / last fifth {:>8.1} µs / {:.1} µs  (flat = no growth beyond re-sending the history)",
        mean_us(&overhead[..fifth]),
        mean_us(&overhead[n - fifth..])
    );
    println!(
        "bare, first fifth / last fifth     {:>8.1} µs / {:.1} µs  (the cost of the history itself)",
        mean_us(&bare_s[..fifth]),
        mean_us(&bare_s[n - fifth..])
    );
    Ok(())
}
