"""A scripted finsy session against `janus ctrl serve`.

Runs in the venv `scripts/test` makes (target/venv-finsy):

    python tests/clients/finsy_session.py --addr 127.0.0.1:9559 \
        --p4info loopback.p4info.txtpb --device-config loopback.pipeline

A `Switch` with the P4Info and device config pushes the pipeline when it
becomes primary; then: table entries inserted, read back, modified and
deleted (each checked by a PacketOut whose PacketIn shows the entry's
action), counters read, a backup `Switch`'s write refused, a batch with
one bad update. Exit 0 when every step behaves, 1 with a message naming
the step otherwise.

With `--ca-cert CA --cert C --key K` the session runs over mTLS
(`SwitchOptions(channel_credentials=GRPCCredentialsTLS(...))`). With
`--check-refusals` (and `--stranger-cert/--stranger-key`, a certificate of
another CA) it checks instead that an mTLS server refuses a client without
a certificate and one with the stranger's, and answers one with `--cert`.
"""

import asyncio
from pathlib import Path

import finsy as fy
from finsy.proto import p4r

from session_common import (
    DST_A,
    DST_B,
    SessionError,
    expect,
    frame,
    parse_args,
    refusal_cases,
    run,
    step,
)

MAC_A = int(DST_A.replace(":", ""), 16)
MAC_B = int(DST_B.replace(":", ""), 16)


def fwd(mac, reason=None):
    """A `fwd` entry for `mac` (finsy names match fields by their short
    name: `dst` for `hdr.eth.dst`), with `punt(reason)` when a reason is given."""
    action = fy.P4TableAction("punt", reason=reason) if reason is not None else None
    return fy.P4TableEntry("fwd", match=fy.P4TableMatch(dst=mac), action=action)


async def read_fwd(sw):
    """The `fwd` entries as {dst: reason}."""
    out = {}
    async for e in sw.read(fy.P4TableEntry("fwd")):
        expect(e.action is not None, f"entry without an action read back: {e}")
        out[e.match["dst"]] = e.action.args["reason"]
    return out


async def packet_round(sw, tag, dst, timeout):
    """Sends a PacketOut to `dst` tagged `tag`; returns the PacketIn that
    comes back within `timeout` seconds, or None."""
    packets = sw.read_packets()
    first = asyncio.ensure_future(anext(packets))
    await asyncio.sleep(0.05)  # let the reader register its queue
    await sw.write([fy.P4PacketOut(frame(dst), tag=tag)])
    try:
        return await asyncio.wait_for(first, timeout)
    except asyncio.TimeoutError:
        return None
    finally:
        await packets.aclose()


def credentials(args, cert=None, key=None):
    """finsy's TLS credentials: None (plaintext) without --ca-cert, else
    TLS with the given client certificate (none when `cert` is None)."""
    if args.ca_cert is None:
        return None
    return fy.GRPCCredentialsTLS(
        cacert=Path(args.ca_cert),
        cert=Path(cert) if cert else None,
        private_key=Path(key) if key else None,
    )


async def check_refusals(args):
    """Each of `refusal_cases`: a Capabilities request of a `P4Client`
    (not waiting for the channel to be ready) must fail with UNAVAILABLE
    (the TLS handshake fails) when refused, be answered otherwise."""
    for what, cert, key, refused in refusal_cases(args):
        step(f"{what}: {'refused' if refused else 'answered'}")
        async with fy.P4Client(args.addr, credentials(args, cert, key), wait_for_ready=False) as client:
            try:
                await client.request(p4r.CapabilitiesRequest())
                expect(not refused, f"{what}: Capabilities answered")
            except fy.P4ClientError as e:
                expect(refused, f"{what}: Capabilities failed: {e}")
                expect(e.code == fy.GRPCStatusCode.UNAVAILABLE, f"{what}: {e}")


async def session(args):
    opts = fy.SwitchOptions(
        p4info=Path(args.p4info),
        p4blob=Path(args.device_config),
        device_id=args.device_id,
        initial_election_id=10,
        channel_credentials=credentials(args, args.cert, args.key),
    )
    transport = "mTLS" if args.ca_cert else "plaintext"
    step(f"connect to {args.addr} ({transport}) as primary, push the pipeline")
    async with fy.Switch("primary", args.addr, opts) as sw:
        expect(sw.is_primary, "the first switch connection is not the primary")
        await primary_steps(sw, args)
        await backup_steps(sw, args, opts)
        await batch_steps(sw)


