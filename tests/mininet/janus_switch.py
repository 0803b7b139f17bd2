"""Mininet nodes for `janus switch`, the drop-in for bmv2's simple_switch_grpc.

`JanusSwitch` is a Mininet switch that runs `janus switch` with one
`-i PORT@INTF` per Mininet interface (the port numbers are Mininet's: 1, 2,
... in the order links are added), as the p4lang tutorials'
`P4RuntimeSwitch` (utils/p4runtime_switch.py) and p4-utils run
simple_switch_grpc. `JanusHost` is a host with checksum and segmentation
offloads turned off on its interfaces, as the tutorials' `P4Host` does: the
switch sees every frame as the wire carries it, whole and with its
checksums (TCP needs this; ping works either way).

    from mininet.net import Mininet
    from mininet.topo import Topo
    from janus_switch import JanusHost, JanusSwitch

    class Line(Topo):
        def build(self):
            s1 = self.addSwitch("s1", program="router.p4", grpc_port=50051)
            for i in (1, 2):
                self.addLink(self.addHost(f"h{i}"), s1)

    net = Mininet(topo=Line(), switch=JanusSwitch, host=JanusHost,
                  controller=None, autoSetMacs=True, autoStaticArp=True)
    net.start()          # each switch's gRPC port accepts connections now
    ...                  # program the switches over P4Runtime
    net.stop()           # each janus switch is terminated and reaped

Switch options (`addSwitch(name, **options)`, or `partial(JanusSwitch,
...)` for all switches):

    sw_path       the janus binary (default: $JANUS_BIN, else `janus` on
                  the PATH)
    program       the P4 program: P4 source (compiled at start-up) or a
                  `.pipeline` file (`janus p4 compile`); `json_path` is
                  taken as a synonym (a bmv2 JSON is refused by janus with
                  what to give instead). Neither, or `no_p4=True`: the
                  switch starts without one (`--no-p4`) and a controller
                  pushes it (SetForwardingPipelineConfig)
    grpc_ip       the P4Runtime listen address (default 127.0.0.1;
                  0.0.0.0 as the tutorials, which janus takes with a
                  warning)
    grpc_port     the P4Runtime port (default: the next free port from
                  50051 on, one per switch, as the tutorials)
    device_id     the P4Runtime device id (default: 0, 1, 2, ... in the
                  order switches are made)
    cpu_port      the CPU port (`-- --cpu-port N`; default none: janus
                  uses 510)
    thrift_port   passed on (janus accepts it and has no Thrift server)
    log_console   per-packet traces and debug logs (`--log-console`) into
                  the log file; slows the switch down a lot
    log_level     `-L LEVEL` with log_console
    log_file      where janus's output goes (default
                  `{log_dir}/{name}.log`, log_dir default /tmp)
    pcap_dump     True (captures in /tmp) or a directory (made if missing):
                  `--pcap DIR`, `<intf>_in.pcap` and `<intf>_out.pcap`
    start_timeout how long start() waits for the gRPC port (default 60 s;
                  a P4 source is compiled first)
    switch_args   more `janus switch` options (e.g. ["-I", "dir", "-D",
                  "X"]), before the program
    target_args   more target options, after `--` (e.g. ["--state", dir])

start() returns once the gRPC port accepts TCP connections and raises
`JanusSwitchError` (with the end of the log) when janus exits first or
the port stays closed past start_timeout. stop() terminates janus (SIGTERM,
then SIGKILL after 5 s), reaps it, and then does what Mininet's Switch.stop
does (the interfaces are deleted).

Only the standard library and Mininet are needed (Debian's `mininet`
package installs it for /usr/bin/python3).
"""

import os
import shutil
import signal
import socket
import subprocess
import time

from mininet.log import debug, error, info
from mininet.node import Host, Switch

__all__ = ["JanusHost", "JanusSwitch", "JanusSwitchError"]

ETHTOOL = shutil.which("ethtool") or "/usr/sbin/ethtool"


class JanusSwitchError(Exception):
    """A janus switch that could not be started."""


