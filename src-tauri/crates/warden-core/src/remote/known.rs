//! The remote projects the window opened, remembered in Warden's data folder
//! (`remote-projects.json`, newest first, at most [`KEPT`]) so that the window lists them after a
//! restart and takes their conversations up again there. What is remembered is what the window
//! shows (the target, the transport, the machine's user and box): no key, no message.

use warden_protocol::KnownRemote;

use crate::config::WardenHome;

const FILE: &str = "remote-projects.json";

/// The most remembered; the oldest go first.
pub const KEPT: usize = 50;

/// The remote projects remembered, newest first; none when the file is missing or cannot be read
/// (it is rewritten whole on the next open).
pub fn load(home: &WardenHome) -> Vec<KnownRemote> {
    let path = home.data_dir().join(FILE);
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|error| {
            tracing::warn!(%error, path = %path.display(), "the remembered remote projects cannot be read");
            Vec::new()
        }),
        Err(_) => Vec::new(),
    }
}

/// Remember `opened` first, in place of what was remembered of its conversation (whose title it
/// keeps when `opened` has none).
pub fn remember(home: &WardenHome, mut opened: KnownRemote) -> std::io::Result<()> {
    let mut known = load(home);
    let before = known.iter().position(|k| k.conversation_id == opened.conversation_id);
    if let Some(before) = before.map(|at| known.remove(at)) {
        opened.title = opened.title.or(before.title);
    }
    known.insert(0, opened);
    known.truncate(KEPT);
    save(home, &known)
}

/// The title the user gave the conversation of a remembered remote project (an empty one: none,
/// the list shows its target again). One not remembered is left so.
pub fn retitle(home: &WardenHome, conversation_id: &str, title: &str) -> std::io::Result<()> {
    let mut known = load(home);
    let Some(entry) = known.iter_mut().find(|k| k.conversation_id == conversation_id) else {
        return Ok(());
    };
    let title = title.trim();
    entry.title = (!title.is_empty()).then(|| title.to_owned());
    save(home, &known)
}

fn save(home: &WardenHome, known: &[KnownRemote]) -> std::io::Result<()> {
    let bytes = serde_json::to_vec_pretty(known).map_err(std::io::Error::other)?;
    crate::config::write_atomic(&home.data_dir().join(FILE), &bytes)
}

/// Forget the remote project of `conversation_id` (the user removed it from the list).
pub fn forget(home: &WardenHome, conversation_id: &str) -> std::io::Result<()> {
    let mut known = load(home);
    let before = known.len();
    known.retain(|k| k.conversation_id != conversation_id);
    if known.len() == before {
        return Ok(());
    }
    save(home, &known)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opened(id: &str, at: u64) -> KnownRemote {
        KnownRemote {
            conversation_id: id.into(),
            target: format!("box:/srv/{id}"),
            transport: None,
            host: "box".into(),
            user: "me".into(),
            containment: "bubblewrap".into(),
            remote_env_keys: false,
            title: None,
            opened_at_ms: at,
        }
    }

    #[test]
    fn the_newest_is_first_each_conversation_once_and_the_oldest_go_past_the_limit() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let home = WardenHome::at(dir.path());
        assert!(load(&home).is_empty());
        for n in 0..KEPT + 2 {
            remember(&home, opened(&format!("c{n}"), n as u64)).unwrap_or_else(|e| panic!("{e}"));
        }
        remember(&home, opened("c5", 999)).unwrap_or_else(|e| panic!("{e}"));
        let known = load(&home);
        assert_eq!(known.len(), KEPT);
        assert_eq!((known[0].conversation_id.as_str(), known[0].opened_at_ms), ("c5", 999));
        assert_eq!(known.iter().filter(|k| k.conversation_id == "c5").count(), 1);
        assert!(!known.iter().any(|k| k.conversation_id == "c0"), "the oldest went");
        forget(&home, "c5").unwrap_or_else(|e| panic!("{e}"));
        assert!(!load(&home).iter().any(|k| k.conversation_id == "c5"));
        std::fs::write(home.data_dir().join(FILE), b"{not json").unwrap_or_else(|e| panic!("{e}"));
        assert!(load(&home).is_empty(), "a damaged file lists nothing, and is rewritten on the next open");
    }

    #[test]
    fn a_title_given_is_kept_when_the_project_is_opened_again_and_an_empty_one_clears_it() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let home = WardenHome::at(dir.path());
        remember(&home, opened("c1", 1)).unwrap_or_else(|e| panic!("{e}"));
        retitle(&home, "c1", "  Fix the build  ").unwrap_or_else(|e| panic!("{e}"));
        retitle(&home, "unknown", "x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(load(&home).len(), 1, "a conversation not remembered is not added");
        remember(&home, opened("c1", 2)).unwrap_or_else(|e| panic!("{e}"));
        let known = load(&home);
        assert_eq!((known[0].title.as_deref(), known[0].opened_at_ms), (Some("Fix the build"), 2));
        retitle(&home, "c1", " ").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(load(&home)[0].title, None);
    }
}
