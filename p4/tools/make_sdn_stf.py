#!/usr/bin/env python3
"""Writes the STF tests of p4/sdn.p4: sdn.stf (forwarding and overlay),
sdn_security.stf (tenant isolation, anti-spoofing, management protection),
sdn_acl.stf (security groups), sdn_cpu.stf (packet_in / packet_out) and
sdn_meter.stf (per-VF rate limits).

Expected frames are built here from the protocol specifications and the
behaviour docs/nic-model.md describes, not taken from a simulator run.
Run from anywhere:  python3 p4/tools/make_sdn_stf.py
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stfpkt import (arp, crc16_arc, csum16, eth, hx, icmpv6_nd, ip4, ip6,  # noqa: E402
                    ipv4, ipv6, mac, tcp, udp, vlan, vxlan)

P4_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# --- the test topology ----------------------------------------------------

CPU = 510
UPLINK0, UPLINK1 = 0, 1

BLUE, RED = 1, 2                    # tenant ids (= VRF ids)
VNI_BLUE, VNI_RED = 1001, 2002
VNI_MGMT = 9999
MGMT_VLAN = 100
MGMT_PREFIX = ("172.16.0.0", 12)


class Host:
    def __init__(self, port, mac_, ip, ip6_=None, tenant=None):
        self.port, self.mac, self.ip, self.ip6, self.tenant = port, mac_, ip, ip6_, tenant


# Local VFs.  VF5 (red) deliberately reuses VF2's IPv4 address.
VF2 = Host(2, "02:00:00:00:01:02", "10.1.0.2", "fd01::2", BLUE)
VF3 = Host(3, "02:00:00:00:01:03", "10.1.0.3", "fd01::3", BLUE)
VF4 = Host(4, "02:00:00:00:01:04", "10.1.9.4", None, BLUE)
VF5 = Host(5, "02:00:00:00:02:05", "10.1.0.2", None, RED)
VF6 = Host(6, "02:00:00:00:06:06", "10.6.0.6", None, None)   # not assigned
VNI_OF = {BLUE: VNI_BLUE, RED: VNI_RED}

# Gateways (the same addresses in both tenants, different MACs).
GW = {BLUE: Host(None, "02:00:00:00:01:01", "10.1.0.1", "fd01::1", BLUE),
      RED: Host(None, "02:00:00:00:02:01", "10.1.0.1", "fd01::1", RED)}

# Remote VMs behind other VTEPs.
R1 = Host(None, "02:00:00:00:01:20", "10.1.0.20", None, BLUE)   # bridged, tunnel 1
R2 = Host(None, "02:00:00:00:01:21", "10.1.5.7", None, BLUE)    # routed, tunnel 2
R5 = Host(None, "02:00:00:00:02:20", "10.1.9.9", None, RED)     # red, tunnel 1

LOCAL_VTEP = "192.168.0.1"
UPLINK_MAC = {UPLINK0: "02:aa:00:00:00:00", UPLINK1: "02:aa:00:00:00:01"}
TOR_MAC = {UPLINK0: "02:bb:00:00:00:00", UPLINK1: "02:bb:00:00:00:01"}
TUNNELS = {1: ("192.168.0.20", UPLINK0), 2: ("192.168.0.21", UPLINK1)}

PAYLOAD = bytes.fromhex("cafebabe00112233")

# Drop reasons (p4/sdn.p4).
(DROP_BAD_CHECKSUM, DROP_UNKNOWN_VF, DROP_SPOOFED_SOURCE, DROP_VF_TO_MGMT,
 DROP_VF_TO_CPU, DROP_METER_RED, DROP_NOT_OVERLAY, DROP_UNKNOWN_VNI,
 DROP_SECURITY_GROUP, DROP_L2_MISS, DROP_NO_ROUTE, DROP_TTL_EXPIRED,
 DROP_IP_OPTIONS, DROP_NO_TUNNEL, DROP_HAIRPIN, DROP_BAD_OUTPUT_PORT,
 DROP_BAD_PACKET_OUT, DROP_TENANT_MISMATCH, DROP_NO_VTEP_SOURCE) = range(1, 20)


def num(b):
    return "0x" + b.hex()


# --- frame builders ---------------------------------------------------------

def udp_frame(dst_mac, src_mac, src_ip, dst_ip, sport, dport, ttl=64,
              payload=PAYLOAD, ip_checksum=None):
    body = udp(sport, dport, len(payload)) + payload
    return [eth(dst_mac, src_mac, 0x0800),
            ipv4(src_ip, dst_ip, 17, len(body), ttl=ttl, checksum=ip_checksum),
            body]


def tcp_frame(dst_mac, src_mac, src_ip, dst_ip, sport, dport, ttl=64,
              payload=PAYLOAD):
    body = tcp(sport, dport) + payload
    return [eth(dst_mac, src_mac, 0x0800),
            ipv4(src_ip, dst_ip, 6, len(body), ttl=ttl), body]


def routed(frame, gw_mac, next_mac):
    """The same IPv4 frame after routing: new MACs, TTL - 1, new checksum."""
    e, ip, body = frame
    ttl = ip[8] - 1
    new_ip = ip[:8] + bytes([ttl]) + ip[9:10] + b"\0\0" + ip[12:]
    c = csum16(new_ip)
    new_ip = new_ip[:10] + c.to_bytes(2, "big") + new_ip[12:]
    return [mac(next_mac) + mac(gw_mac) + e[12:], new_ip, body]


def entropy_port(inner):
    """Outer UDP source port: 49152 + crc16(flow fields) % 16384, the flow
    fields being the inner Ethernet dst, src, type, then (IPv4 only,
    else zeros) IPv4 src, dst, protocol, then the TCP/UDP ports (zeros
    when there are none)."""
    raw = b"".join(inner)
    data = raw[0:14]
    if raw[12:14] == b"\x08\x00":
        ip = raw[14:34]
        data += ip[12:16] + ip[16:20] + ip[9:10]
        unfragmented = int.from_bytes(ip[6:8], "big") & 0x1FFF == 0
        if ip[9] in (6, 17) and ip[0] == 0x45 and unfragmented:
            data += raw[34:38]
        else:
            data += b"\0" * 4
    else:
        data += b"\0" * 13
    return 49152 + crc16_arc(data) % 16384


def encapsulated(inner, vni, tunnel):
    """What the NIC sends on the tunnel's uplink for tenant frame `inner`."""
    remote, uplink = TUNNELS[tunnel]
    inner_len = len(b"".join(inner))
    sport = entropy_port(inner)
    outer = [eth(TOR_MAC[uplink], UPLINK_MAC[uplink], 0x0800),
             ipv4(LOCAL_VTEP, remote, 17, 8 + 8 + inner_len, ttl=64, ident=0,
                  flags=0b010),
             udp(sport, 4789, 8 + inner_len),
             vxlan(vni)]
    return outer + inner, uplink


