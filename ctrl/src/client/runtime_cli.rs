//! bmv2's `simple_switch_CLI` command language (`runtime_CLI.py` and
//! `sswitch_CLI.py`) over P4Runtime: the commands, their words and the
//! session they share. `janus ctrl cli` connects and hands its input to
//! [`Session::run_lines`].
//!
//! The loop follows Python's `cmd.Cmd`, which runtime_CLI runs on: a
//! `RuntimeCmd: ` prompt before every line read (also when the input is a
//! file or a pipe), a line's command is its leading run of letters, digits
//! and `_`; a line that names no command (a `#` comment included) prints
//! `*** Unknown syntax: LINE`; a blank line runs the previous command
//! again; `EOF` (or the end of the input) prints a newline and ends. A
//! failed command prints its error line and the next line runs.
//!
//! Names resolve against the server's P4Info as runtime_CLI resolves them
//! against the bmv2 JSON (full names or unique suffixes). The commands
//! live in [`tables`] (match tables and entry handles), [`profiles`]
//! (action profiles and selectors, indirect tables), [`pre`] (mirroring
//! sessions and multicast) and [`resources`] (counters, registers,
//! meters).

mod pre;
mod profiles;
mod resources;
mod tables;

use super::schema::Schema;
use super::{Client, Error};
use crate::proto::p4::v1 as p4;
use p4::write_request::Atomicity;
use std::io::{BufRead, Write};
use tonic::Code;

/// What a command prints when it fails: one line, in runtime_CLI's words.
pub type CmdResult = Result<(), String>;

/// runtime_CLI's `UIn_Error` line.
pub fn uin(text: impl std::fmt::Display) -> String {
    format!("Error: {text}")
}

/// runtime_CLI's line for a name the program does not have.
pub fn bad_name(kind: &str, name: &str) -> String {
    uin(format!("Invalid {kind} name ({name})"))
}

/// runtime_CLI's check of the argument count.
pub fn exactly(args: &[&str], n: usize) -> CmdResult {
    if args.len() != n {
        return Err(uin(format!(
            "Wrong number of args, expected {n} but got {}",
            args.len()
        )));
    }
    Ok(())
}

/// runtime_CLI's check of the minimum argument count.
pub fn at_least(args: &[&str], n: usize) -> CmdResult {
    if args.len() < n {
        return Err(uin("Insufficient number of args"));
    }
    Ok(())
}

/// A decimal integer argument (`what` names it in the error).
pub fn int<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| uin(format!("Bad format for {what}, expected integer")))
}

/// One session: the connection, the P4Info and what the session keeps
/// (entry handles, multicast nodes).
pub struct Session {
    client: Client,
    schema: Schema,
    primary: bool,
    tables: tables::TableHandles,
    profiles: profiles::ProfileHandles,
    pre: pre::Pre,
    /// Lines printed (stdout).
    out: Box<dyn Write>,
}

/// A failed P4Runtime call: its code and the server's message.
pub struct Refused {
    pub code: Code,
    pub message: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

impl From<Error> for Refused {
    fn from(e: Error) -> Refused {
        if let Some(u) = e.failed_updates().next() {
            return Refused {
                code: u.code,
                message: u.message.clone(),
            };
        }
        match e.status() {
            Some(s) => Refused {
                code: s.code(),
                message: s.message().to_string(),
            },
            None => Refused {
                code: Code::Unavailable,
                message: e.to_string(),
            },
        }
    }
}

impl Session {
    /// A session over `client`, whose committed pipeline has `schema`,
    /// printing to `out`.
    pub fn new(client: Client, schema: Schema, out: Box<dyn Write>) -> Session {
        Session {
            client,
            schema,
            primary: false,
            tables: Default::default(),
            profiles: Default::default(),
            pre: Default::default(),
            out,
        }
    }

