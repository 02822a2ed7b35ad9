//! Updates of the installed app: ask the update manifest (`latest.json`) whether a newer version
//! exists, and on the user's word download it, check its signature against Warden's public key
//! (built in; `tauri-plugin-updater` does the minisign check), install it and restart. A package
//! whose signature does not match is never installed. Copies a package manager updates, and builds
//! not installed from a package, do not update themselves ([`managed`]).

pub mod managed;

use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::utils::config::BundleType;
use tauri::{AppHandle, Runtime, Url};
use tauri_plugin_updater::{Update, UpdaterExt};
use tauri_specta::Event as TauriEvent;
use warden_protocol::UpdateSettings;

use managed::Installation;

/// What a check for updates found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum UpdateCheck {
    /// This is the newest version.
    UpToDate { current: String },
    /// A newer version can be installed.
    #[serde(rename_all = "camelCase")]
    Available { current: String, version: String, notes: String, published: Option<String> },
    /// This copy does not update itself, and why (in words for the window).
    Unavailable { reason: String },
}

/// `update:progress`: how much of the update has been downloaded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, TauriEvent)]
#[tauri_specta(event_name = "update:progress")]
#[serde(rename_all = "camelCase")]
pub struct UpdateProgressEvent {
    pub downloaded: u32,
    /// Bytes in all, when the server said.
    pub total: Option<u32>,
    pub stage: UpdateStage,
}

/// Where an update's install is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub enum UpdateStage {
    Downloading,
    Installing,
    Restarting,
}

/// The update found by the last check, kept for the install the user may ask for next.
#[derive(Default)]
pub struct PendingUpdate(Mutex<Option<Update>>);

/// Why no update could be checked for or installed, in words.
#[derive(Debug, thiserror::Error)]
pub enum UpdateError {
    #[error("{0}")]
    Unavailable(String),
    #[error("The update server's address is not valid ({0}).")]
    BadEndpoint(String),
    #[error(
        "The downloaded update is not signed with Warden's key, so it was not installed. Your version is unchanged."
    )]
    BadSignature,
    #[error("Could not reach the update server ({0}).")]
    Network(String),
    #[error("The update could not be installed ({0}). Your version is unchanged.")]
    Install(String),
    #[error("Checking for updates failed ({0}).")]
    Other(String),
}

/// Whether this copy updates itself; the reason in words when it does not.
pub fn availability(
    installation: &Installation,
    settings: &UpdateSettings,
    build_endpoints: usize,
) -> Result<(), String> {
    match installation {
        Installation::NotPackaged => Err(
            "This copy of Warden was built from source, not installed from a package: update it with git and scripts/run.sh."
                .to_owned(),
        ),
        Installation::PackageManager { manager } => {
            Err(format!("Warden was installed from a {manager} repository: {manager} keeps it up to date."))
        }
        Installation::SelfUpdating { .. } if settings.endpoint.trim().is_empty() && build_endpoints == 0 => Err(
            "This build names no update server. Set one in Settings → Updates to look for new versions.".to_owned(),
        ),
        Installation::SelfUpdating { .. } => Ok(()),
    }
}

/// The manifest address the user set, checked: `https` only, and an address at all.
pub fn user_endpoint(settings: &UpdateSettings) -> Result<Option<Url>, UpdateError> {
    let text = settings.endpoint.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let url = Url::parse(text).map_err(|e| UpdateError::BadEndpoint(e.to_string()))?;
    if url.scheme() != "https" {
        return Err(UpdateError::BadEndpoint("only https addresses are used".to_owned()));
    }
    Ok(Some(url))
}

/// The running app's installation.
pub fn current_installation() -> Installation {
    managed::installation(tauri::utils::platform::bundle_type().map(bundle_name))
}

/// The bundler's name for a package kind, as the update manifest spells it.
fn bundle_name(bundle: BundleType) -> &'static str {
    match bundle {
        BundleType::Deb => "deb",
        BundleType::Rpm => "rpm",
        BundleType::AppImage => "appimage",
        BundleType::Msi => "msi",
        BundleType::Nsis => "nsis",
        BundleType::App => "app",
        BundleType::Dmg => "dmg",
    }
}

/// Asks the update server; remembers what it offers for [`install`].
pub async fn check<R: Runtime>(
    app: &AppHandle<R>,
    settings: &UpdateSettings,
    pending: &PendingUpdate,
) -> Result<UpdateCheck, UpdateError> {
    let current = app.package_info().version.to_string();
    let build_endpoints = build_endpoint_count(app);
    if let Err(reason) = availability(&current_installation(), settings, build_endpoints) {
        return Ok(UpdateCheck::Unavailable { reason });
    }
    let mut builder = app.updater_builder();
    if let Some(url) = user_endpoint(settings)? {
        builder = builder.endpoints(vec![url]).map_err(|e| UpdateError::BadEndpoint(e.to_string()))?;
    }
    let updater = builder.build().map_err(|e| UpdateError::Other(e.to_string()))?;
    let found = updater.check().await.map_err(network_or_other)?;
    let answer = match &found {
        None => UpdateCheck::UpToDate { current },
        Some(update) => UpdateCheck::Available {
            current,
            version: update.version.clone(),
            notes: update.body.clone().unwrap_or_default(),
            published: update.date.map(|date| date.to_string()),
        },
    };
    *pending.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = found;
    Ok(answer)
}

