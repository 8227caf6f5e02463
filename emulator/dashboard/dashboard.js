// The emulator's dashboard: reads the control plane's views (/_emulator/dashboard/…) and changes
// the emulator through its own operations (faults, rate limit, reset). No framework and no build:
// the browser runs this file as it is. Every text the emulator sends is put in the page as text
// (textContent), never as markup: a request's path is whatever a client sent.

const BASE = "/_emulator";
/** How often the journal asks for what is new, and the open panel refreshes. */
const JOURNAL_POLL_MS = 1000;
const PANEL_POLL_MS = 2000;
const ACCOUNTS_PER_PAGE = 50;
const JOURNAL_PAGE = 100;
/** Rows the journal keeps in the page; older ones are dropped from the bottom. */
const JOURNAL_ROWS = 1000;

const $ = (selector) => document.querySelector(selector);

/** An element with properties (`class`, `text`, `dataset`, `on<event>`, attributes) and children. */
function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A query string of the values that are set. */
function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "" && value !== false) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** Calls the control plane; throws its error message on any other status than 2xx. */
async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      cache: "no-store",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    connection(false, "the emulator does not answer");
    throw error;
  }
  connection(true);
  const text = await response.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new Error(data?.message ?? `${method} ${path} answered ${response.status}`);
  return data;
}

function connection(up, why) {
  const el = $("#connection");
  el.textContent = up ? "live" : `offline: ${why}`;
  el.classList.toggle("down", !up);
}

let messageTimer;
/** Shows a line under the tabs for a while: what a change did, or why it failed. */
function notify(text, kind = "info") {
  const el = $("#message");
  el.textContent = text;
  el.className = `message ${kind}`;
  el.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => (el.hidden = true), kind === "error" ? 10000 : 4000);
}

/** Runs a change, then says what it did or why it failed, and refreshes what it touched. */
async function change(work, done) {
  try {
    const result = await work();
    if (done) notify(done, "ok");
    await refreshAll();
    return result;
  } catch (error) {
    notify(error.message, "error");
    return undefined;
  }
}

