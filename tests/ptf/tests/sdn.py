"""PTF tests of p4/sdn.p4 (the multi-tenant NIC overlay) on `janus switch`,
with the CPU port 510 as the NIC has it (`--cpu-port 510`): bridging
inside a tenant, anti-spoofing, tenant isolation, and the controller
headers both ways: ARP for a tenant's gateway punted as a PacketIn
(ingress_port, reason), a PacketOut sent out of the port it names. The
entries are a part of p4/demo/sdn_demo.entries (docs/pipelines.md); drop
reasons are read back from the program's `drops` counter.

Ports used: 2 and 3 (tenant A's VFs), 4 (tenant B's VF), 5 (a VF of no
tenant); 0 and 1 (uplinks) are only watched.
"""

import ptf.testutils as tu
from base_test import JanusP4RuntimeTest
from ptf.packet import Ether

TENANT_A, VNI_A = 1, 1001
TENANT_B, VNI_B = 2, 2002
GATEWAY_A_MAC, GATEWAY_A_IP = "02:00:00:00:01:01", "10.1.0.1"
VF = {
    2: ("02:00:00:00:01:02", "10.1.0.2", TENANT_A, VNI_A),
    3: ("02:00:00:00:01:03", "10.1.0.3", TENANT_A, VNI_A),
    4: ("02:00:00:00:02:04", "10.2.0.4", TENANT_B, VNI_B),
}

# p4/sdn.p4's drop reasons and p4/include/janus_nic.p4's punt reasons.
DROP_UNKNOWN_VF = 2
DROP_SPOOFED_SOURCE = 3
DROP_L2_MISS = 10
PUNT_ARP_GATEWAY = 1


def udp(src_port, dst_port, dport=5000):
    smac, sip = VF[src_port][:2]
    dmac, dip = VF[dst_port][:2]
    return tu.simple_udp_packet(
        eth_src=smac, eth_dst=dmac, ip_src=sip, ip_dst=dip, udp_dport=dport, pktlen=80
    )


class SdnTest(JanusP4RuntimeTest):
    PROGRAM = "sdn"

    def setUp(self):
        super().setUp()
        for port, (mac, ip, tenant, vni) in VF.items():
            self.insert("vf_tenants", {"ingress_port": port}, "assign_vf", {"tenant": tenant, "vni": vni})
            self.insert("vf_owners", {"sm.egress_port": port}, "set_port_owner", {"tenant": tenant})
            self.insert(
                "vf_mac_sources",
                {"ingress_port": port, "hdr.ethernet.src_addr": mac},
                "source_allowed",
            )
            self.insert(
                "vf_ipv4_sources",
                {"ingress_port": port, "meta.src_ipv4": ip},
                "source_allowed",
            )
            self.insert(
                "tenant_macs",
                {"meta.vni": vni, "hdr.ethernet.dst_addr": mac},
                "bridge_to_vf",
                {"port": port},
            )
        self.insert(
            "tenant_gateways",
            {"meta.tenant": TENANT_A},
            "set_gateway",
            {"mac": GATEWAY_A_MAC, "ipv4": GATEWAY_A_IP, "ipv6": "fd01::1"},
        )

    def drops(self, reason):
        return self.read_counter("SdnIngress.drops", reason)[0]


class BridgeInsideTenant(SdnTest):
    """VF2 to VF3 (tenant A) and back: bridged, unchanged."""

    def runTest(self):
        self.send(2, udp(2, 3))
        self.expect(udp(2, 3), 3)
        self.send(3, udp(3, 2, dport=6000))
        self.expect(udp(3, 2, dport=6000), 2)
        self.assert_no_packet_in()


class AntiSpoofing(SdnTest):
    """A VF sending from another MAC or IPv4 address is dropped."""

    def runTest(self):
        spoofed_mac = udp(2, 3)
        spoofed_mac[Ether].src = VF[3][0]
        self.send(2, spoofed_mac)
        self.expect_drop()
        spoofed_ip = tu.simple_udp_packet(
            eth_src=VF[2][0], eth_dst=VF[3][0], ip_src="10.1.0.99", ip_dst=VF[3][1], pktlen=80
        )
        self.send(2, spoofed_ip)
        self.expect_drop()
        self.assertEqual(self.drops(DROP_SPOOFED_SOURCE), 2)


class TenantIsolation(SdnTest):
    """Tenant A cannot reach tenant B's VF; a VF of no tenant is dropped."""

    def runTest(self):
        self.send(2, udp(2, 4))
        self.expect_drop()
        self.assertEqual(self.drops(DROP_L2_MISS), 1)
        stranger = tu.simple_udp_packet(eth_src="02:00:00:00:09:05", eth_dst=VF[2][0], pktlen=80)
        self.send(5, stranger)
        self.expect_drop()
        self.assertEqual(self.drops(DROP_UNKNOWN_VF), 1)
        # Tenant A's own traffic still flows.
        self.send(2, udp(2, 3))
        self.expect(udp(2, 3), 3)


class ArpForTheGatewayIsAPacketIn(SdnTest):
    """ARP from VF2 for 10.1.0.1: a PacketIn with ingress_port 2 and
    reason 1 carrying the frame, nothing on the wire. ARP for another host
    is not punted."""

    def runTest(self):
        mac, ip = VF[2][:2]
        arp = tu.simple_arp_packet(
            eth_src=mac, hw_snd=mac, ip_snd=ip, ip_tgt=GATEWAY_A_IP, arp_op=1
        )
        self.send(2, arp)
        payload, fields = self.packet_in()
        self.assertEqual(payload, bytes(arp))
        self.assertEqual(fields.get("ingress_port"), 2, fields)
        self.assertEqual(fields.get("reason"), PUNT_ARP_GATEWAY, fields)
        self.expect_drop()
        # ARP for VF3 is not punted (and, broadcast, has no MAC entry).
        other = tu.simple_arp_packet(eth_src=mac, hw_snd=mac, ip_snd=ip, ip_tgt=VF[3][1])
        self.send(2, other)
        self.assert_no_packet_in()
        self.expect_drop()


class PacketOutLeavesByItsPort(SdnTest):
    """A PacketOut naming port 3 leaves port 3 without its packet_out
    header; one naming the CPU port is dropped."""

    def runTest(self):
        mac, ip = VF[3][:2]
        reply = tu.simple_arp_packet(
            eth_dst=mac,
            eth_src=GATEWAY_A_MAC,
            hw_snd=GATEWAY_A_MAC,
            ip_snd=GATEWAY_A_IP,
            ip_tgt=ip,
            hw_tgt=mac,
            arp_op=2,
        )
        self.packet_out(bytes(reply), egress_port=3, _pad=0)
        self.expect(reply, 3)
        self.packet_out(bytes(reply), egress_port=510, _pad=0)
        self.expect_drop()
        self.assert_no_packet_in()
