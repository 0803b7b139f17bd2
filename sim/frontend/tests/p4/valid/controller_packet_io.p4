// Realistic v1model program: packet-in / packet-out with the controller.
// The two headers carry @controller_header annotations; packets from the CPU
// port are steered by their packet-out header, punted packets get a
// packet-in header prepended.
#include <core.p4>
#include <v1model.p4>

#define CPU_PORT 255

@controller_header("packet_in")
header cpu_in_header_t {
    bit<9> ingress_port;
    bit<7> _pad;
}

@controller_header("packet_out")
header cpu_out_header_t {
    bit<9> egress_port;
    bit<7> _pad;
}

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> etype;
}

struct headers_t {
    cpu_out_header_t cpu_out;
    cpu_in_header_t  cpu_in;
    ethernet_t       eth;
}

struct meta_t {
    bool punt;
}

parser IoParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    state start {
        meta.punt = false;
        transition select(sm.ingress_port) {
            CPU_PORT : parse_cpu_out;
            default  : parse_ethernet;
        }
    }
    state parse_cpu_out {
        pkt.extract(hdr.cpu_out);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control IoVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IoIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    @name("ingress.drop")
    action drop() {
        mark_to_drop(sm);
    }

    action send_to_cpu() {
        sm.egress_spec = CPU_PORT;
        meta.punt = true;
    }

    action forward(bit<9> port) {
        sm.egress_spec = port;
    }

    @name("ingress.punt_table")
    table punt {
        key = {
            hdr.eth.etype : ternary;
            hdr.eth.dst   : ternary;
        }
        actions = { send_to_cpu; forward; drop; }
        default_action = drop();
        const entries = {
            (0x88CC, _) : send_to_cpu();  // LLDP
            (0x0806, _) : send_to_cpu();  // ARP
        }
    }

    apply {
        if (hdr.cpu_out.isValid()) {
            // Controller-originated: send exactly where it asks.
            sm.egress_spec = hdr.cpu_out.egress_port;
            hdr.cpu_out.setInvalid();
            exit;
        }
        punt.apply();
    }
}

control IoEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply {
        if (sm.egress_port == CPU_PORT) {
            hdr.cpu_in.setValid();
            hdr.cpu_in.ingress_port = sm.ingress_port;
            hdr.cpu_in._pad = 0;
        }
    }
}

control IoCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IoDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.cpu_in);
        pkt.emit(hdr.eth);
    }
}

V1Switch(IoParser(), IoVerify(), IoIngress(), IoEgress(), IoCompute(),
         IoDeparser()) main;
