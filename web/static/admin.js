/* The admin page: tray drawing on the live view, reader and camera settings applied live, calibration
   actions, and the device status. Every change goes through the admin JSON API with the CSRF token. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let calibration = null;

  function show(result) {
    $("result").textContent = typeof result === "string" ? result : JSON.stringify(result, null, 2);
  }

  async function call(url, body) {
    const result = await pk.postJSON(url, body);
    if (!result.ok) {
      pk.toast(result.body.error || `Refused (HTTP ${result.status})`);
      return null;
    }
    return result.body;
  }

  /* Send profile changes; the answer is the calibration as it now stands. */
  async function change(changes) {
    const answer = await call("/admin/api/calibration", changes);
    if (answer) fill(answer.profile ? answer : await pk.getJSON("/admin/api/calibration"));
    return answer;
  }

  function debounce(fn, ms) {
    let timer = null;
    return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
  }

  // --- drawing the form from the calibration -----------------------------------------------------
  function range(spec) {
    if (Array.isArray(spec)) return { min: spec[0], max: spec[1], value: spec[2] };
    if (spec && typeof spec === "object") {
      return { min: spec.min, max: spec.max, step: spec.step, value: spec.default };
    }
    return { value: spec };
  }

  function fill(data) {
    calibration = data;
    const profile = data.profile || {};
    const saved = $("saved-state");
    saved.textContent = data.saved ? "saved" : "not saved";
    saved.className = `chip ${data.saved ? "ok" : "bad"}`;
    if (profile.die_size != null) $("die_size").value = profile.die_size;
    $("die_size").nextElementSibling.textContent = profile.die_size == null ? "auto" : Number(profile.die_size).toFixed(3);
    $("pip_polarity").value = profile.pip_polarity || "auto";
    const camera = profile.camera || {};
    $("exposure_us").value = camera.exposure_us ?? "";
    $("gain").value = camera.gain ?? "";
    const awb = Array.isArray(camera.awb_gains) ? camera.awb_gains : [];
    $("awb_red").value = awb[0] ?? "";
    $("awb_blue").value = awb[1] ?? "";
    $("frozen").checked = Boolean(camera.frozen);
    drawParams(data.parameters || {}, profile.reader || {});
    drawTray(profile.tray);
  }

  function drawParams(parameters, overrides) {
    const box = $("params");
    if (box.dataset.names === Object.keys(parameters).join(",")) {
      for (const [name, spec] of Object.entries(parameters)) {
        const input = box.querySelector(`input[name="${name}"]`);
        if (document.activeElement === input) continue;
        input.value = overrides[name] ?? range(spec).value;
        input.nextElementSibling.textContent = input.value;
      }
      return;
    }
    box.replaceChildren();
    box.dataset.names = Object.keys(parameters).join(",");
    for (const [name, spec] of Object.entries(parameters)) {
      const { min, max, step, value } = range(spec);
      const hasRange = typeof min === "number" && typeof max === "number";
      const label = pk.el("label", { class: "param" }, name.replaceAll("_", " "));
      const input = pk.el("input", {
        name, type: hasRange ? "range" : "number", min, max,
        step: step || (hasRange ? (max - min) / 100 : "any"),
      });
      input.value = overrides[name] ?? value;
      const output = pk.el("output", {}, String(input.value));
      input.addEventListener("input", () => { output.textContent = input.value; sendParams(); });
      label.append(input, output);
      box.appendChild(label);
    }
  }

  const sendParams = debounce(() => {
    const reader = {};
    $("params").querySelectorAll("input").forEach((input) => { reader[input.name] = Number(input.value); });
    change({ reader });
  }, 250);

  const sendCamera = debounce(() => {
    const camera = { ...((calibration && calibration.profile && calibration.profile.camera) || {}) };
    const number = (id) => ($(id).value === "" ? undefined : Number($(id).value));
    for (const [key, value] of [["exposure_us", number("exposure_us")], ["gain", number("gain")]]) {
      if (value === undefined) delete camera[key];
      else camera[key] = value;
    }
    if (number("awb_red") !== undefined && number("awb_blue") !== undefined) {
      camera.awb_gains = [number("awb_red"), number("awb_blue")];
    }
    camera.frozen = $("frozen").checked;
    change({ camera });
  }, 300);
  ["exposure_us", "gain", "awb_red", "awb_blue", "frozen"].forEach((id) => $(id).addEventListener("change", sendCamera));

  $("die_size").addEventListener("input", () => { $("die_size").nextElementSibling.textContent = Number($("die_size").value).toFixed(3); });
  $("die_size").addEventListener("change", () => change({ die_size: Number($("die_size").value) }));
  $("pip_polarity").addEventListener("change", () => change({ pip_polarity: $("pip_polarity").value }));

  // --- the tray rectangle ---------------------------------------------------------------------
  const view = $("view");
  const draft = $("tray-draft");
  let start = null;

  function fraction(event) {
    const box = $("stream").getBoundingClientRect();
    const clamp = (v) => Math.min(1, Math.max(0, v));
    return [clamp((event.clientX - box.left) / box.width), clamp((event.clientY - box.top) / box.height)];
  }

  function placeDraft(x0, y0, x1, y1) {
    draft.hidden = false;
    Object.assign(draft.style, {
      left: `${Math.min(x0, x1) * 100}%`, top: `${Math.min(y0, y1) * 100}%`,
      width: `${Math.abs(x1 - x0) * 100}%`, height: `${Math.abs(y1 - y0) * 100}%`,
    });
  }

  function drawTray(tray) {
    if (start) return;
    if (Array.isArray(tray)) placeDraft(...tray);
    else draft.hidden = true;
  }

  view.addEventListener("pointerdown", (event) => {
    start = fraction(event);
    view.setPointerCapture(event.pointerId);
    placeDraft(...start, ...start);
  });
  view.addEventListener("pointermove", (event) => {
    if (start) placeDraft(...start, ...fraction(event));
  });
  view.addEventListener("pointerup", async (event) => {
    if (!start) return;
    const [x0, y0] = start;
    const [x1, y1] = fraction(event);
    start = null;
    const tray = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)].map((v) => Number(v.toFixed(4)));
    if (tray[2] - tray[0] < 0.02 || tray[3] - tray[1] < 0.02) {
      drawTray(calibration && calibration.profile.tray);
      return;
    }
    await change({ tray });
  });

  // --- actions ------------------------------------------------------------------------------
  $("test-read").addEventListener("click", async () => {
    show("Reading…");
    const result = await call("/admin/api/test-read", {});
    if (result) show(result);
  });
  $("auto").addEventListener("click", async () => {
    show("Calibrating…");
    const report = await call("/admin/api/calibration/auto", {});
    if (report) { show(report); fill(await pk.getJSON("/admin/api/calibration")); }
  });
  $("known-go").addEventListener("click", async () => {
    const values = ($("known").value.match(/[1-6]/g) || []).map(Number);
    if (!values.length) { pk.toast("Type the values the dice show, e.g. 3 3 5 6 1"); return; }
    show("Calibrating…");
    const report = await call("/admin/api/calibration/auto", { known_values: values });
    if (report) { show(report); fill(await pk.getJSON("/admin/api/calibration")); }
  });
  $("save").addEventListener("click", async () => {
    if (await call("/admin/api/calibration/save", {})) {
      pk.toast("Calibration saved", "ok");
      fill(await pk.getJSON("/admin/api/calibration"));
    }
  });
  $("revert").addEventListener("click", async () => {
    if (await call("/admin/api/calibration/revert", {})) {
      pk.toast("Back to the saved calibration", "ok");
      fill(await pk.getJSON("/admin/api/calibration"));
    }
  });
  $("import").addEventListener("change", async () => {
    const file = $("import").files[0];
    if (!file) return;
    let profile;
    try {
      profile = JSON.parse(await file.text());
    } catch (_) {
      pk.toast("That file is not JSON.");
      return;
    } finally {
      $("import").value = "";
    }
    if (await call("/admin/api/calibration/import", profile)) {
      pk.toast("Imported: press Save to keep it", "ok");
      fill(await pk.getJSON("/admin/api/calibration"));
    }
  });

  // --- status -------------------------------------------------------------------------------
  function flatten(prefix, value, rows) {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) flatten(prefix ? `${prefix} ${key}` : key, inner, rows);
    } else {
      rows.push([prefix, Array.isArray(value) ? value.join(", ") : String(value)]);
    }
    return rows;
  }

  async function pollStatus() {
    try {
      const status = await pk.getJSON("/admin/api/status");
      const grid = $("status");
      grid.replaceChildren();
      for (const [key, value] of flatten("", status, [])) {
        grid.append(pk.el("span", { class: "muted" }, key), pk.el("span", {}, value));
      }
    } catch (_) {
      $("status").textContent = "The table is not answering.";
    }
  }

  async function load() {
    const response = await fetch("/admin/api/calibration", { credentials: "same-origin", cache: "no-store" });
    const body = await response.json().catch(() => ({}));
    if (response.ok) fill(body);
    else show(`Calibration unavailable: ${body.error || `HTTP ${response.status}`}`);
  }

  load();
  pollStatus();
  setInterval(pollStatus, 2000);
})();
