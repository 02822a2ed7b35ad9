use super::*;

fn settings(endpoint: &str) -> UpdateSettings {
    UpdateSettings { check_at_start: true, endpoint: endpoint.to_owned() }
}

#[test]
fn a_package_file_install_updates_itself_when_a_server_is_named() {
    let deb = Installation::SelfUpdating { bundle: "deb" };
    assert_eq!(availability(&deb, &settings(""), 1), Ok(()));
    assert_eq!(availability(&deb, &settings("https://updates.example.org/latest.json"), 0), Ok(()));
    let none = availability(&deb, &settings("  "), 0).unwrap_err();
    assert!(none.contains("names no update server"), "{none}");
}

#[test]
fn a_source_build_and_a_repository_install_do_not_update_themselves() {
    let source = availability(&Installation::NotPackaged, &settings(""), 1).unwrap_err();
    assert!(source.contains("built from source"), "{source}");
    let apt = availability(&Installation::PackageManager { manager: "apt" }, &settings(""), 1).unwrap_err();
    assert!(apt.contains("apt keeps it up to date"), "{apt}");
}

#[test]
fn only_an_https_address_is_taken_as_the_update_server() {
    assert_eq!(user_endpoint(&settings("")).unwrap(), None);
    let url = user_endpoint(&settings(" https://updates.example.org/warden/latest.json ")).unwrap();
    assert_eq!(url.map(|u| u.to_string()).as_deref(), Some("https://updates.example.org/warden/latest.json"));
    for bad in ["http://updates.example.org/latest.json", "file:///tmp/latest.json", "not an address"] {
        assert!(matches!(user_endpoint(&settings(bad)), Err(UpdateError::BadEndpoint(_))), "{bad}");
    }
}

#[test]
fn every_package_kind_has_the_name_the_manifest_uses() {
    assert_eq!(bundle_name(BundleType::Deb), "deb");
    assert_eq!(bundle_name(BundleType::Rpm), "rpm");
    assert_eq!(bundle_name(BundleType::AppImage), "appimage");
}

#[test]
fn a_bad_signature_is_said_in_words_and_keeps_the_version() {
    let text = UpdateError::BadSignature.to_string();
    assert!(text.contains("not signed with Warden's key") && text.contains("unchanged"), "{text}");
}
