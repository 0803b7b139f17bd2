"""A PTF base test that drives `janus switch` over P4Runtime, written the way
p4c's PTF base test (`tools/ptf/base_test.py`) and the p4lang PTF examples
drive simple_switch_grpc: plain grpc stubs, the P4Info text file parsed and
every object looked up by name, mastership by MasterArbitrationUpdate,
SetForwardingPipelineConfig with the P4Info and the device config, table
entries built from names, packets checked with `ptf.testutils`.

Test parameters (`ptf --test-params "k='v';..."`):

    grpcaddr     the switch's P4Runtime address (default 127.0.0.1:9559)
    device_id    its device id (default 0)
    program_dir  where `<PROGRAM>.p4info.txt` (`janus p4 compile
                 --p4runtime-files`) and `<PROGRAM>.pipeline` (`-o`) are;
                 each test class names its PROGRAM
    p4info, config   p4c's names for the two files, if only one program runs

Every test pushes its program (VERIFY_AND_COMMIT) in setUp, so that it
starts from an empty pipeline, and deletes what it wrote when it ends,
failed or not. The dataplane ports are PTF's (`--interface` or
`--device-socket`), device 0.
"""

import ipaddress
import logging
import os
import queue
import threading

import grpc
import ptf
import ptf.testutils as tu
from google.protobuf import text_format
from google.rpc import code_pb2, status_pb2
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2, p4runtime_pb2_grpc
from ptf import config
from ptf.base_tests import BaseTest

log = logging.getLogger("janus-ptf")

# How long a stream answer (arbitration, PacketIn) may take.
STREAM_TIMEOUT = 5.0
# How long a unary P4Runtime call may take.
RPC_TIMEOUT = 30.0


def encode(value, bitwidth):
    """`value` as the big-endian bytes of a `bitwidth`-bit field: an int, a
    MAC ("02:00:00:00:00:01"), an IPv4 or IPv6 address, or bytes."""
    width = (bitwidth + 7) // 8
    if isinstance(value, bytes):
        return value.rjust(width, b"\0")
    if isinstance(value, str):
        if value.count(":") == 5 and "::" not in value:
            value = int(value.replace(":", ""), 16)
        else:
            value = int(ipaddress.ip_address(value))
    if value < 0 or value >= 1 << bitwidth:
        raise ValueError(f"{value} does not fit in {bitwidth} bits")
    return value.to_bytes(width, "big")


def decode(data):
    return int.from_bytes(data, "big")


class WriteError(Exception):
    """A refused Write, with the per-update errors of its details."""

    def __init__(self, error):
        self.code = error.code()
        self.errors = []
        for key, value in error.trailing_metadata() or ():
            if key == "grpc-status-details-bin":
                status = status_pb2.Status()
                status.ParseFromString(value)
                for i, detail in enumerate(status.details):
                    p4_error = p4runtime_pb2.Error()
                    if detail.Unpack(p4_error) and p4_error.canonical_code != code_pb2.OK:
                        self.errors.append((i, p4_error))
        super().__init__(
            f"Write refused ({self.code.name}: {error.details()})"
            + "".join(
                f"\n  update {i}: {code_pb2.Code.Name(e.canonical_code)}: {e.message}"
                for i, e in self.errors
            )
        )


class P4Info:
    """The P4Info, every object found by its name or its alias."""

    KINDS = (
        "tables",
        "actions",
        "counters",
        "direct_counters",
        "meters",
        "direct_meters",
        "registers",
        "controller_packet_metadata",
        "action_profiles",
    )

    def __init__(self, path):
        self.p4info = p4info_pb2.P4Info()
        with open(path, encoding="utf-8") as f:
            text_format.Merge(f.read(), self.p4info, allow_unknown_field=True)
        self.by_name = {}
        self.by_id = {}
        for kind in self.KINDS:
            for obj in getattr(self.p4info, kind):
                pre = obj.preamble
                self.by_id[pre.id] = obj
                for name in {pre.name, pre.alias}:
                    if name:
                        self.by_name[(kind, name)] = obj

    def get(self, kind, name):
        try:
            return self.by_name[(kind, name)]
        except KeyError:
            raise KeyError(f"the P4Info has no {kind[:-1]} named {name!r}") from None

    def id(self, kind, name):
        return self.get(kind, name).preamble.id

    def match_field(self, table, name):
        for m in self.get("tables", table).match_fields:
            if m.name == name:
                return m
        raise KeyError(f"table {table} has no match field {name!r}")

    def param(self, action, name):
        for p in self.get("actions", action).params:
            if p.name == name:
                return p
        raise KeyError(f"action {action} has no parameter {name!r}")

    def metadata(self, header, name):
        for m in self.get("controller_packet_metadata", header).metadata:
            if m.name == name:
                return m
        raise KeyError(f"controller header {header} has no field {name!r}")


