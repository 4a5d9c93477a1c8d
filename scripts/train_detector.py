#!/usr/bin/env python3
"""Trains the square detector on `referee synth --dataset` frames, exports it
to ONNX (models/detector.onnx) and measures it on a held-out rendered set.

Run through `scripts/train_detector`, which makes the script's own Python
environment (torch from PyPI; never installed by CI). The model's contract
is in models/README.md; the Rust side is crates/vision/src/detector.rs.

    scripts/train_detector train --data DIR... --heldout DIR --out models/detector.onnx
    scripts/train_detector context --data DIR... --init-onnx STAGE2.onnx --out models/detector.onnx [--presence]
    scripts/train_detector evaluate --heldout DIR --model models/detector.onnx [--turns 4]
    python3 scripts/train_detector.py touches --games DIR [--model M]   (a measure_touches.py --keep DIR)

The input is the board rectified exactly as the referee does it
(`Rectifier { square_px: 24, margin_squares: 1.0 }`: corners to a 240x240
top-down image, playing area from 24 to 216), BGR values 0..255, NCHW float.
Outputs are by rectified cell, row-major, row 0 at the image's top:
`pieces` [N,64,13] probabilities (empty, PNBRQK, pnbrqk), `hand` [N,64]
and `touch` [N,64] probabilities, `hand_present` [N] probability, `features`
[N,64,96] each square's features (for the per-game adaptation).
"""

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from detector_data import (  # noqa: F401 (the shared names, used below)
    CLASSES, HAND_SWEEP, HAND_THRESHOLD, MARGIN_PX, OUTPUTS, PRESENT_THRESHOLD,
    SIDE_PX, SQUARE_PX, STRIDE, TOUCH_THRESHOLD, cell, load_set, occupant_read,
    rectify,
)


