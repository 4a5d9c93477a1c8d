//! ONNX Runtime loads from the library `scripts/setup` extracted and runs the
//! small model of `tests/data/onnx` (made by `make_affine.py` there); the
//! outputs must equal `relu(x·W + b)` computed here.

use std::path::PathBuf;

use ort::value::Tensor;
use referee_vision::runtime;

/// The numbers `make_affine.py` writes into the model.
const W: [[f32; 3]; 4] = [
    [1.0, -2.0, 0.5],
    [0.0, 1.0, -1.0],
    [3.0, 0.25, 2.0],
    [-1.0, 0.0, 1.5],
];
const B: [f32; 3] = [0.5, -1.0, 0.0];

fn model_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/onnx/affine_relu.onnx")
}

fn expected(x: &[[f32; 4]]) -> Vec<f32> {
    x.iter()
        .flat_map(|row| {
            (0..3).map(move |j| {
                let pre: f32 = (0..4).map(|i| row[i] * W[i][j]).sum::<f32>() + B[j];
                pre.max(0.0)
            })
        })
        .collect()
}

#[test]
fn runs_the_committed_model_and_matches_its_arithmetic() {
    let x = [
        [1.0, 2.0, 3.0, 4.0],
        [-1.0, 0.5, 0.0, 2.0],
        [0.0, 0.0, 0.0, 0.0],
    ];
    let mut session = runtime::load_model(&model_path(), 1).expect("model loads");
    assert_eq!(session.inputs()[0].name(), "x");
    let input = Tensor::from_array(([x.len(), 4], x.concat())).expect("input tensor");
    let outputs = session.run(ort::inputs!["x" => input]).expect("model runs");
    let (shape, y) = outputs["y"]
        .try_extract_tensor::<f32>()
        .expect("f32 output");
    assert_eq!(shape.to_vec(), vec![3, 3]);
    let want = expected(&x);
    for (got, want) in y.iter().zip(&want) {
        assert!((got - want).abs() < 1e-5, "got {y:?}, want {want:?}");
    }
    // relu clipped something, so the check covers the whole graph.
    assert!(want.contains(&0.0) && want.iter().any(|&v| v > 0.0));
}

#[test]
fn a_missing_model_is_an_error_naming_the_file() {
    let err = runtime::load_model(&PathBuf::from("/nonexistent/model.onnx"), 1)
        .expect_err("no such file");
    assert!(err.to_string().contains("/nonexistent/model.onnx"), "{err}");
}
