//! Whether the picture has settled enough to calibrate on, when the chain
//! starts again mid-game (a restart, a camera reconnecting, a board taken
//! over from another instance): the eyes learn the board's look from their
//! first frame, and a hand over the board there (likely mid-game, unlike
//! at a game's start) would be learnt as the board. So they wait for the
//! picture to hold still a moment, or for a few seconds at most.

use opencv::core::{Mat, Size};
use opencv::imgproc;
use opencv::prelude::*;

/// The picture is compared at this size, grey (its noise averaged away).
const THUMB: Size = Size {
    width: 80,
    height: 60,
};
/// Two frames this alike (mean absolute difference in grey levels of
/// 255, at [`THUMB`]'s size) are still: a rendered still board differs by
/// about 0.02, a real camera's by about 0.2, a moving hand by 0.5 to 15.
pub const STILL_GREY: f64 = 0.5;
/// Still frame pairs in a row the picture must show.
pub const STILL_PAIRS: u32 = 2;
/// The longest the eyes wait (seconds of the stream) before calibrating
/// on whatever the picture shows.
pub const SETTLE_SECONDS: f64 = 4.0;

/// The frames seen while waiting.
#[derive(Debug, Default)]
pub struct Settling {
    last: Option<Mat>,
    since: Option<f64>,
    still: u32,
}

impl Settling {
    /// Takes the frame at `t`; whether the eyes may calibrate on it.
    pub fn settled(&mut self, image: &Mat, t: f64) -> opencv::Result<bool> {
        let since = *self.since.get_or_insert(t);
        let mut grey = Mat::default();
        let source = if image.channels() == 3 {
            imgproc::cvt_color_def(image, &mut grey, imgproc::COLOR_BGR2GRAY)?;
            &grey
        } else {
            image
        };
        let mut thumb = Mat::default();
        imgproc::resize(source, &mut thumb, THUMB, 0.0, 0.0, imgproc::INTER_AREA)?;
        if let Some(last) = &self.last {
            let mut difference = Mat::default();
            opencv::core::absdiff(&thumb, last, &mut difference)?;
            let mean = opencv::core::mean_def(&difference)?[0];
            self.still = if mean <= STILL_GREY {
                self.still + 1
            } else {
                0
            };
        }
        self.last = Some(thumb);
        Ok(self.still >= STILL_PAIRS || t - since >= SETTLE_SECONDS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC3, Rect, Scalar};

    /// A grey picture with a dark block (a hand) at `hand_x`, if any.
    fn picture(hand_x: Option<i32>) -> Mat {
        let mut image = Mat::new_rows_cols_with_default(240, 320, CV_8UC3, Scalar::all(128.0))
            .expect("a picture");
        if let Some(x) = hand_x {
            let rect = Rect::new(x, 60, 80, 80);
            imgproc::rectangle(&mut image, rect, Scalar::all(20.0), -1, imgproc::LINE_8, 0)
                .expect("a hand drawn");
        }
        image
    }

    #[test]
    fn a_still_picture_settles_at_once() {
        let mut settling = Settling::default();
        let still = picture(None);
        let settled: Vec<bool> = (0..3)
            .map(|k| {
                settling
                    .settled(&still, f64::from(k) * 0.1)
                    .expect("compared")
            })
            .collect();
        assert_eq!(settled, [false, false, true]);
    }

    #[test]
    fn a_moving_hand_is_waited_for_up_to_the_longest_wait() {
        let mut settling = Settling::default();
        let mut t = 0.0;
        let mut x = 0;
        while t < SETTLE_SECONDS - 0.05 {
            assert!(
                !settling.settled(&picture(Some(x)), t).expect("compared"),
                "settled at {t} s with the hand moving"
            );
            t += 0.1;
            x = (x + 16) % 240;
        }
        assert!(
            settling
                .settled(&picture(Some(x)), SETTLE_SECONDS)
                .expect("compared")
        );
    }
}
