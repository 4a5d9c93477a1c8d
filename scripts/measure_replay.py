"""Measures the whole chain on rendered games: renders every scenario of
tests/data/scenarios with `referee synth`, replays its video with
`referee replay` (corners from the truth; the announced adjustments, which no
camera sees, given as an app or a button would give them: `--events` with the
truth's `declare` events), and prints for each whether the
moves and the incidents (kind, article, ply, side) are exact, with speed and
latency, and whether a record that is not exact says where (each move right
or marked recovered, a `record_gap` raised where moves are missing) or is
silently wrong. Needs only Python's standard library and a release build:

    cargo build --release -p referee && python3 scripts/measure_replay.py [--drop 0.1]

--drop F removes that share of frames at random (seeded) before replaying,
the others keeping their times (an .mkv with time stamps; needs PyAV).
--every K referees every K-th frame only (a service's even rate under load;
a 10 frames a second scenario read at 10/K).
--only NAME... replays those scenarios alone.
--referee PATH measures that binary (a copy kept while another is built).
--random N adds N random legal games of 60 plies (seeded; needs python-chess)
rendered with the default camera noise, for a count of plies over many games.
--hover P (with --random): before each move, with chance P, the mover's hand
first passes over another of its pieces without touching it (a player
thinking): the same games, which must read with no touch and no incident
more.
"""

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFEREE = ROOT / "target" / "release" / "referee"


