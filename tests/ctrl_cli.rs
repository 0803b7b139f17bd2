//! `janus ctrl cli`: simple_switch_CLI command files run over P4Runtime
//! against `janus ctrl serve`, their effect read back with `janus ctrl
//! table list` and the printed lines checked in runtime_CLI's shape.
//! Every child run is bounded.

mod common;

use common::{Server, TempDir, janus, run_bounded};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

/// `janus ctrl serve --p4 PROGRAM` with device id 0 (simple_switch_grpc's
/// and `janus ctrl cli`'s default).
fn serve(program: &str) -> Server {
    Server::start(&[
        "--listen",
        "127.0.0.1:0",
        "--insecure",
        "--device-id",
        "0",
        "--p4",
        program,
    ])
}

/// Runs `janus ctrl cli --server ADDR FILE` on `commands`: (exit code,
/// stdout, stderr).
fn cli(
    server: &Server,
    dir: &TempDir,
    name: &str,
    commands: &str,
) -> (Option<i32>, String, String) {
    let file = dir.join(name);
    std::fs::write(&file, commands).expect("write the command file");
    let mut cmd = janus();
    cmd.args(["ctrl", "cli", "--server", &server.addr.to_string()])
        .arg(&file);
    let done = run_bounded(cmd, LIMIT);
    assert!(done.status.is_some(), "{}", done.describe(LIMIT));
    (done.status.and_then(|s| s.code()), done.stdout, done.stderr)
}

/// `janus ctrl table list TABLE` against the server: its stdout.
fn list(server: &Server, table: &str) -> String {
    let mut cmd = janus();
    cmd.args([
        "ctrl",
        "table",
        "list",
        table,
        "--device-id",
        "0",
        "--server",
    ])
    .arg(server.addr.to_string());
    let done = run_bounded(cmd, LIMIT);
    assert!(
        done.success(),
        "table list {table}: {}",
        done.describe(LIMIT)
    );
    done.stdout
}

/// The outputs of the commands: the text after each `RuntimeCmd: ` prompt.
fn outputs(stdout: &str) -> Vec<String> {
    stdout
        .split("RuntimeCmd: ")
        .skip(1)
        .map(|s| s.trim_end_matches('\n').to_string())
        .collect()
}

