//! The settings file's format across Warden versions.
//!
//! The file carries `"version": N`. A file without one is version 0 (every file from before
//! versions). Reading a file migrates it to [`SETTINGS_VERSION`], one step per version (the next
//! format is one function in [`MIGRATIONS`]), then takes what this build understands and leaves the
//! rest: a key it does not know, an entry of a map under a name it does not know (a provider a newer
//! build added), a value it cannot read (an unknown trust level) falls back to that field's default
//! and is not used — never the whole file. Saving writes the known fields over the file as it was,
//! so what this build did not understand is kept ([`merge`]). A file from a newer version is read
//! the same way and keeps its version number when saved.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};
use warden_protocol::{ProviderId, ProviderSettings, Settings, ToolPermissions};

/// The format this build writes.
pub const SETTINGS_VERSION: u64 = 1;

const VERSION_KEY: &str = "version";

/// A step from one format to the next: `MIGRATIONS[n]` turns a version-`n` file into version `n + 1`.
/// It works on the JSON as written, so it sees (and keeps) everything in the file.
type Migration = fn(&mut Map<String, Value>);

const MIGRATIONS: [Migration; SETTINGS_VERSION as usize] = [v0_to_v1];

/// Version 1 only adds `"version"`: the fields are those of version 0.
fn v0_to_v1(_file: &mut Map<String, Value>) {}

/// What this build made of a settings file.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ReadFile {
    pub settings: Settings,
    /// The version the file was written in (0: before versions).
    pub version: u64,
    /// The file migrated to this build's version, everything in it kept. When `version` is newer
    /// than this build, the file as it is.
    pub json: Map<String, Value>,
    /// What was not understood and is not used, as paths (`trustLevel`, `providers.gemini`).
    pub ignored: Vec<String>,
}

impl ReadFile {
    /// Whether the file is in an older format than this build writes (rewritten when trusted).
    pub fn is_older(&self) -> bool {
        self.version < SETTINGS_VERSION
    }

    /// What to tell the user about the file, if anything.
    pub fn notice(&self) -> Option<String> {
        let mut notice = Vec::new();
        if self.version > SETTINGS_VERSION {
            notice.push(format!(
                "The settings file was written by a newer version of Warden (format {}, this version reads {}). \
                 Settings this version does not know are kept in the file but not used.",
                self.version, SETTINGS_VERSION
            ));
        }
        if !self.ignored.is_empty() {
            notice.push(format!(
                "Some settings are not understood by this version of Warden and are not used (they are kept \
                 in the file): {}.",
                self.ignored.join(", ")
            ));
        }
        (!notice.is_empty()).then(|| notice.join(" "))
    }

    /// The file to write for `settings`: this build's fields over the file as it was read, so what
    /// it did not understand is kept; the version is this build's, or the file's when newer.
    pub fn updated_with(&self, settings: &Settings) -> Result<Value, serde_json::Error> {
        let base = serde_json::to_value(&self.settings)?;
        let new = serde_json::to_value(settings)?;
        let mut merged = merge(&Value::Object(self.json.clone()), &base, &new);
        if let Value::Object(file) = &mut merged {
            file.insert(VERSION_KEY.to_owned(), Value::from(self.version.max(SETTINGS_VERSION)));
        }
        Ok(merged)
    }
}

/// The file to write for `settings` when there is no file to keep anything of.
pub(super) fn fresh(settings: &Settings) -> Result<Value, serde_json::Error> {
    let mut value = serde_json::to_value(settings)?;
    if let Value::Object(file) = &mut value {
        file.insert(VERSION_KEY.to_owned(), Value::from(SETTINGS_VERSION));
    }
    Ok(value)
}

/// Why a file cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub(super) enum Unreadable {
    #[error("not JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    #[error("not a JSON object")]
    NotAnObject,
}

/// Reads a settings file: migrated to this build's version, what is understood taken.
pub(super) fn read(bytes: &[u8]) -> Result<ReadFile, Unreadable> {
    let Value::Object(mut json) = serde_json::from_slice::<Value>(bytes)? else {
        return Err(Unreadable::NotAnObject);
    };
    let mut ignored = Vec::new();
    let version = match json.get(VERSION_KEY).map(Value::as_u64) {
        None => 0,
        Some(Some(version)) => version,
        Some(None) => {
            // Not a version this or any build writes: read it as the oldest format.
            ignored.push(VERSION_KEY.to_owned());
            0
        }
    };
    if version < SETTINGS_VERSION {
        for step in MIGRATIONS.iter().skip(usize::try_from(version).unwrap_or(usize::MAX)) {
            step(&mut json);
        }
        json.insert(VERSION_KEY.to_owned(), Value::from(SETTINGS_VERSION));
    }
    let settings = understand(&json, &mut ignored);
    Ok(ReadFile { settings, version, json, ignored })
}

