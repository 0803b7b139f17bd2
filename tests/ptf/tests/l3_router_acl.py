"""PTF tests of p4/examples/l3_router_acl.p4 on `janus switch`: LPM routing
with next-hop MAC rewriting, TTL decrement and checksum recomputation, the
egress source-MAC table, the const ACL (masks, ranges, priorities by
position), drops, the default action, modify and delete. The first
entries are those of p4/examples/l3_router_acl.stf.

Ports used: 1 (hosts), 2 and 3 (next hops); every PTF port is watched for
stray packets.
"""

import ptf.testutils as tu
from base_test import JanusP4RuntimeTest

HOST_MAC = "02:00:00:00:00:01"
ROUTER_MAC = "aa:aa:aa:aa:aa:aa"
NEXT_HOP_2 = "00:00:00:00:00:bb"
NEXT_HOP_3 = "00:00:00:00:00:cc"
PORT_2_MAC = "02:00:00:00:00:02"


def udp(dst, dport=8080, ttl=64, src="10.1.1.1", eth_src=HOST_MAC, eth_dst=ROUTER_MAC):
    return tu.simple_udp_packet(
        eth_dst=eth_dst,
        eth_src=eth_src,
        ip_src=src,
        ip_dst=dst,
        ip_ttl=ttl,
        udp_sport=0x1234,
        udp_dport=dport,
        pktlen=64,
    )


def tcp(dst, dport, src="10.1.1.1", ttl=64, eth_src=HOST_MAC, eth_dst=ROUTER_MAC):
    return tu.simple_tcp_packet(
        eth_dst=eth_dst,
        eth_src=eth_src,
        ip_src=src,
        ip_dst=dst,
        ip_ttl=ttl,
        tcp_sport=40000,
        tcp_dport=dport,
        pktlen=64,
    )


class RouterTest(JanusP4RuntimeTest):
    PROGRAM = "l3_router_acl"

    def route(self, prefix, length, next_mac, port):
        return self.insert(
            "ipv4_lpm",
            {"hdr.ipv4.dst_addr": (prefix, length)},
            "set_nexthop",
            {"next_mac": next_mac, "port": port},
        )

    def port_mac(self, port, mac):
        return self.insert(
            "port_mac",
            {"standard_metadata.egress_port": port},
            "rewrite_source",
            {"smac": mac},
        )


class RouteLpm(RouterTest):
    """The STF's route: MACs rewritten, TTL 64 -> 63, checksum recomputed."""

    def runTest(self):
        self.route("10.2.0.0", 16, NEXT_HOP_2, 2)
        self.port_mac(2, PORT_2_MAC)
        self.send(1, udp("10.2.3.4"))
        self.expect(udp("10.2.3.4", ttl=63, eth_src=PORT_2_MAC, eth_dst=NEXT_HOP_2), 2)
        # Another host behind the same route, from another port.
        self.send(3, udp("10.2.200.9", src="10.3.0.7"))
        self.expect(
            udp("10.2.200.9", src="10.3.0.7", ttl=63, eth_src=PORT_2_MAC, eth_dst=NEXT_HOP_2),
            2,
        )


class LongestPrefixWins(RouterTest):
    """A /24 inside the /16 takes its addresses; port 3 has no source MAC
    entry, so the frame leaves with the router's MAC as its source."""

    def runTest(self):
        self.route("10.2.0.0", 16, NEXT_HOP_2, 2)
        self.route("10.2.3.0", 24, NEXT_HOP_3, 3)
        self.port_mac(2, PORT_2_MAC)
        self.send(1, udp("10.2.3.4"))
        self.expect(udp("10.2.3.4", ttl=63, eth_src=ROUTER_MAC, eth_dst=NEXT_HOP_3), 3)
        self.send(1, udp("10.2.4.4"))
        self.expect(udp("10.2.4.4", ttl=63, eth_src=PORT_2_MAC, eth_dst=NEXT_HOP_2), 2)
        self.assertEqual(len(self.read_table("ipv4_lpm")), 2)


