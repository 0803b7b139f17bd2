//! bmv2's nanomsg event logger (`simple_switch --nanolog ADDR`): one
//! message per event on a PUB socket ([`super::publish`]), each a packed
//! C struct in the host's byte order (little-endian on the targets Janus
//! runs on), as bmv2's `src/bm_sim/event_logger.cpp` writes them and its
//! `tools/nanomsg_client.py` reads them:
//!
//! ```text
//! int32 type; int32 switch_id; int32 cxt_id; uint64 sig; uint64 id; uint64 copy_id;
//! ```
//!
//! (36 bytes, [`HEADER_LEN`]), then the event's fields, each an int32
//! ([`EventKind::fields`]). `switch_id` is the device id (its low 32 bits),
//! `cxt_id` 0 (one context). `sig` is the packet's signature in bmv2;
//! Janus has none and sends the packet id there. A CONFIG_CHANGE is the
//! header alone, zero but for its type and the switch id.

use super::publish::PubSocket;
use super::{Endpoint, NnError};

/// An event's type, numbered as bmv2's `EventType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum EventKind {
    PacketIn = 0,
    PacketOut = 1,
    ParserStart = 2,
    ParserDone = 3,
    ParserExtract = 4,
    DeparserStart = 5,
    DeparserDone = 6,
    DeparserEmit = 7,
    ChecksumUpdate = 8,
    PipelineStart = 9,
    PipelineDone = 10,
    ConditionEval = 11,
    TableHit = 12,
    TableMiss = 13,
    ActionExecute = 14,
    ConfigChange = 999,
}

impl EventKind {
    /// How many int32 fields follow the header: `port_in`, `port_out`,
    /// `parser_id`, `header_id`, `deparser_id`, `checksum_id`,
    /// `pipeline_id`, `table_id` or `action_id` for most;
    /// `condition_id, result` and `table_id, entry_hdl` for two; none for
    /// CONFIG_CHANGE.
    pub fn fields(self) -> usize {
        match self {
            EventKind::ConditionEval | EventKind::TableHit => 2,
            EventKind::ConfigChange => 0,
            _ => 1,
        }
    }
}

/// The header's size.
pub const HEADER_LEN: usize = 36;

/// The longest message (a header and two fields).
pub const MAX_MESSAGE: usize = HEADER_LEN + 8;

/// What every message's header says besides its type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub switch_id: i32,
    pub cxt_id: i32,
    pub sig: u64,
    pub id: u64,
    pub copy_id: u64,
}

