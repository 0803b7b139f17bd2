// STF rule (simple_switch): setValid() on an invalid header and setInvalid()
// on a valid one (bmv2's add_header / remove_header primitives) add or take
// off the header's size in the packet-length register, and egress reads
// standard_metadata.packet_length from that register. Ingress's own
// packet_length field is not changed. setValid() on a valid header and
// setInvalid() on an invalid one change nothing; parser extracts do not count.
#include <core.p4>
#include <v1model.p4>

header op_t {
    bit<8> op;
    bit<8> in_len;
    bit<8> eg_len;
}

header extra_t {
    bit<32> v;
}

header tail_t {
    bit<16> t;
}

struct headers_t {
    op_t    op;
    extra_t extra;
    tail_t  tail;
}

struct meta_t { }

parser EdgeParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.op);
        pkt.extract(hdr.tail);
        transition accept;
    }
}

control EdgeVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 2;
        if (hdr.op.op == 1) {
            hdr.extra.setValid();
            hdr.extra.v = 0x11223344;
        } else if (hdr.op.op == 2) {
            hdr.tail.setInvalid();
        } else if (hdr.op.op == 3) {
            hdr.extra.setValid();
            hdr.extra.setValid();
            hdr.extra.v = 0x55667788;
        } else if (hdr.op.op == 4) {
            hdr.extra.setValid();
            hdr.extra.setInvalid();
            hdr.extra.setInvalid();
        } else if (hdr.op.op == 5) {
            hdr.tail.setValid();
        } else if (hdr.op.op == 6) {
            hdr.extra.setValid();
            hdr.extra.v = 0xa1a2a3a4;
            sm.mcast_grp = 1;
        }
        hdr.op.in_len = (bit<8>)sm.packet_length;
    }
}

control EdgeEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        hdr.op.eg_len = (bit<8>)sm.packet_length;
    }
}

control EdgeCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EdgeDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.op);
        pkt.emit(hdr.extra);
        pkt.emit(hdr.tail);
    }
}

V1Switch(EdgeParser(), EdgeVerify(), EdgeIngress(), EdgeEgress(), EdgeCompute(),
         EdgeDeparser()) main;