const number = (n) => n.toLocaleString("en");
const plural = (n, one, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;

function statusBadge(status) {
  const kind = status === 0 ? "s5" : `s${String(status)[0]}`;
  return h("span", { class: `badge ${kind}`, text: status === 0 ? "reset" : String(status) });
}

function replaceRows(tbody, rows, empty, columns) {
  tbody.replaceChildren(
    ...(rows.length > 0 ? rows : [h("tr", { class: "placeholder" }, h("td", { colspan: columns, text: empty }))]),
  );
}

// ---- the header

async function refreshSummary() {
  const s = await api("/dashboard/summary");
  $("#org").textContent = `${s.org.name} (${s.org.environment})`;
  const items = [
    plural(s.counts.linkedAccounts, "linked account"),
    plural(s.counts.apps, "app"),
    plural(s.counts.configs, "config"),
    plural(s.counts.envValues, "env value"),
    `rate limit ${s.rateLimit.rateLimit}`,
    plural(s.faults.active, "active fault rule"),
    `journal ${number(s.journal.size)} of ${number(s.journal.capacity)}`,
    plural(s.webhooks.pending, "pending delivery", "pending deliveries"),
  ];
  $("#summary").replaceChildren(...items.map((text) => h("li", { text })));
}

$("#reset").addEventListener("click", () => {
  if (!confirm("Reset the emulator to its fixture? Its state, workflow runs and deliveries go; faults stay.")) return;
  void change(() => api("/reset", { method: "POST" }), "Reset to the fixture");
});

// ---- tabs

const panels = ["workspace", "journal", "webhooks", "control"];
let tab = "workspace";

function showTab(name) {
  tab = panels.includes(name) ? name : "workspace";
  for (const button of document.querySelectorAll("nav.tabs button"))
    button.setAttribute("aria-selected", String(button.dataset.tab === tab));
  for (const panel of panels) $(`#panel-${panel}`).hidden = panel !== tab;
  if (location.hash !== `#${tab}`) history.replaceState(null, "", `#${tab}`);
  if (tab === "journal") $("#journal-new").textContent = "";
  void refreshPanel();
}

for (const button of document.querySelectorAll("nav.tabs button"))
  button.addEventListener("click", () => showTab(button.dataset.tab));

// ---- workspace: linked accounts (paged), one account, env variables, applications

const accounts = { page: 1, q: "", selected: null, shown: false };

async function refreshAccounts() {
  const page = await api(
    `/dashboard/linked-accounts${query({ page: accounts.page, limit: ACCOUNTS_PER_PAGE, q: accounts.q })}`,
  );
  if (accounts.page > page.totalPages) {
    accounts.page = page.totalPages;
    return refreshAccounts();
  }
  const rows = page.docs.map((a) =>
    h(
      "tr",
      { class: a.account_id === accounts.selected ? "selected" : "", dataset: { account: a.account_id } },
      h(
        "td",
        {},
        h("button", { type: "button", class: "link", text: a.account_id, onclick: () => selectAccount(a.account_id) }),
      ),
      h("td", { text: a.name }),
      h("td", { class: "num", text: number(a.configs) }),
      h("td", { class: "num", text: number(a.envValues) }),
    ),
  );
  replaceRows($("#accounts tbody"), rows, accounts.q ? "No linked account matches." : "No linked accounts.", 4);
  $("#accounts-total").textContent = `(${number(page.totalDocs)}${accounts.q ? " matching" : ""})`;
  $("#accounts-page").textContent = `page ${number(page.page)} of ${number(page.totalPages)}`;
  $("#accounts-prev").disabled = !page.hasPrevPage;
  $("#accounts-next").disabled = !page.hasNextPage;
  if (!accounts.shown) {
    accounts.shown = true;
    // What scripts/bench-dashboard.ts measures: the time until the first page of accounts is on screen.
    performance.mark("dashboard:accounts-shown");
  }
}

let searchTimer;
$("#accounts-search").addEventListener("input", (event) => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    accounts.q = event.target.value.trim();
    accounts.page = 1;
    void refreshAccounts().catch((error) => notify(error.message, "error"));
  }, 250);
});
$("#accounts-search").addEventListener("submit", (event) => event.preventDefault());
$("#accounts-prev").addEventListener("click", () => {
  accounts.page = Math.max(1, accounts.page - 1);
  void refreshAccounts();
});
$("#accounts-next").addEventListener("click", () => {
  accounts.page += 1;
  void refreshAccounts();
});

function selectAccount(id) {
  accounts.selected = id;
  for (const row of document.querySelectorAll("#accounts tbody tr"))
    row.classList.toggle("selected", row.dataset.account === id);
  void refreshAccount().catch((error) => notify(error.message, "error"));
}

/** A field's value as the page shows it; unset fields say so. */
function fieldValue(field) {
  return field.set ? h("code", { text: field.value }) : h("span", { class: "muted", text: "not set" });
}

function fieldsTable(fields) {
  if (fields.length === 0) return h("p", { class: "muted", text: "No fields." });
  return h(
    "table",
    { class: "grid inner" },
    h("thead", {}, h("tr", {}, h("th", { text: "Field" }), h("th", { text: "Type" }), h("th", { text: "Value" }))),
    h(
      "tbody",
      {},
      fields.map((f) =>
        h(
          "tr",
          { dataset: { field: f.id } },
          h(
            "td",
            {},
            f.name,
            " ",
            h("span", { class: "muted", text: f.id }),
            f.required ? h("span", { class: "tag", text: "required" }) : "",
          ),
          h("td", { text: f.field_type }),
          h("td", {}, fieldValue(f)),
        ),
      ),
    ),
  );
}

function workflowRow(w) {
  const state = w.enabled
    ? h("span", { class: "badge on", text: "on" })
    : h("span", { class: "badge off", text: "off" });
  return h(
    "li",
    { dataset: { workflow: w.id } },
    h(
      "div",
      { class: "workflow" },
      state,
      " ",
      h("strong", { text: w.name }),
      " ",
      h("span", { class: "muted", text: w.id }),
      w.published ? "" : h("span", { class: "tag", text: "draft" }),
    ),
    w.fields.length > 0 ? fieldsTable(w.fields) : "",
  );
}

