"""Writes affine_relu.onnx, the small model the ONNX Runtime smoke test runs.

    y = relu(x @ W + b),  x: float32[N, 4], W: float32[4, 3], b: float32[3]

W and b are the fixed numbers below; the Rust test computes the same
expression itself and compares. Regenerate with:

    python3 -m venv /tmp/onnx-env && /tmp/onnx-env/bin/pip install onnx==1.19.0
    /tmp/onnx-env/bin/python tests/data/onnx/make_affine.py
"""

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

W = np.array(
    [[1.0, -2.0, 0.5], [0.0, 1.0, -1.0], [3.0, 0.25, 2.0], [-1.0, 0.0, 1.5]],
    dtype=np.float32,
)
B = np.array([0.5, -1.0, 0.0], dtype=np.float32)


def build() -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes=[
            helper.make_node("MatMul", ["x", "W"], ["xw"]),
            helper.make_node("Add", ["xw", "b"], ["pre"]),
            helper.make_node("Relu", ["pre"], ["y"]),
        ],
        name="affine_relu",
        inputs=[helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        outputs=[helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        initializer=[numpy_helper.from_array(W, "W"), numpy_helper.from_array(B, "b")],
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="referee"
    )
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


if __name__ == "__main__":
    out = Path(__file__).with_name("affine_relu.onnx")
    onnx.save(build(), out)
    print(f"wrote {out}")