/// The settings in `file`, leaving out (and naming in `ignored`) only what cannot be read.
fn understand(file: &Map<String, Value>, ignored: &mut Vec<String>) -> Settings {
    if let Ok(settings) = Settings::deserialize(&Value::Object(file.clone())) {
        return settings;
    }
    let mut kept = Map::new();
    for (key, value) in file {
        let value = match (key.as_str(), value) {
            ("providers", Value::Object(providers)) => Value::Object(known_providers(providers, ignored)),
            ("toolPermissions", Value::Object(projects)) => Value::Object(
                projects
                    .iter()
                    .map(|(project, entry)| {
                        (
                            project.clone(),
                            readable_part::<ToolPermissions>(entry, &format!("{key}.{project}"), ignored),
                        )
                    })
                    .collect(),
            ),
            _ => value.clone(),
        };
        kept.insert(key.clone(), value);
        if parse::<Settings>(&kept).is_none() {
            kept.remove(key);
            ignored.push(key.clone());
        }
    }
    parse(&kept).unwrap_or_default()
}

/// The providers this build knows, each with what of its entry can be read.
fn known_providers(providers: &Map<String, Value>, ignored: &mut Vec<String>) -> Map<String, Value> {
    let mut known = Map::new();
    for (id, entry) in providers {
        let path = format!("providers.{id}");
        if ProviderId::deserialize(Value::String(id.clone())).is_ok() {
            known.insert(id.clone(), readable_part::<ProviderSettings>(entry, &path, ignored));
        } else {
            ignored.push(path);
        }
    }
    known
}

/// The fields of an object that `T` can read (`T` fills the rest with its defaults).
fn readable_part<T: DeserializeOwned>(value: &Value, path: &str, ignored: &mut Vec<String>) -> Value {
    let Value::Object(fields) = value else {
        ignored.push(path.to_owned());
        return Value::Object(Map::new());
    };
    let mut kept = Map::new();
    for (key, field) in fields {
        kept.insert(key.clone(), field.clone());
        if parse::<T>(&kept).is_none() {
            kept.remove(key);
            ignored.push(format!("{path}.{key}"));
        }
    }
    Value::Object(kept)
}

fn parse<T: DeserializeOwned>(fields: &Map<String, Value>) -> Option<T> {
    T::deserialize(&Value::Object(fields.clone())).ok()
}

/// Three-way merge of a settings file: `file` as it is on disk, `base` what this build read of it
/// (serialised back), `new` what it saves now. Where `new` equals `base` the file is kept as it is
/// (including values this build could not read); what changed is written; keys of the file this
/// build does not know are kept; keys this build knows and `new` dropped (a removed map entry) go.
pub(super) fn merge(file: &Value, base: &Value, new: &Value) -> Value {
    if new == base {
        return file.clone();
    }
    let (Value::Object(file), Value::Object(base), Value::Object(new)) = (file, base, new) else {
        return new.clone();
    };
    let mut merged = Map::new();
    for (key, in_file) in file {
        match (base.get(key), new.get(key)) {
            (Some(in_base), Some(in_new)) => {
                merged.insert(key.clone(), merge(in_file, in_base, in_new));
            }
            // Known and removed now.
            (Some(_), None) => {}
            // Not known to this build: kept.
            (None, _) => {
                merged.insert(key.clone(), in_file.clone());
            }
        }
    }
    for (key, in_new) in new {
        if !file.contains_key(key) {
            merged.insert(key.clone(), in_new.clone());
        }
    }
    Value::Object(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn config_there_is_one_migration_per_version() {
        assert_eq!(MIGRATIONS.len() as u64, SETTINGS_VERSION);
    }

    #[test]
    fn config_merge_keeps_the_unknown_and_writes_the_changed() {
        let file =
            json!({ "a": "x-unknown", "b": 1, "m": { "k": 1, "gone": 2, "new-build": 3 }, "extra": true });
        let base = json!({ "a": "default", "b": 1, "m": { "k": 1, "gone": 2 } });
        let new = json!({ "a": "default", "b": 2, "m": { "k": 1, "added": 4 } });
        assert_eq!(
            merge(&file, &base, &new),
            json!({ "a": "x-unknown", "b": 2, "m": { "k": 1, "new-build": 3, "added": 4 }, "extra": true })
        );
        assert_eq!(merge(&file, &base, &base), file);
    }

    #[test]
    fn config_a_value_of_the_wrong_type_falls_back_for_that_field_only() {
        let read =
            read(br#"{"approvalTimeoutSecs":"soon","searxngUrl":"http://s","version":"one"}"#).unwrap();
        assert_eq!(read.settings.approval_timeout_secs, Settings::default().approval_timeout_secs);
        assert_eq!(read.settings.searxng_url, "http://s");
        assert_eq!(read.ignored, ["version", "approvalTimeoutSecs"]);
        assert!(read.notice().unwrap().contains("approvalTimeoutSecs"));
        assert!(matches!(self::read(b"[1]"), Err(Unreadable::NotAnObject)));
        assert!(matches!(self::read(b"{"), Err(Unreadable::NotJson(_))));
    }
}
