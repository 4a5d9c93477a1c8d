"""Writes the rules engine's data-driven cases: NAME.jsonl (physical events,
contracts.md section 1) beside NAME.expected.json (what an arbiter expects).

Expectations are written here by hand from the Laws (../shared/spec/rules.md),
never taken from the engine's output. Run from anywhere:

    python3 tests/data/arbitrate/make_cases.py

Expected file keys: `moves` (SAN, in order), `incidents` (kind, article, ply,
side, squares; optional `claimable`), `result`; optional `fen` (the start),
`termination`, `claims` (kinds), `pgn_contains` (substrings of the PGN).
"""

import json
from pathlib import Path

HERE = Path(__file__).parent
STEP = 0.5

CASTLING_FEN = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
KNIGHT_FORK_FEN = "4k3/3p1p2/8/4N3/8/8/8/4K3 w - - 0 1"
ROOK_AND_KNIGHT_FEN = "4k3/3p4/8/8/8/8/3R4/4K1N1 w - - 0 1"
PROMOTION_FEN = "8/4P2p/8/8/8/8/k7/4K3 w - - 0 1"


class Log:
    """Builds an event log; each event comes STEP seconds after the last."""

    def __init__(self):
        self.events = []
        self.t = 0.0

    def ev(self, kind, square=None, same_instant=False, **fields):
        if not same_instant:
            self.t += STEP
        event = {"t": round(self.t, 3), "type": kind}
        if square:
            event["square"] = square
        event.update(fields)
        self.events.append(event)
        return self

    def touch(self, sq, **kw):
        return self.ev("touch", sq, **kw)

    def lift(self, sq, **kw):
        return self.ev("lift", sq, **kw)

    def release(self, sq, **kw):
        return self.ev("release", sq, **kw)

    def capture(self, sq, **kw):
        return self.ev("capture", sq, **kw)

    def add(self, sq, piece, **kw):
        return self.ev("add", sq, piece=piece, **kw)

    def adjust(self, sq, **kw):
        return self.ev("adjust", sq, **kw)

    def declare(self):
        return self.ev("declare", what="adjust")

    def clock(self, **kw):
        return self.ev("clock", **kw)

    def two_hands(self):
        return self.ev("two_hands")

    def mv(self, uci, clock=True):
        """An ordinary non-capturing move: lift, release, clock."""
        self.lift(uci[:2]).release(uci[2:4])
        return self.clock() if clock else self

    def take(self, uci, victim_first=False, clock=True):
        """A capture: the victim on the target square, in either order."""
        frm, to = uci[:2], uci[2:4]
        if victim_first:
            self.capture(to).lift(frm).release(to)
        else:
            self.lift(frm).capture(to).release(to)
        return self.clock() if clock else self

    def castle(self, king_from, king_to, rook_from, rook_to, clock=True):
        self.lift(king_from).release(king_to).lift(rook_from).release(rook_to)
        return self.clock() if clock else self

    def moves(self, *ucis):
        for uci in ucis:
            self.mv(uci)
        return self


CASES = {}


def case(name, log, moves, incidents=(), result="*", fen=None, **extra):
    assert name not in CASES, name
    expected = {"moves": list(moves), "incidents": [incident(*i) for i in incidents], "result": result}
    if fen:
        expected["fen"] = fen
    expected.update(extra)
    CASES[name] = (log.events, expected)


def incident(kind, article, ply, side, squares, claimable=None):
    out = {"kind": kind, "article": article, "ply": ply, "side": side, "squares": list(squares)}
    if claimable is not None:
        out["claimable"] = claimable
    return out


def L():
    return Log()


# --- 4.3a: own pieces, the first touched that can move ---------------------
case("43a_contract_example", L().mv("e2e4").touch("g8").mv("b8c6"),
     ["e4", "Nc6"], [("touch_move", "4.3a", 2, "black", ["g8"])])
case("43a_touch_then_move_it", L().touch("g1").mv("g1f3"), ["Nf3"])
case("43a_first_of_two_touched", L().touch("b1").touch("g1").mv("g1f3"),
     ["Nf3"], [("touch_move", "4.3a", 1, "white", ["b1"])])
case("43a_put_back_then_other_piece", L().lift("e2").release("e2").mv("d2d4"),
     ["d4"], [("touch_move", "4.3a", 1, "white", ["e2"])])
