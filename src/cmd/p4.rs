//! `janus p4 ...`: the front end on the command line.
//!
//! Exit codes: 0 clean (warnings allowed), 1 the program has errors,
//! 2 usage or I/O problems.

use clap::{Args, Subcommand};
use janus_p4::diag::Code;
use janus_p4::driver::{Compilation, Options, compile_file};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum P4Command {
    /// Run the whole front end and print every error and warning.
    Check(FrontendArgs),
    /// Check a program and write its P4Info and compiled pipeline.
    Compile {
        #[command(flatten)]
        frontend: FrontendArgs,
        /// Write P4Info (P4Runtime 1.5) here, in the --p4runtime-format
        /// (p4c's --p4runtime-file).
        #[arg(long, alias = "p4runtime-file", value_name = "OUT.txtpb")]
        p4info: Option<PathBuf>,
        /// Write P4Info to each of these files (comma-separated), the format
        /// chosen by the suffix: .txt or .txtpb, .json or .bin (p4c's option).
        #[arg(long = "p4runtime-files", value_name = "FILES", value_delimiter = ',')]
        p4runtime_files: Vec<PathBuf>,
        /// The format of --p4info and --p4runtime-entries-file.
        #[arg(long = "p4runtime-format", value_enum, default_value = "text")]
        p4runtime_format: Format,
        /// Write the program's table entries (a P4Runtime WriteRequest) here,
        /// in the --p4runtime-format.
        #[arg(long = "p4runtime-entries-file", value_name = "OUT")]
        p4runtime_entries_file: Option<PathBuf>,
        /// Write the program's table entries to each of these files, the
        /// format chosen by the suffix as for --p4runtime-files.
        #[arg(
            long = "p4runtime-entries-files",
            value_name = "FILES",
            value_delimiter = ','
        )]
        p4runtime_entries_files: Vec<PathBuf>,
        /// Write the compiled pipeline here.
        #[arg(short = 'o', long, value_name = "OUT")]
        output: Option<PathBuf>,
    },
    /// Explain an error or warning code, e.g. `janus p4 explain E0100`.
    Explain {
        /// The code; omit to list all codes.
        code: Option<String>,
    },
}

/// A P4Runtime output format, as p4c names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Binary,
    Json,
}

impl Format {
    /// The format p4c's `--p4runtime-files` gives a file by its suffix.
    fn of(path: &std::path::Path) -> Result<Format, String> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("txt" | "txtpb") => Ok(Format::Text),
            Some("json") => Ok(Format::Json),
            Some("bin") => Ok(Format::Binary),
            Some(other) => Err(format!(
                "{}: cannot tell the P4Runtime file format from the suffix .{other}; known suffixes are .bin, .txt, .txtpb, .json",
                path.display()
            )),
            None => Err(format!(
                "{}: unknown file kind; known suffixes are .bin, .txt, .txtpb, .json",
                path.display()
            )),
        }
    }
}

/// What `janus p4 compile` writes for P4Runtime.
struct P4RuntimeOutputs {
    /// (file, format, entries rather than P4Info).
    files: Vec<(PathBuf, Format, bool)>,
}

