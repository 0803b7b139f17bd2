//! bmv2's packet-in device protocol over a nanomsg PAIR socket: what
//! `simple_switch --packet-in ADDR` binds (bmv2's
//! `src/bm_sim/dev_mgr_packet_in.cpp`) and PTF's `nn` platform dials
//! (`ptf/dataplane.py`, `DataPlanePacketSourceNN`).
//!
//! Every message starts with three 32-bit little-endian integers (a packed
//! C struct of `int`s on x86, which both ends read as `<iii`): the type,
//! the port, and `more`, whose meaning depends on the type:
//!
//! | type | name | `more` | then |
//! |---|---|---|---|
//! | 0 | `PORT_ADD` | 0 | — |
//! | 1 | `PORT_REMOVE` | 0 | — |
//! | 2 | `PORT_SET_STATUS` | the status | — |
//! | 3 | `PACKET_IN` (to the switch) | the packet's length | the packet |
//! | 4 | `PACKET_OUT` (from the switch) | the packet's length | the packet |
//! | 5 | `INFO_REQ` | the info type (0 MAC address, 1 counters) | — |
//! | 6 | `INFO_REP` | the info type | a 32-bit status (0 success, 1 not supported), then the data |
//!
//! The status of `PORT_SET_STATUS` is spelled differently by the two
//! sides (PTF sends 0 for up and 1 for down; bmv2 reads 0 as down and 1 as
//! up); bmv2 does not enforce port state unless asked (`simple_switch`
//! never asks), so neither does [`PacketSocket`]: it records the value and
//! delivers packets on every port. The switch sends no port status
//! messages (bmv2 sends none on this socket either).
//!
//! `INFO_REQ` for the counters is answered with success and two 32-bit
//! counts, the packets received on the port and those sent from it (the
//! format of PTF's `ptf_nn_agent.py`; bmv2 answers "not supported", which
//! PTF 0.12's reader cannot decode); every other request is answered
//! "not supported", as bmv2 does.

use std::collections::BTreeMap;
use std::time::Duration;

use super::{Endpoint, Event, NnError, PairSocket};

pub const MSG_PORT_ADD: i32 = 0;
pub const MSG_PORT_REMOVE: i32 = 1;
pub const MSG_PORT_SET_STATUS: i32 = 2;
pub const MSG_PACKET_IN: i32 = 3;
pub const MSG_PACKET_OUT: i32 = 4;
pub const MSG_INFO_REQ: i32 = 5;
pub const MSG_INFO_REP: i32 = 6;

pub const INFO_HWADDR: i32 = 0;
pub const INFO_COUNTERS: i32 = 1;
pub const INFO_SUCCESS: i32 = 0;
pub const INFO_NOT_SUPPORTED: i32 = 1;

/// The type, port and `more` fields.
pub const HEADER: usize = 12;

/// The largest packet carried either way.
pub const MAX_PACKET: usize = 64 * 1024;

/// Messages handled per [`PacketSocket::poll`] round at most.
const BATCH: usize = 256;

/// One message of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    PortAdd {
        port: u32,
    },
    PortRemove {
        port: u32,
    },
    PortSetStatus {
        port: u32,
        status: i32,
    },
    /// A packet for the switch to receive on `port`.
    PacketIn {
        port: u32,
        packet: Vec<u8>,
    },
    /// A packet the switch sent out of `port`.
    PacketOut {
        port: u32,
        packet: Vec<u8>,
    },
    InfoReq {
        port: u32,
        info: i32,
    },
    InfoRep {
        port: u32,
        info: i32,
        status: i32,
        data: Vec<u8>,
    },
}

/// Why a message cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("a message of {0} bytes: shorter than the 12-byte header (type, port, more)")]
    Short(usize),
    #[error("unknown message type {0}")]
    UnknownType(i32),
    #[error("port {0} is negative")]
    NegativePort(i32),
    #[error("a {kind} announces {said} bytes but carries {carried}")]
    Length {
        kind: &'static str,
        said: i32,
        carried: usize,
    },
    #[error("a {kind} carries {carried} bytes after its header (none expected)")]
    Trailing { kind: &'static str, carried: usize },
    #[error("an INFO_REP without its 4-byte status")]
    NoStatus,
}

