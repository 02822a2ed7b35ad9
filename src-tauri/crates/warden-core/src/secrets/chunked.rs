//! A secret longer than one keychain entry holds (OAuth tokens run to several kilobytes; Windows
//! Credential Manager takes 2,560 bytes), kept in consecutive entries: `account` holds the number
//! of parts and the first part, `account#1`, `account#2`… the rest. Saving fewer parts than before
//! removes the parts left over.

use super::{SecretError, SecretStore, MAX_ENTRY_BYTES};

/// Room for the part count and its newline in the first entry.
const HEADER: usize = 8;

fn part_account(account: &str, index: usize) -> String {
    if index == 0 {
        account.to_owned()
    } else {
        format!("{account}#{index}")
    }
}

/// `value` in parts of at most `MAX_ENTRY_BYTES - HEADER` bytes, cut on character boundaries.
fn parts(value: &str) -> Vec<&str> {
    let size = MAX_ENTRY_BYTES - HEADER;
    let mut parts = Vec::new();
    let mut rest = value;
    while !rest.is_empty() {
        let mut end = rest.len().min(size);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let (part, tail) = rest.split_at(end);
        parts.push(part);
        rest = tail;
    }
    parts
}

pub async fn save(store: &dyn SecretStore, account: &str, value: &str) -> Result<(), SecretError> {
    let before = count(store, account).await?;
    let parts = parts(value);
    let total = parts.len().max(1);
    for (index, part) in parts.iter().enumerate().skip(1) {
        store.set_entry(&part_account(account, index), part).await?;
    }
    // The first entry last: a reader never sees a count whose parts are not written yet.
    let first = parts.first().copied().unwrap_or("");
    store.set_entry(account, &format!("{total}\n{first}")).await?;
    for index in total..before {
        store.delete_entry(&part_account(account, index)).await?;
    }
    Ok(())
}

pub async fn load(store: &dyn SecretStore, account: &str) -> Result<Option<String>, SecretError> {
    let Some(first) = store.get_entry(account).await? else { return Ok(None) };
    let Some((total, head)) =
        first.split_once('\n').and_then(|(n, head)| Some((n.parse::<usize>().ok()?, head)))
    else {
        return Err(SecretError::Unavailable(format!("the keychain entry {account} is malformed")));
    };
    let mut value = head.to_owned();
    for index in 1..total {
        match store.get_entry(&part_account(account, index)).await? {
            Some(part) => value.push_str(&part),
            None => {
                return Err(SecretError::Unavailable(format!(
                    "part {index} of the keychain entry {account} is missing"
                )))
            }
        }
    }
    Ok(Some(value))
}

pub async fn delete(store: &dyn SecretStore, account: &str) -> Result<(), SecretError> {
    let total = count(store, account).await?;
    for index in (1..total).rev() {
        store.delete_entry(&part_account(account, index)).await?;
    }
    store.delete_entry(account).await
}

async fn count(store: &dyn SecretStore, account: &str) -> Result<usize, SecretError> {
    Ok(store
        .get_entry(account)
        .await?
        .and_then(|first| first.split_once('\n').and_then(|(n, _)| n.parse().ok()))
        .unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemoryStore;

    #[tokio::test]
    async fn a_long_secret_is_kept_in_parts_that_each_fit_one_entry() {
        let store = MemoryStore::new();
        // Several kilobytes with multi-byte characters across the cut points.
        let long: String = (0..5000).map(|i| if i % 7 == 0 { 'é' } else { 'x' }).collect();
        save(&store, "mcp-oauth/a", &long).await.unwrap();
        assert_eq!(store.entry_count(), 3);
        assert_eq!(load(&store, "mcp-oauth/a").await.unwrap().as_deref(), Some(long.as_str()));
        // Shorter now: the parts left over are gone.
        save(&store, "mcp-oauth/a", "short").await.unwrap();
        assert_eq!(store.entry_count(), 1);
        assert_eq!(load(&store, "mcp-oauth/a").await.unwrap().as_deref(), Some("short"));
        delete(&store, "mcp-oauth/a").await.unwrap();
        assert_eq!(store.entry_count(), 0);
        assert_eq!(load(&store, "mcp-oauth/a").await.unwrap(), None);
    }
}
