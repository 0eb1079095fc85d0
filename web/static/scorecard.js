/* The live scorecard: draws every snapshot from /api/state and /api/events, sends the players' taps as
   commands. Whole snapshots arrive each time, so drawing is one function of the snapshot. */
"use strict";

(() => {
  const CAMERA_OK = ["ok", "running", "live", "streaming", "sim"];
  const RULE_TITLES = { yahtzee: "Yahtzee", yatzy: "Yatzy", maxi: "Maxi Yatzy", forced: "Forced Yatzy" };
  const $ = (id) => document.getElementById(id);

  let snapshot = null;
  let rankingDismissedFor = null;

  // --- commands -------------------------------------------------------------------------------
  async function send(command) {
    const result = await pk.postJSON("/api/commands", command);
    if (!result.ok) pk.toast(result.body.error || result.body.message || `Refused (HTTP ${result.status})`);
    if (!live) refresh();
    return result.ok;
  }

  function ask(dialog) {
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
      dialog.returnValue = "cancel";
      dialog.showModal();
    });
  }

  async function confirm(text, yes = "Yes") {
    $("confirm-text").textContent = text;
    $("confirm-ok").textContent = yes;
    return (await ask($("confirm"))) === "ok";
  }

  // --- live updates -----------------------------------------------------------------------------
  let live = false;
  let source = null;
  let retryDelay = 1000;

  function setLive(on) {
    live = on;
    const chip = $("live");
    chip.textContent = on ? "live" : "reconnecting…";
    chip.className = `chip live ${on ? "ok" : "bad"}`;
  }

  function apply(next) {
    if (snapshot && next.version < snapshot.version) return;
    snapshot = next;
    render(next);
  }

  async function refresh() {
    try {
      apply(await pk.getJSON("/api/state"));
    } catch (_) {
      setLive(false);
    }
  }

  function connect() {
    source = new EventSource("/api/events");
    let reconnecting = false;
    source.onopen = () => {
      retryDelay = 1000;
      setLive(true);
      if (reconnecting) {
        snapshot = null; // the server may have restarted with fresh version numbers
        refresh();
      }
    };
    source.onmessage = (event) => apply(JSON.parse(event.data));
    source.onerror = () => {
      setLive(false);
      reconnecting = true;
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        setTimeout(connect, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 15000);
      }
    };
  }

  // --- keeping the screen awake during a game ------------------------------------------------------
  let wakeLock = null;
  let wantAwake = false;
  let requesting = false;

  async function syncWakeLock() {
    if (!("wakeLock" in navigator) || requesting) return;
    if (wantAwake && !wakeLock && document.visibilityState === "visible") {
      requesting = true;
      try {
        wakeLock = await navigator.wakeLock.request("screen");
        wakeLock.addEventListener("release", () => { wakeLock = null; });
      } catch (_) {
        wakeLock = null; // refused (battery saver, insecure origin): the game goes on regardless
      } finally {
        requesting = false;
      }
    } else if (!wantAwake && wakeLock) {
      const lock = wakeLock;
      wakeLock = null;
      lock.release().catch(() => {});
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      syncWakeLock();
      refresh();
    }
  });

  // --- drawing ------------------------------------------------------------------------------
  function render(snap) {
    const table = snap.table || {};
    const game = snap.game;
    renderCamera(table.camera || {});
    renderLine($("warning"), table.warning);
    renderPending(game, table.pending_scratch);
    $("no-game").hidden = Boolean(game);
    $("board").hidden = !game;
    wantAwake = Boolean(game && !game.finished);
    syncWakeLock();
    if (!game) {
      $("game-title").textContent = "";
      $("round").textContent = "";
      $("ranking").hidden = true;
      return;
    }
    const cameraOk = isCameraOk(table.camera || {});
    $("game-title").textContent = RULE_TITLES[game.rules] || game.rules;
    $("round").textContent = game.finished ? "finished" : `Round ${game.round} of ${game.boxes.length}`;
    renderTurn(game, table, cameraOk);
    renderCard(game, table);
    renderLog(game.log || []);
    renderRanking(snap.game_id, game);
    renderCoach(game, table.coach);
  }

  function isCameraOk(camera) {
    return CAMERA_OK.includes(camera.state) && !camera.error;
  }

  function renderCamera(camera) {
    const chip = $("camera");
    if (!camera.state) {
      chip.hidden = true;
      return;
    }
    chip.hidden = false;
    const ok = isCameraOk(camera);
    const fps = typeof camera.fps === "number" && camera.fps > 0 ? ` ${camera.fps.toFixed(1)} fps` : "";
    chip.textContent = ok ? `camera${fps}` : `camera ${camera.state}`;
    chip.title = camera.error || `camera ${camera.state}${fps}`;
    chip.className = `chip ${ok ? "ok" : "bad"}`;
  }

  function renderLine(element, text) {
    element.hidden = !text;
    element.textContent = text || "";
  }

  function pendingBox(pending) {
    if (!pending) return null;
    return typeof pending === "string" ? pending : pending.box;
  }

  function boxLabel(game, key) {
    const box = game && game.boxes.find((b) => b.key === key);
    return box ? box.label : key;
  }

  function renderPending(game, pending) {
    const key = pendingBox(pending);
    renderLine($("pending"), key ? `Press SELECT again to scratch ${boxLabel(game, key)} for 0 points` : "");
  }

  function renderTurn(game, table, cameraOk) {
    const player = game.players[game.current_player] || { name: "" };
    $("turn-player").textContent = game.finished ? "Game over" : `${player.name}’s turn`;
    const total = game.rolls_used + game.rolls_left;
    document.querySelector(".turn").classList.toggle("over", Boolean(game.finished));
    $("rolls").textContent = game.finished ? winnersLine(game.ranking || []) :
      `Roll ${game.rolls_used} of ${total} · ${game.rolls_left} left`;
    $("rolls").className = `rolls ${game.rolls_left === 0 ? "none-left" : ""}`;
    renderDice(game, table);
    const hasDice = game.dice && game.dice.length > 0;
    $("dice-hint").textContent = game.finished ? "" :
      table.moving && table.sim ? "Dice rolling…" :
      !hasDice ? "Waiting for the first roll" :
      game.rolls_left === 0 ? "No rolls left: pick a box" : "Tap a die to correct it · Hold keeps it";
    const roll = $("roll");
    roll.hidden = !table.sim;
    roll.disabled = game.finished || game.rolls_left === 0;
    const enter = $("enter-dice");
    enter.disabled = game.finished || game.rolls_left === 0;
    enter.classList.toggle("primary", !cameraOk && !table.sim);
    for (const id of ["prev", "next", "select", "undo"]) $(id).disabled = false;
  }

  function winnersLine(ranking) {
    const first = ranking.filter((entry) => entry.place === 1);
    if (!first.length) return "";
    const names = first.map((entry) => entry.name).join(" and ");
    return `${names} ${first.length > 1 ? "share first place" : "wins"} with ${first[0].total}`;
  }

  function confidenceOf(table, index) {
    const confidence = table.confidence;
    if (Array.isArray(confidence)) return confidence[index];
    return typeof confidence === "number" ? confidence : undefined;
  }

  function renderDice(game, table) {
    const row = $("dice");
    row.replaceChildren();
    const dice = game.dice && game.dice.length ? game.dice : new Array(game.dice_count).fill(0);
    const held = new Set(game.held || []);
    const coachKeep = new Set((table.coach && table.coach.keep && table.coach.keep.positions) || []);
    dice.forEach((value, index) => {
      const confidence = confidenceOf(table, index);
      const low = value && typeof confidence === "number" && confidence < table.ask_below;
      const keep = value && coachKeep.has(index);
      const slot = pk.el("div", {
        class: `die-slot${held.has(index) ? " held" : ""}${low ? " low" : ""}${keep ? " coach-keep" : ""}`,
      });
      const die = pk.el("button", {
        type: "button",
        class: "die",
        dataset: { index: String(index) },
        disabled: !value || game.finished,
        title: low ? `Not sure about this die (${Math.round(confidence * 100)}%): tap to correct` : "Tap to correct",
      });
      pk.drawFace(die, value);
      slot.appendChild(die);
      if (low) slot.appendChild(pk.el("span", { class: "badge", "aria-hidden": "true" }, "?"));
      slot.appendChild(pk.el("button", {
        type: "button",
        class: "hold",
        dataset: { index: String(index) },
        "aria-pressed": held.has(index) ? "true" : "false",
        disabled: !value || game.finished || game.rolls_left === 0,
      }, held.has(index) ? "Held" : "Hold"));
      row.appendChild(slot);
    });
  }

  /* The boxes worth pointing at: the allowed open boxes with the highest preview points (ties share). */
  function bestBoxes(preview) {
    const allowed = Object.entries(preview || {}).filter(([, p]) => p.allowed && p.points > 0);
    if (!allowed.length) return { best: new Set(), good: new Set() };
    const ranked = [...new Set(allowed.map(([, p]) => p.points))].sort((a, b) => b - a);
    const best = new Set(allowed.filter(([, p]) => p.points === ranked[0]).map(([key]) => key));
    const good = new Set(allowed.filter(([, p]) => ranked.slice(1, 3).includes(p.points)).map(([key]) => key));
    return { best, good };
  }

  function renderCard(game, table) {
    const card = $("card");
    card.replaceChildren();
    card.style.setProperty("--players", game.players.length);
    const head = pk.el("thead");
    const headRow = pk.el("tr");
    headRow.appendChild(pk.el("th", { class: "box-name", scope: "col" }, "Box"));
    const coach = table.coach;
    game.players.forEach((player, index) => {
      const current = index === game.current_player && !game.finished;
      const th = pk.el("th", { scope: "col", class: current ? "current" : "" }, `${current ? "▶ " : ""}${player.name}`);
      if (coach && !game.finished) {
        const on = Boolean(coach.enabled && coach.enabled[index]);
        th.appendChild(pk.el("button", {
          type: "button",
          class: `coach-toggle${on ? " on" : ""}`,
          dataset: { player: String(index) },
          "aria-pressed": on ? "true" : "false",
          title: on ? `Coach on for ${player.name}: tap to turn it off` : `Turn the coach on for ${player.name}`,
        }, "Coach"));
      }
      headRow.appendChild(th);
    });
    head.appendChild(headRow);
    card.appendChild(head);

    const body = pk.el("tbody");
    const hasDice = game.dice && game.dice.length > 0;
    const preview = hasDice && !game.finished ? game.preview || {} : {};
    const { best, good } = bestBoxes(preview);
    const coachBox = coach && coach.boxes && coach.boxes.length ? coach.boxes[0].box : null;
    const cursor = table.cursor;
    const pending = pendingBox(table.pending_scratch);
    const upper = game.boxes.filter((box) => box.upper);
    const lower = game.boxes.filter((box) => !box.upper);

    const boxRow = (box) => {
      const row = pk.el("tr", { class: box.key === cursor ? "cursor-row" : "" });
      row.appendChild(pk.el("th", { scope: "row", class: "box-name" }, box.label));
      game.players.forEach((player, index) => {
        const filled = Object.prototype.hasOwnProperty.call(player.card, box.key);
        if (filled) {
          const points = player.card[box.key];
          row.appendChild(pk.el("td", { class: points === 0 ? "filled scratched" : "filled" }, String(points)));
          return;
        }
        const isCurrent = index === game.current_player && !game.finished;
        const option = isCurrent ? preview[box.key] : undefined;
        if (!option) {
          row.appendChild(pk.el("td", { class: isCurrent ? "open current" : "open" }));
          return;
        }
        const classes = ["preview", "current"];
        if (!option.allowed) classes.push("disallowed");
        if (best.has(box.key)) classes.push("best");
        else if (good.has(box.key)) classes.push("good");
        if (box.key === cursor) classes.push("cursor");
        if (box.key === pending) classes.push("pending");
        if (option.points === 0) classes.push("zero");
        if (box.key === coachBox) classes.push("coach-best");
        const cell = pk.el("td", { class: classes.join(" ") });
        cell.appendChild(pk.el("button", {
          type: "button",
          class: "score",
          dataset: { box: box.key, points: String(option.points) },
          "aria-label": `Score ${option.points} in ${box.label}${box.key === coachBox ? " (the coach’s pick)" : ""}`,
        }, String(option.points)));
        if (box.key === coachBox) cell.appendChild(pk.el("span", { class: "coach-mark", title: "The coach’s pick" }, "C"));
        row.appendChild(cell);
      });
      return row;
    };

    const sumRow = (label, valueOf, className, cellClass = () => "") => {
      const row = pk.el("tr", { class: `sum ${className}` });
      row.appendChild(pk.el("th", { scope: "row", class: "box-name" }, label));
      game.players.forEach((player) => row.appendChild(pk.el("td", { class: cellClass(player) }, valueOf(player))));
      return row;
    };

    upper.forEach((box) => body.appendChild(boxRow(box)));
    if (upper.length) {
      body.appendChild(sumRow("Upper sum", (p) => String(p.upper_subtotal), "subtotal"));
      body.appendChild(sumRow(`Bonus (${game.bonus_threshold})`, (p) => bonusText(p, upper), "bonus",
        (p) => bonusState(p, upper)));
    }
    lower.forEach((box) => body.appendChild(boxRow(box)));
    if (game.rules === "yahtzee") body.appendChild(sumRow("Yahtzee bonus", (p) => String(p.extra || 0), "extra"));
    if (game.players.some((p) => typeof p.saved_rolls === "number" && p.saved_rolls > 0)) {
      body.appendChild(sumRow("Saved rolls", (p) => String(p.saved_rolls || 0), "saved"));
    }
    body.appendChild(sumRow("Total", (p) => String(p.total), "total"));
    card.appendChild(body);
  }

  function upperDone(player, upper) {
    return upper.every((box) => Object.prototype.hasOwnProperty.call(player.card, box.key));
  }

  function bonusState(player, upper) {
    if (player.upper_bonus > 0) return "bonus-got";
    return upperDone(player, upper) || player.bonus_to_go === null ? "bonus-missed" : "bonus-to-go";
  }

  function bonusText(player, upper) {
    if (player.upper_bonus > 0) return `+${player.upper_bonus}`;
    if (upperDone(player, upper)) return "0";
    return `${player.bonus_to_go} to go`;
  }

  /* The coach line under the dice (hint, table progress or why there are no hints) and the review. */
  function renderCoach(game, coach) {
    const line = $("coach-line");
    const anyOn = Boolean(coach && (coach.enabled || []).some(Boolean));
    const parts = [];
    if (anyOn && !game.finished) {
      const state = coach.table && coach.table.state;
      if (coach.reason) parts.push(coach.reason);
      else if (state === "building" || !coach.kind) {
        const progress = coach.table ? Math.round((coach.table.progress || 0) * 100) : 0;
        parts.push(`Coach: preparing the advisor table… ${progress}% (hints appear when it is ready)`);
      } else if (coach.keep) {
        const all = coach.keep.values.length === game.dice.length;
        parts.push(all ? "Coach: keep them all (or score the marked box)" :
          coach.keep.values.length ? `Coach: keep ${coach.keep.values.join(" ")}` : "Coach: reroll all");
      } else if (coach.boxes && coach.boxes.length) {
        parts.push(`Coach: score ${boxLabel(game, coach.boxes[0].box)}`);
      }
      if (coach.kind === "heuristic") parts.push("(heuristic advice, not exact)");
      if (coach.note) parts.push(`· ${coach.note}`);
    }
    line.textContent = parts.join(" ");
    line.hidden = !parts.length;
    renderReview(game, coach);
  }

  function renderReview(game, coach) {
    const panel = $("coach-review");
    const review = coach && coach.review;
    panel.hidden = !(game.finished && review);
    if (panel.hidden) return;
    const list = $("coach-review-list");
    list.replaceChildren();
    game.players.forEach((player, index) => {
      const mine = review[String(index)];
      if (!mine) return;
      const item = pk.el("li", { class: "coach-player" });
      item.appendChild(pk.el("h3", {}, `${player.name}: ${mine.total_cost.toFixed(1)} points lost to optimal play`));
      const costly = mine.decisions.filter((d) => d.cost >= 0.05);
      const rows = pk.el("ol", { class: "coach-decisions" });
      if (!costly.length) rows.appendChild(pk.el("li", {}, "Every decision was optimal."));
      costly.forEach((d) => {
        const when = `Round ${d.round}, ${d.dice.join(" ")}${d.rolls_left ? ` (${d.rolls_left} left)` : ""}`;
        rows.appendChild(pk.el("li", {},
          `${when}: ${d.choice}; best was ${d.best} (−${d.cost.toFixed(2)})`));
      });
      item.appendChild(rows);
      list.appendChild(item);
    });
    $("coach-review-note").textContent = coach.note || "Costs are expected points lost against optimal play.";
  }

  function renderLog(lines) {
    const log = $("log");
    log.replaceChildren();
    lines.slice(-60).reverse().forEach((line) => log.appendChild(pk.el("li", {}, line)));
  }

  function renderRanking(gameId, game) {
    const overlay = $("ranking");
    if (!game.finished || rankingDismissedFor === gameId) {
      overlay.hidden = true;
      return;
    }
    const list = $("ranking-list");
    list.replaceChildren();
    (game.ranking || []).forEach((entry) => {
      const item = pk.el("li", { class: `place-${entry.place}` });
      item.appendChild(pk.el("span", { class: "place" }, `${entry.place}.`));
      item.appendChild(pk.el("span", { class: "name" }, entry.name));
      item.appendChild(pk.el("span", { class: "points" }, String(entry.total)));
      list.appendChild(item);
    });
    overlay.hidden = false;
  }

  // --- players' taps --------------------------------------------------------------------------
  $("dice").addEventListener("click", async (event) => {
    const button = event.target.closest("button");
    if (!button || !snapshot || !snapshot.game) return;
    const index = Number(button.dataset.index);
    if (button.classList.contains("hold")) {
      send({ type: "toggle_hold", die: index });
      return;
    }
    const value = await pickFace(snapshot.game.dice[index]);
    if (value) {
      const values = [...snapshot.game.dice];
      values[index] = value;
      send({ type: "correct", values });
    }
  });

  async function pickFace(current) {
    const faces = $("pick-faces");
    faces.replaceChildren();
    for (let value = 1; value <= 6; value += 1) {
      const button = pk.el("button", { class: `die${value === current ? " current" : ""}`, value: String(value) });
      pk.drawFace(button, value);
      faces.appendChild(button);
    }
    const answer = await ask($("pick-die"));
    const value = Number(answer);
    return value >= 1 && value <= 6 ? value : null;
  }

  $("card").addEventListener("click", async (event) => {
    const toggle = event.target.closest("button.coach-toggle");
    if (toggle && snapshot && snapshot.table && snapshot.table.coach) {
      const player = Number(toggle.dataset.player);
      send({ type: "coach", player, on: !snapshot.table.coach.enabled[player] });
      return;
    }
    const button = event.target.closest("button.score");
    if (!button || !snapshot || !snapshot.game) return;
    const key = button.dataset.box;
    const label = boxLabel(snapshot.game, key);
    if (Number(button.dataset.points) === 0 && !(await confirm(`Scratch ${label} for 0 points?`, "Scratch"))) return;
    send({ type: "score", box: key });
  });

  $("roll").addEventListener("click", () => send({ type: "sim_roll" }));
  $("prev").addEventListener("click", () => send({ type: "press", button: "prev" }));
  $("next").addEventListener("click", () => send({ type: "press", button: "next" }));
  $("select").addEventListener("click", () => send({ type: "press", button: "select" }));
  $("undo").addEventListener("click", async () => {
    if (await confirm("Undo the last move?", "Undo")) send({ type: "undo" });
  });
  $("ranking-close").addEventListener("click", () => {
    rankingDismissedFor = snapshot && snapshot.game_id;
    $("ranking").hidden = true;
  });

  $("enter-dice").addEventListener("click", async () => {
    const game = snapshot && snapshot.game;
    if (!game) return;
    const held = new Set(game.rolls_used > 0 ? game.held || [] : []);
    const values = game.dice && game.dice.length ? [...game.dice] : new Array(game.dice_count).fill(1);
    const row = $("enter-dice-row");
    row.replaceChildren();
    values.forEach((value, index) => {
      const die = pk.el("button", { type: "button", class: `die${held.has(index) ? " locked" : ""}` });
      pk.drawFace(die, value);
      die.disabled = held.has(index);
      die.addEventListener("click", () => {
        values[index] = (values[index] % 6) + 1;
        pk.drawFace(die, values[index]);
      });
      row.appendChild(die);
    });
    if ((await ask($("enter-dialog"))) !== "ok") return;
    const command = { type: "roll", values };
    if (held.size) command.held = [...held].sort((a, b) => a - b);
    send(command);
  });

  setLive(false);
  refresh();
  connect();
})();