/// Downloads the update the last check found, checks its signature, installs it and restarts
/// the app into it. Progress goes out as `update:progress`.
pub async fn install<R: Runtime>(app: &AppHandle<R>, pending: &PendingUpdate) -> Result<(), UpdateError> {
    let update =
        pending.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take().ok_or_else(|| {
            UpdateError::Unavailable("Check for updates first: no update is waiting.".to_owned())
        })?;
    let progress = |downloaded: usize, total: Option<u64>, stage: UpdateStage| {
        let event = UpdateProgressEvent {
            downloaded: u32::try_from(downloaded).unwrap_or(u32::MAX),
            total: total.map(|t| u32::try_from(t).unwrap_or(u32::MAX)),
            stage,
        };
        if let Err(error) = event.emit(app) {
            tracing::debug!(%error, "update progress not shown");
        }
    };
    let mut downloaded = 0usize;
    let bytes = update
        .download(
            |chunk, total| {
                downloaded += chunk;
                progress(downloaded, total, UpdateStage::Downloading);
            },
            || {},
        )
        .await
        .map_err(|error| match error {
            tauri_plugin_updater::Error::Minisign(_)
            | tauri_plugin_updater::Error::Base64(_)
            | tauri_plugin_updater::Error::SignatureUtf8(_)
            | tauri_plugin_updater::Error::SignedVersionMismatch { .. }
            | tauri_plugin_updater::Error::MissingSignedVersion => {
                tracing::warn!(%error, version = %update.version, "an update's signature did not match; not installed");
                UpdateError::BadSignature
            }
            other => network_or_other(other),
        })?;
    progress(bytes.len(), Some(bytes.len() as u64), UpdateStage::Installing);
    install_package(&update, &bytes)?;
    tracing::info!(from = %update.current_version, to = %update.version, "update installed; restarting");
    progress(bytes.len(), Some(bytes.len() as u64), UpdateStage::Restarting);
    app.request_restart();
    Ok(())
}

/// Installs the verified package. As root, `dpkg -i` / `rpm -U` directly (no password to ask
/// for); otherwise the updater's own way (pkexec, a graphical sudo, then sudo).
fn install_package(update: &Update, bytes: &[u8]) -> Result<(), UpdateError> {
    #[cfg(target_os = "linux")]
    if nix::unistd::geteuid().is_root() {
        if let Some(installer) = root_installer(tauri::utils::platform::bundle_type()) {
            return install_as_root(installer, bytes);
        }
    }
    update.install(bytes).map_err(|e| UpdateError::Install(e.to_string()))
}

/// The package tool, its install argument and the package's extension for a Linux package (the
/// check that found the update already said the app updates itself).
#[cfg(target_os = "linux")]
fn root_installer(bundle: Option<BundleType>) -> Option<(&'static str, &'static str, &'static str)> {
    match bundle {
        Some(BundleType::Deb) => Some(("dpkg", "-i", "deb")),
        Some(BundleType::Rpm) => Some(("rpm", "-U", "rpm")),
        _ => None,
    }
}

#[cfg(target_os = "linux")]
fn install_as_root((tool, arg, extension): (&str, &str, &str), bytes: &[u8]) -> Result<(), UpdateError> {
    let install = |e: std::io::Error| UpdateError::Install(e.to_string());
    let dir = tempfile::Builder::new().prefix("warden-update").tempdir().map_err(install)?;
    let package = dir.path().join(format!("warden.{extension}"));
    std::fs::write(&package, bytes).map_err(install)?;
    let output = std::process::Command::new(tool)
        .arg(arg)
        .arg(&package)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .map_err(install)?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let last = stderr.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or("no output");
    Err(UpdateError::Install(format!("{tool} {arg} failed: {}", last.trim())))
}

fn network_or_other(error: tauri_plugin_updater::Error) -> UpdateError {
    match error {
        tauri_plugin_updater::Error::Reqwest(e) => UpdateError::Network(e.without_url().to_string()),
        tauri_plugin_updater::Error::Network(e) => UpdateError::Network(e),
        tauri_plugin_updater::Error::ReleaseNotFound => {
            UpdateError::Network("it gave no valid release manifest".to_owned())
        }
        other => UpdateError::Other(other.to_string()),
    }
}

/// How this copy is kept up to date, in words (the About box).
pub fn how_updated<R: Runtime>(app: &AppHandle<R>, settings: &UpdateSettings) -> String {
    match availability(&current_installation(), settings, build_endpoint_count(app)) {
        Ok(()) => "Updates itself: Help → Check for Updates.".to_owned(),
        Err(reason) => reason,
    }
}

/// How many update servers the build's own configuration names.
fn build_endpoint_count<R: Runtime>(app: &AppHandle<R>) -> usize {
    app.config()
        .plugins
        .0
        .get("updater")
        .and_then(|updater| updater.get("endpoints"))
        .and_then(|endpoints| endpoints.as_array())
        .map_or(0, Vec::len)
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
