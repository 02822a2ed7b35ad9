//! Where Warden keeps its files, and the settings file. The settings file never holds a secret:
//! the `Settings` type has no field for one, and keys live in the keychain.

use std::io::Write;
use std::path::{Path, PathBuf};

use warden_protocol::Settings;

const SETTINGS_FILE: &str = "settings.json";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("no home directory: set WARDEN_HOME")]
    NoHome,
    #[error("could not write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("could not read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("could not encode the settings: {0}")]
    Encode(#[from] serde_json::Error),
}

/// Warden's own directories: config (settings) and data (per-project storage).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WardenHome {
    config_dir: PathBuf,
    data_dir: PathBuf,
}

impl WardenHome {
    /// `$WARDEN_HOME` for both when set, else the platform's config and data dirs + `warden`.
    pub fn from_env() -> Result<Self, ConfigError> {
        if let Some(dir) = std::env::var_os("WARDEN_HOME").filter(|d| !d.is_empty()) {
            return Ok(Self::at(PathBuf::from(dir)));
        }
        let config = dirs::config_dir().ok_or(ConfigError::NoHome)?.join("warden");
        let data = dirs::data_dir().ok_or(ConfigError::NoHome)?.join("warden");
        Ok(Self { config_dir: config, data_dir: data })
    }

    /// Everything under one directory.
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        Self { config_dir: dir.clone(), data_dir: dir }
    }

    pub fn config_dir(&self) -> &Path {
        &self.config_dir
    }

    pub fn settings_path(&self) -> PathBuf {
        self.config_dir.join(SETTINGS_FILE)
    }

    /// Warden's own storage for a project: `<data>/projects/<folder name>-<hash of the path>`.
    /// The second sandbox root.
    pub fn project_dir(&self, project_root: &Path) -> PathBuf {
        let name = project_root
            .file_name()
            .map(|n| {
                n.to_string_lossy().chars().filter(|c| c.is_alphanumeric() || "-_.".contains(*c)).collect()
            })
            .filter(|n: &String| !n.is_empty())
            .unwrap_or_else(|| "root".to_owned());
        self.data_dir.join("projects").join(format!("{name}-{:08x}", fnv1a(project_root)))
    }

    /// Where a conversation's history is kept, or `None` for an id that is not a plain name
    /// (ids come from the window; one can never name a path outside this folder).
    pub fn conversation_path(&self, conversation_id: &str) -> Option<PathBuf> {
        let plain = !conversation_id.is_empty()
            && conversation_id.len() <= 128
            && conversation_id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        plain.then(|| self.data_dir.join("conversations").join(format!("{conversation_id}.json")))
    }

    /// The saved settings, or the defaults when there are none. A file that cannot be parsed is
    /// moved aside (`settings.json.invalid`) rather than overwritten, so nothing the user wrote
    /// is lost.
    pub fn load_settings(&self) -> Result<Settings, ConfigError> {
        let path = self.settings_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Settings::default()),
            Err(source) => return Err(ConfigError::Read { path, source }),
        };
        match serde_json::from_str(&text) {
            Ok(settings) => Ok(settings),
            Err(error) => {
                let aside = path.with_extension("json.invalid");
                tracing::warn!(%error, path = %path.display(), aside = %aside.display(), "settings file unreadable; using defaults");
                std::fs::rename(&path, &aside)
                    .map_err(|source| ConfigError::Write { path: aside, source })?;
                Ok(Settings::default())
            }
        }
    }

    /// Write the settings atomically (temp file + rename), readable by the user only.
    pub fn save_settings(&self, settings: &Settings) -> Result<(), ConfigError> {
        let path = self.settings_path();
        let json = serde_json::to_vec_pretty(settings)?;
        write_atomic(&path, &json).map_err(|source| ConfigError::Write { path, source })
    }
}

pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// A stable, dependency-free hash for directory names (not for security).
fn fnv1a(path: &Path) -> u32 {
    path.to_string_lossy().bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warden_protocol::TrustLevel;

    #[test]
    fn missing_settings_are_the_defaults_and_saving_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let home = WardenHome::at(dir.path());
        assert_eq!(home.load_settings().unwrap(), Settings::default());
        let settings = Settings { trust_level: TrustLevel::Supervised, ..Settings::default() };
        home.save_settings(&settings).unwrap();
        assert_eq!(home.load_settings().unwrap(), settings);
    }

    #[test]
    fn an_unreadable_settings_file_is_kept_aside_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let home = WardenHome::at(dir.path());
        std::fs::write(home.settings_path(), "{ not json").unwrap();
        assert_eq!(home.load_settings().unwrap(), Settings::default());
        assert_eq!(std::fs::read_to_string(dir.path().join("settings.json.invalid")).unwrap(), "{ not json");
    }

    #[test]
    fn conversation_files_only_for_plain_ids() {
        let home = WardenHome::at("/h");
        assert_eq!(home.conversation_path("3f2a-b_9"), Some(PathBuf::from("/h/conversations/3f2a-b_9.json")));
        for bad in ["", "../settings", "a/b", "a.json", "x\0", &"a".repeat(129)] {
            assert_eq!(home.conversation_path(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn project_storage_is_per_project_and_stable() {
        let home = WardenHome::at("/h");
        let a = home.project_dir(Path::new("/src/app"));
        assert_eq!(a, home.project_dir(Path::new("/src/app")));
        assert_ne!(a, home.project_dir(Path::new("/other/app")));
        assert!(a.starts_with("/h/projects"));
        assert!(a.file_name().unwrap().to_string_lossy().starts_with("app-"));
    }
}
