// Watch a game of Citadel: the board drawn from the reference data's layout points, the public
// view, the log; live over Server-Sent Events while the game runs, a replay scrubber once it has
// ended. Plain JavaScript, no build step, and only the public API (docs/watch-page.md).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const MAP_WIDTH = 600; // pixels for the board's width; the height follows the frame's ratio
const RADIUS = { land: 15, sea: 17, port: 7 };
const UNIT_LETTERS = { footman: "F", knight: "K", siege_engine: "S", ship: "Sh" };
const BOARDS = ["board", "board-mother-of-dragons"]; // GET /v1/reference/{name}, tried in this order
const ORDER_LETTERS = { march: "M", defense: "D", support: "S", raid: "R", consolidate_power: "C" };

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const eventTypes = document.body.dataset.eventTypes.split(" ").filter(Boolean);
const $ = (id) => document.getElementById(id);

const state = {
  board: null, // GET /v1/reference/board
  nodes: {}, // area id -> its <g>
  seats: {}, // seat id -> player name
  shown: 0, // the version on screen
  wanted: 0, // the newest version announced by the stream
  busy: false, // a live refresh is running
  logNext: 0, // the log is loaded up to this version
  final: 0, // the last version of an ended game
  types: [], // version -> event type (replay)
  ticket: 0, // the latest replay request; older answers are dropped
  ticketVersion: 0, // the version it asked for
};

async function getJson(path) {
  const answer = await fetch(path, { headers: { Accept: "application/json" } });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  return node;
}

// ---- the board: one marker per area at its layout point, a line per adjacency --------------
//
// The layout points are the areas' centroids, so two markers can meet: Pyke lies inside Ironman's
// Bay, a port beside its sea. `spread` pushes such markers apart (a sea or a port moves, a land
// area hardly), each kept inside its area's bounding box. `placeLabels` then puts each name where
// it covers no marker, no order or token slot and no other name: below the marker if it is free,
// else above, beside, or at a corner (the candidate covering the least).

function spread(board, at, scale) {
  const weight = { land: 0.2, port: 0.6, sea: 1 }; // how readily a marker moves
  const ids = board.areas.map((a) => a.id);
  const byId = Object.fromEntries(board.areas.map((a) => [a.id, a]));
  for (let round = 0; round < 60; round++) {
    let moved = false;
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const [a, b] = [byId[ids[i]], byId[ids[j]]];
        const [pa, pb] = [at[a.id], at[b.id]];
        const gap = RADIUS[a.kind] + RADIUS[b.kind] + 4;
        let dx = pb[0] - pa[0];
        let dy = pb[1] - pa[1];
        const d = Math.hypot(dx, dy);
        if (d >= gap) continue;
        if (d < 0.01) [dx, dy] = [1, 0];
        const push = (gap - d) / Math.max(d, 0.01);
        const [wa, wb] = [weight[a.kind], weight[b.kind]];
        const share = wa + wb;
        pa[0] -= (dx * push * wa) / share;
        pa[1] -= (dy * push * wa) / share;
        pb[0] += (dx * push * wb) / share;
        pb[1] += (dy * push * wb) / share;
        for (const [area, p] of [[a, pa], [b, pb]]) {
          const [x0, y0, x1, y1] = area.point.box.map((v) => v * scale);
          p[0] = Math.min(Math.max(p[0], x0), x1);
          p[1] = Math.min(Math.max(p[1], y0), y1);
        }
        moved = true;
      }
    }
    if (!moved) break;
  }
}

