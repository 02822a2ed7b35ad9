//! `system_info`: time with zone, OS, arch, working directory.

use serde_json::json;

use super::common::*;

#[tokio::test]
async fn reports_time_os_and_working_directory() {
    let env = TestEnv::new();
    let out = env.call("system_info", json!({})).await;
    assert_ok(&out);
    let time = meta(&out, "time").as_str().unwrap_or_default();
    assert!(chrono::DateTime::parse_from_rfc3339(time).is_ok(), "{time}");
    assert!(time.contains('+') || time.contains('-') && time.len() > 20, "zone offset present: {time}");
    assert_eq!(meta(&out, "os"), &json!(std::env::consts::OS));
    assert_eq!(meta(&out, "arch"), &json!(std::env::consts::ARCH));
    assert!(out.content.contains(&env.root().to_string_lossy().into_owned()));
    assert!(out.content.starts_with("time: "));
}
