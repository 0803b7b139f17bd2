//! A nanomsg PAIR endpoint in pure Rust: the listening side of the
//! scalability protocols' pair v0 (what `nn_socket(AF_SP, NN_PAIR)` +
//! `nn_bind` gives bmv2, and what nng's `Pair0` in PTF dials), over IPC
//! (`ipc://PATH`, a Unix stream socket) and TCP (`tcp://HOST:PORT`).
//!
//! The wire format (nanomsg's `rfc/sp-tcp-mapping-01.txt` and
//! `rfc/sp-ipc-mapping-01.txt`, as nanomsg's `src/transports/ipc/sipc.c`
//! and nng's `src/sp/transport/ipc/ipc.c` implement them):
//!
//! - on connection, each side sends an 8-byte header `00 53 50 00`
//!   (`\0SP` and version 0), the 16-bit protocol id in network order
//!   (pair v0 is protocol 1, role 0: `0x0010`), and two zero bytes; a
//!   header that differs, or a peer of another protocol, closes the
//!   connection;
//! - then every message is, over TCP, its size as a 64-bit unsigned
//!   integer in network order followed by the payload; over IPC, a
//!   one-byte message type first (`1`, in-band: the value both
//!   implementations send and require; the draft RFC's text says zero)
//!   and then the same size and payload. Pair v0 adds no header of its own.
//!
//! A pair has one peer at a time: a second connection while one is up is
//! refused after its handshake (nanomsg and nng do the same; nng's dialer
//! then retries). Messages are bounded ([`PairSocket::bind`]'s
//! `max_message`); an oversized message, a bad header or a bad message
//! type is an error that closes that connection, never a panic. Received
//! messages and connection events arrive on a bounded queue
//! ([`PairSocket::recv_timeout`]), so a flooding peer is slowed down, not
//! buffered without end. A message sent while no peer is connected is
//! refused ([`NnError::NoPeer`]) rather than queued.
//!
//! [`packet`] carries bmv2's packet-in device protocol on top (what
//! `simple_switch --packet-in ADDR` speaks with PTF's `nn` platform).
//! [`publish`] is the listening side of pub v0 (`NN_PUB`, for many
//! subscribers, never blocking its sender), and [`event_log`] bmv2's
//! nanomsg event logger on it (`simple_switch --nanolog ADDR`).

pub mod event_log;
pub mod packet;
pub mod publish;

use std::fmt;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crate::sys::poll::{PollFd, wait};

/// The SP protocol id of pair v0 (protocol 1, role 0), sent by both ends.
pub const PAIR_V0: u16 = 0x0010;

/// How long a peer has to send its protocol header (nng allows 10 s).
const HANDSHAKE: Duration = Duration::from_secs(10);

/// How long one send may block on a peer that does not read before the
/// peer is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(2);

/// How often the accepting thread looks whether the socket was closed.
const ACCEPT_POLL: Duration = Duration::from_millis(100);

/// Events queued for the owner at most (then the peer's reader waits).
const QUEUE: usize = 1024;

/// The longest `sun_path` (108 bytes with its terminating NUL).
const SUN_PATH_MAX: usize = 107;

/// The IPC message type of an in-band message.
const IPC_IN_BAND: u8 = 1;

/// Where a PAIR socket listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `ipc://PATH`: a Unix stream socket at PATH.
    Ipc(PathBuf),
    /// `tcp://HOST:PORT` (`*` for every address).
    Tcp(SocketAddr),
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Ipc(p) => write!(f, "ipc://{}", p.display()),
            Endpoint::Tcp(a) => write!(f, "tcp://{a}"),
        }
    }
}

