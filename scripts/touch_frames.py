"""Training frames for the detector's hand and touch context, taken from
games made as the touch benchmark makes them (`measure_touches.py`'s
`game`: touches of the mover's other pieces, of the opponent's, out of
turn, and hovers, under random cameras) but on seeds of a training range,
never the benchmark's. Each game is rendered with `referee synth`; a share
of its frames (`KEEP`: most of those where a fingertip touches a piece,
fewer of those with a hand that touches nothing, few of the others) is
written as a `referee synth --dataset` set (images/NNNNNN.jpg and
labels.jsonl, read by `detector_data.load_set`).

Random single frames (`synth --dataset`) seldom show what these games
show often: a player reaching over the far edge to touch a tall piece of
the back rank, a fingertip resting for a fraction of a second, a hand
passing just over the heads of pieces.

    python3 scripts/touch_frames.py --seed 20000 --games 100 --out DIR [--jobs 2]
"""

import argparse
import json
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2

from measure_touches import game

ROOT = Path(__file__).resolve().parent.parent
REFEREE = ROOT / "target" / "release" / "referee"
# The share of a game's frames kept: with a fingertip on a piece, with a
# hand touching nothing (reaching, hovering, carrying), with no hand.
KEEP = {"touch": 0.25, "hand": 0.15, "none": 0.03}


def render(seed, referee, folder):
    """The game of `seed` rendered into `folder`/game_SEED (kept if there)."""
    out = folder / f"game_{seed:05}"
    if not (out / "truth.json").exists():
        text = game(seed)[0]
        scenario = folder / f"game_{seed:05}.scn"
        scenario.write_text(text)
        done = subprocess.run([str(referee), "synth", str(scenario), "--out", str(out)],
                              capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise RuntimeError(f"seed {seed}: referee synth: {done.stderr.strip()}")
    return out


def frames_of(out, rng):
    """(image, label) of the game's kept frames."""
    truth = json.loads((out / "truth.json").read_text())
    video = cv2.VideoCapture(str(out / "video.avi"))
    for frame in truth["frames"]:
        ok, image = video.read()
        if not ok:
            break
        squares = frame["squares"]
        kind = ("touch" if any(sq["touch"] for sq in squares)
                else "hand" if any(sq["hand"] for sq in squares) else "none")
        if rng.random() >= KEEP[kind]:
            continue
        yield image, {
            "yaw": 0.0,
            "action": kind,
            "corners": frame["corners"],
            "white_side": frame["white_side"],
            "squares": squares,
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True, help="the first game's seed")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--referee", type=Path, default=REFEREE)
    args = parser.parse_args()
    games = args.out / "games"
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    games.mkdir(exist_ok=True)
    seeds = range(args.seed, args.seed + args.games)
    with ThreadPoolExecutor(args.jobs) as pool:
        rendered = list(pool.map(lambda s: render(s, args.referee, games), seeds))
    rng = random.Random(args.seed)
    index = 0
    with open(args.out / "labels.jsonl", "w") as labels:
        for out in rendered:
            for image, label in frames_of(out, rng):
                file = f"images/{index:06}.jpg"
                cv2.imwrite(str(args.out / file), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
                labels.write(json.dumps({"file": file, **label}) + "\n")
                index += 1
    print(f"{index} frames from {len(rendered)} games (seeds {seeds.start}-{seeds.stop - 1}) in {args.out}")


if __name__ == "__main__":
    sys.exit(main())
