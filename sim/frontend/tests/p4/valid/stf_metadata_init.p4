// STF rule: all metadata, standard and user, starts at 0 for every packet;
// an uninitialised local reads 0 too; nothing carries over from the previous
// packet.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8>  op;
    bit<16> user;      // meta.value as seen by ingress before any write
    bit<16> spec;      // egress_spec as seen at the start of ingress
    bit<16> grp;       // mcast_grp as seen at the start of ingress
    bit<32> itype;     // instance_type
    bit<8>  local;     // an uninitialised local
}

struct headers_t {
    h_t h;
}

struct meta_t {
    bit<16> value;
    bit<8>  flag;
}

parser MiParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control MiVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

// Reading `scratch` unassigned is the point: p4c warns (uninitialized_use) unless told not to.
@noWarn("uninitialized_use")
control MiIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply {
        bit<8> scratch;
        hdr.h.user = meta.value;
        hdr.h.spec = (bit<16>)sm.egress_spec;
        hdr.h.grp = sm.mcast_grp;
        hdr.h.itype = sm.instance_type;
        hdr.h.local = scratch;
        // Leave state behind for the next packet to (not) see.
        if (hdr.h.op == 1) {
            meta.value = 0x1234;
            sm.mcast_grp = 0;
        }
        sm.egress_spec = 3;
    }
}

control MiEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MiCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MiDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(MiParser(), MiVerify(), MiIngress(), MiEgress(), MiCompute(),
         MiDeparser()) main;