    /// Runs every line of `input`, prompting before each as `cmd.Cmd`
    /// does, until `EOF` or the end of the input; an error when `input`
    /// cannot be read.
    pub async fn run_lines(&mut self, input: impl BufRead) -> std::io::Result<()> {
        let mut last: Option<String> = None;
        let mut lines = input.lines();
        loop {
            let _ = write!(self.out, "RuntimeCmd: ");
            let _ = self.out.flush();
            let line = match lines.next() {
                Some(Ok(l)) => l,
                Some(Err(e)) => {
                    self.say("");
                    return Err(e);
                }
                None => "EOF".to_string(),
            };
            let line = line.trim_end_matches(['\r', '\n']).to_string();
            // cmd.Cmd: an empty line repeats the last command.
            let line = if line.trim().is_empty() {
                match &last {
                    Some(l) => l.clone(),
                    None => continue,
                }
            } else {
                line
            };
            last = (line.trim() != "EOF").then(|| line.clone());
            let more = self.onecmd(&line).await;
            let _ = self.out.flush();
            if !more {
                return Ok(());
            }
        }
    }

    /// Prints one line.
    pub fn say(&mut self, line: impl std::fmt::Display) {
        let _ = writeln!(self.out, "{line}");
    }

    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Writes one update, as primary (arbitrating at the first write).
    pub async fn write(
        &mut self,
        kind: p4::update::Type,
        entity: p4::Entity,
    ) -> Result<(), Refused> {
        if !self.primary {
            self.client.ensure_primary().await.map_err(|e| Refused {
                code: Code::FailedPrecondition,
                message: e.to_string(),
            })?;
            self.primary = true;
        }
        let update = p4::Update {
            r#type: kind as i32,
            entity: Some(entity),
        };
        self.client
            .write(vec![update], Atomicity::ContinueOnError)
            .await
            .map_err(Refused::from)
    }

    /// Reads the entities `filter` selects.
    pub async fn read(&mut self, filter: p4::Entity) -> Result<Vec<p4::Entity>, Refused> {
        self.client.read(vec![filter]).await.map_err(Refused::from)
    }

    /// The first entity `filter` selects that `pick` takes, as `pick`
    /// gives it.
    pub async fn read_first<T>(
        &mut self,
        filter: p4::Entity,
        pick: impl Fn(p4::entity::Entity) -> Option<T>,
    ) -> Result<Option<T>, Refused> {
        let found = self.read(filter).await?;
        Ok(found.into_iter().find_map(|e| e.entity.and_then(&pick)))
    }

    /// Runs one line as `cmd.Cmd.onecmd` does; false at `EOF`.
    async fn onecmd(&mut self, line: &str) -> bool {
        let line = line.trim();
        let line = if let Some(rest) = line.strip_prefix('?') {
            format!("help {rest}")
        } else if let Some(rest) = line.strip_prefix('!') {
            format!("shell {rest}")
        } else {
            line.to_string()
        };
        let end = line
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(line.len());
        let (cmd, rest) = line.split_at(end);
        let args: Vec<&str> = rest.split_whitespace().collect();
        if cmd == "EOF" {
            self.say("");
            return false;
        }
        let result = match cmd {
            "" => Err(format!("*** Unknown syntax: {line}")),
            "greet" => {
                self.say("hello");
                Ok(())
            }
            "help" => {
                self.help(&args);
                Ok(())
            }
            _ => match self.run(cmd, &args).await {
                Some(r) => r,
                None => Err(format!("*** Unknown syntax: {line}")),
            },
        };
        if let Err(text) = result {
            self.say(text);
        }
        true
    }

    /// Runs command `cmd`; None when there is no such command.
    async fn run(&mut self, cmd: &str, args: &[&str]) -> Option<CmdResult> {
        if let Some(r) = tables::run(self, cmd, args).await {
            return Some(r);
        }
        if let Some(r) = profiles::run(self, cmd, args).await {
            return Some(r);
        }
        if let Some(r) = pre::run(self, cmd, args).await {
            return Some(r);
        }
        if let Some(r) = resources::run(self, cmd, args).await {
            return Some(r);
        }
        unsupported(cmd).map(Err)
    }