def conv(cin, cout, stride=1, dilation=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class HandContext(nn.Module):
    """Hand and touch logits from each cell's neighbourhood, about a square
    around it (a finger seen over the head of a piece that leans towards the
    picture's top touches the square below): added to the plain heads'
    logits, and nothing at the start (its last layer is zero)."""

    def __init__(self, channels=96, width=48):
        super().__init__()
        self.near = nn.Conv2d(channels, width, 3, padding=1)
        self.around = nn.Conv2d(width, 2, 3, padding=2, dilation=2)
        nn.init.zeros_(self.around.weight)
        nn.init.zeros_(self.around.bias)

    def forward(self, x):
        return self.around(F.relu(self.near(x)))


class BoardContext(nn.Module):
    """Pieces' logits from each cell and the whole board: a few summaries of
    the board's cells, each pooled where the net learns to look (the one set,
    the other, the empty squares), broadcast to every cell, so that a piece
    is read against the other pieces of its picture (a set is told by being
    the lighter, not by how light it is). Added to the plain heads' logits,
    and nothing at the start (its last layer is zero)."""

    def __init__(self, channels=96, pools=4, width=64):
        super().__init__()
        self.attend = nn.Conv2d(channels, pools, 1)
        self.summary = nn.Linear(pools * channels, width)
        self.mix = nn.Conv2d(channels + width, width, 1)
        self.out = nn.Conv2d(width, len(CLASSES), 1)
        nn.init.zeros_(self.out.weight)
        nn.init.zeros_(self.out.bias)

    def forward(self, x):
        m, side = MARGIN_PX // STRIDE, 8 * SQUARE_PX // STRIDE
        board = x[:, :, m:m + side, m:m + side]
        weights = torch.softmax(self.attend(board).flatten(2), dim=-1)  # [N, P, K]
        pooled = torch.bmm(weights, board.flatten(2).transpose(1, 2)).flatten(1)  # [N, P*C]
        whole = F.relu(self.summary(pooled))[:, :, None, None]
        whole = whole.expand(-1, -1, x.shape[2], x.shape[3])
        return self.out(F.relu(self.mix(torch.cat([x, whole], 1))))


class Detector(nn.Module):
    """A small fully convolutional net: the board at stride 8 (3x3 cells a
    square, one square of margin), then per-square heads; with `context`,
    hand and touch also read from each cell's neighbourhood; with
    `board_context`, the pieces also from the whole board."""

    def __init__(self, context=False, board_context=False):
        super().__init__()
        self.features = nn.Sequential(
            conv(3, 24, 2),
            conv(24, 32, 2),
            conv(32, 48, 2),
            conv(48, 48),
            conv(48, 64, dilation=2),
            conv(64, 96, dilation=3),
        )
        self.heads = nn.Conv2d(96, len(CLASSES) + 2, 1)
        self.presence = nn.Linear(96, 1)
        self.context = HandContext() if context else None
        self.board_context = BoardContext() if board_context else None
        self.register_buffer("scale", torch.tensor(1.0 / 255.0))

    def logits(self, board, with_features=False):
        x = self.features(board * self.scale - 0.5)
        per_square = by_square(self.per_cell(x))  # [N, 64, C]
        presence = self.presence_logit(x)
        if with_features:
            # Each square's features (for the per-game colour model on them).
            return per_square, presence, by_square(x)
        return per_square, presence

    def presence_logit(self, x):
        """The hand-presence logit from the backbone's map `x`."""
        return self.presence(torch.amax(x, dim=(2, 3))).squeeze(1)

    def per_cell(self, x):
        """The heads' logits on the backbone's map `x`: pieces, hand, touch."""
        per_cell = self.heads(x)
        if self.context is not None:
            per_cell = per_cell + F.pad(self.context(x), (0, 0, 0, 0, len(CLASSES), 0))
        if self.board_context is not None:
            per_cell = per_cell + F.pad(self.board_context(x), (0, 0, 0, 0, 0, 2))
        return per_cell

    def forward(self, board):
        per_square, presence, features = self.logits(board, with_features=True)
        pieces = torch.softmax(per_square[..., : len(CLASSES)], dim=-1)
        hand = torch.sigmoid(per_square[..., len(CLASSES)])
        touch = torch.sigmoid(per_square[..., len(CLASSES) + 1])
        return pieces, hand, touch, torch.sigmoid(presence), features


def by_square(per_cell):
    """A map at stride 8 averaged over each square's 3x3 cells: [N, 64, C]."""
    m = MARGIN_PX // STRIDE
    k = SQUARE_PX // STRIDE
    return F.avg_pool2d(per_cell[:, :, m:m + 8 * k, m:m + 8 * k], k).flatten(2).transpose(1, 2)


def augment(batch, pieces, hand, touch, rng, turns=True):
    """Colour, light, blur and margin losses; board turned and mirrored (the
    labels by cell turn with it). Without `turns`, only mirrored left to
    right: the picture's top stays its top, where a tilted camera makes
    the pieces lean."""
    out = batch.copy()
    n = len(out)
    grid = lambda a: a.reshape(n, 8, 8)
    p, h, t = grid(pieces.copy()), grid(hand.copy()), grid(touch.copy())
    for i in range(n):
        img = out[i].astype(np.float32)
        gain = rng.uniform(0.85, 1.15, 3) * rng.uniform(0.7, 1.3)
        img = img * gain + rng.uniform(-20, 20)
        if rng.random() < 0.3:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.5))
        img += rng.normal(0, rng.uniform(0, 6), img.shape)
        if rng.random() < 0.2:  # the board reaches the picture's edge
            side = rng.integers(4)
            depth = int(rng.integers(4, MARGIN_PX + 1))
            if side == 0:
                img[:depth] = 0
            elif side == 1:
                img[-depth:] = 0
            elif side == 2:
                img[:, :depth] = 0
            else:
                img[:, -depth:] = 0
        k = int(rng.integers(4)) if turns else 0
        img = np.rot90(img, k)
        p[i], h[i], t[i] = np.rot90(p[i], k), np.rot90(h[i], k), np.rot90(t[i], k)
        if rng.random() < 0.5:
            img = img[:, ::-1]
            p[i], h[i], t[i] = p[i][:, ::-1], h[i][:, ::-1], t[i][:, ::-1]
        out[i] = np.clip(img, 0, 255).astype(np.uint8)
    flat = lambda a: np.ascontiguousarray(a.reshape(n, 64))
    return out, flat(p), flat(h), flat(t)


def to_tensor(images):
    return torch.from_numpy(np.ascontiguousarray(images.transpose(0, 3, 1, 2))).float()


