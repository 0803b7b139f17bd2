//! The runtime's in-process P4Runtime channel: the same service the
//! management address serves, reached over in-memory connections. The
//! firmware's own clients (the tenants bootstrap, the slow-path agent, the
//! health check) use it: a connection without TLS is the operator's, and
//! only code in this process can open one, so the management address can
//! require mTLS without the firmware holding an operator certificate.

use hyper_util::rt::TokioIo;
use janus_ctrl::server::P4RuntimeService;
use tokio::io::DuplexStream;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::{Channel, Endpoint, Uri};

/// Bytes buffered each way on an in-memory connection.
const PIPE_BYTES: usize = 1 << 16;

/// The service served over in-memory connections.
pub struct LocalPlane {
    connect: mpsc::Sender<DuplexStream>,
    server: JoinHandle<()>,
}

impl LocalPlane {
    /// Serves `service` (spawned on the current tokio runtime).
    pub fn serve(service: P4RuntimeService) -> LocalPlane {
        let (connect, incoming) = mpsc::channel::<DuplexStream>(4);
        let incoming = ReceiverStream::new(incoming).map(Ok::<_, std::io::Error>);
        let server = tokio::spawn(async move {
            let served = tonic::transport::Server::builder()
                .add_service(service.into_server())
                .serve_with_incoming(incoming)
                .await;
            if let Err(e) = served {
                tracing::error!("the in-process control plane stopped: {e}");
            }
        });
        LocalPlane { connect, server }
    }

    /// A new channel to the service.
    pub async fn channel(&self) -> Result<Channel, tonic::transport::Error> {
        let connect = self.connect.clone();
        Endpoint::from_static("http://janus-nic.local")
            .connect_with_connector(tower::service_fn(move |_: Uri| {
                let connect = connect.clone();
                async move {
                    let (client, server) = tokio::io::duplex(PIPE_BYTES);
                    connect.send(server).await.map_err(|_| {
                        std::io::Error::other("the in-process control plane is stopped")
                    })?;
                    Ok::<_, std::io::Error>(TokioIo::new(client))
                }
            }))
            .await
    }
}

impl Drop for LocalPlane {
    fn drop(&mut self) {
        self.server.abort();
    }
}