impl P4RuntimeOutputs {
    fn write(&self, info: &janus_p4::p4info::P4Info) -> Result<(), String> {
        use janus_p4::p4info as pi;
        for (path, format, entries) in &self.files {
            let bytes = match (format, entries) {
                (Format::Text, false) => pi::to_text(info).into_bytes(),
                (Format::Binary, false) => pi::to_binary(info),
                (Format::Json, false) => pi::to_json(info).into_bytes(),
                (Format::Text, true) => pi::entries_to_text(info).into_bytes(),
                (Format::Binary, true) => info.initial_entries.to_binary(),
                (Format::Json, true) => info.initial_entries.to_json().into_bytes(),
            };
            std::fs::write(path, bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

#[derive(Args)]
pub struct FrontendArgs {
    /// The P4_16 program.
    pub program: PathBuf,
    #[command(flatten)]
    pub preprocess: PreprocessArgs,
    #[command(flatten)]
    pub language: LanguageArgs,
}

/// p4c's language and target options, taken so that a p4c or p4c-bm2-ss
/// command line runs with only the binary's name changed: the language
/// must be P4_16; the target and architecture come from the program
/// (its `#include`s and `main`), so `--target` and `--arch` are accepted
/// and checked against what Janus builds.
#[derive(Args, Clone, Debug, Default)]
pub struct LanguageArgs {
    /// The language version, as p4c's `--p4v`: 16 (P4_14 is not read).
    #[arg(long = "p4v", value_name = "14|16", value_parser = ["14", "16"])]
    pub p4v: Option<String>,
    /// The language standard, as p4c's `--std`: p4-16 (or p4_16).
    #[arg(long = "std", value_name = "p4-14|p4-16",
          value_parser = ["p4-14", "p4_14", "p4-16", "p4_16"])]
    pub std: Option<String>,
    /// The target, as p4c's `--target` (or `-b`): Janus builds bmv2's
    /// behaviour only.
    #[arg(long, short = 'b', value_name = "TARGET")]
    pub target: Option<String>,
    /// The architecture, as p4c's `--arch`: v1model, psa or pna (Janus
    /// reads it from the program; the name is checked, not obeyed).
    #[arg(long, value_name = "ARCH")]
    pub arch: Option<String>,
}

impl LanguageArgs {
    /// Refuses what Janus cannot do, in the terms of the option given.
    pub fn check(&self) -> Result<(), String> {
        if self.p4v.as_deref() == Some("14")
            || matches!(self.std.as_deref(), Some("p4-14" | "p4_14"))
        {
            return Err("Janus reads P4_16 programs only; P4_14 (--p4v 14, --std p4-14) \
                        must be translated first (p4c's p4test --std p4-14 --pp OUT.p4 writes P4_16)"
                .into());
        }
        if let Some(t) = self.target.as_deref().filter(|t| *t != "bmv2") {
            return Err(format!(
                "--target {t}: Janus builds bmv2's behaviour (target bmv2) only"
            ));
        }
        if let Some(a) = self
            .arch
            .as_deref()
            .filter(|a| !matches!(*a, "v1model" | "psa" | "pna"))
        {
            return Err(format!(
                "--arch {a}: Janus knows the architectures v1model, psa and pna"
            ));
        }
        Ok(())
    }
}

/// The preprocessor options of every command that reads P4 source:
/// `-I DIR` and `-D NAME[=VALUE]`, as cpp and p4c take them.
#[derive(Args, Clone, Debug, Default)]
pub struct PreprocessArgs {
    /// Add a directory to the include search path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro: NAME or NAME=VALUE.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
}

impl PreprocessArgs {
    /// The front-end options these give.
    pub fn options(&self) -> Options {
        Options {
            include_dirs: self.include.clone(),
            defines: self.defines(),
            ..Options::default()
        }
    }

    /// `-D NAME` as `(NAME, None)`, `-D NAME=VALUE` as `(NAME, Some(VALUE))`.
    pub fn defines(&self) -> Vec<(String, Option<String>)> {
        self.define
            .iter()
            .map(|d| match d.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (d.clone(), None),
            })
            .collect()
    }
}

impl FrontendArgs {
    fn options(&self) -> Options {
        self.preprocess.options()
    }
}

pub fn run(cmd: P4Command) -> ExitCode {
    match cmd {
        P4Command::Check(args) => match frontend(&args) {
            Ok(c) => report(&c),
            Err(code) => code,
        },
        P4Command::Compile {
            frontend: args,
            p4info,
            p4runtime_files,
            p4runtime_format,
            p4runtime_entries_file,
            p4runtime_entries_files,
            output,
        } => {
            let mut files = Vec::new();
            files.extend(p4info.map(|p| (p, p4runtime_format, false)));
            files.extend(p4runtime_entries_file.map(|p| (p, p4runtime_format, true)));
            for (list, entries) in [(p4runtime_files, false), (p4runtime_entries_files, true)] {
                for path in list {
                    match Format::of(&path) {
                        Ok(f) => files.push((path, f, entries)),
                        Err(e) => {
                            eprintln!("error: {e}");
                            return ExitCode::from(2);
                        }
                    }
                }
            }
            let outputs = P4RuntimeOutputs { files };
            let c = match frontend(&args) {
                Ok(c) => c,
                Err(code) => return code,
            };
            let status = report(&c);
            let Some(program) = c.program() else {
                return status;
            };
            if !outputs.files.is_empty()
                && let Err(e) = outputs.write(&janus_p4::p4info::build(program))
            {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            if let Some(path) = output {
                let bundle = janus_p4::pipeline::Pipeline::from_compilation(&c);
                if let Err(e) = std::fs::write(&path, bundle.to_bytes()) {
                    eprintln!("error: cannot write {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
            status
        }
        P4Command::Explain { code } => explain(code.as_deref()),
    }
}

fn frontend(args: &FrontendArgs) -> Result<Compilation, ExitCode> {
    if let Err(e) = args.language.check() {
        eprintln!("error: {e}");
        return Err(ExitCode::from(2));
    }
    compile_file(&args.program, &args.options()).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", args.program.display());
        ExitCode::from(2)
    })
}

/// Prints diagnostics and a summary; the exit code says whether there were errors.
fn report(c: &Compilation) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    eprint!("{}", c.render(color));
    let (errors, warnings) = (c.diagnostics.error_count(), c.diagnostics.warning_count());
    if errors > 0 {
        eprintln!("{errors} error(s), {warnings} warning(s)");
        ExitCode::from(1)
    } else {
        if warnings > 0 {
            eprintln!("{warnings} warning(s)");
        }
        ExitCode::SUCCESS
    }
}

fn explain(code: Option<&str>) -> ExitCode {
    match code {
        None => {
            for c in Code::ALL {
                println!("{}  {}", c.as_str(), c.title());
            }
            ExitCode::SUCCESS
        }
        Some(text) => match Code::parse(text) {
            Some(c) => {
                println!("{}: {}\n\n{}", c.as_str(), c.title(), c.explanation());
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("error: unknown code `{text}`; `janus p4 explain` lists them all");
                ExitCode::from(2)
            }
        },
    }
}
