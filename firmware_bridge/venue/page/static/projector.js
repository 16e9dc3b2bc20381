// The projector view: each division's pairings (the round to post) beside its
// standings, the same cells as the printed sheets (the server sends the sheets),
// in pages that fit the screen; the pages and the divisions take turns every
// EVERY_S seconds. Once a division's last round is complete its prize sheet
// follows, in pages of its own across the screen.
// ?division=A shows one division only; ?every=20 sets the turn.
"use strict";
const params = new URLSearchParams(location.search);
const EVERY_S = Math.max(3, Number(params.get("every")) || 12);
const ONLY = params.get("division");
let divisions = [];   // [{event, division, round, label, pairings, standings, prizes}]: sheets
let turn = 0;         // how many turns have passed: which division and page is shown

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

function rowsPerPage() {
  // the rows that fit under the header, the column title and the table head
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Math.max(5, Math.floor((window.innerHeight - 6 * rem) / (1.45 * rem)));
}

function pages(sheet, size) {
  // the sheet's sections in pages of `size` lines, a section's rows cut where they
  // do not fit; a section that fits whole in what is left of a page goes on it
  const out = [];
  let page = null;
  let room = 0;
  for (const s of sheet ? sheet.sections : []) {
    for (let at = 0; at < Math.max(1, s.rows.length); at += size) {
      const rows = s.rows.slice(at, at + size);
      const notes = at + size >= s.rows.length ? s.notes || [] : [];  // under the last part
      const lines = rows.length + notes.length + 3;  // and its caption and head
      if (!page || lines > room) {
        page = [];
        out.push(page);
        room = size + 3;
      }
      page.push({caption: s.caption, head: s.head, right: s.right, rows, notes,
        from: at + 1, to: at + rows.length, of: s.rows.length});
      room -= lines;
    }
  }
  return out;
}

function grid(title, page) {
  if (!page) return `<h2>${esc(title)}</h2><p class="empty">not posted yet</p>`;
  let html = `<h2>${esc(title)}</h2>`;
  for (const part of page) {
    const cut = part.of > part.rows.length ? ` (${part.from}-${part.to} of ${part.of})` : "";
    if (part.caption || cut) html += `<h3>${esc(part.caption)}${esc(cut)}</h3>`;
    html += "<table><tr>";
    part.head.forEach((h, i) => { html += `<th class="${part.right[i] ? "n" : ""}">${esc(h)}</th>`; });
    html += "</tr>";
    for (const row of part.rows) {
      html += "<tr>";
      row.forEach((cell, i) => { html += `<td class="${part.right[i] ? "n" : "name"}">${esc(cell)}</td>`; });
      html += "</tr>";
    }
    html += "</table>";
    for (const note of part.notes) html += `<p class="note">${esc(note)}</p>`;
  }
  return html;
}

function show() {
  const shown = divisions.filter((d) => !ONLY || d.division.toLowerCase() === ONLY.toLowerCase());
  if (!shown.length) {
    document.getElementById("title").textContent = "no event to show";
    for (const id of ["pairings", "standings", "prizes"]) document.getElementById(id).innerHTML = "";
    return;
  }
  // each division is shown for as many turns as its longer column has pages
  const size = rowsPerPage();
  const screens = [];
  for (const d of shown) {
    const p = pages(d.pairings, size);
    const s = pages(d.standings, size);
    for (let i = 0; i < Math.max(p.length, s.length, 1); i++) {
      screens.push({d, p: p.length ? p[i % p.length] : null, s: s[i % s.length]});
    }
    for (const prize of pages(d.prizes, size)) screens.push({d, prize});
  }
  const at = screens[turn % screens.length];
  document.body.dataset.division = at.d.division;
  document.getElementById("title").textContent = `${at.d.event || "the event"}, division ${at.d.division}`;
  document.getElementById("step").textContent =
    screens.length > 1 ? `${(turn % screens.length) + 1} of ${screens.length}` : "";
  document.body.dataset.view = at.prize ? "prizes" : "sheets";
  document.getElementById("pairings").hidden = Boolean(at.prize);
  document.getElementById("standings").hidden = Boolean(at.prize);
  document.getElementById("prizes").hidden = !at.prize;
  if (at.prize) {
    document.getElementById("prizes").innerHTML = grid(`Prizes ${at.d.label}`, at.prize);
    return;
  }
  document.getElementById("pairings").innerHTML =
    grid(at.d.round ? `Pairings, round ${at.d.round}` : "Pairings", at.p);
  document.getElementById("standings").innerHTML =
    grid(`Standings ${at.d.label}`, at.s);
}

function take(msg) {
  if (msg.type === "venue") divisions = msg.projector || [];
  else if (msg.type === "projector") divisions = msg.divisions;
  else return;
  show();
}

function connect() {
  const source = new EventSource("/events");
  source.onmessage = (e) => take(JSON.parse(e.data));
}

setInterval(() => { turn += 1; show(); }, EVERY_S * 1000);
window.addEventListener("resize", show);
connect();
