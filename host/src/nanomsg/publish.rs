//! The listening side of the scalability protocols' pub v0: what
//! `nn_socket(AF_SP, NN_PUB)` + `nn_bind` gives bmv2's event logger, over
//! IPC and TCP, for any number of subscribers (nanomsg's `NN_SUB`, nng's
//! `Sub0`).
//!
//! The handshake and the framing are the PAIR socket's (see the parent
//! module): each side sends its 8-byte header, ours with protocol id
//! [`PUB_V0`] (`0x0020`); a peer whose header does not say [`SUB_V0`]
//! (`0x0021`) is dropped. Pub v0 adds no header to a message, and
//! subscriptions are filtered by the subscriber (a nanomsg or nng SUB sends
//! nothing after its header), so every message goes to every subscriber.
//!
//! [`PubSocket::send`] never blocks its caller on a subscriber: each
//! subscriber has a byte queue of at most [`QUEUE_BYTES`] (framed
//! messages, whole or not at all) that a thread of its own writes to its
//! connection; a message that does not fit in a subscriber's queue is
//! dropped for that subscriber (as nanomsg drops it for a subscriber that
//! does not keep up), and without subscribers a message goes nowhere. The
//! queue and the writer's buffer are swapped, never freed, so once they
//! have grown a send allocates nothing. A subscriber that closes its
//! connection (or whose connection fails) is removed within
//! [`IDLE_CHECK`] or at the next write; bytes it sends are read and
//! dropped. No peer input panics: a bad header is logged and the
//! connection closed.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::{
    Endpoint, NnError, Stream, Transport, accept_loop, bind_listener, frame_header, handshake,
};
use crate::sys::poll::{PollFd, wait};

/// The SP protocol id of pub v0 (protocol 2, role 0), sent by this socket.
pub const PUB_V0: u16 = 0x0020;

/// The SP protocol id of sub v0 (protocol 2, role 1), the only peer taken.
pub const SUB_V0: u16 = 0x0021;

/// The framed bytes queued for one subscriber at most.
pub const QUEUE_BYTES: usize = 256 * 1024;

/// Subscribers connected at most (a connection beyond them is closed).
pub const MAX_SUBSCRIBERS: usize = 64;

/// The longest message sent.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// How often an idle writer looks whether its subscriber went away.
pub const IDLE_CHECK: Duration = Duration::from_millis(100);

/// One subscriber: its queue and the connection's control half.
struct Subscriber {
    id: u64,
    name: String,
    queue: Mutex<Queue>,
    wake: Condvar,
    /// A handle on the connection, to shut it down (which ends a write
    /// blocked on it).
    control: Stream,
}

struct Queue {
    /// Framed messages waiting for the writer.
    bytes: Vec<u8>,
    /// Set when the subscriber is gone or the socket closed.
    dead: bool,
}

impl Subscriber {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn kill(&self) {
        self.queue().dead = true;
        self.wake.notify_all();
        self.control.shutdown();
    }
}

struct Shared {
    transport: Transport,
    closed: AtomicBool,
    subscribers: Mutex<Vec<Arc<Subscriber>>>,
    next_id: AtomicU64,
    /// Messages dropped for a subscriber whose queue was full.
    dropped: AtomicU64,
}

impl Shared {
    fn subscribers(&self) -> MutexGuard<'_, Vec<Arc<Subscriber>>> {
        self.subscribers.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn remove(&self, id: u64) {
        self.subscribers().retain(|s| s.id != id);
    }
}

/// A listening nanomsg PUB socket (see the module documentation).
pub struct PubSocket {
    endpoint: Endpoint,
    shared: Arc<Shared>,
    acceptor: Option<JoinHandle<()>>,
    /// The IPC socket file to remove when closed.
    ipc_path: Option<PathBuf>,
}

impl PubSocket {
    /// Binds `endpoint` as [`super::PairSocket::bind`] does (a stale IPC
    /// socket file is replaced, any other file refused).
    pub fn bind(endpoint: &Endpoint) -> Result<PubSocket, NnError> {
        let (listener, endpoint, ipc_path) = bind_listener(endpoint)?;
        let shared = Arc::new(Shared {
            transport: endpoint.transport(),
            closed: AtomicBool::new(false),
            subscribers: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
            dropped: AtomicU64::new(0),
        });
        let spawned = {
            let shared = Arc::clone(&shared);
            let endpoint = endpoint.clone();
            thread::Builder::new()
                .name("janus-nn-pub".into())
                .spawn(move || {
                    let closed = || shared.closed.load(Ordering::SeqCst);
                    accept_loop(&listener, &endpoint, closed, |stream, name| {
                        let shared = Arc::clone(&shared);
                        thread::Builder::new()
                            .name("janus-nn-sub".into())
                            .spawn(move || serve_subscriber(stream, name, shared))
                            .map(drop)
                    })
                })
        };
        let acceptor = match spawned {
            Ok(a) => a,
            Err(source) => {
                if let Some(path) = &ipc_path {
                    let _ = std::fs::remove_file(path);
                }
                return Err(NnError::Bind {
                    endpoint: endpoint.to_string(),
                    source,
                });
            }
        };
        Ok(PubSocket {
            endpoint,
            shared,
            acceptor: Some(acceptor),
            ipc_path,
        })
    }

