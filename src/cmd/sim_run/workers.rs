//! `sim run --workers N`: the packets split by flow among N pipelines, one
//! per thread, and the outputs put back in arrival order.
//!
//! Each worker loads the program and the entries itself, so it has its own
//! tables and its own externs' state (registers, counters, meters): a
//! worker sees the packets of its flows only, in their order. A flow is
//! what [`flow_hash`] reads: the IPv4 or IPv6 addresses, protocol and
//! TCP/UDP ports (after any 802.1Q tags), else the Ethernet header. The
//! outputs of every packet are written in the order the packets arrived,
//! and a packet's outputs in the order its pipeline sent them, so for a
//! program whose state is kept per flow (or that keeps none) the files are
//! those one worker writes.

use std::hash::{DefaultHasher, Hasher};
use std::ops::Range;

/// One output of a packet: the index of the packet that caused it, the
/// port, and where its bytes lie in the batch's buffer.
struct Output {
    packet: usize,
    port: u32,
    bytes: Range<usize>,
}

/// What a worker sent for a run of its packets, in the order it sent it.
struct Batch {
    outputs: Vec<Output>,
    buffer: Vec<u8>,
    /// The worker has run every one of its packets up to this index.
    through: usize,
}

/// Where the outputs go: `(packet index, port, bytes)`.
pub type Write<'w, E> = dyn FnMut(usize, u32, &[u8]) -> Result<(), E> + 'w;

/// Packets a worker runs before it hands their outputs over.
const BATCH: usize = 256;
/// Batches a worker may run ahead of the writer.
const BACKLOG: usize = 8;

