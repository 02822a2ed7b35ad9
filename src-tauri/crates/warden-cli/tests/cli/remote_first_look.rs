//! The first look at a large remote project's files, for its checkpoints: its progress comes over
//! the link as the session's events, and the window's Stop stops it there (not a look here).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::raw_link::{open_request, RawLink};
use super::remote_side::{remote_user, RemoteProject, RunDir};

/// The next `chat:snapshot` of the session, within `deadline`.
async fn next_snapshot(link: &mut RawLink, deadline: Instant) -> Value {
    loop {
        assert!(Instant::now() < deadline, "no word of the look in time");
        let frame = link.read().await;
        if frame["type"] == "event" && frame["event"]["event"] == "chat:snapshot" {
            return frame["event"]["payload"].clone();
        }
    }
}

#[tokio::test]
async fn a_remote_projects_first_look_is_reported_here_and_stopped_there() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    // Not a git repository: every file is read and hashed, long enough to be reported.
    for n in 0..40_000 {
        let dir = project.path.join(format!("d{}", n % 200));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("f{n}.txt")), format!("{n}\n")).unwrap();
    }
    let run = RunDir::new(user);
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    // No session yet: nothing to stop.
    let early = link.request(json!({"method": "checkpoint_stop_scan"})).await;
    assert_eq!(early["error"]["usage"], true, "{early}");
    let open = open_request(&project, "http://127.0.0.1:9");
    assert_eq!(link.request(json!({"method": "open", "params": open})).await["ok"]["kind"], "opened");

    let deadline = Instant::now() + Duration::from_secs(50);
    let running = next_snapshot(&mut link, deadline).await;
    assert_eq!((&running["done"], &running["stopped"]), (&json!(false), &json!(false)), "{running}");
    let (stopped, seen) = link.request_seeing(json!({"method": "checkpoint_stop_scan"})).await;
    assert_eq!(stopped["ok"]["kind"], "done", "{stopped}");
    let last = seen
        .iter()
        .rev()
        .find(|f| {
            f["type"] == "event"
                && f["event"]["event"] == "chat:snapshot"
                && f["event"]["payload"]["done"] == true
        })
        .map(|f| f["event"]["payload"].clone());
    let last = match last {
        Some(last) => last,
        None => loop {
            let snapshot = next_snapshot(&mut link, deadline).await;
            if snapshot["done"] == true {
                break snapshot;
            }
        },
    };
    assert_eq!(last["stopped"], true, "the look ended, stopped there: {last}");
    let files = last["files"].as_u64().unwrap_or(u64::MAX);
    assert!(files < 40_000, "stopped before it looked at every file: {last}");

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}
