//! `janus sim run PROG.p4 --in PORT=FILE ... --out-dir DIR [--entries FILE]`:
//! packets from pcap or pcapng files through a v1model program, one pcap
//! per output port.
//!
//! Packets from all inputs are merged by capture time (ties keep the order
//! of the `--in` arguments, then file order). Each output packet carries the
//! capture time of the packet that caused it, so the files line up with the
//! inputs in Wireshark. The entries file holds STF control-plane commands
//! (`add`, `setdefault`, `mc_*`, `register_write`), as a test would.
//!
//! With `--workers N` the packets are split by flow among N pipelines on
//! N threads ([`workers`]); the files come out as one pipeline writes them
//! for programs that keep no state across flows.

mod workers;

use janus_pcap::{LinkType, TsResolution, Writer, WriterConfig};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// What `janus sim run` was asked to do.
pub struct RunConfig {
    pub program: PathBuf,
    /// `(ingress port, capture file)` pairs.
    pub inputs: Vec<(u32, PathBuf)>,
    pub out_dir: PathBuf,
    pub entries: Option<PathBuf>,
    pub options: super::sim::SimOptions,
    /// Pipelines, each on a thread of its own (1: the packets run on the
    /// calling thread).
    pub workers: usize,
}

/// Parses `PORT=FILE`.
pub fn parse_input(arg: &str) -> Result<(u32, PathBuf), String> {
    let (port, file) = arg
        .split_once('=')
        .ok_or_else(|| format!("`{arg}`: expected PORT=FILE"))?;
    let port = port
        .parse::<u32>()
        .map_err(|_| format!("`{port}`: a port is a number"))?;
    if file.is_empty() {
        return Err(format!("`{arg}`: no file after `=`"));
    }
    Ok((port, PathBuf::from(file)))
}

/// A packet read from an input, in merge order; its bytes stay in the
/// input file's buffer.
struct Arrival<'a> {
    timestamp_ns: u64,
    input: usize,
    seq: usize,
    port: u32,
    data: &'a [u8],
}

/// What a run did, for the summary line.
pub struct RunSummary {
    pub packets_in: usize,
    pub dropped: usize,
    /// Output port -> (packets written, file).
    pub outputs: BTreeMap<u32, (usize, PathBuf)>,
    /// Input packets captured shorter than they were on the wire (run as
    /// captured).
    pub truncated_in: usize,
}

