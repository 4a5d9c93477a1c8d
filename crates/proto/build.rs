//! Compiles `proto/referee/v1/referee.proto` with the protoc binary vendored
//! from crates.io (or the one `PROTOC` names), so the build needs no system protoc.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../proto");
    let proto = root.join("referee/v1/referee.proto");
    println!("cargo:rerun-if-changed={}", proto.display());
    println!("cargo:rerun-if-env-changed=PROTOC");

    let protoc = match std::env::var_os("PROTOC") {
        Some(path) => PathBuf::from(path),
        None => protoc_bin_vendored::protoc_bin_path()?,
    };
    let mut config = tonic_prost_build::Config::new();
    config.protoc_executable(protoc);
    // The descriptor set lets the server answer gRPC reflection.
    let descriptors = PathBuf::from(std::env::var("OUT_DIR")?).join("referee_descriptor.bin");
    tonic_prost_build::configure()
        .file_descriptor_set_path(descriptors)
        .compile_with_config(config, &[proto], &[root])?;
    Ok(())
}
