"""Converts MediaPipe's hand models from PyPI's `mediapipe` wheel to ONNX and
checks that the converted models agree with the `.tflite` originals.

Run by `scripts/hand_models` inside its own environment (tensorflow-cpu,
tf2onnx, onnxruntime; pinned there). Usage:

    python hand_models.py WHEEL OUT_DIR

Writes OUT_DIR/palm_detection_full.onnx and OUT_DIR/hand_landmark_full.onnx,
and prints, for each model, the largest difference between the two runtimes
over random inputs in [0, 1] (the models' input range). Exits non-zero when a
difference exceeds TOLERANCE.
"""

import pathlib
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

MODELS = {
    "palm_detection_full": "mediapipe/modules/palm_detection/palm_detection_full.tflite",
    "hand_landmark_full": "mediapipe/modules/hand_landmark/hand_landmark_full.tflite",
}
OPSET = 13
TRIALS = 8
# Largest absolute difference allowed, relative to the output's own range.
TOLERANCE = 1e-3


def extract(wheel: pathlib.Path, member: str, into: pathlib.Path) -> pathlib.Path:
    with zipfile.ZipFile(wheel) as z:
        target = into / pathlib.Path(member).name
        target.write_bytes(z.read(member))
    return target


def convert(tflite: pathlib.Path, onnx_path: pathlib.Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "tf2onnx.convert", "--tflite", str(tflite),
         "--output", str(onnx_path), "--opset", str(OPSET)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )


def largest_difference(tflite: pathlib.Path, onnx_path: pathlib.Path) -> tuple[float, float]:
    """The largest difference over all outputs and trials: absolute, and
    relative to each output's range."""
    import onnxruntime as ort
    import tensorflow as tf

    interpreter = tf.lite.Interpreter(model_path=str(tflite))
    interpreter.allocate_tensors()
    (tin,) = interpreter.get_input_details()
    touts = sorted(interpreter.get_output_details(), key=lambda d: d["name"])
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    rng = np.random.default_rng(0)
    worst, worst_abs = 0.0, 0.0
    for _ in range(TRIALS):
        x = rng.random(tuple(tin["shape"]), dtype=np.float32)
        interpreter.set_tensor(tin["index"], x)
        interpreter.invoke()
        expected = {d["name"]: interpreter.get_tensor(d["index"]) for d in touts}
        got = dict(zip(names, session.run(None, {session.get_inputs()[0].name: x})))
        for name, want in expected.items():
            have = got[name]
            scale = max(float(np.ptp(want)), 1e-6) if want.size > 1 else max(abs(float(want.ravel()[0])), 1.0)
            diff = float(np.max(np.abs(have - want)))
            worst, worst_abs = max(worst, diff / scale), max(worst_abs, diff)
    return worst, worst_abs


def main() -> int:
    wheel, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name, member in MODELS.items():
            tflite = extract(wheel, member, pathlib.Path(tmp))
            onnx_path = out / f"{name}.onnx"
            convert(tflite, onnx_path)
            worst, worst_abs = largest_difference(tflite, onnx_path)
            verdict = "ok" if worst <= TOLERANCE else "TOO FAR"
            print(f"hand models: {name}: ONNX vs tflite over {TRIALS} random inputs, "
                  f"largest difference {worst_abs:.2e} ({worst:.2e} of the output's range, {verdict})")
            failed |= worst > TOLERANCE
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
