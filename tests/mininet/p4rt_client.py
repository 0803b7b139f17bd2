"""A small P4Runtime controller for the Mininet scripts: become primary,
push a pipeline, write table entries by name (grpc stubs of the `p4runtime`
package, as in target/venv-ptf)."""

import ipaddress
import queue
import threading

import grpc
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc

RPC_TIMEOUT = 10.0


def encode(value, bitwidth):
    """An int, a MAC or an IPv4 address as `bitwidth` big-endian bits."""
    if isinstance(value, str):
        value = int(value.replace(":", ""), 16) if value.count(":") == 5 else int(ipaddress.ip_address(value))
    return value.to_bytes((bitwidth + 7) // 8, "big")


class P4RuntimeClient:
    """The least a controller does: be primary, write entries by name."""

    def __init__(self, addr, device_id, p4info_path, election_id=1):
        self.device_id = device_id
        self.election_id = p4runtime_pb2.Uint128(high=0, low=election_id)
        self.p4info = p4info_pb2.P4Info()
        with open(p4info_path, encoding="utf-8") as f:
            text_format.Merge(f.read(), self.p4info, allow_unknown_field=True)
        self.channel = grpc.insecure_channel(addr)
        grpc.channel_ready_future(self.channel).result(timeout=RPC_TIMEOUT)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.requests = queue.Queue()
        self.answers = queue.Queue()
        self.stream = self.stub.StreamChannel(iter(self.requests.get, None))
        threading.Thread(target=self._pump, daemon=True).start()
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = device_id
        req.arbitration.election_id.CopyFrom(self.election_id)
        self.requests.put(req)
        try:
            answer = self.answers.get(timeout=RPC_TIMEOUT)
        except queue.Empty:
            raise RuntimeError(f"{addr}: no arbitration answer within {RPC_TIMEOUT} s") from None
        if isinstance(answer, Exception) or answer.arbitration.status.code != 0:
            raise RuntimeError(f"{addr}: not primary: {answer}")

    def _pump(self):
        try:
            for answer in self.stream:
                self.answers.put(answer)
        except grpc.RpcError as e:
            self.answers.put(e)

    def _find(self, kind, name):
        for obj in getattr(self.p4info, kind):
            if name in (obj.preamble.name, obj.preamble.alias):
                return obj
        raise KeyError(f"no {kind[:-1]} {name!r} in the P4Info")

    def set_pipeline(self, device_config):
        """SetForwardingPipelineConfig (VERIFY_AND_COMMIT) with this
        client's P4Info and `device_config` bytes, as a bmv2 controller
        sends its JSON."""
        req = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=self.device_id,
            action=p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT,
        )
        req.election_id.CopyFrom(self.election_id)
        req.config.p4info.CopyFrom(self.p4info)
        req.config.p4_device_config = device_config
        self.stub.SetForwardingPipelineConfig(req, timeout=RPC_TIMEOUT)

    def insert(self, table, match, action, params, default=False):
        """Inserts an entry: `match` maps field names to values (exact) or
        (value, prefix length) (LPM). `default=True` sets the table's
        default action instead (a MODIFY with no match)."""
        t = self._find("tables", table)
        a = self._find("actions", action)
        entry = p4runtime_pb2.TableEntry(table_id=t.preamble.id, is_default_action=default)
        fields = {m.name: m for m in t.match_fields}
        for name, value in match.items():
            mf = fields[name]
            fm = entry.match.add(field_id=mf.id)
            if mf.match_type == p4info_pb2.MatchField.LPM:
                fm.lpm.value = encode(value[0], mf.bitwidth)
                fm.lpm.prefix_len = value[1]
            else:
                fm.exact.value = encode(value, mf.bitwidth)
        entry.action.action.action_id = a.preamble.id
        pinfo = {p.name: p for p in a.params}
        for name, value in params.items():
            p = pinfo[name]
            entry.action.action.params.add(param_id=p.id, value=encode(value, p.bitwidth))
        req = p4runtime_pb2.WriteRequest(device_id=self.device_id)
        req.election_id.CopyFrom(self.election_id)
        kind = p4runtime_pb2.Update.MODIFY if default else p4runtime_pb2.Update.INSERT
        req.updates.add(type=kind).entity.table_entry.CopyFrom(entry)
        self.stub.Write(req, timeout=RPC_TIMEOUT)

    def close(self):
        self.requests.put(None)
        self.stream.cancel()
        self.channel.close()
