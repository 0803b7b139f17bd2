// Language test: header stack operations in a control — constant and
// variable indices, `size`, push_front / pop_front, element validity, stack
// assignment and emitting a whole stack.
#include <core.p4>

header label_h {
    bit<20> label;
    bit<3>  exp;
    bit<1>  bottom;
    bit<8>  ttl;
}

struct stack_headers_t {
    label_h[5] labels;
    label_h[5] backup;
}

control StackOps(inout stack_headers_t hdr, in bit<3> position, out bit<32> depth) {
    apply {
        depth = hdr.labels.size;                    // 5, a bit<32>
        hdr.backup = hdr.labels;                    // copies elements and validity

        hdr.labels.push_front(2);                   // two invalid slots at the front
        hdr.labels[0].setValid();
        hdr.labels[0] = { label = 100, exp = 0, bottom = 0, ttl = 64 };
        hdr.labels[1].setValid();
        hdr.labels[1].label = 200;

        if (hdr.labels[position].isValid()) {       // run-time index
            hdr.labels[position].ttl = hdr.labels[position].ttl - 1;
        }

        hdr.labels.pop_front(1);
        if (!hdr.labels[4].isValid()) {
            hdr.labels[4].setValid();
            hdr.labels[4].bottom = 1;
        }
        hdr.labels[2].setInvalid();
    }
}

control StackEmit(packet_out pkt, in stack_headers_t hdr) {
    apply {
        pkt.emit(hdr.labels);
    }
}
