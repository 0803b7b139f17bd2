//! A message relay between the VMM and the rust-vmm daemon that holds back
//! `SET_VRING_ENABLE` until `SET_FEATURES` has acknowledged
//! `VHOST_USER_F_PROTOCOL_FEATURES`.
//!
//! The vhost-user specification says `SET_VRING_ENABLE` "should be sent
//! only when `VHOST_USER_F_PROTOCOL_FEATURES` has been negotiated", and the
//! `vhost` crate ends the session when it arrives earlier. QEMU's
//! virtio-net (7.2 and later) sends it as soon as the device is created,
//! before the guest has features to acknowledge; without the bit QEMU
//! cannot start a vhost-user net device at all (it fails with `EINVAL`).
//! So the relay remembers an early request's state per ring, answers it
//! when a reply was asked for, and hands the remembered states to the
//! daemon right after `SET_FEATURES`, which is when the rings'
//! enabled state starts to count. Every other message passes unchanged,
//! with its descriptors; replies pass back unchanged (the backend sends
//! none with descriptors).

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use crate::sys::fdpass;

/// Bytes of a vhost-user message header: request, flags, payload size.
const HEADER: usize = 12;
/// Largest payload the relay accepts (the `vhost` crate's own bound).
const MAX_PAYLOAD: usize = 0x1000;
/// `VHOST_USER_SET_FEATURES`.
const SET_FEATURES: u32 = 2;
/// `VHOST_USER_SET_VRING_ENABLE`.
const SET_VRING_ENABLE: u32 = 18;
/// Header flags: protocol version 1, a reply, a reply wanted.
const VERSION_1: u32 = 0x1;
const REPLY: u32 = 0x4;
const NEED_REPLY: u32 = 0x8;

/// One vhost-user message as read from the VMM.
struct Message {
    header: [u8; HEADER],
    payload: Vec<u8>,
    fds: Vec<std::os::fd::OwnedFd>,
}

impl Message {
    fn field(&self, at: usize) -> u32 {
        u32::from_le_bytes([
            self.header[at],
            self.header[at + 1],
            self.header[at + 2],
            self.header[at + 3],
        ])
    }

    fn request(&self) -> u32 {
        self.field(0)
    }

    fn flags(&self) -> u32 {
        self.field(4)
    }

    /// The bytes to send on, header and payload.
    fn bytes(&self) -> Vec<u8> {
        let mut all = Vec::with_capacity(HEADER + self.payload.len());
        all.extend_from_slice(&self.header);
        all.extend_from_slice(&self.payload);
        all
    }
}

/// A running relay for one session: two threads, one per direction.
pub(super) struct Relay {
    frontend: UnixStream,
    backend: UnixStream,
    threads: Vec<JoinHandle<()>>,
}

impl Relay {
    /// Relays between `frontend` (the VMM's connection) and `backend` (the
    /// daemon's) until either side closes.
    pub(super) fn start(frontend: UnixStream, backend: UnixStream) -> io::Result<Self> {
        let to_vmm = Arc::new(Mutex::new(frontend.try_clone()?));
        let down = (frontend.try_clone()?, backend.try_clone()?);
        let requests = {
            let (from_vmm, to_daemon) = (frontend.try_clone()?, backend.try_clone()?);
            let to_vmm = to_vmm.clone();
            let down = (down.0.try_clone()?, down.1.try_clone()?);
            thread::Builder::new()
                .name("vhost-relay-req".into())
                .spawn(move || {
                    if let Err(e) = forward_requests(&from_vmm, &to_daemon, &to_vmm) {
                        tracing::debug!("vhost-user relay (requests): {e}");
                    }
                    close(&down.0, &down.1);
                })?
        };
        let replies = {
            let from_daemon = backend.try_clone()?;
            thread::Builder::new()
                .name("vhost-relay-rep".into())
                .spawn(move || {
                    if let Err(e) = forward_replies(&from_daemon, &to_vmm) {
                        tracing::debug!("vhost-user relay (replies): {e}");
                    }
                    close(&down.0, &down.1);
                })?
        };
        Ok(Self {
            frontend,
            backend,
            threads: vec![requests, replies],
        })
    }

    /// Closes both connections and waits for the threads.
    pub(super) fn finish(self) {
        close(&self.frontend, &self.backend);
        for t in self.threads {
            let _ = t.join();
        }
    }
}

fn close(a: &UnixStream, b: &UnixStream) {
    let _ = a.shutdown(Shutdown::Both);
    let _ = b.shutdown(Shutdown::Both);
}

/// VMM to daemon, holding back early `SET_VRING_ENABLE`s.
fn forward_requests(
    from_vmm: &UnixStream,
    to_daemon: &UnixStream,
    to_vmm: &Mutex<UnixStream>,
) -> io::Result<()> {
    // Ring index -> the enable state the VMM asked for before SET_FEATURES.
    let mut early: BTreeMap<u32, u32> = BTreeMap::new();
    let mut features_set = false;
    while let Some(msg) = read_request(from_vmm)? {
        match msg.request() {
            SET_VRING_ENABLE if !features_set => {
                let state = msg
                    .payload
                    .get(..8)
                    .ok_or_else(|| bad("short SET_VRING_ENABLE"))?;
                let index = u32::from_le_bytes([state[0], state[1], state[2], state[3]]);
                let num = u32::from_le_bytes([state[4], state[5], state[6], state[7]]);
                tracing::debug!(
                    index,
                    num,
                    "vhost-user: SET_VRING_ENABLE before SET_FEATURES held back"
                );
                early.insert(index, num);
                if msg.flags() & NEED_REPLY != 0 {
                    ack(to_vmm, SET_VRING_ENABLE)?;
                }
            }
            SET_FEATURES => {
                send(to_daemon, &msg)?;
                features_set = true;
                for (index, num) in std::mem::take(&mut early) {
                    send(to_daemon, &vring_enable(index, num))?;
                }
            }
            _ => send(to_daemon, &msg)?,
        }
    }
    Ok(())
}

