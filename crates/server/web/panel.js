// The arbiter's panel: every board live, the incident queue (open ones
// first) with its evidence, decisions and move corrections, and the history
// of decisions. Live through the service's server-sent events.
"use strict";

const games = new Map(); // id -> verdict JSON
const sources = new Map(); // id -> EventSource
// What the arbiter is typing and what was refused survive a redraw.
const drafts = new Map(); // incident id -> note
const refusals = new Map(); // incident id -> message
let drawn = "";

const tokenBox = document.getElementById("token");
tokenBox.value = localStorage.getItem("referee-token") || "";
tokenBox.addEventListener("change", () => {
  localStorage.setItem("referee-token", tokenBox.value.trim());
  refreshAll();
});

function authHeaders() {
  const token = tokenBox.value.trim();
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = "Bearer " + token;
  return headers;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const child of children) node.append(child);
  return node;
}

function moveText(moves) {
  return moves.map((m) => (m.ply % 2 === 1 ? `${(m.ply + 1) / 2}. ` : "") + m.san).join(" ");
}

async function refreshGame(id) {
  const answer = await fetch(`/api/games/${encodeURIComponent(id)}${tokenQuery()}`);
  if (!answer.ok) return;
  games.set(id, await answer.json());
  render();
}

// The service running without a model says what it cannot see: a banner
// the arbiter cannot miss.
async function refreshStatus() {
  const answer = await fetch("/api/status" + tokenQuery());
  if (!answer.ok) return;
  const { not_seen: notSeen } = await answer.json();
  const banner = document.getElementById("not-seen");
  banner.hidden = notSeen.length === 0;
  banner.textContent = notSeen.length
    ? "The referee cannot see everything: " + notSeen.join("; ")
    : "";
}

async function refreshAll() {
  const answer = await fetch("/api/games" + tokenQuery());
  if (!answer.ok) {
    document.getElementById("boards").textContent = "Cannot read the games: " + answer.status;
    return;
  }
  for (const game of await answer.json()) {
    await refreshGame(game.id);
    if (!sources.has(game.id)) listen(game.id);
  }
}

function listen(id) {
  const q = tokenQuery();
  const source = new EventSource(`/api/games/${encodeURIComponent(id)}/updates${q}${q ? "&" : "?"}from=0`);
  let timer = null;
  source.onmessage = () => {
    // Many updates arrive at once when a stream starts: refresh once for them.
    clearTimeout(timer);
    timer = setTimeout(() => refreshGame(id), 50);
  };
  sources.set(id, source);
}

function renderBoards() {
  const boards = document.getElementById("boards");
  boards.replaceChildren();
  for (const [id, v] of games) {
    const last = v.moves.length ? v.moves[v.moves.length - 1].uci : null;
    const g = v.game || {};
    const card = el("div", { class: "game", "data-game": id },
      el("div", { class: "title" }, `Board ${g.board_id}: ${g.white || "?"} - ${g.black || "?"} (${v.result})`),
      drawBoard(v.fen, last, 220),
      el("div", { class: "moves" }, moveText(v.moves)));
    const correct = el("form", { class: "correct" },
      el("input", { name: "ply", type: "number", min: "1", placeholder: "ply", style: "width:4rem" }),
      el("input", { name: "uci", placeholder: "move played, e.g. e2e4", style: "width:9rem" }),
      el("button", { type: "submit" }, "Correct move"));
    correct.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = { ply: Number(correct.ply.value), uci: correct.uci.value.trim(), note: "from the panel" };
      const answer = await fetch(`/api/games/${encodeURIComponent(id)}/correction`,
        { method: "POST", headers: authHeaders(), body: JSON.stringify(body) });
      if (!answer.ok) alert("Refused: " + (await answer.json()).error);
      refreshGame(id);
    });
    card.append(correct);
    boards.append(card);
  }
}

