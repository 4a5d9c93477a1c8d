"""The detector's data, shared by its training (`train_detector.py`) and its
quantization (`quantize_detector.py`), with no torch: the rectification the
referee reads the board by, the cells squares fall on, the rendered sets
`referee synth --dataset` writes, and the occupant as the referee reads it.
"""

import json
from pathlib import Path

import cv2
import numpy as np

SQUARE_PX = 24
MARGIN_PX = 24
SIDE_PX = 8 * SQUARE_PX + 2 * MARGIN_PX
CLASSES = ".PNBRQKpnbrqk"
STRIDE = 8
OUTPUTS = ["pieces", "hand", "touch", "hand_present", "features"]

# Thresholds the Rust post-processing uses too (crates/vision/src/detector.rs).
HAND_THRESHOLD = 0.2
TOUCH_THRESHOLD = 0.2
PRESENT_THRESHOLD = 0.5  # no fingertip is read without a hand in view
# Other hand thresholds the evaluation reports, for the trade-off.
HAND_SWEEP = (0.5, 0.3, 0.2, 0.15)


def cell(white_side, file, rank):
    """The rectified cell (row-major) of a square; as `Orientation::cell`."""
    row, col = {
        "bottom": (7 - rank, file),
        "top": (rank, 7 - file),
        "left": (file, rank),
        "right": (7 - file, 7 - rank),
    }[white_side]
    return row * 8 + col


def rectify(image, corners):
    m, s = MARGIN_PX, 8 * SQUARE_PX
    target = np.float32([[m, m], [m + s, m], [m + s, m + s], [m, m + s]])
    h = cv2.getPerspectiveTransform(np.float32(corners), target)
    return cv2.warpPerspective(
        image, h, (SIDE_PX, SIDE_PX), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT, borderValue=0,
    )


def load_set(directory, jitter=0.0, rng=None):
    """Rectified images [N,240,240,3] uint8 and labels by cell."""
    directory = Path(directory)
    lines = (directory / "labels.jsonl").read_text().splitlines()
    n = len(lines)
    images = np.zeros((n, SIDE_PX, SIDE_PX, 3), np.uint8)
    pieces = np.zeros((n, 64), np.int64)
    hand = np.zeros((n, 64), np.float32)
    touch = np.zeros((n, 64), np.float32)
    present = np.zeros(n, np.float32)
    for i, line in enumerate(lines):
        label = json.loads(line)
        image = cv2.imread(str(directory / label["file"]))
        if image is None:
            raise SystemExit(f"{directory / label['file']}: cannot be read")
        corners = np.float32(label["corners"])
        if jitter and rng is not None:
            side = np.linalg.norm(corners[1] - corners[0])
            corners = corners + rng.normal(0, jitter * side, corners.shape).astype(np.float32)
        images[i] = rectify(image, corners)
        for sq in label["squares"]:
            name = sq["square"]
            c = cell(label["white_side"], ord(name[0]) - 97, int(name[1]) - 1)
            pieces[i, c] = CLASSES.index(sq["piece"]) if sq["piece"] else 0
            hand[i, c] = sq["hand"]
            touch[i, c] = sq["touch"]
        present[i] = float(label["action"] != "none" or hand[i].any() or touch[i].any())
    return images, pieces, hand, touch, present


def occupant_read(probabilities):
    """The occupant the referee reads (`CellReading::occupant`): the likeliest
    of empty, White (the sum of its six pieces) and Black, by cell."""
    sides = np.stack([probabilities[..., 0], probabilities[..., 1:7].sum(-1),
                      probabilities[..., 7:].sum(-1)], -1)
    return sides.argmax(-1)