def _port_free(ip, port):
    """Whether nothing listens on ip:port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex((ip if ip not in ("0.0.0.0", "") else "127.0.0.1", port)) != 0


def _tail(path, lines=30):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError as e:
        return f"(no log: {e})"


class JanusSwitch(Switch):
    """A Mininet switch running `janus switch` (simple_switch_grpc's
    command line) over P4Runtime."""

    next_grpc_port = 50051
    next_device_id = 0

    def __init__(
        self,
        name,
        sw_path=None,
        program=None,
        json_path=None,
        no_p4=False,
        grpc_ip="127.0.0.1",
        grpc_port=None,
        device_id=None,
        cpu_port=None,
        thrift_port=None,
        log_console=False,
        log_level=None,
        log_file=None,
        log_dir="/tmp",
        pcap_dump=False,
        start_timeout=60.0,
        switch_args=(),
        target_args=(),
        **kwargs,
    ):
        Switch.__init__(self, name, **kwargs)
        self.sw_path = sw_path or os.environ.get("JANUS_BIN") or shutil.which("janus") or "janus"
        self.program = program or json_path
        self.no_p4 = no_p4 or not self.program
        if self.program and not self.no_p4 and not os.path.exists(self.program):
            raise JanusSwitchError(f"{name}: no program at {self.program}")
        self.grpc_ip = grpc_ip
        if grpc_port is None:
            grpc_port = JanusSwitch.next_grpc_port
            while not _port_free(grpc_ip, grpc_port):
                grpc_port += 1
        JanusSwitch.next_grpc_port = max(JanusSwitch.next_grpc_port, grpc_port + 1)
        self.grpc_port = int(grpc_port)
        if device_id is None:
            device_id = JanusSwitch.next_device_id
        JanusSwitch.next_device_id = max(JanusSwitch.next_device_id, device_id + 1)
        self.device_id = int(device_id)
        self.cpu_port = cpu_port
        self.thrift_port = thrift_port
        self.log_console = log_console
        self.log_level = log_level
        self.log_file = log_file or os.path.join(log_dir, f"{name}.log")
        if pcap_dump is True:
            pcap_dump = "/tmp"
        self.pcap_dir = pcap_dump or None
        self.start_timeout = float(start_timeout)
        self.switch_args = list(switch_args)
        self.target_args = list(target_args)
        self.process = None

    @property
    def grpc_addr(self):
        """HOST:PORT for a P4Runtime client."""
        ip = "127.0.0.1" if self.grpc_ip in ("0.0.0.0", "") else self.grpc_ip
        return f"{ip}:{self.grpc_port}"

    def ports_args(self):
        """`-i PORT@INTF` for every data interface (not the loopback
        Mininet gives a root-namespace switch as port 0)."""
        args = []
        for port, intf in sorted(self.intfs.items()):
            if intf.name == "lo" or port == 0:
                continue
            args += ["-i", f"{port}@{intf.name}"]
        return args

    def command(self):
        """The `janus switch` command line."""
        cmd = [self.sw_path, "switch"] + self.ports_args()
        cmd += ["--device-id", str(self.device_id)]
        if self.thrift_port is not None:
            cmd += ["--thrift-port", str(self.thrift_port)]
        if self.log_console:
            cmd.append("--log-console")
            if self.log_level:
                cmd += ["-L", self.log_level]
        if self.pcap_dir:
            os.makedirs(self.pcap_dir, exist_ok=True)
            cmd += ["--pcap", self.pcap_dir]
        cmd += self.switch_args
        cmd += ["--no-p4"] if self.no_p4 else [self.program]
        cmd += ["--", "--grpc-server-addr", f"{self.grpc_ip}:{self.grpc_port}"]
        if self.cpu_port is not None:
            cmd += ["--cpu-port", str(self.cpu_port)]
        cmd += self.target_args
        return cmd

    def start(self, controllers=None):
        """Starts janus and waits (at most start_timeout) until its gRPC
        port accepts connections."""
        if self.process is not None and self.process.poll() is None:
            return
        if not _port_free(self.grpc_ip, self.grpc_port):
            raise JanusSwitchError(f"{self.name}: something already listens on {self.grpc_addr}")
        cmd = self.command()
        info(f"*** {self.name}: {' '.join(cmd)}\n")
        log = open(self.log_file, "wb")
        try:
            # In the switch's namespace (the root one unless inNamespace),
            # detached from Mininet's terminal; the Popen's pid is janus's.
            self.process = self.popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        finally:
            log.close()
        deadline = time.monotonic() + self.start_timeout
        host, port = self.grpc_addr.rsplit(":", 1)
        while True:
            code = self.process.poll()
            if code is not None:
                self.process = None
                raise JanusSwitchError(
                    f"{self.name}: janus switch exited ({code}) before serving on {self.grpc_addr}; "
                    f"{self.log_file} ends:\n{_tail(self.log_file)}"
                )
            try:
                with socket.create_connection((host, int(port)), timeout=0.5):
                    break
            except OSError:
                pass
            if time.monotonic() >= deadline:
                self._terminate()
                raise JanusSwitchError(
                    f"{self.name}: {self.grpc_addr} did not accept connections within "
                    f"{self.start_timeout:g} s; {self.log_file} ends:\n{_tail(self.log_file)}"
                )
            time.sleep(0.05)
        debug(f"{self.name}: janus switch (pid {self.process.pid}) serves on {self.grpc_addr}\n")

    def _terminate(self, grace=5.0):
        """SIGTERM, then SIGKILL after `grace` seconds; reaps it."""
        proc, self.process = self.process, None
        if proc is None:
            return None
        if proc.poll() is None:
            try:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                error(f"{self.name}: janus switch ignored SIGTERM; killing it\n")
                proc.kill()
                proc.wait(timeout=grace)
            except ProcessLookupError:
                pass
        return proc.returncode

    def stop(self, deleteIntfs=True):
        """Terminates and reaps janus, then stops the Mininet node."""
        self._terminate()
        Switch.stop(self, deleteIntfs)

    def terminate(self):
        self._terminate()
        Switch.terminate(self)

    def connected(self):
        """Whether janus runs (and so serves P4Runtime)."""
        return self.process is not None and self.process.poll() is None


class JanusHost(Host):
    """A host whose interfaces carry whole frames with their checksums (no
    checksum, scatter-gather or segmentation offloads), and no IPv6, as the
    tutorials' P4Host. Needs `ethtool`."""

    def config(self, **params):
        r = Host.config(self, **params)
        for intf in self.intfList():
            if intf.name == "lo":
                continue
            out = self.cmd(f"{ETHTOOL} --offload {intf.name} rx off tx off sg off tso off gso off gro off 2>&1; echo rc=$?")
            if "rc=0" not in out and "rc=" in out:
                # Some features cannot be changed on every device; say so.
                debug(f"{self.name}: ethtool {intf.name}: {out}")
        self.cmd("sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1")
        return r
