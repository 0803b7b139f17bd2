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
        /// Write P4Info (P4Runtime 1.5, protobuf text format) here.
        #[arg(long, value_name = "OUT.txtpb")]
        p4info: Option<PathBuf>,
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

#[derive(Args)]
pub struct FrontendArgs {
    /// The P4_16 program.
    pub program: PathBuf,
    /// Add a directory to the include search path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro: NAME or NAME=VALUE.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
}

impl FrontendArgs {
    fn options(&self) -> Options {
        Options {
            include_dirs: self.include.clone(),
            defines: self
                .define
                .iter()
                .map(|d| match d.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (d.clone(), None),
                })
                .collect(),
            ..Options::default()
        }
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
            output,
        } => {
            let c = match frontend(&args) {
                Ok(c) => c,
                Err(code) => return code,
            };
            let status = report(&c);
            let Some(program) = c.program() else {
                return status;
            };
            if let Some(path) = p4info {
                let text = janus_p4::p4info::to_text(&janus_p4::p4info::build(program));
                if let Err(e) = std::fs::write(&path, text) {
                    eprintln!("error: cannot write {}: {e}", path.display());
                    return ExitCode::from(2);
                }
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
