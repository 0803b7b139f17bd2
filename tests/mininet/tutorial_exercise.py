#!/usr/bin/env python3
"""A p4lang-tutorials-style exercise on `janus-switch`, unchanged but for
the switch binary and the compile step.

The p4lang tutorials build each exercise the same way, and this script does
what they do, written here from their documented workflow:

1. the Makefile compiles `PROG.p4` with p4c-bm2-ss's command line
   (`--p4v 16 --p4runtime-files build/PROG.p4.p4info.txtpb -o
   build/PROG.json`); here the compiler is `janus p4 compile` with the same
   arguments (build/PROG.json then holds a Janus pipeline file);
2. each switch is started as one executable (`sw_path`, here
   `janus-switch`) with the command line the tutorials' switch class
   builds as one shell string: `-i PORT@INTF` per link, `--pcap DIR`,
   `--nanolog ipc:///tmp/bm-N-log.ipc`, `--device-id N`, `--no-p4`,
   `--log-console`, `--thrift-port P`, `-- --grpc-server-addr
   0.0.0.0:PORT`, `--cpu-port N`;
3. a controller reads `sN-runtime.json` (the tutorials' schema: `p4info`,
   `bmv2_json`, `table_entries` with `table`, `match` (a value, or
   `[value, prefix length]` for LPM), `action_name`, `action_params`,
   `default_action`), pushes the pipeline with SetForwardingPipelineConfig
   (the device config is the `bmv2_json` file's text as bytes, as the
   tutorials' helper sends it), and writes the entries;
4. hosts have addresses in their own /24s, a default gateway with a static
   ARP entry (the topology file's host `commands`), and interfaces without
   offloads; pingall must lose nothing, every ping between two subnets
   must show the routers' TTL decrements, a nanomsg subscriber (pynng) on
   s2's `--nanolog` socket must see bmv2's PACKET_IN and PACKET_OUT events
   on both its ports, and `--pcap` must have written each port's captures.

The program is Janus's example router (p4/examples/l3_router_acl.p4):

    h1 --1-+
    h2 --2-+ s1 -3---2- s2 -1-- h3

Exit 0 when every check passed, 1 otherwise. Root is needed; run with a
Python that has grpcio, p4runtime and pynng (target/venv-ptf):

    sudo target/venv-ptf/bin/python tests/mininet/tutorial_exercise.py \\
        --janus target/debug/janus --janus-switch target/debug/janus-switch \\
        --work /tmp/janus-tutorial
"""

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from functools import partial

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
try:
    import mininet  # noqa: F401
except ImportError:
    sys.path.append("/usr/lib/python3/dist-packages")

import pynng  # noqa: E402
from mininet.log import info, setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402
from mininet.topo import Topo  # noqa: E402

from harness import Checks, arm_time_limit, delete_interfaces, disarm_time_limit, stop_and_check  # noqa: E402
from janus_switch import JanusHost, JanusSwitch  # noqa: E402
from p4rt_client import P4RuntimeClient  # noqa: E402

PROGRAM = "router"
P4INFO = f"build/{PROGRAM}.p4.p4info.txtpb"
DEVICE_CONFIG = f"build/{PROGRAM}.json"
CPU_PORT = 510

# The topology file's hosts: address, MAC, and the commands run on them
# (`{intf}`: the host's interface).
HOSTS = {
    "h1": ("10.0.1.1/24", "08:00:00:00:01:11", ["ip route add default via 10.0.1.10 dev {intf}", "ip neigh add 10.0.1.10 lladdr 08:00:00:00:01:00 dev {intf}"]),
    "h2": ("10.0.2.2/24", "08:00:00:00:02:22", ["ip route add default via 10.0.2.20 dev {intf}", "ip neigh add 10.0.2.20 lladdr 08:00:00:00:02:00 dev {intf}"]),
    "h3": ("10.0.3.3/24", "08:00:00:00:03:33", ["ip route add default via 10.0.3.30 dev {intf}", "ip neigh add 10.0.3.30 lladdr 08:00:00:00:03:00 dev {intf}"]),
}
# (host, switch, switch port) and (switch, port, switch, port).
HOST_LINKS = [("h1", "s1", 1), ("h2", "s1", 2), ("h3", "s2", 1)]
SWITCH_LINKS = [("s1", 3, "s2", 2)]


def lpm(dst, length, mac, port):
    return {
        "table": "RouterIngress.ipv4_lpm",
        "match": {"hdr.ipv4.dst_addr": [dst, length]},
        "action_name": "RouterIngress.set_nexthop",
        "action_params": {"next_mac": mac, "port": port},
    }


