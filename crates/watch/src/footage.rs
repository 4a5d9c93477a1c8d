//! What a board's footage is, told from the hands both models see on it:
//! camera footage (MediaPipe's real-hand models, trained on photographs,
//! follow the players' hands) or a render (the detector, trained on renders,
//! sees hands MediaPipe mostly does not).
//!
//! MediaPipe does follow a rendered hand now and then, sometimes for a few
//! frames in a row, so a run of followed frames alone does not make footage
//! real: MediaPipe must also have followed a hand on at least as many frames
//! as the detector saw one it did not, once [`TOLD_AFTER_HAND_FRAMES`]
//! frames have shown a hand. Nor does MediaPipe losing real hands at the
//! picture's edge make a render: it must follow them far less often than
//! the detector sees them ([`RENDERED_FOLLOWED_SHARE`]). A picture cropped
//! to the playing area is real footage from the start ([`cropped_to_board`]).

use opencv::core::Size;
use referee_vision::BoardCorners;

use crate::hands::HandSource;

/// Frames in a row a real hand must be followed for the footage to be real.
pub const REAL_AFTER_FRAMES: u32 = 5;
/// Frames the detector must see a hand MediaPipe does not for the footage
/// to be a render.
pub const RENDERED_AFTER_FRAMES: u32 = 50;

/// On a render, MediaPipe follows a hand on at most this share as many
/// frames as the detector sees one it does not. Real footage whose picture
/// is not cropped to the board loses its hands too, arms coming in over
/// the picture's edge, but far less often than renders do (the counts of
/// both are in `models/HANDS.md`).
pub const RENDERED_FOLLOWED_SHARE: f32 = 0.4;

/// Frames with a hand (followed by MediaPipe, or seen by the detector alone)
/// before the footage is told either way: MediaPipe may follow a rendered
/// hand for a third of a second as it first comes in.
pub const TOLD_AFTER_HAND_FRAMES: u32 = 50;

/// A picture whose corners lie within this share of its width and height
/// of the board's own corners is cropped to the playing area.
pub const CROPPED_WITHIN: f32 = 0.03;

/// Whether the picture (of `size`) is the board at `corners` and nothing
/// else: footage cropped to the playing area, as real games are prepared
/// for reading. No hand is ever whole in such a picture, so MediaPipe's
/// not finding one says nothing of the footage being a render (and renders
/// always show the table around the board): in `auto` it is real footage.
pub fn cropped_to_board(corners: &BoardCorners, size: Size) -> bool {
    let (w, h) = (size.width as f32, size.height as f32);
    let picture = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    corners.0.iter().zip(picture).all(|(corner, at)| {
        (corner[0] - at[0]).abs() <= CROPPED_WITHIN * w
            && (corner[1] - at[1]).abs() <= CROPPED_WITHIN * h
    })
}

/// The hands seen so far on a board's footage, as evidence of what it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FootageEvidence {
    /// Frames in a row with a real hand followed.
    followed_in_a_row: u32,
    /// Frames with a real hand followed, in all.
    followed: u32,
    /// Frames with a hand for the detector and none for MediaPipe.
    unseen_by_real: u32,
}

impl FootageEvidence {
    /// A frame MediaPipe looked at: it followed a hand there, or not.
    pub fn real_hand(&mut self, followed: bool) {
        if followed {
            self.followed_in_a_row += 1;
            self.followed += 1;
        } else {
            self.followed_in_a_row = 0;
        }
    }

    /// A frame where the detector saw a hand MediaPipe did not.
    pub fn unseen_by_real(&mut self) {
        self.unseen_by_real += 1;
    }

