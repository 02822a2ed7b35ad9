//! What a provider said about a key the last time Warden sent it, in this run: accepted (a request
//! with it succeeded) or rejected (401/403). Settings shows it beside "Key set", so a key that is
//! stored but wrong does not look fine, and a fixed key says so once it has worked.
//!
//! Kept by a SHA-256 digest of the key, never the key: a replaced key has no verdict until it is
//! used, and the old key's verdict can never be shown for the new one.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use super::ApiKey;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyVerdict {
    pub accepted: bool,
    pub at: SystemTime,
}

type Digest16 = [u8; 16];

fn verdicts() -> &'static Mutex<HashMap<Digest16, KeyVerdict>> {
    static VERDICTS: OnceLock<Mutex<HashMap<Digest16, KeyVerdict>>> = OnceLock::new();
    VERDICTS.get_or_init(Default::default)
}

fn digest(key: &ApiKey) -> Digest16 {
    let full = Sha256::digest(key.expose().as_bytes());
    let mut short = [0u8; 16];
    short.copy_from_slice(&full[..16]);
    short
}

/// Note what the provider answered to a request that carried `key`.
pub fn record(key: &ApiKey, accepted: bool) {
    let mut map = verdicts().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    map.insert(digest(key), KeyVerdict { accepted, at: SystemTime::now() });
}

/// What the provider answered the last time `key` was sent, if it was sent in this run.
pub fn last(key: &ApiKey) -> Option<KeyVerdict> {
    let map = verdicts().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    map.get(&digest(key)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(value: &str) -> ApiKey {
        ApiKey::new(value).unwrap_or_else(|| panic!("blank key"))
    }

    #[test]
    fn the_last_answer_counts_and_each_key_has_its_own() {
        let wrong = key("sk-verdict-test-wrong");
        let right = key("sk-verdict-test-right");
        assert_eq!(last(&wrong), None, "never sent: no verdict");
        record(&wrong, false);
        assert_eq!(last(&wrong).map(|v| v.accepted), Some(false));
        assert_eq!(last(&right), None, "another key is not judged by the first one's answer");
        record(&right, true);
        record(&wrong, true);
        assert_eq!(last(&wrong).map(|v| v.accepted), Some(true), "the last answer replaces the earlier one");
    }
}