def from_remote(inner, vni, remote_vtep="192.168.0.20", uplink=UPLINK0,
                sport=51000, local=LOCAL_VTEP, outer_checksum=None):
    """A VXLAN frame as a remote VTEP sends it to this NIC."""
    inner_len = len(b"".join(inner))
    return [eth(UPLINK_MAC[uplink], TOR_MAC[uplink], 0x0800),
            ipv4(remote_vtep, local, 17, 16 + inner_len, ttl=62, ident=7,
                 checksum=outer_checksum),
            udp(sport, 4789, 8 + inner_len),
            vxlan(vni)] + inner


def packet_in(port, reason):
    return ((port << 15) | reason).to_bytes(3, "big")


# --- STF writer -------------------------------------------------------------

class Stf:
    def __init__(self, title):
        self.lines = ["# " + l for l in title.strip().splitlines()]

    def comment(self, text):
        self.lines += [""] + ["# " + l for l in text.strip().splitlines()]

    def raw(self, line):
        self.lines.append(line)

    def packet(self, port, parts):
        self.lines.append(f"packet {port} {hx(*parts)}")

    def expect(self, port, parts):
        self.lines.append(f"expect {port} {hx(*parts)} $")

    def check(self, name, index, packets):
        self.lines.append(f"check_counter {name}({index}) packets == {packets}")

    def write(self, name):
        with open(os.path.join(P4_DIR, name), "w") as f:
            f.write("\n".join(self.lines) + "\n")


def config(s):
    """The operator's tables for the topology above."""
    s.comment("""Topology.  Tenant blue (id 1, VNI 1001): VF2 10.1.0.2, VF3 10.1.0.3,
VF4 10.1.9.4 (another subnet), gateway 02:00:00:00:01:01 10.1.0.1 fd01::1,
remote R1 10.1.0.20 (bridged via tunnel 1), remote subnet 10.1.0.0/16 via
R2 (tunnel 2).  Tenant red (id 2, VNI 2002): VF5, which reuses 10.1.0.2;
gateway 02:00:00:00:02:01; 10.1.9.0/24 is remote (R5, tunnel 1).
VF6 belongs to no tenant.  Local VTEP 192.168.0.1; tunnel 1 -> 192.168.0.20
via uplink 0, tunnel 2 -> 192.168.0.21 via uplink 1.  Management network:
172.16.0.0/12, VLAN 100, VNI 9999.""")
    for vf in (VF2, VF3, VF4, VF5):
        s.raw(f"add vf_tenants ingress_port:{vf.port} "
              f"assign_vf(tenant:{vf.tenant}, vni:{VNI_OF[vf.tenant]})")
        s.raw(f"add vf_owners sm.egress_port:{vf.port} set_port_owner(tenant:{vf.tenant})")
        s.raw(f"add vf_mac_sources ingress_port:{vf.port} "
              f"hdr.ethernet.src_addr:{num(mac(vf.mac))} source_allowed()")
        s.raw(f"add vf_ipv4_sources ingress_port:{vf.port} "
              f"meta.src_ipv4:{num(ip4(vf.ip))} source_allowed()")
        if vf.ip6:
            s.raw(f"add vf_ipv6_sources ingress_port:{vf.port} "
                  f"hdr.ipv6.src_addr:{num(ip6(vf.ip6))} source_allowed()")
    for t, gw in GW.items():
        s.raw(f"add tenant_gateways meta.tenant:{t} set_gateway(mac:{num(mac(gw.mac))}, "
              f"ipv4:{num(ip4(gw.ip))}, ipv6:{num(ip6(gw.ip6))})")
    for h in (VF2, VF3, VF4, VF5):
        s.raw(f"add tenant_macs meta.vni:{VNI_OF[h.tenant]} "
              f"hdr.ethernet.dst_addr:{num(mac(h.mac))} bridge_to_vf(port:{h.port})")
    s.raw(f"add tenant_macs meta.vni:{VNI_BLUE} hdr.ethernet.dst_addr:{num(mac(R1.mac))} "
          f"bridge_to_remote(tunnel:1)")
    s.raw(f"add tenant_macs meta.vni:{VNI_RED} hdr.ethernet.dst_addr:{num(mac(R5.mac))} "
          f"bridge_to_remote(tunnel:1)")
    s.raw(f"add tenant_routes vrf:{BLUE} hdr.ipv4.dst_addr:{num(ip4(VF2.ip))}/32 "
          f"route_to_vf(port:2, next_mac:{num(mac(VF2.mac))})")
    s.raw(f"add tenant_routes vrf:{BLUE} hdr.ipv4.dst_addr:{num(ip4('10.1.9.0'))}/24 "
          f"route_to_vf(port:4, next_mac:{num(mac(VF4.mac))})")
    s.raw(f"add tenant_routes vrf:{BLUE} hdr.ipv4.dst_addr:{num(ip4('10.1.0.0'))}/16 "
          f"route_to_remote(tunnel:2, next_mac:{num(mac(R2.mac))})")
    s.raw(f"add tenant_routes vrf:{RED} hdr.ipv4.dst_addr:{num(ip4('10.1.9.0'))}/24 "
          f"route_to_remote(tunnel:1, next_mac:{num(mac(R5.mac))})")
    for t, (remote, uplink) in TUNNELS.items():
        s.raw(f"add tunnels meta.tunnel:{t} set_tunnel(remote_vtep:{num(ip4(remote))}, "
              f"underlay_mac:{num(mac(TOR_MAC[uplink]))}, uplink:{uplink})")
    for u in (UPLINK0, UPLINK1):
        s.raw(f"add uplink_vteps sm.egress_port:{u} vxlan_encap("
              f"vtep_mac:{num(mac(UPLINK_MAC[u]))}, vtep_ipv4:{num(ip4(LOCAL_VTEP))})")
    s.raw(f"add local_vteps hdr.outer_ipv4.dst_addr:{num(ip4(LOCAL_VTEP))} local_vtep()")
    s.raw(f"add vni_tenants hdr.vxlan.vni:{VNI_BLUE} set_tenant(tenant:{BLUE})")
    s.raw(f"add vni_tenants hdr.vxlan.vni:{VNI_RED} set_tenant(tenant:{RED})")
    s.raw(f"add management_prefixes meta.mgmt_ipv4:{num(ip4(MGMT_PREFIX[0]))}/{MGMT_PREFIX[1]} "
          f"is_management()")
    s.raw(f"add management_vlans meta.mgmt_vlan:{MGMT_VLAN} is_management()")
    s.raw(f"add management_vnis meta.mgmt_vni:{VNI_MGMT} is_management()")


