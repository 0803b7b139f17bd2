// STF rule: header stack push_front / pop_front. push_front(n) shifts the
// elements towards the end (those pushed past the end are lost) and leaves
// the first n invalid; pop_front(n) shifts towards the front and leaves the
// last n invalid. The deparser emits the valid elements in index order.
#include <core.p4>
#include <v1model.p4>

header cmd_t {
    bit<8> op;
}

header item_t {
    bit<1> bos;
    bit<7> v;
}

struct headers_t {
    cmd_t     cmd;
    item_t[4] items;
}

struct meta_t { }

parser StkParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.cmd);
        transition parse_item;
    }
    state parse_item {
        pkt.extract(hdr.items.next);
        transition select(hdr.items.last.bos) {
            1       : accept;
            default : parse_item;
        }
    }
}

control StkVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control StkIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.cmd.op == 1) {
            hdr.items.push_front(1);
            hdr.items[0].setValid();
            hdr.items[0].v = 0x2a;
        } else if (hdr.cmd.op == 2) {
            hdr.items.pop_front(1);
        } else if (hdr.cmd.op == 3) {
            // Two new slots; only the first is made valid again.
            hdr.items.push_front(2);
            hdr.items[0].setValid();
            hdr.items[0].v = 0x11;
        } else if (hdr.cmd.op == 4) {
            hdr.items.pop_front(2);
        } else if (hdr.cmd.op == 5) {
            // Invalidate a middle element: it is skipped by emit.
            hdr.items[1].setInvalid();
        }
    }
}

control StkEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    apply { }
}

control StkCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control StkDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.cmd);
        pkt.emit(hdr.items);
    }
}

V1Switch(StkParser(), StkVerify(), StkIngress(), StkEgress(), StkCompute(),
         StkDeparser()) main;
