//! When each rule last decided a call, for Settings → Permissions: a small file in Warden's home
//! (`rules-used.json`, rule as people read it → RFC 3339 time). It only informs: it is not sealed,
//! a rule is not kept in it, and a file that cannot be read or written is an empty history.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The file's name in Warden's config folder.
pub const FILE: &str = "rules-used.json";

/// More entries than this are rules that no longer exist: the oldest go.
const MAX_ENTRIES: usize = 1000;

/// A rule's use is written at most this often: a call is decided on the loop's path, and a rule
/// that decides every call of a busy turn would otherwise rewrite the file each time.
const WRITE_EVERY: Duration = Duration::from_secs(60);

/// The history of one Warden home.
#[derive(Debug)]
pub struct RuleUse {
    file: PathBuf,
    /// When this process last wrote each rule's use; also serialises its writers.
    written: Mutex<HashMap<String, Instant>>,
}

impl RuleUse {
    pub fn new(config_dir: &Path) -> Self {
        Self { file: config_dir.join(FILE), written: Mutex::default() }
    }

    /// Every rule's last use, keyed as [`super::RuleBook::list`] shows rules with their scope.
    pub fn load(&self) -> BTreeMap<String, String> {
        read(&self.file)
    }

    /// `shown` (`allow bash: cargo test * (project)`) decided a call now (kept to the minute:
    /// see [`WRITE_EVERY`]).
    pub fn record(&self, shown: &str) {
        let mut written = self.written.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if written.get(shown).is_some_and(|at| at.elapsed() < WRITE_EVERY) {
            return;
        }
        written.insert(shown.to_owned(), Instant::now());
        let mut used = read(&self.file);
        used.insert(shown.to_owned(), chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        while used.len() > MAX_ENTRIES {
            let Some(oldest) = used.iter().min_by(|a, b| a.1.cmp(b.1)).map(|(k, _)| k.clone()) else { break };
            used.remove(&oldest);
        }
        let Ok(text) = serde_json::to_vec_pretty(&used) else { return };
        let staged = self.file.with_extension("json.tmp");
        let written = std::fs::write(&staged, text).and_then(|()| std::fs::rename(&staged, &self.file));
        if let Err(error) = written {
            tracing::debug!(%error, "the rules' last use is not kept");
        }
    }
}

fn read(file: &Path) -> BTreeMap<String, String> {
    std::fs::read(file).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_use_is_kept_and_a_broken_file_is_an_empty_history() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let used = RuleUse::new(dir.path());
        assert!(used.load().is_empty());
        used.record("allow bash: cargo test * (project)");
        let when = used.load().remove("allow bash: cargo test * (project)").unwrap_or_default();
        assert!(chrono::DateTime::parse_from_rfc3339(&when).is_ok(), "{when}");
        std::fs::write(dir.path().join(FILE), "{broken").unwrap_or_else(|e| panic!("{e}"));
        assert!(used.load().is_empty());
        used.record("deny write: .github/** (user)");
        assert_eq!(used.load().len(), 1);
    }
}