def train(args):
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    random.seed(args.seed)
    parts = [load_set(d, jitter=args.corner_jitter, rng=rng) for d in args.data]
    images, pieces, hand, touch, present = (np.concatenate(a) for a in zip(*parts))
    print(f"training frames: {len(images)} from {', '.join(args.data)}", flush=True)
    model = Detector(board_context=args.board_context)
    if args.init:
        model.load_state_dict(torch.load(args.init))
        print(f"starting from {args.init}", flush=True)
    frozen_norm = bool(args.init_onnx)
    if frozen_norm:
        load_onnx_weights(model, args.init_onnx)
        print(f"starting from {args.init_onnx} (its batch norms folded: kept fixed); "
              f"largest difference from ONNX Runtime: {onnx_difference(model, args.init_onnx):.2e}",
              flush=True)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (len(images) // args.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.lr, total_steps=steps)
    step = 0
    for epoch in range(args.epochs):
        model.train()
        if frozen_norm:
            for module in model.modules():
                if isinstance(module, nn.BatchNorm2d):
                    module.eval()
        order = rng.permutation(len(images))
        started, total = time.time(), 0.0
        for b in range(len(images) // args.batch):
            idx = order[b * args.batch:(b + 1) * args.batch]
            x, p, h, t = augment(images[idx], pieces[idx], hand[idx], touch[idx], rng, not args.no_turns)
            per_square, presence = model.logits(to_tensor(x))
            c = len(CLASSES)
            loss = (
                F.cross_entropy(per_square[..., :c].reshape(-1, c), torch.from_numpy(p).reshape(-1))
                + F.binary_cross_entropy_with_logits(
                    per_square[..., c], torch.from_numpy(h), pos_weight=torch.tensor(args.hand_weight))
                + F.binary_cross_entropy_with_logits(
                    per_square[..., c + 1], torch.from_numpy(t), pos_weight=torch.tensor(8.0))
                + 0.5 * F.binary_cross_entropy_with_logits(presence, torch.from_numpy(present[idx]))
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            step += 1
            total += loss.item()
        print(f"epoch {epoch + 1}/{args.epochs}: loss {total / max(1, b + 1):.4f}, "
              f"{time.time() - started:.0f} s", flush=True)
    model.eval()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), Path(args.out).with_suffix(".pt"))
    export(model, args.out)
    if args.heldout:
        report = evaluate_model(args.out, args.heldout)
        print(json.dumps(report, indent=1))


def train_context(args):
    """Trains `HandContext` on an exported model kept as it is: the backbone's
    map of each training frame is computed once (no augmentation: frames are
    read as the camera shows them, the picture's top at the top), then only
    the context layers learn (with `--presence`, the hand-presence head on
    the map's maximum too). Pieces and features stay the exported model's
    own, and presence without `--presence`."""
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    parts = [load_set(d, jitter=args.corner_jitter, rng=rng) for d in args.data]
    images, _, hand, touch, present = (np.concatenate(a) for a in zip(*parts))
    model = Detector(context=True)
    load_onnx_weights(model, args.init_onnx)
    model.eval()
    started = time.time()
    with torch.no_grad():
        maps = np.concatenate([
            model.features(to_tensor(images[s:s + 64]) * model.scale - 0.5).half().numpy()
            for s in range(0, len(images), 64)
        ])
    del images
    print(f"backbone maps of {len(maps)} frames from {', '.join(args.data)}: "
          f"{maps.nbytes / 1e9:.1f} GB, {time.time() - started:.0f} s", flush=True)
    for parameter in model.parameters():
        parameter.requires_grad = False
    trained = list(model.context.parameters())
    if args.presence:
        trained += list(model.presence.parameters())
    for parameter in trained:
        parameter.requires_grad = True
    optimiser = torch.optim.AdamW(trained, lr=args.lr, weight_decay=1e-4)
    batches = len(maps) // args.batch
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.lr, total_steps=args.epochs * batches)
    c = len(CLASSES)
    for epoch in range(args.epochs):
        order = rng.permutation(len(maps))
        started, total = time.time(), 0.0
        for b in range(batches):
            idx = np.sort(order[b * args.batch:(b + 1) * args.batch])
            batch_maps = torch.from_numpy(maps[idx]).float()
            per_square = by_square(model.per_cell(batch_maps))
            loss = F.binary_cross_entropy_with_logits(
                per_square[..., c], torch.from_numpy(hand[idx]), pos_weight=torch.tensor(args.hand_weight)
            ) + F.binary_cross_entropy_with_logits(
                per_square[..., c + 1], torch.from_numpy(touch[idx]), pos_weight=torch.tensor(8.0)
            )
            if args.presence:
                presence = model.presence_logit(batch_maps)
                loss = loss + 0.5 * F.binary_cross_entropy_with_logits(presence, torch.from_numpy(present[idx]))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        print(f"epoch {epoch + 1}/{args.epochs}: loss {total / max(1, batches):.4f}, "
              f"{time.time() - started:.0f} s", flush=True)
    export(model, args.out)
    print(f"largest differences from {args.init_onnx}: {output_differences(args.out, args.init_onnx)}")
    if args.heldout:
        print(json.dumps(evaluate_model(args.out, args.heldout), indent=1))


