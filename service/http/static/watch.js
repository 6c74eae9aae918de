// Watch a game of Citadel: the board drawn from the reference data's layout points, the public
// view, the log; live over Server-Sent Events while the game runs, a replay scrubber once it has
// ended. Plain JavaScript, no build step, and only the public API (docs/watch-page.md).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const MAP_WIDTH = 560; // pixels for the board's width; the height follows the frame's ratio
const RADIUS = { land: 15, sea: 17, port: 7 };
const UNIT_LETTERS = { footman: "F", knight: "K", siege_engine: "S", ship: "Sh" };
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

function drawBoard(board) {
  const scale = MAP_WIDTH / board.frame.width;
  const map = $("map");
  map.setAttribute("viewBox", `0 0 ${MAP_WIDTH} ${Math.ceil(board.frame.height * scale)}`);
  map.setAttribute("width", MAP_WIDTH);
  map.setAttribute("height", Math.ceil(board.frame.height * scale));
  const at = Object.fromEntries(board.areas.map((a) => [a.id, [a.point.x * scale, a.point.y * scale]]));
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
  for (const a of board.areas) {
    const [x, y] = at[a.id];
    const r = RADIUS[a.kind];
    const g = svg("g", { id: `area-${a.id}`, class: `area kind-${a.kind}`, "data-area": a.id });
    g.append(svg("title", {}, a.name));
    g.append(a.kind === "port" ? svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r }) : svg("circle", { cx: x, cy: y, r }));
    if (a.castle !== "none") g.append(svg("circle", { cx: x - r, cy: y - r, r: a.castle === "stronghold" ? 4 : 3, class: `castle ${a.castle}` }));
    if (a.kind !== "port") g.append(svg("text", { x, y: y + r + 9, class: "label" }, a.name));
    g.append(svg("text", { x, y: y + 3, class: "units" }, ""));
    g.append(svg("text", { x, y: y - r - 3, class: "order" }, ""));
    g.append(svg("text", { x: x + r + 2, y: y + 3, class: "extra" }, ""));
    state.nodes[a.id] = g;
    map.append(g);
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

async function main() {
  $("game-id").textContent = gameId;
  const board = await getJson("/v1/reference/board");
  drawBoard(board);
  const view = await getJson(`/v1/games/${gameId}`);
  if (!view.areas) throw new Error("this page draws the board game only");
  render(view);
  await loadLog();
  const at = Number(new URLSearchParams(location.search).get("at"));
  if (view.phase === "ended") await replay(view.version, at || view.version);
  else follow(view.version);
}

main().catch(showError);