case("43a_put_back_then_same_piece", L().lift("g1").release("g1").mv("g1f3"), ["Nf3"])
case("43a_immobile_then_movable_binds", L().touch("a1").touch("b1").mv("g1f3"),
     ["Nf3"], [("touch_move", "4.3a", 1, "white", ["b1"])])
case("43a_black_second_move", L().mv("e2e4").mv("e7e5").mv("g1f3").touch("d7").mv("b8c6"),
     ["e4", "e5", "Nf3", "Nc6"], [("touch_move", "4.3a", 4, "black", ["d7"])])

# --- 4.5: touched pieces that cannot move or be captured --------------------
case("45_touched_piece_without_moves", L().touch("a1").mv("e2e4"), ["e4"])
case("45_opponent_piece_not_capturable", L().touch("e7").mv("e2e4"), ["e4"])
case("45_king_boxed_in", L().touch("e1").touch("f1").mv("d2d4"), ["d4"])

# --- 4.3b: opponent's pieces, the first touched that can be captured -------
FEN_D5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
case("43b_touched_capturable_then_other_move", L().touch("d5").mv("g1f3"),
     ["Nf3"], [("touch_move", "4.3b", 3, "white", ["d5"])], fen=FEN_D5)
case("43b_touched_then_captured", L().touch("d5").take("e4d5"), ["exd5"], fen=FEN_D5)
case("43b_captured_by_another_piece", L().touch("d5").take("c3d5"), ["Nxd5"],
     fen="4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1")
case("43b_first_of_two_opponent_pieces", L().touch("d7").touch("e8").mv("g1f3"),
     ["Nf3"], [("touch_move", "4.3b", 1, "white", ["d7"])], fen=ROOK_AND_KNIGHT_FEN)
# Lifting the knight, which can capture the first touched pawn, binds it to that capture.
case("43b_then_own_capturer_binds_capture", L().touch("f7").touch("d7").take("e5d7"),
     ["Nxd7"], [("touch_move", "4.3c", 1, "white", ["e5", "f7"])], fen=KNIGHT_FORK_FEN)
case("43b_black_touches_white_piece", L().mv("e2e4").touch("e4").mv("g8f6"),
     ["e4", "Nf6"])  # e4 cannot be captured by Black: no obligation (4.5)

# --- 4.3c: one piece of each colour ----------------------------------------
case("43c_own_then_opponent_captured", L().touch("e5").touch("d7").take("e5d7"),
     ["Nxd7"], fen=KNIGHT_FORK_FEN)
case("43c_own_then_opponent_other_capture", L().touch("e5").touch("d7").take("e5f7"),
     ["Nxf7"], [("touch_move", "4.3c", 1, "white", ["e5", "d7"])], fen=KNIGHT_FORK_FEN)
case("43c_opponent_then_own_king_moves", L().touch("d7").touch("e5").mv("e1e2"),
     ["Ke2"], [("touch_move", "4.3c", 1, "white", ["e5", "d7"])], fen=KNIGHT_FORK_FEN)
case("43c_same_instant_own_counts_first",
     L().touch("d7").touch("g1", same_instant=True).mv("g1f3"),
     ["Nf3"], fen=ROOK_AND_KNIGHT_FEN)
# Taking hold of the piece played is the move, not a touch before it: 4.3b.
case("43c_opponent_strictly_first_binds", L().touch("d7").touch("g1").mv("g1f3"),
     ["Nf3"], [("touch_move", "4.3b", 1, "white", ["d7"])], fen=ROOK_AND_KNIGHT_FEN)
# One piece of each colour touched before the move and the capture between
# them illegal: the first touched that can move or be captured binds, and
# 4.3c names it.
case("43c_opponent_first_own_cannot_capture", L().touch("d7").touch("g1").mv("e1f1"),
     ["Kf1"], [("touch_move", "4.3c", 1, "white", ["d7", "g1"])], fen=ROOK_AND_KNIGHT_FEN)
case("43c_capture_illegal_first_movable", L().touch("g1").touch("d7").take("d2d7"),
     ["Rxd7"], [("touch_move", "4.3c", 1, "white", ["g1", "d7"])], fen=ROOK_AND_KNIGHT_FEN)
case("43c_own_first_cannot_capture_other_piece_moved", L().touch("g1").touch("d7").mv("d2d4"),
     ["Rd4"], [("touch_move", "4.3c", 1, "white", ["g1", "d7"])], fen=ROOK_AND_KNIGHT_FEN)
