#!/usr/bin/env python3
"""A Mininet topology on `janus switch`, programmed over P4Runtime.

Two JanusSwitches in a line, four hosts, running p4/examples/l3_router_acl.p4
(an IPv4 router: LPM routes, a const ACL, next-hop and source MAC
rewriting, TTL decrement):

    h1 --1-+
    h2 --2-+ s1 -4---2- s2 -1-- h4
    h3 --3-+

Hosts are 10.0.0.N/8 with MAC 00:00:00:00:00:0N and static ARP entries
(Mininet's autoSetMacs, autoStaticArp); no controller (controller=None).
The script:

1. compiles the program (`janus p4 compile`, P4Info text and .pipeline);
   s1 starts on the .pipeline file, s2 on the P4 source;
2. writes routes over P4Runtime (grpc stubs of the `p4runtime` package):
   s1 a /32 per host, s2 a /32 for h4 and 10.0.0.0/8 towards s1 (the
   longest prefix wins), and a source MAC per egress port on both;
3. checks: pingall with 0% loss; TTLs of 63 through one switch and 62
   through two (the packets went through the P4 pipeline); TCP to port 22
   is dropped by the program's ACL while a listener waits there; an iperf
   TCP stream h1 -> h4 (both switches) for --iperf-seconds, throughput
   above 0; a JanusSwitch whose program does not compile fails its start
   with janus's message;
4. stops the network, whatever happened, and checks that no switch
   interface and no janus process is left.

Exit 0 when every check passed, 1 otherwise. Root is needed. Run with a
Python that has `grpcio` and `p4runtime` (e.g. target/venv-ptf, made by
scripts/test); Debian's Mininet (/usr/lib/python3/dist-packages) is found
by itself:

    sudo target/venv-ptf/bin/python tests/mininet/router_topology.py \
        --janus target/debug/janus --work /tmp/janus-mininet
"""

import argparse
import json
import os
import subprocess
import sys
import time
from functools import partial

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
try:
    import mininet  # noqa: F401
except ImportError:
    # Debian's mininet package installs it for the system Python.
    sys.path.append("/usr/lib/python3/dist-packages")

from mininet.log import info, setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402
from mininet.topo import Topo  # noqa: E402

from janus_switch import JanusHost, JanusSwitch, JanusSwitchError  # noqa: E402
from harness import Checks, arm_time_limit, delete_interfaces, disarm_time_limit, stop_and_check  # noqa: E402
from p4rt_client import P4RuntimeClient  # noqa: E402


def mac(i):
    return f"00:00:00:00:00:{i:02x}"


class RouterLine(Topo):
    """s1 with h1, h2, h3; s2 with h4; s1 port 4 to s2 port 2."""

    def build(self, s1_program, s2_program):
        s1 = self.addSwitch("s1", program=s1_program)
        s2 = self.addSwitch("s2", program=s2_program)
        for i in (1, 2, 3):
            self.addLink(self.addHost(f"h{i}"), s1, port2=i)
        self.addLink(self.addHost("h4"), s2, port2=1)
        self.addLink(s1, s2, port1=4, port2=2)


# Routes: switch -> [(prefix, length, next-hop MAC, port)].
ROUTES = {
    "s1": [(f"10.0.0.{i}", 32, mac(i), i) for i in (1, 2, 3)] + [("10.0.0.4", 32, mac(4), 4)],
    "s2": [("10.0.0.4", 32, mac(4), 1), ("10.0.0.0", 8, "02:00:00:00:01:04", 2)],
}


def program_switch(sw, p4info):
    client = P4RuntimeClient(sw.grpc_addr, sw.device_id, p4info)
    try:
        for prefix, length, next_mac, port in ROUTES[sw.name]:
            client.insert(
                "ipv4_lpm",
                {"hdr.ipv4.dst_addr": (prefix, length)},
                "set_nexthop",
                {"next_mac": next_mac, "port": port},
            )
        n = int(sw.name[1:])
        for port in sorted(p for p in sw.ports.values() if p > 0):
            client.insert(
                "port_mac",
                {"standard_metadata.egress_port": port},
                "rewrite_source",
                {"smac": f"02:00:00:00:{n:02x}:{port:02x}"},
            )
    finally:
        client.close()
    info(f"*** {sw.name} ({sw.grpc_addr}, device {sw.device_id}): {len(ROUTES[sw.name])} routes written\n")


