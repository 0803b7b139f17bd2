#!/usr/bin/env python3
"""Dump the schema of the PyPI `p4runtime` package as a FileDescriptorSet.

Usage: dump_p4runtime_descriptors.py OUT.bin

The package ships the P4Runtime .proto files compiled for Python
(`*_pb2.py`); each module's DESCRIPTOR knows its FileDescriptorProto. This
writes those of p4/v1/p4runtime.proto, p4/v1/p4data.proto,
p4/config/v1/p4info.proto, p4/config/v1/p4types.proto and google/rpc/code.proto,
with everything they import, as one binary google.protobuf.FileDescriptorSet
(dependencies before the files that import them) to OUT.bin, and prints the
package versions it read them from on stdout.

ctrl/tests/schema.rs runs it (from the venv scripts/test sets up) and checks
Janus's own schema in ctrl/proto/ against the result.
"""

import os
import sys
from importlib import metadata

# The package's *_pb2.py modules are of the older generated style, which the
# C++ and upb back ends of current protobuf releases refuse to load; the
# pure-Python back end still accepts them. It must be chosen before
# google.protobuf is first imported.
os.environ["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] = "python"

from google.protobuf import descriptor_pb2  # noqa: E402
from google.rpc import code_pb2, status_pb2  # noqa: E402
from p4.config.v1 import p4info_pb2, p4types_pb2  # noqa: E402
from p4.v1 import p4data_pb2, p4runtime_pb2  # noqa: E402

MODULES = [p4runtime_pb2, p4data_pb2, p4info_pb2, p4types_pb2, status_pb2, code_pb2]


def add_file(file_descriptor, seen, out):
    """Append one file to `out`, after the files it depends on."""
    if file_descriptor.name in seen:
        return
    seen.add(file_descriptor.name)
    for dependency in file_descriptor.dependencies:
        add_file(dependency, seen, out)
    proto = descriptor_pb2.FileDescriptorProto()
    proto.ParseFromString(file_descriptor.serialized_pb)
    out.file.append(proto)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = descriptor_pb2.FileDescriptorSet()
    seen = set()
    for module in MODULES:
        add_file(module.DESCRIPTOR, seen, out)
    with open(argv[1], "wb") as f:
        f.write(out.SerializeToString())
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("p4runtime", "protobuf", "googleapis-common-protos")
    )
    print(f"{len(out.file)} files from {versions}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
