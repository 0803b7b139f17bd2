//! `janus switch --use-files WAIT`: ports on pcap files, as bmv2's
//! (`FilesDevMgrImp`, `PcapFilesReader`, `PcapFilesWriter`):
//!
//! - each `-i PORT@NAME` reads `NAME_in.pcap` and writes `NAME_out.pcap`
//!   (in the working directory, or where NAME's path points);
//! - the output files are made at start-up; the inputs are opened WAIT
//!   seconds after it, on a thread of their own (a named pipe then blocks
//!   only that thread until its writer comes);
//! - packets are taken from all inputs in timestamp order (the earliest
//!   head first; on a tie, the port given first), as fast as the switch
//!   takes them: timestamps order packets, they do not pace them (bmv2
//!   runs its reader without real-time replay);
//! - an input that ends, is missing or is not a pcap ends that port's input
//!   (reported once); the switch keeps running, as bmv2 does;
//! - every packet sent out of a port is a record of its output file, with
//!   the time it was sent, flushed at once; a packet for a port with no
//!   file is dropped.
//!
//! Regular files are read whole (pcap or pcapng); other inputs (pipes) are
//! streamed record by record (classic pcap).

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use janus_pcap::{StreamReader, Writer};

/// Packets read ahead of the pipeline before the reader waits.
const READ_AHEAD: usize = 1024;

/// The switch's ports on pcap files.
pub struct FilePorts {
    outputs: Vec<(u32, String, Option<Output>)>,
    inputs: mpsc::Receiver<Incoming>,
}

type Output = Writer<std::io::BufWriter<std::fs::File>>;

/// What the reading thread hands over.
enum Incoming {
    Packet(u32, Vec<u8>),
    /// A port's input ended (`None`) or failed.
    Ended(u32, String, Option<String>),
}

impl FilePorts {
    /// Makes the output files and starts the reader (`wait` after now).
    pub fn open(interfaces: &[(u32, String)], wait: Duration) -> Result<FilePorts, String> {
        let mut outputs = Vec::new();
        for (port, name) in interfaces {
            let path = PathBuf::from(format!("{name}_out.pcap"));
            let file = std::fs::File::create(&path)
                .map_err(|e| format!("--use-files: {}: {e}", path.display()))?;
            let writer = Writer::new(std::io::BufWriter::new(file), Default::default())
                .map_err(|e| format!("--use-files: {}: {e}", path.display()))?;
            outputs.push((*port, name.clone(), Some(writer)));
        }
        let (tx, rx) = mpsc::sync_channel(READ_AHEAD);
        let inputs: Vec<(u32, String)> = interfaces.to_vec();
        std::thread::Builder::new()
            .name("janus-pcap-in".into())
            .spawn(move || read_inputs(inputs, wait, tx))
            .map_err(|e| format!("--use-files: cannot start the reader: {e}"))?;
        Ok(FilePorts {
            outputs,
            inputs: rx,
        })
    }

    /// Each port and its file stem.
    pub fn list(&self) -> impl Iterator<Item = (u32, &str)> {
        self.outputs.iter().map(|(p, n, _)| (*p, n.as_str()))
    }

    /// `PORT@NAME_in.pcap` for the start-up line.
    pub fn describe(&self) -> String {
        let listed: Vec<String> = self
            .outputs
            .iter()
            .map(|(p, n, _)| format!("{p}@{n}_in.pcap"))
            .collect();
        format!("ports on pcap files [{}]", listed.join(", "))
    }

    /// Waits at most `timeout` for input, then hands every packet read so
    /// far (up to a batch) to `f`.
    pub fn poll(&mut self, timeout: Duration, mut f: impl FnMut(u32, &[u8])) {
        let mut next = self.inputs.recv_timeout(timeout).ok();
        let mut n = 0;
        while let Some(incoming) = next {
            match incoming {
                Incoming::Packet(port, frame) => f(port, &frame),
                Incoming::Ended(port, name, None) => {
                    tracing::info!(port, "{name}_in.pcap: end of input");
                }
                Incoming::Ended(port, name, Some(why)) => {
                    tracing::error!(port, "{name}_in.pcap: {why}; the port takes no more input");
                    eprintln!("janus switch: port {port}: {name}_in.pcap: {why}");
                }
            }
            n += 1;
            next = if n < READ_AHEAD {
                self.inputs.try_recv().ok()
            } else {
                None
            };
        }
    }