def output_differences(model_path, other_path):
    """The largest difference of each output between two exported models,
    run by ONNX Runtime on four random boards (stage 3 must leave every
    output but hand and touch as stage 2 gave it)."""
    import onnxruntime as ort

    x = np.random.default_rng(0).integers(0, 256, (4, 3, SIDE_PX, SIDE_PX)).astype(np.float32)
    run = lambda path: ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(OUTPUTS, {"board": x})
    return {name: float(np.abs(a - b).max()) for name, a, b in zip(OUTPUTS, run(model_path), run(other_path))}


def load_onnx_weights(model, path):
    """Loads an exported detector's weights into `model`. The export folded
    each batch norm into its convolution, so the convolutions take the
    folded weights and the batch norms become the identity plus the folded
    bias (to be kept in eval mode while training on)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    folded = [w for name, w in weights.items() if name.startswith("onnx::Conv_")]
    layers = [block for block in model.features]
    if len(folded) != 2 * len(layers):
        raise SystemExit(f"{path}: {len(folded)} folded tensors, expected {2 * len(layers)}")
    with torch.no_grad():
        for block, weight, bias in zip(layers, folded[0::2], folded[1::2]):
            conv, norm = block[0], block[1]
            conv.weight.copy_(weight)
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        for name in ["heads.weight", "heads.bias", "presence.weight", "presence.bias"]:
            module, attribute = name.split(".")
            getattr(getattr(model, module), attribute).copy_(weights[name])


def onnx_difference(model, path):
    """The largest difference between `model` and the ONNX file it was
    loaded from, on two random boards; fails above 1e-4 (a wrong load)."""
    import onnxruntime as ort

    x = np.random.default_rng(0).integers(0, 256, (2, 3, SIDE_PX, SIDE_PX)).astype(np.float32)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    model.eval()
    with torch.no_grad():
        ours = model(torch.from_numpy(x))
    worst = max(float(np.abs(a - b.numpy()).max()) for a, b in zip(session.run(OUTPUTS, {"board": x}), ours))
    if worst > 1e-4:
        raise SystemExit(f"{path}: the loaded weights differ from the file by {worst}")
    return worst


def export(model, out):
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, SIDE_PX, SIDE_PX)
    torch.onnx.export(
        model, dummy, str(out),
        input_names=["board"],
        output_names=OUTPUTS,
        dynamic_axes={n: {0: "n"} for n in ["board", *OUTPUTS]},
        opset_version=17,
        dynamo=False,
    )
    print(f"exported {out} ({out.stat().st_size / 1e6:.2f} MB)")


def read_turned(session, images, turns):
    """The model's outputs for a batch of rectified boards [N,240,240,3], each
    board read turned 0..turns-1 quarters and the occupants taken back to
    their cells and averaged, hands and fingertips read unturned, as
    `Detector::detect_turned` reads a still (turns 1: one run, as a video
    frame is read)."""
    n = len(images)
    pieces = unturned = None
    for k in range(turns):
        turned = np.ascontiguousarray(np.rot90(images, k, axes=(1, 2)))
        p, h, t, pres = session.run(OUTPUTS[:4], {"board": to_tensor(turned).numpy()})
        back = np.rot90(p.reshape(n, 8, 8, -1), -k, axes=(1, 2)).reshape(p.shape)
        pieces = back if pieces is None else pieces + back
        if k == 0:
            unturned = [h, t, pres]
    return [pieces / turns, *unturned]


def set_tone(board, cells):
    """How light a set looks in a rectified board: the median of the central
    10x10 pixels of its pieces' cells, averaged over B, G and R (0..255)."""
    inset = (SQUARE_PX - 10) // 2
    pixels = [
        board[MARGIN_PX + r * SQUARE_PX + inset:MARGIN_PX + (r + 1) * SQUARE_PX - inset,
              MARGIN_PX + c * SQUARE_PX + inset:MARGIN_PX + (c + 1) * SQUARE_PX - inset].reshape(-1, 3)
        for r, c in (divmod(int(i), 8) for i in cells)
    ]
    return float(np.median(np.concatenate(pixels), 0).mean())