impl Endpoint {
    /// Parses a nanomsg address for binding: `ipc://PATH` or
    /// `tcp://HOST:PORT`, HOST an IP address (`[...]` for IPv6), `*` (every
    /// address) or a host name.
    pub fn parse(addr: &str) -> Result<Endpoint, NnError> {
        let bad = |why: &str| NnError::Address {
            addr: addr.to_string(),
            why: why.to_string(),
        };
        if let Some(path) = addr.strip_prefix("ipc://") {
            if path.is_empty() {
                return Err(bad("no path after ipc://"));
            }
            if path.len() > SUN_PATH_MAX {
                return Err(bad(&format!(
                    "the path is {} bytes; a Unix socket path takes at most {SUN_PATH_MAX}",
                    path.len()
                )));
            }
            if path.contains('\0') {
                return Err(bad("the path holds a NUL byte"));
            }
            return Ok(Endpoint::Ipc(PathBuf::from(path)));
        }
        let Some(rest) = addr.strip_prefix("tcp://") else {
            return Err(bad(
                "expected ipc://PATH or tcp://HOST:PORT (nanomsg's other transports are not supported)",
            ));
        };
        if rest.contains(';') {
            return Err(bad(
                "`IFACE;ADDR` names a local interface for connecting; to listen, give HOST:PORT",
            ));
        }
        let (host, port) = rest
            .rsplit_once(':')
            .ok_or_else(|| bad("expected tcp://HOST:PORT"))?;
        let port: u16 = port
            .parse()
            .map_err(|_| bad(&format!("`{port}` is not a port number")))?;
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host == "*" {
            return Ok(Endpoint::Tcp(SocketAddr::from(([0, 0, 0, 0], port))));
        }
        if host.is_empty() {
            return Err(bad("no host before the port (use * for every address)"));
        }
        if let Ok(ip) = host.parse::<std::net::IpAddr>() {
            return Ok(Endpoint::Tcp(SocketAddr::new(ip, port)));
        }
        let mut found = (host, port).to_socket_addrs().map_err(|e| {
            bad(&format!(
                "cannot resolve `{host}` ({e}); give an IP address, * or a host name"
            ))
        })?;
        found
            .next()
            .map(Endpoint::Tcp)
            .ok_or_else(|| bad(&format!("`{host}` has no address")))
    }

    fn transport(&self) -> Transport {
        match self {
            Endpoint::Ipc(_) => Transport::Ipc,
            Endpoint::Tcp(_) => Transport::Tcp,
        }
    }
}

/// The two stream mappings: their message framing differs by one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Ipc,
    Tcp,
}

/// What goes wrong with a PAIR socket or a connection to it.
#[derive(Debug, thiserror::Error)]
pub enum NnError {
    #[error("`{addr}`: {why}")]
    Address { addr: String, why: String },
    #[error("cannot listen on {endpoint}: {source}")]
    Bind {
        endpoint: String,
        #[source]
        source: io::Error,
    },
    #[error(
        "not a scalability-protocols peer: its header is {0:02x?} (expected 00 53 50 00, a protocol id, 00 00)"
    )]
    BadHeader([u8; 8]),
    #[error("the peer speaks SP protocol {0:#06x}, not pair v0 ({PAIR_V0:#06x})")]
    WrongProtocol(u16),
    #[error("the peer speaks SP protocol {0:#06x}, not sub v0 (0x0021), the only peer of pub")]
    NotSubscriber(u16),
    #[error("IPC message type {0}: only 1 (an in-band message) is defined")]
    BadMessageType(u8),
    #[error("a message of {len} bytes exceeds the limit of {max} bytes")]
    TooLarge { len: u64, max: usize },
    #[error("the peer closed the connection in the middle of a message")]
    Truncated,
    #[error("no peer is connected")]
    NoPeer,
    #[error("a peer is already connected (a pair has one peer at a time)")]
    Busy,
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// The 8-byte protocol header for protocol id `protocol`.
pub fn protocol_header(protocol: u16) -> [u8; 8] {
    let p = protocol.to_be_bytes();
    [0, b'S', b'P', 0, p[0], p[1], 0, 0]
}