# --- sdn.stf: forwarding and overlay ---------------------------------------

def forwarding_tests():
    s = Stf("""p4/sdn.p4: per-tenant bridging and routing, VXLAN encapsulation and
decapsulation, hairpin / unknown-VNI / not-overlay drops, checksums, counters.
Generated by p4/tools/make_sdn_stf.py (expected bytes computed there).""")
    config(s)

    s.comment("VF2 -> VF3, TCP, same tenant and subnet: switched on the NIC, unchanged.")
    f = tcp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 40000, 80)
    s.packet(2, f)
    s.expect(3, f)

    s.comment("VF3 -> VF2, UDP: unchanged.")
    f = udp_frame(VF2.mac, VF3.mac, VF3.ip, VF2.ip, 5000, 6000)
    s.packet(3, f)
    s.expect(2, f)

    s.comment("VF2 -> VF3, IPv6 UDP (source fd01::2 is VF2's): bridged unchanged.")
    body = udp(7000, 7001, len(PAYLOAD)) + PAYLOAD
    f = [eth(VF3.mac, VF2.mac, 0x86DD), ipv6(VF2.ip6, VF3.ip6, 17, len(body), 64), body]
    s.packet(2, f)
    s.expect(3, f)

    s.comment("VF2 -> VF3, a non-IP ethertype (0x88b5): bridged unchanged.")
    f = [eth(VF3.mac, VF2.mac, 0x88B5), bytes.fromhex("0102030405060708")]
    s.packet(2, f)
    s.expect(3, f)

    s.comment("""VF2 -> R1 (remote, same subnet): bridged into tunnel 1, VXLAN VNI 1001
out of uplink 0.  Outer IPv4 192.168.0.1 -> 192.168.0.20, DF, TTL 64,
length = inner + 36, header checksum computed; outer UDP length = inner + 16,
checksum 0; source port = 49152 + crc16(inner flow) % 16384.""")
    inner = udp_frame(R1.mac, VF2.mac, VF2.ip, R1.ip, 33333, 4444)
    out, port = encapsulated(inner, VNI_BLUE, 1)
    s.packet(2, inner)
    s.expect(port, out)

    s.comment("VF2 -> R1 again, TCP: another flow, another outer source port.")
    inner = tcp_frame(R1.mac, VF2.mac, VF2.ip, R1.ip, 40001, 443)
    out, port = encapsulated(inner, VNI_BLUE, 1)
    s.packet(2, inner)
    s.expect(port, out)

    s.comment("R1 -> VF2 over uplink 0 (VXLAN VNI 1001): decapsulated, delivered to VF2.")
    inner = udp_frame(VF2.mac, R1.mac, R1.ip, VF2.ip, 4444, 33333)
    s.packet(0, from_remote(inner, VNI_BLUE))
    s.expect(2, inner)

    s.comment("The same over uplink 1 (the fabric's other path): also to VF2.")
    s.packet(1, from_remote(inner, VNI_BLUE, uplink=UPLINK1, sport=60001))
    s.expect(2, inner)

    s.comment("""VF2 routes to 10.1.9.4 (frame to the gateway MAC): /24 beats /16, out of
VF4 with source MAC = gateway, destination = VF4, TTL 64 -> 63, checksum redone.""")
    f = udp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, VF4.ip, 1234, 5678)
    s.packet(2, f)
    s.expect(4, routed(f, GW[BLUE].mac, VF4.mac))

    s.comment("""VF2 routes to 10.1.5.7: the /16 says remote via R2 (tunnel 2, uplink 1).
Routed first (MACs, TTL 63, checksum), then encapsulated with VNI 1001.""")
    f = tcp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, R2.ip, 40002, 22, ttl=20)
    inner = routed(f, GW[BLUE].mac, R2.mac)
    out, port = encapsulated(inner, VNI_BLUE, 2)
    s.packet(2, f)
    s.expect(port, out)

    s.comment("""R2 -> 10.1.0.2 arriving routed-to-gateway over uplink 1: routed in the
blue VRF to VF2 (/32), TTL 63 -> 62.""")
    inner_in = udp_frame(GW[BLUE].mac, R2.mac, R2.ip, VF2.ip, 53, 40000, ttl=63)
    s.packet(1, from_remote(inner_in, VNI_BLUE, remote_vtep="192.168.0.21", uplink=UPLINK1))
    s.expect(2, routed(inner_in, GW[BLUE].mac, VF2.mac))

    s.comment("""Tenant red, VF5 (same IPv4 address as VF2) routes to 10.1.9.4: the red
VRF says remote via R5 (tunnel 1) with VNI 2002 -- not blue's VF4.""")
    f = udp_frame(GW[RED].mac, VF5.mac, VF5.ip, VF4.ip, 1234, 5678)
    inner = routed(f, GW[RED].mac, R5.mac)
    out, port = encapsulated(inner, VNI_RED, 1)
    s.packet(5, f)
    s.expect(port, out)

    s.comment("R5 -> VF5 over uplink 0 with VNI 2002: delivered to VF5.")
    inner = udp_frame(VF5.mac, R5.mac, R5.ip, VF5.ip, 9, 9)
    s.packet(0, from_remote(inner, VNI_RED))
    s.expect(5, inner)

    s.comment("Drops.  VF2 -> unknown MAC 02:00:00:00:01:99: no MAC entry (L2 miss).")
    s.packet(2, udp_frame("02:00:00:00:01:99", VF2.mac, VF2.ip, "10.1.0.99", 1, 2))

    s.comment("VF2 -> 10.2.0.1 via the gateway: no route in the blue VRF.")
    s.packet(2, udp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, "10.2.0.1", 1, 2))

    s.comment("VF2 -> 10.1.9.4 via the gateway with TTL 1, then TTL 0: expired.")
    s.packet(2, udp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, VF4.ip, 1, 2, ttl=1))
    s.packet(2, udp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, VF4.ip, 1, 2, ttl=0))

    s.comment("VF2 -> 10.1.9.4 via the gateway with IPv4 options (IHL 6): not routed.")
    body = udp(1, 2, len(PAYLOAD)) + PAYLOAD
    opt_hdr = struct.pack("!BBHHHBBH4s4s", 0x46, 0, 24 + len(body), 1, 0, 64, 17, 0,
                          ip4(VF2.ip), ip4(VF4.ip)) + bytes(4)
    opt_hdr = opt_hdr[:10] + csum16(opt_hdr).to_bytes(2, "big") + opt_hdr[12:]
    s.packet(2, [eth(GW[BLUE].mac, VF2.mac, 0x0800), opt_hdr, body])

    s.comment("VF2 -> VF3 with a wrong IPv4 header checksum: dropped.")
    good = udp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 1, 2)
    bad_sum = int.from_bytes(good[1][10:12], "big") ^ 0x0101
    s.packet(2, udp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 1, 2, ip_checksum=bad_sum))

    s.comment("VXLAN from uplink 0 with a wrong outer IPv4 checksum: dropped.")
    inner = udp_frame(VF2.mac, R1.mac, R1.ip, VF2.ip, 4444, 33333)
    good = from_remote(inner, VNI_BLUE)
    bad_sum = int.from_bytes(good[1][10:12], "big") ^ 0x00ff
    s.packet(0, from_remote(inner, VNI_BLUE, outer_checksum=bad_sum))

    s.comment("""Uplink 0, VNI 1001, inner destination R1 (a remote MAC): the NIC never
sends uplink traffic back to an uplink (hairpin).""")
    inner = udp_frame(R1.mac, "02:00:00:00:01:77", "10.1.0.77", R1.ip, 1, 2)
    s.packet(0, from_remote(inner, VNI_BLUE))

    s.comment("Uplink 0, VNI 3003 (no tenant): dropped.")
    inner = udp_frame(VF2.mac, R1.mac, R1.ip, VF2.ip, 1, 2)
    s.packet(0, from_remote(inner, 3003))

    s.comment("""Uplink 1: plain UDP to the VTEP address (not VXLAN), and VXLAN to an
address that is not ours (192.168.0.99): both not overlay, dropped.""")
    s.packet(1, [eth(UPLINK_MAC[1], TOR_MAC[1], 0x0800),
                 ipv4("192.168.0.20", LOCAL_VTEP, 17, 8 + len(PAYLOAD)),
                 udp(1000, 53, len(PAYLOAD)), PAYLOAD])
    s.packet(1, from_remote(inner, VNI_BLUE, uplink=UPLINK1, local="192.168.0.99"))

    s.comment("An ARP frame from the uplink, not IPv4 at all: dropped.")
    s.packet(0, [eth("ff:ff:ff:ff:ff:ff", TOR_MAC[0], 0x0806),
                 arp(1, TOR_MAC[0], "192.168.0.254", "00:00:00:00:00:00", LOCAL_VTEP)])

    s.comment("""The CPU port is observed as well (nothing above may reach it): a
packet_out to VF3 (see sdn_cpu.stf).""")
    f = udp_frame(VF3.mac, GW[BLUE].mac, GW[BLUE].ip, VF3.ip, 67, 68)
    s.packet(CPU, [(3 << 7).to_bytes(2, "big")] + f)
    s.expect(3, f)

    s.comment("""Counters.  Blue: 11 forwarded frames plus 6 drops after the tenant was
known (L2 miss, no route, 2 x TTL, options, hairpin).  Frames dropped
before classification (bad checksums, unknown VNI, not overlay) count for
no tenant.  The packet_out above counts for no tenant and no VF rx.""")
    s.check("SdnIngress.tenant_packets", BLUE, 17)
    s.check("SdnIngress.tenant_packets", RED, 2)
    s.check("SdnIngress.vf_rx", 2, 13)
    s.check("SdnIngress.vf_rx", 3, 1)
    s.check("SdnIngress.vf_rx", 5, 1)
    s.check("SdnEgress.vf_tx", 2, 4)
    s.check("SdnEgress.vf_tx", 3, 4)
    s.check("SdnEgress.vf_tx", 4, 1)
    s.check("SdnEgress.vf_tx", 5, 1)
    s.check("SdnIngress.drops", DROP_L2_MISS, 1)
    s.check("SdnIngress.drops", DROP_NO_ROUTE, 1)
    s.check("SdnIngress.drops", DROP_TTL_EXPIRED, 2)
    s.check("SdnIngress.drops", DROP_IP_OPTIONS, 1)
    s.check("SdnIngress.drops", DROP_BAD_CHECKSUM, 2)
    s.check("SdnIngress.drops", DROP_HAIRPIN, 1)
    s.check("SdnIngress.drops", DROP_UNKNOWN_VNI, 1)
    s.check("SdnIngress.drops", DROP_NOT_OVERLAY, 3)
    s.check("SdnIngress.vf_drops", 2, 6)
    s.write("sdn.stf")



