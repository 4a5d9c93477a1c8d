//! Frames whose picture is one already read. On most frames of a game
//! nothing moves (a still board between moves, a camera sending the same
//! frame again): a small grey copy of the board ([`Thumbnail`]) tells them
//! for a fraction of a reading, and the reading of that picture stands for
//! them, motionless, with no warp, colour reading or model run. A picture
//! first read as it moved is read once more, still: the models look at the
//! first still frame after motion, the one the move decoder reads. The
//! picture is read afresh at least every [`READ_EVERY_SECONDS`], on the
//! next frame after anything changes what a reading means (a move
//! accepted, the camera followed, the eyes calibrated again), and where
//! the eyes would try following the camera (the caller's to ask: they try
//! as often as they would on pictures read afresh).

use referee_vision::{BoardReading, Result, Thumbnail};

use crate::attention::GLANCE_MOTION;

/// Share of the copy's pixels that may change while the picture stays the
/// one read: none. A fingertip arriving on a piece may change only a few
/// of the copy's pixels, and a camera's noise is averaged away in it.
pub const SAME_SHARE: f64 = 0.0;

/// The picture is read afresh at least this often (seconds).
pub const READ_EVERY_SECONDS: f64 = 2.0;

/// The last picture read, and what was read of it.
#[derive(Debug, Default)]
pub struct Recall {
    last: Option<Read>,
}

#[derive(Debug)]
struct Read {
    thumbnail: Thumbnail,
    reading: BoardReading,
    at: f64,
}

impl Recall {
    /// The reading that stands for the frame taken at `t`, whose copy is
    /// `thumbnail`: the last one, nothing moving, when the picture is the
    /// one it read; `None` when the frame must be read.
    pub fn stands(&self, thumbnail: &Thumbnail, t: f64) -> Result<Option<BoardReading>> {
        let Some(last) = self
            .last
            .as_ref()
            .filter(|last| last.reading.motion < GLANCE_MOTION)
        else {
            return Ok(None);
        };
        if !(last.at..last.at + READ_EVERY_SECONDS).contains(&t)
            || thumbnail.changed_share(&last.thumbnail)? > SAME_SHARE
        {
            return Ok(None);
        }
        Ok(Some(last.reading.at_rest()))
    }

    /// The frame taken at `t`, whose copy is `thumbnail`, was read as
    /// `reading`.
    pub fn read(&mut self, thumbnail: Thumbnail, reading: &BoardReading, t: f64) {
        self.last = Some(Read {
            thumbnail,
            reading: reading.clone(),
            at: t,
        });
    }

    /// What was read no longer stands: the next frame is read.
    pub fn forget(&mut self) {
        self.last = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::{CV_8UC3, Mat, Point, Scalar};
    use opencv::imgproc;
    use referee_vision::BoardCorners;

    type Outcome = std::result::Result<(), Box<dyn std::error::Error>>;

    const CORNERS: BoardCorners =
        BoardCorners([[40.0, 40.0], [280.0, 40.0], [280.0, 280.0], [40.0, 280.0]]);

    /// A grey board, with a pale fingertip at `x` on its fifth rank.
    fn thumbnail(
        fingertip_at: Option<i32>,
    ) -> std::result::Result<Thumbnail, Box<dyn std::error::Error>> {
        let mut image = Mat::new_rows_cols_with_default(320, 320, CV_8UC3, Scalar::all(90.0))?;
        if let Some(x) = fingertip_at {
            let centre = Point::new(x, 160);
            imgproc::circle(&mut image, centre, 6, Scalar::all(230.0), -1, 8, 0)?;
        }
        Ok(Thumbnail::of(&image, &CORNERS)?)
    }

    fn moving() -> BoardReading {
        BoardReading {
            occupancy: [None; 64],
            colours: [[1.0, 0.0, 0.0]; 64],
            changed: 1 << 20,
            scores: [3.0; 64],
            motion: 2.5,
            square_motion: [4.0; 64],
        }
    }

    fn still() -> BoardReading {
        BoardReading {
            colours: [[0.0, 1.0, 0.0]; 64],
            ..moving().at_rest()
        }
    }

    #[test]
    fn a_picture_already_read_stands_motionless_until_it_changes_or_a_while_passed() -> Outcome {
        let mut recall = Recall::default();
        assert_eq!(recall.stands(&thumbnail(Some(150))?, 0.0)?, None);
        // First read as it moved: read once more.
        recall.read(thumbnail(Some(150))?, &moving(), 0.0);
        assert_eq!(recall.stands(&thumbnail(Some(150))?, 0.05)?, None);
        recall.read(thumbnail(Some(150))?, &still(), 0.05);
        let stood = recall
            .stands(&thumbnail(Some(150))?, 0.1)?
            .ok_or("the reading stands")?;
        assert_eq!((stood.motion, stood.square_motion), (0.0, [0.0; 64]));
        assert_eq!((stood.changed, stood.scores), (1 << 20, [3.0; 64]));
        assert_eq!(stood.colours, still().colours);
        // The fingertip crept a few pixels, or left: read again.
        assert_eq!(recall.stands(&thumbnail(Some(154))?, 0.2)?, None);
        assert_eq!(recall.stands(&thumbnail(None)?, 0.2)?, None);
        // The same picture, but long enough since it was read.
        let late = recall.stands(&thumbnail(Some(150))?, 0.05 + READ_EVERY_SECONDS)?;
        assert_eq!(late, None);
        // Time going back (a stream restarted), or what was read forgotten.
        assert_eq!(recall.stands(&thumbnail(Some(150))?, -1.0)?, None);
        recall.forget();
        assert_eq!(recall.stands(&thumbnail(Some(150))?, 0.1)?, None);
        Ok(())
    }
}