/// Runs `packets` (`(ingress port, bytes)` in arrival order) through
/// `workers` pipelines that `load` makes, one per thread (and called on
/// it), the packets of one flow all on one of them; `write` gets every
/// output, on the calling thread, while the workers run: `(packet index,
/// port, bytes)` in arrival order, a packet's outputs in the order they
/// were sent.
pub fn run<T, E>(
    workers: usize,
    packets: &[(u32, &[u8])],
    load: &(dyn Fn() -> Result<T, E> + Sync),
    write: &mut Write<'_, E>,
) -> Result<(), E>
where
    T: std::ops::DerefMut<Target = dyn janus_engine::target::Target>,
    E: Send,
{
    let workers = workers.max(1);
    std::thread::scope(|scope| {
        let mut streams = Vec::with_capacity(workers);
        let mut handles = Vec::with_capacity(workers);
        for me in 0..workers {
            let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Batch, E>>(BACKLOG);
            streams.push(rx);
            handles.push(scope.spawn(move || {
                let mut sw = match load() {
                    Ok(sw) => sw,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                let mut batch = Batch {
                    outputs: Vec::new(),
                    buffer: Vec::new(),
                    through: 0,
                };
                // Each worker picks its flows' packets itself, so that no
                // thread hashes them all up front.
                let mine = (0..packets.len())
                    .filter(|&i| flow_hash(packets[i].1) % workers as u64 == me as u64);
                for (n, i) in mine.enumerate() {
                    let (port, bytes) = packets[i];
                    sw.process_with(port, bytes, &mut |port, out| {
                        let start = batch.buffer.len();
                        batch.buffer.extend_from_slice(out);
                        batch.outputs.push(Output {
                            packet: i,
                            port,
                            bytes: start..batch.buffer.len(),
                        });
                    });
                    if (n + 1) % BATCH == 0 {
                        batch.through = i;
                        let full = std::mem::replace(
                            &mut batch,
                            Batch {
                                outputs: Vec::new(),
                                buffer: Vec::new(),
                                through: 0,
                            },
                        );
                        if tx.send(Ok(full)).is_err() {
                            return; // The writer stopped.
                        }
                    }
                }
                batch.through = usize::MAX;
                let _ = tx.send(Ok(batch));
            }));
        }
        let mut result = merge(&streams, write);
        // A worker with no packets reports its load error only here (the
        // others end after their last batch).
        if result.is_ok() {
            result = streams
                .iter()
                .flat_map(|rx| rx.iter())
                .try_for_each(|batch| batch.map(drop));
        }
        // A worker that stopped without its last batch panicked: its
        // panic goes on here once the others end (they see the closed
        // streams).
        drop(streams);
        for h in handles {
            if let Err(panic) = h.join() {
                std::panic::resume_unwind(panic);
            }
        }
        result
    })
}

/// Where the writer is in one worker's stream.
struct Cursor {
    batch: Batch,
    /// The next output of `batch` to write.
    next: usize,
    /// A batch has come (`batch.through` means something).
    started: bool,
    /// The last batch has come.
    done: bool,
}

/// Writes the workers' outputs in arrival order as their batches come: the
/// output of the earliest packet in hand, once no worker could still send
/// one of an earlier packet (each worker's stream is in arrival order, and
/// a worker that has run its packets up to `through` sends nothing before
/// it).
fn merge<E>(
    streams: &[std::sync::mpsc::Receiver<Result<Batch, E>>],
    write: &mut Write<'_, E>,
) -> Result<(), E> {
    let mut cursors: Vec<Cursor> = streams
        .iter()
        .map(|_| Cursor {
            batch: Batch {
                outputs: Vec::new(),
                buffer: Vec::new(),
                through: 0,
            },
            next: 0,
            started: false,
            done: false,
        })
        .collect();
    loop {
        let pending = |c: &Cursor| c.batch.outputs.get(c.next).map(|o| o.packet);
        let earliest = cursors
            .iter()
            .enumerate()
            .filter_map(|(w, c)| Some((pending(c)?, w)))
            .min();
        let behind = cursors.iter().position(|c| {
            !c.done
                && pending(c).is_none()
                && (!c.started || earliest.is_none_or(|(p, _)| c.batch.through < p))
        });
        if let Some(w) = behind {
            match streams[w].recv() {
                Ok(batch) => {
                    let batch = batch?;
                    let c = &mut cursors[w];
                    c.done = batch.through == usize::MAX;
                    (c.batch, c.next, c.started) = (batch, 0, true);
                }
                // The worker is gone (it panicked): the caller joins it.
                Err(_) => return Ok(()),
            }
            continue;
        }
        let Some((p, w)) = earliest else {
            return Ok(());
        };
        let c = &mut cursors[w];
        while let Some(out) = c.batch.outputs.get(c.next).filter(|o| o.packet == p) {
            let bytes = c.batch.buffer.get(out.bytes.clone()).unwrap_or_default();
            write(p, out.port, bytes)?;
            c.next += 1;
        }
    }
}

/// A hash of the packet's flow: addresses, protocol and ports of IPv4 or
/// IPv6 over Ethernet (with any 802.1Q/802.1ad tags), else the Ethernet
/// header (else the whole frame, when shorter).
pub fn flow_hash(frame: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    match ip_flow(frame) {
        Some(f) => {
            h.write(f.addresses);
            h.write_u8(f.protocol);
            h.write(f.ports);
        }
        None => h.write(frame.get(..14).unwrap_or(frame)),
    }
    h.finish()
}

/// The fields of an IP packet that name its flow.
struct IpFlow<'a> {
    /// Source and destination, as they lie in the header.
    addresses: &'a [u8],
    protocol: u8,
    /// TCP or UDP source and destination ports (empty for other protocols
    /// and for IPv4 fragments after the first).
    ports: &'a [u8],
}

