// fsnb ExplorePanel front end: a plain ES module with no dependencies and no build step.
// State comes from synced traits (task, status, trace rows, answer_html, citations, usage, ...),
// all computed in Python: this module only draws them. Requests go to Python as anywidget
// commands (`experimental.invoke`): _answer, _stop, _show_citation, _page.
// Where it renders, it hides the static record of its run that the kernel shows under it.

// Inline SVG icons (16x16, stroked with currentColor): no icon font, no emoji font needed.
const PATHS = {
  folder: '<path d="M1.5 3.5h5l1.5 1.5h6.5v8.5h-13z"/>',
  file: '<path d="M3.5 1.5h6l3 3v10h-9z"/><path d="M9.5 1.5v3h3"/>',
  eye: '<path d="M1 8s2.5-4.5 7-4.5S15 8 15 8s-2.5 4.5-7 4.5S1 8 1 8z"/><circle cx="8" cy="8" r="2"/>',
  search: '<circle cx="7" cy="7" r="4.5"/><path d="M10.3 10.3l4.2 4.2"/>',
  table: '<rect x="1.5" y="2.5" width="13" height="11"/><path d="M1.5 6.5h13M1.5 10h13M6 6.5v7"/>',
  arrow: '<path d="M2 8h10M8.5 4.5L12 8l-3.5 3.5"/>',
  ask: '<circle cx="8" cy="8" r="6.5"/><path d="M6 6.2a2 2 0 1 1 2.8 1.8c-.6.3-.8.7-.8 1.3M8 11.3v.7"/>',
  check: '<path d="M2.5 8.5l3.5 3.5 7.5-8"/>',
  warn: '<path d="M8 1.5l7 13H1z"/><path d="M8 6v4M8 11.8v.7"/>',
  dot: '<circle cx="8" cy="8" r="2.5"/>',
};
const TOOL_ICONS = {
  scan_folder: "folder", glob: "search", preview_file: "eye", parse_file: "file", read: "file",
  get_document: "file", grep: "search", search: "search", go_deeper: "arrow", ask_human: "ask",
  stop: "check", create_table: "table", insert_data: "table", query_data: "table",
  list_tables: "table", drop_table: "table", semantic_search: "search", error: "warn",
};

function icon(name) {
  const span = document.createElement("span");
  span.className = `fsnb-icon fsnb-icon-${name}`;
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round">${PATHS[name] || PATHS.dot}</svg>`;
  return span;
}

const STATUS_TEXT = {
  idle: "idle", running: "running…", waiting: "waiting for you", stopping: "stopping: answering from what was read…",
  done: "done", error: "error", cancelled: "cancelled",
};

