// STF rule: a header stack can be indexed with a run-time value: an action
// parameter from a table entry (write, copy, setInvalid on the element it
// names) or a slice of a packet field. Each access reaches exactly the
// element with that index; the others are unchanged. (In-range indexes only.)
#include <core.p4>
#include <v1model.p4>

header cmd_t {
    bit<8> k;
    bit<8> i;
    bit<8> got;   // hdr.s[i].v after the table ran
}

header e_t {
    bit<8> v;
}

struct headers_t {
    cmd_t  cmd;
    e_t[4] s;
}

struct meta_t { }

parser RiParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.cmd);
        pkt.extract(hdr.s[0]);
        pkt.extract(hdr.s[1]);
        pkt.extract(hdr.s[2]);
        pkt.extract(hdr.s[3]);
        transition accept;
    }
}

control RiVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RiIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    action write_at(bit<2> idx, bit<8> val) {
        hdr.s[idx].v = val;
    }
    action copy_at(bit<2> src, bit<2> dst) {
        hdr.s[dst].v = hdr.s[src].v;
    }
    action kill(bit<2> idx) {
        hdr.s[idx].setInvalid();
    }
    table t {
        key = { hdr.cmd.k : exact; }
        actions = { write_at; copy_at; kill; NoAction; }
        default_action = NoAction();
    }
    apply {
        sm.egress_spec = 1;
        t.apply();
        hdr.cmd.got = hdr.s[hdr.cmd.i[1:0]].v;
    }
}

control RiEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control RiCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control RiDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.cmd);
        pkt.emit(hdr.s);
    }
}

V1Switch(RiParser(), RiVerify(), RiIngress(), RiEgress(), RiCompute(),
         RiDeparser()) main;