fn int(buf: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(buf[at..at + 4].try_into().expect("4 bytes"))
}

fn push(buf: &mut Vec<u8>, v: i32) {
    buf.extend_from_slice(&v.to_le_bytes());
}

impl Message {
    /// Decodes one message (the whole payload of a PAIR message).
    pub fn decode(buf: &[u8]) -> Result<Message, MessageError> {
        if buf.len() < HEADER {
            return Err(MessageError::Short(buf.len()));
        }
        let (kind, port, more) = (int(buf, 0), int(buf, 4), int(buf, 8));
        let rest = &buf[HEADER..];
        if !(MSG_PORT_ADD..=MSG_INFO_REP).contains(&kind) {
            return Err(MessageError::UnknownType(kind));
        }
        let port = u32::try_from(port).map_err(|_| MessageError::NegativePort(port))?;
        let name = match kind {
            MSG_PORT_ADD => "PORT_ADD",
            MSG_PORT_REMOVE => "PORT_REMOVE",
            MSG_PORT_SET_STATUS => "PORT_SET_STATUS",
            MSG_PACKET_IN => "PACKET_IN",
            MSG_PACKET_OUT => "PACKET_OUT",
            MSG_INFO_REQ => "INFO_REQ",
            _ => "INFO_REP",
        };
        let packet = || -> Result<Vec<u8>, MessageError> {
            if usize::try_from(more).ok() != Some(rest.len()) {
                return Err(MessageError::Length {
                    kind: name,
                    said: more,
                    carried: rest.len(),
                });
            }
            Ok(rest.to_vec())
        };
        let empty = || -> Result<(), MessageError> {
            if rest.is_empty() {
                Ok(())
            } else {
                Err(MessageError::Trailing {
                    kind: name,
                    carried: rest.len(),
                })
            }
        };
        Ok(match kind {
            MSG_PORT_ADD => {
                empty()?;
                Message::PortAdd { port }
            }
            MSG_PORT_REMOVE => {
                empty()?;
                Message::PortRemove { port }
            }
            MSG_PORT_SET_STATUS => {
                empty()?;
                Message::PortSetStatus { port, status: more }
            }
            MSG_PACKET_IN => Message::PacketIn {
                port,
                packet: packet()?,
            },
            MSG_PACKET_OUT => Message::PacketOut {
                port,
                packet: packet()?,
            },
            MSG_INFO_REQ => {
                empty()?;
                Message::InfoReq { port, info: more }
            }
            _ => {
                if rest.len() < 4 {
                    return Err(MessageError::NoStatus);
                }
                Message::InfoRep {
                    port,
                    info: more,
                    status: int(rest, 0),
                    data: rest[4..].to_vec(),
                }
            }
        })
    }

    /// The message as it goes on the wire.
    pub fn encode(&self) -> Vec<u8> {
        let mut buf = Vec::with_capacity(HEADER + 64);
        let port = |p: u32| i32::try_from(p).unwrap_or(i32::MAX);
        let len = |b: &[u8]| i32::try_from(b.len()).unwrap_or(i32::MAX);
        match self {
            Message::PortAdd { port: p } => {
                for v in [MSG_PORT_ADD, port(*p), 0] {
                    push(&mut buf, v);
                }
            }
            Message::PortRemove { port: p } => {
                for v in [MSG_PORT_REMOVE, port(*p), 0] {
                    push(&mut buf, v);
                }
            }
            Message::PortSetStatus { port: p, status } => {
                for v in [MSG_PORT_SET_STATUS, port(*p), *status] {
                    push(&mut buf, v);
                }
            }
            Message::PacketIn { port: p, packet } | Message::PacketOut { port: p, packet } => {
                let kind = if matches!(self, Message::PacketIn { .. }) {
                    MSG_PACKET_IN
                } else {
                    MSG_PACKET_OUT
                };
                for v in [kind, port(*p), len(packet)] {
                    push(&mut buf, v);
                }
                buf.extend_from_slice(packet);
            }
            Message::InfoReq { port: p, info } => {
                for v in [MSG_INFO_REQ, port(*p), *info] {
                    push(&mut buf, v);
                }
            }
            Message::InfoRep {
                port: p,
                info,
                status,
                data,
            } => {
                for v in [MSG_INFO_REP, port(*p), *info, *status] {
                    push(&mut buf, v);
                }
                buf.extend_from_slice(data);
            }
        }
        buf
    }
}

