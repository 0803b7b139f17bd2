// Language test: invoking parsers from parsers and controls from controls —
// through explicit instances (with and without constructor arguments,
// nested two levels deep) and by direct type invocation `Type.apply(...)`.
#include <core.p4>

header eth_h {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

header vlan_h {
    bit<16> tci;
    bit<16> etype;
}

struct pkt_t {
    eth_h  eth;
    vlan_h vlan;
}

parser VlanParser(packet_in pkt, out vlan_h vlan) {
    state start {
        pkt.extract(vlan);
        transition accept;
    }
}

parser EthParser(packet_in pkt, out pkt_t hdr) {
    VlanParser() vlan_parser;
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.etype) {
            0x8100  : parse_vlan;
            default : accept;
        }
    }
    state parse_vlan {
        vlan_parser.apply(pkt, hdr.vlan);
        transition accept;
    }
}

parser TopParser(packet_in pkt, out pkt_t hdr) {
    state start {
        EthParser.apply(pkt, hdr);          // direct invocation
        transition accept;
    }
}

control AddOffset(inout bit<16> value)(bit<16> offset) {
    apply {
        value = value + offset;
    }
}

control Twice(inout bit<16> value)(bit<16> offset) {
    AddOffset(offset) first;                // constructor argument forwarded
    AddOffset(offset) second;
    apply {
        first.apply(value);
        second.apply(value);
    }
}

control Scrub(inout pkt_t hdr) {
    apply {
        hdr.eth.src = 0;
    }
}

control TopControl(inout pkt_t hdr, inout bit<16> value) {
    Twice(16w3) add_six;
    Twice(offset = 16w10) add_twenty;       // named constructor argument
    apply {
        add_six.apply(value);
        add_twenty.apply(value);
        Scrub.apply(hdr);                   // direct invocation
        if (hdr.vlan.isValid()) {
            hdr.vlan.tci[11:0] = value[11:0];
        }
    }
}
