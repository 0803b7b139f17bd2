#!/usr/bin/env python3
"""Realistic traffic for p4/sdn.p4 with the demo's entries
(p4/demo/sdn_demo.entries): many flows, three kinds in equal shares,
written as one pcap per input port for `janus sim run`.

- bridged: VF to VF of the same tenant (VF2 <-> VF3, VF4 <-> VF5);
- encapsulated: a VF to a remote host of its tenant through the gateway
  (10.1.8.0/24 behind tunnel 1, 10.2.8.0/24 behind tunnel 2): routed, then
  VXLAN out of an uplink;
- decapsulated: VXLAN from a remote VTEP on an uplink to a local VF.

Each flow is a 5-tuple (UDP or TCP, ports and the remote host drawn at
random); each packet belongs to a flow drawn at random, so flows repeat the
way a cache or a flow table would meet them.  Every packet is forwarded by
the demo's entries; nothing is dropped.  Timestamps are one microsecond
apart across all ports, so `sim run` interleaves the ports.

Usage: make_sdn_traffic.py OUT_DIR [PACKETS] [FLOWS] [SEED]
Writes OUT_DIR/port0.pcap ... port5.pcap (only ports with packets) and
prints the `--in` arguments for `janus sim run`.
"""

import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stfpkt import eth, ipv4, tcp, udp, vxlan  # noqa: E402

# The demo's tenants (p4/demo/sdn_demo.entries).
VFS = {2: ("02:00:00:00:01:02", "10.1.0.2", 1),
       3: ("02:00:00:00:01:03", "10.1.0.3", 1),
       4: ("02:00:00:00:02:04", "10.2.0.4", 2),
       5: ("02:00:00:00:02:05", "10.2.0.5", 2)}
PEER = {2: 3, 3: 2, 4: 5, 5: 4}
GATEWAY_MAC = {1: "02:00:00:00:01:01", 2: "02:00:00:00:02:01"}
REMOTE_NET = {1: "10.1.8.", 2: "10.2.8."}
REMOTE_MAC = {1: "02:00:00:00:01:20", 2: "02:00:00:00:02:20"}
VNI = {1: 1001, 2: 2002}
# Tenant -> (remote VTEP, uplink), as the tunnels table has them.
TUNNEL = {1: ("192.168.0.20", 0), 2: ("192.168.0.21", 1)}
UPLINK_MAC = {0: "02:aa:00:00:00:00", 1: "02:aa:00:00:00:01"}
TOR_MAC = {0: "02:bb:00:00:00:00", 1: "02:bb:00:00:00:01"}
LOCAL_VTEP = "192.168.0.1"
PAYLOAD = bytes(range(18))   # inner UDP frames of 60 bytes (64 on the wire with the FCS)


def l4(rng, proto, sport, dport):
    if proto == 17:
        return udp(sport, dport, len(PAYLOAD)) + PAYLOAD
    return tcp(sport, dport, seq=rng.randrange(1 << 32), flags=0x10) + PAYLOAD


def ip_frame(dst_mac, src_mac, src, dst, proto, body, ttl=64):
    return (eth(dst_mac, src_mac, 0x0800)
            + ipv4(src, dst, proto, len(body), ttl=ttl) + body)


def flow(rng, kind):
    """One flow: (input port, a function from the flow's packet number to
    its frame)."""
    vf = rng.choice(sorted(VFS))
    vf_mac, vf_ip, tenant = VFS[vf]
    proto = rng.choice((6, 17))
    sport, dport = rng.randrange(1024, 65536), rng.choice((53, 80, 443, 8080, 9000))
    if kind == 0:
        peer_mac, peer_ip, _ = VFS[PEER[vf]]
        body = l4(rng, proto, sport, dport)
        return vf, ip_frame(peer_mac, vf_mac, vf_ip, peer_ip, proto, body)
    remote_ip = REMOTE_NET[tenant] + str(rng.randrange(1, 255))
    if kind == 1:
        body = l4(rng, proto, sport, dport)
        return vf, ip_frame(GATEWAY_MAC[tenant], vf_mac, vf_ip, remote_ip, proto, body)
    vtep, uplink = TUNNEL[tenant]
    inner = ip_frame(vf_mac, REMOTE_MAC[tenant], remote_ip, vf_ip, proto,
                     l4(rng, proto, dport, sport))
    outer_udp = udp(rng.randrange(49152, 65536), 4789, 8 + len(inner))
    frame = (eth(UPLINK_MAC[uplink], TOR_MAC[uplink], 0x0800)
             + ipv4(vtep, LOCAL_VTEP, 17, len(outer_udp) + 8 + len(inner), ttl=62)
             + outer_udp + vxlan(VNI[tenant]) + inner)
    return uplink, frame


def main():
    out = sys.argv[1]
    packets = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    flows = int(sys.argv[3]) if len(sys.argv) > 3 else 12000
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 20)
    table = [flow(rng, i % 3) for i in range(flows)]
    os.makedirs(out, exist_ok=True)
    files = {}
    for i in range(packets):
        port, frame = table[rng.randrange(flows)]
        if port not in files:
            files[port] = open(os.path.join(out, f"port{port}.pcap"), "wb")
            files[port].write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        files[port].write(struct.pack("<IIII", i // 1000000, i % 1000000,
                                      len(frame), len(frame)) + frame)
    for f in files.values():
        f.close()
    print(" ".join(f"--in {p}={os.path.join(out, f'port{p}.pcap')}" for p in sorted(files)))


if __name__ == "__main__":
    main()
