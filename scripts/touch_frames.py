"""Frames of touch-benchmark games for the detector's third stage: games
planned as `measure_touches.py` plans them (the same seeds give the same
games), rendered by `referee synth`, and their frames with a fingertip on a
piece (every third of them) or a hand and no fingertip (every twelfth),
written as a `referee synth --dataset` folder (images/, labels.jsonl). The dataset
renders hands over the board; these add a hand reaching a piece at the
board's far edge with its arm cut by the picture's edge, where the
benchmark's touches went unseen.

    python3 scripts/touch_frames.py --seeds 9000 12000 14000 --games 50 --out DIR [--referee PATH]

Needs python-chess (as `measure_touches.py` does).
"""

import argparse
import json
from pathlib import Path

import cv2

from measure_touches import REFEREE, render

# One frame in this many is kept: fingertips on a piece, hands with none.
TOUCH_EVERY = 3
HAND_EVERY = 12


def frames_of(game_dir):
    """The kept frames of a rendered game: (image, label) pairs."""
    truth = json.loads((game_dir / "truth.json").read_text())
    video = cv2.VideoCapture(str(game_dir / "video.avi"))
    frames = truth["frames"]
    for k, frame in enumerate(frames):
        ok, image = video.read()
        if not ok:
            raise SystemExit(f"{game_dir / 'video.avi'}: ends before frame {k} of its truth")
        touch = any(q["touch"] for q in frame["squares"])
        hand = any(q["hand"] for q in frame["squares"])
        if touch and k % TOUCH_EVERY == 0 or (hand and not touch and k % HAND_EVERY == 0):
            yield image, {
                "action": "touch" if touch else "hand",
                "t": frame["t"],
                "corners": frame["corners"],
                "white_side": frame["white_side"],
                "squares": frame["squares"],
            }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", required=True, help="the first seed of each range")
    parser.add_argument("--games", type=int, default=50, help="games in each range")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--referee", default=REFEREE)
    args = parser.parse_args()
    games = args.out / "games"
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    games.mkdir(exist_ok=True)
    lines = []
    for first in args.seeds:
        for seed in range(first, first + args.games):
            for image, label in frames_of(render(seed, args.referee, games)):
                name = f"images/{len(lines):06d}.jpg"
                cv2.imwrite(str(args.out / name), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
                lines.append(json.dumps({"file": name, **label}))
    (args.out / "labels.jsonl").write_text("\n".join(lines) + "\n")
    print(f"{args.out}: {len(lines)} frames of {len(args.seeds) * args.games} games")


if __name__ == "__main__":
    main()