/// Checks a peer's protocol header; returns its protocol id.
pub fn check_header(header: &[u8; 8]) -> Result<u16, NnError> {
    if header[..4] != [0, b'S', b'P', 0] || header[6..] != [0, 0] {
        return Err(NnError::BadHeader(*header));
    }
    Ok(u16::from_be_bytes([header[4], header[5]]))
}

/// The framing before a message of `len` bytes over `transport`: the
/// bytes and how many of them (9 over IPC, 8 over TCP).
pub fn frame_header(transport: Transport, len: usize) -> ([u8; 9], usize) {
    let mut head = [0u8; 9];
    let size = (len as u64).to_be_bytes();
    match transport {
        Transport::Ipc => {
            head[0] = IPC_IN_BAND;
            head[1..].copy_from_slice(&size);
            (head, 9)
        }
        Transport::Tcp => {
            head[..8].copy_from_slice(&size);
            (head, 8)
        }
    }
}

/// Writes `msg` framed for `transport`, in one write where it can.
pub fn write_message(w: &mut impl Write, transport: Transport, msg: &[u8]) -> io::Result<()> {
    let (head, n) = frame_header(transport, msg.len());
    let mut buf = Vec::with_capacity(n + msg.len());
    buf.extend_from_slice(&head[..n]);
    buf.extend_from_slice(msg);
    w.write_all(&buf)?;
    w.flush()
}

/// Fills `buf`; `Ok(false)` when the stream ended before its first byte.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> Result<bool, NnError> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) if got == 0 => return Ok(false),
            Ok(0) => return Err(NnError::Truncated),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(NnError::Io(e)),
        }
    }
    Ok(true)
}

/// Reads one message framed for `transport`, at most `max` bytes;
/// `Ok(None)` when the peer closed the connection between messages.
pub fn read_message(
    r: &mut impl Read,
    transport: Transport,
    max: usize,
) -> Result<Option<Vec<u8>>, NnError> {
    let mut head = [0u8; 9];
    let head = match transport {
        Transport::Ipc => &mut head[..],
        Transport::Tcp => &mut head[1..],
    };
    if !read_full(r, head)? {
        return Ok(None);
    }
    let size = if transport == Transport::Ipc {
        if head[0] != IPC_IN_BAND {
            return Err(NnError::BadMessageType(head[0]));
        }
        &head[1..]
    } else {
        &head[..]
    };
    let len = u64::from_be_bytes(size.try_into().expect("8 bytes"));
    if len > max as u64 {
        return Err(NnError::TooLarge { len, max });
    }
    let mut msg = vec![0u8; len as usize];
    if len > 0 && !read_full(r, &mut msg)? {
        return Err(NnError::Truncated);
    }
    Ok(Some(msg))
}

/// A connection, over either transport.
enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Stream {
    fn try_clone(&self) -> io::Result<Stream> {
        Ok(match self {
            Stream::Tcp(s) => Stream::Tcp(s.try_clone()?),
            Stream::Unix(s) => Stream::Unix(s.try_clone()?),
        })
    }

    fn set_timeouts(&self, read: Option<Duration>, write: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => {
                s.set_read_timeout(read)?;
                s.set_write_timeout(write)
            }
            Stream::Unix(s) => {
                s.set_read_timeout(read)?;
                s.set_write_timeout(write)
            }
        }
    }

    fn raw_fd(&self) -> std::os::fd::RawFd {
        match self {
            Stream::Tcp(s) => s.as_raw_fd(),
            Stream::Unix(s) => s.as_raw_fd(),
        }
    }

    fn shutdown(&self) {
        let _ = match self {
            Stream::Tcp(s) => s.shutdown(Shutdown::Both),
            Stream::Unix(s) => s.shutdown(Shutdown::Both),
        };
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Unix(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.flush(),
            Stream::Unix(s) => s.flush(),
        }
    }
}

enum Listener {
    Tcp(TcpListener),
    Unix(UnixListener),
}

