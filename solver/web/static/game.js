// meldsat's game screen: a whole game against the server's bots (the /api/games endpoints).
// It reuses app.js's helpers by name (api, enableDragging, cardsRow, paragraph, heading, tag, isJoker, pretty)
// and draws every card with the server's own SVG (/api/cards), as the rest of the page does.
"use strict";

const game = {
  catalogue: [], // the rule sets a game is played under, with their players and bots
  id: null,
  view: null,
  cards: {}, // notation -> {label, svg} for the game's rule set
  melds: [], // the table as the person arranges it (meld step)
  hand: [],
  chosen: null, // {from: "hand" | meld index, index}
  moved: false,
  queue: [], // events waiting to be shown, one after another
  busy: false,
  hint: null,
  shown: 0, // events shown so far (tests wait on it)
};
const EVENT_DELAY_MS = 450;

async function gameCall(method, path, body) {
  // Like app.js's api(), but the error's reasons are kept (an illegal move lists every one).
  const options = { method };
  if (body !== undefined) {
    options.headers = { "Content-Type": "application/json" };
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  return { ok: response.ok, status: response.status, data: await response.json() };
}

// --- drawing ---------------------------------------------------------------------------------------

function gameSvg(piece) {
  if (game.cards[piece]) return game.cards[piece].svg;
  const joker = game.cards["*"] || game.cards.j;
  return isJoker(piece) && joker ? joker.svg : "";
}

function gameLabel(piece) {
  const [mark, declared] = piece.split("=");
  if (declared !== undefined) return `joker as ${gameLabel(declared)}`;
  return game.cards[mark] ? game.cards[mark].label : piece;
}

function cardsText(pieces) {
  return pieces.map((piece) => pretty(piece)).join(" ");
}

function seatName(seat) {
  return seat === 0 ? "You" : `${game.view.seats[seat]} (seat ${seat})`;
}

function gameCard(piece, where, index, movable) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "gcard";
  button.dataset.card = piece;
  button.dataset.from = String(where);
  button.dataset.index = String(index);
  const chosen = game.chosen && game.chosen.from === String(where) && game.chosen.index === index;
  button.setAttribute("aria-pressed", chosen ? "true" : "false");
  button.setAttribute("aria-label", `${gameLabel(piece)}${movable ? ": choose" : ""}`);
  button.disabled = !movable;
  button.innerHTML = gameSvg(piece);
  if ((game.view.drawn || []).includes(piece) && where === "hand") button.classList.add("drawn");
  return button;
}

function gameRow(pieces, where, movable) {
  const row = document.createElement("div");
  row.className = "cards";
  pieces.forEach((piece, index) => row.append(gameCard(piece, where, index, movable)));
  return row;
}

function dropBox(where, label, pieces, movable) {
  const box = document.createElement("div");
  box.className = "meld-box gdrop";
  box.dataset.meld = String(where);
  if (game.view.step === "meld") {
    box.tabIndex = 0;
    box.setAttribute("role", "button");
    box.setAttribute("aria-label", label);
  }
  box.append(gameRow(pieces, where, movable));
  return box;
}

// --- choosing a game -------------------------------------------------------------------------------

async function loadGames() {
  game.catalogue = (await api("/api/games")).games;
  const select = $("game-rules");
  select.innerHTML = "";
  for (const entry of game.catalogue) select.add(new Option(entry.rules, entry.rules));
  fillGameChoices();
}

function chosenEntry() {
  return game.catalogue.find((entry) => entry.rules === $("game-rules").value);
}

function fillGameChoices() {
  const entry = chosenEntry();
  const players = $("game-players");
  players.innerHTML = "";
  for (let count = entry.min_players; count <= entry.max_players; count++) {
    players.add(new Option(String(count), String(count)));
  }
  players.value = String(entry.players);
  const bots = $("game-bots");
  bots.innerHTML = "";
  for (const bot of entry.bots) {
    const option = new Option(bot.name, bot.name);
    option.title = bot.description;
    bots.add(option);
  }
  $("game-bot-about").textContent = entry.bots.length ? entry.bots[0].description : "";
}