    fn help(&mut self, args: &[&str]) {
        if let Some(cmd) = args.first() {
            let text = match unsupported(cmd) {
                Some(why) => why,
                None if KNOWN.contains(cmd) => {
                    format!("{cmd}: as runtime_CLI's (docs/control-plane.md)")
                }
                None => format!("*** No help on {cmd}"),
            };
            self.say(text);
            return;
        }
        self.say("Commands served over P4Runtime (docs/control-plane.md):");
        self.say(KNOWN.join(" "));
    }
}

/// The commands `janus ctrl cli` runs.
const KNOWN: &[&str] = &[
    "act_prof_add_member_to_group",
    "act_prof_create_group",
    "act_prof_create_member",
    "act_prof_delete_group",
    "act_prof_delete_member",
    "act_prof_dump",
    "act_prof_dump_group",
    "act_prof_dump_member",
    "act_prof_modify_member",
    "act_prof_remove_member_from_group",
    "counter_read",
    "counter_reset",
    "counter_write",
    "help",
    "mc_dump",
    "mc_mgrp_create",
    "mc_mgrp_destroy",
    "mc_node_associate",
    "mc_node_create",
    "mc_node_destroy",
    "mc_node_dissociate",
    "mc_node_update",
    "meter_array_set_rates",
    "meter_get_rates",
    "meter_set_rates",
    "mirroring_add",
    "mirroring_delete",
    "mirroring_get",
    "register_read",
    "register_reset",
    "register_write",
    "show_actions",
    "show_tables",
    "table_add",
    "table_clear",
    "table_delete",
    "table_dump",
    "table_dump_entry",
    "table_dump_group",
    "table_dump_member",
    "table_indirect_add",
    "table_indirect_add_member_to_group",
    "table_indirect_add_with_group",
    "table_indirect_create_group",
    "table_indirect_create_member",
    "table_indirect_delete",
    "table_indirect_delete_group",
    "table_indirect_delete_member",
    "table_indirect_modify_member",
    "table_indirect_remove_member_from_group",
    "table_indirect_reset_default",
    "table_indirect_set_default",
    "table_indirect_set_default_with_group",
    "table_info",
    "table_modify",
    "table_num_entries",
    "table_reset_default",
    "table_set_default",
    "table_show_actions",
];

/// The line for a runtime_CLI command `janus ctrl cli` does not run, with
/// what to use instead; None for any other word.
pub fn unsupported(cmd: &str) -> Option<String> {
    let instead = match cmd {
        "table_set_timeout" => "P4Runtime's TableEntry.idle_timeout_ns, set by a P4Runtime client",
        "table_dump_entry_from_key" => "`janus ctrl table list TABLE` prints every entry",
        "load_new_config_file" | "swap_configs" => {
            "a new pipeline is a P4Runtime SetForwardingPipelineConfig of a `janus p4 compile` \
             pipeline, pushed by a P4Runtime client (or restart `janus switch` with the program)"
        }
        "write_config_to_file" => {
            "the pipeline is read with P4Runtime's GetForwardingPipelineConfig"
        }
        "serialize_state" | "reset_state" => {
            "Janus keeps its state with `--state DIR` (`janus ctrl serve`, `janus switch -- --state DIR`)"
        }
        "port_add" | "port_remove" | "show_ports" => {
            "ports are bound when `janus switch` starts (`-i PORT@IFACE`)"
        }
        "set_queue_depth" | "set_queue_rate" => "Janus's v1model has no egress queues to shape",
        "get_time_elapsed" | "get_time_since_epoch" | "switch_info" => "P4Runtime has no such call",
        "set_crc16_parameters" | "set_crc32_parameters" | "set_toeplitz_hash_key" => {
            "Janus's hash algorithms are fixed"
        }
        "pvs_add" | "pvs_remove" | "pvs_get" | "pvs_clear" | "show_pvs" => {
            "parser value sets are P4Runtime ValueSetEntry entities, written by a P4Runtime client"
        }
        "mc_set_lag_membership" => "P4Runtime's packet replication engine has no LAGs",
        "mirroring_add_mc" => {
            "a P4Runtime clone session lists its replicas itself: use `mirroring_add SID PORT`"
        }
        "shell" => "janus ctrl cli runs no shell commands",
        _ => return None,
    };
    Some(format!(
        "not supported by janus ctrl cli: {cmd} ({instead})"
    ))
}
