//! The virtio-net device as this backend offers it: the feature bits and
//! the per-frame header.
//!
//! Offered: `VIRTIO_F_VERSION_1` (a modern device: the header is always
//! the 12-byte `virtio_net_hdr_v1`) and `VHOST_USER_F_PROTOCOL_FEATURES`
//! (QEMU cannot start a vhost-user net device without it: it enables the
//! rings with `SET_VRING_ENABLE`, which needs the bit; its early requests
//! go through `relay`), with no protocol feature. Nothing else: no
//! checksum or segmentation offloads (every frame is complete and at most
//! one VF buffer long), no mergeable receive buffers (each received frame
//! takes one descriptor chain, `num_buffers` is 1), no event index, no
//! indirect descriptors, one queue pair. QEMU itself provides the MAC
//! address and link status in the device's configuration space.

use vhost::vhost_user::message::VhostUserVirtioFeatures;
use virtio_bindings::virtio_config::VIRTIO_F_VERSION_1;

/// Bytes of `virtio_net_hdr_v1` in front of every frame, both ways.
pub const HEADER_LEN: usize = 12;

/// Offset of the little-endian `num_buffers` field in the header.
const NUM_BUFFERS: usize = 10;

/// The device feature bits this backend offers the VMM.
pub fn backend_features() -> u64 {
    1 << VIRTIO_F_VERSION_1 | VhostUserVirtioFeatures::PROTOCOL_FEATURES.bits()
}

/// The header written in front of a frame for the guest: no checksum or
/// segmentation work to do, one buffer.
pub fn rx_header() -> [u8; HEADER_LEN] {
    let mut h = [0; HEADER_LEN];
    h[NUM_BUFFERS..].copy_from_slice(&1u16.to_le_bytes());
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_says_one_buffer_and_no_offload() {
        let h = rx_header();
        assert_eq!(&h[..NUM_BUFFERS], &[0; NUM_BUFFERS]);
        assert_eq!(u16::from_le_bytes([h[10], h[11]]), 1);
    }

    #[test]
    fn features_are_version_1_and_protocol_features() {
        assert_eq!(backend_features(), 1 << 32 | 1 << 30);
    }
}
