//! SIGINT (Ctrl-C), SIGTERM (`timeout`, CI, `kill`) and SIGHUP (the terminal closed) all mean the
//! same: stop the turn, kill every process it started, exit with 128 + the signal's number.

/// The three signals, listened to for the life of the value (no signal is missed between rounds).
pub struct Signals {
    #[cfg(unix)]
    listeners: Vec<(tokio::signal::unix::Signal, u8)>,
}

impl Signals {
    pub fn listen() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let kinds = [
                (SignalKind::interrupt(), 130, "SIGINT"),
                (SignalKind::terminate(), 143, "SIGTERM"),
                (SignalKind::hangup(), 129, "SIGHUP"),
            ];
            let listeners = kinds
                .into_iter()
                .filter_map(|(kind, code, name)| match signal(kind) {
                    Ok(listener) => Some((listener, code)),
                    Err(error) => {
                        tracing::warn!(%error, "cannot listen for {name}");
                        None
                    }
                })
                .collect();
            Self { listeners }
        }
        #[cfg(not(unix))]
        Self {}
    }

    /// The next of the signals; the exit status it calls for (130, 143 or 129).
    pub async fn recv(&mut self) -> u8 {
        #[cfg(unix)]
        {
            if self.listeners.is_empty() {
                return std::future::pending().await;
            }
            let next = self.listeners.iter_mut().map(|(listener, code)| {
                let code = *code;
                Box::pin(async move {
                    match listener.recv().await {
                        Some(()) => code,
                        None => std::future::pending().await,
                    }
                })
            });
            futures_select_all(next).await
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            130
        }
    }
}

/// The first of a few futures to finish.
#[cfg(unix)]
async fn futures_select_all<F: std::future::Future<Output = u8> + Unpin>(
    futures: impl Iterator<Item = F>,
) -> u8 {
    let mut futures: Vec<F> = futures.collect();
    std::future::poll_fn(move |cx| {
        for future in &mut futures {
            if let std::task::Poll::Ready(code) = std::pin::Pin::new(future).poll(cx) {
                return std::task::Poll::Ready(code);
            }
        }
        std::task::Poll::Pending
    })
    .await
}

/// A second signal while the first is being handled: kill every process Warden started and exit
/// now.
pub fn exit_now(code: u8) -> ! {
    warden_core::process_guard::kill_all_descendants();
    std::process::exit(i32::from(code));
}
