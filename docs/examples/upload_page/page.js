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
const button = document.getElementById("inspect");
let limits = {
  providers: [], max_files: 8, max_bytes: 0, max_total_bytes: 0, max_pixels: 0, max_total_pixels: 0,
};
let selected = [];
let busy = false; // one POST /inspect at a time: a second submit in flight is ignored

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// One unit system on the page: binary (1 KiB = 1,024 bytes, 1 MiB = 1,048,576), as the limits.
function size(bytes) {
  if (bytes === null || bytes === undefined) return "?";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1023.95 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function exact(bytes) {
  return bytes === null || bytes === undefined ? "" : `${bytes.toLocaleString("en")} bytes`;
}

function mib(bytes) {
  return `${(bytes / 2 ** 20).toLocaleString("en", { maximumFractionDigits: 1 })} MiB`;
}

function megapixels(pixels) {
  return `${(pixels / 1e6).toLocaleString("en", { maximumFractionDigits: 1 })} MP`;
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
    `Up to ${limits.max_files} files, ${mib(limits.max_bytes)} each, ${mib(limits.max_total_bytes)} in all; ` +
    `images up to ${megapixels(limits.max_pixels)} each, ${megapixels(limits.max_total_pixels)} in all ` +
    "(1 MiB = 1,048,576 bytes; refusals give exact bytes).";
  document.getElementById("accept").textContent =
    "Accepted: raster images (image/*: PNG, JPEG, GIF, WebP, HEIC, ...) and PDF; " +
    "not SVG, which can carry scripts.";
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

// A name that may be long: one line, cut with an ellipsis by the CSS, whole in its tooltip.
function nameLine(tag, className, name) {
  const node = el(tag, className ? `${className} name` : "name", name);
  node.title = name;
  return node;
}

function choose(files) {
  selected = Array.from(files);
  chosenList.replaceChildren(...selected.map((file) => {
    const chip = el("li");
    const bytes = el("span", "size", `(${size(file.size)})`);
    bytes.title = exact(file.size);
    chip.append(nameLine("span", "", file.name), bytes);
    return chip;
  }));
  setStatus(selected.length ? `${selected.length} file(s) chosen` : "");
}

// Each chosen file's outcome beside its name: ready, or refused and why (the answer lists the
// files in the order they were sent, which is the order chosen).
function markChosen(files) {
  files.forEach((file, index) => {
    const chip = chosenList.children[index];
    if (!chip) return;
    chip.querySelector(".outcome")?.remove();
    chip.dataset.state = file.ready ? "ready" : "refused";
    chip.append(el("span", "outcome", file.ready ? "ready" : `refused: ${file.reason}`));
  });
}

input.addEventListener("change", () => choose(input.files));
for (const name of ["dragenter", "dragover"]) {
  drop.addEventListener(name, (event) => { event.preventDefault(); drop.classList.add("over"); });
}
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  drop.classList.remove("over");
  input.files = event.dataTransfer.files; // one state: the input holds what was dropped
  choose(input.files);
});

function refusal(error) {
  const server = error.status >= 500;
  const box = el("div", server ? "refusal server" : "refusal");
  const title = server ? "Server problem" : "Refused";
  box.append(el("strong", "", `${title} (${error.status} ${error.error})`));
  box.append(el("p", "detail", error.detail));
  if (error.hint) box.append(el("p", "hint", error.hint));
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
  const heading = el("h3", "name", sent.provider);
  if (sent.model) heading.append(el("span", "model", sent.model));
  heading.title = sent.model ? `${sent.provider} ${sent.model}` : sent.provider;
  cell.append(heading);
  if (sent.error) {
    cell.append(refusal(sent.error));
    return cell;
  }
  // Every cell's picture sits in a frame of one size, so previews line up whatever their shape.
  if (typeof sent.preview === "string" && sent.preview.startsWith("data:image/")) {
    const frame = el("div", "frame thumb");
    const img = el("img", "preview");
    img.alt = `what ${sent.provider} is sent`;
    img.src = sent.preview;
    frame.append(img);
    cell.append(frame);
  } else {
    cell.append(el("div", "frame nopreview", sent.note || "no preview"));
  }
  const list = el("dl");
  fact(list, "Type", sent.media_type);
  if (sent.width) fact(list, "Size", dims(sent.width, sent.height));
  fact(list, "Bytes", size(sent.bytes), exact(sent.bytes));
  const tokens = sent.method === "unknown" ? "unknown" : `${sent.tokens.toLocaleString("en")} (${sent.method})`;
  fact(list, "Tokens", tokens, sent.how);
  fact(list, "Steps", sent.steps.length ? sent.steps.join(", ") : "none");
  cell.append(list);
  return cell;
}

function fileCard(file) {
  const card = el("article", "card");
  card.dataset.state = file.ready ? "ready" : "refused";
  const head = el("header");
  head.append(nameLine("h2", "filename", file.filename || "(no name)"));
  if (file.error) {
    const said = file.size ? ` · bytes say ${file.detected}` : "";
    const meta = el("p", "meta", `${size(file.size)} uploaded${said}`);
    meta.title = exact(file.size);
    head.append(meta);
    card.append(head, refusal(file.error));
    return card;
  }
  const shape = [file.media_type, dims(file.width, file.height), `${size(file.size)} uploaded`];
  const meta = el("p", "meta", shape.filter(Boolean).join(" · "));
  meta.title = exact(file.size);
  head.append(meta);
  if (file.upload_steps.length) {
    head.append(el("p", "steps", `On upload: ${file.upload_steps.join(", ")}`));
  }
  if (!file.ready) head.append(el("p", "reason", `Refused: ${file.reason}`));
  const grid = el("div", "grid");
  grid.append(...file.providers.map(providerCell));
  card.append(head, grid);
  return card;
}

function payloadBlock(entry, index) {
  const block = el("details", "payload");
  block.open = index === 0; // the first shown open: what a request looks like, at a glance
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
  const note = el("p", "hint", "Media as mediaparts.testing.summarize writes them (its sizes in decimal KB, MB).");
  payloads.replaceChildren(title, note, ...body.payloads.map(payloadBlock));
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (busy) return; // a double-click, or Enter, while a request is in flight
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
  busy = true; // set before the first await, so no second submit gets past the check above
  button.disabled = true;
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
    markChosen(body.files);
    setStatus(`${body.ready} ready, ${body.refused} refused`, body.refused > 0 && !body.ready);
  } catch (failure) {
    setStatus(`The server did not answer: ${failure}`, true);
  } finally {
    busy = false;
    button.disabled = false;
    document.body.classList.remove("busy");
    document.body.dataset.done = String(Date.now());
  }
});

loadLimits().catch((failure) => setStatus(`Could not load the providers: ${failure}`, true));
