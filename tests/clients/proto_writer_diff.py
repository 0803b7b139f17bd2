#!/usr/bin/env python3
"""Differential check of janus-p4's protobuf writers (sim/frontend/src/proto.rs)
against the protobuf package.

The Rust test `proto::tests::dump_for_python_diff` writes each case's binary,
text and JSON encodings to a directory; this script builds the same messages
with the generated classes of the PyPI `p4runtime` package and checks that

- the binary equals `SerializeToString()` byte for byte,
- the text equals `text_format.MessageToString(as_utf8=False)` byte for byte
  (Python's printer then follows the C++ `TextFormat::Printer` defaults:
  two-space indent, CEscape with octal escapes for bytes outside 0x20..0x7e;
  Python's own default became as_utf8=True, which C++'s Printer is not),
- the binary, the text and the JSON each parse back into an equal message.

Python's JSON printer is not the C++ one (indentation, escaping), so the JSON
is only parsed back, never compared as text; its exact bytes are covered by the
hand-worked unit tests in proto.rs.

Opt-in, not run by scripts/test. Run from the repository root:

    python3 -m venv target/venv-p4runtime   # scripts/test makes this one
    target/venv-p4runtime/bin/pip install p4runtime==1.6.0 protobuf==7.36.2
    target/venv-p4runtime/bin/python tests/clients/proto_writer_diff.py

It runs `cargo test` itself; `--dir DIR` compares files already dumped there
(`JANUS_PROTO_DIFF_DIR=DIR cargo test -p janus-p4 --lib -- --ignored --exact
proto::tests::dump_for_python_diff`). Exits non-zero on any difference.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

# The p4runtime package ships generated code older than protobuf 4's C
# extension accepts; the pure-Python implementation takes it.
os.environ.setdefault("PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION", "python")

from google.protobuf import json_format, text_format  # noqa: E402
from p4.config.v1 import p4info_pb2  # noqa: E402
from p4.v1 import p4runtime_pb2  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def awkward_string():
    # Mirrors awkward_string() in proto.rs.
    return "".join(chr(c) for c in range(0x80)) + (
        "\u0080\u009f\u00a0é€😀\u00ad\u2028\ufeff\U000e0001\U0001d173"
    )


def set_preamble(p, id_, name, alias, annotations):
    if id_:
        p.id = id_
    if name:
        p.name = name
    if alias:
        p.alias = alias
    p.annotations.extend(annotations)


def sample_p4info():
    # Mirrors sample_p4info() in proto.rs.
    p = p4info_pb2.P4Info()
    p.pkg_info.arch = "v1model"
    t = p.tables.add()
    set_preamble(
        t.preamble,
        37375156,
        "MyIngress.ipv4_lpm",
        "ipv4_lpm",
        ['@brief("a \\"quoted\\" note")', '@doc("line1\nline2")', '@name("café")'],
    )
    mf = t.match_fields.add()
    mf.id = 1
    mf.name = "hdr.ipv4.dstAddr"
    mf.bitwidth = 32
    mf.match_type = p4info_pb2.MatchField.LPM
    mf = t.match_fields.add()
    mf.id = 2
    mf.name = "meta.x"
    mf.annotations.append("@format(MAC_ADDRESS)")
    mf.bitwidth = 48
    mf.other_match_type = "my_match"
    ar = t.action_refs.add()
    ar.scope = p4info_pb2.ActionRef.DEFAULT_ONLY
    ar.id = 21257015
    ar.annotations.append("@defaultonly")
    t.size = 1024
    t.direct_resource_ids.append(318814845)
    t.const_default_action_id = 21257015
    a = p.actions.add()
    set_preamble(a.preamble, 21257015, "NoAction", "NoAction", ['@noWarn("unused")'])
    return p


def diff_p4info():
    # Mirrors diff_p4info() in proto.rs.
    p = sample_p4info()
    t = p.tables.add()
    t.preamble.SetInParent()
    mf = t.match_fields.add()
    mf.bitwidth = -5
    mf.match_type = p4info_pb2.MatchField.UNSPECIFIED  # a oneof member: present
    call = t.initial_default_action
    call.action_id = 21257015
    arg = call.arguments.add()
    arg.param_id = 1
    arg.value = bytes(range(256))
    t.size = -1
    t.idle_timeout_behavior = p4info_pb2.Table.NOTIFY_CONTROL
    t.is_const_table = True
    ap = p.action_profiles.add()
    set_preamble(ap.preamble, 285217164, "ap", "", [awkward_string(), ""])
    ap.table_ids.extend([37375156, 1, 0])
    ap.with_selector = True
    ap.size = 1 << 62
    ap.max_group_size = -3
    p.pkg_info.Clear()
    p.pkg_info.name = "prog"
    p.pkg_info.doc.brief = awkward_string()
    p.pkg_info.arch = "v1model"
    p.type_info.SetInParent()
    return p


def diff_write_request():
    # Mirrors diff_write_request() in proto.rs.
    w = p4runtime_pb2.WriteRequest()
    w.device_id = 2**64 - 1
    w.election_id.low = 5
    u = w.updates.add()
    u.type = p4runtime_pb2.Update.INSERT
    te = u.entity.table_entry
    te.table_id = 37375156
    m = te.match.add()
    m.field_id = 1
    m.exact.value = bytes([10, 0, 0, 1])
    m = te.match.add()
    m.field_id = 2
    m.lpm.value = bytes([192, 168, 0, 0])
    m.lpm.prefix_len = 24
    m = te.match.add()
    m.field_id = 3
    m.ternary.value = b"\x80"
    m.ternary.mask = b"\xff\x00"
    te.action.action.action_id = 21257015
    prm = te.action.action.params.add()
    prm.param_id = 1
    prm.value = b"\x00\x01"
    te.priority = -7
    te.idle_timeout_ns = -(2**63)
    te.metadata = b"meta\n"
    u = w.updates.add()
    u.type = p4runtime_pb2.Update.DELETE
    u.entity.table_entry.table_id = 5
    w.atomicity = p4runtime_pb2.WriteRequest.ROLLBACK_ON_ERROR
    return w


CASES = {
    "p4info": diff_p4info,
    "write_request": diff_write_request,
}


def dump(directory):
    env = dict(os.environ, JANUS_PROTO_DIFF_DIR=str(directory))
    cmd = [
        "cargo", "test", "-q", "-p", "janus-p4", "--lib", "--",
        "--ignored", "--exact", "proto::tests::dump_for_python_diff",
    ]
    subprocess.run(cmd, cwd=REPO, env=env, check=True)


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def report(what, ours, theirs):
    i = first_difference(ours, theirs)
    lo = max(0, i - 40)
    print(f"  {what} differs at offset {i} (ours {len(ours)}, protobuf {len(theirs)}):")
    print(f"    ours:     {ours[lo:i + 40]!r}")
    print(f"    protobuf: {theirs[lo:i + 40]!r}")


def check(directory):
    failures = 0
    checks = 0
    for name, build in CASES.items():
        expected = build()
        cls = type(expected)
        ours_bin = (directory / f"{name}.bin").read_bytes()
        ours_txt = (directory / f"{name}.txt").read_text(encoding="utf-8")
        ours_json = (directory / f"{name}.json").read_text(encoding="utf-8")

        results = []
        theirs_bin = expected.SerializeToString()
        results.append(("binary == SerializeToString", ours_bin == theirs_bin,
                        lambda: report("binary", ours_bin, theirs_bin)))
        # C++'s Printer escapes with CEscape (octal for every byte >= 0x80)
        # unless SetUseUtf8StringEscaping(true); recent Python protobuf
        # defaults to as_utf8=True, so ask for the C++ default explicitly.
        theirs_txt = text_format.MessageToString(expected, as_utf8=False)
        results.append(("text == text_format.MessageToString(as_utf8=False)", ours_txt == theirs_txt,
                        lambda: report("text", ours_txt, theirs_txt)))
        for what, parse in [
            ("binary", lambda: cls.FromString(ours_bin)),
            ("text", lambda: text_format.Parse(ours_txt, cls())),
            ("json", lambda: json_format.Parse(ours_json, cls())),
        ]:
            try:
                ok = parse() == expected
                err = None
            except Exception as e:  # a parse error is a failure too
                ok, err = False, e
            results.append((f"{what} parses back equal", ok,
                            lambda err=err: print(f"  error: {err}") if err else None))

        for label, ok, explain in results:
            checks += 1
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {label}")
            if not ok:
                failures += 1
                explain()
    print(f"{checks - failures} passed, {failures} failed")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, help="compare files already dumped here")
    args = ap.parse_args()
    if args.dir:
        return 1 if check(args.dir) else 0
    with tempfile.TemporaryDirectory() as d:
        dump(Path(d))
        return 1 if check(Path(d)) else 0


if __name__ == "__main__":
    sys.exit(main())
