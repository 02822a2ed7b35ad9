// An accessibility check of what the window shows, with axe-core run inside the real webview
// (injected through WebDriver; the page's own CSP does not apply to the automation's scripts).

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let source = null;

/** The serious and critical violations axe finds in the window now (impact, rule, where). */
export async function axeViolations(s) {
  source ??= await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  await s.execute(`${source}\nreturn typeof axe;`);
  // What a person sees once the page settles: a fade under way (the message meta line's, 120 ms)
  // would be judged by its colour halfway, and its contrast would seem too low.
  await s.executeAsync(
    `const done = arguments[arguments.length - 1];
     Promise.race([
       Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))),
       new Promise((r) => setTimeout(r, 2000)),
     ]).then(() => done(true));`,
  );
  const found = await s.executeAsync(
    `const done = arguments[arguments.length - 1];
     axe.run(document, { resultTypes: ["violations"] })
       .then((r) => done(r.violations
         .filter((v) => v.impact === "serious" || v.impact === "critical")
         .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                        where: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " — " + (n.failureSummary ?? "").split("\\n").slice(1).join(" ")) }))))
       .catch((e) => done([{ id: "axe-failed", impact: "critical", help: String(e), where: [] }]));`,
  );
  return found;
}

/** Fails the spec with every serious or critical violation, named. */
export async function assertAccessible(t, where) {
  const violations = await axeViolations(t.s);
  const said = violations.map((v) => `${v.impact} ${v.id} (${v.help}): ${v.where.join(" | ")}`).join("\n      ");
  t.assert(violations.length === 0, `${where}: no serious or critical accessibility violations, found:\n      ${said}`);
}

/**
 * Every visible button whose own text is no word (an icon, a glyph, nothing) has words for its
 * accessible name, as WebKit itself computes it (WebDriver's computed label, not axe's guess).
 * Returns how many were checked.
 */
export async function assertIconButtonsNamed(t, where) {
  const { s } = t;
  // A page that redraws under the scan (the setup screen, as its checks answer) makes an element
  // found a moment ago stale: the whole scan is done again, so no button escapes it.
  for (let attempt = 1; ; attempt++) {
    const scan = await scanIconButtons(s);
    if (scan) {
      t.assert(scan.unnamed.length === 0, `${where}: icon-only buttons without words for a screen reader: ${scan.unnamed.join("; ")}`);
      return scan.checked;
    }
    if (attempt === 5) throw new Error(`${where}: the page kept redrawing under the icon-button scan`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Every shown icon-only button's name, or null when the page redrew under the scan. */
async function scanIconButtons(s) {
  let checked = 0;
  const unnamed = [];
  for (const button of await s.findAll("button:not([hidden])")) {
    let seen;
    try {
      seen = await iconButtonName(s, button);
    } catch (error) {
      if (String(error).includes("stale element")) return null;
      throw error;
    }
    if (!seen) continue;
    checked++;
    if (!/[\p{L}]{2,}/u.test(seen.label)) unnamed.push(`${JSON.stringify(seen.text)} → ${JSON.stringify(seen.label)} (${seen.testId})`);
  }
  return { checked, unnamed };
}

/** A shown button whose own text is no word: its text, test id and computed label; else null. */
async function iconButtonName(s, button) {
  // Shown: laid out, and not inside a closed <details> (whose content is not drawn).
  const [visible, text, testId] = await s.execute(
    `const b = arguments[0]; const r = b.getBoundingClientRect();
     const folded = b.closest("details:not([open]) > :not(summary)") !== null;
     return [r.width > 0 && r.height > 0 && !folded, (b.innerText || "").trim(), b.getAttribute("data-testid") ?? "no test id"];`,
    [button.ref()],
  );
  if (!visible || /[\p{L}\p{N}]{2,}/u.test(text)) return null;
  const label = String((await button.computedLabel()) ?? "").trim();
  return { text, testId, label };
}