case("43c_own_first_cannot_capture_it_moves", L().touch("g1").touch("d7").mv("g1f3"),
     ["Nf3"], fen=ROOK_AND_KNIGHT_FEN)
case("43c_own_immobile_then_opponent_captured_otherwise", L().touch("e1").touch("d7").mv("h1g3"),
     ["Ng3"], [("touch_move", "4.3c", 1, "white", ["d7", "e1"])], fen="4k3/3p4/8/8/8/8/3RPP2/3QKB1N w - - 0 1")
case("43c_black_own_first_then_white_piece", L().mv("e2e4").touch("b8").touch("e4").mv("g8f6"),
     ["e4", "Nf6"], [("touch_move", "4.3c", 2, "black", ["b8", "e4"])])

# --- seeds/000: once obliged, later touches only narrow it to a capture -----
case("old_own_then_capturable_opponent", L().touch("d2").touch("d7").mv("d2d5"),
     ["Rd5"], [("touch_move", "4.3c", 1, "white", ["d2", "d7"])], fen=ROOK_AND_KNIGHT_FEN)
case("old_opponent_then_own_capturer", L().touch("d7").touch("d2").take("d2d7"),
     ["Rxd7"], fen=ROOK_AND_KNIGHT_FEN)
case("old_later_own_touch_no_consequence", L().touch("g1").touch("d2").mv("g1f3"),
     ["Nf3"], fen=ROOK_AND_KNIGHT_FEN)

# --- 4.4a: king then rook ---------------------------------------------------
case("44a_king_then_rook_castles", L().touch("e1").touch("h1").castle("e1", "g1", "h1", "f1"),
     ["O-O"], fen=CASTLING_FEN)
case("44a_king_then_rook_other_king_move", L().touch("e1").touch("h1").mv("e1f1"),
     ["Kf1"], [("touch_move", "4.4a", 1, "white", ["e1", "h1"])], fen=CASTLING_FEN)
case("44a_king_then_rook_other_piece", L().touch("e1").touch("h1").mv("a2a3"),
     ["a3"], [("touch_move", "4.4a", 1, "white", ["e1", "h1"])], fen=CASTLING_FEN)
case("44a_queenside", L().touch("e1").touch("a1").castle("e1", "c1", "a1", "d1"),
     ["O-O-O"], fen=CASTLING_FEN)
case("44a_castling_by_lifting_king_first", L().castle("e1", "g1", "h1", "f1"),
     ["O-O"], fen=CASTLING_FEN)
case("44a_black_castles_kingside",
     L().mv("a2a3").castle("e8", "g8", "h8", "f8"), ["a3", "O-O"], fen=CASTLING_FEN)

# --- 4.4b: rook then king ---------------------------------------------------
case("44b_castling_begun_with_rook", L().lift("h1").release("f1").lift("e1").release("g1").clock(),
     ["O-O"], [("touch_move", "4.4b", 1, "white", ["h1"])], fen=CASTLING_FEN)
case("44b_rook_touched_then_king_first_castling",
     L().touch("h1").touch("e1").castle("e1", "g1", "h1", "f1"),
     ["O-O"], [("touch_move", "4.4b", 1, "white", ["h1"])], fen=CASTLING_FEN)
case("44b_rook_first_then_rook_moves", L().touch("h1").touch("e1").mv("h1g1"),
     ["Rg1"], fen=CASTLING_FEN)
case("44b_rook_first_then_king_move", L().touch("h1").touch("e1").mv("e1f1"),
     ["Kf1"], [("touch_move", "4.3a", 1, "white", ["h1"])], fen=CASTLING_FEN)
case("44b_queenside_rook_first", L().lift("a1").release("d1").lift("e1").release("c1").clock(),
     ["O-O-O"], [("touch_move", "4.4b", 1, "white", ["a1"])], fen=CASTLING_FEN)

# --- 4.4c: king then rook, castling that side illegal -----------------------
FEN_F1_ATTACKED = "4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1"
FEN_KING_STUCK = "4kr2/8/8/8/8/8/3PP3/3QK2R w K - 0 1"
case("44c_other_king_move_allowed", L().touch("e1").touch("h1").mv("e1d2"),
     ["Kd2"], fen=FEN_F1_ATTACKED)
case("44c_castling_other_side_allowed", L().touch("e1").touch("h1").castle("e1", "c1", "a1", "d1"),
     ["O-O-O"], fen=FEN_F1_ATTACKED)
