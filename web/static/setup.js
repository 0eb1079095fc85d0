/* The setup page: players in order, rule set and options, then `new_game`; resume or delete stored games. */
"use strict";

(() => {
  const MAX_PLAYERS = window.PIPKEEPER_MAX_PLAYERS || 8;
  const MAX_NAME_LENGTH = window.PIPKEEPER_MAX_NAME_LENGTH || 24;
  const list = document.getElementById("players");
  const form = document.getElementById("new-game");

  function playerRow(name = "") {
    const item = pk.el("li");
    item.appendChild(pk.el("span", { class: "number" }));
    item.appendChild(pk.el("input", {
      type: "text", name: "player", value: name, maxlength: String(MAX_NAME_LENGTH), list: "known-players",
      placeholder: "Name", "aria-label": "Player name", required: true,
    }));
    item.appendChild(pk.el("button", { type: "button", class: "button small", "data-move": "-1", "aria-label": "Move up" }, "▲"));
    item.appendChild(pk.el("button", { type: "button", class: "button small", "data-move": "1", "aria-label": "Move down" }, "▼"));
    item.appendChild(pk.el("button", { type: "button", class: "button small danger", "data-remove": "", "aria-label": "Remove" }, "✕"));
    return item;
  }

  function renumber() {
    const rows = [...list.children];
    rows.forEach((row, index) => {
      row.querySelector(".number").textContent = `${index + 1}.`;
      row.querySelector("[data-remove]").disabled = rows.length <= 1;
      row.querySelector('[data-move="-1"]').disabled = index === 0;
      row.querySelector('[data-move="1"]').disabled = index === rows.length - 1;
    });
    document.getElementById("add-player").disabled = rows.length >= MAX_PLAYERS;
  }

  function addPlayer(name) {
    if (list.children.length >= MAX_PLAYERS) return;
    const row = playerRow(name);
    list.appendChild(row);
    renumber();
    return row;
  }

  list.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    const row = button.closest("li");
    if (button.hasAttribute("data-remove")) row.remove();
    const move = Number(button.dataset.move || 0);
    if (move < 0 && row.previousElementSibling) list.insertBefore(row, row.previousElementSibling);
    if (move > 0 && row.nextElementSibling) list.insertBefore(row.nextElementSibling, row);
    renumber();
  });

  document.getElementById("add-player").addEventListener("click", () => {
    const row = addPlayer("");
    if (row) row.querySelector("input").focus();
  });

  function chosenRules() {
    return form.querySelector('input[name="rules"]:checked').value;
  }

  function showOptions() {
    const rules = chosenRules();
    form.querySelectorAll(".option").forEach((option) => { option.hidden = option.dataset.rules !== rules; });
  }
  form.querySelectorAll('input[name="rules"]').forEach((radio) => radio.addEventListener("change", showOptions));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = [...list.querySelectorAll('input[name="player"]')].map((input) => input.value.trim());
    if (players.some((name) => !name)) {
      pk.toast("Every player needs a name.");
      return;
    }
    const rules = chosenRules();
    const options = {};
    form.querySelectorAll(`.option[data-rules="${rules}"] select`).forEach((select) => {
      options[select.name] = select.value;
    });
    const result = await pk.postJSON("/api/commands", { type: "new_game", players, rules, options });
    if (result.ok) window.location.assign("/");
    else pk.toast(result.body.error || result.body.message || "The game could not start.");
  });

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    if (action === "delete_game" && !window.confirm("Delete this game for good?")) return;
    const result = await pk.postJSON("/api/commands", { type: action, game_id: button.dataset.game });
    if (!result.ok) {
      pk.toast(result.body.error || result.body.message || "Refused.");
      return;
    }
    if (action === "resume_game") window.location.assign("/");
    else window.location.reload();
  });

  addPlayer("");
  addPlayer("");
  showOptions();
})();