def wait_listening(host, port, limit=10.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if host.cmd(f"ss -ltnH 'sport = :{port}'").strip():
            return True
        time.sleep(0.1)
    return False


def run_checks(net, args, checks, work):
    h1, h2, h4 = net.get("h1", "h2", "h4")
    loss = net.pingAll(timeout="2")
    checks.results["pingall_loss_percent"] = loss
    checks.check(loss == 0, f"pingall: {loss:g}% loss")
    for src, dst, ttl in ((h1, h2, 63), (h1, h4, 62), (h4, h2, 62)):
        out = src.cmd(f"ping -c 1 -W 2 {dst.IP()}")
        checks.check(f"ttl={ttl}" in out, f"{src.name} -> {dst.name}: ttl={ttl} (routed by {64 - ttl} switch(es))")
    servers = []
    try:
        for port in (22, 5001):
            servers.append(h4.popen(["iperf", "-s", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            checks.check(wait_listening(h4, port), f"iperf server listens on h4 port {port}")
        # The ACL denies TCP to port 22 from 10/8: the SYN is dropped, the
        # connection times out (rc 124) instead of being accepted.
        out = h1.cmd(f"timeout 2 bash -c 'exec 3<>/dev/tcp/{h4.IP()}/22' 2>&1; echo rc=$?")
        checks.check("rc=124" in out, f"TCP h1 -> h4:22 dropped by the ACL ({out.strip().splitlines()[-1]})")
        limit = args.iperf_seconds + 20
        out = h1.cmd(f"timeout -k 2 {limit} iperf -c {h4.IP()} -p 5001 -t {args.iperf_seconds} -y C 2>&1")
        rate = 0.0
        for line in out.splitlines():
            fields = line.strip().split(",")
            if len(fields) >= 9 and fields[-1].isdigit():
                rate = int(fields[-1]) / 1e6
        checks.results["iperf_mbits"] = rate
        checks.check(rate > 0, f"iperf TCP h1 -> h4 through s1 and s2: {rate:.1f} Mbit/s over {args.iperf_seconds} s")
        if rate == 0:
            print(out)
    finally:
        for s in servers:
            s.terminate()
            try:
                s.wait(timeout=5)
            except subprocess.TimeoutExpired:
                s.kill()
                s.wait(timeout=5)
    # A program that does not compile: start() fails with janus's words.
    broken = os.path.join(work, "broken.p4")
    with open(broken, "w", encoding="utf-8") as f:
        f.write("this is not P4\n")
    bad = net.addSwitch("s9", cls=JanusSwitch, sw_path=args.janus, program=broken, log_dir=work)
    try:
        bad.start([])
        checks.check(False, "a switch whose program does not compile fails to start")
    except JanusSwitchError as e:
        checks.check("exited (2)" in str(e), f"a switch whose program does not compile fails to start: {str(e).splitlines()[0]}")
    checks.check(not bad.connected(), "and is not left running")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--janus", default=os.environ.get("JANUS_BIN", "janus"), help="the janus binary")
    ap.add_argument("--program", default=os.path.join(REPO, "p4/examples/l3_router_acl.p4"))
    ap.add_argument("--work", required=True, help="a directory for the compiled program and the logs")
    ap.add_argument("--state", help="a JSON file naming the switch interfaces (for clean-up by the caller)")
    ap.add_argument("--iperf-seconds", type=int, default=3)
    ap.add_argument("--pcap", action="store_true", help="captures in WORK/pcap")
    ap.add_argument("--results", help="a JSON file for the measured figures")
    ap.add_argument("--time-limit", type=int, default=120, help="seconds for everything but the clean-up")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    arm_time_limit(args.time_limit)
    setLogLevel("info")

    p4info = os.path.join(args.work, "router.p4info.txt")
    pipeline = os.path.join(args.work, "router.pipeline")
    switch = partial(
        JanusSwitch,
        sw_path=args.janus,
        log_dir=args.work,
        pcap_dump=os.path.join(args.work, "pcap") if args.pcap else False,
    )
    checks = Checks()
    topo = RouterLine(s1_program=pipeline, s2_program=args.program)
    # The root-namespace interfaces the switches get, named before they
    # exist: for the caller's clean-up, and to remove a killed run's
    # leftovers (Mininet's links do not replace an interface of the name).
    intfs = [f"{sw}-eth{port}" for sw in topo.switches() for port in sorted(topo.ports.get(sw, {}))]
    if args.state:
        with open(args.state, "w", encoding="utf-8") as f:
            json.dump({"interfaces": intfs}, f)
    delete_interfaces(intfs)
    net = Mininet(
        topo=topo,
        switch=switch,
        host=JanusHost,
        controller=None,
        autoSetMacs=True,
        autoStaticArp=True,
        build=False,
    )
    try:
        subprocess.run(
            [args.janus, "p4", "compile", args.program, "--p4runtime-files", p4info, "-o", pipeline],
            check=True,
            timeout=120,
        )
        net.build()
        net.start()
        for sw in net.switches:
            program_switch(sw, p4info)
        run_checks(net, args, checks, args.work)
    except Exception as e:  # noqa: BLE001: reported, then the network is stopped
        checks.check(False, f"{type(e).__name__}: {e}")
    finally:
        disarm_time_limit()
        stop_and_check(net, intfs, checks)
    if args.results:
        with open(args.results, "w", encoding="utf-8") as f:
            json.dump(checks.results, f)
    return checks.exit_code()


if __name__ == "__main__":
    sys.exit(main())