// -- helpers ------------------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// An answer's HTML (rendered in Python, with images shown as text) as nodes, parsed in an
// inert <template> and cleared of anything that would load a URL by itself, should any
// come: a prompt-injected answer must not make the page fetch from a server of its choice.
const LOADING = "img,picture,source,video,audio,track,iframe,frame,object,embed,link,style,script,svg,image,input,meta,base";
const LOADING_ATTRS = ["src", "srcset", "background", "poster", "data", "formaction", "xlink:href"];
function inertHtml(html) {
  const template = document.createElement("template");
  template.innerHTML = html || "";
  template.content.querySelectorAll(LOADING).forEach((node) => node.remove());
  template.content.querySelectorAll("*").forEach((node) => {
    for (const name of LOADING_ATTRS) node.removeAttribute(name);
    if (/url\s*\(|image-set|@import/i.test(node.getAttribute("style") || "")) node.removeAttribute("style");
  });
  return template.content;
}

function fmtInt(n) { return Number(n || 0).toLocaleString("en-US"); }
function fmtMs(ms) {
  if (ms === undefined || ms === null) return "…";
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** Ask Python: resolves with its reply, or rejects with the error it sent (or a timeout). */
async function request(experimental, name, msg = {}, timeoutMs = 60000) {
  const [reply] = await experimental.invoke(name, msg, { signal: AbortSignal.timeout(timeoutMs) });
  if (!reply || reply.ok === false) throw new Error((reply && reply.error) || `the ${name} request failed`);
  return reply;
}

function errorText(err) {
  return err && err.name === "TimeoutError" ? "no reply from the kernel" : String((err && err.message) || err);
}

/** Enter or Space runs `fn`, as a click does: for rows that act as buttons. */
function onActivate(fn) {
  return (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    fn();
  };
}

function cellText(v) {
  return v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
}

// Money-like columns show cents; ISO dates (and midnight timestamps) show as dates.
const MONEY = /amount|price|total|cost|fee|usd|eur|gbp|dollar|spen[dt]|revenue|balance|charge|paid|payment|salary|budget/i;
const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A cell as shown: integers with thousands separators, floats rounded (2 decimals in a
 *  money-like column, else at most 4 decimals or 4 significant digits), ISO dates as dates. */
export function formatCell(v, money = false) {
  if (typeof v === "number" && Number.isFinite(v)) {
    if (Number.isInteger(v)) return v.toLocaleString("en-US");
    if (money) return v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return v.toLocaleString("en-US", Math.abs(v) >= 1 ? { maximumFractionDigits: 4 } : { maximumSignificantDigits: 4 });
  }
  const date = typeof v === "string" ? ISO_DATE.exec(v) : null;
  if (date) {
    const [, day, time, seconds, zone] = date;
    if (!time || (time === "00:00" && (!seconds || seconds === "00") && !zone)) return day;
    return `${day} ${time}${seconds && seconds !== "00" ? `:${seconds}` : ""}${zone ? ` ${zone}` : ""}`;
  }
  return cellText(v);
}

/** A table of `rows` (objects keyed by column, or arrays in column order); a column of
 *  numbers is right-aligned. Options: `onRowClick(row)`; `sort` ({index, descending}) and
 *  `onSort(index)`: the headers become buttons that sort, the sorted one marked ▲ or ▼. */
function table(columns, rows, { onRowClick = null, sort = null, onSort = null } = {}) {
  const value = (row, c, i) => (Array.isArray(row) ? row[i] : row[c]);
  const numeric = columns.map((c, i) => {
    const values = rows.map((row) => value(row, c, i)).filter((v) => v !== null && v !== undefined);
    return values.length > 0 && values.every((v) => typeof v === "number");
  });
  const num = (i) => (numeric[i] ? "fsnb-num" : null);
  const head = h("tr", {}, columns.map((c, i) => {
    if (!onSort) return h("th", { class: num(i), text: c });
    const active = sort && sort.index === i;
    const mark = active ? (sort.descending ? " ▼" : " ▲") : "";
    return h("th", { class: num(i), "aria-sort": active ? (sort.descending ? "descending" : "ascending") : null },
      h("button", { type: "button", class: "fsnb-sort", "data-testid": "fsnb-sort", title: `sort by ${c}`, text: `${c}${mark}`, onclick: () => onSort(i) }));
  }));
  const body = rows.map((row) => {
    const open = onRowClick ? () => onRowClick(row) : null;
    return h("tr", { class: open ? "fsnb-clickable" : null, tabindex: open ? "0" : null, onclick: open, onkeydown: open ? onActivate(open) : null },
      columns.map((c, i) => {
        const v = value(row, c, i);
        return h("td", { class: num(i), title: typeof v === "number" && !Number.isInteger(v) ? String(v) : null, text: formatCell(v, MONEY.test(c)) });
      }));
  });
  return h("table", { class: "fsnb-table" }, h("thead", {}, head), h("tbody", {}, body));
}

/** Rows (arrays) sorted by column `index`: numbers as numbers, nulls last. */
function sortedRows(rows, index, descending) {
  const sign = descending ? -1 : 1;
  const compare = (a, b) => {
    const x = a[index];
    const y = b[index];
    if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1;
    if (y === null || y === undefined) return -1;
    if (typeof x === "number" && typeof y === "number") return sign * (x - y);
    return sign * cellText(x).localeCompare(cellText(y), undefined, { numeric: true });
  };
  return [...rows].sort(compare);
}

/** JupyterLab's page configuration (its base URL and root folder), or null elsewhere. */
function jupyterConfig() {
  const node = document.getElementById("jupyter-config-data");
  if (!node) return null;
  try { return JSON.parse(node.textContent); } catch { return null; }
}

/** The URL that opens `file` (an absolute path from the kernel) in JupyterLab, or null when
 *  this page is not JupyterLab's or the file lies outside its root folder. */
export function labUrl(file) {
  const config = jupyterConfig();
  if (!file || !config || !config.serverRoot || typeof config.baseUrl !== "string") return null;
  const slashed = (path) => path.replace(/\\/g, "/").replace(/\/+$/, "");
  const root = slashed(config.serverRoot);
  const path = slashed(file);
  if (!path.startsWith(`${root}/`)) return null;
  const relative = path.slice(root.length + 1).split("/").map(encodeURIComponent).join("/");
  return `${config.baseUrl.replace(/\/?$/, "/")}lab/tree/${relative}`;
}

/** Copy `text` and say so on `button`; where the clipboard is refused (an insecure page, a
 *  webview), the button becomes a field holding `text`, selected, for Ctrl+C. */
function copyText(text, button) {
  const clipboard = window.isSecureContext && navigator.clipboard;
  (clipboard ? clipboard.writeText(text) : Promise.reject(new Error("no clipboard")))
    .then(() => {
      button.textContent = "copied";
      setTimeout(() => { button.textContent = "copy path"; }, 1500);
    })
    .catch(() => {
      const field = h("input", { type: "text", class: "fsnb-path-field", value: text, readonly: true, "aria-label": "path of the cited file" });
      button.replaceWith(field);
      field.select();
    });
}

// -- the static record under a live panel ----------------------------------------------------
// The kernel shows a static record of each run beside its panel, for saved and exported
// notebooks. Where the panel renders it hides the first record of its run that follows it
// in the page (same data-fsnb-key: a hash of the question and folder, as
// fsnb.notebook.record computes it), in whatever markup the front end wraps outputs in.

/** 32-bit FNV-1a of `${task}\n${folder}` (UTF-8), as 8 hex digits. */
export function recordKey(task, folder) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(`${task}\n${folder}`)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}

/** The record of the run of `panel` (a .fsnb-panel with its data-fsnb-key): the first one
 *  with its key after it in the page, unless another panel of the same run comes first. */
function recordAfter(panel) {
  const key = panel.dataset.fsnbKey;
  for (const node of panel.ownerDocument.querySelectorAll(".fsnb-panel, .fsnb-record")) {
    if (node === panel || node.dataset.fsnbKey !== key) continue;
    if (!(panel.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    return node.classList.contains("fsnb-record") ? node : null;
  }
  return null;
}

/** The output that holds `record`: its highest ancestor holding nothing else (not the panel). */
function outputOf(record, panel) {
  const media = (node) => node.querySelectorAll("img,canvas,svg,video,iframe").length;
  const text = record.textContent.trim();
  let node = record;
  while (node.parentElement && node.parentElement !== node.ownerDocument.body) {
    const up = node.parentElement;
    if (up.contains(panel) || up.textContent.trim() !== text || media(up) !== media(record)) break;
    node = up;
  }
  return node;
}

const livePanels = new Set(); // each rendered panel's hideRecord
let recordWatch = null;
function watchRecords() {
  if (recordWatch || typeof MutationObserver === "undefined") return;
  const ours = ".fsnb-record, .fsnb-panel"; // a record shown, or a panel put in the page
  const isRecord = (n) => n.nodeType === 1 && (n.matches(ours) || n.querySelector(ours) !== null);
  recordWatch = new MutationObserver((changes) => {
    if (changes.some((change) => [...change.addedNodes].some(isRecord))) livePanels.forEach((hide) => hide());
  });
  recordWatch.observe(document.body, { childList: true, subtree: true });
}

// -- the evidence of an opened citation ---------------------------------------------------------

/** A PDF's cited page (a PNG from the kernel, the quote highlighted in it) in a scrolling
 *  box, scrolled to the highlight once the image is laid out. */
function pageView(ev, alt) {
  if (!ev || typeof ev.image !== "string" || !ev.image.startsWith("data:image/png;base64,")) return null;
  const img = h("img", { class: "fsnb-evidence-img", "data-testid": "fsnb-evidence-img", src: ev.image, alt,
    width: ev.width, height: ev.height, "data-box": ev.box ? JSON.stringify(ev.box) : null });
  const view = h("div", { class: "fsnb-evidence-page", "data-testid": "fsnb-evidence", tabindex: "0", "aria-label": `page ${ev.page}` }, img);
  const sized = typeof ResizeObserver !== "undefined" ? new ResizeObserver(() => reveal()) : null;
  const reveal = () => {
    if (!ev.box || !img.naturalHeight || !img.clientHeight) return;
    const k = img.clientHeight / img.naturalHeight;
    const [, y0, , y1] = ev.box;
    view.scrollTop = Math.max(0, ((y0 + y1) / 2) * k - view.clientHeight / 2);
    if (sized) sized.disconnect(); // once: then the reader scrolls
  };
  img.addEventListener("load", reveal);
  if (sized) sized.observe(img);
  return view;
}

// -- the widget ---------------------------------------------------------------------------

let views = 0; // ids that tie a trace row to its detail (aria-controls)

export default {
  render({ model, el, experimental }) {
    const uid = `fsnb-${++views}`;
    const contexts = new Map(); // citation id -> the passage around its quote, from Python
    const expanded = new Set();
    let tab = "trace";
    let openCitation = null;
    let openAnchor = null;
    let scratchTable = null;

    const status = h("span", { class: "fsnb-status", "data-testid": "fsnb-status" });
    const stoppedMark = h("span", { class: "fsnb-stopped", "data-testid": "fsnb-stopped", text: "stopped early",
      title: "Stopped before the end: the answer comes from what was read by then" });
    // Stop: the agent finishes its step and answers from what it read; while it does, the
    // same button cancels at once (no answer; the trace and the documents read are kept).
    const stop = h("button", { type: "button", class: "fsnb-stop", "data-testid": "fsnb-stop", text: "Stop",
      onclick: () => {
        const name = model.get("status") === "stopping" ? "_cancel" : "_stop";
        stop.disabled = true;
        request(experimental, name, {}, 10000).catch((err) => { stop.disabled = false; console.warn(`fsnb: ${name} failed: ${errorText(err)}`); });
      } });
    const meta = h("div", { class: "fsnb-meta" });
    const header = h("header", { class: "fsnb-header" },
      h("div", { class: "fsnb-title" }, h("div", { class: "fsnb-task" }), meta), h("div", { class: "fsnb-controls" }, stoppedMark, status, stop));
    const askText = h("div", { class: "fsnb-ask-question" });
    const askInput = h("input", { type: "text", placeholder: "Your answer…", "aria-label": "answer" });
    const askNote = h("div", { class: "fsnb-note", role: "status" });
    const send = () => {
      if (!askInput.value.trim()) return;
      askInput.disabled = true;
      askNote.textContent = "";
      request(experimental, "_answer", { answer: askInput.value }, 10000).catch((err) => {
        askInput.disabled = false;
        askNote.textContent = errorText(err);
      });
    };
    askInput.addEventListener("keydown", (e) => { if (e.key === "Enter") send(); });
    const ask = h("div", { class: "fsnb-ask", "data-testid": "fsnb-ask" }, askText,
      h("div", { class: "fsnb-ask-row" }, askInput, h("button", { type: "button", class: "fsnb-send", text: "Send", onclick: send })), askNote);
    const error = h("div", { class: "fsnb-error", "data-testid": "fsnb-error" });
    const answer = h("div", { class: "fsnb-answer", "data-testid": "fsnb-answer" });
    // The opened citation: path, page and the passage (with its context once Python sends it).
    const box = h("div", { class: "fsnb-citation-box fsnb-citation-quote", "data-testid": "fsnb-citation-quote", role: "region", "aria-label": "cited passage", hidden: true });
    const sources = h("div", { class: "fsnb-sources-wrap" });
    const usage = h("div", { class: "fsnb-usage", "data-testid": "fsnb-usage" });
    const tabs = h("nav", { class: "fsnb-tabs", role: "tablist", "aria-label": "views of the run" });
    const body = h("div", { class: "fsnb-tab-body", role: "tabpanel", id: `${uid}-tabpanel` });
    // A follow-up's earlier questions and answers, oldest first, folded above the question.
    const thread = h("details", { class: "fsnb-thread", "data-testid": "fsnb-thread" });
    const panel = h("div", { class: "fsnb-panel tex2jax_ignore mathjax_ignore", "data-testid": "fsnb-panel" },
      thread, header, ask, error, h("section", { class: "fsnb-answer-wrap" }, answer, box, sources), usage, tabs, body);
    el.replaceChildren(panel);

    // The passage box opens right under the block that holds the clicked marker.
    function place(anchor) {
      const block = anchor && anchor.closest(".fsnb-answer li, .fsnb-answer p, .fsnb-answer blockquote, .fsnb-answer td, .fsnb-answer h3, .fsnb-answer h4, .fsnb-answer h5, .fsnb-answer h6");
      if (block && block.tagName === "LI") block.append(box);
      else if (block && block.tagName === "TD") block.closest("table").after(box);
      else if (block) block.after(box);
      else sources.append(box);
    }

    // The cited file: an "open" link in JupyterLab; elsewhere (VS Code, Colab, a saved page)
    // its path to copy, the absolute one once the kernel has sent it.
    function fileAction(src) {
      if (!src.path) return null;
      const url = labUrl(src.file);
      if (url) {
        return h("a", { class: "fsnb-open", href: url, target: "_blank", rel: "noopener noreferrer", title: `open ${src.path} in JupyterLab`, "data-testid": "fsnb-open", text: "open" });
      }
      const folder = model.get("folder") || ".";
      const path = src.file || (folder === "." ? src.path : `${folder.replace(/\/+$/, "")}/${src.path}`);
      const copy = h("button", { type: "button", class: "fsnb-copy", title: path, "data-testid": "fsnb-copy", text: "copy path", onclick: () => copyText(path, copy) });
      return copy;
    }

    function showCitation(n, anchor) {
      const cite = (model.get("citations") || []).find((c) => String(c.id) === String(n));
      openCitation = n;
      openAnchor = anchor && anchor.isConnected ? anchor : answer.querySelector(`.fsnb-citation[data-cite="${n}"]`);
      place(openAnchor);
      box.hidden = false;
      const ctx = contexts.get(String(n));
      const src = { ...(cite || {}), ...(ctx && !ctx.error ? ctx : {}) };
      const where = src.path ? `${src.path}${src.page ? `, page ${src.page_label || src.page}` : ""}` : "no source";
      // the passage with its context: HTML built in Python, every character escaped
      let quote = h("blockquote", { class: "fsnb-citation-passage", text: cite ? cite.quote : `[${n}] has no source` });
      if (ctx && ctx.passage_html) quote = h("div", { class: "fsnb-passage" }, inertHtml(ctx.passage_html));
      const page = ctx && !ctx.error ? pageView(ctx.evidence, cite ? cite.quote : "") : null;
      if (page) quote = h("details", { class: "fsnb-passage-text" }, h("summary", { text: "text" }), quote);
      const flag = cite && !cite.verified ? h("span", { class: "fsnb-unverified", "data-testid": "fsnb-unverified", text: `unverified: ${cite.problem}` }) : null;
      const problem = ctx && ctx.error ? `The passage could not be loaded: ${ctx.error}` : ctx && ctx.note ? ctx.note : "";
      const note = problem ? h("div", { class: "fsnb-note", "data-testid": "fsnb-evidence-note", text: problem }) : null;
      box.replaceChildren(h("div", { class: "fsnb-citation-head" }, h("b", { text: `[${n}]` }), h("span", { class: "fsnb-citation-where", text: where }), fileAction(src), flag,
        h("button", { type: "button", class: "fsnb-close", "aria-label": "close", title: "close (Escape)", text: "×", onclick: closeCitation })), ...[page, note, quote].filter(Boolean));
      if (cite && !ctx) {
        contexts.set(String(n), { pending: true });
        request(experimental, "_show_citation", { id: Number(n) })
          .then((reply) => contexts.set(String(n), reply))
          .catch((err) => contexts.set(String(n), { error: errorText(err) }))
          .finally(() => { if (String(openCitation) === String(n) && !box.hidden) showCitation(n, openAnchor); });
      }
    }

    function closeCitation() {
      box.hidden = true;
      openCitation = null;
      if (openAnchor && openAnchor.isConnected) openAnchor.focus();
    }
    panel.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || box.hidden) return;
      e.preventDefault();
      e.stopPropagation(); // the notebook's own Escape (command mode) is not wanted here
      closeCitation();
    });

    panel.addEventListener("click", (e) => {
      const target = e.target.closest(".fsnb-citation, .fsnb-source");
      if (target) showCitation(target.dataset.cite, target.classList.contains("fsnb-citation") ? target : null);
    });

    function renderHeader() {
      panel.querySelector(".fsnb-task").textContent = model.get("task");
      const backend = model.get("backend");
      const m = model.get("model");
      meta.replaceChildren(h("span", { class: "fsnb-folder" }, icon("folder"), ` ${model.get("folder")}`),
        h("span", { class: "fsnb-backend", text: backend ? `${backend}${m && m !== backend ? ` · ${m}` : ""}` : "" }),
        ...(model.get("reveal_secrets") ? [h("span", { class: "fsnb-secrets", "data-testid": "fsnb-secrets", title: "reveal_secrets: secret values in files were sent to the LLM unmasked", text: "secrets revealed to the model" })] : []));
      panel.dataset.fsnbKey = recordKey(model.get("task") || "", model.get("folder") || "");
      const s = model.get("status");
      stoppedMark.hidden = !(model.get("stopped") && s === "done");
      status.textContent = STATUS_TEXT[s] || s;
      status.dataset.status = s;
      panel.dataset.status = s;
      stop.hidden = !(s === "running" || s === "waiting" || s === "stopping");
      stop.disabled = false;
      stop.textContent = s === "stopping" ? "Cancel" : "Stop";
      stop.title = s === "stopping" ? "Cancel now, without an answer" : "Stop exploring and answer from what was read";
      const message = model.get("error");
      error.hidden = !message;
      error.replaceChildren(...(message ? [icon("warn"), ` ${message}`] : []));
    }

    function renderThread() {
      const earlier = model.get("thread") || [];
      thread.hidden = !earlier.length;
      thread.replaceChildren(h("summary", { text: `${earlier.length} earlier question${earlier.length === 1 ? "" : "s"} in this thread` }),
        ...earlier.map((x) => {
          const said = h("div", { class: "fsnb-thread-answer" });
          said.replaceChildren(inertHtml(x.answer_html)); // safe HTML, rendered in Python
          return h("div", { class: "fsnb-thread-item" }, h("div", { class: "fsnb-thread-question", text: x.question }), said);
        }));
    }

    function renderAsk() {
      const q = model.get("question");
      ask.hidden = !q;
      askText.replaceChildren(...(q ? [icon("ask"), ` ${q}`] : []));
      askInput.disabled = false;
      askNote.textContent = "";
      if (!q) askInput.value = "";
    }

    function renderAnswer() {
      const html = model.get("answer_html"); // safe HTML, rendered once in Python
      answer.replaceChildren(inertHtml(html));
      answer.hidden = !html;
      const cites = model.get("citations") || [];
      const list = h("ol", { class: "fsnb-sources" }, cites.map((c) => h("li", {},
        h("button", { type: "button", class: "fsnb-source", "data-cite": c.id, text: `[${c.id}] ${c.path}${c.page ? `, p. ${c.page_label || c.page}` : ""}` }),
        c.verified ? null : h("span", { class: "fsnb-unverified", text: " unverified" }))));
      const many = cites.length > 6;
      sources.replaceChildren(...(!cites.length ? [] : many ? [h("details", {}, h("summary", { text: `${cites.length} sources` }), list)] : [list]));
      if (openCitation !== null) showCitation(openCitation);
    }

    function renderUsage() {
      const u = model.get("usage") || {};
      const tokens = u.total_tokens ?? (u.prompt_tokens || 0) + (u.completion_tokens || 0);
      const parts = [`${fmtInt(u.llm_calls)} LLM calls`, `${fmtInt(tokens)} tokens`];
      if (u.cached_tokens) parts.push(`${fmtInt(u.cached_tokens)} cached`);
      parts.push(`$${Number(u.cost_usd || 0).toFixed(4)}`);
      if (u.documents_scanned !== undefined) parts.push(`${fmtInt(u.documents_scanned)} scanned`, `${fmtInt(u.documents_parsed)} parsed`);
      parts.push(`${Number(u.wall_s || 0).toFixed(1)} s`);
      usage.textContent = parts.join(" · ");
    }

    // A tree or disk-usage step's view: HTML that Python built with every name escaped.
    function stepView(html) {
      const view = h("div", { class: "fsnb-step-view", "data-testid": "fsnb-step-view" });
      view.innerHTML = html;
      return view;
    }

    // Trace rows come from Python (one per step); a row opens with a click, Enter or Space.
    function renderTrace() {
      const rows = model.get("trace") || [];
      if (!rows.length) return h("div", { class: "fsnb-note", text: model.get("status") === "running" ? "Starting…" : "No steps." });
      return h("div", { class: "fsnb-trace" }, rows.map((row, i) => {
        const key = `${i}:${row.step}:${row.kind}`;
        const open = expanded.has(key);
        const detailId = `${uid}-step-${i}`;
        const toggle = () => { if (expanded.has(key)) expanded.delete(key); else expanded.add(key); renderBody(); };
        const action = row.tool || row.kind;
        const line = h("div", { class: `fsnb-trace-row fsnb-phase-${row.phase}${row.ok === false ? " fsnb-failed" : ""}`,
          "data-testid": "fsnb-trace-row", "data-key": key, role: "button", tabindex: "0",
          "aria-expanded": String(open), "aria-controls": open ? detailId : null,
          onclick: toggle, onkeydown: onActivate(toggle) },
          h("span", { class: "fsnb-step", text: String(row.step) }),
          h("span", { class: "fsnb-phase", text: row.phase || "" }),
          h("span", { class: "fsnb-tool" }, icon(TOOL_ICONS[action] || (row.ok === false ? "warn" : "dot")), ` ${action}`),
          h("span", { class: "fsnb-target", text: row.target || "" }),
          h("span", { class: "fsnb-reason", text: row.reason || "" }),
          h("span", { class: "fsnb-duration", text: row.tool ? fmtMs(row.duration_ms) : "" }));
        const detail = open ? h("div", { class: "fsnb-trace-detail", id: detailId, "data-testid": "fsnb-trace-detail" },
          row.reason ? h("div", { class: "fsnb-detail-reason", text: row.reason }) : null,
          row.view_html ? stepView(row.view_html) : null,
          h("pre", { text: row.result ?? (row.ok === null ? "(no result yet)" : row.target || "") })) : null;
        return [line, detail];
      }));
    }

    function pager(page, pages, go) {
      return h("div", { class: "fsnb-pager" },
        h("button", { type: "button", text: "‹", "aria-label": "previous page", disabled: page <= 0, onclick: () => go(page - 1) }),
        h("span", { text: `page ${page + 1} of ${pages}` }),
        h("button", { type: "button", text: "›", "aria-label": "next page", disabled: page + 1 >= pages, onclick: () => go(page + 1) }));
    }

    // Pages fetched on request; the synced `documents`/`tables` traits hold the first ones.
    // A scratch table is sorted by Python (in SQL, so that paging keeps the order).
    const pages = { documents: null, scratchpad: null, table: null };
    let tableSort = { column: "", descending: false };
    const querySorts = new Map(); // a query_data step -> the client-side sort of its result
    function requestPage(tabName, page, tableName) {
      const sorting = tableName ? { sort: tableSort.column, descending: tableSort.descending } : {};
      request(experimental, "_page", { tab: tabName, page, table: tableName || "", ...sorting })
        .then((reply) => {
          if (reply.table) { if (reply.table === scratchTable) pages.table = reply; }
          else pages[reply.tab] = reply;
          if (tab !== "trace") renderBody();
        })
        .catch((err) => {
          if (tab !== "trace") body.replaceChildren(h("div", { class: "fsnb-error" }, icon("warn"), ` ${errorText(err)}`));
        });
    }

    function renderDocuments() {
      const data = pages.documents || model.get("documents") || {};
      if (!(data.rows || []).length) return h("div", { class: "fsnb-note", text: "No indexed documents for this folder (%explore_index FOLDER indexes it)." });
      const columns = data.columns || Object.keys(data.rows[0]);
      return h("div", {}, table(columns, data.rows), pager(data.page || 0, data.pages || 1, (p) => requestPage("documents", p)));
    }

    // This run's query_data results: the SQL, and the first rows, sortable here.
    function renderResults() {
      const steps = (model.get("trace") || []).filter((row) => row.query);
      if (!steps.length) return null;
      return h("section", { class: "fsnb-results", "data-testid": "fsnb-results" }, h("h4", { text: "Results" }),
        steps.map((row) => {
          const q = row.query;
          const sort = querySorts.get(row.step) || null;
          const rows = sort ? sortedRows(q.rows || [], sort.index, sort.descending) : q.rows || [];
          const onSort = (index) => {
            querySorts.set(row.step, { index, descending: !!sort && sort.index === index && !sort.descending });
            renderBody();
          };
          const shown = (q.rows || []).length;
          const count = q.more_rows ? `more than ${fmtInt(q.row_count)}` : fmtInt(q.row_count);
          const note = shown < q.row_count ? `first ${fmtInt(shown)} of ${count} rows` : `${count} row${q.row_count === 1 ? "" : "s"}`;
          return h("div", { class: "fsnb-query", "data-testid": "fsnb-query" },
            h("pre", { class: "fsnb-sql", "data-testid": "fsnb-sql" }, h("code", { text: q.sql })),
            (q.columns || []).length ? table(q.columns, rows, { sort, onSort }) : null,
            h("div", { class: "fsnb-note fsnb-row-count", text: note }));
        }));
    }

    function renderScratchpad() {
      if (scratchTable && pages.table) {
        const d = pages.table;
        const index = d.columns.indexOf(d.sort);
        const sort = index >= 0 ? { index, descending: !!d.descending } : null;
        const onSort = (i) => {
          const column = d.columns[i];
          tableSort = { column, descending: tableSort.column === column && !tableSort.descending };
          requestPage("scratchpad", 0, scratchTable);
        };
        const first = (d.offset || 0) + 1;
        const range = d.rows.length ? `rows ${fmtInt(first)}–${fmtInt(first + d.rows.length - 1)} of ${fmtInt(d.total)}` : `no rows of ${fmtInt(d.total)}`;
        return h("div", {}, h("button", { type: "button", class: "fsnb-back", text: "← tables", onclick: () => { scratchTable = null; renderBody(); } }),
          h("b", { text: ` ${scratchTable}` }), h("span", { class: "fsnb-note fsnb-row-range", "data-testid": "fsnb-row-range", text: ` ${range}` }),
          table(d.columns, d.rows, { sort, onSort }), pager(d.page, d.pages, (p) => requestPage("scratchpad", p, scratchTable)));
      }
      const rows = (pages.scratchpad || model.get("tables") || {}).rows || [];
      const open = (row) => { scratchTable = row.name; pages.table = null; tableSort = { column: "", descending: false }; requestPage("scratchpad", 0, row.name); };
      const tables = rows.length ? table(["name", "rows", "columns"], rows, { onRowClick: open }) : h("div", { class: "fsnb-note", text: "The scratchpad has no tables." });
      return h("div", {}, renderResults(), tables);
    }

    // Redraw the open tab; keyboard focus stays on the trace row that had it.
    function renderBody() {
      const focused = body.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
      const content = tab === "trace" ? renderTrace() : tab === "documents" ? renderDocuments() : renderScratchpad();
      body.replaceChildren(content);
      if (focused !== undefined) {
        const again = [...body.querySelectorAll("[data-key]")].find((node) => node.dataset.key === focused);
        if (again) again.focus();
      }
    }

    // Tabs: a click, or the arrow keys (Home, End) on the focused tab, opens one.
    const TABS = [["trace", "Trace"], ["documents", "Documents"], ["scratchpad", "Scratchpad"]];
    function openTab(name, focus = false) {
      tab = name;
      if (name === "documents") requestPage("documents", 0);
      if (name === "scratchpad") { scratchTable = null; requestPage("scratchpad", 0); }
      renderTabs(); renderBody();
      if (focus) tabs.querySelector(`[data-tab="${name}"]`).focus();
    }
    function onTabKey(e) {
      const at = TABS.findIndex(([name]) => name === tab);
      const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      e.stopPropagation();
      openTab(TABS[(to + TABS.length) % TABS.length][0], true);
    }
    function renderTabs() {
      tabs.replaceChildren(...TABS.map(([name, label]) => h("button", { type: "button", role: "tab", id: `${uid}-tab-${name}`,
        class: `fsnb-tab${tab === name ? " fsnb-tab-active" : ""}`, "data-tab": name, "aria-selected": String(tab === name),
        "aria-controls": `${uid}-tabpanel`, tabindex: tab === name ? "0" : "-1", text: label,
        onclick: () => openTab(name), onkeydown: onTabKey })));
      body.setAttribute("aria-labelledby", `${uid}-tab-${tab}`);
    }

    const handlers = [
      ["change:task change:folder change:backend change:model change:status change:stopped change:error change:reveal_secrets", () => { renderHeader(); renderUsage(); hideRecord(); if (tab === "trace") renderBody(); }],
      ["change:question", renderAsk],
      ["change:thread", renderThread],
      ["change:answer_html change:citations", () => { contexts.clear(); renderAnswer(); }],
      ["change:usage", renderUsage],
      ["change:trace", () => { if (tab === "trace" || (tab === "scratchpad" && !scratchTable)) renderBody(); }],
      ["change:documents change:tables", () => { pages.documents = null; pages.scratchpad = null; if (tab !== "trace") renderBody(); }],
    ];
    // The record of this run, shown under the panel for pages without widgets, is hidden here.
    let hidden = null;
    function hideRecord() {
      const record = panel.isConnected ? recordAfter(panel) : null;
      if (!record) return;
      const output = outputOf(record, panel);
      if (hidden && hidden !== output && hidden.isConnected) hidden.style.display = "";
      output.style.display = "none";
      hidden = output;
    }

    const each = (names, fn, method) => { for (const name of names.split(" ")) model[method](name, fn); };
    for (const [names, fn] of handlers) each(names, fn, "on");
    renderThread(); renderHeader(); renderAsk(); renderAnswer(); renderUsage(); renderTabs(); renderBody();
    livePanels.add(hideRecord);
    watchRecords();
    hideRecord();
    requestAnimationFrame(hideRecord); // once the front end has put the panel in the page

    return () => {
      for (const [names, fn] of handlers) each(names, fn, "off");
      livePanels.delete(hideRecord);
      if (hidden && hidden.isConnected) hidden.style.display = ""; // no panel: the record shows
    };
  },
};