/// Daemon to VMM: whole messages, so that a reply of the relay's own never
/// lands inside one.
fn forward_replies(from_daemon: &UnixStream, to_vmm: &Mutex<UnixStream>) -> io::Result<()> {
    let mut reader = from_daemon;
    loop {
        let mut header = [0; HEADER];
        match reader.read_exact(&mut header) {
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            other => other?,
        }
        let size = payload_size(&header)?;
        let mut all = header.to_vec();
        all.resize(HEADER + size, 0);
        reader.read_exact(&mut all[HEADER..])?;
        lock(to_vmm).write_all(&all)?;
    }
}

/// Reads one request with its descriptors; `None` when the VMM closed.
fn read_request(sock: &UnixStream) -> io::Result<Option<Message>> {
    let mut header = [0; HEADER];
    let (n, fds) = fdpass::recv(sock, &mut header)?;
    if n == 0 {
        return Ok(None);
    }
    let mut reader = sock;
    reader.read_exact(&mut header[n..])?;
    let mut payload = vec![0; payload_size(&header)?];
    reader.read_exact(&mut payload)?;
    Ok(Some(Message {
        header,
        payload,
        fds,
    }))
}

fn payload_size(header: &[u8; HEADER]) -> io::Result<usize> {
    let size = u32::from_le_bytes([header[8], header[9], header[10], header[11]]) as usize;
    if size > MAX_PAYLOAD {
        return Err(bad("vhost-user message larger than 4096 bytes"));
    }
    Ok(size)
}

fn send(sock: &UnixStream, msg: &Message) -> io::Result<()> {
    let fds: Vec<RawFd> = msg.fds.iter().map(AsRawFd::as_raw_fd).collect();
    fdpass::send(sock, &msg.bytes(), &fds)
}

/// A `SET_VRING_ENABLE` for the daemon, no reply wanted.
fn vring_enable(index: u32, num: u32) -> Message {
    let mut header = [0; HEADER];
    header[..4].copy_from_slice(&SET_VRING_ENABLE.to_le_bytes());
    header[4..8].copy_from_slice(&VERSION_1.to_le_bytes());
    header[8..].copy_from_slice(&8u32.to_le_bytes());
    let mut payload = index.to_le_bytes().to_vec();
    payload.extend_from_slice(&num.to_le_bytes());
    Message {
        header,
        payload,
        fds: Vec::new(),
    }
}

/// Answers `request` with success (a zero `u64`).
fn ack(to_vmm: &Mutex<UnixStream>, request: u32) -> io::Result<()> {
    let mut reply = Vec::with_capacity(HEADER + 8);
    reply.extend_from_slice(&request.to_le_bytes());
    reply.extend_from_slice(&(VERSION_1 | REPLY).to_le_bytes());
    reply.extend_from_slice(&8u32.to_le_bytes());
    reply.extend_from_slice(&0u64.to_le_bytes());
    lock(to_vmm).write_all(&reply)
}

fn lock(m: &Mutex<UnixStream>) -> std::sync::MutexGuard<'_, UnixStream> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn message(request: u32, flags: u32, payload: &[u8]) -> Vec<u8> {
        let mut m = request.to_le_bytes().to_vec();
        m.extend_from_slice(&flags.to_le_bytes());
        m.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        m.extend_from_slice(payload);
        m
    }

    fn read_n(mut sock: &UnixStream, n: usize) -> Vec<u8> {
        let mut buf = vec![0; n];
        sock.read_exact(&mut buf).expect("bytes within the timeout");
        buf
    }

    #[test]
    fn an_early_vring_enable_waits_for_set_features() {
        let (vmm, frontend) = UnixStream::pair().unwrap();
        let (backend, daemon) = UnixStream::pair().unwrap();
        for s in [&vmm, &daemon] {
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        }
        let relay = Relay::start(frontend, backend).unwrap();
        let ring1_on = [1, 0, 0, 0, 1, 0, 0, 0];
        let mut w = &vmm;
        // Early, with a reply wanted: answered by the relay, not passed on.
        w.write_all(&message(
            SET_VRING_ENABLE,
            VERSION_1 | NEED_REPLY,
            &ring1_on,
        ))
        .unwrap();
        assert_eq!(
            read_n(&vmm, 20),
            message(SET_VRING_ENABLE, VERSION_1 | REPLY, &[0; 8])
        );
        let features = (1u64 << 32 | 1 << 30).to_le_bytes();
        w.write_all(&message(SET_FEATURES, VERSION_1, &features))
            .unwrap();
        assert_eq!(
            read_n(&daemon, 20),
            message(SET_FEATURES, VERSION_1, &features)
        );
        assert_eq!(
            read_n(&daemon, 20),
            message(SET_VRING_ENABLE, VERSION_1, &ring1_on)
        );
        // Afterwards it passes unchanged, and replies flow back.
        w.write_all(&message(SET_VRING_ENABLE, VERSION_1, &ring1_on))
            .unwrap();
        assert_eq!(
            read_n(&daemon, 20),
            message(SET_VRING_ENABLE, VERSION_1, &ring1_on)
        );
        let reply = message(1, VERSION_1 | REPLY, &features);
        (&daemon).write_all(&reply).unwrap();
        assert_eq!(read_n(&vmm, 20), reply);
        drop(vmm);
        assert_eq!(
            (&daemon).read(&mut [0; 1]).unwrap(),
            0,
            "closed with the VMM"
        );
        relay.finish();
    }
}