function overlap(a, b) {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

function placeLabels(board, at, labels, width, height) {
  // What a name must not cover: each marker; less so the order slot above it and the token slot
  // beside it, which are often empty (a cost per pixel covered, by what is covered).
  const taken = [];
  for (const a of board.areas) {
    const [x, y] = at[a.id];
    const r = RADIUS[a.kind];
    taken.push([x - r - 2, y - r - 2, x + r + 2, y + r + 2, 4]); // the marker (and its castle dot)
    if (a.kind !== "port") {
      taken.push([x - 13, y - r - 12, x + 13, y - r, 1]); // the order
      taken.push([x + r + 1, y - 6, x + r + 24, y + 5, 1]); // Power token, garrison, neutral force
    }
  }
  const named = board.areas.filter((a) => labels[a.id]).sort((a, b) => at[a.id][1] - at[b.id][1]);
  for (const a of named) {
    const text = labels[a.id];
    const [x, y] = at[a.id];
    const r = RADIUS[a.kind];
    text.setAttribute("x", 0);
    text.setAttribute("y", 0);
    const m = text.getBBox(); // the name's size: width, and height above and below its baseline
    const [w, up, down] = [m.width, -m.y, m.y + m.height];
    const candidates = [
      [x, y + r + 3 + up], // below
      [x - w / 2 + 6, y + r + 3 + up], // below, to the left
      [x + w / 2 - 6, y + r + 3 + up], // below, to the right
      [x, y - r - 13 - down], // above the order slot
      [x - r - 3 - w / 2, y + 3], // left
      [x - r - 3 - w / 2, y + r + 2], // left, lower
      [x + r + 25 + w / 2, y + 3], // right, past the token slot
      [x + r + 3 + w / 2, y + 3], // right, over the token slot
      [x - r - 3 - w / 2, y - r + 2], // left, higher
      [x, y + r + 12 + up], // further below
      [x, y - r - 22 - down], // further above
    ];
    let best = null;
    for (const [cx, by] of candidates) {
      text.setAttribute("x", cx.toFixed(1));
      text.setAttribute("y", by.toFixed(1));
      const b = text.getBBox(); // where the name is drawn, exactly
      const box = [b.x, b.y, b.x + b.width, b.y + b.height];
      if (box[0] < 0 || box[2] > width || box[1] < 0 || box[3] > height) continue;
      const cost = taken.reduce((sum, t) => sum + t[4] * overlap(box, t), 0);
      if (best === null || cost < best.cost) best = { cost, cx, by, box };
      if (cost === 0) break;
    }
    if (best === null) best = { cx: x, by: y + r + 3 + up, box: [x - w / 2, y + r + 3, x + w / 2, y + r + 3 + up + down] };
    text.setAttribute("x", best.cx.toFixed(1));
    text.setAttribute("y", best.by.toFixed(1));
    const [x0, y0, x1, y1] = best.box;
    taken.push([x0 - 3, y0 - 1, x1 + 3, y1 + 1, 10]); // a name over (or touching) a name is the worst
  }
}

function drawBoard(board) {
  const scale = MAP_WIDTH / board.frame.width;
  const width = MAP_WIDTH;
  const height = Math.ceil(board.frame.height * scale);
  const map = $("map");
  map.setAttribute("viewBox", `0 0 ${width} ${height}`);
  map.setAttribute("width", width);
  map.setAttribute("height", height);
  const at = Object.fromEntries(board.areas.map((a) => [a.id, [a.point.x * scale, a.point.y * scale]]));
  spread(board, at, scale);
  const kinds = Object.fromEntries(board.areas.map((a) => [a.id, a.kind]));
  const edges = svg("g", { id: "edges" });
  for (const a of board.areas) {
    for (const b of a.adjacent) {
      if (a.id >= b || !(b in at)) continue; // each pair once
      const sea = kinds[a.id] !== "land" && kinds[b] !== "land";
      const [x1, y1] = at[a.id];
      const [x2, y2] = at[b];
      edges.append(svg("line", { x1, y1, x2, y2, class: sea ? "edge sea" : "edge" }));
    }
  }
  map.append(edges);
  const labels = {};
  const names = svg("g", { id: "labels" }); // drawn last: over every marker and line
  for (const a of board.areas) {
    const [x, y] = at[a.id];
    const r = RADIUS[a.kind];
    const g = svg("g", { id: `area-${a.id}`, class: `area kind-${a.kind}`, "data-area": a.id });
    g.append(svg("title", {}, a.name));
    g.append(a.kind === "port" ? svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r }) : svg("circle", { cx: x, cy: y, r }));
    if (a.castle !== "none") g.append(svg("circle", { cx: x - r, cy: y - r, r: a.castle === "stronghold" ? 4 : 3, class: `castle ${a.castle}` }));
    if (a.kind !== "port") {
      labels[a.id] = svg("text", { x, y: y + r + 9, class: "label", "data-area": a.id }, a.name);
      names.append(labels[a.id]);
    }
    g.dataset.fit = a.kind === "port" ? 2 * r + 6 : 2 * r - 3; // the widest units label (inside a land or sea marker)
    g.append(svg("text", { x, y: y + 3, class: "units" }, ""));
    g.append(svg("text", { x, y: y - r - 3, class: "order" }, ""));
    g.append(svg("text", { x: x + r + 2, y: y + 3, class: "extra" }, ""));
    state.nodes[a.id] = g;
    map.append(g);
  }
  map.append(names);
  placeLabels(board, at, labels, width, height);
}

