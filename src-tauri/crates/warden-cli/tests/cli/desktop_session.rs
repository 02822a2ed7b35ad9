//! The red team's reproductions of "a box with the network reaches the user's desktop session",
//! with the real services: an X server (Xvfb, which like Xorg listens on the abstract socket
//! `@/tmp/.X11-unix/X<n>` beside its file socket) and a session bus at an abstract address (where
//! the keychain, and Warden's keys in it, answer). Each first shows the probe working outside the
//! box, then fails to reach it from `warden sandbox --network`.
#![cfg(target_os = "linux")]

use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

use super::process::{command, Dirs};

/// A service the test started, killed when dropped.
struct Service(Child);

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.0.start_kill();
    }
}

/// Run `script` with `sh -c`, outside any box; its exit code and output.
async fn outside(script: &str) -> (i32, String) {
    let out = Command::new("sh").args(["-c", script]).stdin(Stdio::null()).output().await.unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// `warden sandbox --network -- sh -c SCRIPT`; its exit code and output.
async fn boxed(dirs: &Dirs, script: &str) -> (i32, String) {
    let mut cmd = command(dirs, &["sandbox", "--network", "--", "sh", "-c", script]);
    cmd.stdin(Stdio::null());
    let out = cmd.output().await.unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// Retry `probe` outside the box until it succeeds (a service starting), or panic.
async fn until_ready(probe: &str) {
    for _ in 0..100 {
        if outside(probe).await.0 == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the service never answered `{probe}`: {}", outside(probe).await.1);
}

#[tokio::test]
async fn an_x_server_is_out_of_reach_of_a_box_with_the_network() {
    let dirs = Dirs::new();
    // A display number of this test's own; no cookie (Xvfb without -auth lets every local client in).
    let display = format!(":{}", 60 + std::process::id() % 300);
    let _x = Service(
        Command::new("Xvfb")
            .args([display.as_str(), "-nolisten", "tcp", "-screen", "0", "320x240x24"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap(),
    );
    let probe = format!("DISPLAY={display} xdotool getmouselocation");
    until_ready(&probe).await;
    let (code, said) = boxed(&dirs, &probe).await;
    assert_ne!(code, 0, "a boxed command drove the X server: {said}");
    assert!(said.contains("Can't open display") || said.contains("Error"), "{said}");
}

#[tokio::test]
async fn a_session_bus_at_an_abstract_address_is_out_of_reach_of_a_box_with_the_network() {
    let dirs = Dirs::new();
    let address = format!("unix:abstract=/tmp/warden-test-bus-{}", std::process::id());
    let _bus = Service(
        Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--address", &address])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap(),
    );
    let probe = format!(
        "dbus-send --bus={address} --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
         org.freedesktop.DBus.ListNames"
    );
    until_ready(&probe).await;
    let (code, said) = boxed(&dirs, &probe).await;
    assert_ne!(code, 0, "a boxed command talked to the session bus: {said}");
    assert!(!said.contains("org.freedesktop.DBus\""), "{said}");
}
