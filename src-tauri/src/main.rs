// Prevents an extra console window on Windows in release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // Started by ssh as the window's SSH_ASKPASS: pass the question to the window, and nothing else.
    if let Some(status) = warden_core::remote::askpass::run_if_asked() {
        std::process::exit(status);
    }
    warden_desktop_lib::run();
}
