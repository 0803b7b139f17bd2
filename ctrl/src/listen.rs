//! Serving: the P4Runtime service ([`crate::server`]) and gNMI
//! ([`crate::gnmi`]) on one port, plaintext or mTLS, on one or several
//! listeners, with the idle-timeout notifier running beside them.

use crate::gnmi::{GnmiConfig, GnmiService};
use crate::server::P4RuntimeService;

/// How [`serve_with`] serves.
#[derive(Clone, Default)]
pub struct ServeConfig {
    /// mTLS: without it, plaintext (every client is the operator).
    pub tls: Option<crate::auth::TlsConfig>,
}

/// HTTP/2 streams (RPCs in flight) one connection may have open.
pub const MAX_STREAMS_PER_CONNECTION: u32 = 64;

/// Serves `service` on `listener` (plaintext HTTP/2) until `shutdown`
/// completes, with gNMI ([`GnmiService`], default [`GnmiConfig`]) on the
/// same port.
pub async fn serve(
    service: P4RuntimeService,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), tonic::transport::Error> {
    serve_with(service, listener, ServeConfig::default(), shutdown).await
}

/// Serves `service` on `listener` as `config` says (mTLS or plaintext)
/// until `shutdown` completes, with gNMI on the same port. Each connection
/// may have [`MAX_STREAMS_PER_CONNECTION`] RPCs open at once.
pub async fn serve_with(
    service: P4RuntimeService,
    listener: tokio::net::TcpListener,
    config: ServeConfig,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), tonic::transport::Error> {
    serve_on(service, vec![listener], config, shutdown).await
}

/// [`serve_with`] on several listeners at once: one server (one idle-entry
/// notifier, one set of streams) taking connections from each.
pub async fn serve_on(
    service: P4RuntimeService,
    listeners: Vec<tokio::net::TcpListener>,
    config: ServeConfig,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), tonic::transport::Error> {
    use std::pin::Pin;
    use tokio_stream::{Stream, StreamExt};
    type Incoming = Pin<Box<dyn Stream<Item = std::io::Result<tokio::net::TcpStream>> + Send>>;
    let mut incoming: Incoming = Box::pin(tokio_stream::empty());
    for listener in listeners {
        let next: Incoming = Box::pin(tokio_stream::wrappers::TcpListenerStream::new(listener));
        incoming = Box::pin(incoming.merge(next));
    }
    let gnmi = GnmiService::new(service.switch_handle(), GnmiConfig::default());
    let mut builder = tonic::transport::Server::builder()
        .max_concurrent_streams(MAX_STREAMS_PER_CONNECTION)
        .concurrency_limit_per_connection(MAX_STREAMS_PER_CONNECTION as usize);
    if let Some(tls) = &config.tls {
        builder = builder.tls_config(tls.server_config())?;
    }
    let idle = service.idle_notifier();
    let server = builder
        .add_service(service.into_server())
        .add_service(gnmi.into_server())
        .serve_with_incoming_shutdown(incoming, shutdown);
    tokio::select! {
        result = server => result,
        never = idle => match never {},
    }
}