    /// What the footage is, once the hands tell: `Real` or `Rendered`.
    pub fn tells(&self) -> Option<HandSource> {
        if self.followed + self.unseen_by_real < TOLD_AFTER_HAND_FRAMES {
            return None;
        }
        let mostly_followed = self.followed >= self.unseen_by_real;
        if self.followed_in_a_row >= REAL_AFTER_FRAMES && mostly_followed {
            Some(HandSource::Real)
        } else if self.unseen_by_real >= RENDERED_AFTER_FRAMES
            && self.followed as f32 <= RENDERED_FOLLOWED_SHARE * self.unseen_by_real as f32
        {
            Some(HandSource::Rendered)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The evidence after frames written as the models saw them: `M` a hand
    /// MediaPipe followed, `d` one only the detector saw, `.` none.
    fn after(frames: &str) -> FootageEvidence {
        let mut evidence = FootageEvidence::default();
        for frame in frames.chars() {
            evidence.real_hand(frame == 'M');
            if frame == 'd' {
                evidence.unseen_by_real();
            }
        }
        evidence
    }

    #[test]
    fn only_a_picture_that_is_the_board_is_cropped_to_it() {
        let size = Size::new(480, 480);
        let whole = BoardCorners([[0.0, 0.0], [480.0, 0.0], [480.0, 480.0], [0.0, 480.0]]);
        assert!(cropped_to_board(&whole, size));
        // Found a few pixels in from the picture's edges: still the crop.
        let found = BoardCorners([[6.0, 4.0], [475.0, 3.0], [474.0, 477.0], [5.0, 476.0]]);
        assert!(cropped_to_board(&found, size));
        // A camera's view: the table around the board.
        let camera = BoardCorners([[154.0, 90.0], [474.0, 80.0], [513.0, 414.0], [139.0, 428.0]]);
        assert!(!cropped_to_board(&camera, Size::new(640, 480)));
        // The board filling the picture's width only.
        let wide = BoardCorners([[0.0, 80.0], [480.0, 80.0], [480.0, 400.0], [0.0, 400.0]]);
        assert!(!cropped_to_board(&wide, size));
    }

    #[test]
    fn real_hands_followed_from_their_arrival_make_real_footage() {
        let real = "M".repeat(TOLD_AFTER_HAND_FRAMES as usize);
        assert_eq!(after(&real[1..]).tells(), None);
        assert_eq!(after(&real).tells(), Some(HandSource::Real));
    }

    #[test]
    fn a_run_of_followed_frames_among_many_unfollowed_does_not_make_real_footage() {
        // As on a render MediaPipe followed for a while (touch bench, seed 9020).
        let render = format!("{}{}", "d".repeat(40), "M".repeat(15));
        assert_eq!(after(&render).tells(), None);
        // As the real opening clip: the arms seen by the detector alone as
        // they came in, then followed for longer than that.
        let clip = format!("{}..{}d{}", "d".repeat(13), "M".repeat(13), "M".repeat(23));
        assert_eq!(after(&clip).tells(), Some(HandSource::Real));
    }

    #[test]
    fn a_rendered_hand_followed_as_it_first_comes_in_tells_nothing_yet() {
        // Seed 12048: MediaPipe followed the first hand of the game for 9
        // frames in a row, 12 in all against 7 seen by the detector alone.
        let first = "d.d.d.d.d.d.M....MM.dMMMMMMMMM";
        assert_eq!(after(first).tells(), None);
        let game = format!("{first}{}", "d".repeat(RENDERED_AFTER_FRAMES as usize - 7));
        assert_eq!(after(&game).tells(), Some(HandSource::Rendered));
    }

    #[test]
    fn hands_only_the_detector_sees_make_a_render() {
        let render = format!("dMMMMd.{}", "d".repeat(RENDERED_AFTER_FRAMES as usize - 2));
        assert_eq!(after(&render).tells(), Some(HandSource::Rendered));
        // A hand followed as often as not tells nothing, however long.
        let followed_as_often = "dM".repeat(RENDERED_AFTER_FRAMES as usize);
        assert_eq!(after(&followed_as_often).tells(), None);
    }

    #[test]
    fn real_hands_often_lost_at_the_picture_s_edge_do_not_make_a_render() {
        // As the real opening clip framed by table: MediaPipe followed a
        // hand on 33 frames, the detector saw one it did not on 50.
        let framed = format!("{}{}", "dMd".repeat(17), "dM".repeat(16));
        let evidence = after(&framed);
        assert_eq!((evidence.followed, evidence.unseen_by_real), (33, 50));
        assert_eq!(evidence.tells(), None);
        // As a render MediaPipe followed for a while (touch bench, seed
        // 9020): 15 followed to 50 seen by the detector alone.
        let render = format!("{}{}", "M".repeat(15), "d".repeat(50));
        assert_eq!(after(&render).tells(), Some(HandSource::Rendered));
    }
}
