/* Shared by every page: the CSRF token, JSON requests, toasts and die faces. Plain JS, no build step. */
"use strict";

const pk = (() => {
  const csrfToken = () => document.querySelector('meta[name="csrf-token"]').content;

  /* POST a JSON body with the CSRF token; resolves to {ok, status, body} and never throws for HTTP errors. */
  async function postJSON(url, body) {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
        body: JSON.stringify(body === undefined ? {} : body),
        credentials: "same-origin",
      });
      let data = {};
      try { data = await response.json(); } catch (_) { data = {}; }
      return { ok: response.ok, status: response.status, body: data };
    } catch (error) {
      return { ok: false, status: 0, body: { error: "The table is not answering. Check the Wi-Fi." } };
    }
  }

  async function getJSON(url) {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.json();
  }

  let toastTimer = null;
  function toast(message, kind = "error") {
    const box = document.getElementById("toast");
    box.textContent = message;
    box.className = `toast ${kind}`;
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 6000 : 2500);
  }

  /* Which of the 3x3 pip cells are filled for each face, read left to right, top to bottom. */
  const PIPS = {
    1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
  };

  /* Fill `element` with the pips of `value` (1..6); an unknown value shows a question mark. */
  function drawFace(element, value) {
    element.replaceChildren();
    element.dataset.value = value || "";
    element.setAttribute("aria-label", value ? `die showing ${value}` : "die not read");
    if (!PIPS[value]) {
      element.classList.add("blank");
      element.textContent = "?";
      return;
    }
    element.classList.remove("blank");
    for (let cell = 0; cell < 9; cell += 1) {
      const pip = document.createElement("span");
      if (PIPS[value].includes(cell)) pip.className = "pip";
      element.appendChild(pip);
    }
  }

  function el(tag, attributes = {}, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
      if (value === false || value === null || value === undefined) continue;
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  return { csrfToken, postJSON, getJSON, toast, drawFace, el };
})();