/// Writes the message of `kind` into `buf` and returns its length:
/// `header`, then `kind.fields()` fields taken from `fields` (missing
/// ones 0, extra ones ignored). Allocates nothing.
pub fn encode(
    buf: &mut [u8; MAX_MESSAGE],
    kind: EventKind,
    header: &Header,
    fields: &[i32],
) -> usize {
    buf[0..4].copy_from_slice(&(kind as i32).to_le_bytes());
    buf[4..8].copy_from_slice(&header.switch_id.to_le_bytes());
    buf[8..12].copy_from_slice(&header.cxt_id.to_le_bytes());
    buf[12..20].copy_from_slice(&header.sig.to_le_bytes());
    buf[20..28].copy_from_slice(&header.id.to_le_bytes());
    buf[28..36].copy_from_slice(&header.copy_id.to_le_bytes());
    let n = kind.fields();
    for i in 0..n {
        let at = HEADER_LEN + 4 * i;
        let v = fields.get(i).copied().unwrap_or(0);
        buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    HEADER_LEN + 4 * n
}

/// A switch's event log: the PUB socket and the device id.
pub struct EventLog {
    socket: PubSocket,
    switch_id: i32,
}

impl EventLog {
    /// Binds the PUB socket at `endpoint` for device `device_id` (sent as
    /// its low 32 bits, as bmv2's int32 `switch_id`).
    pub fn bind(endpoint: &Endpoint, device_id: u64) -> Result<EventLog, NnError> {
        Ok(EventLog::new(PubSocket::bind(endpoint)?, device_id))
    }

    pub fn new(socket: PubSocket, device_id: u64) -> EventLog {
        EventLog {
            socket,
            switch_id: device_id as i32,
        }
    }

    /// The socket (its endpoint, its subscribers).
    pub fn socket(&self) -> &PubSocket {
        &self.socket
    }

    /// Publishes one event (never blocks; see [`PubSocket::send`]).
    pub fn publish(&self, kind: EventKind, packet_id: u64, copy_id: u64, fields: &[i32]) {
        let header = Header {
            switch_id: self.switch_id,
            cxt_id: 0,
            sig: packet_id,
            id: packet_id,
            copy_id,
        };
        let mut buf = [0u8; MAX_MESSAGE];
        let n = encode(&mut buf, kind, &header, fields);
        // At most MAX_MESSAGE bytes: the socket takes it.
        let _ = self.socket.send(&buf[..n]);
    }

    /// PACKET_IN: packet `packet_id` arrived on `port` (copy 0).
    pub fn packet_in(&self, packet_id: u64, port: u32) {
        self.publish(EventKind::PacketIn, packet_id, 0, &[port as i32]);
    }

    /// PACKET_OUT: copy `copy_id` of packet `packet_id` left by `port`.
    pub fn packet_out(&self, packet_id: u64, copy_id: u64, port: u32) {
        self.publish(EventKind::PacketOut, packet_id, copy_id, &[port as i32]);
    }

    /// CONFIG_CHANGE: a new pipeline is installed.
    pub fn config_change(&self) {
        let header = Header {
            switch_id: self.switch_id,
            ..Header::default()
        };
        let mut buf = [0u8; MAX_MESSAGE];
        let n = encode(&mut buf, EventKind::ConfigChange, &header, &[]);
        let _ = self.socket.send(&buf[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::time::{Duration, Instant};

    fn message(kind: EventKind, header: &Header, fields: &[i32]) -> Vec<u8> {
        let mut buf = [0xaau8; MAX_MESSAGE];
        let n = encode(&mut buf, kind, header, fields);
        buf[..n].to_vec()
    }

    #[test]
    fn messages_are_bmv2s_packed_structs() {
        let h = Header {
            switch_id: 3,
            cxt_id: 0,
            sig: 0x0102,
            id: 0x0102,
            copy_id: 1,
        };
        // The header, worked out by hand: type, switch_id, cxt_id (int32),
        // sig, id, copy_id (uint64), little-endian.
        let head = |t: u8| {
            let mut v = vec![t, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0];
            v.extend([0x02, 0x01, 0, 0, 0, 0, 0, 0]);
            v.extend([0x02, 0x01, 0, 0, 0, 0, 0, 0]);
            v.extend([1, 0, 0, 0, 0, 0, 0, 0]);
            v
        };
        assert_eq!(head(0).len(), HEADER_LEN);
        let one = [
            (EventKind::PacketIn, 0),
            (EventKind::PacketOut, 1),
            (EventKind::ParserStart, 2),
            (EventKind::ParserDone, 3),
            (EventKind::ParserExtract, 4),
            (EventKind::DeparserStart, 5),
            (EventKind::DeparserDone, 6),
            (EventKind::DeparserEmit, 7),
            (EventKind::ChecksumUpdate, 8),
            (EventKind::PipelineStart, 9),
            (EventKind::PipelineDone, 10),
            (EventKind::TableMiss, 13),
            (EventKind::ActionExecute, 14),
        ];
        for (kind, t) in one {
            let mut want = head(t);
            want.extend([0x05, 0x02, 0, 0]); // 517
            assert_eq!(message(kind, &h, &[517]), want, "{kind:?}");
            assert_eq!(want.len(), 40);
        }
        for (kind, t) in [(EventKind::ConditionEval, 11), (EventKind::TableHit, 12)] {
            let mut want = head(t);
            want.extend([7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]); // 7, -1
            assert_eq!(message(kind, &h, &[7, -1]), want, "{kind:?}");
            assert_eq!(want.len(), 44);
        }
        // A missing field is 0; an extra one is not sent.
        let mut want = head(1);
        want.extend([0, 0, 0, 0]);
        assert_eq!(message(EventKind::PacketOut, &h, &[]), want);
        assert_eq!(message(EventKind::PacketOut, &h, &[0, 9]), want);
        // CONFIG_CHANGE: type 999 (0x3e7), the switch id, zeros.
        let cc = Header {
            switch_id: 3,
            ..Header::default()
        };
        let mut want = vec![0xe7, 0x03, 0, 0, 3, 0, 0, 0];
        want.extend([0u8; 28]);
        assert_eq!(message(EventKind::ConfigChange, &cc, &[5]), want);
    }

    /// A SUB client by hand over TCP; returns the next message.
    fn recv(s: &mut TcpStream) -> Vec<u8> {
        let mut size = [0u8; 8];
        s.read_exact(&mut size).unwrap();
        let mut msg = vec![0u8; u64::from_be_bytes(size) as usize];
        s.read_exact(&mut msg).unwrap();
        msg
    }

    #[test]
    fn the_log_publishes_packet_events_and_config_changes() {
        let log = EventLog::bind(
            &Endpoint::parse("tcp://127.0.0.1:0").unwrap(),
            0x1_0000_0007,
        )
        .unwrap();
        let Endpoint::Tcp(addr) = log.socket().endpoint().clone() else {
            unreachable!()
        };
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(&[0, b'S', b'P', 0, 0x00, 0x21, 0, 0]).unwrap();
        let mut h = [0u8; 8];
        s.read_exact(&mut h).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while log.socket().subscribers() == 0 {
            assert!(Instant::now() < deadline, "the subscriber within 5 s");
            std::thread::sleep(Duration::from_millis(10));
        }
        log.config_change();
        log.packet_in(5, 1);
        log.packet_out(5, 2, 4);
        let mut want = vec![0xe7, 0x03, 0, 0, 7, 0, 0, 0];
        want.extend([0u8; 28]);
        assert_eq!(recv(&mut s), want);
        let pkt = |t: u8, copy: u8, port: u8| {
            let mut v = vec![t, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0];
            v.extend([5, 0, 0, 0, 0, 0, 0, 0]);
            v.extend([5, 0, 0, 0, 0, 0, 0, 0]);
            v.extend([copy, 0, 0, 0, 0, 0, 0, 0]);
            v.extend([port, 0, 0, 0]);
            v
        };
        assert_eq!(recv(&mut s), pkt(0, 0, 1));
        assert_eq!(recv(&mut s), pkt(1, 2, 4));
    }
}