# --- sdn_security.stf: isolation, anti-spoofing, management ---------------

def arp_frame(dst_mac, src, oper, sender_mac, sender_ip, target_ip,
              target_mac="00:00:00:00:00:00"):
    return [eth(dst_mac, src, 0x0806),
            arp(oper, sender_mac, sender_ip, target_mac, target_ip)]


def forged_vxlan(outer_dst_mac, src, vni, inner):
    """A VF's own VXLAN packet (tenant UDP to port 4789): just payload."""
    inner_b = b"".join(inner)
    body = udp(50000, 4789, 8 + len(inner_b)) + vxlan(vni) + inner_b
    return [eth(outer_dst_mac, src.mac, 0x0800),
            ipv4(src.ip, "10.1.0.20", 17, len(body)), body]


def security_tests():
    s = Stf("""p4/sdn.p4: tenant classification, anti-spoofing, management-network
and CPU-port protection, tenant isolation (forged MAC, forged VNI,
misconfigured entries).  Generated by p4/tools/make_sdn_stf.py.""")
    config(s)
    s.comment("""A default route in blue's VRF (to R2): without the management check,
frames to 172.16.0.0/12 would be routed out.""")
    s.raw(f"add tenant_routes vrf:{BLUE} hdr.ipv4.dst_addr:0/0 "
          f"route_to_remote(tunnel:2, next_mac:{num(mac(R2.mac))})")

    s.comment("VF6 is assigned to no tenant: everything it sends is dropped.")
    s.packet(6, udp_frame(VF3.mac, VF6.mac, VF6.ip, VF3.ip, 1, 2))

    s.comment("Anti-spoofing.  VF2 with VF3's source MAC: dropped.")
    s.packet(2, udp_frame(VF2.mac, VF3.mac, VF3.ip, VF2.ip, 1, 2))
    s.comment("VF2 with its own MAC but VF3's IPv4 address: dropped.")
    s.packet(2, udp_frame(VF3.mac, VF2.mac, VF3.ip, VF3.ip, 1, 2))
    s.comment("VF5 (red) with blue VF3's IPv4 address: dropped.")
    s.packet(5, udp_frame(R5.mac, VF5.mac, VF3.ip, R5.ip, 1, 2))
    s.comment("ARP from VF2 whose sender MAC is not the frame's source: dropped.")
    s.packet(2, arp_frame(VF3.mac, VF2.mac, 2, VF3.mac, VF2.ip, VF3.ip, VF3.mac))
    s.comment("ARP from VF2 with VF3's address as sender IP: dropped.")
    s.packet(2, arp_frame(VF3.mac, VF2.mac, 2, VF2.mac, VF3.ip, VF3.ip, VF3.mac))
    s.comment("IPv6 from VF2 with source fd01::3: dropped; VF4 has no IPv6 address: dropped.")
    body = udp(1, 2, len(PAYLOAD)) + PAYLOAD
    s.packet(2, [eth(VF3.mac, VF2.mac, 0x86DD), ipv6("fd01::3", VF3.ip6, 17, len(body)), body])
    s.packet(4, [eth(VF3.mac, VF4.mac, 0x86DD), ipv6("fd01::4", VF3.ip6, 17, len(body)), body])
    s.comment("An ARP reply from VF2 to VF3 with VF2's own addresses: bridged unchanged.")
    f = arp_frame(VF3.mac, VF2.mac, 2, VF2.mac, VF2.ip, VF3.ip, VF3.mac)
    s.packet(2, f)
    s.expect(3, f)

    s.comment("""Management network from a VF.  VF2 -> 172.16.1.1 through the gateway
(the default route would carry it): dropped.""")
    s.packet(2, udp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, "172.16.1.1", 1, 22))
    s.comment("VF2 -> VF3 tagged with the management VLAN 100: dropped.")
    ip_body = udp(1, 2, len(PAYLOAD)) + PAYLOAD
    s.packet(2, [eth(VF3.mac, VF2.mac, 0x8100), vlan(MGMT_VLAN, 0x0800),
                 ipv4(VF2.ip, VF3.ip, 17, len(ip_body)), ip_body])
    s.comment("VF2 -> VF3 tagged with the tenant's own VLAN 200: bridged unchanged.")
    f = [eth(VF3.mac, VF2.mac, 0x8100), vlan(200, 0x0800),
         ipv4(VF2.ip, VF3.ip, 17, len(ip_body)), ip_body]
    s.packet(2, f)
    s.expect(3, f)
    s.comment("ARP request from VF2 for 172.16.0.1: dropped.")
    s.packet(2, arp_frame("ff:ff:ff:ff:ff:ff", VF2.mac, 1, VF2.mac, VF2.ip, "172.16.0.1"))

    s.comment("""The CPU port from a VF.  Operator entries that point blue traffic at the
CPU port (a MAC entry and a route): dropped, the CPU port stays silent.""")
    s.raw(f"add tenant_macs meta.vni:{VNI_BLUE} hdr.ethernet.dst_addr:0x02cc00000001 "
          f"bridge_to_vf(port:{CPU})")
    s.raw(f"add tenant_routes vrf:{BLUE} hdr.ipv4.dst_addr:{num(ip4('10.1.7.7'))}/32 "
          f"route_to_vf(port:{CPU}, next_mac:0x02cc00000001)")
    s.packet(2, udp_frame("02:cc:00:00:00:01", VF2.mac, VF2.ip, "10.1.7.7", 1, 2))
    s.packet(2, udp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, "10.1.7.7", 1, 2))
    s.comment("""An entry that would put raw tenant frames on an uplink (no tunnel):
dropped (bad output port).""")
    s.raw(f"add tenant_macs meta.vni:{VNI_BLUE} hdr.ethernet.dst_addr:0x02dd00000001 "
          f"bridge_to_vf(port:{UPLINK0})")
    s.packet(2, udp_frame("02:dd:00:00:00:01", VF2.mac, VF2.ip, "10.1.0.44", 1, 2))

    s.comment("""Tenant isolation.  VF2 (blue) -> VF5's MAC (red): not in blue's MAC
table, dropped.  VF5 -> VF2's MAC: likewise.""")
    s.packet(2, udp_frame(VF5.mac, VF2.mac, VF2.ip, VF5.ip, 1, 2))
    s.packet(5, udp_frame(VF2.mac, VF5.mac, VF5.ip, VF2.ip, 1, 2))
    s.comment("VF5 -> 10.1.0.3 (blue VF3's address) through red's gateway: no route in red.")
    s.packet(5, udp_frame(GW[RED].mac, VF5.mac, VF5.ip, VF3.ip, 1, 2))

    s.comment("""Forged VNI from a VF: VF2 builds its own VXLAN packet with red's VNI 2002
around a frame for VF5.  To the NIC that is blue UDP payload: sent to VF3
unchanged when addressed to VF3 ...""")
    forged_inner = udp_frame(VF5.mac, "02:00:00:00:02:99", "10.1.0.99", VF5.ip, 1, 2)
    f = forged_vxlan(VF3.mac, VF2, VNI_RED, forged_inner)
    s.packet(2, f)
    s.expect(3, f)
    s.comment("""... and, addressed to R1, encapsulated with blue's VNI 1001 (the forged
header stays inside as payload).""")
    f = forged_vxlan(R1.mac, VF2, VNI_RED, forged_inner)
    out, port = encapsulated(f, VNI_BLUE, 1)
    s.packet(2, f)
    s.expect(port, out)

    s.comment("""From the uplink: blue VNI 1001 carrying a frame for VF5 (red): dropped
(L2 miss); red VNI 2002 carrying a frame for VF2: dropped.""")
    s.packet(0, from_remote(udp_frame(VF5.mac, R1.mac, R1.ip, VF5.ip, 1, 2), VNI_BLUE))
    s.packet(0, from_remote(udp_frame(VF2.mac, R5.mac, R5.ip, VF2.ip, 1, 2), VNI_RED))

    s.comment("""A misconfigured entry puts VF5 (red) in blue's MAC table.  The egress
owner check still refuses blue frames on VF5, from VF2 and from the uplink.""")
    s.raw(f"add tenant_macs meta.vni:{VNI_BLUE} hdr.ethernet.dst_addr:{num(mac(VF5.mac))} "
          f"bridge_to_vf(port:5)")
    s.packet(2, udp_frame(VF5.mac, VF2.mac, VF2.ip, VF5.ip, 1, 2))
    s.packet(0, from_remote(udp_frame(VF5.mac, R1.mac, R1.ip, VF5.ip, 1, 2), VNI_BLUE))

    s.comment("""Management traffic from the uplinks goes to the CPU port only, with a
packet_in header (ingress port, reason 3), the frame untouched.
Uplink 0, management VLAN 100:""")
    body = udp(5000, 161, len(PAYLOAD)) + PAYLOAD
    f = [eth(UPLINK_MAC[0], TOR_MAC[0], 0x8100), vlan(MGMT_VLAN, 0x0800),
         ipv4("10.0.0.9", "10.0.0.5", 17, len(body)), body]
    s.packet(0, f)
    s.expect(CPU, [packet_in(0, 3)] + f)
    s.comment("Uplink 1, untagged, to 172.16.0.10 (management prefix):")
    f = [eth(UPLINK_MAC[1], TOR_MAC[1], 0x0800),
         ipv4("192.168.7.7", "172.16.0.10", 6, 20 + len(PAYLOAD)), tcp(33000, 22), PAYLOAD]
    s.packet(1, f)
    s.expect(CPU, [packet_in(1, 3)] + f)
    s.comment("Uplink 0, VXLAN with the management VNI 9999 around a frame for VF2: CPU, not VF2.")
    f = from_remote(udp_frame(VF2.mac, R1.mac, R1.ip, VF2.ip, 1, 2), VNI_MGMT)
    s.packet(0, f)
    s.expect(CPU, [packet_in(0, 3)] + f)
    s.comment("Uplink 0, blue VNI 1001 but to an address in the management prefix: CPU.")
    f = from_remote(udp_frame(VF2.mac, R1.mac, R1.ip, VF2.ip, 1, 2), VNI_BLUE,
                    local="172.16.0.1")
    s.packet(0, f)
    s.expect(CPU, [packet_in(0, 3)] + f)
    s.comment("""Uplink 0, underlay VLAN 200 (not management), VXLAN VNI 1001 for VF2:
decapsulated (outer VLAN removed too), delivered to VF2.""")
    inner = udp_frame(VF2.mac, R1.mac, R1.ip, VF2.ip, 4444, 33333)
    f = from_remote(inner, VNI_BLUE)
    f = [f[0][:12] + b"\x81\x00", vlan(200, 0x0800)] + f[1:]
    s.packet(0, f)
    s.expect(2, inner)

    s.comment("""VF6 assigned, by mistake, to the management VNI 9999 (with its addresses
allowed): everything it sends is management traffic from a VF, dropped.""")
    s.raw(f"add vf_tenants ingress_port:6 assign_vf(tenant:3, vni:{VNI_MGMT})")
    s.raw(f"add vf_mac_sources ingress_port:6 hdr.ethernet.src_addr:{num(mac(VF6.mac))} "
          f"source_allowed()")
    s.raw(f"add vf_ipv4_sources ingress_port:6 meta.src_ipv4:{num(ip4(VF6.ip))} source_allowed()")
    s.raw(f"add tenant_macs meta.vni:{VNI_MGMT} hdr.ethernet.dst_addr:{num(mac(VF3.mac))} "
          f"bridge_to_vf(port:3)")
    s.packet(6, udp_frame(VF3.mac, VF6.mac, VF6.ip, "10.6.0.1", 1, 2))

    s.check("SdnIngress.drops", DROP_UNKNOWN_VF, 1)
    s.check("SdnIngress.drops", DROP_SPOOFED_SOURCE, 7)
    s.check("SdnIngress.drops", DROP_VF_TO_MGMT, 4)
    s.check("SdnIngress.drops", DROP_VF_TO_CPU, 2)
    s.check("SdnIngress.drops", DROP_BAD_OUTPUT_PORT, 1)
    s.check("SdnIngress.drops", DROP_L2_MISS, 4)
    s.check("SdnIngress.drops", DROP_NO_ROUTE, 1)
    s.check("SdnEgress.drops", DROP_TENANT_MISMATCH, 2)
    s.check("SdnIngress.vf_drops", 2, 12)
    s.check("SdnIngress.vf_drops", 4, 1)
    s.check("SdnIngress.vf_drops", 5, 3)
    s.check("SdnIngress.vf_drops", 6, 2)
    s.check("SdnEgress.vf_tx", 5, 0)
    s.write("sdn_security.stf")


