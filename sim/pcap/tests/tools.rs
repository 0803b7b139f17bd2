//! Cross-checks against Wireshark's tools: tshark and capinfos read the pcap
//! files our writer makes, and our reader reads the pcapng files tshark makes.
//!
//! When tshark is not installed these tests print a note and pass, unless
//! `JANUS_REQUIRE_TOOLS=1` is set (as `scripts/test` does), in which case
//! they fail. Every command runs under a time limit.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::udp_frame;
use janus_pcap::{Format, LinkType, TimestampUnit, TsResolution, Writer, WriterConfig, open};

/// The most any one tool invocation may take.
const TOOL_TIMEOUT: Duration = Duration::from_secs(60);

struct Output {
    status: std::process::ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs `program args`, killing it after `TOOL_TIMEOUT`. `None` when the
/// program cannot be started (not installed).
fn run(program: &str, args: &[&str]) -> Option<Output> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    // Drain both pipes on threads so a chatty tool cannot block on a full pipe.
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + TOOL_TIMEOUT;
    let status = loop {
        match child.try_wait().expect("wait for tool") {
            Some(status) => break status,
            None if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{program} {args:?} did not finish within {TOOL_TIMEOUT:?}");
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    Some(Output {
        status,
        stdout: out_thread.join().unwrap_or_default(),
        stderr: err_thread.join().unwrap_or_default(),
    })
}

/// Runs a tool that must succeed, returning its standard output.
fn run_ok(program: &str, args: &[&str]) -> String {
    let out = run(program, args).unwrap_or_else(|| panic!("{program} could not be started"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed ({}):\n{}",
        out.status,
        out.stderr
    );
    out.stdout
}

/// Whether `program` is installed. When it is not: panics if
/// `JANUS_REQUIRE_TOOLS=1`, otherwise prints a skip note and returns false.
fn have_tool(program: &str, test: &str) -> bool {
    let found = run(program, &["--version"]).is_some_and(|o| o.status.success());
    if !found {
        let required = std::env::var("JANUS_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "{program} is not installed and JANUS_REQUIRE_TOOLS=1 \
             (install it with: apt-get install tshark)"
        );
        eprintln!(
            "SKIPPED {test}: {program} is not installed \
             (apt-get install tshark; set JANUS_REQUIRE_TOOLS=1 to make this a failure)"
        );
    }
    found
}

/// A fresh directory for one test's files, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> Self {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("janus-pcap-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("UTF-8 path").to_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A frame of the test traffic and what tshark should say about it.
struct Frame {
    timestamp_ns: u64,
    bytes: Vec<u8>,
    src_mac: &'static str,
    dst_ip: &'static str,
    dst_port: u16,
}

fn traffic() -> Vec<Frame> {
    let make = |ts, src_mac: [u8; 6], src_mac_s, dst_ip: [u8; 4], dst_ip_s, port, len| Frame {
        timestamp_ns: ts,
        bytes: udp_frame(
            src_mac,
            [0x02, 0, 0, 0, 0, 0xff],
            [10, 0, 0, 1],
            dst_ip,
            40_000,
            port,
            &vec![0x5a; len],
        ),
        src_mac: src_mac_s,
        dst_ip: dst_ip_s,
        dst_port: port,
    };
    vec![
        make(
            1_700_000_000_123_456_789,
            [0x02, 0, 0, 0, 0, 0x01],
            "02:00:00:00:00:01",
            [10, 0, 0, 2],
            "10.0.0.2",
            7_777,
            18, // 14 + 20 + 8 + 18 = 60 bytes
        ),
        make(
            1_700_000_000_500_000_001,
            [0x02, 0xab, 0xcd, 0xef, 0x12, 0x34],
            "02:ab:cd:ef:12:34",
            [192, 168, 7, 9],
            "192.168.7.9",
            30_000,
            100,
        ),
        make(
            1_700_000_003_000_000_000,
            [0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f],
            "0a:0b:0c:0d:0e:0f",
            [172, 16, 0, 255],
            "172.16.0.255",
            9_999,
            1_472, // a full 1514-byte frame
        ),
    ]
}

fn write_pcap(path: &str, frames: &[Frame], config: WriterConfig) {
    let file = std::fs::File::create(path).expect("create pcap");
    let mut writer = Writer::new(std::io::BufWriter::new(file), config).unwrap();
    for f in frames {
        writer.write_packet(f.timestamp_ns, &f.bytes).unwrap();
    }
    writer.finish().unwrap();
}

/// The timestamp tshark prints as frame.time_epoch ("seconds.fraction"), in
/// nanoseconds.
fn parse_epoch(s: &str) -> u64 {
    let (secs, frac) = s.split_once('.').unwrap_or((s, ""));
    let mut digits = frac.to_owned();
    assert!(digits.len() <= 9, "more than nanosecond digits in {s}");
    while digits.len() < 9 {
        digits.push('0');
    }
    secs.parse::<u64>().expect("seconds") * 1_000_000_000 + digits.parse::<u64>().expect("fraction")
}

#[test]
fn tshark_reads_our_pcap() {
    if !have_tool("tshark", "tshark_reads_our_pcap") {
        return;
    }
    let dir = TempDir::new("tshark-reads");
    let frames = traffic();
    for resolution in [TsResolution::Microsecond, TsResolution::Nanosecond] {
        let path = dir.path(&format!("{resolution:?}.pcap"));
        let config = WriterConfig {
            resolution,
            ..WriterConfig::default()
        };
        write_pcap(&path, &frames, config);

        let out = run_ok(
            "tshark",
            &[
                "-r",
                &path,
                "-T",
                "fields",
                "-E",
                "separator=,",
                // First occurrence only, should a dissector find nested layers.
                "-E",
                "occurrence=f",
                "-e",
                "frame.len",
                "-e",
                "eth.src",
                "-e",
                "ip.dst",
                "-e",
                "udp.dstport",
                "-e",
                "ip.checksum.status",
                "-e",
                "frame.time_epoch",
            ],
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), frames.len(), "tshark output:\n{out}");
        for (line, f) in lines.iter().zip(&frames) {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 6, "{line}");
            assert_eq!(fields[0], f.bytes.len().to_string(), "frame.len in {line}");
            assert_eq!(fields[1], f.src_mac, "eth.src in {line}");
            assert_eq!(fields[2], f.dst_ip, "ip.dst in {line}");
            assert_eq!(fields[3], f.dst_port.to_string(), "udp.dstport in {line}");
            // 2 = "unverified": validation is off by default (see below).
            assert_eq!(fields[4], "2", "checksum status in {line}");
            let expected = match resolution {
                TsResolution::Microsecond => f.timestamp_ns / 1_000 * 1_000,
                TsResolution::Nanosecond => f.timestamp_ns,
            };
            assert_eq!(parse_epoch(fields[5]), expected, "time in {line}");
        }

        // With IPv4 checksum validation on, every header checksum is good.
        let out = run_ok(
            "tshark",
            &[
                "-r",
                &path,
                "-o",
                "ip.check_checksum:TRUE",
                "-T",
                "fields",
                "-e",
                "ip.checksum.status",
            ],
        );
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            vec!["1"; frames.len()],
            "ip.checksum.status with validation on (1 = good)"
        );
    }
}

