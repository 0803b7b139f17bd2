"""A scripted p4runtime-shell session against `janus ctrl serve`.

Runs in the venv `scripts/test` makes (target/venv-p4rt-shell):

    python tests/clients/p4rt_shell_session.py --addr 127.0.0.1:9559 \
        --p4info loopback.p4info.txtpb --device-config loopback.pipeline

Pushes the pipeline with `sh.setup(config=...)`, then: table entries
inserted, read back, modified and deleted (each checked by a PacketOut
whose PacketIn shows the entry's action), counters read, a backup client's
write refused, a batch with one bad update. Exit 0 when every step behaves,
1 with a message naming the step otherwise.

With `--ca-cert CA --cert C --key K` the session runs over mTLS
(`SSLOptions(False, CA, C, K)`). With `--check-refusals` (and
`--stranger-cert/--stranger-key`, a certificate of another CA) it checks
instead that an mTLS server refuses a client without a certificate and one
with the stranger's, and answers one with `--cert`.
"""

import grpc
from google.rpc import code_pb2, status_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

import p4runtime_sh.shell as sh
from p4runtime_sh.p4runtime import P4RuntimeClient, SSLOptions

from session_common import (
    DST_A,
    DST_B,
    SessionError,
    expect,
    frame,
    parse_args,
    read_pem,
    refusal_cases,
    run,
    step,
)

# Seconds a refused client may take to notice.
REFUSAL_TIMEOUT = 5


def fwd_entry(dst, reason=None):
    """A `fwd` entry for `dst`, with `punt(reason)` when a reason is given."""
    te = sh.TableEntry("fwd")(action="punt") if reason is not None else sh.TableEntry("fwd")
    te.match["hdr.eth.dst"] = dst
    if reason is not None:
        te.action["reason"] = str(reason)
    return te


def read_fwd():
    """The `fwd` entries as {dst bytes: reason bytes}."""
    out = {}
    for e in sh.TableEntry("fwd").read():
        m = e.msg()
        expect(m.action.action.params, f"entry without action params read back: {m}")
        out[m.match[0].exact.value] = m.action.action.params[0].value
    return out


def md(packet, name, info):
    """The value of PacketIn metadata `name` as an int."""
    for m in packet.metadata:
        if m.metadata_id == info[name]:
            return int.from_bytes(m.value, "big")
    raise AssertionError(f"PacketIn without metadata {name}: {packet}")


def ssl_options(args, cert=None, key=None):
    """The shell's TLS options: plaintext without --ca-cert, else TLS with
    the given client certificate (none when `cert` is None)."""
    if args.ca_cert is None:
        return None
    return SSLOptions(False, args.ca_cert, cert, key)


def main():
    args = parse_args(__doc__)
    if args.check_refusals:
        check_refusals(args)
        return
    transport = "mTLS" if args.ca_cert else "plaintext"
    step(f"setup: connect to {args.addr} ({transport}), push the pipeline")
    sh.setup(
        device_id=args.device_id,
        grpc_addr=args.addr,
        election_id=(0, 10),
        config=sh.FwdPipeConfig(args.p4info, args.device_config),
        ssl_options=ssl_options(args, args.cert, args.key),
        verbose=False,
    )
    try:
        session(args)
    finally:
        sh.teardown()


def check_refusals(args):
    """Each of `refusal_cases`: the shell's client must fail to set up its
    session when refused (it exits), succeed otherwise; a Capabilities call
    on a channel with the same credentials must fail with UNAVAILABLE (the
    TLS handshake fails) when refused, succeed otherwise."""
    for what, cert, key, refused in refusal_cases(args):
        step(f"{what}: {'refused' if refused else 'answered'}")
        try:
            client = P4RuntimeClient(args.device_id, args.addr, (0, 1), ssl_options=ssl_options(args, cert, key))
        except SystemExit:
            client = None
        if client is not None:
            client.tear_down()
        expect((client is None) == refused, f"{what}: the shell's session was {'set up' if client else 'not set up'}")
        credentials = grpc.ssl_channel_credentials(read_pem(args.ca_cert), read_pem(key), read_pem(cert))
        with grpc.secure_channel(args.addr, credentials) as channel:
            stub = p4runtime_pb2_grpc.P4RuntimeStub(channel)
            try:
                stub.Capabilities(p4runtime_pb2.CapabilitiesRequest(), timeout=REFUSAL_TIMEOUT)
                expect(not refused, f"{what}: Capabilities answered")
            except grpc.RpcError as e:
                expect(refused, f"{what}: Capabilities failed: {e.code()} {e.details()}")
                expect(e.code() == grpc.StatusCode.UNAVAILABLE, f"{what}: {e.code()} {e.details()}")


