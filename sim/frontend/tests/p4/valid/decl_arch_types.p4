// Language test: a small user-defined architecture — generic parser and
// control type declarations, a generic package, parser/control
// implementations with constructor parameters, and a `main` instantiation
// of the package whose type arguments are inferred.
#include <core.p4>

parser FrontEnd<H>(packet_in pkt, out H headers);
control Pipeline<H, M>(inout H headers, inout M meta, out bool accept);
control Emitter<H>(packet_out pkt, in H headers);
package Filter<H, M>(FrontEnd<H> fe, Pipeline<H, M> pipe, Emitter<H> em);

header tag_h {
    bit<16> value;
    bit<16> next;
}

struct tag_headers_t {
    tag_h outer;
    tag_h inner;
}

struct tag_meta_t {
    bit<16> matched;
}

// Constructor parameter: how many tags to parse (compile-time known).
parser TagParser(packet_in pkt, out tag_headers_t headers)(bool parse_inner) {
    state start {
        pkt.extract(headers.outer);
        transition select(parse_inner) {
            true  : parse_second;
            false : accept;
        }
    }
    state parse_second {
        pkt.extract(headers.inner);
        transition accept;
    }
}

control TagPipeline(inout tag_headers_t headers, inout tag_meta_t meta,
                    out bool accept)(bit<16> wanted) {
    apply {
        meta.matched = 0;
        accept = false;
        if (headers.outer.value == wanted) {
            meta.matched = headers.outer.value;
            accept = true;
        }
    }
}

control TagEmitter(packet_out pkt, in tag_headers_t headers) {
    apply {
        pkt.emit(headers);
    }
}

Filter(TagParser(true), TagPipeline(16w0x0A0B), TagEmitter()) main;