function configSection(c) {
  return h(
    "section",
    { class: "config", dataset: { slug: c.slug, config: c.config_id } },
    h("h3", {}, `${c.app} `, h("span", { class: "muted", text: `${c.slug} · config ${c.config_id}` })),
    c.labels.length > 0
      ? h(
          "p",
          {},
          "Labels: ",
          c.labels.map((l) => h("span", { class: "tag", text: `${l.name}=${l.value}` })),
        )
      : "",
    fieldsTable(c.fields),
    h("ul", { class: "workflows" }, c.workflows.map(workflowRow)),
  );
}

/** An env value's cell: its text, or only the word "encrypted" (the server never sends such a value). */
function envValueCell(v) {
  return v.encrypted ? h("span", { class: "badge secret", text: "encrypted" }) : h("code", { text: v.value });
}

function envValuesTable(values) {
  if (values.length === 0) return h("p", { class: "muted", text: "No env values." });
  return h(
    "table",
    { class: "grid inner" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { text: "Variable" }),
        h("th", { text: "Scope" }),
        h("th", { text: "Workflow" }),
        h("th", { text: "Value" }),
      ),
    ),
    h(
      "tbody",
      {},
      values.map((v) =>
        h(
          "tr",
          { dataset: { env: v.name } },
          h("td", { text: v.name }),
          h("td", { text: v.scope }),
          h("td", { text: v.workflow_id ?? "" }),
          h("td", {}, envValueCell(v)),
        ),
      ),
    ),
  );
}

async function refreshAccount() {
  const el = $("#account-detail");
  if (!accounts.selected) return;
  let detail;
  try {
    detail = await api(`/dashboard/linked-accounts/${encodeURIComponent(accounts.selected)}`);
  } catch (error) {
    el.replaceChildren(h("p", { class: "muted", text: error.message }));
    return;
  }
  const { account } = detail;
  el.replaceChildren(
    h(
      "h3",
      {},
      account.name,
      " ",
      h("span", { class: "muted", text: `${account.account_id} · ${account.environment}` }),
    ),
    account.udf.length > 0
      ? h(
          "p",
          {},
          "User-defined fields: ",
          account.udf.map((u) => h("span", { class: "tag", text: `${u.key_name}=${u.key_value}` })),
        )
      : "",
    h("h4", { text: "Configs" }),
    ...(detail.configs.length > 0
      ? detail.configs.map(configSection)
      : [h("p", { class: "muted", text: "No configs." })]),
    h("h4", { text: "Env values" }),
    envValuesTable(detail.envValues),
  );
}

async function refreshEnv() {
  const { definitions, values } = await api("/dashboard/env");
  const rows = definitions.map((d) => {
    const own = values.filter((v) => v.name === d.name);
    const cell =
      own.length === 0
        ? h("span", { class: "muted", text: d.values > 0 ? "per linked account" : "—" })
        : own.map((v) =>
            h(
              "div",
              {},
              v.workflow_id ? h("span", { class: "muted", text: `${v.workflow_id}: ` }) : "",
              envValueCell(v),
            ),
          );
    return h(
      "tr",
      { dataset: { env: d.name } },
      h(
        "td",
        {},
        h("strong", { text: d.name }),
        d.encrypted ? h("span", { class: "tag", text: "encrypted" }) : "",
        h("div", { class: "muted", text: d.description }),
      ),
      h("td", { text: d.scope }),
      h("td", { text: d.var_format }),
      h("td", { class: "num", text: number(d.values) }),
      h("td", {}, cell),
    );
  });
  replaceRows($("#env tbody"), rows, "No env variable definitions.", 5);
}

async function refreshApps() {
  const { apps } = await api("/dashboard/apps");
  $("#apps").replaceChildren(
    ...apps.map((a) =>
      h(
        "div",
        { class: "app" },
        h("h3", {}, `${a.name} `, h("span", { class: "muted", text: `${a.slug} · ${plural(a.configs, "config")}` })),
        h("p", { class: "muted", text: `Fields: ${a.fields.map((f) => f.name).join(", ") || "none"}` }),
        h(
          "ul",
          {},
          a.workflows.map((w) =>
            h(
              "li",
              {},
              w.name,
              " ",
              h("span", { class: "muted", text: `${w.id} · ${plural(w.fields, "field")}` }),
              w.published ? "" : h("span", { class: "tag", text: "draft" }),
            ),
          ),
        ),
      ),
    ),
  );
}

async function refreshWorkspace() {
  await Promise.all([refreshAccounts(), refreshAccount(), refreshEnv(), refreshApps()]);
}