#[test]
fn capinfos_describes_our_pcap() {
    if !have_tool("capinfos", "capinfos_describes_our_pcap") {
        return;
    }
    let dir = TempDir::new("capinfos");
    let frames = traffic();
    for (resolution, type_word) in [
        (TsResolution::Microsecond, "pcap"),
        (TsResolution::Nanosecond, "nsecpcap"),
    ] {
        let path = dir.path(&format!("{resolution:?}.pcap"));
        let config = WriterConfig {
            resolution,
            snaplen: janus_pcap::SNAPLEN_LEGACY,
            ..WriterConfig::default()
        };
        write_pcap(&path, &frames, config);
        let out = run_ok(
            "capinfos",
            &["-t", "-E", "-c", "-l", "-M", "-a", "-S", &path],
        );
        let field = |name: &str| -> String {
            out.lines()
                .find_map(|l| l.strip_prefix(name))
                .unwrap_or_else(|| panic!("no {name} in capinfos output:\n{out}"))
                .trim()
                .to_owned()
        };
        // -M prints Wireshark's short file type names.
        assert_eq!(field("File type:"), type_word, "{out}");
        // -M (machine-readable) prints the short encapsulation name.
        assert_eq!(field("File encapsulation:"), "ether");
        assert_eq!(field("Number of packets:"), frames.len().to_string());
        assert!(
            field("Packet size limit:").contains("65535"),
            "snaplen:\n{out}"
        );
        let first = match resolution {
            TsResolution::Microsecond => "1700000000.123456",
            TsResolution::Nanosecond => "1700000000.123456789",
        };
        assert_eq!(field("First packet time:"), first);
    }
}