def set_tones(heldout, real):
    """The tones of White's and Black's sets: on each rendered held-out frame
    (pieces no hand covers; percentiles over frames) and on each real
    photograph of the start position (read, never trained on)."""
    images, pieces, hand, _, _ = load_set(heldout)
    rendered = {"white": [], "black": []}
    for board, frame, covered in zip(images, pieces, hand > 0.5):
        for side, classes in (("white", range(1, 7)), ("black", range(7, 13))):
            cells = np.nonzero(np.isin(frame, list(classes)) & ~covered)[0]
            if len(cells):
                rendered[side].append(set_tone(board, cells))
    photographs = {}
    for label in json.loads((Path(real) / "labels.json").read_text()):
        if not label["file"].endswith(".jpg") or label["white_side"] is None:
            continue
        board = rectify(cv2.imread(str(Path(real) / label["file"])), label["corners"])
        on = lambda ranks: [cell(label["white_side"], f, r) for f in range(8) for r in ranks]
        photographs[label["file"]] = {"white": round(set_tone(board, on((0, 1)))),
                                      "black": round(set_tone(board, on((6, 7))))}
    percentiles = (1, 5, 50, 95, 99)
    return {
        "rendered_frames": len(images),
        "rendered_percentiles": list(percentiles),
        **{f"rendered_{side}": np.percentile(v, percentiles).round().tolist() for side, v in rendered.items()},
        "real_start_positions": photographs,
    }


def touches_seen(model_path, folder, after=1.5):
    """How often the model reads the fingertip on the touched square over the
    touch benchmark's games (`measure_touches.py --keep FOLDER`): for each
    touch of a game's truth, its frames labelled touching that square within
    `after` seconds of it, read at the true corners as one video frame is.
    A touch is seen with at least two such frames read right (the tracker's
    least dwell). Lists those not seen: the detector's share of the
    benchmark's misses, apart from the tracker's. And for each hover of the
    games' plans, whether the model reads a fingertip on one of its squares
    on two frames or more before the move's lift: the hovers the tracker
    must then judge from the fingertip's motion alone."""
    import cv2
    import onnxruntime as ort

    from measure_touches import game, turns

    session = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    seen, unseen, hovers, hover_tips = 0, [], 0, []
    for truth_path in sorted(Path(folder).glob("touches_*/truth.json")):
        truth = json.loads(truth_path.read_text())
        video = cv2.VideoCapture(str(truth_path.parent / "video.avi"))
        touches = [e for e in truth["events"] if e["type"] == "touch"]
        spans = turns(truth)
        planned = [h for h in game(int(truth_path.parent.name.split("_")[1]))[3] if h["ply"] in spans]
        right, tipped = [0] * len(touches), [0] * len(planned)
        for frame in truth["frames"]:
            ok, image = video.read()
            if not ok:
                break
            near = [i for i, e in enumerate(touches)
                    if e["t"] - 0.15 <= frame["t"] <= e["t"] + after
                    and any(q["square"] == e["square"] and q["touch"] for q in frame["squares"])]
            over = [i for i, h in enumerate(planned) if spans[h["ply"]][0] <= frame["t"] < spans[h["ply"]][1]]
            if not near and not over:
                continue
            board = rectify(image, frame["corners"]).transpose(2, 0, 1)[None].astype(np.float32)
            _, _, touch, present, _ = session.run(OUTPUTS, {"board": board})
            tip = int(touch[0].argmax()) if touch[0].max() >= TOUCH_THRESHOLD and present[0] >= PRESENT_THRESHOLD else None

            def at(square):
                return cell(frame["white_side"], ord(square[0]) - 97, int(square[1]) - 1)

            for i in near:
                right[i] += tip == at(touches[i]["square"])
            for i in over:
                tipped[i] += tip is not None and any(tip == at(sq) for sq in planned[i]["squares"])
        for e, frames in zip(touches, right):
            if frames >= 2:
                seen += 1
            else:
                unseen.append(f"{truth_path.parent.name} {e['side']} {e['square']} {e['t']:.2f} s")
        hovers += len(planned)
        hover_tips += [f"{truth_path.parent.name} {h['line']}: {n} frames" for h, n in zip(planned, tipped) if n >= 2]
    total = seen + len(unseen)
    return {"touches": total, "seen": seen, "seen_pct": round(100 * seen / max(total, 1), 1), "unseen": unseen,
            "hovers": hovers, "hovers_with_a_fingertip": len(hover_tips), "hover_fingertips": hover_tips}


