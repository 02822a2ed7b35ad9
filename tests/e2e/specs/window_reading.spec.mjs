// Reading what the window shows, with the real layout and real X key presses (issue 36): a wide
// markdown table at 720 px keeps its words whole and its box scrolls sideways (the arrow keys
// scroll it too); a long diff in the approval card is reached with Tab and read to its last line
// with PageDown; a conversation search result is opened with ↓ and Enter from the search field,
// its snippet plain text, and Esc empties the field; an attached image's × sits on its thumbnail;
// Settings' tool names do not run into each other.

import { send, turnOver } from "../lib/chat.mjs";
import { LONG_FILE_LINES } from "../lib/provider.mjs";
import { readyToChat } from "../lib/ready.mjs";

/** Height of the menu bar GTK draws inside the window, above the page. */
const MENU_BAR_MAX = 40;

/** The app window resized on the virtual screen (no window manager: X resizes it as asked). */
async function resize(t, width, height) {
  await t.run("xdotool", ["search", "--sync", "--name", "^Warden$", "windowsize", "--sync", String(width), String(height)]);
  await t.s.waitFor(`a ${width}×${height} window`, async () => {
    const [w, h] = await t.s.execute("return [window.innerWidth, window.innerHeight]");
    return w === width && h <= height && h >= height - MENU_BAR_MAX;
  });
}

/**
 * Real key presses (xdotool's XTEST input, as a keyboard gives), to the Warden window given the X
 * focus first; the page has painted what they did when this returns.
 */
async function press(t, ...keys) {
  const found = (await t.run("xdotool", ["search", "--onlyvisible", "--name", "^Warden$"])).stdout.trim();
  await t.run("xdotool", ["windowfocus", "--sync", found.split("\n")[0]]);
  await t.run("xdotool", ["key", "--delay", "60", ...keys]);
  await t.s.afterPaint();
}

const activeTestId = (s) => s.execute(`return document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName`);

/** The last answer's table: its scroll box, and each word of a cell drawn on more than one line. */
const TABLE_LAYOUT = `
  const answer = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
  const table = answer.querySelector("table");
  const box = table.parentElement.classList.contains("md-table-wrap") ? table.parentElement : table;
  box.scrollIntoView({ block: "center" });
  const broken = [];
  for (const cell of table.querySelectorAll("th, td")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  }
  const messages = document.querySelector('[data-testid="conversation-view"] .messages');
  return {
    wrapped: box !== table,
    focusable: box.tabIndex >= 0,
    label: box.getAttribute("aria-label"),
    scrollWidth: box.scrollWidth,
    clientWidth: box.clientWidth,
    broken,
    transcriptOverflow: messages.scrollWidth - messages.clientWidth,
  };
`;

/** Where the approval card's diff box is scrolled, and whether its last line is in sight. */
const DIFF_STATE = `
  const card = document.querySelector('[data-testid="approval-dialog"]');
  const box = card.querySelector('[data-testid="diff-view"]');
  const rows = box.querySelectorAll(".diff-text");
  const last = rows[rows.length - 1];
  const inside = (r, o) => r.top >= o.top - 1 && r.bottom <= o.bottom + 1;
  const lastRect = last.getBoundingClientRect();
  return {
    focused: document.activeElement === box,
    added: box.querySelectorAll('tr[data-kind="add"]').length,
    lastText: last.textContent,
    atEnd: box.scrollTop + box.clientHeight >= box.scrollHeight - 2,
    scrollTop: box.scrollTop,
    lastInSight: inside(lastRect, box.getBoundingClientRect()) && inside(lastRect, card.getBoundingClientRect()),
  };
`;

