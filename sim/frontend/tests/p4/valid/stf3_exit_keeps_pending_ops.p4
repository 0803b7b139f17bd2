// P4_16 exit + v1model: `exit` ends the control, but extern calls made
// before it stand: an I2E clone requested before exit in ingress is still
// made (and the packet is forwarded by the egress_spec set before exit);
// a recirculate requested before exit in egress still recirculates the
// deparsed packet. Statements after the exit do not run.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> passes;
    bit<8> after;   // written after an exit: must stay 0
    bit<8> it;
}

struct headers_t { h_t h; }
struct meta_t {
    @field_list(1)
    bit<8> keep;
}

parser XpParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}

control XpVerify(inout headers_t hdr, inout meta_t meta) { apply { } }

control Ing(inout headers_t hdr, inout meta_t meta,
            inout standard_metadata_t sm) {
    action clone_and_leave() {
        clone(CloneType.I2E, 3);
        exit;
    }
    apply {
        hdr.h.passes = hdr.h.passes + 1;
        hdr.h.it = (bit<8>)sm.instance_type;
        sm.egress_spec = 2;
        if (hdr.h.op == 1) {
            clone_and_leave();
            hdr.h.after = 0xff;
        }
    }
}

control XpEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (hdr.h.op == 2 && hdr.h.passes == 1) {
            recirculate_preserving_field_list(1);
            exit;
        }
        if (hdr.h.op == 2 && hdr.h.passes == 1) {
            hdr.h.after = 0xff;
        }
    }
}

control XpCompute(inout headers_t hdr, inout meta_t meta) { apply { } }

control XpDeparser(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.h); }
}

V1Switch(XpParser(), XpVerify(), Ing(), XpEgress(), XpCompute(),
         XpDeparser()) main;
