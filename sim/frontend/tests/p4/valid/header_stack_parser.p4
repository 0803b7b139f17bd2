// Language test: header stack operations that are only allowed in parsers —
// `next` (as extract target and as l-value), `last` (in expressions and
// select), and `lastIndex` — plus a loop in the parser state machine.
#include <core.p4>

header opt_h {
    bit<8> kind;
    bit<8> more;
}

struct opt_headers_t {
    opt_h[6] opts;
}

struct opt_meta_t {
    bit<32> last_index;
    bit<8>  last_kind;
}

parser OptionWalker(packet_in pkt, out opt_headers_t hdr, inout opt_meta_t meta) {
    state start {
        transition parse_opt;
    }
    state parse_opt {
        pkt.extract(hdr.opts.next);
        meta.last_index = hdr.opts.lastIndex;
        meta.last_kind = hdr.opts.last.kind;
        transition select(hdr.opts.last.more) {
            0       : done;
            default : parse_opt;
        }
    }
    state done {
        // `next` is an l-value too: mark the following slot as a terminator.
        hdr.opts.next.setValid();
        hdr.opts.next.kind = 0xFF;
        transition accept;
    }
}
