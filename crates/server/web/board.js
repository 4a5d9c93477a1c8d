// The board drawn as SVG from a FEN, with the last move marked: the
// referee's own drawing, served by the referee (nothing from a CDN).
"use strict";

const GLYPHS = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
  k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };

/** An SVG element of the position `fen`, `last` a UCI move to mark. */
function drawBoard(fen, last, size) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 8 8");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", "board");
  const marked = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
  const rows = (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/");
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const square = "abcdefgh"[f] + (8 - r);
      const rect = document.createElementNS(ns, "rect");
      rect.setAttribute("x", f);
      rect.setAttribute("y", r);
      rect.setAttribute("width", 1);
      rect.setAttribute("height", 1);
      const light = (r + f) % 2 === 0;
      let cls = light ? "light" : "dark";
      if (marked.includes(square)) cls += " marked";
      rect.setAttribute("class", cls);
      rect.setAttribute("data-square", square);
      svg.appendChild(rect);
    }
  }
  rows.forEach((row, r) => {
    let f = 0;
    for (const c of row) {
      if (/\d/.test(c)) { f += Number(c); continue; }
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", f + 0.5);
      text.setAttribute("y", r + 0.8);
      text.setAttribute("text-anchor", "middle");
      text.setAttribute("font-size", "0.85");
      text.setAttribute("class", c === c.toUpperCase() ? "piece white" : "piece black");
      text.setAttribute("data-piece", c);
      text.textContent = GLYPHS[c] || "?";
      svg.appendChild(text);
      f += 1;
    }
  });
  return svg;
}

/** The token kept for this browser, as `?token=` for pages that cannot set headers. */
function tokenQuery() {
  const token = localStorage.getItem("referee-token") || new URLSearchParams(location.search).get("token");
  return token ? "?token=" + encodeURIComponent(token) : "";
}

/** Numbers the touched squares on a board `drawBoard` drew, in the order
 * the Laws weigh them: `touches` as [{square, order}]. */
function numberTouches(svg, touches) {
  const ns = "http://www.w3.org/2000/svg";
  for (const touch of touches) {
    const f = "abcdefgh".indexOf(touch.square[0]);
    const r = 8 - Number(touch.square[1]);
    const ring = document.createElementNS(ns, "rect");
    ring.setAttribute("x", f + 0.04);
    ring.setAttribute("y", r + 0.04);
    ring.setAttribute("width", 0.92);
    ring.setAttribute("height", 0.92);
    ring.setAttribute("class", touch.order === 1 ? "touched first" : "touched");
    svg.appendChild(ring);
    const badge = document.createElementNS(ns, "circle");
    badge.setAttribute("cx", f + 0.22);
    badge.setAttribute("cy", r + 0.22);
    badge.setAttribute("r", 0.2);
    badge.setAttribute("class", touch.order === 1 ? "badge first" : "badge");
    svg.appendChild(badge);
    const number = document.createElementNS(ns, "text");
    number.setAttribute("x", f + 0.22);
    number.setAttribute("y", r + 0.3);
    number.setAttribute("text-anchor", "middle");
    number.setAttribute("font-size", "0.26");
    number.setAttribute("class", "touch-number");
    number.setAttribute("data-square", touch.square);
    number.textContent = String(touch.order);
    svg.appendChild(number);
  }
  return svg;
}
