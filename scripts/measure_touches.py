"""The touch benchmark: seeded random short games, each with touches of the
kinds a referee must tell apart mixed with plain moves and hovers, rendered
with `referee synth` under a random camera (tilt, yaw, roll, noise, blur,
light) at 10, 15, 20, 25 or 30 frames a second, replayed with `referee
replay`, and each touch of the truth looked for in what the referee saw.

Kinds of touch (each before the mover's move of that turn):
  own_other   the mover touches one of its pieces, then moves another
  opponent    the mover touches one of the opponent's pieces, does not take it
  out_of_turn the opponent touches one of its own pieces during the mover's turn
and hovers: the mover's hand passing over one to three pieces, at heights
from just over their heads to well above, slowly or fast, touching nothing.

A touch is found when the referee reports a touch of the same square, by the
same side, within TOLERANCE seconds of the truth's. It is in order when it
comes after as many lifts and among the turn's other touches in the same
place as in the truth. A hover is accused when a touch is reported on one of
the squares it passed during its turn. Other false touches are reports that
match no touch of the truth and are not the grasp of a piece the move then
lifts or takes. Run by `scripts/measure_touches` (which installs python-chess);
by hand:

    python3 scripts/measure_touches.py --games 50 --seed 0 [--referee PATH] [--jobs 2]

Seeds 0-199 are the ones to tune on; report figures on a range never used
(`--seed 5000`).
"""

import argparse
import json
import random
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import chess

from measure_replay import key, run

ROOT = Path(__file__).resolve().parent.parent
REFEREE = ROOT / "target" / "release" / "referee"
TOLERANCE = 0.6
FPS = [10, 15, 20, 25, 30]
PLIES = 10
KINDS = ["own_other", "opponent", "out_of_turn"]
# Each piece's head over the board, in squares: crates/synth/src/pieces.rs's
# `height`, which the choreography checks every hover against (a hover too
# low is refused, never drawn through a piece).
HEAD = {chess.PAWN: 0.75, chess.ROOK: 0.98, chess.KNIGHT: 1.15, chess.BISHOP: 1.2, chess.QUEEN: 1.45, chess.KING: 1.72}
COLOUR = {chess.WHITE: "white", chess.BLACK: "black"}


def game(seed):
    """A scenario's text, with what each of its touches and hovers is."""
    rng = random.Random(seed)
    fps = rng.choice(FPS)
    camera = (
        f"camera seed={seed} fps={fps} tilt={rng.uniform(0, 20):.1f} yaw={rng.uniform(-10, 10):.1f}"
        f" roll={rng.uniform(-20, 20):.1f} noise={rng.uniform(0, 0.3):.2f} blur={rng.uniform(0, 0.4):.2f}"
        f" light={rng.uniform(0.7, 1.3):.2f}"
    )
    lines = [f"# touch benchmark, seed {seed}", camera]
    board = chess.Board()
    touches, hovers = [], []
    for ply in range(1, PLIES + 1):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        move = rng.choice(moves)
        mover = board.turn
        own = [sq for sq in chess.SquareSet(board.occupied_co[mover]) if sq != move.from_square]
        theirs = [sq for sq in chess.SquareSet(board.occupied_co[not mover]) if sq != move.to_square]
        roll = rng.random()
        if roll < 0.45:
            kind = rng.choice(KINDS)
            square = rng.choice(theirs if kind != "own_other" else own)
            side = COLOUR[not mover] if kind == "out_of_turn" else COLOUR[mover]
            lines.append(f"by {side} touch {chess.square_name(square)}")
            touches.append({"kind": kind, "ply": ply, "square": chess.square_name(square), "side": side})
        elif roll < 0.7:
            start = rng.choice(own)
            passed = [start]
            for _ in range(rng.randint(0, 2)):
                near = [sq for sq in own if chess.square_distance(sq, passed[-1]) == 1 and sq not in passed]
                if near:
                    passed.append(rng.choice(near))
            head = max(HEAD[board.piece_type_at(sq)] for sq in passed)
            words = [chess.square_name(sq) for sq in passed]
            if rng.random() < 0.5:
                words.append(f"height={rng.uniform(head + 0.3, 3.0):.2f}")
            if rng.random() < 0.5:
                words.append(f"seconds={rng.uniform(0.4, 2.0):.2f}")
            lines.append("hover " + " ".join(words))
            hovers.append({"ply": ply, "squares": [chess.square_name(sq) for sq in passed], "line": lines[-1]})
        board.push(move)
        lines += [f"move {move.uci()}", "clock"]
    return "\n".join(lines) + "\n", fps, touches, hovers


