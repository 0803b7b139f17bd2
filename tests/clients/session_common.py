"""What the P4Runtime client sessions share: their command line, the frames
they send and how they fail. Plain Python (no client library), so that both
client venvs can import it.

The sessions drive `tests/clients/loopback.p4`: table `fwd` (exact on
`hdr.eth.dst`, actions `punt(reason)` and `drop`), counter `punted`
(indexed by reason), controller headers `packet_out { tag }` and
`packet_in { ingress_port, tag, reason }`.
"""

import argparse
import os
import sys
import traceback

# The destination MACs of the entries the sessions write.
DST_A = "00:00:00:00:00:0a"
DST_B = "00:00:00:00:00:0b"


def parse_args(description):
    """The sessions' command line: server, pipeline files or the refusal
    check, TLS files, expectations."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--addr", required=True, help="server address, HOST:PORT")
    p.add_argument("--p4info", help="P4Info (text format); required for the session")
    p.add_argument("--device-config", help="janus p4 compile -o output; required for the session")
    p.add_argument("--ca-cert", help="mTLS: the CA the server's certificate chains to (PEM)")
    p.add_argument("--cert", help="mTLS: the client certificate (PEM)")
    p.add_argument("--key", help="mTLS: the client's private key (PEM)")
    p.add_argument(
        "--check-refusals",
        action="store_true",
        help="instead of the session: check that the mTLS server refuses a client "
        "without a certificate and one with --stranger-cert, and answers one with --cert",
    )
    p.add_argument("--stranger-cert", help="a client certificate of another CA (PEM)")
    p.add_argument("--stranger-key", help="its private key (PEM)")
    p.add_argument("--device-id", type=int, default=1)
    p.add_argument(
        "--cpu-port",
        type=int,
        default=510,
        help="the server's CPU port: expected in each PacketIn's ingress_port",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=3.0,
        help="seconds to wait for each PacketIn",
    )
    args = p.parse_args()
    if (args.cert is None) != (args.key is None) or (args.cert and not args.ca_cert):
        p.error("--cert and --key go together, with --ca-cert")
    if args.check_refusals:
        if not (args.cert and args.stranger_cert and args.stranger_key):
            p.error("--check-refusals needs --ca-cert, --cert, --key, --stranger-cert, --stranger-key")
    elif not (args.p4info and args.device_config):
        p.error("the session needs --p4info and --device-config")
    return args


def read_pem(path):
    """The bytes of a PEM file, or None for no path."""
    if path is None:
        return None
    with open(path, "rb") as f:
        return f.read()


def refusal_cases(args):
    """The credentials the refusal check tries, as (what, cert, key, refused):
    no client certificate, another CA's, then the good one."""
    return [
        ("no client certificate", None, None, True),
        ("a certificate of another CA", args.stranger_cert, args.stranger_key, True),
        ("the operator's certificate", args.cert, args.key, False),
    ]


def frame(dst):
    """An Ethernet frame to `dst` (aa:bb:..) from 02:00:00:00:00:01."""
    mac = bytes(int(b, 16) for b in dst.split(":"))
    return mac + bytes([2, 0, 0, 0, 0, 1]) + b"\x88\xb5" + b"janus client session"


class SessionError(Exception):
    """A deviation from what the session expects."""


def expect(cond, what):
    """Fails the session with `what` unless `cond` holds."""
    if not cond:
        raise SessionError(what)


def step(name):
    """Logs the start of a step (the Rust test prints this on failure)."""
    print(f"--- {name}", flush=True)


def run(main):
    """Runs `main()`, exiting 0 on success and 1 with a clear message on any
    deviation or exception. Exits with `os._exit` so that a client library's
    lingering stream threads cannot keep a failed session alive."""
    code = 0
    try:
        main()
        print("session passed", flush=True)
    except SessionError as e:
        print(f"FAILED: {e}", file=sys.stderr)
        code = 1
    except BaseException as e:  # noqa: BLE001 - any client error fails the session
        traceback.print_exc()
        print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