async function wideTable(t) {
  const { s } = t;
  t.step("a wide table at 720 px: words whole, its box scrolls sideways");
  await resize(t, 720, 560);
  await send(s, "Please show a wide table");
  await turnOver(s);
  await s.waitFor("the table", () =>
    s.execute(`return !![...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop()?.querySelector("table")`),
  );
  const layout = await s.execute(TABLE_LAYOUT);
  t.assert(layout.broken.length === 0, `no cell breaks a word: ${layout.broken.join(", ")}`);
  t.assert(layout.wrapped, "the table sits in a scroll box of its own");
  t.assert(layout.scrollWidth > layout.clientWidth, `the box scrolls sideways: ${layout.scrollWidth} > ${layout.clientWidth}`);
  t.assert(layout.transcriptOverflow <= 0, `the transcript is not widened (${layout.transcriptOverflow} px)`);
  t.assert(layout.focusable && layout.label, `the box takes the focus and is named: ${JSON.stringify(layout)}`);
  await t.shot("wide-table-720");

  t.step("the arrow keys scroll the focused table box sideways");
  await s.execute(`[...document.querySelectorAll(".md-table-wrap")].pop().focus(); return true;`);
  await press(t, "Right", "Right", "Right");
  const left = await s.execute(`return [...document.querySelectorAll(".md-table-wrap")].pop().scrollLeft`);
  t.assert(left > 0, `→ scrolled the table (scrollLeft ${left})`);
}

async function longDiff(t) {
  const { s } = t;
  t.step("a long diff in the approval card: Tab reaches its box, PageDown reaches its last line");
  await (await s.byTestId("conversation-new")).click();
  await send(s, "Now write a long file notes/long.txt");
  await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
  await s.waitFor("the card has the focus", async () => (await activeTestId(s)) === "approval-dialog");
  let tabs = 0;
  while (!(await s.execute(DIFF_STATE)).focused && tabs < 4) {
    await press(t, "Tab");
    tabs++;
  }
  const start = await s.execute(DIFF_STATE);
  t.assert(start.focused, `Tab from the card reaches the diff's box (after ${tabs} presses, focus on ${await activeTestId(s)})`);
  t.assert(start.added === LONG_FILE_LINES, `the diff holds every line: ${start.added}`);
  t.assert(!start.lastInSight, "the last line is not in sight before scrolling");
  let pages = 0;
  while (!(await s.execute(DIFF_STATE)).atEnd && pages < 40) {
    await press(t, "Next");
    pages++;
  }
  const end = await s.execute(DIFF_STATE);
  t.assert(end.atEnd && end.focused, `PageDown scrolled the diff to its end in ${pages} presses: ${JSON.stringify(end)}`);
  t.assert(end.lastInSight, `its last line is in sight in the card: ${end.lastText}`);
  t.assert(end.lastText.includes(`line ${LONG_FILE_LINES} of the long file`), `the last line is the file's: ${end.lastText}`);
  await t.shot("long-diff-end");
  await press(t, "Up", "Up");
  t.assert((await s.execute(DIFF_STATE)).scrollTop < end.scrollTop, "↑ scrolls it back");

  t.step("Esc in the diff's box still rejects the call");
  await press(t, "Escape");
  await s.waitFor("the card gone", async () => (await s.count('[data-testid="approval-dialog"]')) === 0);
  await turnOver(s);
}

