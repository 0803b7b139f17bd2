// STF rule: `exit` in ingress ends the ingress control only. The packet is
// still forwarded according to egress_spec, egress still runs, and the
// deparser still emits the headers.
#include <core.p4>
#include <v1model.p4>

header h_t {
    bit<8> op;
    bit<8> ing;   // written by ingress
    bit<8> egr;   // written by egress
}

struct headers_t {
    h_t h;
}

struct meta_t { }

parser ExitParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h);
        transition accept;
    }
}

control ExitVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ExitIngress(inout headers_t hdr, inout meta_t meta,
                    inout standard_metadata_t sm) {
    action leave(bit<9> port) {
        sm.egress_spec = port;
        hdr.h.ing = 0xa1;
        exit;
    }

    action stay(bit<9> port) {
        sm.egress_spec = port;
        hdr.h.ing = 0xa2;
    }

    table pick {
        key = { hdr.h.op : exact; }
        actions = { leave; stay; }
        default_action = stay(1);
    }

    apply {
        if (hdr.h.op == 0) {
            sm.egress_spec = 2;
            hdr.h.ing = 0x01;
            exit;
        }
        pick.apply();
        // Reached only when the table's action did not exit.
        hdr.h.ing = hdr.h.ing + 0x10;
        sm.egress_spec = sm.egress_spec + 1;
    }
}

control ExitEgress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        hdr.h.egr = 0xee;
    }
}

control ExitCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control ExitDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.h);
    }
}

V1Switch(ExitParser(), ExitVerify(), ExitIngress(), ExitEgress(), ExitCompute(),
         ExitDeparser()) main;