impl Listener {
    fn raw_fd(&self) -> std::os::fd::RawFd {
        match self {
            Listener::Tcp(l) => l.as_raw_fd(),
            Listener::Unix(l) => l.as_raw_fd(),
        }
    }

    /// The next connection and a name for it (`None` when none is waiting).
    fn accept(&self, endpoint: &Endpoint) -> io::Result<Option<(Stream, String)>> {
        let got = match self {
            Listener::Tcp(l) => l.accept().map(|(s, a)| {
                (
                    s.set_nonblocking(false).map(|_| Stream::Tcp(s)),
                    a.to_string(),
                )
            }),
            Listener::Unix(l) => l.accept().map(|(s, _)| {
                (
                    s.set_nonblocking(false).map(|_| Stream::Unix(s)),
                    format!("a peer on {endpoint}"),
                )
            }),
        };
        match got {
            Ok((stream, name)) => Ok(Some((stream?, name))),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(None),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// What a PAIR socket reports.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// A peer completed its handshake and is the pair's peer.
    Connected { peer: String },
    /// A message from the peer.
    Message(Vec<u8>),
    /// The peer went away: closed (`why` is None) or refused by an error.
    Disconnected { peer: String, why: Option<String> },
    /// A connection that was not taken (bad handshake, another protocol,
    /// a peer already connected).
    Refused { peer: String, why: String },
}

/// The connected peer's sending half.
struct Peer {
    id: u64,
    name: String,
    writer: Stream,
}

struct Shared {
    transport: Transport,
    max_message: usize,
    closed: AtomicBool,
    peer: Mutex<Option<Peer>>,
    next_id: AtomicU64,
}

impl Shared {
    fn peer(&self) -> MutexGuard<'_, Option<Peer>> {
        self.peer.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A listening nanomsg PAIR socket (see the module documentation).
pub struct PairSocket {
    endpoint: Endpoint,
    shared: Arc<Shared>,
    events: mpsc::Receiver<Event>,
    acceptor: Option<JoinHandle<()>>,
    /// The IPC socket file to remove when closed.
    ipc_path: Option<PathBuf>,
}

impl PairSocket {
    /// Binds `endpoint` (a stale IPC socket file that no process listens
    /// on is replaced, as nanomsg does; any other existing file is left
    /// alone and refused). Messages longer than `max_message` bytes close
    /// the connection that sent them and are never sent.
    pub fn bind(endpoint: &Endpoint, max_message: usize) -> Result<PairSocket, NnError> {
        let (listener, endpoint, ipc_path) = bind_listener(endpoint)?;
        let shared = Arc::new(Shared {
            transport: endpoint.transport(),
            max_message,
            closed: AtomicBool::new(false),
            peer: Mutex::new(None),
            next_id: AtomicU64::new(1),
        });
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let endpoint_name = endpoint.to_string();
        let acceptor = {
            let shared = Arc::clone(&shared);
            let endpoint = endpoint.clone();
            thread::Builder::new()
                .name("janus-nn-accept".into())
                .spawn(move || {
                    let closed = || shared.closed.load(Ordering::SeqCst);
                    accept_loop(&listener, &endpoint, closed, |stream, name| {
                        let shared = Arc::clone(&shared);
                        let events = tx.clone();
                        thread::Builder::new()
                            .name("janus-nn-peer".into())
                            .spawn(move || serve_peer(stream, name, shared, events))
                            .map(drop)
                    })
                })
                .map_err(|source| NnError::Bind {
                    endpoint: endpoint_name.clone(),
                    source,
                })?
        };
        Ok(PairSocket {
            endpoint,
            shared,
            events: rx,
            acceptor: Some(acceptor),
            ipc_path,
        })
    }

    /// Where it listens (with the port chosen when `tcp://...:0` was given).
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The largest message sent or received.
    pub fn max_message(&self) -> usize {
        self.shared.max_message
    }

    /// The next event, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        self.events.recv_timeout(timeout).ok()
    }

    /// The next event if one is waiting.
    pub fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    /// The connected peer's name, if one is connected.
    pub fn peer(&self) -> Option<String> {
        self.shared.peer().as_ref().map(|p| p.name.clone())
    }

    /// Sends `msg` to the peer. [`NnError::NoPeer`] without one,
    /// [`NnError::TooLarge`] above the limit (nothing sent); a failed or
    /// timed-out write drops the peer and is returned.
    pub fn send(&self, msg: &[u8]) -> Result<(), NnError> {
        if msg.len() > self.shared.max_message {
            return Err(NnError::TooLarge {
                len: msg.len() as u64,
                max: self.shared.max_message,
            });
        }
        let mut peer = self.shared.peer();
        let Some(p) = peer.as_mut() else {
            return Err(NnError::NoPeer);
        };
        match write_message(&mut p.writer, self.shared.transport, msg) {
            Ok(()) => Ok(()),
            Err(e) => {
                p.writer.shutdown();
                *peer = None;
                Err(NnError::Io(e))
            }
        }
    }
}

impl Drop for PairSocket {
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::SeqCst);
        if let Some(p) = self.shared.peer().take() {
            p.writer.shutdown();
        }
        if let Some(a) = self.acceptor.take() {
            let _ = a.join();
        }
        if let Some(path) = &self.ipc_path {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Binds a Unix socket at `path`, replacing a stale socket file.
fn bind_ipc(path: &std::path::Path) -> io::Result<UnixListener> {
    match UnixListener::bind(path) {
        Err(e) if e.kind() == io::ErrorKind::AddrInUse => {}
        other => return other,
    }
    if UnixStream::connect(path).is_ok() {
        return Err(io::Error::new(
            io::ErrorKind::AddrInUse,
            "another process listens on this socket",
        ));
    }
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.file_type().is_socket() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "the path exists and is not a socket",
        ));
    }
    std::fs::remove_file(path)?;
    UnixListener::bind(path)
}

