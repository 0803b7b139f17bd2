"""What the Mininet scripts share: the checks they report, a time limit
that stops the network as a failure would, and a clean-up that leaves no
interface behind."""

import os
import signal
import subprocess
import time


class Overrun(Exception):
    """The time limit, or SIGTERM."""


def arm_time_limit(seconds):
    """SIGTERM, or `seconds` passing, raises Overrun in the main thread."""

    def overrun(signum, _frame):
        signal.alarm(0)
        raise Overrun(f"stopped by signal {signum} (time limit {seconds} s)")

    signal.signal(signal.SIGTERM, overrun)
    signal.signal(signal.SIGALRM, overrun)
    signal.alarm(seconds)


def disarm_time_limit():
    """No more Overrun: the clean-up runs to its end."""
    signal.alarm(0)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class Checks:
    """Named checks, printed as `ok:` or `FAILED:`, and measured figures."""

    def __init__(self):
        self.failed = []
        self.results = {}

    def check(self, ok, what):
        print(f"{'ok' if ok else 'FAILED'}: {what}", flush=True)
        if not ok:
            self.failed.append(what)
        return ok

    def exit_code(self):
        """Prints the verdict: 0 when every check passed, 1 otherwise."""
        if self.failed:
            print(f"{len(self.failed)} check(s) failed: {'; '.join(self.failed)}", flush=True)
            return 1
        print("every check passed", flush=True)
        return 0


def delete_interfaces(names):
    """Deletes those of `names` that exist in this namespace."""
    for name in names:
        if os.path.exists(f"/sys/class/net/{name}"):
            subprocess.run(["ip", "link", "del", name], timeout=20, check=False)


def stop_network(net, intfs):
    """net.stop(), also after an interrupted command (a node still waiting
    for its shell's answer) or a half-built network; what Mininet could not
    stop is stopped here."""
    for node in net.hosts + net.switches:
        if node.shell and node.waiting:
            # ^C, and again (iperf stops at the second one).
            for _ in range(2):
                node.sendInt()
                deadline = time.monotonic() + 2
                while node.waiting and time.monotonic() < deadline:
                    node.monitor(timeoutms=200)
            node.waiting = False
    try:
        net.stop()
    except Exception as e:  # noqa: BLE001
        print(f"net.stop() failed ({type(e).__name__}: {e}); stopping what is left", flush=True)
        for node in net.switches + net.hosts:
            try:
                node.terminate()
            except Exception as e2:  # noqa: BLE001
                print(f"{node.name}: {e2}", flush=True)
    delete_interfaces(intfs)


def stop_and_check(net, intfs, checks):
    """Stops the network, then checks that every switch process was reaped
    and no switch interface is left."""
    processes = [s.process for s in net.switches if getattr(s, "process", None)]
    stop_network(net, intfs)
    checks.check(all(p.poll() is not None for p in processes), "every janus switch is stopped and reaped")
    left = [i for i in intfs if os.path.exists(f"/sys/class/net/{i}")]
    checks.check(not left, f"no switch interface is left ({', '.join(left) or 'none'})")