async function startGame() {
  const rules = $("game-rules").value;
  const body = { rules, players: Number($("game-players").value), bots: $("game-bots").value };
  const seed = $("game-seed").value.trim();
  if (seed) body.seed = Number(seed);
  const target = $("game-target").value.trim();
  if (target) body.house = { game_target: Number(target) }; // a shorter game: a house rule
  setGameStatus("Dealing…");
  const cards = (await api(`/api/cards?rules=${encodeURIComponent(rules)}`)).cards;
  game.cards = {};
  for (const card of cards) game.cards[card.text] = { label: card.label, svg: card.svg };
  const answer = await gameCall("POST", "/api/games", body);
  if (!answer.ok) {
    setGameStatus(answer.data.error.message, "bad");
    return;
  }
  game.id = answer.data.id;
  game.view = answer.data.view;
  game.shown = 0;
  $("game-events").innerHTML = "";
  $("game-board").hidden = false;
  $("game-log").hidden = true;
  $("game-setup").open = false;
  showEvents(answer.data.events, answer.data.view);
}

// --- the bots' turns, one after another ---------------------------------------------------------------

function eventText(event) {
  if (event.event === "deal") {
    const upcard = event.upcard ? `, the upcard is ${pretty(event.upcard)}` : "";
    return `Round ${event.round}: ${seatName(event.dealer)} deals${upcard}.`;
  }
  if (event.event === "turn") return turnText(event);
  if (event.event === "round_end") {
    const scores = event.scores.map((score, seat) => `${seatName(seat)} ${score}`).join(", ");
    const how = event.ends ? ` (${event.ends.replace(/_/g, " ")})` : "";
    return `Round ${event.round} over${how}: ${scores}.`;
  }
  return `Game over: ${winnersWin(event.winners)} with ${Math.max(...event.totals)}.`;
}

// "You win", "knocker (seat 1) wins", "You and greedy-points (seat 2) win".
function winnersWin(winners) {
  const verb = winners.length === 1 && winners[0] !== 0 ? "wins" : "win";
  return `${winners.map(seatName).join(" and ")} ${verb}`;
}

function turnText(event) {
  const parts = [];
  if (event.source !== undefined) {
    if (event.source === "upcard") parts.push(`took the upcard ${pretty(event.drawn)}`);
    else parts.push(event.drawn ? `drew ${pretty(event.drawn)} from the stock` : "drew from the stock");
    parts.push(event.discard ? `discarded ${pretty(event.discard)}` : "big gin");
    if (event.knock && event.discard) parts.push("knocked");
    return `${seatName(event.seat)}: ${parts.join(", ")}.`;
  }
  if (event.draws) {
    parts.push(event.drawn ? `drew ${cardsText(event.drawn)}` : `drew ${event.draws}`);
  } else {
    parts.push("no draw");
  }
  if (event.played && event.played.length) parts.push(`played ${cardsText(event.played)}`);
  if (event.discard) parts.push(`discarded ${pretty(event.discard)}`);
  if (event.knock) parts.push("knocked");
  if (event.ends === "out") parts.push("went out");
  return `${seatName(event.seat)}: ${parts.join(", ")}.`;
}

function showEvents(events, view) {
  game.queue.push(...events);
  game.pendingView = view;
  game.busy = true;
  renderGame();
  drainEvents();
}

function drainEvents() {
  if (!game.queue.length) {
    game.busy = false;
    game.view = game.pendingView;
    renderGame();
    return;
  }
  const event = game.queue.shift();
  const item = document.createElement("li");
  item.dataset.event = event.event;
  item.className = event.seat === 0 ? "mine" : "";
  item.textContent = eventText(event);
  if (event.event === "turn" && event.played && event.played.length) {
    item.append(cardsRowOf(event.played)); // the cards it played (the board shows the table)
  }
  if (event.event === "turn" && event.table_after && game.view.table !== undefined) {
    game.melds = event.table_after.map((meld) => meld.slice()); // the table as this turn left it
    redrawCards();
  }
  const list = $("game-events");
  list.append(item);
  while (list.children.length > 80) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight; // the list scrolls, not the page
  game.shown += 1;
  // A bot's turn is shown before the next one; the person's own turns need no pause.
  const delay = Number(document.body.dataset.eventDelay || EVENT_DELAY_MS);
  setTimeout(drainEvents, event.event === "turn" && event.seat !== 0 ? delay : 0);
}

function cardsRowOf(pieces) {
  return cardsRow(pieces.map(gameSvg), "small");
}

// --- the board -------------------------------------------------------------------------------------

function setGameStatus(text, className) {
  const status = $("game-status");
  status.textContent = text;
  status.className = className || "";
}