/// Binds `endpoint` as nanomsg does (see [`PairSocket::bind`]): the
/// listener (non-blocking), the endpoint bound (with the port chosen for
/// `tcp://...:0`) and the IPC socket file to remove when closed.
fn bind_listener(endpoint: &Endpoint) -> Result<(Listener, Endpoint, Option<PathBuf>), NnError> {
    let fail = |source: io::Error| NnError::Bind {
        endpoint: endpoint.to_string(),
        source,
    };
    let (listener, bound, ipc_path) = match endpoint {
        Endpoint::Tcp(addr) => {
            let l = TcpListener::bind(addr).map_err(fail)?;
            let bound = l.local_addr().map_err(fail)?;
            (Listener::Tcp(l), Endpoint::Tcp(bound), None)
        }
        Endpoint::Ipc(path) => {
            let l = bind_ipc(path).map_err(fail)?;
            (Listener::Unix(l), endpoint.clone(), Some(path.clone()))
        }
    };
    match &listener {
        Listener::Tcp(l) => l.set_nonblocking(true),
        Listener::Unix(l) => l.set_nonblocking(true),
    }
    .map_err(fail)?;
    Ok((listener, bound, ipc_path))
}

/// Accepts connections until `closed()`, handing each to `serve` (which
/// starts whatever serves it; an error is logged and the connection
/// dropped).
fn accept_loop(
    listener: &Listener,
    endpoint: &Endpoint,
    closed: impl Fn() -> bool,
    mut serve: impl FnMut(Stream, String) -> io::Result<()>,
) {
    while !closed() {
        let mut fds = [PollFd::readable(listener.raw_fd())];
        if wait(&mut fds, ACCEPT_POLL).is_err() {
            thread::sleep(ACCEPT_POLL);
            continue;
        }
        loop {
            match listener.accept(endpoint) {
                Ok(Some((stream, name))) => {
                    if let Err(e) = serve(stream, name) {
                        tracing::warn!("nanomsg: cannot serve a connection: {e}");
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    // EMFILE and the like: report, back off, go on.
                    tracing::warn!(%endpoint, "nanomsg: accept: {e}");
                    thread::sleep(ACCEPT_POLL);
                    break;
                }
            }
        }
    }
}

/// The handshake of one connection: sends the header of protocol `ours`
/// and returns the peer's protocol id (within [`HANDSHAKE`]).
fn handshake(stream: &mut Stream, ours: u16) -> Result<u16, NnError> {
    stream.set_timeouts(Some(HANDSHAKE), Some(HANDSHAKE))?;
    stream.write_all(&protocol_header(ours))?;
    let mut header = [0u8; 8];
    if !read_full(stream, &mut header)? {
        return Err(NnError::Truncated);
    }
    check_header(&header)
}

fn serve_peer(
    mut stream: Stream,
    name: String,
    shared: Arc<Shared>,
    events: mpsc::SyncSender<Event>,
) {
    let refuse = |why: String| {
        let _ = events.send(Event::Refused {
            peer: name.clone(),
            why,
        });
    };
    let handshook = match handshake(&mut stream, PAIR_V0) {
        Ok(PAIR_V0) => Ok(()),
        Ok(other) => Err(NnError::WrongProtocol(other)),
        Err(e) => Err(e),
    };
    if let Err(e) = handshook {
        stream.shutdown();
        return refuse(format!("handshake: {e}"));
    }
    let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
    {
        let mut peer = shared.peer();
        if peer.is_some() {
            stream.shutdown();
            return refuse(NnError::Busy.to_string());
        }
        let writer = match stream
            .set_timeouts(None, Some(SEND_TIMEOUT))
            .and_then(|_| stream.try_clone())
        {
            Ok(w) => w,
            Err(e) => {
                stream.shutdown();
                return refuse(e.to_string());
            }
        };
        if shared.closed.load(Ordering::SeqCst) {
            stream.shutdown();
            return;
        }
        *peer = Some(Peer {
            id,
            name: name.clone(),
            writer,
        });
    }
    let _ = events.send(Event::Connected { peer: name.clone() });
    let why = loop {
        match read_message(&mut stream, shared.transport, shared.max_message) {
            Ok(Some(msg)) => {
                if events.send(Event::Message(msg)).is_err() {
                    break None;
                }
            }
            Ok(None) => break None,
            Err(e) => break Some(e.to_string()),
        }
    };
    stream.shutdown();
    {
        let mut peer = shared.peer();
        if peer.as_ref().is_some_and(|p| p.id == id) {
            *peer = None;
        }
    }
    let _ = events.send(Event::Disconnected { peer: name, why });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_as_nanomsg_spells_them() {
        assert_eq!(
            Endpoint::parse("ipc:///tmp/bmv2-0-dataplane.ipc").unwrap(),
            Endpoint::Ipc("/tmp/bmv2-0-dataplane.ipc".into())
        );
        assert_eq!(
            Endpoint::parse("tcp://*:5555").unwrap(),
            Endpoint::Tcp("0.0.0.0:5555".parse().unwrap())
        );
        assert_eq!(
            Endpoint::parse("tcp://127.0.0.1:0").unwrap(),
            Endpoint::Tcp("127.0.0.1:0".parse().unwrap())
        );
        assert_eq!(
            Endpoint::parse("tcp://[::1]:7").unwrap(),
            Endpoint::Tcp("[::1]:7".parse().unwrap())
        );
        for (bad, why) in [
            ("ipc://", "no path"),
            ("inproc://x", "expected ipc://"),
            ("tcp://1.2.3.4", "expected tcp://HOST:PORT"),
            ("tcp://1.2.3.4:99999", "not a port"),
            ("tcp://:80", "no host"),
            ("tcp://eth0;1.2.3.4:80", "for connecting"),
        ] {
            let e = Endpoint::parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
        let long = format!("ipc:///{}", "x".repeat(200));
        assert!(
            Endpoint::parse(&long)
                .unwrap_err()
                .to_string()
                .contains("at most")
        );
    }

    #[test]
    fn framing_round_trips_and_refuses_bad_input() {
        for t in [Transport::Ipc, Transport::Tcp] {
            let mut buf = Vec::new();
            write_message(&mut buf, t, b"hello").unwrap();
            write_message(&mut buf, t, b"").unwrap();
            let head = if t == Transport::Ipc { 9 } else { 8 };
            assert_eq!(buf.len(), 2 * head + 5);
            let mut r = &buf[..];
            assert_eq!(read_message(&mut r, t, 16).unwrap().unwrap(), b"hello");
            assert_eq!(read_message(&mut r, t, 16).unwrap().unwrap(), b"");
            assert!(read_message(&mut r, t, 16).unwrap().is_none());
            // Too long for the limit.
            let mut r = &buf[..];
            assert!(matches!(
                read_message(&mut r, t, 4),
                Err(NnError::TooLarge { len: 5, max: 4 })
            ));
            // Cut in the middle of the payload and of the size.
            let mut r = &buf[..head + 2];
            assert!(matches!(
                read_message(&mut r, t, 16),
                Err(NnError::Truncated)
            ));
            let mut r = &buf[..3];
            assert!(matches!(
                read_message(&mut r, t, 16),
                Err(NnError::Truncated)
            ));
        }
        assert_eq!(
            {
                let mut b = Vec::new();
                write_message(&mut b, Transport::Ipc, b"ab").unwrap();
                b
            },
            [1, 0, 0, 0, 0, 0, 0, 0, 2, b'a', b'b']
        );
        let mut r = &[0u8, 0, 0, 0, 0, 0, 0, 0, 1, 7][..];
        assert!(matches!(
            read_message(&mut r, Transport::Ipc, 16),
            Err(NnError::BadMessageType(0))
        ));
        // A huge size is refused before anything is allocated.
        let mut r = &[0xffu8; 8][..];
        assert!(matches!(
            read_message(&mut r, Transport::Tcp, 1 << 16),
            Err(NnError::TooLarge { .. })
        ));
    }

    #[test]
    fn headers_are_checked() {
        assert_eq!(protocol_header(PAIR_V0), [0, 0x53, 0x50, 0, 0, 0x10, 0, 0]);
        assert_eq!(check_header(&protocol_header(PAIR_V0)).unwrap(), PAIR_V0);
        assert_eq!(check_header(&protocol_header(0x0031)).unwrap(), 0x0031);
        assert!(matches!(
            check_header(b"GET / HT"),
            Err(NnError::BadHeader(_))
        ));
        let mut reserved = protocol_header(PAIR_V0);
        reserved[7] = 1;
        assert!(check_header(&reserved).is_err());
    }

    /// A client that dials `endpoint` and handshakes with `protocol`.
    fn dial(endpoint: &Endpoint, protocol: u16) -> Stream {
        let mut s = match endpoint {
            Endpoint::Tcp(a) => Stream::Tcp(TcpStream::connect(a).unwrap()),
            Endpoint::Ipc(p) => Stream::Unix(UnixStream::connect(p).unwrap()),
        };
        s.set_timeouts(Some(Duration::from_secs(5)), Some(Duration::from_secs(5)))
            .unwrap();
        s.write_all(&protocol_header(protocol)).unwrap();
        let mut h = [0u8; 8];
        s.read_exact(&mut h).unwrap();
        assert_eq!(h, protocol_header(PAIR_V0));
        s
    }

    fn next(socket: &PairSocket) -> Event {
        socket
            .recv_timeout(Duration::from_secs(5))
            .expect("an event within 5 s")
    }

    fn exchange(endpoint: Endpoint) {
        let socket = PairSocket::bind(&endpoint, 64).unwrap();
        let endpoint = socket.endpoint().clone();
        let t = endpoint.transport();
        assert!(matches!(socket.send(b"x"), Err(NnError::NoPeer)));
        let mut a = dial(&endpoint, PAIR_V0);
        assert!(matches!(next(&socket), Event::Connected { .. }));
        write_message(&mut a, t, b"ping").unwrap();
        assert_eq!(next(&socket), Event::Message(b"ping".to_vec()));
        socket.send(b"pong").unwrap();
        assert_eq!(read_message(&mut a, t, 64).unwrap().unwrap(), b"pong");
        assert!(matches!(
            socket.send(&[0; 65]),
            Err(NnError::TooLarge { len: 65, max: 64 })
        ));
        // A second peer is refused while the first is up.
        let mut b = dial(&endpoint, PAIR_V0);
        assert!(matches!(next(&socket), Event::Refused { .. }));
        assert!(read_message(&mut b, t, 64).unwrap_or(None).is_none());
        // A peer of another protocol (pub, 0x20) is refused.
        let _c = dial(&endpoint, 0x0020);
        match next(&socket) {
            Event::Refused { why, .. } => assert!(why.contains("not pair v0"), "{why}"),
            other => panic!("{other:?}"),
        }
        // An oversized message drops the peer; the next one is taken.
        write_message(&mut a, t, &[0; 65]).unwrap();
        match next(&socket) {
            Event::Disconnected { why: Some(why), .. } => assert!(why.contains("exceeds"), "{why}"),
            other => panic!("{other:?}"),
        }
        let mut d = dial(&endpoint, PAIR_V0);
        assert!(matches!(next(&socket), Event::Connected { .. }));
        socket.send(b"again").unwrap();
        assert_eq!(read_message(&mut d, t, 64).unwrap().unwrap(), b"again");
        drop(d);
        assert!(matches!(
            next(&socket),
            Event::Disconnected { why: None, .. }
        ));
        assert!(matches!(socket.send(b"x"), Err(NnError::NoPeer)));
    }

    #[test]
    fn a_pair_exchanges_messages_over_tcp() {
        exchange(Endpoint::parse("tcp://127.0.0.1:0").unwrap());
    }

    #[test]
    fn a_pair_exchanges_messages_over_ipc_and_replaces_a_stale_file() {
        let dir = std::env::temp_dir().join(format!("janus-nn-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pair.ipc");
        // A stale socket file (its listener gone) is replaced.
        drop(UnixListener::bind(&path).unwrap());
        assert!(path.exists());
        exchange(Endpoint::Ipc(path.clone()));
        assert!(!path.exists(), "the socket file is removed when closed");
        // A live listener, or a file that is no socket, is left alone.
        let live = PairSocket::bind(&Endpoint::Ipc(path.clone()), 64).unwrap();
        let e = PairSocket::bind(&Endpoint::Ipc(path.clone()), 64)
            .err()
            .unwrap();
        assert!(e.to_string().contains("another process"), "{e}");
        drop(live);
        let file = dir.join("plain");
        std::fs::write(&file, b"data").unwrap();
        let e = PairSocket::bind(&Endpoint::Ipc(file.clone()), 64)
            .err()
            .unwrap();
        assert!(e.to_string().contains("not a socket"), "{e}");
        assert_eq!(std::fs::read(&file).unwrap(), b"data");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn garbage_instead_of_a_header_is_refused() {
        let socket = PairSocket::bind(&Endpoint::parse("tcp://127.0.0.1:0").unwrap(), 64).unwrap();
        let Endpoint::Tcp(addr) = socket.endpoint().clone() else {
            unreachable!()
        };
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap();
        match next(&socket) {
            Event::Refused { why, .. } => assert!(why.contains("not a scalability"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}
