#!/usr/bin/env python3
"""The shared real opening clip under other cameras and light: whether its
moves, its touches and its silence (no incident) survive what a club's own
camera would change. It is the only real footage here with real hands.

`../shared/data/real/opening_clip.avi` (read from ../shared, never copied
here) is written again with every frame changed one way, and each video is
replayed with no corners given (`referee replay VIDEO --json`: the board
found, the hands told real or rendered from how the models follow them).
The variants are `scripts/measure_real_game.py`'s nine (as_is, turned_90,
turned_180, turned_270, dim, warm, soft, grainy, jpeg_60), and:

  small         the frames at half size (320x240), a lower-resolution camera
  large         the frames at 1.5 times (960x720)
  framed        a picture not cropped to the board: 40 pixels of table
                round every frame
  framed_small  the board smaller in the picture: the frames at 3/4 size
                in a 640x480 picture of table

For each: whether the moves are the clip's (e4 e5 Qh5 Nc6), the incidents
raised (none happened), what the hands were told to be, the grips found
(each moved piece touched by its own side's hand before it is lifted: e2
White, e7 Black, d1 White, b8 Black) and the touches of other squares.

    scripts/measure_real_clip [--referee PATH] [--jobs 2] [--keep DIR] [--table B,G,R] [VARIANT ...]

`--table` colours the table of the framed variants (BGR, default
90,100,110).

Needs OpenCV and NumPy (`scripts/measure_real_clip` installs them in the
environment `scripts/measure_real_game` uses).
"""

import argparse
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2

from measure_real_game import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT.parent / "shared" / "data" / "real" / "opening_clip.avi"
MOVES = ["e2e4", "e7e5", "d1h5", "b8c6"]
GRIPS = [("e2", "white"), ("e7", "black"), ("d1", "white"), ("b8", "black")]
TABLE = (90, 100, 110)


def framed_small(image, k):
    h, w = image.shape[:2]
    small = cv2.resize(image, (w * 3 // 4, h * 3 // 4), interpolation=cv2.INTER_AREA)
    top, left = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    return cv2.copyMakeBorder(small, top, h - small.shape[0] - top, left,
                              w - small.shape[1] - left, cv2.BORDER_CONSTANT, value=TABLE)


EXTRA = {
    "small": lambda im, k: cv2.resize(im, (im.shape[1] // 2, im.shape[0] // 2),
                                      interpolation=cv2.INTER_AREA),
    "large": lambda im, k: cv2.resize(im, (im.shape[1] * 3 // 2, im.shape[0] * 3 // 2),
                                      interpolation=cv2.INTER_LINEAR),
    "framed": lambda im, k: cv2.copyMakeBorder(im, 40, 40, 40, 40, cv2.BORDER_CONSTANT,
                                               value=TABLE),
    "framed_small": framed_small,
}
ALL = {**VARIANTS, **EXTRA}


def write_video(name, out):
    clip = cv2.VideoCapture(str(CLIP))
    fps = clip.get(cv2.CAP_PROP_FPS)
    path = out / f"{name}.avi"
    writer, k = None, 0
    while True:
        ok, frame = clip.read()
        if not ok:
            break
        changed = ALL[name](frame, k)
        if writer is None:
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps,
                                     (changed.shape[1], changed.shape[0]))
        writer.write(changed)
        k += 1
    writer.release()
    return path


def grips_found(events):
    """The clip's grips found (touched by the right side before the lift)
    and the touches of any other square."""
    def at(kind, square):
        return next((i for i, e in enumerate(events)
                     if e.get("type") == kind and e.get("square") == square), None)
    found = 0
    for square, side in GRIPS:
        touch, lift = at("touch", square), at("lift", square)
        if touch is not None and lift is not None and touch < lift \
                and events[touch].get("side") == side:
            found += 1
    squares = {square for square, _ in GRIPS}
    others = [e["square"] for e in events if e.get("type") == "touch" and e.get("square") not in squares]
    return found, others


def measure(referee, name, out):
    video = write_video(name, out)
    run = subprocess.run([referee, "replay", str(video), "--json"], cwd=ROOT,
                         capture_output=True, text=True)
    if run.returncode != 0:
        return name, None, run.stderr.strip().splitlines()[-1:]
    verdict = json.loads(run.stdout)
    (out / f"{name}.json").write_text(run.stdout)
    return name, verdict, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--referee", default=str(ROOT / "target" / "release" / "referee"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="keep each variant's video and verdict here")
    parser.add_argument("--table", help="the framed variants' table colour, B,G,R")
    parser.add_argument("variants", nargs="*")
    args = parser.parse_args()
    if args.table:
        global TABLE
        TABLE = tuple(int(v) for v in args.table.split(","))
    if not CLIP.exists():
        sys.exit(f"the real opening clip is not at {CLIP}")
    names = args.variants or list(ALL)
    unknown = [n for n in names if n not in ALL]
    if unknown:
        sys.exit(f"no such variant: {', '.join(unknown)} (known: {', '.join(ALL)})")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(args.keep or scratch)
        out.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(lambda n: measure(args.referee, n, out), names))
    print(f"{CLIP.name}, corners found in each variant")
    total = whole = grips = others_total = 0
    for name, verdict, error in results:
        if verdict is None:
            print(f"{name:<13} failed: {' '.join(error)}")
            continue
        moves = [m["uci"] for m in verdict["moves"]]
        incidents = [i["kind"] for i in verdict["incidents"]]
        found, others = grips_found(verdict["events"])
        exact = moves == MOVES
        total += 1
        whole += exact and not incidents
        grips += found
        others_total += len(others)
        print(f"{name:<13} moves {'exact' if exact else ' '.join(moves) or 'none':<7} "
              f"incidents {incidents}  hands {verdict['stats'].get('hands')}  "
              f"grips {found}/{len(GRIPS)}  other touches {others}")
    print(f"{whole}/{total} variants with the clip's moves and no incident; "
          f"grips found {grips}/{total * len(GRIPS)}; other touches {others_total}")


if __name__ == "__main__":
    main()