def evaluate_model(model_path, heldout, turns=1):
    """The model card's rendered figures, with ONNX Runtime (the runtime the
    referee uses), each board read in `turns` quarter turns averaged."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    images, pieces, hand, touch, present = load_set(heldout)
    actions = [json.loads(line)["action"] for line in (Path(heldout) / "labels.jsonl").read_text().splitlines()]
    passing = passing_read = 0  # frames of a hand hovering or carrying, and those read with a fingertip
    occupant = lambda cls: np.where(cls == 0, 0, np.where(cls <= 6, 1, 2))
    uncovered_wrong = uncovered = 0
    hand_found = hand_total = 0
    hand_false = hand_clear = 0
    tip_right = tip_total = 0
    tip_false = tip_handless = 0  # a fingertip read on a frame with no hand
    tip_wrong_square = tip_on_neighbour = tip_unseen = 0
    sweep = {threshold: [0, 0] for threshold in HAND_SWEEP}  # found, false
    piece_right = piece_total = 0
    presence_right = 0
    for start in range(0, len(images), 32):
        x = images[start:start + 32]
        p, h, t, pres = read_turned(session, x, turns)
        cls = p.argmax(-1)
        truth_p = pieces[start:start + 32]
        truth_h = hand[start:start + 32] > 0.5
        truth_t = touch[start:start + 32] > 0.5
        clear = ~truth_h
        uncovered += clear.sum()
        uncovered_wrong += (occupant_read(p) != occupant(truth_p))[clear].sum()
        occupied = clear & (truth_p > 0)
        piece_total += occupied.sum()
        piece_right += (cls == truth_p)[occupied].sum()
        hand_total += truth_h.sum()
        hand_found += ((h > HAND_THRESHOLD) & truth_h).sum()
        hand_clear += clear.sum()
        hand_false += ((h > HAND_THRESHOLD) & clear).sum()
        for threshold, counts in sweep.items():
            counts[0] += ((h > threshold) & truth_h).sum()
            counts[1] += ((h > threshold) & clear).sum()
        handless = present[start:start + 32] <= 0.5
        tip_handless += int(handless.sum())
        tip_false += int((handless & (t.max(-1) > TOUCH_THRESHOLD) & (pres >= PRESENT_THRESHOLD)).sum())
        for i in range(len(x)):
            tip_read = t[i].max() > TOUCH_THRESHOLD and pres[i] >= PRESENT_THRESHOLD
            if actions[start + i] in ("hover", "carry"):
                passing += 1
                passing_read += bool(tip_read)
            if truth_t[i].any():
                tip_total += 1
                best = t[i].argmax()
                # As `Detection::fingertip` reads it: only with a hand in view.
                seen = t[i][best] > TOUCH_THRESHOLD and pres[i] >= PRESENT_THRESHOLD
                tip_right += bool(truth_t[i][best] and seen)
                tip_unseen += not seen
                if not truth_t[i][best]:
                    # Chebyshev distance from the cell read to the true one.
                    row, col = divmod(int(best), 8)
                    rows, cols = np.nonzero(truth_t[i].reshape(8, 8))
                    tip_wrong_square += 1
                    tip_on_neighbour += int(np.maximum(abs(rows - row), abs(cols - col)).min() == 1)
        presence_right += ((pres > 0.5) == (present[start:start + 32] > 0.5)).sum()
    return {
        "frames": len(images),
        "quarter_turns_averaged": turns,
        "occupant_error_uncovered_pct": round(100 * uncovered_wrong / uncovered, 4),
        "uncovered_squares": int(uncovered),
        "piece_type_accuracy_pct": round(100 * piece_right / piece_total, 3),
        "hand_squares_found_pct": round(100 * hand_found / max(1, hand_total), 3),
        "hand_squares": int(hand_total),
        "hand_false_alarm_pct": round(100 * hand_false / hand_clear, 4),
        "fingertip_square_right_pct": round(100 * tip_right / max(1, tip_total), 3),
        "fingertip_frames": int(tip_total),
        "fingertip_on_frames_without_a_hand_pct": round(100 * tip_false / max(1, tip_handless), 3),
        "fingertip_wrong_square": int(tip_wrong_square),
        "fingertip_wrong_square_a_neighbour": int(tip_on_neighbour),
        "fingertip_not_read_on_frames_with_a_touch": int(tip_unseen),
        "fingertip_read_on_frames_of_a_hand_hovering_or_carrying_pct": round(100 * passing_read / max(1, passing), 3),
        "hand_found_pct_and_false_alarm_pct_by_threshold": {
            str(threshold): [round(100 * found / max(1, hand_total), 3), round(100 * false / hand_clear, 4)]
            for threshold, (found, false) in sweep.items()
        },
        "hand_presence_right_pct": round(100 * presence_right / len(images), 3),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("--data", nargs="+", required=True)
    t.add_argument("--heldout")
    t.add_argument("--out", default="models/detector.onnx")
    t.add_argument("--epochs", type=int, default=10)
    t.add_argument("--batch", type=int, default=32)
    t.add_argument("--lr", type=float, default=3e-3)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--init", help="start from these weights (a .pt the last run saved)")
    t.add_argument("--init-onnx", help="start from an exported model's weights (batch norms kept fixed)")
    t.add_argument("--hand-weight", type=float, default=1.0,
                   help="weight of hand-covered cells in the hand loss")
    t.add_argument("--corner-jitter", type=float, default=0.006,
                   help="corner noise as a share of the board's side")
    t.add_argument("--no-turns", action="store_true",
                   help="mirror the boards left to right only, never turn them (pieces lean up, as a tilted camera shows them)")
    t.add_argument("--board-context", action="store_true",
                   help="read the pieces also from the whole board (BoardContext)")
    t.add_argument("--threads", type=int, default=os.cpu_count())
    c = sub.add_parser("context", help="train the hand and touch context layers on an exported model kept fixed")
    c.add_argument("--data", nargs="+", required=True)
    c.add_argument("--heldout")
    c.add_argument("--init-onnx", required=True)
    c.add_argument("--out", default="models/detector.onnx")
    c.add_argument("--epochs", type=int, default=4)
    c.add_argument("--batch", type=int, default=32)
    c.add_argument("--lr", type=float, default=1e-3)
    c.add_argument("--seed", type=int, default=3)
    c.add_argument("--hand-weight", type=float, default=3.0)
    c.add_argument("--corner-jitter", type=float, default=0.006)
    c.add_argument("--threads", type=int, default=os.cpu_count())
    c.add_argument("--presence", action="store_true",
                   help="train the hand-presence head too (on the backbone's map, kept as it is)")
    d = sub.add_parser("compare", help="the largest difference of each output between two exported models")
    d.add_argument("model")
    d.add_argument("other")
    e = sub.add_parser("evaluate")
    e.add_argument("--heldout", required=True)
    e.add_argument("--model", default="models/detector.onnx")
    e.add_argument("--turns", type=int, choices=(1, 4), default=1,
                   help="read each board in this many quarter turns averaged: 1 as a video frame "
                        "is read, 4 as `referee detect` reads a still")
    u = sub.add_parser("touches", help="the fingertip read on the touched square, and on hovered ones, "
                                       "over the touch benchmark's games")
    u.add_argument("--games", required=True, help="a `measure_touches.py --keep` folder")
    u.add_argument("--model", default="models/detector.onnx")
    o = sub.add_parser("tones", help="how light White's and Black's sets look, rendered and real")
    o.add_argument("--heldout", required=True)
    o.add_argument("--real", default="../shared/data/real")
    args = parser.parse_args()
    if args.command == "train":
        torch.set_num_threads(args.threads)
        train(args)
    elif args.command == "compare":
        print(json.dumps(output_differences(args.model, args.other)))
    elif args.command == "context":
        torch.set_num_threads(args.threads)
        train_context(args)
    elif args.command == "touches":
        print(json.dumps(touches_seen(args.model, args.games), indent=1))
    elif args.command == "tones":
        print(json.dumps(set_tones(args.heldout, args.real), indent=1))
    else:
        print(json.dumps(evaluate_model(args.model, args.heldout, args.turns), indent=1))


if __name__ == "__main__":
    sys.exit(main())
