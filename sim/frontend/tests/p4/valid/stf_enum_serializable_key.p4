// STF rule: a serializable enum (enum bit<16>) used as a header field is
// extracted and emitted as its underlying bits; a table key of that type
// takes plain numbers in STF `add`; values that name no member are kept as
// they are and match no member in comparisons. Members cast to their bits.
#include <core.p4>
#include <v1model.p4>

enum bit<16> EtherType {
    IPV4 = 0x0800,
    ARP  = 0x0806,
    VLAN = 0x8100
}

header h_t {
    EtherType etype;
    bit<8>    cls;
    bit<16>   raw;   // (bit<16>)etype + 1, written by ingress
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser EnParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control EnVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EnIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action set_cls(bit<8> c) {
        hdr.h.cls = c;
    }

    table by_type {
        key = { hdr.h.etype : exact; }
        actions = { set_cls; }
        default_action = set_cls(0xee);
    }

    apply {
        sm.egress_spec = 1;
        by_type.apply();
        hdr.h.raw = (bit<16>)hdr.h.etype + 1;
        if (hdr.h.etype == EtherType.VLAN) {
            hdr.h.cls = hdr.h.cls | 0x01;
        }
        if (hdr.h.etype == EtherType.ARP) {
            hdr.h.etype = EtherType.IPV4;
        }
    }
}

control EnEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control EnCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EnDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(EnParser(), EnVerify(), EnIngress(), EnEgress(), EnCompute(),
         EnDeparser()) main;