def side_to_move(moves, t):
    """Whose turn it is at `t`, by the moves made (released) before it."""
    made = sum(1 for m in moves if m["t"] <= t)
    return "white" if made % 2 == 0 else "black"


def touches_of(record):
    """A record's touches, each with its side and how many lifts came before."""
    out, lifts = [], 0
    for index, e in enumerate(record["events"]):
        if e["type"] == "lift":
            lifts += 1
        if e["type"] == "touch":
            side = e.get("side") or side_to_move(record["moves"], e["t"])
            out.append({"t": e["t"], "square": e["square"], "side": side, "lifts": lifts, "index": index})
    return out


def turns(truth):
    """Each ply's span: from the clock that ended the one before to its move's first lift."""
    clocks = [e["t"] for e in truth["events"] if e["type"] == "clock"]
    starts = [0.0] + clocks
    spans = {}
    for ply, move in enumerate(truth["moves"], start=1):
        lifts = [e["t"] for e in truth["events"] if e["type"] == "lift" and e["t"] > starts[ply - 1]]
        spans[ply] = (starts[ply - 1], lifts[0] if lifts else move["t"])
    return spans


def render(seed, referee, folder):
    """The game of `seed` rendered by `referee synth` into `folder` (again
    only where its scenario changed): its output folder."""
    text = game(seed)[0]
    scenario = folder / f"touches_{seed:05}.scn"
    scenario.write_text(text)
    out = folder / f"touches_{seed:05}"
    if not (out / "truth.json").exists() or (out / "scenario.scn").read_text() != text:
        run(referee, "synth", scenario, "--out", out)
        (out / "scenario.scn").write_text(text)
    return out