case("44c_non_king_move", L().touch("e1").touch("h1").mv("a1b1"),
     ["Rb1"], [("touch_move", "4.4c", 1, "white", ["e1", "h1"])], fen=FEN_F1_ATTACKED)
case("44c_king_cannot_move_any_move", L().touch("e1").touch("h1").mv("d2d4"),
     ["d4"], fen=FEN_KING_STUCK)
case("44c_king_cannot_move_rook_move", L().touch("e1").touch("h1").mv("h1g1"),
     ["Rg1"], fen=FEN_KING_STUCK)

# --- 4.4d / 4.6: promotion --------------------------------------------------
case("44d_promotion_piece_changed",
     L().capture("e7").add("e8", "Q").release("e8").capture("e8").add("e8", "N").release("e8").clock(),
     ["e8=N"], [("promotion_changed", "4.4d", 1, "white", ["e8"])], fen=PROMOTION_FEN)
case("44d_same_piece_put_again",
     L().capture("e7").add("e8", "Q").release("e8").capture("e8").add("e8", "Q").release("e8").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_pawn_moved_then_exchanged",
     L().lift("e7").release("e8").capture("e8").add("e8", "Q").release("e8").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_pawn_removed_first", L().capture("e7").add("e8", "Q").release("e8").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_new_piece_first", L().add("e8", "Q").release("e8").capture("e7").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_underpromotion_knight", L().capture("e7").add("e8", "N").release("e8").clock(),
     ["e8=N"], fen=PROMOTION_FEN)
case("46_capture_promotion_to_rook",
     L().capture("d8").capture("e7").add("d8", "R").release("d8").clock(),
     ["exd8=R"], fen="3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1")
case("46_pawn_set_on_victim_then_both_removed",
     L().lift("e7").release("d8").capture("d8").capture("d8").add("d8", "Q").release("d8").clock(),
     ["exd8=Q"], fen="3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1")
# 4.4d: the queen touched e8, so taking it back off before letting go and
# setting a knight there instead changes a final choice.
case("44d_new_piece_taken_back_before_release",
     L().capture("e7").add("e8", "Q").capture("e8").add("e8", "N").release("e8").clock(),
     ["e8=N"], [("promotion_changed", "4.4d", 1, "white", ["e8"])], fen=PROMOTION_FEN)
