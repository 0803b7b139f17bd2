//! Generates the P4Runtime and gNMI messages and gRPC service code from
//! `proto/`.
//!
//! Everything happens in-process: protox parses and checks the .proto files
//! (no `protoc`, no network) and tonic-prost-build turns the descriptors into
//! Rust. The same descriptors are also written to
//! `$OUT_DIR/janus_p4runtime_descriptors.bin`, which the crate embeds so that
//! the schema test (and, later, gRPC reflection) can see exactly what was
//! compiled.

use std::error::Error;
use std::path::PathBuf;

use prost::Message;

/// The files Janus compiles; everything they import comes along.
const ROOTS: &[&str] = &[
    "p4/v1/p4runtime.proto",
    "google/rpc/code.proto",
    "stratum/p4_role_config.proto",
    "janus/tenant_quota.proto",
    "janus/translation.proto",
    "gnmi/gnmi.proto",
    "p4/tmp/p4config.proto",
];

fn main() -> Result<(), Box<dyn Error>> {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    let proto_dir = manifest_dir.join("proto");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", proto_dir.display());

    let mut compiler = protox::Compiler::new([&proto_dir])?;
    compiler.include_imports(true).include_source_info(true);
    for root in ROOTS {
        compiler
            .open_file(root)
            .map_err(|e| format!("{root}: {e:?}"))?;
    }
    let descriptors = compiler.file_descriptor_set();

    // The embedded copy drops source positions and comments: only the
    // schema matters to its readers.
    let mut embedded = descriptors.clone();
    for file in &mut embedded.file {
        file.source_code_info = None;
    }
    std::fs::write(
        out_dir.join("janus_p4runtime_descriptors.bin"),
        embedded.encode_to_vec(),
    )?;

    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // With tonic's transport: `P4RuntimeClient::connect(addr)`.
        .build_transport(true)
        .include_file("janus_p4runtime.rs")
        .compile_fds(descriptors)?;
    Ok(())
}
