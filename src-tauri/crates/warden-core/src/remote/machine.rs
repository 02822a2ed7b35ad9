//! The facts of the machine an engine runs on, for the face that drives it from elsewhere.

use warden_protocol::RemoteMachine;

/// This machine, this user, and whether commands run in the box here.
pub fn this_machine() -> RemoteMachine {
    let mechanism = crate::containment::mechanism();
    let uid = nix::unistd::getuid();
    let user = nix::unistd::User::from_uid(uid)
        .ok()
        .flatten()
        .map(|user| user.name)
        .unwrap_or_else(|| uid.to_string());
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_owned())
        .ok()
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".to_owned());
    RemoteMachine {
        host,
        user,
        uid: uid.as_raw(),
        os: std::env::consts::OS.to_owned(),
        arch: std::env::consts::ARCH.to_owned(),
        contained: mechanism.is_contained(),
        containment: mechanism.describe(),
    }
}
