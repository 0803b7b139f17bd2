"""Packet builders for writing the STF tests of p4/sdn.p4 and
p4/roce_paths.p4 (expected outputs are computed here from the protocol
specs, independently of the simulator).

Everything returns bytes.  Checksums: RFC 1071 (IPv4 header, ICMPv6);
hash: CRC-16/ARC (bmv2's `crc16`: reflected polynomial 0x8005, init 0).
"""

import ipaddress
import struct


def mac(text):
    """'02:00:00:00:01:02' -> 6 bytes."""
    return bytes(int(x, 16) for x in text.split(":"))


def ip4(text):
    return ipaddress.IPv4Address(text).packed


def ip6(text):
    return ipaddress.IPv6Address(text).packed


def csum16(data):
    """RFC 1071 Internet checksum."""
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def crc16_arc(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def eth(dst, src, ether_type):
    return mac(dst) + mac(src) + struct.pack("!H", ether_type)


def vlan(vid, ether_type, pcp=0):
    return struct.pack("!HH", (pcp << 13) | vid, ether_type)


def ipv4(src, dst, proto, payload_len, ttl=64, ident=1, flags=0, tos=0,
         checksum=None):
    """A 20-byte IPv4 header with a correct checksum (unless given)."""
    total = 20 + payload_len
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, tos, total, ident, flags << 13,
                      ttl, proto, 0, ip4(src), ip4(dst))
    if checksum is None:
        checksum = csum16(hdr)
    return hdr[:10] + struct.pack("!H", checksum) + hdr[12:]


def udp(sport, dport, payload_len, checksum=0):
    return struct.pack("!HHHH", sport, dport, 8 + payload_len, checksum)


def tcp(sport, dport, seq=1, flags=0x02):
    """A 20-byte TCP header (checksum left 0: the NIC never reads it)."""
    return struct.pack("!HHIIBBHHH", sport, dport, seq, 0, 5 << 4, flags,
                       0xFFFF, 0, 0)


def vxlan(vni):
    return struct.pack("!B3sI", 0x08, b"\0\0\0", vni << 8)


def arp(oper, sender_mac, sender_ip, target_mac, target_ip):
    return (struct.pack("!HHBBH", 1, 0x0800, 6, 4, oper) + mac(sender_mac)
            + ip4(sender_ip) + mac(target_mac) + ip4(target_ip))


def ipv6(src, dst, next_hdr, payload_len, hop_limit=255):
    return (struct.pack("!IHBB", 6 << 28, payload_len, next_hdr, hop_limit)
            + ip6(src) + ip6(dst))


def icmpv6_nd(src, dst, icmp_type, target, flags=0):
    """Neighbor solicitation (135) / advertisement (136), no options, with
    its ICMPv6 checksum over the pseudo-header."""
    body = struct.pack("!BBHI", icmp_type, 0, 0, flags) + ip6(target)
    pseudo = ip6(src) + ip6(dst) + struct.pack("!IxxxB", len(body), 58)
    c = csum16(pseudo + body)
    return body[:2] + struct.pack("!H", c) + body[4:]


def hx(*parts):
    """Hex for an STF line, one group per part."""
    return " ".join(p.hex() for p in parts if p)