# --- sdn_acl.stf: security groups ------------------------------------------

def acl_tests():
    s = Stf("""p4/sdn.p4: security groups -- ternary rules per tenant with priorities
(larger wins), 5-tuple and port ranges written as value/mask blocks.
Generated by p4/tools/make_sdn_stf.py.""")
    config(s)
    s.comment("""Blue's rules (priority: match -> action):
 200: src 10.1.0.3, TCP, dport 22 -> permit
 100: TCP dport 22 -> deny
  60: UDP sport 53 -> permit
  50: UDP dport 1024..2047 (0b000001**********) -> deny
  20: dst 10.1.9.4, TCP, dport 80..95 (0x005*) -> permit
  10: dst 10.1.9.0/24 (0x0a0109**) -> deny
Red's only rule: 5: UDP -> deny.  No match: permit.""")
    t = f"meta.tenant:{BLUE}"
    s.raw(f"add security_group_rules 200 {t} hdr.ipv4.src_addr:0x0a010003 "
          f"hdr.ipv4.protocol:0x06 meta.l4_dport:0x0016 permit()")
    s.raw(f"add security_group_rules 100 {t} hdr.ipv4.protocol:0x06 meta.l4_dport:0x0016 deny()")
    s.raw(f"add security_group_rules 60 {t} hdr.ipv4.protocol:0x11 meta.l4_sport:0x0035 permit()")
    s.raw(f"add security_group_rules 50 {t} hdr.ipv4.protocol:0x11 "
          f"meta.l4_dport:0b000001********** deny()")
    s.raw(f"add security_group_rules 20 {t} hdr.ipv4.dst_addr:0x0a010904 "
          f"hdr.ipv4.protocol:0x06 meta.l4_dport:0x005* permit()")
    s.raw(f"add security_group_rules 10 {t} hdr.ipv4.dst_addr:0x0a0109** deny()")
    s.raw(f"add security_group_rules 5 meta.tenant:{RED} hdr.ipv4.protocol:0x11 deny()")

    s.comment("VF2 -> VF3 TCP 22: denied (100).")
    s.packet(2, tcp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 40000, 22))
    s.comment("VF3 -> VF2 TCP 22: permitted, 200 beats 100.")
    f = tcp_frame(VF2.mac, VF3.mac, VF3.ip, VF2.ip, 40000, 22)
    s.packet(3, f)
    s.expect(2, f)
    s.comment("VF2 -> VF3 TCP 23: no rule, permitted.")
    f = tcp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 40000, 23)
    s.packet(2, f)
    s.expect(3, f)
    s.comment("VF2 -> VF3 UDP to ports 1024, 1500, 2047: denied (50); 1023 and 2048: permitted.")
    for dport in (1024, 1500, 2047):
        s.packet(2, udp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 40000, dport))
    for dport in (1023, 2048):
        f = udp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 40000, dport)
        s.packet(2, f)
        s.expect(3, f)
    s.comment("VF2 -> VF3 UDP from port 53 to 1500: permitted, 60 beats 50.")
    f = udp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 53, 1500)
    s.packet(2, f)
    s.expect(3, f)
    s.comment("""VF2 -> 10.1.9.4 (routed to VF4): TCP 80 and 95 permitted (20), TCP 96
and UDP 80 denied (10).""")
    for dport in (80, 95):
        f = tcp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, VF4.ip, 41000, dport)
        s.packet(2, f)
        s.expect(4, routed(f, GW[BLUE].mac, VF4.mac))
    s.packet(2, tcp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, VF4.ip, 41000, 96))
    s.packet(2, udp_frame(GW[BLUE].mac, VF2.mac, VF2.ip, VF4.ip, 41000, 80))
    s.comment("""Red has its own rules: VF5 TCP 22 to R5 is permitted (blue's 100 does
not apply), VF5 UDP to R5 is denied (red's 5).""")
    f = tcp_frame(R5.mac, VF5.mac, VF5.ip, R5.ip, 40000, 22)
    out, port = encapsulated(f, VNI_RED, 1)
    s.packet(5, f)
    s.expect(port, out)
    s.packet(5, udp_frame(R5.mac, VF5.mac, VF5.ip, R5.ip, 40000, 22))
    s.comment("Decapsulated traffic is filtered too: R1 -> VF2 TCP 22 over uplink 0, denied.")
    s.packet(0, from_remote(tcp_frame(VF2.mac, R1.mac, R1.ip, VF2.ip, 40000, 22), VNI_BLUE))
    s.comment("""Security groups match IPv4 only: IPv6 UDP to port 1500 from VF2 is
bridged to VF3.""")
    body = udp(40000, 1500, len(PAYLOAD)) + PAYLOAD
    f = [eth(VF3.mac, VF2.mac, 0x86DD), ipv6(VF2.ip6, VF3.ip6, 17, len(body), 64), body]
    s.packet(2, f)
    s.expect(3, f)
    s.check("SdnIngress.drops", DROP_SECURITY_GROUP, 8)
    s.check("SdnIngress.vf_drops", 2, 6)
    s.check("SdnIngress.vf_drops", 5, 1)
    s.write("sdn_acl.stf")