// ---- the journal: what the API was asked, as it happens

const journal = { cursor: 0, oldest: null, live: true, unseen: 0, filter: {}, generation: 0 };

function journalFilter() {
  const { method, status, account, path, flagged } = $("#journal-filters").elements;
  return {
    method: method.value,
    status: status.value.trim(),
    account: account.value.trim(),
    path: path.value.trim(),
    flagged: flagged.checked ? "true" : "",
  };
}

function journalRow(e) {
  const q = Object.entries(e.query ?? {});
  const mark = e.rateLimited
    ? h("span", { class: "badge rate", text: "rate limited" })
    : e.fault
      ? h("span", { class: "badge fault", text: `fault: ${e.fault}` })
      : "";
  return h(
    "tr",
    {
      class: e.rateLimited ? "rate" : e.fault ? "fault" : "",
      dataset: { seq: e.seq, method: e.method, path: e.path, status: e.status },
    },
    h("td", { class: "num", text: e.seq }),
    h("td", { class: "time", text: e.time.slice(11, 23) }),
    h("td", { text: e.method }),
    h(
      "td",
      { class: "path" },
      e.path,
      q.length > 0
        ? h("span", { class: "muted", text: `?${new URLSearchParams(q.map(([k, v]) => [k, String(v)]))}` })
        : "",
    ),
    h("td", {}, statusBadge(e.status)),
    h("td", { text: e.linkedAccountId ?? "" }),
    h("td", { text: e.auth }),
    h("td", { class: "num", text: e.durationMs.toFixed(1) }),
    h("td", {}, mark),
  );
}

function journalInfo(window) {
  const paused = journal.live ? "" : " · paused";
  $("#journal-info").textContent =
    `${number(window.size)} entries in the journal (it keeps ${number(window.capacity)})${paused}`;
}

/** Loads the newest page that passes the filters, in place of what is shown. */
async function reloadJournal() {
  const generation = ++journal.generation;
  journal.filter = journalFilter();
  const window = await api(`/dashboard/journal${query({ ...journal.filter, limit: JOURNAL_PAGE })}`);
  if (generation !== journal.generation) return;
  journal.cursor = window.lastSeq;
  journal.oldest = window.entries.at(-1)?.seq ?? null;
  replaceRows($("#journal tbody"), window.entries.map(journalRow), "No requests yet.", 9);
  $("#journal-older").hidden = !window.more;
  journalInfo(window);
  // What scripts/bench-dashboard.ts measures: the time until the journal's first page is in the page.
  if (performance.getEntriesByName("dashboard:journal-shown").length === 0) performance.mark("dashboard:journal-shown");
}

/** Adds what came since the last poll at the top. */
async function pollJournal() {
  if (!journal.live) return;
  const generation = journal.generation;
  const window = await api(
    `/dashboard/journal${query({ ...journal.filter, since: journal.cursor, limit: JOURNAL_PAGE * 5 })}`,
  );
  if (generation !== journal.generation) return;
  journal.cursor = window.lastSeq;
  journalInfo(window);
  if (window.entries.length === 0) return;
  const tbody = $("#journal tbody");
  tbody.querySelector("tr.placeholder")?.remove();
  tbody.prepend(...window.entries.map(journalRow));
  while (tbody.rows.length > JOURNAL_ROWS) tbody.lastElementChild.remove();
  if (tbody.rows.length === JOURNAL_ROWS || window.more) {
    journal.oldest = Number(tbody.lastElementChild.dataset.seq);
    $("#journal-older").hidden = false;
  }
  if (tab !== "journal") {
    journal.unseen += window.entries.length;
    $("#journal-new").textContent = `+${number(journal.unseen)}`;
  } else journal.unseen = 0;
}

$("#journal-older").addEventListener("click", async () => {
  if (journal.oldest === null) return;
  const window = await api(
    `/dashboard/journal${query({ ...journal.filter, before: journal.oldest, limit: JOURNAL_PAGE })}`,
  );
  $("#journal tbody").append(...window.entries.map(journalRow));
  journal.oldest = window.entries.at(-1)?.seq ?? journal.oldest;
  $("#journal-older").hidden = !window.more;
});

