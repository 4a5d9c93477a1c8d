"""Builds docs/gallery/: rendered frames from several seeds and scenarios
next to the real photographs of ../shared/data/real, to judge by eye how
close the renders come to real boards.

    cargo build --release -p referee
    python3 -m venv /tmp/gallery-env && /tmp/gallery-env/bin/pip install opencv-python-headless==4.12.0.88
    /tmp/gallery-env/bin/python scripts/gallery.py
"""

import json
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "data" / "real"
OUT = ROOT / "docs" / "gallery"
REFEREE = ROOT / "target" / "release" / "referee"
TILE = (320, 240)


def tile(image):
    h, w = image.shape[:2]
    scale = min(TILE[0] / w, TILE[1] / h)
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    canvas = np.full((TILE[1], TILE[0], 3), 255, np.uint8)
    y, x = (TILE[1] - small.shape[0]) // 2, (TILE[0] - small.shape[1]) // 2
    canvas[y : y + small.shape[0], x : x + small.shape[1]] = small
    return canvas


def row(images):
    return np.hstack([tile(i) for i in images])


def video_frames(video, times, fps):
    capture = cv2.VideoCapture(str(video))
    frames, index, wanted = [], 0, {round(t * fps) for t in times}
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        if index in wanted:
            frames.append(frame)
        index += 1
    return frames


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run([REFEREE, "synth", "--dataset", "8", "--seed", "2026", "--out", tmp / "ds"], check=True)
        renders = [cv2.imread(str(p)) for p in sorted((tmp / "ds" / "images").glob("*.jpg"))]
        scenario = ROOT / "tests" / "data" / "scenarios" / "touch_move_nc6.scn"
        subprocess.run([REFEREE, "synth", scenario, "--out", tmp / "nc6"], check=True)
        truth = json.loads((tmp / "nc6" / "truth.json").read_text())
        touch_times = [e["t"] for e in truth["events"] if e["type"] in ("touch", "lift")]
        scenario_frames = video_frames(tmp / "nc6" / "video.avi", touch_times[:4], truth["fps"])
    real = [cv2.imread(str(REAL / f"chessBoard{n:03d}.jpg")) for n in (3, 5, 12, 13)]
    capture = cv2.VideoCapture(str(REAL / "opening_clip.avi"))
    clip = []
    for index in range(120):
        ok, frame = capture.read()
        if ok and index in (0, 40, 64, 100):
            clip.append(frame)
    sheets = {
        "renders.png": np.vstack([row(renders[:4]), row(renders[4:8])]),
        "scenario.png": row(scenario_frames),
        "real.png": np.vstack([row(real), row(clip)]),
    }
    for name, sheet in sheets.items():
        cv2.imwrite(str(OUT / name), sheet)
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
