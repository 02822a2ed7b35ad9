use std::fs;

use tracing_subscriber::layer::SubscriberExt;

use super::*;

fn log_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

fn everything_in(dir: &Path) -> String {
    log_files(dir).iter().map(|name| fs::read_to_string(dir.join(name)).unwrap_or_default()).collect()
}

#[test]
fn a_key_in_an_event_never_reaches_the_log_file() {
    let dir = tempfile::tempdir().unwrap();
    let appender = file_appender(dir.path()).unwrap();
    let subscriber = tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_ansi(false).with_writer(Redacting(appender)));
    let key = warden_core::secrets::ApiKey::new("a-key-of-no-known-shape-1234").unwrap();
    tracing::subscriber::with_default(subscriber, || {
        tracing::info!(header = "x-api-key: hunter2hunter2", "provider said {}", key.expose());
        tracing::warn!("request with authorization: Bearer sk-ant-api03-0123456789abcdef failed");
        tracing::info!("an ordinary line");
    });
    let text = everything_in(dir.path());
    assert!(text.contains("an ordinary line"), "{text}");
    assert!(text.contains("provider said [redacted]"), "{text}");
    for secret in ["a-key-of-no-known-shape-1234", "hunter2hunter2", "0123456789abcdef"] {
        assert!(!text.contains(secret), "{secret} is in the log:\n{text}");
    }
}

#[test]
fn only_the_newest_days_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    // The appender goes by when a file was made: make them a few milliseconds apart, oldest first.
    for day in 1..=12 {
        fs::write(dir.path().join(format!("warden.2020-01-{day:02}.log")), "old\n").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    fs::write(dir.path().join("notes.txt"), "not a log").unwrap();
    let appender = file_appender(dir.path()).unwrap();
    let subscriber = tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_ansi(false).with_writer(Redacting(appender)));
    tracing::subscriber::with_default(subscriber, || tracing::info!("today"));

    let logs: Vec<String> = log_files(dir.path()).into_iter().filter(|n| n.ends_with(".log")).collect();
    assert_eq!(logs.len(), KEEP_FILES, "{logs:?}");
    assert!(!logs.contains(&"warden.2020-01-01.log".to_owned()), "the oldest day is gone: {logs:?}");
    assert!(everything_in(dir.path()).contains("today"));
    assert!(dir.path().join("notes.txt").exists(), "other files are not the log's to remove");
}

#[cfg(unix)]
#[test]
fn the_log_folder_is_the_users_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("state/warden/logs");
    file_appender(&logs).unwrap();
    assert_eq!(fs::metadata(&logs).unwrap().permissions().mode() & 0o777, 0o700);
}