/// table_add (lpm, exact), set_default, delete and modify by handle, an
/// unknown table and a bad value each giving an error line while the
/// lines after them still run; comments and blank lines as Python's
/// `cmd` (which runtime_CLI runs on) treats them.
#[test]
fn a_command_file_programs_the_router_by_handle() {
    let server = serve("p4/examples/l3_router_acl.p4");
    let dir = TempDir::new("ctrl-cli-router");
    let (code, out, err) = cli(
        &server,
        &dir,
        "s1-commands.txt",
        "table_set_default ipv4_lpm drop\n\
         table_add ipv4_lpm set_nexthop 10.0.1.0/24 => 00:00:00:00:01:01 1\n\
         table_add ipv4_lpm set_nexthop 10.0.2.0/24 => 00:00:00:00:02:02 2\n\
         table_add ipv4_lpm set_nexthop 10.0.3.0/24 => 00:00:00:00:03:03 3\n\
         # routes done\n\
         table_delete ipv4_lpm 1\n\
         \n\
         table_modify ipv4_lpm set_nexthop 2 => 00:00:00:00:03:33 4\n\
         table_add no_such_table drop 1\n\
         table_add port_mac rewrite_source 512 => 00:00:00:00:00:01\n\
         table_add port_mac rewrite_source 1 => 00:00:00:00:00:01\n\
         table_add ipv4_lpm set_nexthop 10.0.9.0/24 => 00:00:00:00:09:09 9\n\
         table_num_entries ipv4_lpm\n",
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let o = outputs(&out);
    assert!(
        out.starts_with("Obtaining P4Info from switch...\nDone\n"),
        "{out}"
    );
    assert!(
        o[1].contains("Entry has been added with handle 0"),
        "{}",
        o[1]
    );
    assert!(
        o[1].starts_with("Adding entry to lpm match table ipv4_lpm"),
        "{}",
        o[1]
    );
    assert!(
        o[1].contains("match key:           LPM-0a:00:01:00/24"),
        "{}",
        o[1]
    );
    assert!(
        o[3].ends_with("Entry has been added with handle 2"),
        "{}",
        o[3]
    );
    // A comment is no command for runtime_CLI either.
    assert_eq!(o[4], "*** Unknown syntax: # routes done");
    assert_eq!(o[5], "Deleting entry 1 from ipv4_lpm");
    // The blank line runs the previous command again: handle 1 is gone.
    assert!(
        o[6].contains("Invalid table operation (INVALID_HANDLE)"),
        "{}",
        o[6]
    );
    assert_eq!(o[7], "Modifying entry 2 for lpm match table ipv4_lpm");
    assert_eq!(o[8], "Error: Invalid table name (no_such_table)");
    assert!(
        o[9].starts_with("Invalid match key: Error while parsing 512"),
        "{}",
        o[9]
    );
    assert!(
        o[10].ends_with("Entry has been added with handle 0"),
        "{}",
        o[10]
    );
    // The freed slot 1, one version up, as bmv2 numbers it.
    assert!(
        o[11].ends_with("Entry has been added with handle 16777217"),
        "{}",
        o[11]
    );
    assert_eq!(o[12], "3");
    assert_eq!(o[13], "", "EOF prints an empty line");

    let routes = list(&server, "ipv4_lpm");
    assert!(routes.contains("3 entries"), "{routes}");
    assert!(
        routes.contains(
            "hdr.ipv4.dst_addr=10.0.1.0/24 -> set_nexthop(next_mac=00:00:00:00:01:01, port=1)"
        ),
        "{routes}"
    );
    assert!(!routes.contains("10.0.2.0"), "{routes}");
    assert!(
        routes.contains(
            "hdr.ipv4.dst_addr=10.0.3.0/24 -> set_nexthop(next_mac=00:00:00:00:03:33, port=4)"
        ),
        "{routes}"
    );
    assert!(routes.contains("10.0.9.0/24"), "{routes}");
    let macs = list(&server, "port_mac");
    assert!(macs.contains("1 entry"), "{macs}");

    // A second session numbers what the device holds in read order; the
    // default action the first set is read back.
    let (code, out, _) = cli(
        &server,
        &dir,
        "again.txt",
        "table_delete port_mac 0\ntable_dump ipv4_lpm\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let o = outputs(&out);
    assert_eq!(o[0], "Deleting entry 0 from port_mac");
    assert!(
        o[1].contains("Dumping default entry\nAction entry: RouterIngress.drop - "),
        "{}",
        o[1]
    );
    assert!(
        o[1].contains("* hdr.ipv4.dst_addr   : LPM       0a000300/24"),
        "{}",
        o[1]
    );
    assert!(list(&server, "port_mac").contains("0 entries"));
}

/// Ternary and range keys with bmv2 priorities (PI's inversion: P4Runtime
/// priority 2^31 - 1 - bmv2's), mirroring, multicast, counters, registers
/// and meters.
#[test]
fn priorities_sessions_multicast_and_resources() {
    let server = serve("tests/ctrl_cli/cli_switch.p4");
    let dir = TempDir::new("ctrl-cli-switch");
    let (code, out, err) = cli(
        &server,
        &dir,
        "commands.txt",
        "table_add filter forward 10.0.0.0&&&255.0.0.0 6&&&0xff 0->10 => 5 10\n\
         table_add filter drop 0&&&0 0&&&0 0->511 => 20\n\
         table_add filter drop 1&&&1 0&&&0 0->1 =>\n\
         table_dump filter\n\
         mirroring_add 5 7\n\
         mirroring_get 5\n\
         mc_mgrp_create 1\n\
         mc_node_create 0 1 2\n\
         mc_node_create 5 3\n\
         mc_node_associate 1 0\n\
         mc_node_associate 1 1\n\
         mc_node_dissociate 1 0\n\
         mc_dump\n\
         counter_read port_packets 3\n\
         register_write last_len 2 77\n\
         register_read last_len 2\n\
         meter_set_rates port_rate 0 0.5:100 1:200\n\
         meter_get_rates port_rate 0\n\
         table_add dmac forward_counted 00:00:00:00:00:01 => 1\n\
         counter_read dmac_hits 0\n\
         swap_configs\n",
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let o = outputs(&out);
    assert!(
        o[0].starts_with("Adding entry to range match table filter"),
        "{}",
        o[0]
    );
    assert!(
        o[0].contains(
            "TERNARY-0a:00:00:00 &&& ff:00:00:00\tTERNARY-06 &&& ff\tRANGE-00:00 -> 00:0a"
        ),
        "{}",
        o[0]
    );
    assert!(o[1].ends_with("handle 1"), "{}", o[1]);
    assert!(
        o[2].contains("could not extract a valid priority"),
        "{}",
        o[2]
    );
    assert!(
        o[3].contains(
            "Dumping entry 0x0\nMatch key:\n* hdr.ipv4.src_addr   : TERNARY   0a000000 &&& ff000000"
        ),
        "{}",
        o[3]
    );
    assert!(
        o[3].contains("Priority: 10\nAction entry: CliIngress.forward - 0005"),
        "{}",
        o[3]
    );
    assert!(
        o[3].contains("Priority: 20\nAction entry: CliIngress.drop - "),
        "{}",
        o[3]
    );
    assert_eq!(o[5], "MirroringSessionConfig(mgid=None, port=7)");
    assert_eq!(
        o[7],
        "Creating node with rid 0 , port map 110 and lag map \nnode was created with handle 0"
    );
    assert!(o[8].ends_with("node was created with handle 1"), "{}", o[8]);
    assert_eq!(
        o[12],
        "==========\nMC ENTRIES\n**********\nmgrp(1)\n  -> (L1h=1, rid=5) -> (ports=[3], lags=[])\n\
         ==========\nLAGS\nNone for this PRE type\n=========="
    );
    assert_eq!(o[13], "port_packets[3]= (0 bytes, 0 packets)");
    assert_eq!(o[15], "last_len[2]= 77");
    assert_eq!(
        o[17],
        "0: info rate = 0.5, burst size = 100\n1: info rate = 1.0, burst size = 200"
    );
    assert_eq!(
        o[19],
        "this is the direct counter for table CliIngress.dmac\ndmac_hits[0]= (0 bytes, 0 packets)"
    );
    assert!(
        o[20].starts_with("not supported by janus ctrl cli: swap_configs"),
        "{}",
        o[20]
    );

    // On the device: bmv2 priority 10 is P4Runtime 2147483637, 20 is
    // 2147483627 (so 10 still wins); the don't-cares are left out.
    let filter = list(&server, "filter");
    assert!(filter.contains("2 entries"), "{filter}");
    assert!(filter.contains("priority=2147483637 hdr.ipv4.src_addr=10.0.0.0&&&255.0.0.0 hdr.ipv4.protocol=6&&&255 std.ingress_port=0..10 -> forward(port=5)"), "{filter}");
    assert!(filter.contains("priority=2147483627 -> drop()"), "{filter}");

    // Mirroring and multicast as P4Runtime clients read them.
    let (code, out, _) = cli(
        &server,
        &dir,
        "more.txt",
        "mirroring_delete 5\nmirroring_get 5\nmc_node_create 9 4\nmc_node_associate 1 0\nmc_dump\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let o = outputs(&out);
    assert_eq!(o[0], "");
    assert!(
        o[1].starts_with("Invalid mirroring operation (SESSION_NOT_FOUND)"),
        "{}",
        o[1]
    );
    // The group the first session wrote keeps its replica (port 3, rid
    // 5); this session's node adds port 4 with rid 9.
    assert!(o[4].contains("rid=5) -> (ports=[3], lags=[])"), "{}", o[4]);
    assert!(o[4].contains("rid=9) -> (ports=[4], lags=[])"), "{}", o[4]);
}

/// A server that is not there: runtime_CLI's message and exit 1, promptly.
#[test]
fn an_unreachable_server_is_an_error_and_exit_1() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut cmd = janus();
    cmd.args(["ctrl", "cli", "--thrift-port", &port.to_string()]);
    let done = run_bounded(cmd, LIMIT);
    assert_eq!(
        done.status.and_then(|s| s.code()),
        Some(1),
        "{}",
        done.describe(LIMIT)
    );
    assert!(
        done.stdout.contains(&format!(
            "Could not connect to the P4Runtime server at 127.0.0.1:{port}"
        )),
        "{}",
        done.stdout
    );
    assert!(done.stdout.contains("Make sure the switch is running"));
}

/// Action profiles and selectors (`tests/ctrl_cli/cli_profiles.p4`):
/// members and groups numbered as bmv2 numbers them (lowest free from 0),
/// indirect entries by member and by group, modify, delete, the legacy
/// table forms, refusals in bmv2's words, dumps, and the effect read back
/// over P4Runtime.
#[test]
fn action_profiles_members_groups_and_indirect_entries() {
    let server = serve("tests/ctrl_cli/cli_profiles.p4");
    let dir = TempDir::new("ctrl-cli-profiles");
    let (code, out, err) = cli(
        &server,
        &dir,
        "profiles.txt",
        "act_prof_create_member action_profile forward 3\n\
         table_indirect_create_member port_fwd forward 4\n\
         act_prof_create_member action_profile set_nexthop 1 2\n\
         act_prof_create_group action_profile\n\
         table_indirect_add port_fwd 00:00:00:00:00:01 => 0\n\
         table_indirect_add port_fwd 00:00:00:00:00:02 => 1\n\
         table_indirect_add port_fwd 00:00:00:00:00:03 => 7\n\
         act_prof_delete_member action_profile 0\n\
         act_prof_modify_member action_profile forward 1 => 9\n\
         table_indirect_delete port_fwd 0\n\
         act_prof_delete_member action_profile 0\n\
         act_prof_create_member action_profile drop\n\
         table_dump_member port_fwd 0\n\
         act_prof_create_member ecmp_selector set_nexthop 00:00:00:00:0a:0a 1\n\
         act_prof_create_member ecmp_selector set_nexthop 00:00:00:00:0b:0b 2\n\
         act_prof_create_group ecmp_selector\n\
         table_indirect_create_group ecmp\n\
         act_prof_add_member_to_group ecmp_selector 0 0\n\
         act_prof_add_member_to_group ecmp_selector 1 0\n\
         act_prof_add_member_to_group ecmp_selector 1 0\n\
         act_prof_add_member_to_group ecmp_selector 1 1\n\
         act_prof_remove_member_from_group ecmp_selector 1 1\n\
         act_prof_remove_member_from_group ecmp_selector 1 1\n\
         table_indirect_add_with_group ecmp 10.0.0.0/8 => 0\n\
         table_indirect_add ecmp 10.1.0.0/16 => 1\n\
         table_indirect_add_with_group port_fwd 00:00:00:00:00:05 => 0\n\
         act_prof_delete_group ecmp_selector 0\n\
         act_prof_dump ecmp_selector\n\
         act_prof_dump_group ecmp_selector 0\n\
         act_prof_delete_group ecmp_selector 1\n\
         act_prof_dump_group ecmp_selector 1\n\
         table_dump ecmp\n",
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let o = outputs(&out);
    assert_eq!(o[0], "Member has been created with handle 0");
    assert_eq!(o[1], "Member has been created with handle 1");
    assert!(
        err.contains("This is a deprecated command, use 'act_prof_create_member' instead"),
        "{err}"
    );
    assert_eq!(
        o[2],
        "Error: Action profile 'action_profile' has no action 'set_nexthop'"
    );
    assert_eq!(
        o[3],
        "Error: Cannot run this command on an action profile without selector"
    );
    assert_eq!(
        o[4],
        "Adding entry to indirect match table port_fwd\nEntry has been added with handle 0"
    );
    assert!(
        o[5].ends_with("Entry has been added with handle 1"),
        "{}",
        o[5]
    );
    assert!(
        o[6].contains("Invalid table operation (INVALID_MBR_HANDLE)"),
        "{}",
        o[6]
    );
    assert!(
        o[7].starts_with("Invalid action profile operation (MBR_STILL_USED)"),
        "{}",
        o[7]
    );
    assert_eq!(o[8], "");
    assert_eq!(o[9], "Deleting entry 0 from port_fwd");
    assert_eq!(o[10], "");
    // Member 0 is free again: the next member takes it, as on bmv2.
    assert_eq!(o[11], "Member has been created with handle 0");
    assert_eq!(o[12], "Dumping member 0\nAction entry: ProfIngress.drop - ");
    assert_eq!(o[13], "Member has been created with handle 0");
    assert_eq!(o[15], "Group has been created with handle 0");
    assert_eq!(o[16], "Group has been created with handle 1");
    assert!(
        o[19].starts_with("Invalid action profile operation (MBR_ALREADY_IN_GRP)"),
        "{}",
        o[19]
    );
    assert!(
        o[22].starts_with("Invalid action profile operation (MBR_NOT_IN_GRP)"),
        "{}",
        o[22]
    );
    assert!(
        o[23].ends_with("Entry has been added with handle 0"),
        "{}",
        o[23]
    );
    assert!(
        o[24].ends_with("Entry has been added with handle 1"),
        "{}",
        o[24]
    );
    assert_eq!(
        o[25],
        "Error: Cannot run this command on non-indirect table, or on indirect table with no selector"
    );
    assert!(
        o[26].starts_with("Invalid action profile operation (GRP_STILL_USED)"),
        "{}",
        o[26]
    );
    assert_eq!(
        o[27],
        "==========\nMEMBERS\n**********\nDumping member 0\n\
         Action entry: ProfIngress.set_nexthop - 000000000a0a, 0001\n**********\n\
         Dumping member 1\nAction entry: ProfIngress.set_nexthop - 000000000b0b, 0002\n\
         ==========\nGROUPS\n**********\nDumping group 0\nMembers: [0, 1]\n**********\n\
         Dumping group 1\nMembers: []"
    );
    assert_eq!(o[28], "Dumping group 0\nMembers: [0, 1]");
    assert_eq!(o[29], "");
    assert!(
        o[30].starts_with("Invalid action profile operation (INVALID_GRP_HANDLE)"),
        "{}",
        o[30]
    );
    assert!(
        o[31].contains("LPM       0a000000/8\nIndex: group(0)"),
        "{}",
        o[31]
    );
    assert!(
        o[31].contains("LPM       0a010000/16\nIndex: member(1)"),
        "{}",
        o[31]
    );
    assert!(
        o[31].contains("GROUPS\n**********\nDumping group 0\nMembers: [0, 1]\n=========="),
        "{}",
        o[31]
    );

    // Over P4Runtime: ids are the session's (handle + 1 here).
    let ecmp = list(&server, "ecmp");
    assert!(ecmp.contains("2 entries"), "{ecmp}");
    assert!(
        ecmp.contains("hdr.ipv4.dst_addr=10.0.0.0/8 -> group 1"),
        "{ecmp}"
    );
    assert!(
        ecmp.contains("hdr.ipv4.dst_addr=10.1.0.0/16 -> member 2"),
        "{ecmp}"
    );
    let ports = list(&server, "port_fwd");
    assert!(ports.contains("1 entry"), "{ports}");
    assert!(
        ports.contains("hdr.ethernet.dst_addr=00:00:00:00:00:02 -> member 2"),
        "{ports}"
    );

    // A second session numbers what the device holds in id order.
    let (code, out, _) = cli(
        &server,
        &dir,
        "again.txt",
        "table_dump_member port_fwd 1\nact_prof_dump_group ecmp_selector 0\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let o = outputs(&out);
    assert_eq!(
        o[0],
        "Dumping member 1\nAction entry: ProfIngress.forward - 0009"
    );
    assert_eq!(o[1], "Dumping group 0\nMembers: [0, 1]");
}
