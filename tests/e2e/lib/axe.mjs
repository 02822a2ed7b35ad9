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
  const icons = await s.findAll("button:not([hidden])");
  let checked = 0;
  const unnamed = [];
  for (const button of icons) {
    let visible, text;
    try {
      // Shown: laid out, and not inside a closed <details> (whose content is not drawn).
      [visible, text] = await s.execute(
        `const b = arguments[0]; const r = b.getBoundingClientRect();
         const folded = b.closest("details:not([open]) > :not(summary)") !== null;
         return [r.width > 0 && r.height > 0 && !folded, (b.innerText || "").trim()];`,
        [button.ref()],
      );
    } catch (error) {
      // Re-rendered since it was found: the one now in its place is checked on another pass.
      if (String(error).includes("stale element")) continue;
      throw error;
    }
    if (!visible || /[\p{L}\p{N}]{2,}/u.test(text)) continue;
    checked++;
    const label = String((await button.computedLabel()) ?? "").trim();
    if (!/[\p{L}]{2,}/u.test(label)) unnamed.push(`${JSON.stringify(text)} → ${JSON.stringify(label)} (${await button.attr("data-testid") ?? "no test id"})`);
  }
  t.assert(unnamed.length === 0, `${where}: icon-only buttons without words for a screen reader: ${unnamed.join("; ")}`);
  return checked;
}