def run(referee, *args):
    """The referee's output, run from the repository's root (where it finds
    its models in .native/), or an error naming the command and its reason."""
    out = subprocess.run([str(referee), *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise RuntimeError(f"referee {' '.join(map(str, args))}: {out.stderr.strip()}")
    return out.stdout


def drop_frames(video, share, seed):
    """Rewrites the video without a share of its frames, the others keeping
    their times, as a recording that lost frames under load does (an .mkv
    with each frame's time stamp; needs PyAV, `pip install av`)."""
    import av  # only for --drop

    rng = random.Random(seed)
    out = video.with_name("dropped.mkv")
    with av.open(str(video)) as source, av.open(str(out), "w") as sink:
        decoded = source.streams.video[0]
        stream = sink.add_stream("mjpeg", rate=decoded.average_rate)
        stream.width, stream.height = decoded.width, decoded.height
        stream.pix_fmt = "yuvj420p"
        stream.time_base = Fraction(1, 1000)
        for index, frame in enumerate(source.decode(decoded)):
            if index > 0 and rng.random() < share:
                continue
            kept = av.VideoFrame.from_ndarray(frame.to_ndarray(format="rgb24"), format="rgb24")
            kept.pts = round(frame.time * 1000)
            kept.time_base = stream.time_base
            for packet in stream.encode(kept):
                sink.mux(packet)
        for packet in stream.encode():
            sink.mux(packet)
    return out


def random_scenarios(count, folder, hover=0.0):
    """Writes `count` seeded random legal games as scenario files (needs
    python-chess), the mover's hand passing over another of its pieces
    before a move with chance `hover` (its own seed: the games stay the same)."""
    import chess  # only for --random

    paths = []
    for seed in range(count):
        rng = random.Random(seed)
        hovers = random.Random(10_000 + seed)
        board = chess.Board()
        lines = [f"# a random legal game, seed {seed}", f"camera seed={1000 + seed} fps=10 noise=0.1 tilt={rng.randint(0, 15)}"]
        for _ in range(60):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            move = rng.choice(moves)
            others = sorted(set(chess.SquareSet(board.occupied_co[board.turn])) - {move.from_square})
            if hover and others and hovers.random() < hover:
                lines.append(f"hover {chess.square_name(hovers.choice(others))}")
            board.push(move)
            lines += [f"move {move.uci()}", "clock"]
        path = folder / f"random_{seed:03}.scn"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths


def right_or_marked(moves, want):
    """Whether each move is the one `want` (SAN) holds at its place or is
    marked recovered (one beyond them marked)."""
    return all(m.get("recovered") or (k < len(want) and m["san"] == want[k])
               for k, m in enumerate(moves))


def said_where(verdict, want):
    """Whether a record that differs from the truth says where: each move the
    truth's at its place or marked recovered, and where moves are missing, a
    `record_gap` raised for the arbiter."""
    moves = verdict["moves"]
    gap = any(i["kind"] == "record_gap" for i in verdict["incidents"])
    return right_or_marked(moves, want) and (len(moves) >= len(want) or gap)


def key(incident):
    return (incident["kind"], incident["article"], incident["ply"], incident["side"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--drop", type=float, default=0.0)
    parser.add_argument("--every", type=int, default=1, help="referee every K-th frame only, as a loaded service does")
    parser.add_argument("--random", type=int, default=0)
    parser.add_argument("--hover", type=float, default=0.0, help="with --random: chance of a hover before each move")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these scenarios only (file stems)")
    parser.add_argument(
        "--referee", type=Path, default=REFEREE,
        help="the binary to measure (default: the release build), e.g. a copy kept while another is built",
    )
    args = parser.parse_args()
    scenarios = sorted((ROOT / "tests" / "data" / "scenarios").glob("*.scn"))
    generated = Path(tempfile.mkdtemp())
    if args.random:
        scenarios = random_scenarios(args.random, generated, args.hover)
    if args.only:
        scenarios = [s for s in scenarios if s.stem in args.only]
    totals = {"plies": 0, "plies_exact": 0, "games_moves_exact": 0, "games_incidents_exact": 0,
              "games_silently_wrong": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in scenarios:
            out = Path(tmp) / scenario.stem
            run(args.referee, "synth", scenario, "--out", out)
            truth = json.loads((out / "truth.json").read_text())
            corners = ",".join(f"{v:.2f}" for p in truth["frames"][0]["corners"] for v in p)
            video = out / "video.avi"
            if args.drop > 0:
                video = drop_frames(video, args.drop, seed=len(scenario.stem))
            fen = [line.split(None, 2)[2] for line in scenario.read_text().splitlines() if line.startswith("start fen ")]
            declares = out / "declares.jsonl"
            declares.write_text("".join(json.dumps(e) + "\n" for e in truth["events"] if e["type"] == "declare"))
            verdict = json.loads(run(
                args.referee, "replay", video, "--json", "--corners", corners, "--events", declares, "--every", str(args.every),
                *(["--fen", fen[0]] if fen else []),
            ))
            got = [m["san"] for m in verdict["moves"]]
            want = [m["san"] for m in truth["moves"]]
            prefix = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            moves_exact = got == want
            told = moves_exact or said_where(verdict, want)
            totals["games_silently_wrong"] += not told
            incidents_exact = sorted(map(key, verdict["incidents"])) == sorted(map(key, truth["incidents"]))
            totals["plies"] += len(want)
            totals["plies_exact"] += len(want) if moves_exact else prefix
            totals["games_moves_exact"] += moves_exact
            totals["games_incidents_exact"] += moves_exact and incidents_exact
            stats = verdict["stats"]
            print(
                f"{scenario.stem:32} moves {'exact' if moves_exact else f'{prefix}/{len(want)} then wrong'}"
                f"{'' if moves_exact else (', told' if told else ', SILENTLY')}"
                f"  incidents {'exact' if incidents_exact else 'differ'}"
                f"  {stats['fps']:.0f} fps  latency median {stats['latency_ms']['median']:.0f} ms"
                f" max {stats['latency_ms']['max']:.0f} ms  stage_ms {json.dumps(stats['stage_ms'])}"
            )
            if not incidents_exact:
                seen, wanted = set(map(key, verdict["incidents"])), set(map(key, truth["incidents"]))
                print(f"{'':32} missed {sorted(wanted - seen)}  not in the truth {sorted(seen - wanted)}")
    shutil.rmtree(generated, ignore_errors=True)
    print(
        f"\n{totals['games_moves_exact']}/{len(scenarios)} scenarios with exact moves, "
        f"{totals['games_incidents_exact']}/{len(scenarios)} with exact moves and incidents, "
        f"{totals['plies_exact']}/{totals['plies']} plies read before the first error, "
        f"{totals['games_silently_wrong']} records silently wrong"
    )


if __name__ == "__main__":
    sys.exit(main())