def session(args):
    pin_ids = {m.name: m.id for m in sh.P4Objects(sh.P4Type.controller_packet_metadata)["packet_in"].metadata}
    packet_in = sh.PacketIn()

    def packet_round(tag, dst):
        """Sends a PacketOut to `dst` tagged `tag`; returns the PacketIns
        that come back within the timeout."""
        sh.PacketOut(payload=frame(dst), tag=str(tag)).send()
        return [m.packet for m in packet_in.sniff(timeout=args.timeout)]

    step("insert fwd A -> punt(3), read back")
    fwd_entry(DST_A, 3).insert()
    entries = read_fwd()
    expect(entries == {bytes.fromhex("0a"): b"\x03"}, f"read after insert: {entries}")

    step("PacketOut to A comes back as a PacketIn with reason 3")
    got = packet_round(0x1234, DST_A)
    expect(len(got) == 1, "no PacketIn for the PacketOut to A")
    p = got[0]
    expect(p.payload == frame(DST_A), f"PacketIn payload {p.payload.hex()}")
    expect(md(p, "tag", pin_ids) == 0x1234, f"PacketIn tag: {p}")
    expect(md(p, "reason", pin_ids) == 3, f"PacketIn reason: {p}")
    expect(md(p, "ingress_port", pin_ids) == args.cpu_port, f"PacketIn ingress_port {md(p, 'ingress_port', pin_ids)}, want {args.cpu_port}: {p}")

    step("modify fwd A -> punt(5), read back, PacketIn with reason 5")
    fwd_entry(DST_A, 5).modify()
    entries = read_fwd()
    expect(entries == {b"\x0a": b"\x05"}, f"read after modify: {entries}")
    got = packet_round(7, DST_A)
    expect(len(got) == 1 and md(got[0], "reason", pin_ids) == 5, f"after modify: {got}")
    expect(md(got[0], "tag", pin_ids) == 7, f"PacketIn tag: {got[0]}")

    step("counters: one packet punted with reason 3, one with 5")
    sent = len(frame(DST_A)) + 2  # the frame behind the 2-byte packet_out header
    counts = {}
    for c in sh.CounterEntry("punted").read():
        counts[c.msg().index.index] = (c.packet_count, c.byte_count)
    expect(len(counts) == 8, f"a wildcard counter read returned {len(counts)} cells")
    expect(counts[3] == (1, sent), f"punted[3] = {counts[3]}, want (1, {sent})")
    expect(counts[5] == (1, sent), f"punted[5] = {counts[5]}, want (1, {sent})")
    expect(all(counts[i] == (0, 0) for i in counts if i not in (3, 5)), f"counts: {counts}")
    one = sh.CounterEntry("punted")
    one.index = 5
    cells = list(one.read())
    expect(len(cells) == 1 and cells[0].packet_count == 1, f"punted[5] alone: {cells}")

    step("delete fwd A: nothing read back, the PacketOut is dropped")
    fwd_entry(DST_A).delete()
    entries = read_fwd()
    expect(entries == {}, f"read after delete: {entries}")
    got = packet_round(8, DST_A)
    expect(got == [], f"a PacketIn after the entry was deleted: {got}")

    step("a backup client (lower election id) may read but not write")
    backup = P4RuntimeClient(args.device_id, args.addr, (0, 5), ssl_options=ssl_options(args, args.cert, args.key))
    try:
        arb = backup.stream_in_q["arbitration"]
        expect(arb.empty(), "unexpected extra arbitration message")
        update = p4runtime_pb2.Update(type=p4runtime_pb2.Update.INSERT)
        update.entity.table_entry.CopyFrom(fwd_entry(DST_B, 1).msg())
        try:
            backup.write_update(update)
            expect(False, "the backup's write succeeded")
        except grpc.RpcError as e:
            expect(e.code() == grpc.StatusCode.PERMISSION_DENIED, f"backup write: {e.code()} {e.details()}")
        entity = p4runtime_pb2.Entity()
        entity.table_entry.table_id = sh.TableEntry("fwd").msg().table_id
        replies = list(backup.read_one(entity))
        expect(sum(len(r.entities) for r in replies) == 0, f"backup read: {replies}")
    finally:
        backup.tear_down()
    expect(read_fwd() == {}, "the backup's write changed the table")

    step("a batch of three updates, the second a duplicate insert")
    req = p4runtime_pb2.WriteRequest()
    for te in (fwd_entry(DST_A, 1), fwd_entry(DST_A, 2), fwd_entry(DST_B, 4)):
        u = req.updates.add()
        u.type = p4runtime_pb2.Update.INSERT
        u.entity.table_entry.CopyFrom(te.msg())
    errors = write_batch(req)
    codes = [code_pb2.Code.Name(e.canonical_code) for e in errors]
    expect(codes == ["OK", "ALREADY_EXISTS", "OK"], f"per-update codes: {codes}")
    expect(errors[1].message, "the ALREADY_EXISTS error has no message")
    entries = read_fwd()
    expect(entries == {b"\x0a": b"\x01", b"\x0b": b"\x04"}, f"read after the batch: {entries}")


def write_batch(req):
    """Sends a Write batch on the shell's channel and returns its per-update
    `p4.v1.Error`s. p4runtime-shell 0.0.6's own parser of them
    (`P4RuntimeErrorIterator`, used by `client.write`) loops forever on an
    error of code OK, which a server sends for each applied update, so the
    details are decoded here."""
    req.device_id = sh.client.device_id
    req.election_id.high, req.election_id.low = sh.client.election_id
    try:
        sh.client.stub.Write(req, timeout=10)
        raise SessionError("a batch with a duplicate insert succeeded")
    except grpc.RpcError as err:
        expect(err.code() == grpc.StatusCode.UNKNOWN, f"batch status {err.code()}: {err.details()}")
        status = status_pb2.Status()
        for key, value in err.trailing_metadata():
            if key == "grpc-status-details-bin":
                status.ParseFromString(value)
    errors = []
    for detail in status.details:
        e = p4runtime_pb2.Error()
        expect(detail.Unpack(e), f"a detail that is not a p4.v1.Error: {detail.type_url}")
        errors.append(e)
    expect(len(errors) == len(req.updates), f"{len(errors)} errors for {len(req.updates)} updates")
    return errors


if __name__ == "__main__":
    run(main)