class JanusP4RuntimeTest(BaseTest):
    """Connects to the switch, becomes primary and pushes `PROGRAM`."""

    PROGRAM = None

    def setUp(self):
        BaseTest.setUp(self)
        self.dataplane = ptf.dataplane_instance
        self.dataplane.flush()
        self.ports = sorted(port for (device, port) in config["port_map"] if device == 0)
        self.device_id = int(tu.test_param_get("device_id", 0))
        self.election_id = p4runtime_pb2.Uint128(high=0, low=1)
        p4info_path, config_path = self.program_files()
        self.info = P4Info(p4info_path)
        with open(config_path, "rb") as f:
            self.device_config = f.read()
        addr = tu.test_param_get("grpcaddr", "127.0.0.1:9559")
        self.channel = grpc.insecure_channel(addr)
        self.addCleanup(self.channel.close)
        self.stub = p4runtime_pb2_grpc.P4RuntimeStub(self.channel)
        self.written = []
        self.open_stream()
        self.become_primary()
        self.set_pipeline()
        self.addCleanup(self.delete_written)

    def program_files(self):
        p4info, dev_config = tu.test_param_get("p4info"), tu.test_param_get("config")
        if p4info and dev_config:
            return p4info, dev_config
        directory = tu.test_param_get("program_dir")
        if not directory or not self.PROGRAM:
            self.fail("test parameter program_dir (or p4info and config) is required")
        return (
            os.path.join(directory, f"{self.PROGRAM}.p4info.txt"),
            os.path.join(directory, f"{self.PROGRAM}.pipeline"),
        )

    # --- the stream channel -------------------------------------------

    def open_stream(self):
        self.requests = queue.Queue()
        self.answers = queue.Queue()
        self.stream = self.stub.StreamChannel(iter(self.requests.get, None))

        def pump():
            try:
                for answer in self.stream:
                    self.answers.put(answer)
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.CANCELLED:
                    log.error("the P4Runtime stream ended: %s", e)

        self.pump = threading.Thread(target=pump, daemon=True)
        self.pump.start()
        self.addCleanup(self.close_stream)

    def close_stream(self):
        self.requests.put(None)
        self.stream.cancel()
        self.pump.join(timeout=5)

    def stream_answer(self, kind, timeout=STREAM_TIMEOUT):
        """The next stream answer holding `kind` (others are logged and
        dropped), or None after `timeout` seconds."""
        while True:
            try:
                answer = self.answers.get(timeout=timeout)
            except queue.Empty:
                return None
            if answer.HasField(kind):
                return answer
            log.info("stream answer ignored while waiting for %s: %s", kind, answer)

    def become_primary(self):
        req = p4runtime_pb2.StreamMessageRequest()
        req.arbitration.device_id = self.device_id
        req.arbitration.election_id.CopyFrom(self.election_id)
        self.requests.put(req)
        answer = self.stream_answer("arbitration")
        self.assertIsNotNone(answer, "no MasterArbitrationUpdate answer")
        self.assertEqual(
            answer.arbitration.status.code,
            code_pb2.OK,
            f"not primary: {answer.arbitration}",
        )

    # --- the pipeline -------------------------------------------------

    def set_pipeline(self):
        req = p4runtime_pb2.SetForwardingPipelineConfigRequest()
        req.device_id = self.device_id
        req.election_id.CopyFrom(self.election_id)
        req.action = p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT
        req.config.p4info.CopyFrom(self.info.p4info)
        req.config.p4_device_config = self.device_config
        self.stub.SetForwardingPipelineConfig(req, timeout=RPC_TIMEOUT)

    # --- entities -------------------------------------------------------

    def table_entry(self, table, match=None, action=None, params=None, priority=0):
        """A TableEntry from names. `match` maps each field name to its
        value: for exact, the value; lpm, (value, prefix length); ternary,
        (value, mask); range, (low, high); optional, the value. Fields left
        out are wildcards."""
        entry = p4runtime_pb2.TableEntry()
        entry.table_id = self.info.id("tables", table)
        entry.priority = priority
        MT = p4info_pb2.MatchField
        for name, value in (match or {}).items():
            mf = self.info.match_field(table, name)
            fm = entry.match.add()
            fm.field_id = mf.id
            width = mf.bitwidth
            if mf.match_type == MT.EXACT:
                fm.exact.value = encode(value, width)
            elif mf.match_type == MT.LPM:
                fm.lpm.value = encode(value[0], width)
                fm.lpm.prefix_len = value[1]
            elif mf.match_type == MT.TERNARY:
                fm.ternary.value = encode(value[0], width)
                fm.ternary.mask = encode(value[1], width)
            elif mf.match_type == MT.RANGE:
                fm.range.low = encode(value[0], width)
                fm.range.high = encode(value[1], width)
            elif mf.match_type == MT.OPTIONAL:
                fm.optional.value = encode(value, width)
            else:
                raise ValueError(f"{table}.{name}: match type {mf.match_type}")
        if action is not None:
            self.action(entry.action.action, action, params)
        return entry

    def action(self, msg, action, params=None):
        msg.action_id = self.info.id("actions", action)
        for name, value in (params or {}).items():
            p = self.info.param(action, name)
            param = msg.params.add()
            param.param_id = p.id
            param.value = encode(value, p.bitwidth)

    def write(self, updates):
        """Sends one Write batch of (type, entity) updates."""
        req = p4runtime_pb2.WriteRequest()
        req.device_id = self.device_id
        req.election_id.CopyFrom(self.election_id)
        for kind, entity in updates:
            update = req.updates.add()
            update.type = kind
            if isinstance(entity, p4runtime_pb2.TableEntry):
                update.entity.table_entry.CopyFrom(entity)
            else:
                update.entity.CopyFrom(entity)
        try:
            self.stub.Write(req, timeout=RPC_TIMEOUT)
        except grpc.RpcError as e:
            raise WriteError(e) from None

    def insert(self, table, match=None, action=None, params=None, priority=0):
        entry = self.table_entry(table, match, action, params, priority)
        self.write([(p4runtime_pb2.Update.INSERT, entry)])
        self.written.append(entry)
        return entry

    def modify(self, entry, action, params=None):
        entry.action.action.Clear()
        self.action(entry.action.action, action, params)
        self.write([(p4runtime_pb2.Update.MODIFY, entry)])

    def delete(self, entry):
        key = p4runtime_pb2.TableEntry()
        key.CopyFrom(entry)
        key.ClearField("action")
        self.write([(p4runtime_pb2.Update.DELETE, key)])
        self.written = [e for e in self.written if e is not entry]

    def set_default(self, table, action, params=None):
        entry = self.table_entry(table, action=action, params=params)
        entry.is_default_action = True
        self.write([(p4runtime_pb2.Update.MODIFY, entry)])

    def delete_written(self):
        """Deletes every entry the test inserted (newest first); a failure
        is logged, the next test pushes the pipeline anew anyway."""
        for entry in reversed(self.written):
            try:
                self.delete(entry)
            except WriteError as e:
                log.warning("cleanup: %s", e)
        self.written = []

    def read_table(self, table):
        """Every entry of `table`."""
        req = p4runtime_pb2.ReadRequest()
        req.device_id = self.device_id
        req.entities.add().table_entry.table_id = self.info.id("tables", table)
        out = []
        for answer in self.stub.Read(req, timeout=RPC_TIMEOUT):
            out.extend(e.table_entry for e in answer.entities)
        return out

    def read_counter(self, counter, index):
        """(packets, bytes) of cell `index` of an indirect counter."""
        req = p4runtime_pb2.ReadRequest()
        req.device_id = self.device_id
        entry = req.entities.add().counter_entry
        entry.counter_id = self.info.id("counters", counter)
        entry.index.index = index
        for answer in self.stub.Read(req, timeout=RPC_TIMEOUT):
            for e in answer.entities:
                data = e.counter_entry.data
                return data.packet_count, data.byte_count
        self.fail(f"counter {counter}[{index}] was not read")

    # --- PacketOut and PacketIn ----------------------------------------

    def packet_out(self, payload, **metadata):
        req = p4runtime_pb2.StreamMessageRequest()
        req.packet.payload = bytes(payload)
        for name, value in metadata.items():
            m = self.info.metadata("packet_out", name)
            md = req.packet.metadata.add()
            md.metadata_id = m.id
            md.value = encode(value, m.bitwidth)
        self.requests.put(req)

    def packet_in(self, timeout=STREAM_TIMEOUT):
        """The next PacketIn as (payload, {field name: int}); fails the test
        without one."""
        answer = self.stream_answer("packet", timeout)
        self.assertIsNotNone(answer, f"no PacketIn within {timeout} s")
        names = {m.id: m.name for m in self.info.get("controller_packet_metadata", "packet_in").metadata}
        fields = {names.get(m.metadata_id, m.metadata_id): decode(m.value) for m in answer.packet.metadata}
        return answer.packet.payload, fields

    def assert_no_packet_in(self, timeout=0.5):
        answer = self.stream_answer("packet", timeout)
        self.assertIsNone(answer, f"unexpected PacketIn: {answer}")

    # --- the data plane ---------------------------------------------------

    def send(self, port, pkt):
        tu.send_packet(self, port, pkt)

    def expect(self, pkt, port):
        """`pkt` comes out of `port`, and nothing else anywhere."""
        tu.verify_packet(self, pkt, port)
        tu.verify_no_other_packets(self)

    def expect_drop(self):
        tu.verify_no_other_packets(self)
