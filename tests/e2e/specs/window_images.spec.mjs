// Images in the real window: a real PNG put on the X clipboard (xclip) and pasted with Ctrl+V typed
// through XTEST (WebKitGTK gives that paste event no data: the app reads the clipboard itself) shows
// as a thumbnail in the composer, goes to
// the model with the message (the loopback provider receives an Anthropic `image` block holding
// exactly its base64 data), and shows in the sent message, where a click opens it larger and Esc
// closes it. A file that only claims to be a PNG is refused in the composer and never sent. Both
// the composer with an image and the larger view pass axe.

import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { deflateSync } from "node:zlib";

import { assertAccessible } from "../lib/axe.mjs";
import { answered } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";
import { LONGEST_FRAME, WATCH_FRAMES } from "../lib/frames.mjs";

/** CRC-32 of PNG chunks (Node 20 has no zlib.crc32). */
function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A real `width`×`height` RGB PNG: a gradient, so it is not a blank square. */
function png(width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) rows.set([(x * 255) / width, (y * 255) / height, 160], row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * Hands the composer a file as the user would: a paste of it (as the clipboard gives a copied
 * picture), else a drop on the composer, both dispatched in the page with a real DataTransfer.
 * Says which one the page took.
 */
const GIVE_FILE = `
  const [base64, name, type, how] = arguments;
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const dt = new DataTransfer();
  dt.items.add(new File([bytes], name, { type }));
  const field = document.querySelector('[data-testid="composer-input"]');
  field.focus();
  if (how === "paste") {
    const ev = new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true });
    field.dispatchEvent(ev);
    return { how, carried: ev.clipboardData?.files?.length ?? 0, handled: ev.defaultPrevented };
  }
  const box = field.closest(".composer-box");
  box.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
  const ev = new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true });
  box.dispatchEvent(ev);
  return { how, carried: ev.dataTransfer?.files?.length ?? 0, handled: ev.defaultPrevented };
`;

const attachedCount = (s) => s.count('[data-testid="composer-image"]');

/** Gives the composer the file, by paste if the page takes a synthetic one, else by drop. */
async function giveFile(t, base64, name, type) {
  for (const how of ["paste", "drop"]) {
    const r = await t.s.execute(GIVE_FILE, [base64, name, type, how]);
    if (r.handled) return r;
    t.step(`(a synthetic ${how} did not reach the composer: ${JSON.stringify(r)})`);
  }
  throw new Error("neither a paste nor a drop reached the composer");
}

/**
 * Puts `bytes` on the X clipboard as `type`, held by an xclip that serves it until stopped, as an
 * image viewer or a screenshot tool holds what it copied.
 */
async function onClipboard(t, bytes, type) {
  const file = path.join(t.env("RUN_DIR"), `clipboard-${Date.now()}`);
  await writeFile(file, bytes);
  const owner = spawn("xclip", ["-quiet", "-selection", "clipboard", "-t", type, "-i", file], { stdio: "ignore" });
  await t.s.waitFor("the clipboard holding the image", async () => {
    const targets = await t.run("xclip", ["-o", "-selection", "clipboard", "-t", "TARGETS"]).catch(() => ({ stdout: "" }));
    return targets.stdout.includes(type);
  });
  return owner;
}

/** Ctrl+V as the keyboard types it: an XTEST key event to the focused Warden window. */
async function pressPaste(t) {
  const warden = (await t.run("xdotool", ["search", "--onlyvisible", "--name", "^Warden$"])).stdout.trim().split("\n")[0];
  await t.run("xdotool", ["windowfocus", "--sync", warden]);
  await (await t.s.byTestId("composer-input")).click();
  await t.run("xdotool", ["key", "--clearmodifiers", "ctrl+v"]);
}

export default async function (t) {
  const { s } = t;
  const picture = png(24, 16).toString("base64");

  t.step("a new conversation that can answer");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));

  t.step("a 200 KB text pasted with Ctrl+V through XTEST becomes a chip, not field text");
  const log = Array.from({ length: 4000 }, (_, i) => `line ${String(i).padStart(4, "0")}: ${"x".repeat(40)}`).join("\n");
  const textOwner = await onClipboard(t, Buffer.from(log), "UTF8_STRING");
  let chipGap;
  let fieldGap;
  try {
    await s.execute(WATCH_FRAMES);
    await pressPaste(t);
    const chip = await s.waitForTestId("composer-pasted-item", { timeoutMs: 10_000 });
    t.assert((await chip.text()).includes("4,000 lines"), `the chip says its size: ${await chip.text()}`);
    chipGap = await s.executeAsync(LONGEST_FRAME);
    // The reference, in the same run: the same paste into a plain textarea (what the field did).
    await s.execute(`const a = document.createElement("textarea"); a.id = "paste-reference";
      a.style.cssText = "position:fixed;left:0;top:0;width:300px;height:80px"; document.body.append(a); a.focus(); return true;`);
    await s.execute(WATCH_FRAMES);
    await t.run("xdotool", ["key", "--clearmodifiers", "ctrl+v"]);
    await s.waitFor("the reference textarea filled", async () =>
      (await s.execute(`return document.getElementById("paste-reference").value.length`)) >= log.length - 10,
    );
    fieldGap = await s.executeAsync(LONGEST_FRAME);
    await s.execute(`document.getElementById("paste-reference").remove(); return true;`);
  } finally {
    textOwner.kill();
  }
  // A figure, not a test: the machines are shared and noisy.
  t.step(`(longest frame gap over the paste: ${chipGap} ms as a chip, ${fieldGap} ms in a plain textarea, this run)`);
  const fieldLength = await s.execute(`return document.querySelector('[data-testid="composer-input"]').value.length`);
  t.assert(fieldLength === 0, `the field holds none of it: ${fieldLength} characters`);
  await t.shot("pasted-text-chip");
  await (await s.find('[data-testid="composer-pasted-item"] button')).click();
  await s.waitFor("the chip removed", async () => (await s.count('[data-testid="composer-pasted-item"]')) === 0);

  t.step("a file that only claims to be a PNG is refused in the composer");
  await giveFile(t, Buffer.from("not a picture at all\n").toString("base64"), "notes.png", "image/png");
  const refusal = await s.waitForTestId("composer-image-error");
  t.assert((await refusal.text()).includes("is not a PNG, JPEG, GIF or WebP image"), `the refusal says why: ${await refusal.text()}`);
  t.assert((await attachedCount(s)) === 0, "nothing was attached");

  t.step("a real PNG on the X clipboard, pasted with Ctrl+V typed through XTEST, shows as a thumbnail");
  const owner = await onClipboard(t, png(24, 16), "image/png");
  try {
    await pressPaste(t);
    await s.waitFor("the thumbnail in the composer", async () => (await attachedCount(s)) === 1);
  } finally {
    owner.kill();
  }
  t.assert((await s.count('[data-testid="composer-image-error"]')) === 0, "the earlier refusal went away");
  const thumbSrc = await s.execute(`return document.querySelector('[data-testid="composer-image"] img').getAttribute("src")`);
  t.assert(thumbSrc === `data:image/png;base64,${picture}`, `the thumbnail shows the picture: ${thumbSrc.slice(0, 60)}…`);
  const removeLabel = await (await s.byTestId("composer-image-remove")).attr("aria-label");
  t.assert(removeLabel === "Remove image 1 (pasted image.png)", `the remove button says what it removes: ${removeLabel}`);
  await assertAccessible(t, "the composer with an image attached");
  await t.shot("attached");

  t.step("sent with the message: the provider receives it as an image block of the first user message");
  await (await s.byTestId("composer-input")).type("What is in this picture?");
  await (await s.byTestId("composer-send")).click();
  await s.waitFor("the composer emptied", async () => (await attachedCount(s)) === 0);
  await answered(s);
  const requests = await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json();
  const withPicture = requests.filter((r) =>
    (r.body?.messages?.[0]?.content ?? []).some?.((b) => b.type === "image" && b.source?.data === picture),
  );
  t.assert(withPicture.length >= 1, `a request carries the picture (of ${requests.length} requests)`);
  const first = withPicture[withPicture.length - 1].body.messages[0];
  t.assert(first.role === "user", `the picture is in the first (user) message: ${first.role}`);
  const image = first.content.find((b) => b.type === "image");
  t.assert(
    image.source.type === "base64" && image.source.media_type === "image/png",
    `an Anthropic base64 PNG source: ${JSON.stringify({ ...image.source, data: "…" })}`,
  );
  t.assert(
    first.content.some((b) => b.type === "text" && b.text.includes("What is in this picture?")),
    "the message's text goes with it",
  );

  t.step("the sent message shows the picture; a click opens it larger, Esc closes it");
  const sentSrc = await s.execute(
    `return document.querySelector('[data-testid="message"][data-role="user"] [data-testid="message-images"] img')?.getAttribute("src") ?? null`,
  );
  t.assert(sentSrc === `data:image/png;base64,${picture}`, `the sent message shows the picture: ${String(sentSrc).slice(0, 60)}…`);
  await (await s.find('[data-testid="message"][data-role="user"] [data-testid="image-thumb"]')).click();
  await s.waitForTestId("image-viewer");
  const big = await s.execute(
    `const img = document.querySelector('[data-testid="image-viewer"] img'); return { src: img.getAttribute("src"), width: img.getBoundingClientRect().width };`,
  );
  t.assert(big.src === `data:image/png;base64,${picture}`, "the larger view shows the same picture");
  t.assert(big.width > 0, "the larger view is drawn");
  await assertAccessible(t, "the larger view of a sent image");
  await t.shot("viewer");
  await (await s.byTestId("image-viewer-close")).type("\uE00C");
  await s.waitFor("the viewer closed by Esc", async () => (await s.count('[data-testid="image-viewer"]')) === 0);
  await t.shot("sent");
}
