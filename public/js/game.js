// game.js: the game page (/play/{id}). The server holds the game, the rules
// and the clocks; this module draws what the JSON API says and sends the
// player's actions back with the ply it saw (H1). Moving: click or tap a
// piece then a marked square, drag and drop, arrow keys + Enter, or a typed
// move (G3). Dialogs and the pass screen pause the clocks (G11).

import { announce, pieceSVG, refreshLabel } from "./board.js";

const root = document.querySelector("[data-game]");
if (root) start(root);

function start(root) {
  const id = root.getAttribute("data-game");
  const api = `/api/games/${id}`;
  const boardEl = root.querySelector("[data-board]");
  const statusEl = root.querySelector("[data-status]");
  const notesEl = root.querySelector("[data-notes]");
  const moveListEl = root.querySelector("[data-movelist]");
  const passEl = root.querySelector("[data-pass-screen]");
  const promoEl = root.querySelector("[data-promotion]");
  const endEl = root.querySelector("[data-end-banner]");
  const reviewEl = root.querySelector("[data-review]");
  const sanForm = root.querySelector("[data-san-form]");
  const sanError = root.querySelector("[data-san-error]");
  const moreBtn = root.querySelector('[data-action="more"]');
  const moreMenu = root.querySelector(".more-menu");
  const turnBoardBox = root.querySelector('[data-option="turn-board"]');
  const drawDialog = root.querySelector('[data-dialog="draw"]');
  const resignDialog = root.querySelector('[data-dialog="resign"]');
  const clocks = {
    white: root.querySelector('[data-clock="white"]'),
    black: root.querySelector('[data-clock="black"]'),
  };
  const rows = {
    top: root.querySelector('[data-player="top"]'),
    bottom: root.querySelector('[data-player="bottom"]'),
  };

  let state = null;
  let receivedAt = 0; // performance.now() when state arrived
  let selected = null;
  let flipped = false; // the Flip button, on top of the automatic orientation
  let turnBoard = false;
  let passVisible = false;
  let promotion = null; // {from, to} while the picker shows
  let review = null; // ply shown while reviewing a finished game
  let busy = false;
  let flagSent = false;
  let suppressClick = false;
  let message = "";
  let chain = Promise.resolve();

  boardEl.classList.add("board-interactive", "game-board");

  // ---------- talking to the server ----------

  // Requests run one after another, so each carries the ply of the state
  // the previous one left behind.
  function enqueue(fn) {
    chain = chain.then(fn, fn);
    return chain;
  }

  async function call(method, path, body) {
    const res = await fetch(api + path, {
      method,
      headers: body ? { "Content-Type": "application/json", Accept: "application/json" } : { Accept: "application/json" },
      credentials: "same-origin",
      body: body ? JSON.stringify(body) : undefined,
    });
    let data = null;
    try { data = await res.json(); } catch { data = null; }
    if (!res.ok) {
      const err = new Error((data && data.error) || `The server answered ${res.status}. Please try again.`);
      err.status = res.status;
      throw err;
    }
    return data;
  }

  // act posts an action with the current ply and shows the new state. On a
  // refusal it shows the server's sentence and reloads the true state.
  function act(path, extra = {}) {
    return enqueue(async () => {
      if (!state) return null;
      busy = true;
      try {
        const s = await call("POST", path, { ply: state.ply, ...extra });
        show(s);
        return s;
      } catch (err) {
        message = err.message;
        await reload();
        return null;
      } finally {
        busy = false;
        paint();
      }
    });
  }

  async function reload() {
    try {
      show(await call("GET", ""));
    } catch (err) {
      statusEl.textContent = err.message;
    }
  }

  // ---------- state ----------

  function show(s) {
    const plyChanged = !state || state.ply !== s.ply || state.status !== s.status;
    state = s;
    receivedAt = performance.now();
    if (s.message) message = s.message;
    if (plyChanged) {
      selected = null;
      flagSent = false;
    }
    if (s.status !== "active") {
      passVisible = false;
      closeDialogs();
    }
    paint();
    syncPause();
    if (s.status === "active" && s.waiting && !busy) askReply();
  }

  function askReply() {
    enqueue(async () => {
      if (!state || !state.waiting || state.status !== "active") return;
      busy = true;
      paint();
      try {
        show(await call("POST", "/reply", { ply: state.ply }));
      } catch (err) {
        message = err.message;
        await reload();
      } finally {
        busy = false;
        paint();
      }
    });
  }

  const colorName = (c) => (c === "white" ? "White" : "Black");
  const other = (c) => (c === "white" ? "black" : "white");
  const active = () => state && state.status === "active";
  const isComputer = () => state && state.mode === "computer";

  function bottomColor() {
    if (!state) return "white";
    let c = "white";
    if (isComputer()) c = state.human_color;
    else if (turnBoard) c = state.turn;
    return flipped ? other(c) : c;
  }

  function shouldPause() {
    return passVisible || promotion !== null || drawDialog.open || resignDialog.open || document.hidden;
  }

  // syncPause asks the server to stop or restart the clock so that the
  // stored times match what the screen shows (G11).
  function syncPause() {
    if (!active() || !state.clock) return;
    const pause = shouldPause();
    if (pause && state.running) {
      enqueue(async () => {
        if (!active() || !state.running || !shouldPause()) return;
        try { show(await call("POST", "/pause", { ply: state.ply })); } catch { await reload(); }
      });
    } else if (!pause && !state.running && !(isComputer() && state.waiting)) {
      enqueue(async () => {
        if (!active() || state.running || shouldPause()) return;
        try { show(await call("POST", "/resume", { ply: state.ply })); } catch { await reload(); }
      });
    }
  }

  // ---------- drawing ----------

  function placement(fen) {
    const map = {};
    fen.split(" ")[0].split("/").forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (ch >= "1" && ch <= "8") { file += Number(ch); continue; }
        map["abcdefgh"[file] + (8 - i)] = (ch === ch.toUpperCase() ? "w" : "b") + ch.toUpperCase();
        file++;
      }
    });
    return map;
  }

  function legalFrom() {
    const out = {};
    if (!state || !canMove()) return out;
    for (const u of state.legal) {
      const from = u.slice(0, 2);
      (out[from] = out[from] || []).push(u);
    }
    return out;
  }

  function canMove() {
    return active() && !state.waiting && !busy && !passVisible && review === null && promotion === null;
  }

  // drawBoard shows a position with the H2 classes (selected, dest, check,
  // last-move). The 64 squares are built once per orientation, in reading
  // order, and afterwards only changed where something differs, so focus
  // and element identity survive updates.
  let drawnLastMove = "";
  function drawBoard(fen, lastMove, check) {
    const pieces = placement(fen);
    const arrived = [];
    const bottom = bottomColor();
    const moves = legalFrom();
    const dests = new Set((selected && moves[selected] ? moves[selected] : []).map((u) => u.slice(2, 4)));
    const fresh = boardEl.getAttribute("data-built") !== bottom;
    if (fresh) buildSquares(bottom);
    for (const el of boardEl.querySelectorAll("[data-square]")) {
      const name = el.getAttribute("data-square");
      const piece = pieces[name] || "";
      const want = {
        occupied: Boolean(piece),
        selected: name === selected,
        dest: dests.has(name),
        "last-move": Boolean(lastMove) && (lastMove.slice(0, 2) === name || lastMove.slice(2, 4) === name),
        check: check === name,
      };
      let changed = false;
      for (const [cls, on] of Object.entries(want)) {
        if (el.classList.contains(cls) !== on) {
          el.classList.toggle(cls, on);
          changed = true;
        }
      }
      const old = el.querySelector("[data-piece]");
      if ((old ? old.getAttribute("data-piece") : "") !== piece || (old && old.classList.contains("dragging"))) {
        if (old) old.remove();
        if (piece) el.appendChild(pieceSVG(piece));
        if (piece) arrived.push(name);
        changed = true;
      }
      if (changed || fresh) refreshLabel(el); // new squares need a label even when empty
    }
    // A new last move whose piece has just been put on its square slides
    // in (the computer's reply, a replayed move); a move shown already by
    // previewMove, or an undo, changes nothing there and does not slide.
    if (!fresh && lastMove && lastMove !== drawnLastMove && arrived.includes(lastMove.slice(2, 4)) && !pieces[lastMove.slice(0, 2)]) {
      slide(lastMove.slice(0, 2), lastMove.slice(2, 4));
    }
    drawnLastMove = lastMove || "";
    draggedMove = "";
    boardEl.setAttribute("data-fen", fen);
    boardEl.setAttribute("data-orientation", bottom);
    const turn = fen.split(" ")[1] === "b" ? "Black" : "White";
    boardEl.setAttribute("aria-label", `Chess board, ${colorName(bottom)} at the bottom, ${turn} to move`);
  }

  function buildSquares(bottom) {
    const focused = document.activeElement && boardEl.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-square") : null;
    const frag = document.createDocumentFragment();
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const file = bottom === "white" ? col : 7 - col;
        const rank = bottom === "white" ? 7 - row : row;
        const name = "abcdefgh"[file] + (rank + 1);
        const el = document.createElement("button");
        el.type = "button";
        el.className = "square " + ((file + rank) % 2 === 1 ? "light" : "dark");
        el.setAttribute("data-square", name);
        el.tabIndex = -1;
        if (col === 0) el.insertAdjacentHTML("beforeend", `<span class="coord coord-rank" data-coord="${rank + 1}" aria-hidden="true"></span>`);
        if (row === 7) el.insertAdjacentHTML("beforeend", `<span class="coord coord-file" data-coord="${"abcdefgh"[file]}" aria-hidden="true"></span>`);
        frag.appendChild(el);
      }
    }
    boardEl.querySelectorAll("[data-square]").forEach((el) => el.remove());
    boardEl.prepend(frag);
    boardEl.setAttribute("data-built", bottom);
    const first = boardEl.querySelector(`[data-square="${focused || (bottom === "white" ? "e2" : "e7")}"]`);
    first.tabIndex = 0;
    if (focused) first.focus();
  }

  function paint() {
    if (!state) return;
    if (review !== null) {
      const fens = state.positions || [];
      const i = Math.min(review, fens.length - 1);
      drawBoard(fens[i], i > 0 ? state.uci[i - 1] : "", "");
    } else {
      drawBoard(state.fen, state.last_move, state.check);
    }
    paintPlayers();
    paintClocks();
    paintStatus();
    paintMoveList();
    paintControls();
  }

  function paintPlayers() {
    const bottom = bottomColor();
    const name = (c) => {
      if (isComputer()) return c === state.human_color ? `You (${c})` : `Computer, level ${state.level} (${c})`;
      return colorName(c);
    };
    for (const [where, c] of [["top", other(bottom)], ["bottom", bottom]]) {
      rows[where].querySelector(".game-player-name").textContent = name(c);
      rows[where].appendChild(clocks[c]);
      rows[where].classList.toggle("to-move", active() && state.turn === c);
    }
  }

  function clockText(ms) {
    ms = Math.max(0, ms);
    if (ms < 10000) {
      const tenths = Math.floor(ms / 100);
      return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
    }
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = String(s % 60).padStart(2, "0");
    return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
  }

  function currentMS(c) {
    let ms = state.clocks[c];
    if (state.running === c) ms -= performance.now() - receivedAt;
    return Math.max(0, ms);
  }

  function paintClocks() {
    for (const c of ["white", "black"]) {
      const el = clocks[c];
      if (!state.clock) { el.hidden = true; continue; }
      el.hidden = false;
      const ms = currentMS(c);
      el.querySelector(".clock-time").textContent = clockText(ms);
      el.classList.toggle("running", state.running === c);
      const low = ms < 20000 || ms < state.clock.base_ms / 10;
      el.classList.toggle("low", low);
      el.setAttribute("aria-label", `${colorName(c)}'s clock: ${clockText(ms)}${low ? ", low time" : ""}${state.running === c ? ", running" : ""}`);
      if (state.running === c && ms <= 0 && !flagSent && active()) {
        flagSent = true;
        act("/flag");
      }
    }
  }

  function paintStatus() {
    let text;
    if (!active()) {
      text = `${state.reason}.`;
    } else if (state.waiting || (busy && isComputer())) {
      text = "The computer is thinking…";
    } else {
      const who = colorName(state.turn);
      if (isComputer()) text = state.turn === state.human_color ? "Your move." : "The computer's move.";
      else text = `${who} to move.`;
      if (state.check) text += isComputer() && state.turn === state.human_color ? " Your king is in check: move it, block the attack, or capture the attacker." : ` ${who}'s king is in check.`;
    }
    if (message) text += " " + message;
    statusEl.textContent = text;
    statusEl.classList.toggle("thinking", Boolean(active() && (state.waiting || busy) && isComputer()));
    notesEl.replaceChildren(...(state.notes || []).map((n) => {
      const li = document.createElement("li");
      li.textContent = n;
      return li;
    }));
    endEl.hidden = active() || review !== null;
    if (!active()) {
      endEl.querySelector(".end-result").textContent = state.result === "1/2-1/2" ? "½–½" : state.result;
      endEl.querySelector(".end-reason").textContent = `${state.reason}.`;
      endEl.querySelector(".end-cause").textContent = state.cause || "";
    }
    passEl.hidden = !passVisible;
    if (passVisible) {
      passEl.querySelector(".pass-screen-title").textContent = `${colorName(state.turn)} to move — tap to continue`;
    }
  }

  function paintMoveList() {
    const items = [];
    const sans = state.moves;
    const startBlack = state.start_fen.split(" ")[1] === "b";
    let number = Number(state.start_fen.split(" ")[5]) || 1;
    let i = 0;
    while (i < sans.length) {
      const li = document.createElement("li");
      const num = document.createElement("span");
      num.className = "move-number";
      li.appendChild(num);
      if (i === 0 && startBlack) {
        num.textContent = `${number}…`;
        li.append(" ", moveSpan(sans[0], 1));
        i = 1;
      } else {
        num.textContent = `${number}.`;
        li.append(" ", moveSpan(sans[i], i + 1));
        if (i + 1 < sans.length) li.append(" ", moveSpan(sans[i + 1], i + 2));
        i += 2;
      }
      number++;
      items.push(li);
    }
    moveListEl.replaceChildren(...items);
    // Keep the latest move in sight inside the list, never scrolling the page.
    moveListEl.scrollLeft = moveListEl.scrollWidth;
    moveListEl.scrollTop = moveListEl.scrollHeight;
  }

  function moveSpan(san, ply) {
    const s = document.createElement("span");
    s.className = "move";
    s.textContent = san;
    if ((review === null && ply === state.ply) || review === ply) s.classList.add("current");
    return s;
  }

  function paintControls() {
    const on = active();
    const q = (a) => root.querySelector(`[data-action="${a}"]`);
    const mineToUndo = isComputer() ? state.ply >= (state.human_color === "white" ? 1 : 2) : state.ply > 0;
    q("undo").hidden = !state.undo;
    q("undo").disabled = !on || !mineToUndo || busy;
    q("offer-draw").disabled = !on || busy || state.waiting;
    q("resign").disabled = !on || busy;
    sanForm.hidden = !on;
    reviewEl.hidden = review === null;
    if (review !== null) {
      reviewEl.querySelector(".review-where").textContent = review === 0 ? "Start position" : `After ${Math.ceil(review / 2)}${review % 2 ? "." : "…"} ${state.moves[review - 1]}`;
    }
    turnBoardBox.closest("label").hidden = isComputer();
    turnBoardBox.checked = turnBoard;
    if (on && !isComputer() && state.draw_offer && !drawDialog.open && !passVisible) openDraw();
  }

  // ---------- the clocks tick locally between answers ----------

  window.setInterval(() => {
    if (state && state.clock && state.running && active()) paintClocks();
  }, 100);

  // ---------- moving ----------

  function onSquareClick(name) {
    if (!canMove()) return;
    const moves = legalFrom();
    if (selected && selected !== name && (moves[selected] || []).some((u) => u.slice(2, 4) === name)) {
      tryMove(selected, name);
      return;
    }
    selected = selected === name || !moves[name] ? null : name;
    paint();
  }

  function tryMove(from, to) {
    const cands = (state.legal || []).filter((u) => u.slice(0, 4) === from + to);
    if (cands.length === 0) return;
    if (cands.some((u) => u.length === 5)) {
      openPromotion(from, to);
      return;
    }
    play({ move: cands[0] });
  }

  // play shows the move at once, then sends it; the answer (with the
  // computer's reply, if any) replaces the board.
  // spokenMove turns SAN into words for screen readers (N4):
  // "Nf3+" by white -> "White played knight to f3, check".
  const PIECE_WORDS = { N: "knight", B: "bishop", R: "rook", Q: "queen", K: "king" };
  function spokenMove(san, color) {
    const who = colorName(color);
    const end = san.endsWith("#") ? ", checkmate" : san.endsWith("+") ? ", check" : "";
    const core = san.replace(/[+#!?]+$/, "");
    if (core === "O-O") return `${who} castled king side${end}`;
    if (core === "O-O-O") return `${who} castled queen side${end}`;
    const m = core.match(/^([NBRQK])?([a-h]?[1-8]?)(x)?([a-h][1-8])(?:=([NBRQ]))?$/);
    if (!m) return `${who} played ${san}`;
    const piece = m[1] ? PIECE_WORDS[m[1]] : "pawn";
    const promo = m[5] ? ` and promoted to a ${PIECE_WORDS[m[5]]}` : "";
    return `${who} played ${piece} ${m[3] ? "takes on" : "to"} ${m[4]}${promo}${end}`;
  }

  function announceMoves(s, before, mover) {
    const fresh = (s.moves || []).slice(before);
    if (fresh.length === 0) return;
    const words = fresh.map((san, i) => spokenMove(san, i % 2 === 0 ? mover : other(mover)));
    announce(`${words.join(". ")}. ${statusEl.textContent}`);
  }

  function play(body) {
    const before = (state.moves || []).length;
    const mover = state.turn;
    const wasFriendPass = !isComputer() && state.pass_screen;
    if (body.move) previewMove(body.move);
    selected = null;
    message = "";
    act("/moves", body).then((s) => {
      if (s && wasFriendPass && s.status === "active") {
        passVisible = true;
        paint();
        passEl.querySelector("button").focus();
      }
      if (s) announceMoves(s, before, mover);
    });
  }

  // slide animates a piece that has just arrived on `to` from `from`
  // (about 150 ms, DESIGN.md); the CSS transition on .piece does the work
  // and prefers-reduced-motion turns it off. A dragged piece is already
  // where the pointer left it, so it does not slide.
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  let draggedMove = "";
  function slide(from, to) {
    if (reducedMotion.matches || draggedMove === from + to) return;
    const src = boardEl.querySelector(`[data-square="${from}"]`);
    const dst = boardEl.querySelector(`[data-square="${to}"]`);
    const piece = dst?.querySelector("[data-piece]");
    if (!src || !piece) return;
    const a = src.getBoundingClientRect(), b = dst.getBoundingClientRect();
    dst.classList.add("arriving");
    piece.style.transition = "none";
    piece.style.transform = `translate(${a.left - b.left}px, ${a.top - b.top}px)`;
    piece.getBoundingClientRect(); // apply the start position before the transition
    piece.style.transition = "";
    piece.style.transform = "";
    window.setTimeout(() => dst.classList.remove("arriving"), 200);
  }

  // previewMove moves the piece on the board before the server answers:
  // the rook follows a castling king, an en passant capture removes the
  // pawn, a promotion shows the new piece.
  function previewMove(uci) {
    const from = uci.slice(0, 2), to = uci.slice(2, 4);
    const sq = (n) => boardEl.querySelector(`[data-square="${n}"]`);
    const moving = sq(from)?.querySelector("[data-piece]");
    if (!moving) return;
    const code = moving.getAttribute("data-piece");
    const target = sq(to);
    target.querySelector("[data-piece]")?.remove();
    if (code[1] === "P" && from[0] !== to[0] && !target.classList.contains("occupied")) {
      sq(to[0] + from[1])?.querySelector("[data-piece]")?.remove();
    }
    if (code[1] === "K" && Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) === 2) {
      const rank = from[1];
      const [rf, rt] = to[0] === "g" ? ["h", "f"] : ["a", "d"];
      const rook = sq(rf + rank)?.querySelector("[data-piece]");
      if (rook) sq(rt + rank).appendChild(rook);
    }
    if (uci.length === 5) {
      moving.remove();
      target.appendChild(pieceSVG(code[0] + uci[4].toUpperCase()));
    } else {
      target.appendChild(moving);
    }
    boardEl.querySelectorAll(".dest, .selected").forEach((el) => el.classList.remove("dest", "selected"));
    slide(from, to);
  }

  boardEl.addEventListener("click", (event) => {
    const el = event.target.closest("[data-square]");
    if (!el) return;
    event.preventDefault();
    if (suppressClick) { suppressClick = false; return; }
    onSquareClick(el.getAttribute("data-square"));
  });

  // Drag and drop with pointer events (mouse, pen and touch alike).
  let drag = null;
  boardEl.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || !canMove()) return;
    const el = event.target.closest("[data-square]");
    if (!el) return;
    const name = el.getAttribute("data-square");
    if (!legalFrom()[name]) return;
    drag = { from: name, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  });
  boardEl.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      selected = drag.from;
      paint();
      const src = boardEl.querySelector(`[data-square="${drag.from}"]`);
      const piece = src.querySelector("[data-piece]");
      const size = src.getBoundingClientRect().width;
      drag.ghost = pieceSVG(piece.getAttribute("data-piece"));
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.style.width = drag.ghost.style.height = `${size}px`;
      document.body.appendChild(drag.ghost);
      piece.classList.add("dragging");
      try { boardEl.setPointerCapture(event.pointerId); } catch { /* the pointer is gone */ }
    }
    const w = drag.ghost.getBoundingClientRect().width;
    drag.ghost.style.left = `${event.clientX - w / 2}px`;
    drag.ghost.style.top = `${event.clientY - w / 2}px`;
    event.preventDefault();
  });
  const endDrag = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return;
    d.ghost.remove();
    suppressClick = true;
    window.setTimeout(() => { suppressClick = false; }, 0);
    const under = event.type === "pointerup" ? document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-square]") : null;
    const to = under && boardEl.contains(under) ? under.getAttribute("data-square") : null;
    if (to && to !== d.from && (legalFrom()[d.from] || []).some((u) => u.slice(2, 4) === to)) {
      draggedMove = d.from + to;
      tryMove(d.from, to);
    } else {
      selected = to === d.from ? d.from : null;
      paint();
    }
  };
  boardEl.addEventListener("pointerup", endDrag);
  boardEl.addEventListener("pointercancel", endDrag);

  // Arrow keys move the focus over the squares in screen directions; Enter
  // and Space press the focused square (native buttons).
  boardEl.addEventListener("keydown", (event) => {
    const el = event.target.closest("[data-square]");
    if (!el) return;
    const list = Array.from(boardEl.querySelectorAll("[data-square]"));
    const i = list.indexOf(el);
    const row = Math.floor(i / 8), col = i % 8;
    let next = -1;
    switch (event.key) {
      case "ArrowUp": next = row > 0 ? i - 8 : i; break;
      case "ArrowDown": next = row < 7 ? i + 8 : i; break;
      case "ArrowLeft": next = col > 0 ? i - 1 : i; break;
      case "ArrowRight": next = col < 7 ? i + 1 : i; break;
      case "Escape": selected = null; paint(); return;
      default: return;
    }
    event.preventDefault();
    list.forEach((s) => { s.tabIndex = -1; });
    list[next].tabIndex = 0;
    list[next].focus();
  });

  sanForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = sanForm.querySelector("input");
    const san = input.value.trim();
    sanError.textContent = "";
    if (!san || !canMove()) return;
    input.value = "";
    play({ san });
  });

  // ---------- promotion picker (G4) ----------

  function openPromotion(from, to) {
    promotion = { from, to };
    const color = state.turn === "white" ? "w" : "b";
    promoEl.querySelectorAll("[data-promote]").forEach((b) => {
      b.replaceChildren(pieceSVG(color + b.getAttribute("data-promote").toUpperCase()));
    });
    // A column over the promotion square, the queen nearest to it.
    const bottom = bottomColor();
    const file = to.charCodeAt(0) - 97;
    const col = bottom === "white" ? file : 7 - file;
    promoEl.style.setProperty("--col", col);
    const top = (to[1] === "8") === (bottom === "white");
    promoEl.classList.toggle("from-bottom", !top);
    promoEl.hidden = false;
    promoEl.querySelector('[data-promote="q"]').focus();
    syncPause();
  }

  function closePromotion() {
    promotion = null;
    promoEl.hidden = true;
    syncPause();
  }

  promoEl.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b || !promotion) return;
    const { from, to } = promotion;
    if (b.hasAttribute("data-promote")) {
      closePromotion();
      play({ move: from + to + b.getAttribute("data-promote") });
    } else if (b.getAttribute("data-action") === "cancel-promotion") {
      closePromotion();
      selected = null;
      paint(); // the pawn stays where it was: no move is made
      boardEl.querySelector(`[data-square="${from}"]`)?.focus();
    }
  });

  document.addEventListener("keydown", (event) => {
    if (!promotion) return;
    const k = event.key.toLowerCase();
    if (["q", "r", "b", "n"].includes(k)) {
      event.preventDefault();
      promoEl.querySelector(`[data-promote="${k}"]`).click();
    } else if (k === "escape") {
      event.preventDefault();
      promoEl.querySelector('[data-action="cancel-promotion"]').click();
    } else if (k === "tab") {
      trapFocus(promoEl, event);
    }
  });

  function trapFocus(container, event) {
    const items = Array.from(container.querySelectorAll("button:not([hidden])"));
    const i = items.indexOf(document.activeElement);
    event.preventDefault();
    const next = event.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
    items[next].focus();
  }

  // ---------- pass screen (G12) ----------

  passEl.addEventListener("click", () => {
    passVisible = false;
    paint();
    syncPause();
    const first = boardEl.querySelector('[tabindex="0"]');
    if (first) first.focus();
  });

  // ---------- dialogs (G8, G9) ----------

  function openDialog(d) {
    if (!d.open) d.showModal();
    syncPause();
  }
  function closeDialogs() {
    for (const d of [drawDialog, resignDialog]) if (d.open) d.close();
  }
  for (const d of [drawDialog, resignDialog]) {
    d.addEventListener("close", () => syncPause());
  }

  function openDraw() {
    const by = colorName(state.draw_offer);
    const to = colorName(other(state.draw_offer));
    drawDialog.querySelector(".dialog-text").textContent = `${by} offers a draw. ${to}, do you accept? If you do, the game ends as a draw. If not, play goes on.`;
    openDialog(drawDialog);
    drawDialog.querySelector('[data-action="decline-draw"]').focus();
  }

  drawDialog.addEventListener("cancel", (event) => {
    event.preventDefault(); // the offer needs an answer
  });

  root.addEventListener("click", (event) => {
    const b = event.target.closest("[data-action]");
    if (!b || b.closest("[data-promotion]")) return;
    switch (b.getAttribute("data-action")) {
      case "undo":
        message = "";
        act("/undo").then((s) => {
          if (s && !isComputer() && s.pass_screen && s.status === "active") { passVisible = true; paint(); }
        });
        break;
      case "offer-draw":
        message = "";
        act("/draw");
        break;
      case "accept-draw":
        drawDialog.close();
        act("/draw/accept");
        break;
      case "decline-draw":
        drawDialog.close();
        message = "The draw offer was declined. Play on.";
        act("/draw/decline");
        break;
      case "resign": {
        const who = isComputer() ? "You" : colorName(state.turn);
        const winner = isComputer() ? "the computer" : colorName(other(state.turn));
        resignDialog.querySelector(".dialog-text").textContent = `${who} would give up this game, and ${winner} wins. This cannot be undone.`;
        openDialog(resignDialog);
        resignDialog.querySelector('[data-action="cancel-resign"]').focus();
        break;
      }
      case "confirm-resign":
        resignDialog.close();
        act("/resign");
        break;
      case "cancel-resign":
        resignDialog.close();
        break;
      case "flip":
        flipped = !flipped;
        paint();
        break;
      case "more": {
        const open = moreMenu.hidden;
        moreMenu.hidden = !open;
        b.setAttribute("aria-expanded", String(open));
        break;
      }
      case "review":
        review = state.ply;
        paint();
        break;
      case "rematch":
        rematch();
        break;
      default:
        return;
    }
  });

  turnBoardBox.addEventListener("change", () => {
    turnBoard = turnBoardBox.checked;
    paint();
  });

  reviewEl.addEventListener("click", (event) => {
    const b = event.target.closest("[data-review-step]");
    if (!b || review === null) return;
    const last = state.ply;
    switch (b.getAttribute("data-review-step")) {
      case "first": review = 0; break;
      case "prev": review = Math.max(0, review - 1); break;
      case "next": review = Math.min(last, review + 1); break;
      case "last": review = last; break;
    }
    paint();
  });

  async function rematch() {
    const body = {
      mode: state.mode,
      color: isComputer() ? other(state.human_color) : "white",
      level: state.level || 0,
      clock: state.clock ? state.clock.name : "none",
      undo: state.undo,
      pass_screen: state.pass_screen,
      turn_board: state.turn_board,
    };
    if (state.start_fen !== START_FEN) body.fen = state.start_fen;
    try {
      const res = await fetch("/api/games", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        credentials: "same-origin",
        body: JSON.stringify(body),
      });
      const data = await res.json();
      if (!res.ok) throw new Error(data.error || "The new game could not start.");
      window.location.assign(`/play/${data.id}`);
    } catch (err) {
      message = err.message;
      paint();
    }
  }

  document.addEventListener("visibilitychange", () => syncPause());

  // ---------- start ----------

  enqueue(async () => {
    try {
      const s = await call("GET", "");
      turnBoard = Boolean(s.turn_board);
      // In a friend game with a pass screen, the page opens on it, so the
      // right player picks up the device; the clocks stay paused till then.
      passVisible = s.status === "active" && s.mode === "friend" && s.pass_screen;
      show(s);
    } catch (err) {
      statusEl.textContent = err.message;
    }
  });
}

const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
