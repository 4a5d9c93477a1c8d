#!/usr/bin/env python3
"""Per-square occupant error of `referee detect` on labelled real stills,
without and with `--venue` (the detector adapted on another still of the
same set in a known position), as issue 24 asks it measured.

    python3 scripts/measure_stills.py --referee target/release/referee [--venue] [SET ...]

Sets (read from ../shared, never copied here):
  bgu    the 77 stills of ../shared/data/real/bgu_game2, the start still
         adapting for the 76 others (a test set)
  photos the three labelled start positions of one board in
         ../shared/data/real (chessBoard005-007), each adapting for the
         two others (a test set)
  crv    ../shared/data/real-train/chess-ray-vision, within each of its
         three sessions each photograph adapting for the others

A square is wrong when `detect` names an occupant other than the label's;
squares it leaves unknown (a hand over them, or unsure) are counted apart.
"""

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def occupants(placement):
    """Square name -> 'white' / 'black' for a FEN placement."""
    out = {}
    for i, row in enumerate(placement.split()[0].split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                out["abcdefgh"[file] + str(8 - i)] = "white" if ch.isupper() else "black"
                file += 1
    return out


def corners_arg(corners):
    return ",".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def bgu():
    d = SHARED / "real" / "bgu_game2"
    rows = list(csv.reader(open(d / "labels.csv")))[1:]
    stills = [
        (d / "frames" / f"frame_{int(r[0]):06d}.jpg", r[2], "0,0,480,0,480,480,0,480")
        for r in rows
    ]
    return [(stills[0], stills[1:])]


def each_for_the_others(stills):
    return [(s, [t for t in stills if t is not s]) for s in stills]


def photos():
    d = SHARED / "real"
    labels = json.load(open(d / "labels.json"))
    names = {"chessBoard005.jpg", "chessBoard006.jpg", "chessBoard007.jpg"}
    stills = [
        (d / l["file"], l["placement"], corners_arg(l["corners"]))
        for l in labels
        if l["file"] in names
    ]
    return each_for_the_others(stills)


def crv():
    d = SHARED / "real-train" / "chess-ray-vision"
    labels = json.load(open(d / "labels.json"))
    sessions = [["01", "02", "07", "10", "11"], ["03", "04", "13"], ["05", "06", "08", "09", "12"]]
    groups = []
    for session in sessions:
        stills = [
            (d / "frames" / l["file"], l["placement"], corners_arg(l["corners"]))
            for l in labels
            if l["file"][6:8] in session
        ]
        groups += each_for_the_others(stills)
    return groups


SETS = {"bgu": bgu, "photos": photos, "crv": crv}


def measure(referee, groups, venue):
    squares = wrong = unknown = 0
    for (start, start_fen, start_corners), targets in groups:
        for image, fen, corners in targets:
            args = [referee, "detect", str(image), "--json", "--corners", corners]
            if venue:
                args += ["--venue", str(start), "--venue-fen", start_fen, "--venue-corners", start_corners]
            run = subprocess.run(args, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{image}: {run.stderr.strip()}")
            truth = occupants(fen)
            for square in json.loads(run.stdout)["squares"]:
                squares += 1
                read = square["occupant"]
                if read == "unknown":
                    unknown += 1
                elif read != truth.get(square["square"], "empty"):
                    wrong += 1
    return squares, wrong, unknown


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--referee", default="target/release/referee")
    parser.add_argument("--venue", action="store_true", help="adapt on each group's venue still first")
    parser.add_argument("sets", nargs="*", default=list(SETS))
    args = parser.parse_args()
    for name in args.sets:
        squares, wrong, unknown = measure(args.referee, SETS[name](), args.venue)
        print(
            f"{name}{' --venue' if args.venue else ''}: {wrong} of {squares} squares wrong "
            f"({100 * wrong / squares:.2f}%), {unknown} unknown ({100 * unknown / squares:.1f}%)"
        )


if __name__ == "__main__":
    main()
