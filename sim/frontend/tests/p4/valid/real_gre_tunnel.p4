#include <core.p4>
#include <v1model.p4>

error {
    GreVersionUnsupported,
    GreRoutingPresent
}

const bit<9> CPU_PORT = 64;

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

header gre_t {
    bit<1>  C;
    bit<1>  R;
    bit<1>  K;
    bit<1>  S;
    bit<9>  reserved0;
    bit<3>  version;
    bit<16> protocol;
}

header gre_csum_t {
    bit<16> checksum;
    bit<16> reserved1;
}

struct headers {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    gre_t      gre;
    gre_csum_t gre_csum;
    ipv4_t     inner_ipv4;
}

struct metadata { }

parser GreParser(packet_in packet, out headers hdr, inout metadata meta,
                 inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            47: parse_gre;
            default: accept;
        }
    }
    state parse_gre {
        packet.extract(hdr.gre);
        verify(hdr.gre.version == 0, error.GreVersionUnsupported);
        verify(hdr.gre.R == 0, error.GreRoutingPresent);
        transition select(hdr.gre.C) {
            1: parse_gre_csum;
            default: parse_inner;
        }
    }
    state parse_gre_csum {
        packet.extract(hdr.gre_csum);
        transition parse_inner;
    }
    state parse_inner {
        transition select(hdr.gre.protocol) {
            0x0800: parse_inner_ipv4;
            default: accept;
        }
    }
    state parse_inner_ipv4 {
        packet.extract(hdr.inner_ipv4);
        transition accept;
    }
}

control GreVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control GreIngress(inout headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    action drop() {
        mark_to_drop(standard_metadata);
    }

    action gre_encap(bit<32> tun_src, bit<32> tun_dst, bit<9> port) {
        hdr.inner_ipv4 = hdr.ipv4;
        hdr.gre.setValid();
        hdr.gre.protocol = 0x0800;
        hdr.ipv4.totalLen = hdr.inner_ipv4.totalLen + 24;
        hdr.ipv4.protocol = 47;
        hdr.ipv4.ttl = 255;
        hdr.ipv4.diffserv = hdr.inner_ipv4.diffserv;
        hdr.ipv4.identification = 0;
        hdr.ipv4.srcAddr = tun_src;
        hdr.ipv4.dstAddr = tun_dst;
        standard_metadata.egress_spec = port;
    }

    action gre_decap(bit<9> port) {
        hdr.ipv4 = hdr.inner_ipv4;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        hdr.inner_ipv4.setInvalid();
        hdr.gre.setInvalid();
        hdr.gre_csum.setInvalid();
        standard_metadata.egress_spec = port;
    }

    table tunnel_out {
        key = {
            hdr.ipv4.dstAddr: lpm;
        }
        actions = {
            gre_encap;
            drop;
        }
        default_action = drop();
    }

    table tunnel_in {
        key = {
            hdr.ipv4.dstAddr: exact;
            hdr.inner_ipv4.dstAddr: lpm;
        }
        actions = {
            gre_decap;
            drop;
        }
        default_action = drop();
    }

    apply {
        if (standard_metadata.parser_error != error.NoError) {
            // Unsupported GRE: punt unchanged to the CPU port.
            standard_metadata.egress_spec = CPU_PORT;
            exit;
        }
        if (!hdr.ipv4.isValid()) {
            drop();
        } else if (hdr.inner_ipv4.isValid()) {
            tunnel_in.apply();
        } else {
            tunnel_out.apply();
        }
    }
}

control GreEgress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

control GreCompute(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum(
            hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.totalLen, hdr.ipv4.identification,
              hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum,
            HashAlgorithm.csum16);
    }
}

control GreDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.gre);
        packet.emit(hdr.gre_csum);
        packet.emit(hdr.inner_ipv4);
    }
}

V1Switch(GreParser(), GreVerify(), GreIngress(), GreEgress(), GreCompute(),
         GreDeparser()) main;
