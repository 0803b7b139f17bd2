// In-band telemetry with one recirculation.
// Packets arriving on a port listed in int_ports are instrumented: egress
// puts a telemetry shim after the Ethernet header (ethertype 0x88B7, the
// original ethertype saved in the shim) unless one is already there, and
// pushes a 12-byte record {ingress port, egress port, per-egress-port
// packet sequence number from a register, pass number, instance type seen
// by ingress} in front of the existing records (at most 4). After the first
// pass the packet is recirculated once (the pass number and the instrument
// flag survive through a @field_list; simple_switch clears the rest of the
// metadata, ingress_port included, so the second record's ingress port is 0)
// and the second pass adds a second record, so a packet that
// arrives with no telemetry leaves with two records, the newest first.
// Forwarding is an exact match on the destination MAC; packets from other
// ports are forwarded untouched (their sequence number still counts).
#include <core.p4>
#include <v1model.p4>

#define MAX_RECORDS 4

const bit<16> ETH_TELEMETRY = 0x88B7;

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header shim_h {
    bit<8>  count;
    bit<8>  reserved;
    bit<16> orig_ether_type;
}

header record_h {
    bit<16> ingress_port;
    bit<16> egress_port;
    bit<32> seq;
    bit<8>  pass;
    bit<8>  ingress_instance;
    bit<16> reserved;
}

struct headers_t {
    ethernet_h eth;
    shim_h     shim;
    record_h[MAX_RECORDS] records;
}

struct meta_t {
    @field_list(1)
    bit<8> pass;
    bit<8> records_left;
    bit<8> ingress_instance;
    @field_list(1)
    bit<1> instrument;
}

parser IntParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            ETH_TELEMETRY: parse_shim;
            default:       accept;
        }
    }
    state parse_shim {
        pkt.extract(hdr.shim);
        meta.records_left = hdr.shim.count;
        transition parse_records;
    }
    state parse_records {
        transition select(meta.records_left) {
            0:       accept;
            default: parse_record;
        }
    }
    state parse_record {
        pkt.extract(hdr.records.next);
        meta.records_left = meta.records_left - 1;
        transition parse_records;
    }
}

control IntVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IntIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action drop() {
        mark_to_drop(sm);
    }
    action forward(bit<9> port) {
        sm.egress_spec = port;
    }
    table l2_fwd {
        key = { hdr.eth.dst : exact; }
        actions = { forward; drop; }
        default_action = drop();
    }

    action instrument() {
        meta.instrument = 1;
    }
    table int_ports {
        key = { sm.ingress_port : exact; }
        actions = { instrument; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (sm.parser_error != error.NoError) {
            drop();
            return;
        }
        meta.ingress_instance = (bit<8>)sm.instance_type;
        int_ports.apply();
        l2_fwd.apply();
    }
}

control IntEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<32>>(16) egress_seq;

    apply {
        bit<32> seq;
        egress_seq.read(seq, (bit<32>)sm.egress_port);
        seq = seq + 1;
        egress_seq.write((bit<32>)sm.egress_port, seq);

        if (meta.instrument == 0) {
            return;
        }
        if (!hdr.shim.isValid()) {
            hdr.shim.setValid();
            hdr.shim.count = 0;
            hdr.shim.reserved = 0;
            hdr.shim.orig_ether_type = hdr.eth.ether_type;
            hdr.eth.ether_type = ETH_TELEMETRY;
        }
        if (hdr.shim.count < MAX_RECORDS) {
            hdr.records.push_front(1);
            hdr.records[0].setValid();
            hdr.records[0].ingress_port = (bit<16>)sm.ingress_port;
            hdr.records[0].egress_port = (bit<16>)sm.egress_port;
            hdr.records[0].seq = seq;
            hdr.records[0].pass = meta.pass;
            hdr.records[0].ingress_instance = meta.ingress_instance;
            hdr.records[0].reserved = 0;
            hdr.shim.count = hdr.shim.count + 1;
            if (meta.pass == 0) {
                meta.pass = 1;
                recirculate_preserving_field_list(1);
            }
        }
    }
}

control IntCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control IntDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.shim);
        pkt.emit(hdr.records);
    }
}

V1Switch(IntParser(), IntVerify(), IntIngress(), IntEgress(), IntCompute(),
         IntDeparser()) main;
