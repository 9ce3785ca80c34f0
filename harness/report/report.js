// loopbench report: sort, filter and open instances, driven by the URL fragment so a state is a link.
// Fragment keys: set (a set's slug; default the first), sort (a column: instance, size or a config),
// desc=1, filter (text in the instance's name, size or statuses), status (one status), instance (a key).
"use strict";
(function () {
  const cache = {};

  function params() {
    return new URLSearchParams(location.hash.slice(1));
  }

  function data(slug) {
    if (!(slug in cache)) {
      const node = document.getElementById("data-" + slug);
      cache[slug] = node ? JSON.parse(node.textContent) : { configs: [], instances: {} };
    }
    return cache[slug];
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function num(value) {
    return value === null || value === undefined ? "–" : String(Number(Number(value).toPrecision(3)));
  }

  function sortKey(td, type) {
    const raw = td.getAttribute("data-sort");
    if (type === "text") return raw || td.textContent;
    const value = parseFloat(raw);
    return Number.isNaN(value) ? Infinity : value;
  }

  function sortTable(section, col, desc) {
    const table = section.querySelector("table.runs");
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((th) => th.removeAttribute("aria-sort"));
    const index = heads.findIndex((th) => th.dataset.col === col);
    if (index < 0) return;
    const type = heads[index].dataset.type;
    heads[index].setAttribute("aria-sort", desc ? "descending" : "ascending");
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    rows.sort((a, b) => {
      const x = sortKey(a.cells[index], type), y = sortKey(b.cells[index], type);
      const order = type === "text" ? String(x).localeCompare(String(y)) : (x > y) - (x < y);
      return desc ? -order : order;
    });
    rows.forEach((row) => body.appendChild(row));
  }

  function filterTable(section, text, status) {
    const rows = Array.from(section.querySelector("table.runs").tBodies[0].rows);
    let shown = 0;
    for (const row of rows) {
      const ok = row.dataset.text.includes(text) && (!status || row.dataset.statuses.split(" ").includes(status));
      row.hidden = !ok;
      shown += ok;
    }
    section.querySelector(".count").textContent = `${shown} of ${rows.length} instances shown`;
  }

  function figure(src, caption, missing, status) {
    const fig = el("figure");
    if (src) fig.appendChild(el("img", { src: src, alt: caption }));
    else fig.appendChild(el("div", { class: "missing" }, missing));
    const text = el("figcaption", {});
    if (status) text.append(el("span", { class: "chip st-" + status }, status), " ");
    text.append(caption);
    fig.appendChild(text);
    return fig;
  }

  // One column per run (config, and seed when there are several), one row per statistic: the
  // columns of the database first, then the keys of `extra`, as BenchExec's run details read.
  function statsTable(inst, configs, d) {
    const runs = [];
    for (const config of configs)
      for (const run of inst.runs[config] || []) runs.push([config, run]);
    const names = [], extras = [];
    for (const [, run] of runs) {
      for (const key of Object.keys(run)) if (key !== "extra" && !names.includes(key)) names.push(key);
      for (const key of Object.keys(run.extra || {})) if (!extras.includes(key)) extras.push(key);
    }
    const order = (d.columns || []).concat(names.filter((n) => !(d.columns || []).includes(n)));
    names.sort((x, y) => order.indexOf(x) - order.indexOf(y));
    const several = configs.some((c) => (inst.runs[c] || []).length > 1);
    const table = el("table", { class: "stats" });
    const head = table.createTHead().insertRow();
    head.appendChild(el("th", {}, "statistic"));
    for (const [config, run] of runs) {
      const th = el("th", { class: "st-" + (run.shown || run.status) }, several ? `${config} (seed ${run.seed})` : config);
      head.appendChild(th);
    }
    const body = table.createTBody();
    const show = (value) => typeof value === "number" && !Number.isInteger(value) ? num(value)
      : typeof value === "object" && value !== null ? JSON.stringify(value) : value;
    for (const [name, pick] of [...names.map((n) => [n, (r) => r[n]]),
                                ...extras.map((n) => [n, (r) => (r.extra || {})[n]])]) {
      const tr = body.insertRow();
      tr.appendChild(el("th", names.includes(name) ? {} : { class: "extra" }, name));
      for (const [, run] of runs) {
        const value = show(pick(run));
        tr.appendChild(el("td", value === undefined ? {} : { title: String(value) }, value));  // in full
      }
    }
    return table;
  }

  function openInstance(section, slug, key, p) {
    const panel = section.querySelector(".detail");
    section.querySelectorAll("table.runs tr.selected").forEach((tr) => tr.classList.remove("selected"));
    if (!key) {
      panel.hidden = true;
      panel.replaceChildren();
      return;
    }
    const d = data(slug);
    const inst = d.instances[key];
    panel.replaceChildren();
    const back = new URLSearchParams(p);
    back.delete("instance");
    const close = el("a", { href: "#" + back.toString(), class: "close", title: "close" }, "× close");
    panel.appendChild(close);
    if (!inst) {
      panel.appendChild(el("p", { class: "warn" }, `no instance ${key} in this set`));
      panel.hidden = false;
      return;
    }
    const row = section.querySelector(`table.runs tr[data-key="${CSS.escape(key)}"]`);
    if (row) row.classList.add("selected");
    panel.appendChild(el("h3", {}, `${inst.name} (${inst.size})`));
    panel.appendChild(el("p", { class: "dim" }, `${inst.source} · sha256 ${inst.sha256}`));
    const figs = el("div", { class: "figures drawings" });
    if (inst.drawn && !inst.note) {
      figs.appendChild(figure(inst.puzzle, "the puzzle", "the puzzle cannot be drawn"));
      for (const config of d.configs) {
        if (!(config in inst.status)) continue;
        const answer = (inst.answers || {})[config];
        const caption = `${config}, ${num(inst.time[config])} s` +
          (answer && answer.partial ? " (partial: the edges held when it stopped)" : "");
        figs.appendChild(figure(answer && answer.img, caption, answer ? "the answer cannot be drawn" : "no answer",
          inst.status[config]));
      }
    } else {
      figs.appendChild(el("p", { class: "note" }, inst.note ||
        "not drawn: the report draws only some instances (see the note above the table; --draw all draws every one)"));
    }
    panel.appendChild(figs);
    panel.appendChild(statsTable(inst, d.configs, d));
    panel.hidden = false;
  }

  function applyTo(section, p) {
    const slug = section.dataset.set;
    const text = (p.get("filter") || "").toLowerCase();
    const status = p.get("status") || "";
    section.querySelector("input.filter").value = p.get("filter") || "";
    section.querySelector("select.status").value = status;
    if (p.get("sort")) sortTable(section, p.get("sort"), p.get("desc") === "1");
    filterTable(section, text, status);
    openInstance(section, slug, p.get("instance"), p);
  }

  function apply() {
    const p = params();
    const sections = Array.from(document.querySelectorAll("section.set"));
    const chosen = p.get("set") || (sections[0] && sections[0].dataset.set);
    for (const section of sections) {
      const mine = section.dataset.set === chosen;
      applyTo(section, mine ? p : new URLSearchParams());
      // Bring the table into view when a link names a state, unless it is in view already.
      const controls = section.querySelector(".controls");
      const top = controls.getBoundingClientRect().top;
      if (mine && (p.get("sort") || p.get("filter") || p.get("status")) && (top < 0 || top > innerHeight - 80))
        controls.scrollIntoView();
    }
  }

  function state(section) {
    const p = params();
    if (p.get("set") !== section.dataset.set) {
      for (const key of Array.from(p.keys())) p.delete(key);
      p.set("set", section.dataset.set);
    }
    return p;
  }

  function update(p, replace) {
    for (const [k, v] of Array.from(p.entries())) if (v === "") p.delete(k);
    if (replace) {
      history.replaceState(null, "", "#" + p.toString());
      apply();
    } else {
      location.hash = p.toString();
    }
  }

  function wire(section) {
    for (const th of section.querySelectorAll("table.runs thead th")) {
      th.addEventListener("click", () => {
        const p = state(section);
        const same = p.get("sort") === th.dataset.col;
        p.set("sort", th.dataset.col);
        p.set("desc", same && p.get("desc") !== "1" ? "1" : "");
        update(p, false);
      });
    }
    // An instance link keeps the table's sort and filter (its href alone would drop them).
    section.querySelector("table.runs tbody").addEventListener("click", (event) => {
      const link = event.target.closest("a.open");
      if (!link) return;
      event.preventDefault();
      const p = state(section);
      p.set("instance", link.closest("tr").dataset.key);
      update(p, false);
    });
    section.querySelector("input.filter").addEventListener("input", (event) => {
      const p = state(section);
      p.set("filter", event.target.value);
      update(p, true);
    });
    section.querySelector("select.status").addEventListener("change", (event) => {
      const p = state(section);
      p.set("status", event.target.value);
      update(p, false);
    });
  }

  document.querySelectorAll("section.set").forEach(wire);
  window.addEventListener("hashchange", apply);
  apply();
})();