/// What [`PacketSocket::poll`] reports besides packets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Connected {
        peer: String,
    },
    Disconnected {
        peer: String,
        why: Option<String>,
    },
    Refused {
        peer: String,
        why: String,
    },
    PortAdded {
        port: u32,
    },
    PortRemoved {
        port: u32,
    },
    PortStatus {
        port: u32,
        status: i32,
    },
    /// A message that was refused (and dropped), and why.
    Bad {
        why: String,
    },
}

/// What is known of a port.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortInfo {
    /// Announced by the peer (`PORT_ADD`, not removed since).
    pub added: bool,
    /// The last `PORT_SET_STATUS` value, if any.
    pub status: Option<i32>,
    /// Packets received on the port, and sent from it.
    pub received: u64,
    pub sent: u64,
}

/// A switch's ports over one PAIR socket, as bmv2's packet-in device
/// manager has them.
pub struct PacketSocket {
    socket: PairSocket,
    ports: BTreeMap<u32, PortInfo>,
}

impl PacketSocket {
    /// Binds `endpoint` ([`Endpoint::parse`] reads `ipc://PATH` and
    /// `tcp://HOST:PORT`).
    pub fn bind(endpoint: &Endpoint) -> Result<PacketSocket, NnError> {
        Ok(PacketSocket {
            socket: PairSocket::bind(endpoint, HEADER + 4 + MAX_PACKET)?,
            ports: BTreeMap::new(),
        })
    }

    /// Where it listens.
    pub fn endpoint(&self) -> &Endpoint {
        self.socket.endpoint()
    }

    /// Every port seen so far.
    pub fn ports(&self) -> &BTreeMap<u32, PortInfo> {
        &self.ports
    }

    /// Waits at most `timeout` for a message, then handles every message
    /// waiting (a batch at most): each packet is handed to `f` with its
    /// port; requests are answered; the rest is returned.
    pub fn poll(&mut self, timeout: Duration, mut f: impl FnMut(u32, &[u8])) -> Vec<Notice> {
        let mut notices = Vec::new();
        let Some(first) = self.socket.recv_timeout(timeout) else {
            return notices;
        };
        let mut event = Some(first);
        let mut handled = 0;
        while let Some(e) = event {
            self.handle(e, &mut f, &mut notices);
            handled += 1;
            event = if handled < BATCH {
                self.socket.try_recv()
            } else {
                None
            };
        }
        notices
    }

    fn handle(&mut self, event: Event, f: &mut impl FnMut(u32, &[u8]), notices: &mut Vec<Notice>) {
        let msg = match event {
            Event::Message(m) => m,
            Event::Connected { peer } => return notices.push(Notice::Connected { peer }),
            Event::Disconnected { peer, why } => {
                return notices.push(Notice::Disconnected { peer, why });
            }
            Event::Refused { peer, why } => return notices.push(Notice::Refused { peer, why }),
        };
        let msg = match Message::decode(&msg) {
            Ok(m) => m,
            Err(e) => return notices.push(Notice::Bad { why: e.to_string() }),
        };
        match msg {
            Message::PacketIn { port, packet } => {
                self.ports.entry(port).or_default().received += 1;
                f(port, &packet);
            }
            Message::PortAdd { port } => {
                self.ports.entry(port).or_default().added = true;
                notices.push(Notice::PortAdded { port });
            }
            Message::PortRemove { port } => {
                if let Some(p) = self.ports.get_mut(&port) {
                    p.added = false;
                }
                notices.push(Notice::PortRemoved { port });
            }
            Message::PortSetStatus { port, status } => {
                self.ports.entry(port).or_default().status = Some(status);
                notices.push(Notice::PortStatus { port, status });
            }
            Message::InfoReq { port, info } => {
                let counts = self
                    .ports
                    .get(&port)
                    .map(|p| (p.received, p.sent))
                    .unwrap_or_default();
                let reply = if info == INFO_COUNTERS {
                    let mut data = Vec::with_capacity(8);
                    for c in [counts.0, counts.1] {
                        push(&mut data, i32::try_from(c).unwrap_or(i32::MAX));
                    }
                    Message::InfoRep {
                        port,
                        info,
                        status: INFO_SUCCESS,
                        data,
                    }
                } else {
                    Message::InfoRep {
                        port,
                        info,
                        status: INFO_NOT_SUPPORTED,
                        data: Vec::new(),
                    }
                };
                if let Err(e) = self.socket.send(&reply.encode()) {
                    notices.push(Notice::Bad {
                        why: format!("cannot answer an INFO_REQ for port {port}: {e}"),
                    });
                }
            }
            Message::PacketOut { port, .. } => notices.push(Notice::Bad {
                why: format!(
                    "a PACKET_OUT for port {port} from the peer: only the switch sends those"
                ),
            }),
            Message::InfoRep { port, .. } => notices.push(Notice::Bad {
                why: format!(
                    "an INFO_REP for port {port} from the peer: only the switch sends those"
                ),
            }),
        }
    }

