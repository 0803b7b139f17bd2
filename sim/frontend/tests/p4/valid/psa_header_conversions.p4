// PSA: converting metadata types to their fixed-width header forms and back
// (psa_<T>_int_to_header / psa_<T>_header_to_int), and assert/assume.
#include <core.p4>
#include <psa.p4>

header to_cpu_h { PortIdInHeader_t port; TimestampInHeader_t when; ClassOfServiceInHeader_t cos; }
struct headers_t { to_cpu_h to_cpu; }
struct meta_t { }
struct empty_t { }

parser MyIngressParser(packet_in pkt, out headers_t h, inout meta_t m,
                     in psa_ingress_parser_input_metadata_t istd, in empty_t resubmit, in empty_t recirculate) {
    state start { transition accept; }
}
control MyIngress(inout headers_t h, inout meta_t m,
                in psa_ingress_input_metadata_t istd, inout psa_ingress_output_metadata_t ostd) {
    apply {
        h.to_cpu.setValid();
        h.to_cpu.port = psa_PortId_int_to_header(istd.ingress_port);
        h.to_cpu.when = psa_Timestamp_int_to_header(istd.ingress_timestamp);
        h.to_cpu.cos = psa_ClassOfService_int_to_header(ostd.class_of_service);
        assume(h.to_cpu.isValid());
        send_to_port(ostd, psa_PortId_header_to_int(h.to_cpu.port));
        assert(ostd.egress_port == istd.ingress_port);
    }
}
control MyIngressDeparser(packet_out pkt, out empty_t clone_i2e, out empty_t resubmit, out empty_t normal,
                        inout headers_t h, in meta_t m, in psa_ingress_output_metadata_t istd) {
    apply { pkt.emit(h.to_cpu); }
}
parser MyEgressParser(packet_in pkt, out headers_t h, inout meta_t m, in psa_egress_parser_input_metadata_t istd,
                    in empty_t normal, in empty_t clone_i2e, in empty_t clone_e2e) {
    state start { transition accept; }
}
control MyEgress(inout headers_t h, inout meta_t m, in psa_egress_input_metadata_t istd,
               inout psa_egress_output_metadata_t ostd) { apply { } }
control MyEgressDeparser(packet_out pkt, out empty_t clone_e2e, out empty_t recirculate, inout headers_t h,
                       in meta_t m, in psa_egress_output_metadata_t istd, in psa_egress_deparser_input_metadata_t edstd) {
    apply { pkt.emit(h.to_cpu); }
}
IngressPipeline(MyIngressParser(), MyIngress(), MyIngressDeparser()) ip;
EgressPipeline(MyEgressParser(), MyEgress(), MyEgressDeparser()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