async function searchByKeys(t) {
  const { s } = t;
  t.step("Ctrl+K, a search typed, ↓ and Enter open the result; its snippet is plain text");
  await press(t, "ctrl+k");
  await s.waitFor("the caret in the search field", async () => (await activeTestId(s)) === "conversation-search");
  await t.run("xdotool", ["type", "--delay", "40", "quokka"]);
  const hit = '[data-testid="conversation-hit"]';
  await s.waitFor("one result", async () => (await s.count(hit)) === 1, { timeoutMs: 10_000 });
  const snippet = await s.execute(`return document.querySelector('[data-testid="conversation-snippet"]')?.textContent ?? ""`);
  t.assert(snippet.includes("quokka"), `the snippet shows where the word is: ${snippet}`);
  t.assert(!/\*\*|`|##/.test(snippet), `the snippet is plain text, no markdown: ${snippet}`);
  const target = await s.execute(`return document.querySelector(arguments[0]).getAttribute("data-conversation-id")`, [hit]);
  t.assert((await s.execute(`return document.querySelector(arguments[0]).getAttribute("aria-current")`, [hit])) === null, "not the conversation shown");
  await press(t, "Down");
  const chosen = await s.execute(
    `const field = document.activeElement; const id = field.getAttribute("aria-activedescendant");
     const option = id ? document.getElementById(id) : null;
     return { field: field.getAttribute("data-testid"), selected: option?.getAttribute("aria-selected") ?? null, id: option?.getAttribute("data-conversation-id") ?? null };`,
  );
  t.assert(chosen.field === "conversation-search" && chosen.selected === "true" && chosen.id === target, `↓ chose the result: ${JSON.stringify(chosen)}`);
  await press(t, "Return");
  await s.waitFor("the found conversation open", () =>
    s.execute(`return document.querySelector(arguments[0])?.getAttribute("aria-current") === "page"`, [hit]),
  );
  await s.waitFor("its table shown", async () => (await s.count('[data-testid="conversation-view"] table')) === 1);
  await t.shot("search-opened");

  t.step("Esc empties the search field and the list comes back");
  await s.execute(`document.querySelector('[data-testid="conversation-search"]').focus(); return true;`);
  await press(t, "Escape");
  await s.waitFor("the list back", async () => (await s.count(hit)) === 0 && (await s.count('[data-testid="conversation-item"]')) > 0);
  t.assert((await s.execute(`return document.querySelector('[data-testid="conversation-search"]').value`)) === "", "the field is empty");
}

/** A 1×1 PNG. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async function thumbnail(t) {
  const { s } = t;
  t.step("an attached image: no list bullet, its × on the thumbnail's corner");
  const handled = await s.execute(
    `const bytes = Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0));
     const dt = new DataTransfer();
     dt.items.add(new File([bytes], "pixel.png", { type: "image/png" }));
     const field = document.querySelector('[data-testid="composer-input"]');
     field.focus();
     const box = field.closest(".composer-box");
     box.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
     const ev = new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true });
     box.dispatchEvent(ev);
     return ev.defaultPrevented;`,
    [PIXEL],
  );
  t.assert(handled, "the composer took the dropped image");
  await s.waitFor("the thumbnail", async () => (await s.count('[data-testid="composer-image"]')) === 1);
  const place = await s.execute(
    `const item = document.querySelector('[data-testid="composer-image"]');
     const img = item.querySelector("img").getBoundingClientRect();
     const x = item.querySelector('[data-testid="composer-image-remove"]').getBoundingClientRect();
     return { bullet: getComputedStyle(item).display === "list-item" && getComputedStyle(item).listStyleType !== "none",
              dx: Math.round((x.left + x.width / 2) - img.right), dy: Math.round((x.top + x.height / 2) - img.top) };`,
  );
  t.assert(!place.bullet, "no list bullet beside the thumbnail");
  t.assert(Math.abs(place.dx) <= 16 && Math.abs(place.dy) <= 16, `the × sits on the thumbnail's top right corner: ${JSON.stringify(place)}`);
  await t.shot("attached-thumbnail");
  await (await s.byTestId("composer-image-remove")).click();
  await s.waitFor("the image removed", async () => (await s.count('[data-testid="composer-image"]')) === 0);
}

async function toolLabels(t) {
  const { s } = t;
  t.step("Settings → project permissions at 720 px: no tool label runs into another");
  await (await s.byTestId("settings-open")).click();
  await s.waitForTestId("settings-panel");
  await s.waitFor("the tools listed", async () => (await s.count('[data-testid="allowed-tool"]')) > 3);
  const clash = await s.execute(
    `const labels = [...document.querySelectorAll('[data-testid="allowed-tool"]')].map((i) => i.closest("label"));
     labels[0].closest(".tools-allowed").scrollIntoView({ block: "center" });
     const rects = labels.map((l) => l.getBoundingClientRect());
     const out = [];
     labels.forEach((l, i) => {
       for (const child of l.querySelectorAll("*")) {
         const r = child.getBoundingClientRect();
         if (r.width && (r.right > rects[i].right + 1 || r.left < rects[i].left - 1)) out.push(l.textContent + " spills out of its label");
       }
       for (let j = i + 1; j < rects.length; j++) {
         const a = rects[i], b = rects[j];
         if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(l.textContent + " overlaps " + labels[j].textContent);
       }
     });
     return out;`,
  );
  await t.shot("allowed-tools-720");
  t.assert(clash.length === 0, `tool labels stay apart: ${clash.join("; ")}`);
  await (await s.byTestId("settings-close")).click();
}

export default async function (t) {
  t.step("a new conversation that can answer");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));
  await wideTable(t);
  await longDiff(t);
  await searchByKeys(t);
  await thumbnail(t);
  await toolLabels(t);
}