/** Whether the opponent may still claim (art. 4.8), in words. */
function claimWindow(i) {
  if (i.kind === "record_gap") return "Not a player's doing: the record is to be restored from the scoresheets.";
  const claimant = i.side === "white" ? "Black" : "White";
  return i.claimable
    ? `Claim window open: ${claimant} may still claim; the right lapses once ${claimant} touches a piece to move it (art. 4.8).`
    : `Claim window closed: ${claimant} has touched a piece to move since (art. 4.8); the arbiter may still act on it.`;
}

function incidentCard(i) {
  const decided = Boolean(i.decision);
  const card = el("div", { class: decided ? "incident decided" : "incident", "data-incident": i.id },
    el("div", { class: "kind" }, `${i.kind.replaceAll("_", " ")} (art. ${i.article}) by ${i.side}, ply ${i.ply}, at ${i.t.toFixed(1)} s`),
    el("div", { class: "detail" }, "What happened: " + i.detail),
    el("div", { class: "article" }, `Art. ${i.article}: ${i.law || ""}`));
  if (i.touches && i.touches.length) {
    card.append(el("div", { class: "touches" },
      "Touches in order: " + i.touches.map((t) => `${t.piece.toUpperCase()}${t.square} at ${t.t.toFixed(1)} s`).join(", ")));
  }
  if (i.played) card.append(el("div", { class: "played" }, "Move played: " + i.played));
  card.append(el("div", { class: "claim" }, claimWindow(i)));
  if (i.clip) card.append(clipPlayer(i));
  const pictures = el("div", { class: "evidence" });
  const paths = i.evidence || [];
  const captions = paths.length === 3 ? ["before", "at the incident", "latest"] : paths.map(() => "");
  paths.forEach((path, k) => {
    pictures.append(el("figure", {},
      el("img", { src: `/evidence/${path}${tokenQuery()}`, alt: "evidence frame " + path }),
      el("figcaption", {}, captions[k])));
  });
  card.append(pictures);
  card.append(el("a", { class: "report", href: `/incidents/${encodeURIComponent(i.id)}/report${tokenQuery()}`, target: "_blank" },
    "Printable report"));
  if (decided) {
    card.append(el("div", { class: "outcome" }, `${i.decision} by ${i.decided_by}${i.note ? ": " + i.note : ""}`));
    return card;
  }
  const note = el("input", { name: "note", placeholder: "note for the record" });
  note.value = drafts.get(i.id) || "";
  note.addEventListener("input", () => drafts.set(i.id, note.value));
  const form = el("form", {},
    note,
    el("button", { type: "submit", name: "upheld", value: "upheld" }, "Uphold"),
    el("button", { type: "submit", name: "dismissed", value: "dismissed" }, "Dismiss"),
    el("span", { class: "error" }, refusals.get(i.id) || ""));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const decision = e.submitter ? e.submitter.value : "upheld";
    const answer = await fetch(`/api/incidents/${encodeURIComponent(i.id)}/decision`,
      { method: "POST", headers: authHeaders(), body: JSON.stringify({ decision, note: note.value }) });
    if (!answer.ok) {
      refusals.set(i.id, "Refused: " + (await answer.json()).error);
      form.querySelector(".error").textContent = refusals.get(i.id);
      return;
    }
    refusals.delete(i.id);
    drafts.delete(i.id);
    refreshGame(i.game_id);
  });
  card.append(form);
  return card;
}

function render() {
  // Redraw only what changed, so that a form being filled is left alone.
  const now = JSON.stringify([...games]);
  if (now === drawn) return;
  drawn = now;
  renderBoards();
  const all = [];
  for (const [id, v] of games) for (const i of v.incidents) all.push({ ...i, game_id: id });
  all.sort((a, b) => Boolean(a.decision) - Boolean(b.decision) || b.t - a.t);
  const open = all.filter((i) => !i.decision).length;
  document.getElementById("open-count").textContent = `(${open} open)`;
  document.getElementById("incidents").replaceChildren(...all.map(incidentCard));
  document.getElementById("history").replaceChildren(...all.filter((i) => i.decision)
    .map((i) => el("li", {}, `${i.id}: ${i.decision} by ${i.decided_by}${i.note ? " (" + i.note + ")" : ""}`)));
}

refreshStatus();
refreshAll();
setInterval(refreshAll, 5000);
