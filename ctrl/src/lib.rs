//! Janus control plane: P4Runtime over gRPC, tenants, authentication and isolation.
//!
//! The wire contract is the P4Runtime 1.6 protobuf schema, written for
//! Janus from the specification (`ctrl/proto/`), compiled at build time
//! without `protoc` and exposed as [`proto`]. [`server`] is the P4Runtime
//! service over any target ([`janus_engine::target::Target`]); [`device`]
//! holds a committed pipeline and dispatches each entity to its own type:
//! [`tables`] maps tables and translates table entries, [`counters`],
//! [`registers`] and [`meters`] the indexed and direct externs,
//! [`replication`] the packet replication engine, [`packet_io`] the
//! controller headers of PacketOut/PacketIn, [`profiles`] action
//! profiles and selectors, [`value_sets`] parser value sets, [`digests`] digest configs and
//! DigestLists, [`quotas`] tenant quotas, [`translation`] the mappings of
//! translated types; [`codec`] is the wire conventions they share.
//! [`p4info`] turns the front end's P4Info into the protobuf message;
//! [`p4info_check`] checks a pushed P4Info against the program by names
//! and shapes and renumbers the program's with its ids. [`client`] is the other side: a P4Runtime client
//! (plaintext or mTLS, arbitration, pipelines, writes with per-update
//! errors, reads, the StreamChannel), used by `janus ctrl` and the demo.
//!
//! | module | protobuf package | what |
//! |---|---|---|
//! | [`proto::p4::v1`] | `p4.v1` | the `P4Runtime` service, its requests, responses and entities; `P4Data` |
//! | [`proto::p4::config::v1`] | `p4.config.v1` | the P4Info and the P4 type descriptions |
//! | [`proto::google::rpc`] | `google.rpc` | `Status` and the canonical `Code`s |
//! | [`proto::gnmi`] | `gnmi` | the `gNMI` service ([`gnmi`] serves it on the same port) |
//! | [`proto::gnmi_ext`] | `gnmi_ext` | gNMI extensions (accepted, ignored) |
//!
//! `google.protobuf.Any` is [`prost_types::Any`]. For the service, `p4::v1`
//! holds the server trait `p4_runtime_server::P4Runtime` and the client
//! `p4_runtime_client::P4RuntimeClient` (`P4RuntimeClient::connect(addr)`);
//! [`client::Client`] wraps the latter with bounded calls and typed errors.

mod arbitration;
pub mod audit;
pub mod auth;
pub mod batch;
mod cells;
pub mod certs;
pub mod client;
pub mod codec;
pub mod counters;
pub mod device;
pub mod digests;
mod entry_data;
pub mod gnmi;
pub mod journal;
pub mod listen;
pub mod meters;
pub mod p4info;
pub mod p4info_check;
pub mod packet_io;
pub mod port_stats;
pub mod profiles;
pub mod quotas;
pub mod registers;
pub mod replication;
pub mod roles;
pub mod server;
pub mod tables;
pub mod translation;
pub mod undo;
pub mod value_sets;

pub mod proto {
    //! Messages and services generated from `ctrl/proto/` by `build.rs`.

    include!(concat!(env!("OUT_DIR"), "/janus_p4runtime.rs"));

    /// The P4Runtime specification version this schema follows.
    pub const P4RUNTIME_API_VERSION: &str = "1.6.0";

    /// The compiled schema as an encoded `google.protobuf.FileDescriptorSet`
    /// (every file of `ctrl/proto/` plus the well-known types they import,
    /// without source positions).
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/janus_p4runtime_descriptors.bin"));
}
