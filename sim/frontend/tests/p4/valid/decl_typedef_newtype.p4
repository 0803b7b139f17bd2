// Language test: `typedef` synonyms (of base types, derived types and other
// typedefs) and `type` new types, which need explicit casts to and from
// their underlying type.
#include <core.p4>

typedef bit<48> mac_t;
typedef mac_t   station_t;          // typedef of a typedef
type bit<9>     port_id_t;          // a genuinely new type
type port_id_t  egress_port_t;      // a new type built on a new type
type bool       flag_t;

header ethernet_h {
    mac_t     dst;
    station_t src;
    bit<16>   etype;
}

typedef ethernet_h eth_alias_t;
typedef ethernet_h[2] eth_pair_t;
typedef struct point_s { int<32> x; int<32> y; } point_t;

struct meta_t {
    port_id_t     in_port;
    egress_port_t out_port;
    flag_t        seen;
}

control NewTypes(inout eth_alias_t eth, inout meta_t meta, inout bit<9> raw_port) {
    action use_port(port_id_t p) {
        raw_port = (bit<9>)p;
    }

    table by_port {
        key = { meta.in_port : exact; }
        actions = { use_port; NoAction; }
        default_action = NoAction();
    }

    apply {
        mac_t m = eth.src;
        station_t s = m;              // typedefs are interchangeable
        eth.dst = s;

        meta.in_port = (port_id_t)raw_port;
        port_id_t p = meta.in_port;
        bool same = p == meta.in_port;          // comparison without casts
        meta.out_port = (egress_port_t)p;
        raw_port = (bit<9>)(port_id_t)meta.out_port + 1;
        meta.seen = (flag_t)same;

        point_t pt = { x = 1, y = -2 };
        eth_pair_t pair;
        pair[0] = eth;
        if (pt.x > pt.y && (bool)meta.seen && pair[0].isValid()) {
            by_port.apply();
        }
    }
}
