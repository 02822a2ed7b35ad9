//! The MCP servers of one Warden process: a slot per configured server and project folder
//! ([`ServerSlot`]: started when a session first needs it, all servers in parallel, started again
//! when it dies), kept while sessions use it and closed with its whole process tree when it is
//! removed or Warden ends.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use warden_protocol::McpServerStatus;

use super::connection::ClientSetup;
use super::server::ServerSpec;
use super::slot::{same_reach, ServerSlot, START_TIMEOUT};
use super::toolset::McpToolset;
use crate::containment::BoxPolicy;

/// Every server slot of the process, by name.
#[derive(Default)]
pub struct McpHub {
    slots: tokio::sync::Mutex<BTreeMap<String, Arc<ServerSlot>>>,
    setup: std::sync::RwLock<ClientSetup>,
}

impl McpHub {
    /// A hub whose servers use `setup` (the keychain for sign-ins, who fills in forms).
    pub fn new(setup: ClientSetup) -> Self {
        Self { slots: Default::default(), setup: std::sync::RwLock::new(setup) }
    }

    /// Who fills in the forms servers started from now on ask for (the window's form).
    pub fn set_elicitor(&self, elicitor: Arc<dyn super::Elicitor>) {
        match self.setup.write() {
            Ok(mut setup) => setup.elicitor = Some(elicitor),
            Err(poisoned) => poisoned.into_inner().elicitor = Some(elicitor),
        }
    }

    /// The model servers allowed to ask for one (sampling) are answered by: the model of the
    /// conversation started last.
    pub fn set_model(&self, provider: Arc<dyn crate::provider::Provider>, model: String) {
        self.setup().model.set(provider, model);
    }

    fn setup(&self) -> ClientSetup {
        self.setup.read().map(|s| s.clone()).unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }

    /// The slot of the server `name` among `specs` (started or not).
    pub async fn slot(
        &self,
        specs: &[ServerSpec],
        root: &Path,
        policy: Option<&BoxPolicy>,
        name: &str,
    ) -> Option<Arc<ServerSlot>> {
        self.slots_for(specs, root, policy).await.into_iter().find(|slot| slot.name() == name)
    }

    /// The tools of `specs` for a session in `root`, kept as a toolset that notices when a server's
    /// tool list changes: servers not yet running are started, all at once; a server whose entry,
    /// project or box changed is replaced; servers no longer configured are closed. A server that
    /// cannot start adds no tools (its status says why).
    pub async fn toolset(&self, specs: &[ServerSpec], root: &Path, policy: Option<&BoxPolicy>) -> McpToolset {
        McpToolset::new(self.slots_for(specs, root, policy).await).await
    }

    /// The status of every configured server (starting those that are not running).
    pub async fn statuses(
        &self,
        specs: &[ServerSpec],
        root: &Path,
        policy: Option<&BoxPolicy>,
    ) -> Vec<McpServerStatus> {
        let slots = self.slots_for(specs, root, policy).await;
        futures::future::join_all(slots.iter().map(|slot| async move {
            let _ = slot.connection().await;
            slot.status().await
        }))
        .await
    }

    async fn slots_for(
        &self,
        specs: &[ServerSpec],
        root: &Path,
        policy: Option<&BoxPolicy>,
    ) -> Vec<Arc<ServerSlot>> {
        let setup = self.setup();
        let mut slots = self.slots.lock().await;
        let mut closed = Vec::new();
        slots.retain(|name, slot| {
            let keep = specs.iter().any(|spec| {
                spec.name == *name
                    && spec == slot.spec()
                    && slot.root() == root
                    && same_reach(slot.policy().as_ref(), policy)
            });
            if !keep {
                closed.push(slot.clone());
            }
            keep
        });
        let chosen = specs
            .iter()
            .map(|spec| {
                slots
                    .entry(spec.name.clone())
                    .or_insert_with(|| {
                        ServerSlot::with_setup(
                            spec.clone(),
                            root,
                            policy.cloned(),
                            setup.clone(),
                            START_TIMEOUT,
                        )
                    })
                    .clone()
            })
            .collect::<Vec<_>>();
        drop(slots);
        for slot in closed {
            slot.close().await;
        }
        if let Some(rules) = policy.map(|p| &p.network_rules) {
            for slot in &chosen {
                slot.follow_rules(rules).await;
            }
        }
        chosen
    }

    /// The servers started for `root` whose process runs now.
    pub async fn running_in(&self, root: &Path) -> Vec<String> {
        let slots: Vec<Arc<ServerSlot>> =
            self.slots.lock().await.values().filter(|slot| slot.root() == root).cloned().collect();
        let mut running = Vec::new();
        for slot in slots {
            if slot.pid().await.is_some() {
                running.push(slot.name().to_owned());
            }
        }
        running
    }

    /// Close the servers started for `root` (their process trees end); the next use starts them
    /// afresh.
    pub async fn stop_in(&self, root: &Path) {
        let stopped: Vec<Arc<ServerSlot>> = {
            let mut slots = self.slots.lock().await;
            let names: Vec<String> =
                slots.iter().filter(|(_, slot)| slot.root() == root).map(|(name, _)| name.clone()).collect();
            names.into_iter().filter_map(|name| slots.remove(&name)).collect()
        };
        futures::future::join_all(stopped.iter().map(|slot| slot.close())).await;
    }

    /// Drop the server `name`'s slot (closing it): the next use starts afresh.
    pub async fn forget(&self, name: &str) {
        let slot = self.slots.lock().await.remove(name);
        if let Some(slot) = slot {
            slot.close().await;
        }
    }

    /// Close every server (Warden is ending).
    pub async fn shutdown(&self) {
        let slots: Vec<_> = std::mem::take(&mut *self.slots.lock().await).into_values().collect();
        futures::future::join_all(slots.iter().map(|slot| slot.close())).await;
    }
}
