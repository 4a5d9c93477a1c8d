// The overlay for a broadcast's browser source: `/overlay?game=ID`, with
// `&banner=1` to show the latest incident. Transparent background; the
// board with the last move marked and the move list, live within a frame
// of the move through the service's server-sent events.
"use strict";

const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const showBanner = params.get("banner") === "1";

async function refresh() {
  const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}${tokenQuery()}`);
  if (!answer.ok) return;
  const v = await answer.json();
  const last = v.moves.length ? v.moves[v.moves.length - 1] : null;
  const board = document.getElementById("board");
  board.replaceChildren(drawBoard(v.fen, last ? last.uci : null, 260));
  board.dataset.lastMove = last ? last.san : "";
  const g = v.game || {};
  document.getElementById("players").textContent = `${g.white || ""} - ${g.black || ""}`;
  document.getElementById("moves").textContent =
    v.moves.map((m) => (m.ply % 2 === 1 ? `${(m.ply + 1) / 2}. ` : "") + m.san).join(" ");
  const banner = document.getElementById("banner");
  const open = v.incidents.filter((i) => !i.decision);
  if (showBanner && open.length) {
    const i = open[open.length - 1];
    banner.textContent = `Under review: ${i.kind.replaceAll("_", " ")} (art. ${i.article})`;
    banner.style.display = "block";
  } else {
    banner.style.display = "none";
  }
}

/** Live updates; opened again a second after it fails (the game not open
 * yet, the service restarting). */
function listen() {
  const q = tokenQuery();
  const source = new EventSource(`/api/games/${encodeURIComponent(gameId)}/updates${q}${q ? "&" : "?"}from=0`);
  source.onopen = () => refresh();
  source.onmessage = () => refresh();
  source.onerror = () => {
    source.close();
    setTimeout(listen, 1000);
  };
}

if (gameId) {
  refresh();
  listen();
}
