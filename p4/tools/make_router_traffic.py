#!/usr/bin/env python3
"""Traffic and routes for p4/examples/l3_router_acl.p4: ROUTES distinct /24
routes (next hops on ports 2..5), under 10.0.0.0/8 for up to 65,536 routes,
anywhere in the IPv4 space for more (1M routes, say), and PACKETS UDP
packets, each to a random host of a random route, to a port the ACL
permits.

Usage: make_router_traffic.py OUT_DIR [PACKETS] [ROUTES]
Writes OUT_DIR/entries.stf (for `sim run --entries`) and OUT_DIR/port1.pcap,
and prints the `--entries` and `--in` arguments for `janus sim run`.
"""

import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stfpkt import csum16  # noqa: E402


def frame(dst):
    payload = b"\xca\xfe\xba\xbe" * 4
    udp = struct.pack("!HHHH", 0x1234, 8080, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0,
                     bytes([10, 1, 1, 1]), dst)
    ip = ip[:10] + struct.pack("!H", csum16(ip)) + ip[12:]
    return bytes.fromhex("aaaaaaaaaaaa0200000000010800") + ip + udp


def main():
    out = sys.argv[1]
    packets = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    routes = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    rng = random.Random(19)
    if routes <= 1 << 16:
        nets = [0x0A0000 | n for n in rng.sample(range(1 << 16), routes)]
    else:
        nets = rng.sample(range(1 << 24), routes)  # any /24 (its top 24 bits)
    os.makedirs(out, exist_ok=True)
    entries = os.path.join(out, "entries.stf")
    with open(entries, "w") as f:
        for i, n in enumerate(nets):
            port = 2 + i % 4
            f.write(f"add ipv4_lpm hdr.ipv4.dst_addr:0x{n:06x}00/24 "
                    f"set_nexthop(next_mac:0x0000000000{port:02x}, port:{port})\n")
        for port in range(2, 6):
            f.write(f"add port_mac standard_metadata.egress_port:{port} "
                    f"rewrite_source(smac:0x0200000000{port:02x})\n")
    pcap = os.path.join(out, "port1.pcap")
    with open(pcap, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        r = random.Random(7)
        for i in range(packets):
            net = nets[r.randrange(len(nets))]
            fr = frame(bytes([net >> 16, (net >> 8) & 0xFF, net & 0xFF, 1 + r.randrange(254)]))
            f.write(struct.pack("<IIII", i // 1000000, i % 1000000, len(fr), len(fr)) + fr)
    print(f"--entries {entries} --in 1={pcap}")


if __name__ == "__main__":
    main()