def source_mac(port, mac):
    return {
        "table": "RouterEgress.port_mac",
        "match": {"standard_metadata.egress_port": port},
        "action_name": "RouterEgress.rewrite_source",
        "action_params": {"smac": mac},
    }


def runtime_files():
    """sN-runtime.json in the tutorials' schema."""
    drop = {"table": "RouterIngress.ipv4_lpm", "default_action": True, "action_name": "RouterIngress.drop", "action_params": {}}
    return {
        "s1": [
            drop,
            lpm("10.0.1.1", 32, HOSTS["h1"][1], 1),
            lpm("10.0.2.2", 32, HOSTS["h2"][1], 2),
            lpm("10.0.3.0", 24, "08:00:00:00:03:00", 3),
            source_mac(1, "08:00:00:00:01:00"),
            source_mac(2, "08:00:00:00:02:00"),
            source_mac(3, "08:00:00:00:01:03"),
        ],
        "s2": [
            drop,
            lpm("10.0.3.3", 32, HOSTS["h3"][1], 1),
            lpm("10.0.0.0", 16, "08:00:00:00:01:00", 2),
            source_mac(1, "08:00:00:00:03:00"),
            source_mac(2, "08:00:00:00:03:02"),
        ],
    }


class ExerciseTopo(Topo):
    def build(self):
        for name, (ip, mac, _) in HOSTS.items():
            self.addHost(name, ip=ip, mac=mac)
        for sw in sorted({s for _, s, _ in HOST_LINKS}):
            self.addSwitch(sw)
        for host, sw, port in HOST_LINKS:
            self.addLink(host, sw, port2=port)
        for a, pa, b, pb in SWITCH_LINKS:
            self.addLink(a, b, port1=pa, port2=pb)


class TutorialStyleSwitch(JanusSwitch):
    """The tutorials' switch start: one executable and one shell string,
    the options in their order; JanusSwitch's start/stop wait for the
    gRPC port and reap the process."""

    def command(self):
        args = [self.sw_path]
        for port, intf in sorted(self.intfs.items()):
            if not intf.IP() and intf.name != "lo":
                args.extend(["-i", f"{port}@{intf.name}"])
        if self.pcap_dir:
            os.makedirs(self.pcap_dir, exist_ok=True)
            args.append(f"--pcap {self.pcap_dir}")
        args.extend(["--nanolog", f"ipc:///tmp/bm-{self.device_id}-log.ipc"])
        args.extend(["--device-id", str(self.device_id)])
        args.append("--no-p4")
        args.append("--log-console")
        args.append(f"--thrift-port {9090 + self.device_id}")
        args.append(f"-- --grpc-server-addr 0.0.0.0:{self.grpc_port}")
        args.append(f"--cpu-port {CPU_PORT}")
        return ["sh", "-c", "exec " + " ".join(args)]


def program_switch(sw, runtime_path, workdir):
    """What a tutorials controller does with sN-runtime.json."""
    with open(runtime_path, encoding="utf-8") as f:
        conf = json.load(f)
    client = P4RuntimeClient(sw.grpc_addr, sw.device_id, os.path.join(workdir, conf["p4info"]))
    try:
        # The device config as the tutorials' bmv2 helper reads it: text.
        with open(os.path.join(workdir, conf["bmv2_json"])) as f:
            client.set_pipeline(f.read().encode("utf-8"))
        for entry in conf["table_entries"]:
            match = {k: tuple(v) if isinstance(v, list) else v for k, v in entry.get("match", {}).items()}
            client.insert(
                entry["table"],
                match,
                entry["action_name"],
                entry.get("action_params", {}),
                default=entry.get("default_action", False),
            )
    finally:
        client.close()
    info(f"*** {sw.name}: pipeline pushed, {len(conf['table_entries'])} entries written\n")


def nanolog_subscriber(sw):
    """A nanomsg SUB socket (pynng) on the switch's `--nanolog` address,
    taking every event."""
    sub = pynng.Sub0(recv_timeout=2000)
    sub.subscribe(b"")
    sub.dial(f"ipc:///tmp/bm-{sw.device_id}-log.ipc", block=True)
    return sub