function stepWords(view) {
  const drew = view.drawn && view.drawn.length ? `You drew ${cardsText(view.drawn)}. ` : "";
  switch (view.step) {
    case "meld":
      return `${drew}Move cards from your hand onto the table (or rearrange it), then meld; or meld nothing.`;
    case "knock":
      return `Your hand counts ${view.hand_points}: knock to end the round?`;
    case "discard":
      return "Choose the card to discard.";
    case "draw":
      return `Take the upcard ${pretty(view.upcard)} or draw from the stock.`;
    case "finish":
      return `${view.took_upcard ? "You took" : "You drew"} ${cardsText(view.drawn)}. Choose the card to discard (knock if your deadwood is ${view.knock_limit} or less).`;
    default:
      return "";
  }
}

function renderGame() {
  const view = game.view;
  if (!view) return;
  game.melds = (view.table || []).map((meld) => meld.slice());
  game.hand = (view.hand || []).slice();
  game.chosen = null;
  game.moved = false;
  game.hint = null;
  $("game-hint-box").innerHTML = "";
  $("game-reasons").innerHTML = "";
  if (view.over) {
    const final = view.result;
    setGameStatus(`The game is over: ${winnersWin(final.winners)} with ${Math.max(...final.totals)} points.`, "good");
  } else if (game.busy) {
    setGameStatus("The bots are playing…");
  } else {
    setGameStatus(stepWords(view));
  }
  const others = view.seats.slice(1).map((name, k) =>
    `${name} (seat ${k + 1}): ${view.hand_sizes ? view.hand_sizes[k + 1] : "?"} cards`);
  const stock = view.stock_left === undefined ? "" : ` · stock: ${view.stock_left}`;
  $("game-others").textContent = `Round ${view.round}${stock} · ${others.join(" · ")}`;
  renderSheet(view);
  renderCards();
  renderActions();
  document.body.dataset.gameStep = game.busy ? "busy" : (view.over ? "over" : view.step);
}

function renderCards() {
  const view = game.view;
  const movable = !game.busy && !view.over;
  const meldStep = view.step === "meld" && movable;
  const tableBox = $("game-table");
  tableBox.innerHTML = "";
  tableBox.hidden = view.table === undefined;
  if (view.table !== undefined) {
    tableBox.append(heading("Table"));
    game.melds.forEach((meld, index) =>
      tableBox.append(dropBox(index, `meld ${index + 1}: move the chosen card here`, meld, meldStep)));
    if (meldStep) {
      const fresh = document.createElement("div");
      fresh.className = "meld-box gdrop new-drop";
      fresh.dataset.meld = "new";
      fresh.tabIndex = 0;
      fresh.setAttribute("role", "button");
      fresh.setAttribute("aria-label", "New meld: move the chosen card here");
      fresh.textContent = "+ new meld here";
      tableBox.append(fresh);
    }
  }
  const upcard = $("game-upcard");
  upcard.innerHTML = "";
  upcard.hidden = !view.upcard;
  if (view.upcard) {
    upcard.append(paragraph("Upcard", "label"));
    upcard.append(cardsRowOf([view.upcard]));
  }
  const handBox = $("game-hand");
  handBox.innerHTML = "";
  const points = view.hand_points !== undefined && !game.moved ? ` (${view.hand_points} points)` : "";
  handBox.append(heading(`Your hand${points}`));
  const choosing = movable && ["meld", "discard", "finish"].includes(view.step);
  handBox.append(dropBox("hand", "your hand: move the chosen card back here", game.hand, choosing));
}

function actionButton(text, id, handler, primary) {
  const button = document.createElement("button");
  button.type = "button";
  button.id = id;
  button.textContent = text;
  if (primary) button.className = "primary";
  button.addEventListener("click", handler);
  return button;
}

function renderActions() {
  const view = game.view;
  const box = $("game-actions");
  box.innerHTML = "";
  $("game-log").hidden = !view.over;
  if (view.over) {
    $("game-log").href = `/api/games/${game.id}/log`;
    $("game-setup").open = true; // the next game is one click away
    return;
  }
  if (game.busy) return;
  const buttons = {
    meld: () => [
      actionButton("Meld", "game-meld", meldNow, true),
      actionButton(view.draws && view.rules.startsWith("manipulation") ? "No meld: draw on" : "No meld", "game-pass",
        () => send({ table: null })),
      actionButton("Start again", "game-reset", renderGame),
    ],
    knock: () => [
      actionButton("Knock", "game-knock", () => send({ knock: true }), true),
      actionButton("Don't knock", "game-no-knock", () => send({ knock: false })),
    ],
    discard: () => [actionButton("Discard the chosen card", "game-discard", () => discardChosen(false), true)],
    draw: () => [
      actionButton("Take the upcard", "game-upcard-take", () => send({ source: "upcard" }), true),
      actionButton("Draw from the stock", "game-stock", () => send({ source: "stock" })),
    ],
    finish: () => [
      actionButton("Discard", "game-discard", () => discardChosen(false), true),
      actionButton("Discard and knock", "game-discard-knock", () => discardChosen(true)),
      actionButton("Big gin", "game-big-gin", () => send({ discard: null, knock: true })),
    ],
  }[view.step]();
  box.append(...buttons, actionButton("Hint", "game-hint", showGameHint));
}

