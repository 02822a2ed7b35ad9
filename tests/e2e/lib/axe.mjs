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