    /// Sends `packet` out of `port` to the peer (`PACKET_OUT`).
    pub fn send(&mut self, port: u32, packet: &[u8]) -> Result<(), NnError> {
        if packet.len() > MAX_PACKET {
            return Err(NnError::TooLarge {
                len: packet.len() as u64,
                max: MAX_PACKET,
            });
        }
        let msg = Message::PacketOut {
            port,
            packet: packet.to_vec(),
        };
        self.socket.send(&msg.encode())?;
        self.ports.entry(port).or_default().sent += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Transport, protocol_header, read_message, write_message};
    use super::*;
    use std::io::{Read, Write};
    use std::os::unix::net::UnixStream;

    #[test]
    fn messages_are_ptfs_struct_layout() {
        let m = Message::PacketIn {
            port: 2,
            packet: vec![0xaa, 0xbb],
        };
        // struct.pack("<iii2s", 3, 2, 2, b"\xaa\xbb")
        assert_eq!(m.encode(), [3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0xaa, 0xbb]);
        assert_eq!(Message::decode(&m.encode()).unwrap(), m);
        for m in [
            Message::PortAdd { port: 7 },
            Message::PortRemove { port: 7 },
            Message::PortSetStatus { port: 1, status: 1 },
            Message::PacketOut {
                port: 511,
                packet: vec![],
            },
            Message::InfoReq { port: 3, info: 1 },
            Message::InfoRep {
                port: 3,
                info: 1,
                status: 0,
                data: vec![1, 0, 0, 0, 2, 0, 0, 0],
            },
        ] {
            assert_eq!(Message::decode(&m.encode()).unwrap(), m, "{m:?}");
        }
    }

    #[test]
    fn bad_messages_are_errors() {
        let hdr = |t: i32, p: i32, more: i32| {
            let mut b = Vec::new();
            for v in [t, p, more] {
                push(&mut b, v);
            }
            b
        };
        assert_eq!(Message::decode(&[3, 0, 0]), Err(MessageError::Short(3)));
        assert_eq!(
            Message::decode(&hdr(9, 0, 0)),
            Err(MessageError::UnknownType(9))
        );
        assert_eq!(
            Message::decode(&hdr(-1, 0, 0)),
            Err(MessageError::UnknownType(-1))
        );
        assert_eq!(
            Message::decode(&hdr(3, -2, 0)),
            Err(MessageError::NegativePort(-2))
        );
        let mut short = hdr(3, 1, 10);
        short.extend_from_slice(b"abc");
        let e = Message::decode(&short).unwrap_err();
        assert_eq!(
            e,
            MessageError::Length {
                kind: "PACKET_IN",
                said: 10,
                carried: 3
            }
        );
        assert!(e.to_string().contains("announces 10 bytes but carries 3"));
        assert!(Message::decode(&hdr(3, 1, -1)).is_err());
        let mut trailing = hdr(0, 1, 0);
        trailing.push(0);
        assert!(matches!(
            Message::decode(&trailing),
            Err(MessageError::Trailing { .. })
        ));
        assert_eq!(Message::decode(&hdr(6, 1, 1)), Err(MessageError::NoStatus));
    }

    /// PTF's side, as `DataPlanePacketSourceNN` is: dial, handshake, send.
    fn ptf(path: &std::path::Path) -> UnixStream {
        let mut s = UnixStream::connect(path).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(&protocol_header(super::super::PAIR_V0))
            .unwrap();
        let mut h = [0u8; 8];
        s.read_exact(&mut h).unwrap();
        s
    }