async def primary_steps(sw, args):
    step("insert fwd A -> punt(3), read back")
    await sw.insert([fwd(MAC_A, 3)])
    entries = await read_fwd(sw)
    expect(entries == {MAC_A: 3}, f"read after insert: {entries}")

    step("PacketOut to A comes back as a PacketIn with reason 3")
    p = await packet_round(sw, 0x1234, DST_A, args.timeout)
    expect(p is not None, "no PacketIn for the PacketOut to A")
    expect(p.payload == frame(DST_A), f"PacketIn payload {p.payload.hex()}")
    expect(p["tag"] == 0x1234, f"PacketIn tag: {p}")
    expect(p["reason"] == 3, f"PacketIn reason: {p}")
    expect(p["ingress_port"] == args.cpu_port, f"PacketIn ingress_port, want {args.cpu_port}: {p}")

    step("modify fwd A -> punt(5), read back, PacketIn with reason 5")
    await sw.modify([fwd(MAC_A, 5)])
    entries = await read_fwd(sw)
    expect(entries == {MAC_A: 5}, f"read after modify: {entries}")
    p = await packet_round(sw, 7, DST_A, args.timeout)
    expect(p is not None and p["reason"] == 5 and p["tag"] == 7, f"after modify: {p}")

    step("counters: one packet punted with reason 3, one with 5")
    sent = len(frame(DST_A)) + 2  # the frame behind the 2-byte packet_out header
    counts = {}
    async for c in sw.read(fy.P4CounterEntry("punted")):
        counts[c.index] = (c.packet_count, c.byte_count)
    expect(len(counts) == 8, f"a wildcard counter read returned {len(counts)} cells")
    expect(counts[3] == (1, sent), f"punted[3] = {counts[3]}, want (1, {sent})")
    expect(counts[5] == (1, sent), f"punted[5] = {counts[5]}, want (1, {sent})")
    expect(all(counts[i] == (0, 0) for i in counts if i not in (3, 5)), f"counts: {counts}")
    cells = [c async for c in sw.read(fy.P4CounterEntry("punted", index=5))]
    expect(len(cells) == 1 and cells[0].packet_count == 1, f"punted[5] alone: {cells}")

    step("delete fwd A: nothing read back, the PacketOut is dropped")
    await sw.delete([fwd(MAC_A)])
    entries = await read_fwd(sw)
    expect(entries == {}, f"read after delete: {entries}")
    p = await packet_round(sw, 8, DST_A, args.timeout)
    expect(p is None, f"a PacketIn after the entry was deleted: {p}")


async def backup_steps(sw, args, opts):
    step("a backup switch connection (lower election id) may read but not write")
    async with fy.Switch("backup", args.addr, opts(initial_election_id=5)) as backup:
        expect(not backup.is_primary, "the second connection became primary")
        expect(backup.primary_id == 10, f"the backup sees primary id {backup.primary_id}")
        try:
            await backup.insert([fwd(MAC_B, 1)])
            raise SessionError("the backup's write succeeded")
        except fy.P4ClientError as e:
            expect(e.code == fy.GRPCStatusCode.PERMISSION_DENIED, f"backup write: {e}")
        entries = await read_fwd(backup)
        expect(entries == {}, f"backup read: {entries}")
    expect(sw.is_primary, "the primary lost its role to the backup")
    expect(await read_fwd(sw) == {}, "the backup's write changed the table")


async def batch_steps(sw):
    step("a batch of three updates, the second a duplicate insert")
    try:
        await sw.write([+fwd(MAC_A, 1), +fwd(MAC_A, 2), +fwd(MAC_B, 4)])
        raise SessionError("a batch with a duplicate insert succeeded")
    except fy.P4ClientError as e:
        expect(e.code == fy.GRPCStatusCode.UNKNOWN, f"batch status: {e}")
        codes = {i: err.canonical_code for i, err in e.details.items()}
        expect(codes == {1: fy.GRPCStatusCode.ALREADY_EXISTS}, f"per-update errors: {e.details}")
        expect(e.details[1].message, "the ALREADY_EXISTS error has no message")
    entries = await read_fwd(sw)
    expect(entries == {MAC_A: 1, MAC_B: 4}, f"read after the batch: {entries}")


def main():
    args = parse_args(__doc__)
    main_task = check_refusals(args) if args.check_refusals else session(args)
    asyncio.run(asyncio.wait_for(main_task, timeout=120))


if __name__ == "__main__":
    run(main)