let filterTimer;
for (const type of ["input", "change"])
  $("#journal-filters").addEventListener(type, () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(() => void reloadJournal().catch((error) => notify(error.message, "error")), 250);
  });
$("#journal-filters").addEventListener("submit", (event) => event.preventDefault());
$("#journal-live").addEventListener("click", (event) => {
  journal.live = !journal.live;
  event.target.textContent = journal.live ? "Pause" : "Resume";
  event.target.setAttribute("aria-pressed", String(journal.live));
  if (journal.live) void reloadJournal();
});
$("#journal-clear").addEventListener("click", async () => {
  await change(() => api("/requests", { method: "DELETE" }), "Journal cleared");
  journal.unseen = 0;
  await reloadJournal().catch((error) => notify(error.message, "error"));
});

// ---- webhooks: receivers, and each delivery with its attempts

function attemptsList(attempts) {
  if (attempts.length === 0) return h("span", { class: "muted", text: "none yet" });
  return h(
    "ol",
    { class: "attempts" },
    attempts.map((a) =>
      h(
        "li",
        {},
        a.status === null ? h("span", { class: "badge s5", text: a.error ?? "no answer" }) : statusBadge(a.status),
        ` ${a.startedAt.slice(11, 23)} · ${a.durationMs} ms`,
      ),
    ),
  );
}

async function refreshWebhooks() {
  const view = await api("/dashboard/webhooks");
  const { settings } = view;
  $("#webhooks-settings").textContent =
    `Each attempt may take ${settings.timeoutMs} ms; ${settings.retries} retries, the first after ${settings.backoffMs} ms, ` +
    `each next one twice as long. ${plural(view.pending, "delivery", "deliveries")} queued or being sent.`;
  replaceRows(
    $("#receivers tbody"),
    view.receivers.map((r) =>
      h(
        "tr",
        {},
        h("td", { text: r.id }),
        h("td", {}, h("code", { text: r.url })),
        h("td", { text: r.events.join(", ") }),
        h("td", { text: r.source }),
      ),
    ),
    "No receivers: register one with POST /_emulator/webhooks/receivers or --webhook.",
    4,
  );
  $("#deliveries-total").textContent =
    view.total > view.deliveries.length ? `(newest ${view.deliveries.length} of ${number(view.total)})` : "";
  replaceRows(
    $("#deliveries tbody"),
    view.deliveries.map((d) =>
      h(
        "tr",
        { dataset: { delivery: d.id, state: d.state } },
        h("td", {}, d.id, d.redeliveryOf ? h("div", { class: "muted", text: `again ${d.redeliveryOf}` }) : ""),
        h("td", { text: d.event }),
        h(
          "td",
          {},
          d.run.workflow_name,
          h("div", { class: "muted", text: `${d.run.linked_account_id} · ${d.run.instance_id}` }),
        ),
        h("td", {}, h("code", { text: d.url })),
        h("td", {}, h("span", { class: `badge state-${d.state}`, text: d.state })),
        h("td", {}, attemptsList(d.attempts)),
        h(
          "td",
          {},
          h("button", {
            type: "button",
            text: "Redeliver",
            onclick: () =>
              change(
                () => api(`/webhooks/deliveries/${encodeURIComponent(d.id)}/redeliver`, { method: "POST" }),
                `Sent ${d.id} again`,
              ),
          }),
        ),
      ),
    ),
    "No deliveries yet: a workflow run's end is delivered to the receivers registered for its event.",
    7,
  );
}

// ---- faults and the rate limit, changed from here

function actionText(action) {
  if ("status" in action) {
    const retry = action.retryAfter === undefined ? "" : `, Retry-After ${action.retryAfter} s`;
    return `answer ${action.status}${retry}${action.message ? ` “${action.message}”` : ""}`;
  }
  if ("reset" in action) return "reset the connection";
  return `delay ${action.delayMs} ms`;
}

function whenText(rule) {
  if (rule.times !== undefined)
    return rule.remaining === 0
      ? `spent after ${plural(rule.times, "time")}`
      : `${rule.remaining} of ${rule.times} left`;
  if (rule.probability !== undefined) return `with probability ${rule.probability}`;
  return "every match";
}

