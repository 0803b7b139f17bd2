//! Arbitrary bytes as a frame through janus-packet's views (what the slow
//! path reads from tenants' punted frames): parsing never panics, and what
//! a view gives is inside the bytes.
#![no_main]

use janus_packet::neighbor::{ArpRequest, NeighborSolicitation};
use janus_packet::{Body, Frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(f) = Frame::parse(data) {
        if let Body::Ipv4(ip) = f.body {
            assert!(ip.payload.len() <= data.len());
        }
        if let Some(v) = f.vxlan() {
            assert!(v.inner.len() < data.len());
            let _ = Frame::parse(v.inner);
        }
    }
    if let Some(r) = ArpRequest::parse(data) {
        let _ = r.reply([2, 0, 0, 0, 0, 1]);
    }
    if let Some(ns) = NeighborSolicitation::parse(data) {
        let _ = ns.advertisement([2, 0, 0, 0, 0, 1]);
    }
});