def nanolog_events(sub):
    """(type, switch id, port) of the events received until a quiet 2 s:
    bmv2's packed header (type, switch id, context, signature, packet id,
    copy id) and, for PACKET_IN and PACKET_OUT, the port."""
    events = []
    while True:
        try:
            msg = sub.recv()
        except pynng.Timeout:
            return events
        if len(msg) >= 40:
            kind, switch_id, _cxt, _sig, _id, _copy, port = struct.unpack_from("<iiiQQQi", msg)
            events.append((kind, switch_id, port))


def run_checks(net, checks):
    for name, (_, _, commands) in HOSTS.items():
        host = net.get(name)
        for cmd in commands:
            host.cmd(cmd.format(intf=host.defaultIntf().name))
    s2 = net.get("s2")
    sub = nanolog_subscriber(s2)
    loss = net.pingAll(timeout="1")
    checks.check(loss == 0, f"pingall: {loss:g}% loss")
    for src, dst, ttl in [("h1", "h2", 63), ("h1", "h3", 62), ("h3", "h2", 62)]:
        out = net.get(src).cmd(f"ping -c 1 -W 2 {net.get(dst).IP()}")
        seen = re.search(r"ttl=(\d+)", out)
        checks.check(seen is not None and int(seen.group(1)) == ttl, f"{src} -> {dst}: ttl={seen.group(1) if seen else 'none'} (want {ttl})")
    events = nanolog_events(sub)
    sub.close()
    ins = {port for kind, sid, port in events if kind == 0 and sid == s2.device_id}
    outs = {port for kind, sid, port in events if kind == 1 and sid == s2.device_id}
    checks.check(
        ins == {1, 2} and outs == {1, 2},
        f"s2's --nanolog events: PACKET_IN on ports {sorted(ins)}, PACKET_OUT on ports {sorted(outs)} (want [1, 2] each)",
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--janus", default=shutil.which("janus") or "janus", help="the janus binary (the compile step)")
    ap.add_argument("--janus-switch", default=shutil.which("janus-switch") or "janus-switch", help="the switch executable")
    ap.add_argument("--work", required=True, help="the exercise directory (made)")
    ap.add_argument("--state", help="a JSON file naming the switch interfaces (for clean-up by the caller)")
    ap.add_argument("--time-limit", type=int, default=120, help="seconds for everything but the clean-up")
    args = ap.parse_args()
    work = os.path.abspath(args.work)
    os.makedirs(os.path.join(work, "build"), exist_ok=True)
    arm_time_limit(args.time_limit)
    setLogLevel("info")

    shutil.copy(os.path.join(REPO, "p4/examples/l3_router_acl.p4"), os.path.join(work, f"{PROGRAM}.p4"))
    for sw, entries in runtime_files().items():
        with open(os.path.join(work, f"{sw}-runtime.json"), "w", encoding="utf-8") as f:
            json.dump({"target": "bmv2", "p4info": P4INFO, "bmv2_json": DEVICE_CONFIG, "table_entries": entries}, f, indent=2)

    checks = Checks()
    topo = ExerciseTopo()
    intfs = [f"{sw}-eth{port}" for sw in topo.switches() for port in sorted(topo.ports.get(sw, {}))]
    if args.state:
        with open(args.state, "w", encoding="utf-8") as f:
            json.dump({"interfaces": intfs}, f)
    delete_interfaces(intfs)
    switch = partial(
        TutorialStyleSwitch, sw_path=args.janus_switch, grpc_ip="0.0.0.0", log_dir=work, pcap_dump=os.path.join(work, "pcaps")
    )
    net = Mininet(topo=topo, switch=switch, host=JanusHost, controller=None, build=False)
    try:
        # The Makefile's compile step, p4c-bm2-ss's arguments unchanged.
        subprocess.run(
            [args.janus, "p4", "compile", "--p4v", "16", "--p4runtime-files", P4INFO, "-o", DEVICE_CONFIG, f"{PROGRAM}.p4"],
            check=True,
            timeout=120,
            cwd=work,
        )
        net.build()
        net.start()
        for sw in net.switches:
            program_switch(sw, os.path.join(work, f"{sw.name}-runtime.json"), work)
        run_checks(net, checks)
        pcaps = sorted(os.listdir(os.path.join(work, "pcaps")))
        checks.check("s1-eth1_in.pcap" in pcaps and "s1-eth1_out.pcap" in pcaps, f"--pcap wrote {', '.join(pcaps)}")
    except Exception as e:  # noqa: BLE001: reported, then the network is stopped
        checks.check(False, f"{type(e).__name__}: {e}")
    finally:
        disarm_time_limit()
        stop_and_check(net, intfs, checks)
    return checks.exit_code()


if __name__ == "__main__":
    sys.exit(main())
