#!/usr/bin/env python3
"""The shared real game under other cameras and light: how much of its
record survives what a club's own camera would change.

`../shared/data/real/bgu_game2` (77 stills of a real game on a wooden set,
read from ../shared, never copied here) is shown as a video, each still held
`--hold` seconds at 10 frames a second, as `crates/cli/tests/real_game.rs`
shows it, and the same video again with every still changed one way:

  as_is       the stills as they are (encoded to Motion-JPEG by this
              script's OpenCV, not the test's: the pictures differ only by
              the encoder's rounding)
  turned_90   the camera on another side of the board: White on the left,
  turned_180  at the top, on the right (the corners are the picture's)
  turned_270
  dim         40% less light
  warm        a warm lamp (blue down, red up by a fifth)
  soft        slightly out of focus (Gaussian blur, sigma 1.5 px)
  grainy      sensor noise (Gaussian, sigma 4 grey levels)
  jpeg_60     a cheaper camera's compression (each still JPEG at quality 60)

and, named on the command line only (not among the default nine):

  small       the stills at 320 pixels a side, a lower-resolution camera
  large       the stills at 720 pixels a side
  framed      a picture not cropped to the board: a 30-pixel border of
              table grey around every still (the corners given are the
              board's, inside it)

For each, `referee replay VIDEO --corners … --json` is run and the record
compared with `game.pgn`: plies exact before the first difference, moves
right at their ply, moves read, moves marked recovered, the incidents
raised (none happened in the game), and whether the record is silently
wrong: a move neither right at its ply nor marked recovered, moves missing
with no `record_gap` raised, or an incident other than a `record_gap`.

    scripts/measure_real_game [--hold 1.5] [--found | --inset PX] [--jobs 2] [--keep DIR] [VARIANT ...]

`--found` gives no corners: the referee finds the board in each video.
`--inset PX` gives corners PX pixels inside the board's on every side (a
user's corners a little off).

Needs OpenCV and NumPy (`scripts/measure_real_game` installs them in its own
environment).
"""

import argparse
import csv
import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from measure_replay import said_where

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT.parent / "shared" / "data" / "real" / "bgu_game2"
FPS = 10


def noise(image, sigma, seed):
    rng = np.random.default_rng(seed)
    grainy = image.astype(np.float64) + rng.normal(0, sigma, image.shape)
    return np.clip(grainy, 0, 255).astype(np.uint8)


def recompressed(image, quality):
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


VARIANTS = {
    "as_is": lambda im, k: im,
    "turned_90": lambda im, k: cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE),
    "turned_180": lambda im, k: cv2.rotate(im, cv2.ROTATE_180),
    "turned_270": lambda im, k: cv2.rotate(im, cv2.ROTATE_90_COUNTERCLOCKWISE),
    "dim": lambda im, k: np.clip(im * 0.6, 0, 255).astype(np.uint8),
    "warm": lambda im, k: np.clip(im * np.array([0.8, 1.0, 1.2]), 0, 255).astype(np.uint8),
    "soft": lambda im, k: cv2.GaussianBlur(im, (0, 0), 1.5),
    "grainy": lambda im, k: noise(im, 4.0, k),
    "jpeg_60": lambda im, k: recompressed(im, 60),
}
FRAME = 30
EXTRA = {
    "small": lambda im, k: cv2.resize(im, (320, 320), interpolation=cv2.INTER_AREA),
    "large": lambda im, k: cv2.resize(im, (720, 720), interpolation=cv2.INTER_AREA),
    "framed": lambda im, k: cv2.copyMakeBorder(im, FRAME, FRAME, FRAME, FRAME,
                                               cv2.BORDER_CONSTANT, value=(90, 100, 110)),
}
# Pixels between the picture's edge and the board's, by variant.
MARGIN = {"framed": FRAME}


def stills():
    rows = list(csv.reader(open(GAME / "labels.csv")))[1:]
    return [GAME / "frames" / f"frame_{int(r[0]):06d}.jpg" for r in rows]


