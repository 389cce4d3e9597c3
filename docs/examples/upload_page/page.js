// The upload page: sends the chosen files to POST /inspect and shows what each provider would
// be sent. Everything the client or server wrote (file names, messages) reaches the page through
// textContent or a checked attribute, never innerHTML: a file named <img onerror=...> stays text.
"use strict";

const form = document.getElementById("upload");
const input = document.getElementById("files");
const drop = document.getElementById("drop");
const chosenList = document.getElementById("chosen");
const statusLine = document.getElementById("status");
const results = document.getElementById("results");
const payloads = document.getElementById("payloads");
let limits = { providers: [], max_files: 8, max_bytes: 0, max_total_bytes: 0 };
let selected = [];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function size(bytes) {
  if (bytes === null || bytes === undefined) return "?";
  if (bytes < 1000) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function mib(bytes) {
  return `${(bytes / 2 ** 20).toLocaleString("en", { maximumFractionDigits: 1 })} MiB`;
}

function dims(width, height) {
  return width && height ? `${width}×${height}` : "";
}

function setStatus(text, isError) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", Boolean(isError));
}

async function loadLimits() {
  const response = await fetch("/limits");
  limits = await response.json();
  document.getElementById("limits").textContent =
    `Up to ${limits.max_files} files, ${mib(limits.max_bytes)} each, ${mib(limits.max_total_bytes)} in all.`;
  const box = document.getElementById("providers");
  for (const name of limits.providers) {
    const row = el("div", "provider");
    const label = el("label");
    const check = el("input");
    check.type = "checkbox";
    check.name = "provider";
    check.value = name;
    check.checked = true;
    label.append(check, " ", name);
    const model = el("input");
    model.type = "text";
    model.name = `model.${name}`;
    model.placeholder = "model (optional)";
    model.setAttribute("aria-label", `model for ${name}`);
    row.append(label, model);
    box.append(row);
  }
}

function choose(files) {
  selected = Array.from(files);
  chosenList.replaceChildren(...selected.map((file) => el("li", "", `${file.name} (${size(file.size)})`)));
  setStatus(selected.length ? `${selected.length} file(s) chosen` : "");
}

input.addEventListener("change", () => choose(input.files));
for (const name of ["dragenter", "dragover"]) {
  drop.addEventListener(name, (event) => { event.preventDefault(); drop.classList.add("over"); });
}
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  drop.classList.remove("over");
  choose(event.dataTransfer.files);
});

function refusal(error) {
  const server = error.status >= 500;
  const box = el("div", server ? "refusal server" : "refusal");
  const title = server ? "Server problem" : "Refused";
  box.append(el("strong", "", `${title} (${error.status} ${error.error})`));
  box.append(el("p", "detail", error.detail));
  if (error.operator) box.append(el("p", "operator", error.operator));
  return box;
}

function fact(list, term, value, title) {
  const dt = el("dt", "", term);
  const dd = el("dd", "", value);
  if (title) dd.title = title;
  list.append(dt, dd);
}

function providerCell(sent) {
  const cell = el("div", "cell");
  cell.dataset.provider = sent.provider;
  const heading = el("h3", "", sent.provider);
  if (sent.model) heading.append(el("span", "model", sent.model));
  cell.append(heading);
  if (sent.error) {
    cell.append(refusal(sent.error));
    return cell;
  }
  if (typeof sent.preview === "string" && sent.preview.startsWith("data:image/")) {
    const img = el("img", "preview");
    img.alt = `what ${sent.provider} is sent`;
    img.src = sent.preview;
    cell.append(img);
  } else {
    cell.append(el("div", "nopreview", sent.note || "no preview"));
  }
  const list = el("dl");
  fact(list, "Type", sent.media_type);
  if (sent.width) fact(list, "Size", dims(sent.width, sent.height));
  fact(list, "Bytes", size(sent.bytes));
  const tokens = sent.method === "unknown" ? "unknown" : `${sent.tokens.toLocaleString("en")} (${sent.method})`;
  fact(list, "Tokens", tokens, sent.how);
  fact(list, "Steps", sent.steps.length ? sent.steps.join(", ") : "none");
  cell.append(list);
  return cell;
}

function fileCard(file) {
  const card = el("article", "card");
  const head = el("header");
  head.append(el("h2", "filename", file.filename || "(no name)"));
  if (file.error) {
    const said = file.size ? ` · bytes say ${file.detected}` : "";
    head.append(el("p", "meta", `${size(file.size)} uploaded${said}`));
    card.append(head, refusal(file.error));
    return card;
  }
  const shape = [file.media_type, dims(file.width, file.height), `${size(file.size)} uploaded`];
  head.append(el("p", "meta", shape.filter(Boolean).join(" · ")));
  if (file.upload_steps.length) {
    head.append(el("p", "steps", `On upload: ${file.upload_steps.join(", ")}`));
  }
  const grid = el("div", "grid");
  grid.append(...file.providers.map(providerCell));
  card.append(head, grid);
  return card;
}

function payloadBlock(entry) {
  const block = el("details", "payload");
  block.dataset.provider = entry.provider;
  block.append(el("summary", "", entry.model ? `${entry.provider} (${entry.model})` : entry.provider));
  if (entry.error) block.append(refusal(entry.error));
  else if (entry.payload) block.append(el("pre", "", JSON.stringify(entry.payload, null, 2)));
  else block.append(el("p", "detail", entry.note || "nothing to send"));
  return block;
}

function show(body) {
  results.replaceChildren(...body.files.map(fileCard));
  const title = el("h2", "", "Payloads, media summarised");
  payloads.replaceChildren(title, ...body.payloads.map(payloadBlock));
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!selected.length) { setStatus("Choose at least one file.", true); return; }
  if (selected.length > limits.max_files) {
    setStatus(`At most ${limits.max_files} files at once.`, true);
    return;
  }
  const data = new FormData();
  for (const file of selected) data.append("file", file, file.name);
  for (const row of document.querySelectorAll(".provider")) {
    const [check, model] = row.querySelectorAll("input");
    if (!check.checked) continue;
    data.append("provider", check.value);
    if (model.value.trim()) data.append(model.name, model.value.trim());
  }
  setStatus("Inspecting…");
  document.body.classList.add("busy");
  try {
    const response = await fetch("/inspect", { method: "POST", body: data });
    const body = await response.json();
    if (!response.ok) {
      const error = { status: response.status, error: body.error || "Error", detail: body.detail };
      if (typeof error.detail !== "string") error.detail = JSON.stringify(error.detail);
      results.replaceChildren(refusal(error));
      payloads.replaceChildren();
      setStatus(`The request was refused (${response.status}).`, true);
      return;
    }
    show(body);
    setStatus(`Done: ${body.files.length} file(s).`);
  } catch (failure) {
    setStatus(`The server did not answer: ${failure}`, true);
  } finally {
    document.body.classList.remove("busy");
    document.body.dataset.done = String(Date.now());
  }
});

loadLimits().catch((failure) => setStatus(`Could not load the providers: ${failure}`, true));