fn ip_flow(frame: &[u8]) -> Option<IpFlow<'_>> {
    let word = |at: usize| Some(u16::from_be_bytes([*frame.get(at)?, *frame.get(at + 1)?]));
    let mut at = 12;
    let mut ether_type = word(at)?;
    while matches!(ether_type, 0x8100 | 0x88a8) {
        at += 4;
        ether_type = word(at)?;
    }
    let l3 = at + 2;
    let (protocol, addresses, l4) = match ether_type {
        0x0800 => {
            let ihl = usize::from(frame.get(l3)? & 0x0f) * 4;
            let first_fragment = word(l3 + 6)? & 0x1fff == 0;
            (
                *frame.get(l3 + 9)?,
                l3 + 12..l3 + 20,
                first_fragment.then_some(l3 + ihl),
            )
        }
        0x86dd => (*frame.get(l3 + 6)?, l3 + 8..l3 + 40, Some(l3 + 40)),
        _ => return None,
    };
    let ports = match (protocol, l4) {
        (6 | 17, Some(l4)) => frame.get(l4..l4 + 4).unwrap_or_default(),
        _ => &[],
    };
    Some(IpFlow {
        addresses: frame.get(addresses)?,
        protocol,
        ports,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn udp4(src_port: u16, ident: u16) -> Vec<u8> {
        let mut f = vec![0u8; 14 + 20 + 8];
        f[12..14].copy_from_slice(&[0x08, 0x00]);
        f[14] = 0x45;
        f[18..20].copy_from_slice(&ident.to_be_bytes());
        f[23] = 17;
        f[26..34].copy_from_slice(&[10, 0, 0, 1, 10, 0, 0, 2]);
        f[34..36].copy_from_slice(&src_port.to_be_bytes());
        f[36..38].copy_from_slice(&53u16.to_be_bytes());
        f
    }

    #[test]
    fn packets_of_one_flow_hash_alike_and_flows_differ() {
        // The IP identification differs packet to packet, not the flow.
        assert_eq!(flow_hash(&udp4(1000, 1)), flow_hash(&udp4(1000, 2)));
        assert_ne!(flow_hash(&udp4(1000, 1)), flow_hash(&udp4(1001, 1)));
        // A VLAN tag in front changes nothing the flow is made of.
        let plain = udp4(7, 1);
        let mut tagged = plain[..12].to_vec();
        tagged.extend_from_slice(&[0x81, 0x00, 0x00, 0x05]);
        tagged.extend_from_slice(&plain[12..]);
        assert_eq!(flow_hash(&plain), flow_hash(&tagged));
    }

    /// A batch of outputs `(packet, port)`, one byte each (the port).
    fn batch(outs: &[(usize, u32)], through: usize) -> Result<Batch, ()> {
        Ok(Batch {
            outputs: outs
                .iter()
                .enumerate()
                .map(|(i, &(packet, port))| Output {
                    packet,
                    port,
                    bytes: i..i + 1,
                })
                .collect(),
            buffer: outs.iter().map(|&(_, port)| port as u8).collect(),
            through,
        })
    }

    #[test]
    fn streams_merge_in_arrival_order() {
        let (txs, rxs): (Vec<_>, Vec<_>) = (0..3)
            .map(|_| std::sync::mpsc::sync_channel::<Result<Batch, ()>>(4))
            .unzip();
        // Worker 0 ran packets 0, 3 and 4 (4 sent twice); worker 1 ran 1
        // and 2 (2 sent nothing); worker 2 ran none.
        txs[0].send(batch(&[(0, 10)], 0)).unwrap();
        txs[0]
            .send(batch(&[(3, 11), (4, 12), (4, 13)], usize::MAX))
            .unwrap();
        txs[1].send(batch(&[(1, 20)], 2)).unwrap();
        txs[1].send(batch(&[], usize::MAX)).unwrap();
        txs[2].send(batch(&[], usize::MAX)).unwrap();
        drop(txs);
        let mut got = Vec::new();
        merge(&rxs, &mut |p, port, bytes| {
            got.push((p, port, bytes.to_vec()));
            Ok(())
        })
        .unwrap();
        let want = [(0, 10), (1, 20), (3, 11), (4, 12), (4, 13)];
        let want: Vec<_> = want
            .iter()
            .map(|&(p, port)| (p, port, vec![port as u8]))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_workers_error_stops_the_merge() {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Batch, ()>>(1);
        tx.send(Err(())).unwrap();
        assert_eq!(merge(&[rx], &mut |_, _, _| Ok(())), Err(()));
    }

    #[test]
    fn short_and_odd_frames_hash_without_panicking() {
        for len in 0..60 {
            let f = udp4(9, 9);
            flow_hash(&f[..len.min(f.len())]);
        }
        flow_hash(&[0x45; 3]);
    }
}