def game_sans():
    text = (GAME / "game.pgn").read_text()
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"\{[^}]*\}", " ", text)
    tokens = [re.sub(r"^\d+\.+", "", t) for t in text.split()]
    return [t for t in tokens if t and t not in ("1-0", "0-1", "1/2-1/2", "*")]


def write_video(name, change, hold, out):
    path = out / f"{name}.avi"
    writer = None
    frames = round(hold * FPS)
    for k, still in enumerate(stills()):
        image = change(cv2.imread(str(still)), k)
        if writer is None:
            height, width = image.shape[:2]
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (width, height))
        for _ in range(frames):
            writer.write(image)
    writer.release()
    return path, (width, height)


def replay(referee, video, size, found=False, margin=0):
    width, height = size
    left, top, right, bottom = margin, margin, width - margin, height - margin
    corners = [] if found else ["--corners", f"{left},{top},{right},{top},{right},{bottom},{left},{bottom}"]
    run = subprocess.run([referee, "replay", str(video), *corners, "--json"],
                         cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{video}: {run.stderr.strip()}")
    return json.loads(run.stdout)


def compare(verdict, truth):
    moves = verdict["moves"]
    sans = [m["san"] for m in moves]
    exact = 0
    for got, want in zip(sans, truth):
        if got != want:
            break
        exact += 1
    right = sum(got == want for got, want in zip(sans, truth))
    marked = sum(bool(m.get("recovered")) for m in moves)
    incidents = [i["kind"] for i in verdict["incidents"]]
    silent = not said_where(verdict, truth) or any(k != "record_gap" for k in incidents)
    return exact, right, len(sans), marked, incidents, silent


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--referee", default=str(ROOT / "target" / "release" / "referee"))
    parser.add_argument("--hold", type=float, default=1.5, help="seconds each still is shown")
    parser.add_argument("--jobs", type=int, default=2, help="replays run at once")
    parser.add_argument("--keep", type=Path, help="keep each variant's video and verdict here")
    parser.add_argument("--found", action="store_true",
                        help="give no corners: the referee finds the board in each video")
    parser.add_argument("--inset", type=int, default=0,
                        help="give corners this many pixels inside the board's")
    parser.add_argument("variants", nargs="*", default=list(VARIANTS))
    args = parser.parse_args()
    if args.found and args.inset:
        sys.exit("--found gives no corners, --inset moves the corners given: choose one")
    changes = {**VARIANTS, **EXTRA}
    unknown = [v for v in args.variants if v not in changes]
    if unknown:
        sys.exit(f"unknown variants {unknown}: choose among {list(changes)}")
    truth = game_sans()
    with tempfile.TemporaryDirectory(prefix="referee-real-game-") as scratch:
        out = args.keep or Path(scratch)
        out.mkdir(parents=True, exist_ok=True)
        videos = {name: write_video(name, changes[name], args.hold, out) for name in args.variants}

        def replay_one(name):
            margin = MARGIN.get(name, 0) + args.inset
            return replay(args.referee, *videos[name], found=args.found, margin=margin)

        with ThreadPoolExecutor(args.jobs) as pool:
            verdicts = dict(zip(videos, pool.map(replay_one, videos)))
        for name, verdict in verdicts.items():
            suffix = "_found" if args.found else f"_inset{args.inset}" if args.inset else ""
            (out / f"{name}{suffix}.json").write_text(json.dumps(verdict, indent=1))
    whole = silent_records = 0
    corners = ("found by the referee" if args.found
               else f"given {args.inset} px inside the board's" if args.inset else "given")
    print(f"bgu_game2, {len(truth)} plies, each still held {args.hold} s at {FPS} fps, corners {corners}")
    for name, verdict in verdicts.items():
        exact, right, read, marked, incidents, silent = compare(verdict, truth)
        whole += exact == len(truth) == read and not incidents
        silent_records += silent
        print(f"{name:<11} {exact:>3}/{len(truth)} exact before the first difference, "
              f"{right:>3} right at their ply, {read:>3} read, {marked:>3} marked recovered, "
              f"incidents {incidents}{', silently wrong' if silent else ''}")
    print(f"{whole}/{len(verdicts)} variants read whole and exact, with no incident; "
          f"{silent_records} silently wrong")


if __name__ == "__main__":
    main()