class ConstAcl(RouterTest):
    """The ACL's const entries, first match wins: TCP 22 from 10/8 denied,
    UDP 53 to 192.168/16 permitted, ICMP permitted, ports 0..1023 denied."""

    def runTest(self):
        self.route("10.2.0.0", 16, NEXT_HOP_2, 2)
        self.route("192.168.0.0", 16, NEXT_HOP_3, 3)
        # UDP to port 80: denied (0..1023), as in the STF.
        self.send(1, udp("10.2.3.4", dport=80))
        self.expect_drop()
        # SSH from 10/8: denied; from elsewhere: still a port below 1024.
        self.send(1, tcp("10.2.3.4", 22))
        self.expect_drop()
        self.send(1, tcp("10.2.3.4", 22, src="172.16.0.1"))
        self.expect_drop()
        # DNS to 192.168/16 is let through before the 0..1023 rule.
        self.send(1, udp("192.168.7.7", dport=53))
        self.expect(udp("192.168.7.7", dport=53, ttl=63, eth_src=ROUTER_MAC, eth_dst=NEXT_HOP_3), 3)
        # DNS elsewhere is not.
        self.send(1, udp("10.2.3.4", dport=53))
        self.expect_drop()
        # ICMP (no L4 ports) is permitted.
        ping = tu.simple_icmp_packet(eth_dst=ROUTER_MAC, eth_src=HOST_MAC, ip_src="10.1.1.1", ip_dst="10.2.3.4")
        self.send(1, ping)
        self.expect(
            tu.simple_icmp_packet(
                eth_dst=NEXT_HOP_2, eth_src=ROUTER_MAC, ip_src="10.1.1.1", ip_dst="10.2.3.4", ip_ttl=63
            ),
            2,
        )
        # High ports: the default, acl_permit.
        self.send(1, tcp("10.2.3.4", 8443))
        self.expect(tcp("10.2.3.4", 8443, ttl=63, eth_src=ROUTER_MAC, eth_dst=NEXT_HOP_2), 2)
        # The const entries read back, with their priorities in order.
        acl = self.read_table("acl")
        self.assertEqual(len(acl), 4, acl)
        priorities = sorted((e.priority for e in acl), reverse=True)
        self.assertEqual(len(set(priorities)), 4, priorities)


class Drops(RouterTest):
    """No route, TTL 1, and frames that are not IPv4 are dropped."""

    def runTest(self):
        self.route("10.2.0.0", 16, NEXT_HOP_2, 2)
        self.send(1, udp("11.0.0.1"))
        self.expect_drop()
        self.send(1, udp("10.2.3.4", ttl=1))
        self.expect_drop()
        self.send(1, udp("10.2.3.4", ttl=0))
        self.expect_drop()
        self.send(1, tu.simple_arp_packet(ip_snd="10.1.1.1", ip_tgt="10.2.3.4"))
        self.expect_drop()
        self.send(1, tu.simple_udpv6_packet(ipv6_dst="fd00::1"))
        self.expect_drop()
        # TTL 2 still goes through, leaving with 1.
        self.send(1, udp("10.2.3.4", ttl=2))
        self.expect(udp("10.2.3.4", ttl=1, eth_src=ROUTER_MAC, eth_dst=NEXT_HOP_2), 2)


class DefaultAction(RouterTest):
    """The table's default (drop) replaced: unrouted traffic goes to 3."""

    def runTest(self):
        self.send(1, udp("11.0.0.1"))
        self.expect_drop()
        self.set_default("ipv4_lpm", "set_nexthop", {"next_mac": NEXT_HOP_3, "port": 3})
        self.send(1, udp("11.0.0.1"))
        self.expect(udp("11.0.0.1", ttl=63, eth_src=ROUTER_MAC, eth_dst=NEXT_HOP_3), 3)
        self.set_default("ipv4_lpm", "drop")
        self.send(1, udp("11.0.0.1"))
        self.expect_drop()


class ModifyAndDelete(RouterTest):
    """A route moved to another next hop, then deleted."""

    def runTest(self):
        entry = self.route("10.2.0.0", 16, NEXT_HOP_2, 2)
        self.send(1, udp("10.2.3.4"))
        self.expect(udp("10.2.3.4", ttl=63, eth_src=ROUTER_MAC, eth_dst=NEXT_HOP_2), 2)
        self.modify(entry, "set_nexthop", {"next_mac": NEXT_HOP_3, "port": 3})
        self.send(1, udp("10.2.3.4"))
        self.expect(udp("10.2.3.4", ttl=63, eth_src=ROUTER_MAC, eth_dst=NEXT_HOP_3), 3)
        (read,) = self.read_table("ipv4_lpm")
        params = {p.param_id: p.value for p in read.action.action.params}
        self.assertEqual(params[2].lstrip(b"\0"), b"\x03")
        self.delete(entry)
        self.assertEqual(self.read_table("ipv4_lpm"), [])
        self.send(1, udp("10.2.3.4"))
        self.expect_drop()
