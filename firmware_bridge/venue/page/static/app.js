// The venue page: every table's clocks, scores and phase, live from /events
// (server-sent events); the running clock ticks here from its last reading.
"use strict";
const tables = new Map();   // name -> {doc, at}: the last summary and when it came
let shown = null;           // the table whose board and moves are open

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

function clockText(ms) {
  const neg = ms < 0;
  const s = Math.floor(Math.abs(ms) / 1000);
  const text = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  return neg ? "-" + text : text;
}

function remaining(entry, seat) {
  const c = entry.doc.clocks[seat];
  if (!c || c.remaining_ms == null) return null;
  if (!c.running || !entry.doc.online || document.body.dataset.link === "down") {
    return c.remaining_ms - (c.running ? entry.doc.age_ms || 0 : 0);
  }
  return c.remaining_ms - (entry.doc.age_ms || 0) - (Date.now() - entry.at);
}

function card(name) {
  let el = document.getElementById("table-" + name);
  if (!el) {
    el = document.createElement("div");
    el.id = "table-" + name;
    el.className = "table";
    el.tabIndex = 0;
    el.addEventListener("click", () => openTable(name));
    document.getElementById("tables").appendChild(el);
  }
  return el;
}

function draw(name) {
  const entry = tables.get(name);
  const d = entry.doc;
  const el = card(name);
  // without the broker the page knows nothing new: no table looks live, none is
  // called offline on the page's own account
  const linkDown = document.body.dataset.link === "down";
  el.classList.toggle("offline", !d.online || linkDown);
  el.dataset.status = linkDown ? "unknown" : (d.online ? "online" : d.status);
  const a = d.assignment;
  const round = a ? ` round ${a.round}` + (a.division ? ` ${a.division}` : "") : "";
  const players = d.players || (a ? a.players : ["", ""]);
  let html = `<span class="name">${esc(name)}</span>${esc(round)}` +
    `<span class="badge">${linkDown ? "NO LINK" : (d.online ? "" : esc(d.status).toUpperCase())}</span>`;
  for (const seat of [0, 1]) {
    const left = remaining(entry, seat);
    const running = d.clocks[seat] && d.clocks[seat].running && d.online && !linkDown;
    const won = d.winner === seat ? " won" : "";  // who won, as the table ruled it
    html += `<div class="seat${running ? " running" : ""}${won}" data-seat="${seat}">` +
      `<span>${esc(players[seat])}</span><span>${d.scores ? esc(d.scores[seat]) : ""}</span>` +
      `<span class="clock${left != null && left < 0 ? " over" : ""}">` +
      `${left == null ? "" : clockText(left)}</span></div>`;
  }
  // worded by the server (a game over: who won and why, never the bare scores)
  html += `<div class="phase">${esc(d.phase_text)}</div>`;
  // what the table sent that the server dropped (the card stays stale meanwhile)
  if (d.note) html += `<div class="note">${esc(d.note)}</div>`;
  el.innerHTML = html;
}

function standingsTable(division, label, rows, block) {
  // label: worded by the server, as the console and the CLI word it
  let html = `<table data-division="${esc(division)}" data-block="${block}">` +
    `<caption>Division ${esc(division)}, ${esc(label)}</caption>` +
    "<tr><th>#</th><th>W-L</th><th>spread</th><th></th></tr>";
  for (const r of rows) {
    html += `<tr><td>${r.rank}</td><td>${r.wins}-${r.losses}</td>` +
      `<td>${r.spread > 0 ? "+" : ""}${r.spread}</td><td class="player">${esc(r.name)}</td></tr>`;
  }
  return html + "</table>";
}

function standings(divisions) {
  const box = document.getElementById("standings");
  let html = "";
  for (const d of divisions || []) {
    // after the complete rounds; the round in play apart, labelled as such
    html += standingsTable(d.division, d.label, d.rows, "after");
    if (d.in_play) html += standingsTable(d.division, d.in_play.label, d.in_play.rows, "in-play");
  }
  box.innerHTML = html;
}

function take(msg) {
  if (msg.type === "standings") {
    standings(msg.divisions);
  } else if (msg.type === "venue") {
    standings(msg.standings);
    document.getElementById("venue").textContent = msg.venue;
    link(msg.connected);
    for (const t of msg.tables) tables.set(t.table, {doc: t, at: Date.now()});
    for (const name of tables.keys()) draw(name);
  } else if (msg.type === "table") {
    tables.set(msg.table.table, {doc: msg.table, at: Date.now()});
    draw(msg.table.table);
    if (shown === msg.table.table) openTable(shown);
  } else if (msg.type === "link") {
    link(msg.connected);
  }
}

function link(up) {
  const el = document.getElementById("link");
  el.textContent = up ? "live" : "broker unreachable: the times shown are not moving";
  el.classList.toggle("down", !up);
  document.body.dataset.link = up ? "up" : "down";
  for (const name of tables.keys()) draw(name);
}

async function openTable(name) {
  shown = name;
  const res = await fetch("/table/" + encodeURIComponent(name));
  const aside = document.getElementById("detail");
  aside.hidden = false;
  document.getElementById("detail-title").textContent = name;
  if (!res.ok) {
    document.getElementById("board").textContent = "no board yet";
    document.getElementById("moves").innerHTML = "";
    return;
  }
  const doc = await res.json();
  document.getElementById("board").textContent = (doc.board || []).join("\n");
  const moves = document.getElementById("moves");
  moves.innerHTML = "";
  for (const h of doc.history || []) {
    const li = document.createElement("li");
    li.textContent = `${(doc.players || [])[h.player] || ""}: ${h.text} ${h.score ?? ""} ${h.total ?? ""}`;
    moves.appendChild(li);
  }
}

function connect() {
  const source = new EventSource("/events");
  source.onmessage = (e) => take(JSON.parse(e.data));
  source.onerror = () => link(false);  // the browser reconnects by itself
}

setInterval(() => { for (const name of tables.keys()) draw(name); }, 250);
connect();
