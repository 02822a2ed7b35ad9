//! Sends the page `N` messages one way (`MODE`) and prints what the WebKit web process kept: its
//! PSS before, and after the messages and an idle pause, per message.
//!
//! - `distinct`: one script per message, its payload in the source (how Tauri delivers an event);
//! - `same`: the same script every time (the reference: nothing new to keep);
//! - `batch10`: one script per ten messages (a frame's events delivered together);
//! - `invoke`: the page asks a command `N` times (a command's answer over the IPC protocol).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tauri::Manager;

/// A text delta as the engine sends one.
fn payload(i: usize, k: usize) -> String {
    format!(r#"{{"conversationId":"c-1","messageId":"m-{i}-{k}","delta":"some words of a reply {i} {k}"}}"#)
}

#[tauri::command]
fn pull(i: usize) -> String {
    payload(i, 0)
}

/// Set by the page once it has taken every message (a script runs after those sent before it).
static DONE: AtomicBool = AtomicBool::new(false);

#[tauri::command]
fn done() {
    DONE.store(true, Ordering::SeqCst);
}

/// Until the page said it took every message, at most two minutes.
fn wait_done() -> bool {
    let start = Instant::now();
    while !DONE.load(Ordering::SeqCst) {
        if start.elapsed() > Duration::from_secs(120) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

fn pss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Pss:"))?.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// This process's WebKit web process.
fn web_process() -> Option<u32> {
    let me = std::process::id();
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let ppid: u32 = stat.get(stat.rfind(')')? + 2..)?.split(' ').nth(1)?.parse().ok()?;
        let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
        (ppid == me && name.starts_with("WebKitWebProces")).then_some(pid)
    })
}

fn script(mode: &str, i: usize) -> String {
    let deliver = |items: String| format!("(function () {{ window.__n = (window.__n || 0) + 1; window.__last = [{items}]; }})()");
    match mode {
        "same" => "window.__n = (window.__n || 0) + 1;".to_owned(),
        "batch10" => deliver((0..10).map(|k| payload(i, k)).collect::<Vec<_>>().join(",")),
        _ => deliver(payload(i, 0)),
    }
}

fn main() {
    let mode = std::env::var("MODE").unwrap_or_else(|_| "distinct".to_owned());
    let n: usize = std::env::var("N").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let result = tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![pull, done])
        .setup(move |app| {
            let Some(window) = app.get_webview_window("main") else { return Ok(()) };
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(4));
                let Some(pid) = web_process() else {
                    println!("error: no web process");
                    std::process::exit(1);
                };
                let before = pss_kib(pid);
                let say_done = "window.__TAURI_INTERNALS__.invoke('done')";
                if mode == "invoke" {
                    let _ = window.eval(format!(
                        "(async () => {{ for (let i = 0; i < {n}; i++) window.__last = await window.__TAURI_INTERNALS__.invoke('pull', {{ i }}); {say_done}; }})()"
                    ));
                } else {
                    for i in 0..n {
                        let _ = window.eval(script(&mode, i));
                        if i % 50 == 0 {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                    }
                    let _ = window.eval(say_done);
                }
                if !wait_done() {
                    println!("error: the page did not take all {n} messages within two minutes");
                    std::process::exit(1);
                }
                // What a collection frees in the meantime is not counted as kept.
                std::thread::sleep(Duration::from_secs(8));
                let after = pss_kib(pid);
                let per = (after as f64 - before as f64) / n as f64;
                println!("{mode} {n} {before} {after} {per:.2}");
                std::process::exit(0);
            });
            Ok(())
        })
        .run(tauri::generate_context!());
    if let Err(err) = result {
        eprintln!("ipc-probe: {err}");
        std::process::exit(1);
    }
}