def judge(seed, referee, folder):
    _, fps, planned, hovers = game(seed)
    out = render(seed, referee, folder)
    truth = json.loads((out / "truth.json").read_text())
    corners = ",".join(f"{v:.2f}" for p in truth["frames"][0]["corners"] for v in p)
    verdict = json.loads(run(referee, "replay", out / "video.avi", "--json", "--corners", corners))
    (out / "verdict.json").write_text(json.dumps(verdict))
    if not verdict["stats"]["models_share"]["detector"]:
        raise RuntimeError(f"seed {seed}: the detector never looked (no touch can be seen): run scripts/setup")
    want, got = touches_of(truth), touches_of(verdict)
    for touch, plan in zip(want, planned):
        touch["kind"] = plan["kind"]
    matched = {}
    for i, touch in enumerate(want):
        near = [
            (abs(g["t"] - touch["t"]), j)
            for j, g in enumerate(got)
            if j not in matched.values() and g["square"] == touch["square"] and g["side"] == touch["side"]
            and abs(g["t"] - touch["t"]) <= TOLERANCE
        ]
        if near:
            matched[i] = min(near)[1]
    by_truth = sorted(matched, key=lambda i: want[i]["t"])
    by_record = sorted(matched, key=lambda i: got[matched[i]]["index"])
    in_order = {i for i in matched if by_truth.index(i) == by_record.index(i) and want[i]["lifts"] == got[matched[i]]["lifts"]}
    spans = turns(truth)
    moved = [(e["t"], e["square"]) for e in truth["events"] if e["type"] in ("lift", "capture")]
    false = [g for j, g in enumerate(got) if j not in matched.values()]
    in_turn = lambda g, hover: (  # noqa: E731
        g["square"] in hover["squares"] and spans[hover["ply"]][0] <= g["t"] <= spans[hover["ply"]][1] + TOLERANCE
    )
    accused = [(hover["line"], [(g["square"], g["t"]) for g in false if in_turn(g, hover)]) for hover in hovers]
    accused = [a for a in accused if a[1]]
    grasps = [g for g in false if any(sq == g["square"] and -TOLERANCE <= t - g["t"] <= 2.0 for t, sq in moved)]
    in_hovers = [g for g in false if any(in_turn(g, h) for h in hovers)]
    other_false = [g for g in false if g not in grasps and g not in in_hovers]
    sans = lambda record: [m["san"] for m in record["moves"]]  # noqa: E731
    return {
        "seed": seed,
        "fps": fps,
        "made": Counter(t["kind"] for t in want),
        "found": Counter(want[i]["kind"] for i in matched),
        "in_order": Counter(want[i]["kind"] for i in in_order),
        "hovers": len(hovers),
        "accused": accused,
        "other_false": other_false,
        "moves_exact": sans(verdict) == sans(truth),
        "incidents_exact": sorted(map(key, verdict["incidents"])) == sorted(map(key, truth["incidents"])),
        "missed": [(t["kind"], t["square"], t["side"], t["t"]) for i, t in enumerate(want) if i not in matched],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--referee", type=Path, default=REFEREE)
    parser.add_argument(
        "--keep", type=Path,
        help="keep the scenarios, videos, truths and verdicts here (a later run with the same folder renders only what changed)",
    )
    parser.add_argument("--verbose", action="store_true", help="a line for each game")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="measure-touches-"))
    folder.mkdir(parents=True, exist_ok=True)
    seeds = range(args.seed, args.seed + args.games)
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda s: judge(s, args.referee, folder), seeds))
    made, found, in_order, by_fps = Counter(), Counter(), Counter(), {}
    for r in results:
        made += r["made"]
        found += r["found"]
        in_order += r["in_order"]
        f = by_fps.setdefault(r["fps"], Counter())
        f["made"] += sum(r["made"].values())
        f["found"] += sum(r["found"].values())
        if args.verbose or r["missed"] or r["other_false"] or r["accused"] or not r["moves_exact"]:
            print(
                f"seed {r['seed']:5} {r['fps']:2} fps  moves {'exact' if r['moves_exact'] else 'WRONG'}"
                f"  incidents {'exact' if r['incidents_exact'] else 'differ'}  missed {r['missed']}"
                f"  false {[(g['square'], g['side'], g['t']) for g in r['other_false']]}"
                + "".join(f"\n{'':10} hover `{line}` taken for touches {touches}" for line, touches in r["accused"])
            )
    print(f"\nseeds {seeds.start}-{seeds.stop - 1}, {len(results)} games, touches within {TOLERANCE} s")
    print(f"{'kind':12} {'made':>5} {'found':>6} {'in order':>9}")
    for kind in KINDS:
        print(f"{kind:12} {made[kind]:5} {found[kind]:6} {in_order[kind]:9}")
    total, got, ordered = sum(made.values()), sum(found.values()), sum(in_order.values())
    print(f"{'all':12} {total:5} {got:6} {ordered:9}   found {100 * got / max(total, 1):.1f}%, in order {100 * ordered / max(total, 1):.1f}%")
    print("by frame rate: " + ", ".join(f"{fps} fps {c['found']}/{c['made']}" for fps, c in sorted(by_fps.items())))
    hovers, accused = sum(r["hovers"] for r in results), sum(len(r["accused"]) for r in results)
    print(f"hovers {hovers}, taken for a touch {accused} ({100 * accused / max(hovers, 1):.1f}%)")
    print(f"other false touches {sum(len(r['other_false']) for r in results)}")
    print(
        f"games with exact moves {sum(r['moves_exact'] for r in results)}/{len(results)}, "
        f"with exact incidents too {sum(r['moves_exact'] and r['incidents_exact'] for r in results)}/{len(results)}"
    )


if __name__ == "__main__":
    sys.exit(main())
