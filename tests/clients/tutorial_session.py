"""A session written the way p4lang tutorials' `p4runtime_lib` drives a
switch, against `janus ctrl serve`.

Runs in the venv `scripts/test` makes (target/venv-p4rt-shell: grpcio and
the p4runtime protos):

    python tests/clients/tutorial_session.py --addr 127.0.0.1:9559 \
        --p4info loopback.p4info.txt --device-config loopback.pipeline

Like the tutorials' `helper.P4InfoHelper` and `switch.SwitchConnection`:
the P4Info text file is parsed with `text_format.Merge` and every id is
looked up by name or alias; mastership by `MasterArbitrationUpdate` on the
stream; `SetForwardingPipelineConfig` with the device config inside PI's
`P4DeviceConfig` (`reassign`, `device_data`), as `buildDeviceConfig`
wraps it; table entries built from names (`buildTableEntry`) with values
encoded at their bitwidth; entries read back; a PacketOut whose PacketIn
shows the entry's action. Exit 0 when every step behaves, 1 otherwise.
"""

import queue
import threading

import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

from session_common import DST_A, SessionError, expect, frame, parse_args, run, step


class P4InfoHelper:
    """Names to ids, as the tutorials' helper looks them up."""

    def __init__(self, path):
        self.p4info = p4info_pb2.P4Info()
        with open(path) as f:
            text_format.Merge(f.read(), self.p4info)

    def get(self, entity_type, name):
        for o in getattr(self.p4info, entity_type):
            pre = o.preamble
            if name in (pre.name, pre.alias):
                return o
        raise SessionError(f"no {entity_type} named {name} in the P4Info")

    def get_id(self, entity_type, name):
        return self.get(entity_type, name).preamble.id

    def get_match_field(self, table_name, field_name):
        for m in self.get("tables", table_name).match_fields:
            if m.name == field_name:
                return m
        raise SessionError(f"table {table_name} has no match field {field_name}")

    def get_action_param(self, action_name, param_name):
        for p in self.get("actions", action_name).params:
            if p.name == param_name:
                return p
        raise SessionError(f"action {action_name} has no parameter {param_name}")

    def build_table_entry(self, table_name, match_fields, action_name, action_params):
        entry = p4runtime_pb2.TableEntry()
        entry.table_id = self.get_id("tables", table_name)
        for name, value in match_fields.items():
            m = self.get_match_field(table_name, name)
            fm = entry.match.add()
            fm.field_id = m.id
            fm.exact.value = encode(value, m.bitwidth)
        entry.action.action.action_id = self.get_id("actions", action_name)
        for name, value in action_params.items():
            p = self.get_action_param(action_name, name)
            param = entry.action.action.params.add()
            param.param_id = p.id
            param.value = encode(value, p.bitwidth)
        return entry


