#!/usr/bin/env python3
"""Quantizes the square detector to 8-bit integers (models/detector.int8.onnx,
the model the referee runs) and compares it with the float model it comes
from (models/detector.onnx) on a held-out rendered set, figure by figure.

Run through `scripts/quantize_detector`, which makes the script's own Python
environment (onnxruntime, numpy, OpenCV; no torch) and renders the sets:

    scripts/quantize_detector                # quantize, then compare
    scripts/quantize_detector compare        # compare the committed pair

Static quantization (ONNX Runtime's `quantize_static`, QDQ format): weights
int8 per output channel, activations uint8 with ranges calibrated on
rendered boards of a seed neither training nor the held-out set uses. The
outputs stay float32 with the float model's names and shapes.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort
from onnxruntime.quantization import (
    CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static,
)
from onnxruntime.quantization.shape_inference import quant_pre_process

from detector_data import (
    HAND_THRESHOLD, OUTPUTS, PRESENT_THRESHOLD, TOUCH_THRESHOLD, load_set, occupant_read,
)


def nchw(images):
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2)).astype(np.float32)


class Boards(CalibrationDataReader):
    """The calibration set's rectified boards, one at a time (as the referee
    runs the model)."""

    def __init__(self, directory):
        self.images = load_set(directory)[0]
        self.next = 0

    def get_next(self):
        if self.next >= len(self.images):
            return None
        self.next += 1
        return {"board": nchw(self.images[self.next - 1:self.next])}


def quantize(model, calibration, out):
    work = Path(out).with_suffix(".pre.onnx")
    quant_pre_process(str(model), str(work))
    quantize_static(
        str(work), str(out), Boards(calibration),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        calibrate_method=CalibrationMethod.MinMax,
    )
    work.unlink()


def session(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def read(model, images):
    """Each board's outputs, one run a board (as a video frame is read)."""
    s = session(model)
    outputs = [s.run(OUTPUTS[:4], {"board": nchw(images[i:i + 1])}) for i in range(len(images))]
    return [np.concatenate([o[k] for o in outputs]) for k in range(4)]


def milliseconds(model, images, runs=200):
    """Median milliseconds of one run on one thread."""
    s = session(model)
    times = []
    for i in range(runs):
        x = nchw(images[i % len(images):i % len(images) + 1])
        start = time.perf_counter()
        s.run(None, {"board": x})
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times[10:]))


def figures(outputs, labels):
    """The model card's video-frame figures (`train_detector.py evaluate`
    with one run), for one model's outputs."""
    p, h, t, pres = outputs
    _, pieces, hand, touch, present = labels
    occupant = np.where(pieces == 0, 0, np.where(pieces <= 6, 1, 2))
    covered, touched = hand > 0.5, touch > 0.5
    clear = ~covered
    tip_frames = touched.any(-1)
    best = t.argmax(-1)
    seen = (t.max(-1) > TOUCH_THRESHOLD) & (pres >= PRESENT_THRESHOLD)
    tip_right = seen & touched[np.arange(len(best)), best]
    handless = present <= 0.5
    return {
        "occupant_error_uncovered_pct": 100 * float((occupant_read(p) != occupant)[clear].mean()),
        "piece_right_occupied_uncovered_pct": 100 * float(
            (p.argmax(-1) == pieces)[clear & (pieces > 0)].mean()),
        "hand_covered_found_pct": 100 * float((h > HAND_THRESHOLD)[covered].mean()),
        "hand_false_on_uncovered_pct": 100 * float((h > HAND_THRESHOLD)[clear].mean()),
        "fingertip_square_right_pct": 100 * float(tip_right[tip_frames].mean()),
        "fingertip_on_handless_frames_pct": 100 * float((seen & handless).mean() / max(handless.mean(), 1e-9)),
        "presence_right_pct": 100 * float(((pres > 0.5) == (present > 0.5)).mean()),
    }


def agreement(a, b):
    """How often the two models' readings agree, as the referee reads them."""
    pa, ha, ta, sa = a
    pb, hb, tb, sb = b
    tip = lambda t, s: np.where((t.max(-1) > TOUCH_THRESHOLD) & (s >= PRESENT_THRESHOLD), t.argmax(-1), -1)
    return {
        "occupant_same_pct": 100 * float((occupant_read(pa) == occupant_read(pb)).mean()),
        "hand_same_pct": 100 * float(((ha > HAND_THRESHOLD) == (hb > HAND_THRESHOLD)).mean()),
        "fingertip_same_pct": 100 * float((tip(ta, sa) == tip(tb, sb)).mean()),
        "presence_same_pct": 100 * float(((sa >= PRESENT_THRESHOLD) == (sb >= PRESENT_THRESHOLD)).mean()),
        "largest_probability_difference": float(max(np.abs(pa - pb).max(), np.abs(ha - hb).max(), np.abs(ta - tb).max())),
    }


def compare(model, quantized, heldout):
    labels = load_set(heldout)
    images = labels[0]
    float_out, int8_out = read(model, images), read(quantized, images)
    report = {
        "heldout": str(heldout),
        "frames": len(images),
        "float": figures(float_out, labels),
        "int8": figures(int8_out, labels),
        "agreement": agreement(float_out, int8_out),
        "ms_a_run_one_thread": {
            "float": milliseconds(model, images),
            "int8": milliseconds(quantized, images),
        },
    }
    print(json.dumps(report, indent=1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["quantize", "compare"])
    parser.add_argument("--model", default="models/detector.onnx")
    parser.add_argument("--out", default="models/detector.int8.onnx")
    parser.add_argument("--calibration", help="a `referee synth --dataset` folder")
    parser.add_argument("--heldout", required=True, help="a `referee synth --dataset` folder")
    args = parser.parse_args()
    if args.command == "quantize":
        if not args.calibration:
            sys.exit("quantize needs --calibration")
        quantize(args.model, args.calibration, args.out)
    compare(args.model, args.out, args.heldout)


if __name__ == "__main__":
    main()
