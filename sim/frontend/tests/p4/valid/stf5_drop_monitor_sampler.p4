// Router with drop monitoring and packet sampling.
// - Ingress drops for three reasons: an ACL deny (ternary ACL with
//   priorities; the rule's id is reported), no route, TTL expiry. Each
//   dropped packet is copied, as it was received, to the monitor (I2E clone,
//   session 5); egress puts a drop report {reason, rule id, ingress port}
//   in front of the copy. Reason and rule reach the copy via field list 1.
// - Forwarded packets: every Nth packet leaving a port listed in
//   sample_rate (N from the table) is copied after egress (E2E clone,
//   session 6) to a collector, with a sample header {egress port, sample
//   sequence number} in front; the copy carries the packet as forwarded
//   (TTL already decremented). Port and sequence reach the copy via field
//   list 2.
#include <core.p4>
#include <v1model.p4>

const bit<32> MONITOR_SESSION = 5;
const bit<32> SAMPLER_SESSION = 6;
const bit<8>  DROP_ACL = 1;
const bit<8>  DROP_NO_ROUTE = 2;
const bit<8>  DROP_TTL = 3;

header drop_report_h {
    bit<8>  reason;
    bit<8>  rule_id;
    bit<16> ingress_port;
}

header sample_h {
    bit<16> egress_port;
    bit<32> seq;
}

header ethernet_h {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src;
    bit<32> dst;
}

header ports_h {
    bit<16> sport;
    bit<16> dport;
}

struct headers_t {
    drop_report_h report;
    sample_h      sample;
    ethernet_h    eth;
    ipv4_h        ipv4;
    ports_h       ports;
}

struct meta_t {
    @field_list(1) bit<8>  drop_reason;
    @field_list(1) bit<8>  rule_id;
    @field_list(1) bit<16> report_port;
    @field_list(2) bit<16> sampled_port;
    @field_list(2) bit<32> sample_seq;
    bit<16> dport;
}

parser MonParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.ether_type) {
            0x0800:  parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            6:       parse_ports;
            17:      parse_ports;
            default: accept;
        }
    }
    state parse_ports {
        pkt.extract(hdr.ports);
        meta.dport = hdr.ports.dport;
        transition accept;
    }
}

control MonVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control MonIngress(inout headers_t hdr, inout meta_t meta,
                   inout standard_metadata_t sm) {
    action drop_and_report(bit<8> reason, bit<8> rule) {
        meta.drop_reason = reason;
        meta.rule_id = rule;
        meta.report_port = (bit<16>)sm.ingress_port;
        clone_preserving_field_list(CloneType.I2E, MONITOR_SESSION, 1);
        mark_to_drop(sm);
    }

    action permit() { }
    action deny(bit<8> rule) {
        drop_and_report(DROP_ACL, rule);
    }
    table acl {
        key = {
            hdr.ipv4.src      : ternary;
            hdr.ipv4.dst      : ternary;
            hdr.ipv4.protocol : ternary;
            meta.dport        : ternary;
        }
        actions = { permit; deny; }
        default_action = permit();
    }

    action route(bit<9> port, bit<48> dmac) {
        sm.egress_spec = port;
        hdr.eth.src = hdr.eth.dst;
        hdr.eth.dst = dmac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
    action no_route() {
        drop_and_report(DROP_NO_ROUTE, 0);
    }
    table ipv4_lpm {
        key = { hdr.ipv4.dst : lpm; }
        actions = { route; no_route; }
        default_action = no_route();
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            mark_to_drop(sm);
            return;
        }
        if (hdr.ipv4.ttl <= 1) {
            drop_and_report(DROP_TTL, 0);
            return;
        }
        switch (acl.apply().action_run) {
            deny: { return; }
            default: { ipv4_lpm.apply(); }
        }
    }
}

control MonEgress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    register<bit<32>>(16) forwarded;
    register<bit<32>>(16) samples;

    action sample_every(bit<32> n) {
        bit<32> count;
        bit<32> port = (bit<32>)sm.egress_port;
        forwarded.read(count, port);
        count = count + 1;
        if (count == n) {
            count = 0;
            bit<32> seq;
            samples.read(seq, port);
            seq = seq + 1;
            samples.write(port, seq);
            meta.sampled_port = (bit<16>)sm.egress_port;
            meta.sample_seq = seq;
            clone_preserving_field_list(CloneType.E2E, SAMPLER_SESSION, 2);
        }
        forwarded.write(port, count);
    }
    table sample_rate {
        key = { sm.egress_port : exact; }
        actions = { sample_every; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (sm.instance_type == 1) {            // drop report copy
            hdr.report.setValid();
            hdr.report.reason = meta.drop_reason;
            hdr.report.rule_id = meta.rule_id;
            hdr.report.ingress_port = meta.report_port;
        } else if (sm.instance_type == 2) {     // sample copy
            hdr.sample.setValid();
            hdr.sample.egress_port = meta.sampled_port;
            hdr.sample.seq = meta.sample_seq;
        } else {
            sample_rate.apply();
        }
    }
}

control MonCompute(inout headers_t hdr, inout meta_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src, hdr.ipv4.dst },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control MonDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.report);
        pkt.emit(hdr.sample);
        pkt.emit(hdr.eth);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.ports);
    }
}

V1Switch(MonParser(), MonVerify(), MonIngress(), MonEgress(), MonCompute(),
         MonDeparser()) main;