// A label wider than its marker (`1K 2F 1S`) is squeezed to the marker's width, not cut.
function fitInside(text, width) {
  text.removeAttribute("textLength");
  text.removeAttribute("lengthAdjust");
  if (text.textContent && text.getComputedTextLength() > width) {
    text.setAttribute("textLength", width);
    text.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}

function unitsLabel(units) {
  return Object.entries(units || {})
    .map(([kind, n]) => `${n}${UNIT_LETTERS[kind] || kind}`)
    .join(" ");
}

function orderLabel(order) {
  if (!order) return "";
  if (order === "sealed") return "▪"; // another house's face-down order
  const kind = Object.keys(ORDER_LETTERS).find((k) => order.startsWith(k));
  const rest = order.slice(kind.length).replace("_plus_", "+").replace("_minus_", "−").replace(/^_/, "");
  const bonus = rest.replace("_special", "").replace("special", "").replace(/^0$/, "");
  return `${ORDER_LETTERS[kind]}${bonus}${order.endsWith("special") ? "★" : ""}`;
}

// ---- the public view: areas, houses, tracks, round -----------------------------------------

function render(view) {
  state.shown = view.version;
  document.body.dataset.version = view.version;
  for (const s of view.seats) state.seats[s.seat_id] = s.name;
  $("round").textContent = view.round ? `round ${view.round}` : "not started";
  $("phase").textContent = `${view.phase} · ${view.step}`;
  $("winner").hidden = !view.winner;
  $("winner").textContent = view.winner ? `${view.winner} wins` : "";
  $("winner").dataset.winner = view.winner || "";
  for (const [id, g] of Object.entries(state.nodes)) renderArea(g, view.areas[id] || {});
  renderHouses(view);
  renderTracks(view);
  $("wildlings").value = view.wildling_threat;
  $("wildling-value").textContent = view.wildling_threat;
}

function renderArea(g, area) {
  const house = area.controller || area.house || "";
  const kind = g.getAttribute("class").match(/kind-\w+/)[0];
  g.setAttribute("class", `area ${kind}${house ? ` house-${house}` : ""}`);
  g.dataset.controller = house;
  g.dataset.units = unitsLabel(area.units);
  g.dataset.order = area.order || "";
  const [units, order, extra] = g.querySelectorAll("text.units, text.order, text.extra");
  units.textContent = g.dataset.units;
  fitInside(units, g.dataset.fit);
  order.textContent = orderLabel(area.order);
  const marks = [];
  if (area.power_token) marks.push(`◆${area.power_token.slice(0, 2)}`);
  if (area.garrison) marks.push(`G${area.garrison}`);
  if (area.neutral) marks.push(`N${area.neutral}`);
  if (area.blocked) marks.push("✕");
  extra.textContent = marks.join(" ");
}

function chip(house) {
  const span = document.createElement("span");
  span.className = `chip house-${house}`;
  span.textContent = house;
  return span;
}

function renderHouses(view) {
  const body = $("houses").querySelector("tbody");
  body.replaceChildren(
    ...view.houses.map((h) => {
      const row = document.createElement("tr");
      row.dataset.house = h.house;
      const cells = [state.seats[h.seat_id] || h.seat_id || "", h.power, h.supply, h.victory_points, h.hand_size];
      const first = document.createElement("td");
      first.append(chip(h.house));
      row.append(first, ...cells.map((v) => Object.assign(document.createElement("td"), { textContent: v })));
      return row;
    }),
  );
}

function renderTracks(view) {
  const dl = $("tracks");
  dl.replaceChildren();
  if (!view.tracks) return;
  const names = { iron_throne: "Iron Throne", fiefdoms: "Fiefdoms", kings_court: "King's Court" };
  for (const [track, title] of Object.entries(names)) {
    const dd = document.createElement("dd");
    dd.dataset.track = track;
    dd.append(...view.tracks[track].map(chip));
    dl.append(Object.assign(document.createElement("dt"), { textContent: title }), dd);
  }
}

// ---- the log -------------------------------------------------------------------------------

async function loadLog() {
  for (;;) {
    const page = await getJson(`/v1/games/${gameId}/log?from=${state.logNext}&limit=1000`);
    for (const line of page.lines) {
      const li = document.createElement("li");
      li.dataset.seq = line.seq;
      li.textContent = line.text;
      $("log").append(li);
      state.logNext = line.seq;
    }
    if (page.next_cursor === null || page.next_cursor === undefined) break;
  }
  cutLog(state.shown);
}

function cutLog(version) {
  let last = null;
  for (const li of $("log").children) {
    li.hidden = Number(li.dataset.seq) > version;
    if (!li.hidden) last = li;
  }
  if (last) last.scrollIntoView({ block: "nearest" });
}

// ---- live: one refresh at a time, always to the newest version the stream announced ---------

function follow(version) {
  setStatus("live");
  const stream = new EventSource(`/v1/games/${gameId}/events?from=${version}`);
  const onEvent = (message) => {
    state.wanted = Math.max(state.wanted, Number(message.lastEventId));
    setStatus("live");
    refresh();
  };
  for (const type of eventTypes) stream.addEventListener(type, onEvent);
  stream.addEventListener("end", async (message) => {
    stream.close(); // the game has ended: nothing more will come
    const end = JSON.parse(message.data);
    state.wanted = end.version;
    await refresh();
    await replay(end.version, end.version);
  });
  stream.onerror = () => setStatus("reconnecting"); // EventSource retries by itself (retry: 3000)
}

async function refresh() {
  if (state.busy) return;
  state.busy = true;
  try {
    while (state.shown < state.wanted) {
      render(await getJson(`/v1/games/${gameId}?min_version=${state.wanted}`));
      await loadLog();
    }
  } catch (error) {
    showError(error);
  } finally {
    state.busy = false;
  }
}

// ---- replay: the public view at any version of an ended game -------------------------------

async function replay(final, at) {
  state.final = final;
  for (let from = 0; from < final; ) {
    const answer = await fetch(`/v1/games/${gameId}/events?from=${from}&limit=1000`);
    const lines = (await answer.text()).split("\n").filter(Boolean).map((l) => JSON.parse(l));
    if (!lines.length) break;
    for (const line of lines) state.types[line.seq] = line.event.type;
    from = lines[lines.length - 1].seq;
  }
  const scrub = $("scrub");
  scrub.max = final;
  $("final").textContent = final;
  $("scrubber").hidden = false;
  scrub.oninput = () => show(Number(scrub.value));
  $("first").onclick = () => show(1);
  $("prev").onclick = () => show(state.ticketVersion - 1);
  $("next").onclick = () => show(state.ticketVersion + 1);
  $("last").onclick = () => show(final);
  $("next-reveal").onclick = () => {
    const v = state.types.findIndex((t, i) => i > state.ticketVersion && t === "orders_revealed");
    if (v > 0) show(v);
  };
  await show(at);
  setStatus("ended"); // the replay is ready
}

async function show(version) {
  version = Math.min(Math.max(1, version), state.final);
  const ticket = ++state.ticket;
  state.ticketVersion = version;
  $("scrub").value = version;
  $("version").textContent = version;
  $("event-type").textContent = state.types[version] || "";
  const path = version === state.final ? `/v1/games/${gameId}` : `/v1/games/${gameId}?at_version=${version}`;
  try {
    const view = await getJson(path);
    if (ticket !== state.ticket) return; // a newer step was asked for meanwhile
    render(view);
    cutLog(version);
    history.replaceState(null, "", `?at=${version}`);
  } catch (error) {
    showError(error);
  }
}

// ---- start ---------------------------------------------------------------------------------

function setStatus(text) {
  $("status").textContent = text;
  $("status").dataset.status = text;
}

function showError(error) {
  $("error").hidden = false;
  $("error").textContent = String(error);
}

// The board a game is played on: the reference board whose areas are exactly the view's (the base
// board, or the Mother of Dragons board with the Eyrie and Bite overlays).
async function boardOf(view) {
  const wanted = Object.keys(view.areas).sort().join(" ");
  for (const name of BOARDS) {
    const board = await getJson(`/v1/reference/${name}`);
    if (board.areas.map((a) => a.id).sort().join(" ") === wanted) {
      document.body.dataset.board = name;
      return board;
    }
  }
  throw new Error("no reference board has this game's areas");
}

async function main() {
  $("game-id").textContent = gameId;
  const view = await getJson(`/v1/games/${gameId}`);
  if (!view.areas) throw new Error("this page draws the board game only");
  drawBoard(await boardOf(view));
  render(view);
  await loadLog();
  const at = Number(new URLSearchParams(location.search).get("at"));
  if (view.phase === "ended") await replay(view.version, at || view.version);
  else follow(view.version);
}

main().catch(showError);
