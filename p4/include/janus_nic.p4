/*
 * janus_nic.p4 -- the port map of the Janus SmartNIC, shared by every P4
 * program that runs on it (p4/sdn.p4, p4/roce_paths.p4).
 *
 * This file is the single place where port numbers live; docs/nic-model.md
 * describes the same map in prose.  Programs include it after v1model.p4.
 *
 *   port 0, 1      network uplinks (toward the top-of-rack switches)
 *   port 2 .. 509  host virtual functions (VFs); one or more per tenant
 *   port 510       CPU port: the NIC's embedded cores (firmware slow path,
 *                  control plane)
 *   port 511       drop (v1model's drop port)
 *
 * It also holds the two controller headers exchanged with the CPU port,
 * because the firmware on the embedded cores reads and writes exactly
 * these formats whatever program is loaded.
 */
#ifndef JANUS_NIC_P4
#define JANUS_NIC_P4

/* A port number of the v1model pipeline (9 bits). */
typedef bit<9> nic_port_t;

const nic_port_t NIC_UPLINK_0  = 0;
const nic_port_t NIC_UPLINK_1  = 1;
const nic_port_t NIC_FIRST_VF  = 2;
const nic_port_t NIC_LAST_VF   = 509;
const nic_port_t NIC_CPU_PORT  = 510;
const nic_port_t NIC_DROP_PORT = 511;

/* Number of uplinks, and size of arrays indexed directly by port number. */
const bit<32> NIC_UPLINK_COUNT = 2;
const bit<32> NIC_PORT_COUNT   = 512;

/* Port classes. */
bool nic_is_uplink(in nic_port_t port) {
    return port <= NIC_UPLINK_1;
}

bool nic_is_vf(in nic_port_t port) {
    return port >= NIC_FIRST_VF && port <= NIC_LAST_VF;
}

/*
 * Sent to the CPU port in front of a punted frame (3 bytes).  `reason` is
 * one of the NIC_PUNT_* codes below.
 */
@controller_header("packet_in")
header nic_packet_in_t {
    bit<9> ingress_port;  // port the frame arrived on
    bit<7> _pad;          // zero
    bit<8> reason;        // why it was punted
}

/*
 * Put by the CPU in front of every frame it injects on the CPU port
 * (2 bytes).  The pipeline removes it and sends the rest unchanged out of
 * `egress_port`.
 */
@controller_header("packet_out")
header nic_packet_out_t {
    bit<9> egress_port;   // port to send the frame out of
    bit<7> _pad;          // ignored
}

/* packet_in reason codes. */
const bit<8> NIC_PUNT_ARP_GATEWAY = 1;  // ARP for the gateway
const bit<8> NIC_PUNT_ND_GATEWAY  = 2;  // neighbor discovery for the gateway
const bit<8> NIC_PUNT_MANAGEMENT  = 3;  // management traffic

#endif /* JANUS_NIC_P4 */