    /// Where it listens (with the port chosen when `tcp://...:0` was given).
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The subscribers connected now.
    pub fn subscribers(&self) -> usize {
        self.shared.subscribers().len()
    }

    /// Messages dropped so far for a subscriber that did not keep up (one
    /// per message and subscriber).
    pub fn dropped(&self) -> u64 {
        self.shared.dropped.load(Ordering::Relaxed)
    }

    /// Queues `msg` for every subscriber without waiting for any; returns
    /// how many took it (the others' queues were full: dropped for them).
    /// [`NnError::TooLarge`] above [`MAX_MESSAGE`] bytes (nothing sent).
    pub fn send(&self, msg: &[u8]) -> Result<usize, NnError> {
        if msg.len() > MAX_MESSAGE {
            return Err(NnError::TooLarge {
                len: msg.len() as u64,
                max: MAX_MESSAGE,
            });
        }
        let (head, n) = frame_header(self.shared.transport, msg.len());
        let mut took = 0;
        for sub in self.shared.subscribers().iter() {
            let mut q = sub.queue();
            if q.dead {
                continue;
            }
            if q.bytes.len() + n + msg.len() > QUEUE_BYTES {
                self.shared.dropped.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            q.bytes.extend_from_slice(&head[..n]);
            q.bytes.extend_from_slice(msg);
            drop(q);
            sub.wake.notify_one();
            took += 1;
        }
        Ok(took)
    }
}

impl Drop for PubSocket {
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::SeqCst);
        for sub in self.shared.subscribers().drain(..) {
            sub.kill();
        }
        if let Some(a) = self.acceptor.take() {
            let _ = a.join();
        }
        if let Some(path) = &self.ipc_path {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// One connection: the handshake, then its writer until it goes away.
fn serve_subscriber(mut stream: Stream, name: String, shared: Arc<Shared>) {
    let handshook = match handshake(&mut stream, PUB_V0) {
        Ok(SUB_V0) => Ok(()),
        Ok(other) => Err(NnError::NotSubscriber(other)),
        Err(e) => Err(e),
    };
    if let Err(e) = handshook {
        tracing::warn!(peer = %name, "nanomsg pub: connection refused: {e}");
        stream.shutdown();
        return;
    }
    // Reads only look whether the peer went away (after a poll).
    let control = match stream
        .set_timeouts(Some(Duration::from_millis(1)), None)
        .and_then(|_| stream.try_clone())
    {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(peer = %name, "nanomsg pub: {e}");
            stream.shutdown();
            return;
        }
    };
    let sub = Arc::new(Subscriber {
        id: shared.next_id.fetch_add(1, Ordering::Relaxed),
        name,
        queue: Mutex::new(Queue {
            bytes: Vec::new(),
            dead: false,
        }),
        wake: Condvar::new(),
        control,
    });
    {
        let mut subs = shared.subscribers();
        if shared.closed.load(Ordering::SeqCst) {
            stream.shutdown();
            return;
        }
        if subs.len() >= MAX_SUBSCRIBERS {
            tracing::warn!(peer = %sub.name, "nanomsg pub: {MAX_SUBSCRIBERS} subscribers already: refused");
            stream.shutdown();
            return;
        }
        subs.push(Arc::clone(&sub));
    }
    tracing::info!(peer = %sub.name, "nanomsg pub: subscriber connected");
    let why = write_until_gone(&mut stream, &sub);
    sub.kill();
    shared.remove(sub.id);
    match why {
        None => tracing::info!(peer = %sub.name, "nanomsg pub: subscriber gone"),
        Some(e) => tracing::info!(peer = %sub.name, "nanomsg pub: subscriber dropped: {e}"),
    }
}

/// Writes what is queued for `sub` until it goes away (`None`: it closed
/// or the socket did) or a write fails.
fn write_until_gone(stream: &mut Stream, sub: &Subscriber) -> Option<io::Error> {
    let mut out = Vec::new();
    loop {
        {
            let mut q = sub.queue();
            if q.bytes.is_empty() && !q.dead {
                q = sub
                    .wake
                    .wait_timeout(q, IDLE_CHECK)
                    .map(|(q, _)| q)
                    .unwrap_or_else(|p| p.into_inner().0);
            }
            if q.dead {
                return None;
            }
            std::mem::swap(&mut q.bytes, &mut out);
        }
        if out.is_empty() {
            if !still_there(stream) {
                return None;
            }
            continue;
        }
        if let Err(e) = stream.write_all(&out).and_then(|_| stream.flush()) {
            return Some(e);
        }
        out.clear();
    }
}

/// Whether the peer is still connected: what it sent is read and
/// dropped; end of stream or an error means gone.
fn still_there(stream: &mut Stream) -> bool {
    let mut fds = [PollFd::readable(stream.raw_fd())];
    match wait(&mut fds, Duration::ZERO) {
        Ok(0) => return true,
        Ok(_) => {}
        Err(_) => return true,
    }
    let mut junk = [0u8; 256];
    match stream.read(&mut junk) {
        Ok(0) => false,
        Ok(_) => true,
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
            ) =>
        {
            true
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{PAIR_V0, protocol_header};
    use super::*;
    use std::net::TcpStream;
    use std::os::unix::net::UnixStream;
    use std::time::Instant;

    /// A SUB peer written by hand: connects, handshakes as `protocol`
    /// and checks the socket's header.
    enum Client {
        Tcp(TcpStream),
        Unix(UnixStream),
    }

    impl Client {
        fn dial(endpoint: &Endpoint, protocol: u16) -> Client {
            let mut c = match endpoint {
                Endpoint::Tcp(a) => {
                    let s = TcpStream::connect(a).unwrap();
                    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                    Client::Tcp(s)
                }
                Endpoint::Ipc(p) => {
                    let s = UnixStream::connect(p).unwrap();
                    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                    Client::Unix(s)
                }
            };
            let mut header = [0, b'S', b'P', 0, 0, 0, 0, 0];
            header[4..6].copy_from_slice(&protocol.to_be_bytes());
            c.io().write_all(&header).unwrap();
            let mut theirs = [0u8; 8];
            c.io().read_exact(&mut theirs).unwrap();
            assert_eq!(theirs, [0x00, 0x53, 0x50, 0x00, 0x00, 0x20, 0x00, 0x00]);
            c
        }

        fn set_read_timeout(&self, t: Duration) {
            match self {
                Client::Tcp(s) => s.set_read_timeout(Some(t)).unwrap(),
                Client::Unix(s) => s.set_read_timeout(Some(t)).unwrap(),
            }
        }

        fn io(&mut self) -> &mut dyn ReadWrite {
            match self {
                Client::Tcp(s) => s,
                Client::Unix(s) => s,
            }
        }

        /// One message, unframed by hand: over IPC a type byte 1, then a
        /// 64-bit big-endian size and the payload.
        fn recv(&mut self) -> io::Result<Vec<u8>> {
            let ipc = matches!(self, Client::Unix(_));
            if ipc {
                let mut kind = [0u8; 1];
                self.io().read_exact(&mut kind)?;
                assert_eq!(kind[0], 1, "an in-band IPC message");
            }
            let mut size = [0u8; 8];
            self.io().read_exact(&mut size)?;
            let mut msg = vec![0u8; u64::from_be_bytes(size) as usize];
            self.io().read_exact(&mut msg)?;
            Ok(msg)
        }
    }

    trait ReadWrite: Read + Write {}
    impl<T: Read + Write> ReadWrite for T {}

    fn until(what: &str, mut ok: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while !ok() {
            assert!(Instant::now() < deadline, "{what} within 5 s");
            thread::sleep(Duration::from_millis(10));
        }
    }

    fn every_subscriber_gets_every_message(endpoint: Endpoint) {
        let socket = PubSocket::bind(&endpoint).unwrap();
        let endpoint = socket.endpoint().clone();
        // Nobody listens: the message goes nowhere.
        assert_eq!(socket.send(b"lost").unwrap(), 0);
        let mut a = Client::dial(&endpoint, SUB_V0);
        let mut b = Client::dial(&endpoint, SUB_V0);
        until("two subscribers", || socket.subscribers() == 2);
        assert_eq!(socket.send(b"one").unwrap(), 2);
        assert_eq!(socket.send(b"").unwrap(), 2);
        assert_eq!(socket.send(&[7; 300]).unwrap(), 2);
        for c in [&mut a, &mut b] {
            assert_eq!(c.recv().unwrap(), b"one");
            assert_eq!(c.recv().unwrap(), b"");
            assert_eq!(c.recv().unwrap(), vec![7; 300]);
        }
        assert!(matches!(
            socket.send(&vec![0; MAX_MESSAGE + 1]),
            Err(NnError::TooLarge { .. })
        ));
        // One goes away: removed; the other still gets messages.
        drop(a);
        until("the closed subscriber removed", || {
            socket.subscribers() == 1
        });
        assert_eq!(socket.send(b"two").unwrap(), 1);
        assert_eq!(b.recv().unwrap(), b"two");
        // Closing the socket closes the connection.
        drop(socket);
        assert!(b.recv().is_err());
    }

    #[test]
    fn a_pub_socket_serves_subscribers_over_tcp() {
        every_subscriber_gets_every_message(Endpoint::parse("tcp://127.0.0.1:0").unwrap());
    }

    #[test]
    fn a_pub_socket_serves_subscribers_over_ipc() {
        let dir = std::env::temp_dir().join(format!("janus-nnpub-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pub.ipc");
        every_subscriber_gets_every_message(Endpoint::Ipc(path.clone()));
        assert!(!path.exists(), "the socket file is removed when closed");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_subscriber_that_does_not_read_blocks_nothing() {
        // Over IPC: a Unix socket's buffers are small and fixed (loopback
        // TCP's grow to megabytes).
        let dir = std::env::temp_dir().join(format!("janus-nnstall-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let socket = PubSocket::bind(&Endpoint::Ipc(dir.join("pub.ipc"))).unwrap();
        let endpoint = socket.endpoint().clone();
        let _stalled = Client::dial(&endpoint, SUB_V0);
        let mut reader = Client::dial(&endpoint, SUB_V0);
        until("two subscribers", || socket.subscribers() == 2);
        // Far more than the stalled one's queue and socket buffers hold.
        let (count, size) = (10_000u32, 1000);
        let mut msg = vec![0u8; size];
        // The last messages may be dropped for it too: a quiet second ends.
        reader.set_read_timeout(Duration::from_secs(1));
        let received = thread::spawn(move || {
            let mut last = None;
            let mut got = 0u32;
            while let Ok(m) = reader.recv() {
                assert_eq!(m.len(), size, "whole messages only");
                let seq = u32::from_le_bytes(m[..4].try_into().unwrap());
                assert!(last.is_none_or(|l| seq > l), "in order");
                last = Some(seq);
                got += 1;
                if seq == count - 1 {
                    break;
                }
            }
            got
        });
        let start = Instant::now();
        for seq in 0..count {
            msg[..4].copy_from_slice(&seq.to_le_bytes());
            socket.send(&msg).unwrap();
            if seq % 1000 == 999 {
                // Let the reading subscriber keep up.
                thread::sleep(Duration::from_millis(2));
            }
        }
        let took = start.elapsed();
        assert!(
            took < Duration::from_secs(10),
            "{count} sends took {took:?}"
        );
        assert!(socket.dropped() > 0, "the stalled subscriber lost messages");
        let got = received.join().unwrap();
        assert!(got > 0, "the reading subscriber got messages");
        assert_eq!(socket.subscribers(), 2, "a slow subscriber is not dropped");
        drop(socket);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_peer_of_another_protocol_is_dropped() {
        let socket = PubSocket::bind(&Endpoint::parse("tcp://127.0.0.1:0").unwrap()).unwrap();
        let Endpoint::Tcp(addr) = socket.endpoint().clone() else {
            unreachable!()
        };
        for header in [protocol_header(PAIR_V0), *b"GET / HT"] {
            let mut s = TcpStream::connect(addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            s.write_all(&header).unwrap();
            // The socket's header, then the connection is closed.
            let mut theirs = [0u8; 8];
            s.read_exact(&mut theirs).unwrap();
            assert_eq!(theirs, protocol_header(PUB_V0));
            let mut rest = Vec::new();
            let n = s.read_to_end(&mut rest).unwrap_or(0);
            assert_eq!(n, 0, "closed without a message");
        }
        assert_eq!(socket.subscribers(), 0);
        // A subscriber is still taken.
        let _ok = Client::dial(socket.endpoint(), SUB_V0);
        until("the subscriber", || socket.subscribers() == 1);
        assert_eq!(socket.send(b"x").unwrap(), 1);
    }
}
