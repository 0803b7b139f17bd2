"""Checks the P4Runtime files `janus p4 compile` writes against the protobuf
library: for each NAME given, NAME.bin (P4Info, binary) must parse, its text
as the library prints it (octal escapes, as the C++ printer) must equal
NAME.txt after p4c's two-line header, NAME.json must parse to the same
message, and the binary must equal the library's deterministic encoding.
NAME.entries.{txt,json,bin} likewise for the WriteRequest of table entries.
Exits 1 with a diff on the first difference."""

import difflib
import sys

from google.protobuf import json_format, text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

P4INFO_HEADER = "# proto-file: p4/config/v1/p4info.proto\n# proto-message: p4.config.v1.P4Info\n\n"
ENTRIES_HEADER = "# proto-file: p4/v1/p4runtime.proto\n# proto-message: p4.v1.WriteRequest\n\n"


def check(stem, cls, header):
    binary = open(stem + ".bin", "rb").read()
    text = open(stem + ".txt").read()
    js = open(stem + ".json").read()
    msg = cls()
    msg.ParseFromString(binary)
    if not text.startswith(header):
        return f"{stem}.txt: no p4c header"
    want = text_format.MessageToString(msg, as_utf8=False)
    got = text[len(header):]
    if want != got:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "protobuf", "janus"))
        return f"{stem}.txt differs from the library's text:\n{diff}"
    from_json = cls()
    json_format.Parse(js, from_json)
    if from_json != msg:
        return f"{stem}.json does not parse to the binary's message"
    if msg.SerializeToString(deterministic=True) != binary:
        return f"{stem}.bin is not the library's deterministic encoding"
    return None


def main():
    failures = 0
    for stem in sys.argv[1:]:
        for problem in (
            check(stem, p4info_pb2.P4Info, P4INFO_HEADER),
            check(stem + ".entries", p4runtime_pb2.WriteRequest, ENTRIES_HEADER),
        ):
            if problem:
                print(problem)
                failures += 1
    print(f"checked {len(sys.argv) - 1} programs, {failures} differences")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