# --- sdn_cpu.stf: packet_in / packet_out -----------------------------------

def nd_frame(src_host, dst_mac, src_ip6, dst_ip6, icmp_type, target, flags=0):
    body = icmpv6_nd(src_ip6, dst_ip6, icmp_type, target, flags)
    return [eth(dst_mac, src_host.mac, 0x86DD),
            ipv6(src_ip6, dst_ip6, 58, len(body)), body]


def cpu_tests():
    s = Stf("""p4/sdn.p4: ARP and IPv6 neighbor discovery for a tenant gateway punted to
the CPU port with packet_in (ingress port: 9 bits, 7 pad bits, reason: 8
bits); packet_out from the CPU port (egress port: 9 bits, 7 pad bits)
removed and the frame sent out of the named port.
Generated by p4/tools/make_sdn_stf.py.""")
    config(s)
    s.comment("ARP request from VF2 for blue's gateway 10.1.0.1: packet_in(2, reason 1).")
    f = arp_frame("ff:ff:ff:ff:ff:ff", VF2.mac, 1, VF2.mac, VF2.ip, GW[BLUE].ip)
    s.packet(2, f)
    s.expect(CPU, [packet_in(2, 1)] + f)
    s.comment("ARP reply from VF3 to the gateway: punted too.")
    f = arp_frame(GW[BLUE].mac, VF3.mac, 2, VF3.mac, VF3.ip, GW[BLUE].ip, GW[BLUE].mac)
    s.packet(3, f)
    s.expect(CPU, [packet_in(3, 1)] + f)
    s.comment("ARP request from VF5 (red) for red's gateway: packet_in(5, 1).")
    f = arp_frame("ff:ff:ff:ff:ff:ff", VF5.mac, 1, VF5.mac, VF5.ip, GW[RED].ip)
    s.packet(5, f)
    s.expect(CPU, [packet_in(5, 1)] + f)
    s.comment("""ARP request from VF2 for VF3 (not the gateway): not punted; broadcast has
no MAC entry, dropped.""")
    s.packet(2, arp_frame("ff:ff:ff:ff:ff:ff", VF2.mac, 1, VF2.mac, VF2.ip, VF3.ip))
    s.comment("""Neighbor solicitation from VF2 for fd01::1 (to its solicited-node group):
packet_in(2, reason 2).""")
    f = nd_frame(VF2, "33:33:ff:00:00:01", VF2.ip6, "ff02::1:ff00:1", 135, GW[BLUE].ip6)
    s.packet(2, f)
    s.expect(CPU, [packet_in(2, 2)] + f)
    s.comment("Neighbor advertisement from VF3 to the gateway (fd01::1): punted.")
    f = nd_frame(VF3, GW[BLUE].mac, VF3.ip6, GW[BLUE].ip6, 136, VF3.ip6, flags=0x60000000)
    s.packet(3, f)
    s.expect(CPU, [packet_in(3, 2)] + f)
    s.comment("Neighbor solicitation from VF2 for fd01::3 (a peer): not punted, dropped.")
    s.packet(2, nd_frame(VF2, "33:33:ff:00:00:03", VF2.ip6, "ff02::1:ff00:3", 135, VF3.ip6))
    s.comment("Neighbor solicitation for the gateway from a spoofed source fd01::9: dropped.")
    s.packet(2, nd_frame(VF2, "33:33:ff:00:00:01", "fd01::9", "ff02::1:ff00:1", 135,
                         GW[BLUE].ip6))

    s.comment("""packet_out to VF3 (0x0180 = port 3): header removed, frame sent as is.""")
    f = arp_frame(VF3.mac, GW[BLUE].mac, 2, GW[BLUE].mac, GW[BLUE].ip, VF3.ip, VF3.mac)
    s.packet(CPU, [bytes.fromhex("0180")] + f)
    s.expect(3, f)
    s.comment("packet_out to VF5 with the pad bits set (0x02ff = port 5): sent to VF5.")
    f = arp_frame(VF5.mac, GW[RED].mac, 2, GW[RED].mac, GW[RED].ip, VF5.ip, VF5.mac)
    s.packet(CPU, [bytes.fromhex("02ff")] + f)
    s.expect(5, f)
    s.comment("packet_out to uplink 1 (an LLDP frame the firmware builds): sent as is.")
    f = [eth("01:80:c2:00:00:0e", UPLINK_MAC[1], 0x88CC), bytes.fromhex("0207046e6963310403056531")]
    s.packet(CPU, [bytes.fromhex("0080")] + f)
    s.expect(1, f)
    s.comment("""packet_out naming the CPU port (0xff00 = 510) or the drop port
(0xff80 = 511), and one too short to hold the header: dropped.""")
    s.packet(CPU, [bytes.fromhex("ff00")] + f)
    s.packet(CPU, [bytes.fromhex("ff80")] + f)
    s.packet(CPU, [bytes.fromhex("01")])
    s.comment("Uplink 0 is observed too: nothing above may leak there.")
    s.packet(0, from_remote(udp_frame(VF2.mac, R1.mac, R1.ip, VF2.ip, 1, 2), 3003))
    s.check("SdnIngress.drops", DROP_BAD_PACKET_OUT, 3)
    s.check("SdnIngress.drops", DROP_L2_MISS, 2)
    s.check("SdnIngress.drops", DROP_SPOOFED_SOURCE, 1)
    s.check("SdnIngress.drops", DROP_UNKNOWN_VNI, 1)
    s.write("sdn_cpu.stf")


