// An incident's clip in the panel: its frames played, paused or stepped one
// by one, the touches and the move marked on its time line, and beside it
// the board before the move with the touched squares numbered in the order
// the Laws weigh them. Each clip's place survives the panel's redraws.
"use strict";

const clips = new Map(); // incident id -> { manifest, frame, timer, show }

/** The evidence URL of `file` beside the clip's manifest `path`. */
function besideClip(path, file) {
  const folder = path.slice(0, path.lastIndexOf("/") + 1);
  return `/evidence/${folder}${file}${tokenQuery()}`;
}

function clipState(incident) {
  let state = clips.get(incident.id);
  if (state) return state;
  state = { manifest: null, frame: 0, timer: null, show: () => {} };
  clips.set(incident.id, state);
  // The clip is kept a moment after its incident is told: ask again until
  // it is there (a minute at most).
  const load = (tries) => fetch(`/evidence/${incident.clip}${tokenQuery()}`)
    .then((answer) => (answer.ok ? answer.json() : null))
    .catch(() => null)
    .then((manifest) => {
      if (!manifest) {
        if (tries < 60) setTimeout(() => load(tries + 1), 1000);
        return;
      }
      state.manifest = manifest;
      // Preloaded, so that playing does not wait on the network.
      state.images = manifest.frames.map((f) => {
        const image = new Image();
        image.src = besideClip(incident.clip, f.file);
        return image;
      });
      state.frame = manifest.touches.length ? manifest.touches[0].frame : 0;
      state.show();
    });
  load(0);
  return state;
}

function stopClip(state) {
  clearInterval(state.timer);
  state.timer = null;
}

function playClip(state) {
  const m = state.manifest;
  if (!m || state.timer) return;
  if (state.frame >= m.frames.length - 1) state.frame = 0;
  state.timer = setInterval(() => {
    if (state.frame >= m.frames.length - 1) stopClip(state);
    else state.frame += 1;
    state.show();
  }, 1000 / (m.fps || 10));
  state.show();
}

/** The clip's player for `incident`, whose clip is kept. */
function clipPlayer(incident) {
  const state = clipState(incident);
  const frame = el("img", { class: "clip-frame", alt: "the incident's clip" });
  const time = el("span", { class: "clip-time" }, "loading the clip…");
  const play = el("button", { type: "button", class: "play" }, "Play");
  const back = el("button", { type: "button", class: "back", title: "one frame back" }, "\u25C0 frame");
  const on = el("button", { type: "button", class: "on", title: "one frame on" }, "frame \u25B6");
  const slider = el("input", { type: "range", class: "clip-slider", min: "0", max: "0", value: "0" });
  const marks = el("div", { class: "clip-marks" });
  const side = el("div", { class: "clip-side" });
  const box = el("div", { class: "clip" },
    el("div", { class: "clip-stage" }, frame, side),
    el("div", { class: "clip-controls" }, back, play, on, time),
    el("div", { class: "clip-timeline" }, slider, marks));
  const step = (by) => {
    stopClip(state);
    const m = state.manifest;
    if (!m) return;
    state.frame = Math.min(m.frames.length - 1, Math.max(0, state.frame + by));
    state.show();
  };
  back.addEventListener("click", () => step(-1));
  on.addEventListener("click", () => step(1));
  play.addEventListener("click", () => (state.timer ? stopClip(state) : playClip(state), state.show()));
  slider.addEventListener("input", () => { stopClip(state); state.frame = Number(slider.value); state.show(); });
  let drawnFor = null;
  state.show = () => {
    const m = state.manifest;
    if (!m) return;
    const n = m.frames.length;
    if (drawnFor !== m) {
      drawnFor = m;
      box.dataset.frames = n;
      box.dataset.first = m.frames[0].t;
      box.dataset.last = m.frames[n - 1].t;
      box.dataset.marks = m.touches.map((t) => t.frame).join(",");
      slider.max = String(n - 1);
      const at = (k) => `${(100 * k) / Math.max(1, n - 1)}%`;
      marks.replaceChildren(...m.touches.map((t) => {
        const mark = el("button", { type: "button", class: t.order === 1 ? "mark first" : "mark", style: `left:${at(t.frame)}`,
          title: `touch ${t.order}: ${t.piece.toUpperCase()}${t.square} at ${t.t.toFixed(2)} s`, "data-frame": t.frame }, String(t.order));
        mark.addEventListener("click", () => { stopClip(state); state.frame = t.frame; state.show(); });
        return mark;
      }));
      if (m.played) {
        marks.append(el("span", { class: "mark played", style: `left:${at(m.played.frame)}`,
          title: `${m.played.san} let go at ${m.played.t.toFixed(2)} s` }, m.played.san));
      }
      const board = drawBoard(m.fen, m.played ? m.played.from + m.played.to : null, 200);
      side.replaceChildren(numberTouches(board, m.touches),
        el("ol", { class: "clip-touches" }, ...m.touches.map((t) =>
          el("li", {}, `${t.piece.toUpperCase()}${t.square} at ${t.t.toFixed(2)} s`))),
        el("div", { class: "clip-size" }, `${n} frames at ${m.fps} a second, ${Math.round(m.bytes / 1024)} kB`
          + (m.left_out ? `; ${m.left_out[0].toFixed(1)}-${m.left_out[1].toFixed(1)} s left out` : "")));
    }
    const k = state.frame;
    box.dataset.frame = k;
    frame.src = state.images[k].src;
    slider.value = String(k);
    const touch = m.touches.find((t) => t.frame === k);
    const moved = m.played && m.played.frame === k;
    time.textContent = `${m.frames[k].t.toFixed(2)} s · frame ${k + 1} of ${n}`
      + (touch ? ` · touch ${touch.order}: ${touch.piece.toUpperCase()}${touch.square}` : "")
      + (moved ? ` · ${m.played.san} let go` : "");
    play.textContent = state.timer ? "Pause" : "Play";
  };
  state.show();
  return box;
}