async function refreshControl() {
  const [{ rules }, limit] = await Promise.all([api("/faults"), api("/rate-limit")]);
  replaceRows(
    $("#faults tbody"),
    rules.map((r) =>
      h(
        "tr",
        { class: r.remaining === 0 ? "spent" : "", dataset: { rule: r.id } },
        h("td", { class: "num", text: r.id }),
        h("td", { text: r.method }),
        h("td", {}, h("code", { text: r.path })),
        h("td", { text: actionText(r.action) }),
        h("td", { text: whenText(r) }),
        h("td", { class: "num", text: r.fired }),
        h(
          "td",
          {},
          h("button", {
            type: "button",
            text: "Remove",
            onclick: () => change(() => api(`/faults/${r.id}`, { method: "DELETE" }), `Rule ${r.id} removed`),
          }),
        ),
      ),
    ),
    "No fault rules: every request goes through.",
    7,
  );
  const answer = limit.status === 403 ? '403 "Rate Limit Hit"' : "429";
  $("#rate-limit-current").textContent =
    limit.requestsPerSecond === null
      ? "Off: no request is limited."
      : `${limit.requestsPerSecond} requests per second with a burst of ${limit.burst}, per credential; ` +
        `answered ${answer}${limit.retryAfter ? " with Retry-After" : ""}.`;
  const form = $("#rate-limit-form");
  // The form starts from what is in force, and is left alone while it is being edited.
  if (!form.contains(document.activeElement) && !form.dataset.edited) {
    const { rateLimit, status, retryAfter } = form.elements;
    rateLimit.value = limit.rateLimit;
    status.value = String(limit.status);
    retryAfter.checked = limit.retryAfter;
  }
}

function showActionInputs() {
  const kind = $("#fault-form").elements.kind.value;
  for (const label of document.querySelectorAll("#fault-form [data-for]")) label.hidden = label.dataset.for !== kind;
}
$("#fault-form").elements.kind.addEventListener("change", showActionInputs);

/** The rule the form describes, as POST /_emulator/faults takes it. */
function ruleOf(form) {
  const f = form.elements;
  const optional = (input) => (input.value.trim() === "" ? undefined : Number(input.value));
  const action =
    f.kind.value === "reset"
      ? { reset: true }
      : f.kind.value === "delay"
        ? { delayMs: Number(f.delayMs.value) }
        : { status: Number(f.status.value), retryAfter: optional(f.retryAfter), message: f.message.value || undefined };
  return {
    method: f.method.value,
    path: f.path.value,
    action,
    times: optional(f.times),
    probability: optional(f.probability),
  };
}

$("#fault-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const rule = ruleOf(event.target);
  void change(
    () => api("/faults", { method: "POST", body: { rules: [rule] } }),
    `Rule added: ${rule.method} ${rule.path}`,
  );
});
$("#faults-clear").addEventListener("click", () =>
  change(() => api("/faults", { method: "DELETE" }), "Every fault rule removed"),
);

$("#rate-limit-form").addEventListener("input", (event) => (event.currentTarget.dataset.edited = "true"));
$("#rate-limit-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const { rateLimit, status, retryAfter } = form.elements;
  const body = { rateLimit: rateLimit.value.trim(), status: Number(status.value), retryAfter: retryAfter.checked };
  void change(() => api("/rate-limit", { method: "PUT", body }), `Rate limit set to ${body.rateLimit}`).then(
    () => delete form.dataset.edited,
  );
});

// ---- refreshing

async function refreshPanel() {
  try {
    if (tab === "workspace") await refreshWorkspace();
    else if (tab === "webhooks") await refreshWebhooks();
    else if (tab === "control") await refreshControl();
  } catch (error) {
    if (!(error instanceof TypeError)) notify(error.message, "error");
  }
}

async function refreshAll() {
  await Promise.all([refreshSummary(), refreshPanel(), tab === "journal" ? reloadJournal() : pollJournal()]);
}

/** Runs `work` every `ms` while the page is visible, one run at a time. */
function every(ms, work) {
  const run = async () => {
    if (!document.hidden) await work().catch(() => undefined);
    setTimeout(run, ms);
  };
  setTimeout(run, ms);
}

showActionInputs();
showTab(location.hash.slice(1));
void refreshSummary().catch(() => undefined);
void reloadJournal().catch(() => undefined);
every(JOURNAL_POLL_MS, pollJournal);
every(PANEL_POLL_MS, () => Promise.all([refreshSummary(), refreshPanel()]));
