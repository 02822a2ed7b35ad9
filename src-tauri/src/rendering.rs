//! How the webview draws on Linux.
//!
//! WebKitGTK composites pages with OpenGL. On a machine without a GPU (no DRM render node: most
//! VMs, remote sessions, CI under Xvfb) that OpenGL is Mesa's software rasterizer, and then every
//! frame that changes anything costs tens of milliseconds of CPU and the web process holds about
//! 75 MiB more — measured with `bench/app/run.sh`: a 5,000-delta / 200-tool stream went from 162
//! of 215 frames over 50 ms to 1 of 56, and its memory growth from +176 MiB to +35 MiB. There
//! Warden asks WebKit for its CPU path (no compositing mode). With a GPU nothing changes, and a
//! user who set WebKit's own variables keeps their choice.

use std::path::Path;

const DISABLE: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
const FORCE: &str = "WEBKIT_FORCE_COMPOSITING_MODE";

/// Whether compositing should be turned off: only when the user chose nothing and no GPU can be
/// reached.
pub fn should_disable_compositing(user_chose: bool, has_render_node: bool) -> bool {
    !user_chose && !has_render_node
}

/// Whether `dri_dir` (normally `/dev/dri`) holds a DRM render node (`renderD128`, …).
pub fn has_render_node(dri_dir: &Path) -> bool {
    std::fs::read_dir(dri_dir)
        .map(|entries| {
            entries.flatten().any(|e| e.file_name().to_str().is_some_and(|n| n.starts_with("renderD")))
        })
        .unwrap_or(false)
}

/// Applies the choice to this process's environment, which WebKit's processes inherit. Must run
/// before the webview starts and before any other thread exists (it sets an environment variable).
pub fn configure() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let user_chose = std::env::var_os(DISABLE).is_some() || std::env::var_os(FORCE).is_some();
    if should_disable_compositing(user_chose, has_render_node(Path::new("/dev/dri"))) {
        #[allow(
            clippy::disallowed_methods,
            reason = "WebKit's processes inherit it; runs before any other thread"
        )]
        std::env::set_var(DISABLE, "1");
        tracing::info!("no GPU render node: the webview draws without OpenGL compositing");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compositing_is_turned_off_only_without_a_gpu_and_without_a_user_choice() {
        assert!(should_disable_compositing(false, false));
        assert!(!should_disable_compositing(false, true));
        assert!(!should_disable_compositing(true, false));
        assert!(!should_disable_compositing(true, true));
    }

    #[test]
    fn a_render_node_is_recognised_by_its_name() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!has_render_node(dir.path()), "empty dir");
        std::fs::write(dir.path().join("card0"), "").unwrap();
        assert!(!has_render_node(dir.path()), "a card node alone is not a render node");
        std::fs::write(dir.path().join("renderD128"), "").unwrap();
        assert!(has_render_node(dir.path()));
        assert!(!has_render_node(&dir.path().join("missing")), "no /dev/dri at all");
    }
}