#[test]
fn we_read_the_pcapng_tshark_writes() {
    if !have_tool("tshark", "we_read_the_pcapng_tshark_writes") {
        return;
    }
    let dir = TempDir::new("tshark-pcapng");
    let frames = traffic();
    for resolution in [TsResolution::Microsecond, TsResolution::Nanosecond] {
        let input = dir.path(&format!("{resolution:?}.pcap"));
        let output = dir.path(&format!("{resolution:?}.pcapng"));
        // Cut the big frame at 200 bytes so tshark carries a truncated
        // packet (captured < original length) into the pcapng file.
        let config = WriterConfig {
            resolution,
            snaplen: 200,
            ..WriterConfig::default()
        };
        write_pcap(&input, &frames, config);
        run_ok("tshark", &["-r", &input, "-F", "pcapng", "-w", &output]);

        let bytes = std::fs::read(&output).expect("read tshark's pcapng");
        let reader = open(&bytes).expect("open tshark's pcapng");
        assert_eq!(reader.format(), Format::PcapNg);
        assert_eq!(reader.link_type(), Some(LinkType::ETHERNET));
        let interface = reader.interface(0).expect("an interface");
        assert_eq!(interface.snaplen, 200);
        let unit = interface.timestamp_unit;
        match resolution {
            TsResolution::Microsecond => assert_eq!(unit, TimestampUnit::Pow10(6)),
            TsResolution::Nanosecond => assert_eq!(unit, TimestampUnit::Pow10(9)),
        }
        let packets: Vec<_> = reader
            .collect::<Result<_, _>>()
            .expect("read tshark's packets");
        assert_eq!(packets.len(), frames.len());
        for (p, f) in packets.iter().zip(&frames) {
            let kept = f.bytes.len().min(200);
            assert_eq!(p.data, &f.bytes[..kept]);
            assert_eq!(p.orig_len as usize, f.bytes.len());
            assert_eq!(p.interface, 0);
            let expected = match resolution {
                TsResolution::Microsecond => f.timestamp_ns / 1_000 * 1_000,
                TsResolution::Nanosecond => f.timestamp_ns,
            };
            assert_eq!(p.timestamp_ns, expected);
        }
        assert!(packets[2].is_truncated());

        // And tshark's own classic pcap output, both resolutions.
        for (format, res) in [
            ("pcap", TsResolution::Microsecond),
            ("nsecpcap", TsResolution::Nanosecond),
        ] {
            let back = dir.path(&format!("{resolution:?}-{format}.pcap"));
            run_ok("tshark", &["-r", &output, "-F", format, "-w", &back]);
            let bytes = std::fs::read(&back).expect("read tshark's pcap");
            let reader = open(&bytes).expect("open tshark's pcap");
            assert_eq!(reader.pcap_resolution(), Some(res));
            let again: Vec<_> = reader.collect::<Result<_, _>>().unwrap();
            assert_eq!(again.len(), frames.len());
            for (p, f) in again.iter().zip(&frames) {
                assert_eq!(p.data, &f.bytes[..f.bytes.len().min(200)]);
                assert_eq!(p.orig_len as usize, f.bytes.len());
            }
        }
    }
}
