//! The referee's gRPC API, generated from `proto/referee/v1/referee.proto`.
//!
//! `referee.v1` holds the messages, the server trait (`referee_server`) and the
//! client (`referee_client`); the server crate implements the service and the
//! command line uses the client.

/// Version 1 of the API.
#[allow(clippy::all, missing_debug_implementations)]
pub mod v1 {
    tonic::include_proto!("referee.v1");
}

pub use v1::*;

/// The compiled descriptors of `referee.v1`, for gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("referee_descriptor");

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;

    #[test]
    fn a_frame_survives_the_wire() {
        let frame = Frame {
            board_id: "board-1".into(),
            t: 12.5,
            image: Some(frame::Image::Jpeg(vec![0xff, 0xd8, 0xff])),
        };
        let bytes = frame.encode_to_vec();
        let back = Frame::decode(bytes.as_slice()).expect("decodes");
        assert_eq!(back, frame);
    }
}
