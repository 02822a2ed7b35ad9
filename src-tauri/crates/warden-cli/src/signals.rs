//! SIGINT (Ctrl-C), SIGTERM (`timeout`, CI, `kill`) and SIGHUP (the terminal closed) all mean the
//! same: stop the turn, kill every process it started, exit with 128 + the signal's number
//! ([`Exit::Interrupted`]).

use crate::exit::{Exit, Signal};

/// The three signals, listened to for the life of the value (no signal is missed between rounds).
pub struct Signals {
    #[cfg(unix)]
    listeners: Vec<(tokio::signal::unix::Signal, Signal)>,
}

impl Signals {
    pub fn listen() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let kinds = [
                (SignalKind::interrupt(), Signal::Interrupt, "SIGINT"),
                (SignalKind::terminate(), Signal::Terminate, "SIGTERM"),
                (SignalKind::hangup(), Signal::Hangup, "SIGHUP"),
            ];
            let listeners = kinds
                .into_iter()
                .filter_map(|(kind, which, name)| match signal(kind) {
                    Ok(listener) => Some((listener, which)),
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

    /// The next of the signals.
    pub async fn recv(&mut self) -> Signal {
        #[cfg(unix)]
        {
            if self.listeners.is_empty() {
                return std::future::pending().await;
            }
            let next = self.listeners.iter_mut().map(|(listener, which)| {
                let which = *which;
                Box::pin(async move {
                    match listener.recv().await {
                        Some(()) => which,
                        None => std::future::pending().await,
                    }
                })
            });
            futures_select_all(next).await
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            Signal::Interrupt
        }
    }
}

/// The first of a few futures to finish.
#[cfg(unix)]
async fn futures_select_all<F: std::future::Future<Output = Signal> + Unpin>(
    futures: impl Iterator<Item = F>,
) -> Signal {
    let mut futures: Vec<F> = futures.collect();
    std::future::poll_fn(move |cx| {
        for future in &mut futures {
            if let std::task::Poll::Ready(which) = std::pin::Pin::new(future).poll(cx) {
                return std::task::Poll::Ready(which);
            }
        }
        std::task::Poll::Pending
    })
    .await
}

/// A second signal while the first is being handled: kill every process Warden started and exit
/// now, with the status `signal` calls for.
pub fn exit_now(signal: Signal) -> ! {
    warden_core::process_guard::kill_all_descendants();
    std::process::exit(i32::from(Exit::Interrupted(signal).code()));
}
