//! The blocklist's shell lexer and checks: any command text the model sends is judged without a
//! panic or a hang. The input is judged as it is, and also as the target of the commands whose
//! targets are matched as globs and paths (`rm -rf`, `find … -delete`, `chmod -R`), so the fuzzer
//! reaches the critical-path matcher (`/****…x`, `/[[[…`) with any bytes it finds, not only with
//! the few that first spell a whole `rm -rf`. A hang is an input that runs past libFuzzer's
//! `-timeout` (scripts/fuzz.sh: 10 s).
#![no_main]

use libfuzzer_sys::fuzz_target;
use warden_core::shell::blocklist::check_command;
use warden_core::shell::command_prefix;

fuzz_target!(|input: &[u8]| {
    let Ok(command) = std::str::from_utf8(input) else { return };
    let _ = check_command(command);
    let _ = command_prefix(command);
    for framed in [format!("rm -rf /{command}"), format!("find /{command} -delete"), format!("chmod -R 777 {command}")]
    {
        let _ = check_command(&framed);
    }
});