def encode(value, bitwidth):
    """A MAC string or an integer as bytes of `bitwidth`, as the tutorials'
    `convert.encode` pads them."""
    if isinstance(value, str):
        return bytes(int(b, 16) for b in value.split(":"))
    return value.to_bytes((bitwidth + 7) // 8, "big")


def p4_device_config(device_data):
    """PI's `p4.tmp.P4DeviceConfig{reassign: true, device_data: ...}` in its
    wire format (the tutorials' `buildDeviceConfig`)."""
    n, length = len(device_data), b""
    while True:
        byte = n & 0x7F
        n >>= 7
        length += bytes([byte | (0x80 if n else 0)])
        if not n:
            break
    return b"\x08\x01" + b"\x1a" + length + device_data


class SwitchConnection:
    """A stub and a stream channel, as the tutorials' `SwitchConnection`."""

    def __init__(self, addr, device_id):
        self.channel = grpc.insecure_channel(addr)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.device_id = device_id
        self.requests = queue.Queue()
        self.responses = queue.Queue()
        self.stream = self.stub.StreamChannel(iter(self.requests.get, None))
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        try:
            for r in self.stream:
                self.responses.put(r)
        except grpc.RpcError:
            pass

    def master_arbitration_update(self, timeout):
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = self.device_id
        req.arbitration.election_id.high = 0
        req.arbitration.election_id.low = 1
        self.requests.put(req)
        reply = self.responses.get(timeout=timeout)
        expect(reply.HasField("arbitration"), f"no arbitration answer: {reply}")
        expect(reply.arbitration.status.code == 0, f"not primary: {reply.arbitration}")

    def set_forwarding_pipeline_config(self, p4info, device_config):
        req = p4runtime_pb2.SetForwardingPipelineConfigRequest()
        req.device_id = self.device_id
        req.election_id.low = 1
        req.action = p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT
        req.config.p4info.CopyFrom(p4info)
        req.config.p4_device_config = device_config
        self.stub.SetForwardingPipelineConfig(req)

    def write_table_entry(self, entry):
        req = p4runtime_pb2.WriteRequest()
        req.device_id = self.device_id
        req.election_id.low = 1
        update = req.updates.add()
        update.type = p4runtime_pb2.Update.INSERT
        update.entity.table_entry.CopyFrom(entry)
        self.stub.Write(req)

    def read_table_entries(self, table_id):
        req = p4runtime_pb2.ReadRequest()
        req.device_id = self.device_id
        req.entities.add().table_entry.table_id = table_id
        for response in self.stub.Read(req):
            for entity in response.entities:
                yield entity.table_entry

    def packet_out(self, payload, metadata):
        req = p4runtime_pb2.StreamMessageRequest()
        req.packet.payload = payload
        for mid, value in metadata:
            m = req.packet.metadata.add()
            m.metadata_id = mid
            m.value = value
        self.requests.put(req)

    def packet_in(self, timeout):
        while True:
            reply = self.responses.get(timeout=timeout)
            if reply.HasField("packet"):
                return reply.packet

    def shutdown(self):
        self.requests.put(None)
        self.channel.close()


def main():
    args = parse_args(__doc__)
    expect(args.p4info and args.device_config, "--p4info and --device-config are required")
    helper = P4InfoHelper(args.p4info)
    sw = SwitchConnection(args.addr, args.device_id)
    try:
        step("MasterArbitrationUpdate")
        sw.master_arbitration_update(args.timeout)

        step("SetForwardingPipelineConfig with PI's P4DeviceConfig")
        with open(args.device_config, "rb") as f:
            sw.set_forwarding_pipeline_config(helper.p4info, p4_device_config(f.read()))

        step("write an entry built from names")
        entry = helper.build_table_entry(
            "I.fwd", {"hdr.eth.dst": DST_A}, "I.punt", {"reason": 7}
        )
        sw.write_table_entry(entry)

        step("read it back")
        read = list(sw.read_table_entries(helper.get_id("tables", "fwd")))
        expect(len(read) == 1, f"read {len(read)} entries, wrote 1")
        got = read[0]
        expect(got.table_id == entry.table_id, f"table id {got.table_id}")
        # Reads give the canonical (shortest) byte strings.
        expect(
            got.match[0].exact.value == encode(DST_A, 48).lstrip(b"\0"),
            f"match {got.match}",
        )
        expect(got.action.action.action_id == entry.action.action.action_id, "action id")
        expect(
            got.action.action.params[0].value.lstrip(b"\0") == b"\x07",
            f"param {got.action.action.params}",
        )

        step("PacketOut, PacketIn with the entry's action")
        out_meta = helper.get("controller_packet_metadata", "packet_out").metadata
        tag = next(m for m in out_meta if m.name == "tag")
        sw.packet_out(frame(DST_A), [(tag.id, encode(0x1234, tag.bitwidth))])
        pin = sw.packet_in(args.timeout)
        in_meta = {
            m.id: m.name for m in helper.get("controller_packet_metadata", "packet_in").metadata
        }
        fields = {in_meta[m.metadata_id]: m.value for m in pin.metadata}
        expect(fields.get("tag", b"").lstrip(b"\0") == b"\x12\x34", f"PacketIn metadata {fields}")
        expect(fields.get("reason", b"").lstrip(b"\0") == b"\x07", f"PacketIn metadata {fields}")
    except queue.Empty:
        raise SessionError("no answer on the stream in time") from None
    finally:
        sw.shutdown()


if __name__ == "__main__":
    run(main)