    fn poll_until(
        sock: &mut PacketSocket,
        mut done: impl FnMut(&[Notice], &[(u32, Vec<u8>)]) -> bool,
    ) -> (Vec<Notice>, Vec<(u32, Vec<u8>)>) {
        let (mut notices, mut packets) = (Vec::new(), Vec::new());
        let until = std::time::Instant::now() + Duration::from_secs(5);
        while !done(&notices, &packets) {
            assert!(std::time::Instant::now() < until, "{notices:?} {packets:?}");
            notices.extend(sock.poll(Duration::from_millis(20), |p, f| {
                packets.push((p, f.to_vec()))
            }));
        }
        (notices, packets)
    }

    #[test]
    fn a_ptf_peer_adds_ports_sends_packets_and_reads_counters() {
        let dir = std::env::temp_dir().join(format!("janus-nnpkt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("dp.ipc");
        let mut sock = PacketSocket::bind(&Endpoint::Ipc(path.clone())).unwrap();
        let mut peer = ptf(&path);
        let send = |peer: &mut UnixStream, m: &Message| {
            write_message(peer, Transport::Ipc, &m.encode()).unwrap()
        };
        send(&mut peer, &Message::PortAdd { port: 1 });
        send(
            &mut peer,
            &Message::PacketIn {
                port: 1,
                packet: b"frame".to_vec(),
            },
        );
        // Garbage in the middle: reported, the connection goes on.
        write_message(&mut peer, Transport::Ipc, b"\x03\0\0").unwrap();
        send(&mut peer, &Message::PortSetStatus { port: 1, status: 1 });
        let (notices, packets) = poll_until(&mut sock, |n, _| {
            n.iter().any(|n| matches!(n, Notice::PortStatus { .. }))
        });
        assert_eq!(packets, [(1, b"frame".to_vec())]);
        assert!(
            notices.contains(&Notice::PortAdded { port: 1 }),
            "{notices:?}"
        );
        assert!(
            notices
                .iter()
                .any(|n| matches!(n, Notice::Bad { why } if why.contains("12-byte header"))),
            "{notices:?}"
        );
        sock.send(2, b"out").unwrap();
        let got = read_message(&mut peer, Transport::Ipc, 1 << 20)
            .unwrap()
            .unwrap();
        assert_eq!(
            Message::decode(&got).unwrap(),
            Message::PacketOut {
                port: 2,
                packet: b"out".to_vec()
            }
        );
        // Counters (rx, tx) for port 1; the MAC address is not supported.
        send(
            &mut peer,
            &Message::InfoReq {
                port: 1,
                info: INFO_COUNTERS,
            },
        );
        send(
            &mut peer,
            &Message::InfoReq {
                port: 1,
                info: INFO_HWADDR,
            },
        );
        let mut reader = peer.try_clone().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for _ in 0..2 {
                let m = read_message(&mut reader, Transport::Ipc, 1 << 20);
                let _ = tx.send(m.map(|m| m.map(|m| Message::decode(&m))));
            }
        });
        let mut replies = Vec::new();
        let until = std::time::Instant::now() + Duration::from_secs(5);
        while replies.len() < 2 {
            assert!(std::time::Instant::now() < until, "no INFO_REP");
            sock.poll(Duration::from_millis(20), |_, _| {});
            while let Ok(m) = rx.try_recv() {
                replies.push(m.unwrap().unwrap().unwrap());
            }
        }
        assert_eq!(
            replies[0],
            Message::InfoRep {
                port: 1,
                info: INFO_COUNTERS,
                status: INFO_SUCCESS,
                data: vec![1, 0, 0, 0, 0, 0, 0, 0]
            }
        );
        assert_eq!(
            replies[1],
            Message::InfoRep {
                port: 1,
                info: INFO_HWADDR,
                status: INFO_NOT_SUPPORTED,
                data: vec![]
            }
        );
        assert_eq!(sock.ports()[&2].sent, 1);
        drop(peer);
        poll_until(&mut sock, |n, _| {
            n.iter().any(|n| matches!(n, Notice::Disconnected { .. }))
        });
        assert!(matches!(sock.send(2, b"x"), Err(NnError::NoPeer)));
        drop(sock);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