case("44d_same_piece_taken_back_before_release",
     L().capture("e7").add("e8", "Q").capture("e8").add("e8", "Q").release("e8").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("44d_changed_after_pawn_set_on_square",
     L().lift("e7").release("e8").add("e8", "R").capture("e8").capture("e8").add("e8", "Q")
     .release("e8").clock(),
     ["e8=Q"], [("promotion_changed", "4.4d", 1, "white", ["e8"])], fen=PROMOTION_FEN)
# 4.6: every order of the pawn's release or capture and the new piece's add and release.
case("46_pawn_held_while_new_piece_set", L().lift("e7").add("e8", "Q").release("e8").capture("e7").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_pawn_lifted_then_taken_away", L().lift("e7").capture("e7").add("e8", "Q").release("e8").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_new_piece_held_while_pawn_removed", L().add("e8", "Q").capture("e7").release("e8").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_new_piece_set_on_pawn_then_pawn_removed",
     L().lift("e7").release("e8").add("e8", "Q").release("e8").capture("e8").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_pawn_on_square_removed_while_new_piece_held",
     L().lift("e7").release("e8").add("e8", "Q").capture("e8").release("e8").clock(),
     ["e8=Q"], fen=PROMOTION_FEN)
case("46_capture_promotion_new_piece_first",
     L().add("d8", "Q").release("d8").capture("d8").capture("e7").clock(),
     ["exd8=Q"], fen="3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1")
case("46_black_underpromotes_to_bishop", L().capture("a2").add("a1", "B").release("a1").clock(),
     ["a1=B"], fen="4k3/8/8/8/8/8/p6P/4K3 b - - 0 1")

# --- captures and en passant --------------------------------------------------
OPEN_D5 = L().mv("e2e4").mv("d7d5")
case("capture_victim_first", L().mv("e2e4").mv("d7d5").take("e4d5", victim_first=True),
     ["e4", "d5", "exd5"])
case("capture_own_piece_first", L().mv("e2e4").mv("d7d5").take("e4d5"), ["e4", "d5", "exd5"])
case("capture_set_on_victim_then_removed",
     L().mv("e2e4").mv("d7d5").lift("e4").release("d5").capture("d5").clock(),
     ["e4", "d5", "exd5"])
case("en_passant_victim_after",
     L().moves("e2e4", "a7a6", "e4e5", "d7d5").lift("e5").release("d6").capture("d5").clock(),
     ["e4", "a6", "e5", "d5", "exd6"])
case("en_passant_victim_first",
     L().moves("e2e4", "a7a6", "e4e5", "d7d5").capture("d5").lift("e5").release("d6").clock(),
     ["e4", "a6", "e5", "d5", "exd6"])

# --- 4.7: a piece released on a legal square is final -----------------------
case("47_released_then_moved_on", L().lift("g1").release("f3").lift("f3").release("h3").clock(),
     ["Nh3"], [("release_final", "4.7", 1, "white", ["f3", "h3"])])
case("47_put_back_on_origin_then_moved", L().lift("g1").release("g1").lift("g1").release("f3").clock(),
     ["Nf3"])
case("47_released_lifted_and_set_on_same_square",
     L().lift("g1").release("f3").lift("f3").release("f3").clock(), ["Nf3"])
case("47_king_released_on_castling_square_then_moved",
     L().lift("e1").release("g1").lift("g1").release("f1").clock(),
     ["Kf1"], [("release_final", "4.7", 1, "white", ["g1", "f1"])], fen=CASTLING_FEN)
case("47_released_on_illegal_square_then_moved",
     L().lift("g1").release("g3").lift("g3").release("f3").clock(), ["Nf3"])
# A release the tracker only read from a still board afterwards (recovered:
# nobody saw the hand let go there) is no release anyone can hold the player
# to: the piece then seen going on from it breaks nothing.
case("47_recovered_release_then_moved_on",
     L().lift("g1", recovered=True).release("f3", recovered=True).lift("f3").release("h3").clock(),
     ["Nh3"], pgn_contains=["recovered"])

# --- 4.2: adjusting ---------------------------------------------------------
case("42_undeclared_adjust_then_other_move", L().adjust("e2").mv("d2d4"),
     ["d4"], [("adjust_undeclared", "4.2", 1, "white", ["e2"]),
              ("touch_move", "4.3a", 1, "white", ["e2"])])
case("42_undeclared_adjust_then_same_piece", L().adjust("g1").mv("g1f3"),
     ["Nf3"], [("adjust_undeclared", "4.2", 1, "white", ["g1"])])
case("42_declared_adjust", L().declare().adjust("e2").mv("d2d4"), ["d4"])
case("42_declared_touch_is_adjustment", L().declare().touch("b1").mv("g1f3"), ["Nf3"])
case("42_declared_adjust_of_opponent_piece", L().declare().adjust("e7").mv("d2d4"), ["d4"])

# --- 4.1: one hand ------------------------------------------------------------
case("41_two_hands_reported", L().two_hands().mv("e2e4"),
     ["e4"], [("two_hands", "4.1", 1, "white", [])])
case("41_castling_with_two_hands",
     L().lift("e1").lift("h1").two_hands().release("f1").release("g1").clock(),
     ["O-O"], [("two_hands", "4.1", 1, "white", [])], fen=CASTLING_FEN)

# --- touching on the opponent's turn -------------------------------------------
case("40_black_touches_during_white_turn", L().touch("e7", side="black").mv("e2e4").mv("d7d5"),
     ["e4", "d5"], [("touch_on_opponent_turn", "4.0", 1, "black", ["e7"], False)])
case("40_white_lifts_during_black_turn",
     L().mv("e2e4").lift("a2", side="white").release("a2", side="white").mv("e7e5"),
     ["e4", "e5"], [("touch_on_opponent_turn", "4.0", 2, "white", ["a2"])])

# --- completion: clock, opponent's action, illegal moves (art. 6, 7) ----------
case("completion_by_opponent_action",
     L().mv("e2e4", clock=False).mv("e7e5", clock=False).mv("g1f3", clock=False),
     ["e4", "e5", "Nf3"])
case("completion_by_opponent_taking_victim_first",
     L().mv("e2e4", clock=False).mv("d7d5", clock=False).take("e4d5", victim_first=True, clock=False),
     ["e4", "d5", "exd5"])
case("completion_by_opponent_promoting_pawn_first",
     L().mv("a2b2", clock=False).capture("e7").add("e8", "Q").release("e8"),
     ["Kb2", "e8=Q"], fen="8/4P2p/8/8/8/8/k7/4K3 b - - 0 1")
case("clock_without_move_is_illegal", L().clock().mv("e2e4"),
     ["e4"], [("illegal_move", "7.5", 1, "white", [])])
case("illegal_knight_move_then_corrected",
     L().lift("g1").release("g3").clock().lift("g3").release("g1").mv("g1f3"),
     ["Nf3"], [("illegal_move", "7.5", 1, "white", ["g1", "g3"])])
case("illegal_move_then_other_piece_touch_move",
     L().lift("g1").release("g3").clock().lift("g3").release("g1").mv("e2e4"),
     ["e4"], [("illegal_move", "7.5", 1, "white", ["g1", "g3"]),
              ("touch_move", "4.3a", 1, "white", ["g1"])])
case("illegal_two_pieces_moved", L().mv("e2e4", clock=False).mv("d2d4"),
     [], [("illegal_move", "7.5", 1, "white", ["d2", "e2", "d4", "e4"])])
case("clock_times_in_pgn",
     L().lift("e2").release("e4").clock(remaining=598).lift("e7").release("e5").clock(remaining=595.4),
     ["e4", "e5"], pgn_contains=["1. e4 {[%clk 0:09:58]} 1... e5 {[%clk 0:09:55]}"])

# --- 4.8: the claim window ------------------------------------------------------
case("48_window_closes_when_opponent_touches",
     L().mv("e2e4").touch("g8").mv("b8c6").touch("g1"),
     ["e4", "Nc6"], [("touch_move", "4.3a", 2, "black", ["g8"], False)])
case("48_window_open_until_then", L().mv("e2e4").touch("g8").mv("b8c6"),
     ["e4", "Nc6"], [("touch_move", "4.3a", 2, "black", ["g8"], True)])
case("48_brush_does_not_close_window",
     L().mv("e2e4").touch("g8").mv("b8c6").touch("g1", confidence=0.2),
     ["e4", "Nc6"], [("touch_move", "4.3a", 2, "black", ["g8"], True)])
case("brush_creates_no_obligation", L().touch("b1", confidence=0.3).mv("e2e4"), ["e4"])

# --- art. 5 and 9: the end of the game ---------------------------------------------
case("end_checkmate", L().moves("f2f3", "e7e5", "g2g4").lift("d8").release("h4"),
     ["f3", "e5", "g4", "Qh4#"], result="0-1", termination="checkmate")
case("end_stalemate", L().mv("c5b6", clock=False), ["Qb6"], result="1/2-1/2",
     termination="stalemate", fen="k7/8/8/2Q5/8/8/8/7K w - - 0 1")
case("end_dead_position", L().take("e1d2"), ["Kxd2"], result="1/2-1/2",
     termination="dead position", fen="4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")
SHUFFLE = ["g1f3", "g8f6", "f3g1", "f6g8"]
case("end_threefold_claimable", L().moves(*SHUFFLE, *SHUFFLE),
     ["Nf3", "Nf6", "Ng1", "Ng8"] * 2, claims=["threefold_repetition"])
case("end_fivefold_automatic", L().moves(*SHUFFLE * 4).mv("e2e4"),
     ["Nf3", "Nf6", "Ng1", "Ng8"] * 4, result="1/2-1/2", termination="fivefold repetition",
     claims=["threefold_repetition"])
case("end_fifty_moves_claimable", L().mv("a1a2"), ["Ra2"],
     fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 80", claims=["fifty_moves"])
case("end_seventy_five_moves", L().mv("a1a2"), ["Ra2"], result="1/2-1/2",
     termination="seventy-five-move rule", fen="4k3/8/8/8/8/8/8/R3K3 w - - 149 80")
case("end_events_after_mate_ignored",
     L().moves("f2f3", "e7e5", "g2g4").lift("d8").release("h4").lift("a2").release("a3").clock(),
     ["f3", "e5", "g4", "Qh4#"], result="0-1", termination="checkmate")


def main():
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    for old in HERE.glob("*.expected.json"):
        old.unlink()
    for name, (events, expected) in sorted(CASES.items()):
        lines = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
        (HERE / f"{name}.jsonl").write_text(lines)
        (HERE / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"wrote {len(CASES)} cases to {HERE}")


if __name__ == "__main__":
    main()
