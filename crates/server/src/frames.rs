//! Frames off the wire: decoded with OpenCV and checked (a frame that is
//! not a whole picture of the board's size is refused with the reason), and
//! encoded as JPEG where they came otherwise, for evidence.

use opencv::core::{Mat, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use referee_proto as pb;

/// The largest side a frame may have, in pixels.
pub const MAX_SIDE: u32 = 4096;

/// Decodes one frame; `size` is the width and height the board's earlier
/// frames had.
pub fn decode(frame: &pb::Frame, size: Option<(i32, i32)>) -> Result<Mat, String> {
    use pb::frame::Image;
    let image = match &frame.image {
        None => return Err("the frame carries no image".into()),
        Some(Image::Jpeg(bytes)) => {
            if !bytes.starts_with(&[0xff, 0xd8]) {
                return Err("not a JPEG (no start-of-image marker)".into());
            }
            // A truncated JPEG decodes to a half-grey picture: refuse it.
            let tail = &bytes[bytes.len().saturating_sub(32)..];
            if !tail.windows(2).any(|w| w == [0xff, 0xd9]) {
                return Err("truncated JPEG (no end-of-image marker)".into());
            }
            decode_bytes(bytes)?
        }
        Some(Image::Png(bytes)) => decode_bytes(bytes)?,
        Some(Image::Raw(raw)) => {
            if raw.width == 0 || raw.height == 0 || raw.width > MAX_SIDE || raw.height > MAX_SIDE {
                return Err(format!(
                    "raw image {}x{} is not between 1 and {MAX_SIDE} a side",
                    raw.width, raw.height
                ));
            }
            let expected = raw.width as usize * raw.height as usize * 3;
            if raw.bgr.len() != expected {
                return Err(format!(
                    "raw image {}x{} needs {expected} bytes of BGR, got {}",
                    raw.width,
                    raw.height,
                    raw.bgr.len()
                ));
            }
            let flat = Mat::from_slice(&raw.bgr).map_err(|e| e.to_string())?;
            let shaped = flat
                .reshape(3, raw.height as i32)
                .map_err(|e| e.to_string())?;
            shaped.try_clone().map_err(|e| e.to_string())?
        }
    };
    let (w, h) = (image.cols(), image.rows());
    if w as u32 > MAX_SIDE || h as u32 > MAX_SIDE {
        return Err(format!("{w}x{h} is larger than {MAX_SIDE} a side"));
    }
    if let Some((ew, eh)) = size
        && (w, h) != (ew, eh)
    {
        return Err(format!("{w}x{h}, but this board's frames are {ew}x{eh}"));
    }
    Ok(image)
}

fn decode_bytes(bytes: &[u8]) -> Result<Mat, String> {
    let buffer = Vector::<u8>::from_slice(bytes);
    let image = imgcodecs::imdecode(&buffer, imgcodecs::IMREAD_COLOR)
        .map_err(|e| format!("cannot decode: {e}"))?;
    if image.empty() {
        return Err("cannot decode the picture".into());
    }
    Ok(image)
}

/// Encodes a picture as JPEG.
pub fn to_jpeg(image: &Mat) -> Result<Vec<u8>, String> {
    let mut out = Vector::<u8>::new();
    let params = Vector::<i32>::from_slice(&[imgcodecs::IMWRITE_JPEG_QUALITY, 85]);
    imgcodecs::imencode(".jpg", image, &mut out, &params).map_err(|e| e.to_string())?;
    Ok(out.to_vec())
}

#[cfg(test)]
mod tests {
    use opencv::core::{CV_8UC3, Scalar};

    use super::*;

    fn picture() -> Mat {
        Mat::new_rows_cols_with_default(48, 64, CV_8UC3, Scalar::new(10.0, 200.0, 30.0, 0.0))
            .expect("mat")
    }

    fn jpeg_frame(bytes: Vec<u8>) -> pb::Frame {
        pb::Frame {
            board_id: "b".into(),
            t: 0.0,
            image: Some(pb::frame::Image::Jpeg(bytes)),
        }
    }

    #[test]
    fn whole_pictures_pass_and_damaged_ones_are_refused_with_a_reason() {
        let jpeg = to_jpeg(&picture()).expect("encodes");
        let image = decode(&jpeg_frame(jpeg.clone()), None).expect("decodes");
        assert_eq!((image.cols(), image.rows()), (64, 48));
        let truncated = decode(&jpeg_frame(jpeg[..jpeg.len() / 2].to_vec()), None);
        assert!(truncated.expect_err("truncated").contains("truncated"));
        let noise = decode(&jpeg_frame(vec![7; 500]), None);
        assert!(noise.expect_err("noise").contains("not a JPEG"));
        let resized = decode(&jpeg_frame(jpeg), Some((640, 480)));
        assert!(resized.expect_err("size").contains("640x480"));
        let raw = pb::Frame {
            image: Some(pb::frame::Image::Raw(pb::RawImage {
                width: 64,
                height: 48,
                bgr: vec![0; 64 * 48 * 3 - 1],
            })),
            ..jpeg_frame(Vec::new())
        };
        assert!(
            decode(&raw, None)
                .expect_err("short")
                .contains("needs 9216 bytes")
        );
    }

    #[test]
    fn raw_bgr_keeps_its_pixels() {
        let mut bgr = vec![0u8; 4 * 2 * 3];
        bgr[3 * 5..3 * 6].copy_from_slice(&[1, 2, 3]);
        let frame = pb::Frame {
            image: Some(pb::frame::Image::Raw(pb::RawImage {
                width: 4,
                height: 2,
                bgr,
            })),
            ..jpeg_frame(Vec::new())
        };
        let image = decode(&frame, None).expect("decodes");
        let px = image.at_2d::<opencv::core::Vec3b>(1, 1).expect("pixel");
        assert_eq!(px.0, [1, 2, 3]);
    }
}