function renderSheet(view) {
  const table = $("game-sheet");
  table.innerHTML = "";
  const head = table.createTHead().insertRow();
  for (const title of ["Round", ...view.seats.map((name, seat) => (seat === 0 ? "You" : `${seat}: ${name}`))]) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = title;
    head.append(cell);
  }
  const body = table.createTBody();
  for (const round of view.rounds) {
    const row = body.insertRow();
    row.insertCell().textContent = String(round.round);
    round.scores.forEach((score, seat) => {
      const cell = row.insertCell();
      cell.textContent = String(score);
      if (round.winners.includes(seat)) cell.className = "won";
    });
  }
  const tfoot = table.createTFoot();
  const final = view.result;
  // The end bonuses (Manipulation's for rounds won; gin's game, line and shutout bonuses) come
  // only with the result: the rounds' points and what the bonuses added are shown above the
  // final totals, so that the sheet adds up. Gin's end record has no bonuses of its own: they
  // are what the final totals add to the hands' points.
  const bonuses = !final ? [] : final.bonuses ?? final.totals.map((total, seat) => total - view.totals[seat]);
  if (bonuses.some((added) => added !== 0)) {
    footRow(tfoot, "Rounds", view.totals);
    footRow(tfoot, "Bonuses", bonuses).dataset.row = "bonuses";
  }
  const foot = footRow(tfoot, final ? "Final" : "Total", final ? final.totals : view.totals);
  if (final) {
    final.winners.forEach((seat) => { foot.cells[seat + 1].className = "won"; });
  }
}

function footRow(tfoot, title, numbers) {
  const row = tfoot.insertRow();
  row.insertCell().textContent = title;
  for (const number of numbers) row.insertCell().textContent = String(number);
  return row;
}

// --- moving cards (the meld step), choosing a discard -----------------------------------------------

function chooseCard(button) {
  game.chosen = { from: button.dataset.from, index: Number(button.dataset.index) };
  redrawCards();
  const again = document.querySelector(
    `#game-panel button.gcard[data-from="${game.chosen.from}"][data-index="${game.chosen.index}"]`);
  if (again) again.focus();
}

function redrawCards() {
  // Keep the arrangement: only the cards are drawn again, not the whole view.
  const melds = game.melds;
  const hand = game.hand;
  const chosen = game.chosen;
  const moved = game.moved;
  renderCards();
  game.melds = melds;
  game.hand = hand;
  game.chosen = chosen;
  game.moved = moved;
}

function moveGameCard(from, index, to) {
  if (!movePiece(game, from, index, to)) return;
  $("game-reasons").innerHTML = "";
  redrawCards();
}

function gameDropTarget(element) {
  const box = element ? element.closest("#game-panel .gdrop") : null;
  return box && game.view && game.view.step === "meld" ? box.dataset.meld : null;
}

function setUpGameMoves() {
  const panel = $("game-cards");
  const canDrag = (button) => !button.disabled && game.view.step === "meld";
  enableDragging(panel, "button.gcard", "gcard ghost", canDrag, (button, under) => {
    const to = gameDropTarget(under);
    if (to !== null) moveGameCard(button.dataset.from, Number(button.dataset.index), to);
  });
  panel.addEventListener("click", (event) => {
    if (panel.dataset.dragged) { delete panel.dataset.dragged; return; }
    const button = event.target.closest("button.gcard");
    if (button && !button.disabled) {
      if (game.chosen && game.view.step === "meld" && button.dataset.from !== game.chosen.from) {
        moveGameCard(game.chosen.from, game.chosen.index, button.dataset.from); // onto its meld
      } else {
        chooseCard(button);
      }
      return;
    }
    const to = gameDropTarget(event.target);
    if (to !== null && game.chosen) moveGameCard(game.chosen.from, game.chosen.index, to);
  });
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const to = event.target.classList.contains("gdrop") ? gameDropTarget(event.target) : null;
    if (to !== null && game.chosen) {
      event.preventDefault();
      moveGameCard(game.chosen.from, game.chosen.index, to);
    }
  });
}

