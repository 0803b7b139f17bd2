//! `janus ctrl journal check|recover --state DIR`: the state directory's
//! journal (janus_ctrl::journal) outside the server.
//!
//! `check` reports what the journal holds (records, sequence numbers, the
//! pipeline, a snapshot, batches, a torn tail) and where it is damaged:
//! exit 0 when a server would open it (a torn tail is dropped then), 1
//! when it is damaged, 2 for usage or I/O problems (a server holding the
//! directory included). `recover --up-to N` keeps a copy of the journal
//! (`DIR/journal.damaged-K`) and rewrites it with the intact records up to
//! sequence number N: exit 0 done, 1 when N is past the intact records, 2
//! for usage or I/O problems.

use clap::Subcommand;
use janus_ctrl::journal::{self, JournalError, Record, RecordKind, Report};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum JournalCommand {
    /// Report what the journal of a state directory holds and where it is
    /// damaged (exit 0 intact, 1 damaged, 2 usage or I/O). Changes nothing;
    /// refused while a server uses the directory.
    Check {
        /// The state directory (`janus ctrl serve --state DIR`).
        #[arg(long, value_name = "DIR")]
        state: PathBuf,
        /// List every record.
        #[arg(long)]
        records: bool,
    },
    /// Keep a copy of the journal (DIR/journal.damaged-K) and rewrite it
    /// with the intact records up to sequence number N (0: none, the
    /// server then starts without a pipeline). Refused while a server uses
    /// the directory.
    Recover {
        /// The state directory (`janus ctrl serve --state DIR`).
        #[arg(long, value_name = "DIR")]
        state: PathBuf,
        /// The last sequence number to keep (`check` lists them).
        #[arg(long, value_name = "N")]
        up_to: u64,
    },
}

pub fn run(c: JournalCommand) -> ExitCode {
    match c {
        JournalCommand::Check { state, records } => match journal::check(&state) {
            Ok(report) => {
                print_report(&state, &report, records);
                if report.intact() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        JournalCommand::Recover { state, up_to } => match journal::recover(&state, up_to) {
            Ok(r) => {
                println!(
                    "kept a copy of the original journal ({} bytes) as {}",
                    r.old_bytes,
                    r.copy.display()
                );
                match r.seqs {
                    Some((a, b)) => println!(
                        "the journal now holds {} records (seq {a}..{b}), {} bytes",
                        r.kept, r.new_bytes
                    ),
                    None => println!("the journal now holds no record (no pipeline)"),
                }
                if r.dropped > 0 {
                    println!("dropped {} intact records after seq {up_to}", r.dropped);
                }
                ExitCode::SUCCESS
            }
            Err(e @ JournalError::UpTo { .. }) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn describe(r: &Record) -> String {
    match r.kind() {
        RecordKind::Pipeline => "pipeline".to_string(),
        kind => format!("{kind} of {} updates", r.updates().len()),
    }
}

fn print_report(dir: &Path, report: &Report, list: bool) {
    let s = &report.scan;
    let Some(bytes) = report.bytes else {
        println!(
            "{}: no journal (a new state directory)",
            report.path.display()
        );
        println!("intact");
        return;
    };
    match s.format {
        Some(f) => println!(
            "{}: journal format {f}, {bytes} bytes",
            report.path.display()
        ),
        None => println!("{}: {bytes} bytes", report.path.display()),
    }
    match (s.records.first(), s.records.last()) {
        (Some(first), Some(last)) => println!(
            "records: {} intact (seq {}..{})",
            s.records.len(),
            first.seq,
            last.seq
        ),
        _ => println!("records: none intact"),
    }
    match s
        .records
        .first()
        .filter(|r| r.kind() == RecordKind::Pipeline)
    {
        Some(p) => println!("pipeline: seq {} ({} bytes)", p.seq, p.len),
        None => println!("pipeline: none"),
    }
    match s.records.iter().find(|r| r.kind() == RecordKind::Snapshot) {
        Some(r) => println!("snapshot: seq {}, {} updates", r.seq, r.updates().len()),
        None => println!("snapshot: none"),
    }
    let batches: Vec<&Record> = s
        .records
        .iter()
        .filter(|r| r.kind() == RecordKind::Batch)
        .collect();
    match (batches.first(), batches.last()) {
        (Some(a), Some(b)) => println!("batches: {} (seq {}..{})", batches.len(), a.seq, b.seq),
        _ => println!("batches: none"),
    }
    if list {
        for r in &s.records {
            println!(
                "  record {} seq {} offset {} ({} bytes): {}",
                r.index,
                r.seq,
                r.offset,
                r.len,
                describe(r)
            );
        }
    }
    if let Some(t) = s.torn {
        println!(
            "torn tail: {} bytes at offset {} (batch seq {} cut short by a crash, never acknowledged; \
             a server drops it at start-up)",
            t.bytes, t.offset, t.seq
        );
    }
    if s.damage.is_empty() {
        println!("intact");
        return;
    }
    for d in &s.damage {
        println!("damaged: {d}");
    }
    let dir = dir.display();
    match s.damage[0].intact {
        Some((a, b)) => println!(
            "to recover: janus ctrl journal recover --state {dir} --up-to {b} \
             (keeps a copy of the file, then the records of seq {a}..{b})"
        ),
        None => println!(
            "to recover: janus ctrl journal recover --state {dir} --up-to 0 \
             (keeps a copy of the file, then starts an empty journal)"
        ),
    }
}
