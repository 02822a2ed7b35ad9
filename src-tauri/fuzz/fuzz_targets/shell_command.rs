//! The blocklist's shell lexer and checks: any command text the model sends is judged without a
//! panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Ok(command) = std::str::from_utf8(input) else { return };
    let _ = warden_core::sandbox::blocklist::check_command(command);
    let _ = warden_core::sandbox::blocklist::command_prefix(command);
});