// --- sending a decision ------------------------------------------------------------------------------

async function meldNow() {
  const view = game.view;
  if (!game.moved) {
    showReasons("Move cards onto the table first (or choose No meld).", []);
    return;
  }
  // The move is checked before it is sent: the same rule checker the game uses.
  const body = { rules: view.rules, players: view.players, table: view.table, hand: view.hand, after: game.melds };
  if (view.draws) body.draws = view.draws;
  const checked = await gameCall("POST", "/api/check", body);
  if (!checked.ok) {
    showReasons(checked.data.error.message, []);
    return;
  }
  if (!checked.data.legal) {
    showReasons(`Not a legal move (${checked.data.reasons.length} reason${checked.data.reasons.length === 1 ? "" : "s"}):`, checked.data.reasons);
    return;
  }
  send({ table: game.melds });
}

function discardChosen(knock) {
  if (!game.chosen || game.chosen.from !== "hand") {
    showReasons("Choose a card of your hand first.", []);
    return;
  }
  const card = game.hand[game.chosen.index];
  send(game.view.step === "finish" ? { discard: card, knock } : { discard: card });
}

function showReasons(message, reasons) {
  const box = $("game-reasons");
  box.innerHTML = "";
  box.append(paragraph(message, "bad"));
  if (!reasons.length) return;
  const list = document.createElement("ul");
  for (const reason of reasons) {
    const item = document.createElement("li");
    item.dataset.code = reason.code;
    item.textContent = `${reason.code}: ${pretty(reason.message)}`;
    list.append(item);
  }
  box.append(list);
}

async function send(decision) {
  if (game.busy) return;
  game.busy = true;
  setGameStatus(decision.hint ? "Playing the hint…" : "Sending…");
  const answer = await gameCall("POST", `/api/games/${game.id}/turn`, decision);
  game.busy = false;
  if (!answer.ok) {
    const error = answer.data.error;
    const count = (error.reasons || []).length;
    showReasons(count ? `Not allowed (${count} reason${count === 1 ? "" : "s"}):` : error.message, error.reasons || []);
    setGameStatus(stepWords(game.view));
    return;
  }
  showEvents(answer.data.events, answer.data.view);
}

async function showGameHint() {
  const box = $("game-hint-box");
  box.innerHTML = "";
  box.append(paragraph("Thinking…"));
  const answer = await gameCall("GET", `/api/games/${game.id}/hint`);
  box.innerHTML = "";
  if (!answer.ok) {
    box.append(paragraph(answer.data.error.message, "bad"));
    return;
  }
  const hint = answer.data.hint;
  box.append(paragraph(`Hint: ${pretty(hint.summary)}${hint.proven ? "" : " (the time ran out before the proof)"}`, "summary"));
  if (hint.steps.length) {
    const list = document.createElement("ol");
    list.id = "game-hint-steps";
    for (const step of hint.steps) {
      const item = document.createElement("li");
      item.textContent = pretty(step);
      list.append(item);
    }
    box.append(list);
  }
  if (hint.decision.table) {
    box.append(paragraph("The table after it:", "label"));
    const melds = document.createElement("div");
    melds.className = "hint-table";
    for (const meld of hint.decision.table) melds.append(cardsRowOf(meld));
    box.append(melds);
  }
  box.append(actionButton("Play it", "game-play-hint", () => send({ hint: true }), true));
}

// --- the mode on the page ----------------------------------------------------------------------------

// Registered with app.js like the gin and puzzle screens: app.js shows its tab and panel, hides the
// shared table's settings and position, and keeps "#mode=game" in the address.
addMode("game", {
  tab: "mode-game",
  panel: "game-panel",
  url: () => new URLSearchParams({ mode: "game" }),
  enter() {},
});

async function startGameScreen() {
  await loadGames();
  $("game-rules").addEventListener("change", fillGameChoices);
  $("game-bots").addEventListener("change", () => {
    const bot = chosenEntry().bots.find((entry) => entry.name === $("game-bots").value);
    $("game-bot-about").textContent = bot ? bot.description : "";
  });
  $("game-start").addEventListener("click", () => startGame().catch((error) => setGameStatus(error.message, "bad")));
  setUpGameMoves();
  document.body.dataset.gameReady = "1";
}

startGameScreen().catch((error) => setGameStatus("The game screen could not start: " + error.message, "bad"));
