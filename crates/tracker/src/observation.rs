//! What the tracker is given of each frame ([`Observation`]) and what it
//! gives back ([`Step`]), with the descriptions of a frame its traces print.

use shakmaty::{Color, Piece, Square};

use referee_rules::Event;

use crate::squares::squares_in;
use crate::{BoardBelief, Gap};

/// One frame as the eyes saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// Seconds since the stream started.
    pub t: f64,
    /// Squares that differ from the last accepted picture, one bit per `Square` index.
    pub changed: u64,
    /// How strongly each square differs (any scale), by `Square` index: a
    /// piece leaving or arriving changes its square more than its shadow
    /// changes a neighbour.
    pub scores: [f32; 64],
    /// Changes at most this strong (the scale of `scores`) are faint: left
    /// out of a move, they are residues of an earlier picture, not a hand.
    pub faint: f32,
    /// The colour the eyes read on each square, by `Square` index (`None`:
    /// empty): a check on changes no move explains.
    pub occupancy: [Option<Color>; 64],
    /// The occupant a second pair of eyes (the learned detector) reads on
    /// each square, by `Square` index, where it is sure and no hand covers
    /// the square: `Some(None)` empty, `Some(Some(colour))` a piece, `None`
    /// not told. A second opinion on a move the change shows: it may bear
    /// out a faint square, refuse a move it reads against, and, once the
    /// mover has pressed the clock, complete a move the change half shows
    /// (a white piece set on a light square may change its square too
    /// little to be seen at all). It picks a move by itself only when it
    /// reads the whole board as the table but for exactly one legal move's
    /// squares, and only after a press of the clock that ends no move seen,
    /// or before a move seen that only that move makes legal (the press
    /// missed).
    pub detected: [Option<Option<Color>>; 64],
    /// The piece a pawn could have become (a knight, bishop, rook or queen
    /// of either side) that the eyes read on each square, by `Square` index
    /// (`None`: empty or not told). Never decides an ordinary move: it
    /// names the piece a pawn promotes to.
    pub promoted: [Option<Piece>; 64],
    /// The square a fingertip rests on, from eyes that can see fingertips
    /// (the colour baseline cannot: it gives `None`).
    pub fingertip: Option<Square>,
    /// Whose hand that fingertip is (from the edge its arm comes from),
    /// when the eyes can tell: the touch is then that side's.
    pub toucher: Option<Color>,
    /// A hand is at the clock beside the board (when the eyes see a clock).
    pub at_clock: bool,
    /// Both hands of this side grip pieces at once (from eyes that tell
    /// hands apart: the real-hand models).
    pub two_hands: Option<Color>,
    /// Squares a hand or arm covers, one bit per `Square` index (from eyes
    /// that see hands; 0 otherwise): what they show is not the board.
    pub covered: u64,
    /// The picture did not change since the previous frame.
    pub still: bool,
    /// How much of each square's picture changed since the previous frame
    /// (percent of its pixels), by `Square` index: where a hand moves.
    pub motion: [f32; 64],
    /// How strongly the picture where each square's piece shows its head
    /// differs from the last accepted picture (the scale of `scores`), by
    /// `Square` index: a finger resting on the back of a piece at the
    /// board's edge changes it and may leave `scores` as they were.
    pub head_scores: [f32; 64],
    /// How much of that picture changed since the previous frame (the scale
    /// of `motion`), by `Square` index.
    pub head_motion: [f32; 64],
    /// How much of the picture just past the board beyond each square on
    /// its edge changed since the previous frame (the scale of `motion`),
    /// by `Square` index, 0 for the others: where the hand of a finger on
    /// a piece on the edge shows, come in over the board's edge.
    pub beyond_motion: [f32; 64],
    /// What the eyes believe stands on each square, every pair of eyes
    /// fused, squares under a hand unknown ([`BoardBelief::unknown`] from
    /// eyes that give none): the still board's position is decided by it
    /// where the change alone reads no move.
    pub belief: BoardBelief,
}

/// What one frame made known.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Step {
    pub events: Vec<Event>,
    /// On these squares (one bit per `Square` index) the present picture
    /// is the new accepted board: a move was read, or a change no move
    /// explains has read as the table long after.
    pub accept: u64,
    /// A move was read: the table is what the board holds, and the eyes
    /// may learn from the picture where no hand is. A picture accepted
    /// with no move read (its squares reading as the table, long after a
    /// change no move explains) teaches them nothing: a move made
    /// meanwhile that the colours miss would be learnt as the eyes' error.
    pub moved: bool,
    /// Nothing seen waits to be reported (no touch held, the board as
    /// accepted): no later step brings an event earlier than this frame.
    pub idle: bool,
    /// The record no longer explains the board: moves are missing from it
    /// (or one read is wrong), for the arbiter to look at.
    pub gap: Option<Gap>,
}

impl Step {
    /// Whether a move of this step was recovered: read from the still
    /// board, not seen made. A touch marked recovered was only seen with
    /// frames lost in its turn (its order unknown), its move seen made.
    pub fn recovered_move(&self) -> bool {
        self.events
            .iter()
            .any(|e| e.recovered && !e.action.is_touch())
    }
}

/// The changed squares of a frame with how much each changed and the
/// colour read there (`w`, `b`, `.` empty), for traces.
pub(crate) fn describe(obs: &Observation) -> String {
    Square::ALL
        .into_iter()
        .filter(|sq| obs.changed & (1 << usize::from(*sq)) != 0)
        .map(|sq| {
            let seen = match obs.occupancy[usize::from(sq)] {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '.',
            };
            format!("{sq}:{:.0}{seen}", obs.scores[usize::from(sq)])
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The pieces the eyes read on the changed squares of the first and last
/// ranks (where pawns promote), for traces.
pub(crate) fn promoted_named(obs: &Observation) -> String {
    squares_in(obs.changed)
        .filter_map(|sq| Some(format!("{sq}:{}", obs.promoted[usize::from(sq)]?.char())))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::Action;

    #[test]
    fn a_touch_with_frames_lost_around_it_is_no_move_recovered() {
        let marked = |action| Event {
            recovered: true,
            ..Event::new(1.0, action)
        };
        let step = |events| Step {
            events,
            ..Step::default()
        };
        let touched = step(vec![
            marked(Action::Touch(Square::B1)),
            Event::new(1.5, Action::Lift(Square::E2)),
            Event::new(1.8, Action::Release(Square::E4)),
        ]);
        assert!(!touched.recovered_move());
        let recovered = step(vec![
            marked(Action::Lift(Square::E2)),
            marked(Action::Release(Square::E4)),
        ]);
        assert!(recovered.recovered_move());
    }
}