    /// Writes `frame` to `port`'s output file; `false` when the port has
    /// none.
    pub fn send(&mut self, port: u32, frame: &[u8]) -> bool {
        let Some((_, name, slot)) = self.outputs.iter_mut().find(|(p, _, _)| *p == port) else {
            return false;
        };
        let Some(out) = slot.as_mut() else {
            return false;
        };
        let written = out
            .write_packet(wall_clock_ns(), frame)
            .and_then(|()| out.flush());
        if let Err(e) = written {
            tracing::error!(port, "{name}_out.pcap: {e}; the port writes no more");
            *slot = None;
        }
        true
    }
}

/// Now, in nanoseconds since the epoch: a capture record's timestamp.
pub fn wall_clock_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// One input: a whole file's packets, or a stream.
enum Source {
    Whole(std::vec::IntoIter<(u64, Vec<u8>)>),
    Stream(StreamReader<std::fs::File>),
}

impl Source {
    fn open(name: &str) -> Result<Source, String> {
        let path = format!("{name}_in.pcap");
        let file = std::fs::File::open(&path).map_err(|e| e.to_string())?;
        let regular = file.metadata().map(|m| m.is_file()).unwrap_or(false);
        if !regular {
            return StreamReader::new(file)
                .map(Source::Stream)
                .map_err(|e| e.to_string());
        }
        let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
        let packets = janus_pcap::open(&bytes)
            .map_err(|e| e.to_string())?
            .map(|p| p.map(|p| (p.timestamp_ns, p.data.to_vec())))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        Ok(Source::Whole(packets.into_iter()))
    }

    fn next(&mut self) -> Result<Option<(u64, Vec<u8>)>, String> {
        match self {
            Source::Whole(it) => Ok(it.next()),
            Source::Stream(s) => {
                let mut data = Vec::new();
                Ok(s.next_into(&mut data)
                    .map_err(|e| e.to_string())?
                    .map(|r| (r.timestamp_ns, data)))
            }
        }
    }
}

/// An input port: its source and the packet it offers next.
struct Head {
    port: u32,
    name: String,
    source: Source,
    next: Option<(u64, Vec<u8>)>,
}

/// The reading thread: after `wait`, every input's packets in timestamp
/// order into `tx`, until every input ended or the switch is gone.
fn read_inputs(ports: Vec<(u32, String)>, wait: Duration, tx: mpsc::SyncSender<Incoming>) {
    std::thread::sleep(wait);
    let mut heads: Vec<Head> = Vec::new();
    for (port, name) in ports {
        let first = Source::open(&name).and_then(|mut source| Ok((source.next()?, source)));
        let ended = match first {
            Ok((Some(packet), source)) => {
                heads.push(Head {
                    port,
                    name,
                    source,
                    next: Some(packet),
                });
                continue;
            }
            Ok((None, _)) => Incoming::Ended(port, name, None),
            Err(why) => Incoming::Ended(port, name, Some(why)),
        };
        if tx.send(ended).is_err() {
            return;
        }
    }
    loop {
        // The earliest head; the first port given wins a tie.
        let Some(i) = heads
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.next.as_ref().map(|(ts, _)| (*ts, i)))
            .min()
            .map(|(_, i)| i)
        else {
            return;
        };
        let head = &mut heads[i];
        let Some((_, frame)) = head.next.take() else {
            return;
        };
        if tx.send(Incoming::Packet(head.port, frame)).is_err() {
            return;
        }
        match head.source.next() {
            Ok(Some(next)) => head.next = Some(next),
            Ok(None) => {
                if tx
                    .send(Incoming::Ended(head.port, head.name.clone(), None))
                    .is_err()
                {
                    return;
                }
            }
            Err(why) => {
                if tx
                    .send(Incoming::Ended(head.port, head.name.clone(), Some(why)))
                    .is_err()
                {
                    return;
                }
            }
        }
    }
}