# --- sdn_meter.stf: per-VF rate limits -------------------------------------

def meter_tests():
    s = Stf("""p4/sdn.p4: per-VF byte meters (index = VF port), two-rate three-colour;
RED is dropped and counted, YELLOW passes.
Generated by p4/tools/make_sdn_stf.py.""")
    config(s)
    s.comment("""VF2: committed burst 64 bytes, peak burst 128 bytes, refilling at 1e-7
bytes/us (nothing within the test).  64-byte frames: GREEN, YELLOW, RED.
VF3 has no rates set: never limited.""")
    s.raw("meter_set_rates SdnIngress.vf_police.rate_limits 2 0.0000001:64 0.0000001:128")
    payload = bytes(range(22))
    frames = [udp_frame(VF3.mac, VF2.mac, VF2.ip, VF3.ip, 1000 + i, 2000, payload=payload)
              for i in range(3)]
    assert all(len(b"".join(f)) == 64 for f in frames)
    s.packet(2, frames[0])
    s.expect(3, frames[0])
    s.packet(2, frames[1])
    s.expect(3, frames[1])
    s.packet(2, frames[2])
    s.comment("VF3 sends three 64-byte frames to VF2: all pass.")
    for i in range(3):
        f = udp_frame(VF2.mac, VF3.mac, VF3.ip, VF2.ip, 3000 + i, 4000, payload=payload)
        s.packet(3, f)
        s.expect(2, f)
    s.comment("""VF4 with a committed and peak burst of 1000 bytes: three 64-byte frames
(routed to VF2 through the gateway) pass.""")
    s.raw("meter_set_rates SdnIngress.vf_police.rate_limits 4 0.0000001:1000 0.0000001:1000")
    for i in range(3):
        f = udp_frame(GW[BLUE].mac, VF4.mac, VF4.ip, VF2.ip, 5000 + i, 6000, payload=payload)
        s.packet(4, f)
        s.expect(2, routed(f, GW[BLUE].mac, VF2.mac))
    s.check("SdnIngress.drops", DROP_METER_RED, 1)
    s.check("SdnIngress.vf_drops", 2, 1)
    s.check("SdnIngress.vf_rx", 2, 3)
    s.check("SdnIngress.vf_drops", 3, 0)
    s.check("SdnIngress.vf_drops", 4, 0)
    s.check("SdnEgress.vf_tx", 2, 6)
    s.write("sdn_meter.stf")


if __name__ == "__main__":
    forwarding_tests()
    security_tests()
    acl_tests()
    cpu_tests()
    meter_tests()
