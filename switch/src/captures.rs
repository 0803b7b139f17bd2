//! `--pcap DIR`: each port's frames in and out, one pcap file each.

use crate::Ports;
use std::path::{Path, PathBuf};

/// Each port's captures, `<iface>_in.pcap` and `<iface>_out.pcap`; over
/// a nanomsg socket, `port<N>_in.pcap` and `port<N>_out.pcap`, made when
/// the port's first packet goes through.
pub struct Captures {
    dir: PathBuf,
    /// Whether a port without files gets them on its first packet.
    lazy: bool,
    /// Each port's input and output files (None once they failed).
    files: Vec<(u32, Option<(Capture, Capture)>)>,
}

type Capture = janus_pcap::Writer<std::io::BufWriter<std::fs::File>>;

impl Captures {
    pub fn open(dir: &Path, ports: &Ports) -> Result<Captures, String> {
        let mut captures = Captures {
            dir: dir.to_path_buf(),
            lazy: matches!(ports, Ports::Socket(_)),
            files: Vec::new(),
        };
        let named: Vec<(u32, &str)> = match ports {
            Ports::Rings(rings) => rings.list().collect(),
            Ports::Files(files) => files.list().collect(),
            Ports::Socket(_) => Vec::new(),
        };
        for (port, iface) in named {
            let pair = captures.pair(iface)?;
            captures.files.push((port, Some(pair)));
        }
        Ok(captures)
    }

    fn pair(&self, stem: &str) -> Result<(Capture, Capture), String> {
        let file = |name: String| -> Result<Capture, String> {
            let path = self.dir.join(&name);
            let f = std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            janus_pcap::Writer::new(std::io::BufWriter::new(f), Default::default())
                .map_err(|e| format!("{}: {e}", path.display()))
        };
        Ok((
            file(format!("{stem}_in.pcap"))?,
            file(format!("{stem}_out.pcap"))?,
        ))
    }

    pub(crate) fn write(&mut self, port: u32, input: bool, frame: &[u8]) {
        if self.lazy && !self.files.iter().any(|(p, _)| *p == port) {
            let pair = self
                .pair(&format!("port{port}"))
                .map_err(|e| tracing::warn!(port, "pcap: {e}"))
                .ok();
            self.files.push((port, pair));
        }
        let Some((_, Some((i, o)))) = self.files.iter_mut().find(|(p, _)| *p == port) else {
            return;
        };
        let w = if input { i } else { o };
        if let Err(e) = w.write_packet(crate::files::wall_clock_ns(), frame) {
            tracing::warn!(port, "pcap: {e}");
        }
    }

    /// Makes what was written readable (tshark may be reading as we go).
    pub(crate) fn flush(&mut self) {
        for (i, o) in self.files.iter_mut().filter_map(|(_, f)| f.as_mut()) {
            let _ = i.flush();
            let _ = o.flush();
        }
    }
}
