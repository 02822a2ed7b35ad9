//! Who updates this copy of Warden: the updater in the window, or a package manager. A `.deb`
//! that came from an apt repository is apt's to update (`apt upgrade` would fight an updater that
//! swaps the package under it); a `.deb` or `.rpm` installed from a file has nobody else to update
//! it; a build run from a source checkout is updated with git.

use std::path::Path;

/// The Debian package's name (the product name, as the bundler writes it).
pub const PACKAGE: &str = "warden";
/// Where apt keeps the package lists of its repositories.
pub const APT_LISTS: &str = "/var/lib/apt/lists";

/// How this copy of Warden was installed, as far as updating it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Installation {
    /// From a package file (`.deb`, `.rpm`, AppImage…): the window's updater keeps it current.
    SelfUpdating { bundle: &'static str },
    /// From a repository a package manager follows: updates are its job.
    PackageManager { manager: &'static str },
    /// Not from a package at all (a build in a source checkout).
    NotPackaged,
}

/// The installation of the running app: `bundle` is what the bundler stamped into the binary
/// (`deb`, `rpm`, `appimage`… or `None` for a plain build).
pub fn installation(bundle: Option<&'static str>) -> Installation {
    match bundle {
        None => Installation::NotPackaged,
        Some("deb") if apt_repository_offers(Path::new(APT_LISTS), PACKAGE) => {
            Installation::PackageManager { manager: "apt" }
        }
        Some(bundle) => Installation::SelfUpdating { bundle },
    }
}

/// Whether one of apt's repositories lists `package` (a `Package: NAME` stanza in a
/// `*_Packages` list). Unreadable lists count as not listing it.
pub fn apt_repository_offers(lists: &Path, package: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(lists) else {
        return false;
    };
    let stanza = format!("Package: {package}\n");
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        let is_list = name.to_str().is_some_and(|n| n.ends_with("_Packages"));
        is_list
            && std::fs::read(entry.path()).is_ok_and(|bytes| {
                memchr::memmem::find_iter(&bytes, stanza.as_bytes())
                    .any(|at| at == 0 || bytes[at - 1] == b'\n')
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_build_is_not_packaged() {
        assert_eq!(installation(None), Installation::NotPackaged);
    }

    #[test]
    fn an_rpm_or_an_appimage_updates_itself() {
        assert_eq!(installation(Some("rpm")), Installation::SelfUpdating { bundle: "rpm" });
        assert_eq!(installation(Some("appimage")), Installation::SelfUpdating { bundle: "appimage" });
    }

    #[test]
    fn a_repository_listing_warden_makes_it_apts() {
        let lists = tempfile::tempdir().unwrap();
        let list = lists.path().join("deb.example.org_dists_stable_main_binary-amd64_Packages");
        std::fs::write(&list, "Package: wardenish\nVersion: 1\n\nPackage: other\nDepends: warden\n").unwrap();
        assert!(!apt_repository_offers(lists.path(), PACKAGE), "only a stanza of its own name counts");
        std::fs::write(&list, "Package: other\nVersion: 1\n\nPackage: warden\nVersion: 0.2.0\n").unwrap();
        assert!(apt_repository_offers(lists.path(), PACKAGE));
        std::fs::write(lists.path().join("lock"), "Package: warden\n").unwrap();
        std::fs::write(&list, "").unwrap();
        assert!(!apt_repository_offers(lists.path(), PACKAGE), "only the package lists count");
    }

    #[test]
    fn no_lists_means_no_repository() {
        assert!(!apt_repository_offers(Path::new("/nonexistent/lists"), PACKAGE));
    }
}