/// Runs the program over the inputs and writes the outputs. Every input is
/// read and checked before anything is written.
pub fn run(config: &RunConfig) -> Result<RunSummary, String> {
    // One pipeline loads (the program's errors first, then the entries')
    // before the inputs are read; workers load on their own threads, each
    // reading the entries file itself.
    let mut pipeline = if config.workers <= 1 {
        let mut sw = super::sim::load_switch(&config.program, &config.options)?;
        if let Some(path) = &config.entries {
            configure(sw.as_mut(), path)?;
        }
        Some(sw)
    } else {
        None
    };
    let load = || -> Result<Box<dyn janus_engine::target::Target>, String> {
        let mut sw = super::sim::load_switch(&config.program, &config.options)?;
        if let Some(path) = &config.entries {
            configure(sw.as_mut(), path)?;
        }
        Ok(sw)
    };
    let files = config
        .inputs
        .iter()
        .map(|(_, path)| {
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (arrivals, link_type, truncated_in) = read_inputs(&config.inputs, &files)?;
    std::fs::create_dir_all(&config.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", config.out_dir.display()))?;
    let mut writers: BTreeMap<u32, (Writer<BufWriter<File>>, usize, PathBuf)> = BTreeMap::new();
    let mut dropped = 0;
    let Some(sw) = pipeline.as_mut() else {
        let packets: Vec<(u32, &[u8])> = arrivals.iter().map(|a| (a.port, a.data)).collect();
        let mut answered = vec![false; arrivals.len()];
        workers::run(config.workers, &packets, &load, &mut |p, port, bytes| {
            answered[p] = true;
            let at = arrivals[p].timestamp_ns;
            write_output(&mut writers, config, link_type, port, at, bytes)
        })?;
        dropped = answered.iter().filter(|a| !**a).count();
        return finish(writers, arrivals.len(), dropped, truncated_in);
    };
    for a in &arrivals {
        // Each output goes from the switch's buffer straight to its pcap;
        // the first error stops the run.
        let mut sent = 0;
        let mut failed = None;
        sw.process_with(a.port, a.data, &mut |port, bytes| {
            sent += 1;
            if failed.is_none()
                && let Err(e) =
                    write_output(&mut writers, config, link_type, port, a.timestamp_ns, bytes)
            {
                failed = Some(e);
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        if sent == 0 {
            dropped += 1;
        }
    }
    // `janus sim run` exits after one run, so the pipeline is left to the
    // process's end: freeing a big table entry by entry costs about a
    // tenth of loading it.
    std::mem::forget(pipeline);
    finish(writers, arrivals.len(), dropped, truncated_in)
}

/// Runs the entries file's commands on the pipeline as they are read
/// (`janus_stf::entries`): the file is never held whole. Each worker reads
/// the file itself.
fn configure(sw: &mut dyn janus_engine::target::Target, path: &Path) -> Result<(), String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let reader = std::io::BufReader::with_capacity(1 << 16, file);
    let loaded = janus_stf::entries::configure_reader(sw, reader).map_err(|e| match e {
        janus_stf::entries::LoadError::Parse(errors) => errors
            .iter()
            .map(|e| format!("{}: {e}", path.display()))
            .collect::<Vec<_>>()
            .join("\n"),
        other => format!("{}: {other}", path.display()),
    })?;
    tracing::debug!(
        commands = loaded.commands,
        quick = loaded.quick,
        "entries loaded"
    );
    Ok(())
}

/// Closes the output files; the summary.
fn finish(
    writers: BTreeMap<u32, (Writer<BufWriter<File>>, usize, PathBuf)>,
    packets_in: usize,
    dropped: usize,
    truncated_in: usize,
) -> Result<RunSummary, String> {
    let mut outputs = BTreeMap::new();
    for (port, (writer, count, path)) in writers {
        writer
            .finish()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        outputs.insert(port, (count, path));
    }
    Ok(RunSummary {
        packets_in,
        dropped,
        outputs,
        truncated_in,
    })
}

/// Writes one output packet to `port`'s pcap, creating the file on the
/// port's first packet.
fn write_output(
    writers: &mut BTreeMap<u32, (Writer<BufWriter<File>>, usize, PathBuf)>,
    config: &RunConfig,
    link_type: LinkType,
    port: u32,
    timestamp_ns: u64,
    bytes: &[u8],
) -> Result<(), String> {
    let (writer, count, _) = match writers.entry(port) {
        std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::btree_map::Entry::Vacant(e) => {
            let path = config.out_dir.join(format!("port{port}.pcap"));
            let file = File::create(&path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
            let writer = Writer::new(
                BufWriter::new(file),
                WriterConfig {
                    resolution: TsResolution::Nanosecond,
                    link_type,
                    ..WriterConfig::default()
                },
            )
            .map_err(|e| format!("{}: {e}", path.display()))?;
            e.insert((writer, 0, path))
        }
    };
    writer
        .write_packet(timestamp_ns, bytes)
        .map_err(|e| format!("writing port {port}: {e}"))?;
    *count += 1;
    Ok(())
}

/// The packets of every input (`files[i]` holds `inputs[i]`'s bytes),
/// merged by capture time; all inputs must share one link type, which the
/// outputs take.
fn read_inputs<'a>(
    inputs: &'a [(u32, PathBuf)],
    files: &'a [Vec<u8>],
) -> Result<(Vec<Arrival<'a>>, LinkType, usize), String> {
    let mut arrivals = Vec::new();
    let mut link: Option<(LinkType, &Path)> = None;
    let mut truncated = 0;
    for (input, ((port, path), bytes)) in inputs.iter().zip(files).enumerate() {
        let reader = janus_pcap::open(bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        for (seq, packet) in reader.enumerate() {
            let packet = packet.map_err(|e| format!("{}: {e}", path.display()))?;
            match link {
                None => link = Some((packet.link_type, path)),
                Some((lt, first)) if lt != packet.link_type => {
                    return Err(format!(
                        "{}: link type {} differs from {} in {}",
                        path.display(),
                        describe(packet.link_type),
                        describe(lt),
                        first.display()
                    ));
                }
                Some(_) => {}
            }
            truncated += usize::from(packet.is_truncated());
            arrivals.push(Arrival {
                timestamp_ns: packet.timestamp_ns,
                input,
                seq,
                port: *port,
                data: packet.data,
            });
        }
    }
    arrivals.sort_by_key(|a| (a.timestamp_ns, a.input, a.seq));
    let link_type = link.map_or(LinkType::ETHERNET, |(lt, _)| lt);
    Ok((arrivals, link_type, truncated))
}

fn describe(lt: LinkType) -> String {
    match lt.name() {
        Some(name) => format!("{} ({name})", lt.0),
        None => lt.0.to_string(),
    }
}
