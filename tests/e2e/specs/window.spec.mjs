// The app starts, shows its window with the right title, loads the bundled UI under the strict
// CSP (no remote content), and can reach its own commands but not a plugin command the webview
// was not granted. Without a GPU the web process is told to draw without OpenGL compositing.

import { readdirSync, readFileSync } from "node:fs";

/** The environment of every WebKitWebProcess started by the app `app`. */
function webProcessEnvs(app) {
  const procs = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  const read = (p, f) => {
    try {
      return readFileSync(`/proc/${p}/${f}`, "utf8");
    } catch {
      return "";
    }
  };
  const appPids = new Set(procs.filter((p) => read(p, "cmdline").split("\0")[0] === app));
  return procs
    .filter((p) => read(p, "comm").trim() === "WebKitWebProces")
    .filter((p) => {
      const stat = read(p, "stat");
      return appPids.has(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    })
    .map((p) => read(p, "environ").split("\0"));
}

function hasRenderNode() {
  try {
    return readdirSync("/dev/dri").some((n) => n.startsWith("renderD"));
  } catch {
    return false;
  }
}

export default async function (t) {
  const { s } = t;
  t.step("window title");
  await s.waitFor("the Warden title", async () => (await s.title()) === "Warden");

  t.step("the UI mounted from the bundled assets");
  await s.waitForTestId("app-root", { timeoutMs: 20_000 });
  const origin = await s.execute("return location.protocol + '//' + location.host");
  t.assert(origin === "tauri://localhost", `served from the bundled assets, got ${origin}`);
  await t.shot("start");

  t.step("own commands answer; a plugin command the capability does not grant is refused");
  const probe = await s.executeAsync(
    `const done = arguments[arguments.length - 1];
     const inv = window.__TAURI_INTERNALS__.invoke;
     (async () => {
       const keys = await inv("keys_status");
       let dialog = "allowed";
       try { await inv("plugin:dialog|open", { options: {} }); } catch (e) { dialog = String(e); }
       done({ keys, dialog });
     })().catch((e) => done({ error: String(e) }));`,
  );
  t.assert(!probe.error, `keys_status failed: ${probe.error}`);
  t.assert(Array.isArray(probe.keys) && probe.keys.length === 4, `keys_status: ${JSON.stringify(probe.keys)}`);
  t.assert(probe.keys.every((k) => !("value" in k)), "no key value ever reaches the webview");
  t.assert(/not allowed|denied|permission/i.test(probe.dialog), `dialog plugin refused: ${probe.dialog}`);

  t.step("the CSP holds in the window: no inline script, no eval, no remote fetch");
  const csp = await s.executeAsync(
    `const done = arguments[arguments.length - 1];
     const violations = [];
     document.addEventListener("securitypolicyviolation", (e) => violations.push(e.effectiveDirective + " " + e.blockedURI));
     const el = document.createElement("script");
     el.textContent = "window.__inlineRan = true";
     document.head.append(el);
     let evalRan = false;
     try { evalRan = eval("1 + 1") === 2; } catch (e) { evalRan = false; }
     fetch("http://127.0.0.1:9/").catch(() => null).then(() =>
       setTimeout(() => done({ inline: window.__inlineRan === true, evalRan, violations }), 100));`,
  );
  t.assert(!csp.inline, "an inline script did not run");
  t.assert(!csp.evalRan, "eval is refused");
  const v = csp.violations.join(" | ");
  t.assert(/script-src(-elem)? inline/.test(v), `the inline script was a CSP violation: ${v}`);
  t.assert(/connect-src http:\/\/127\.0\.0\.1:9/.test(v), `the remote fetch was a CSP violation: ${v}`);

  t.step("the web process draws without GL compositing when there is no GPU render node");
  const envs = webProcessEnvs(t.env("APP"));
  t.assert(envs.length >= 1, "found the app's web process");
  const userChose = "WEBKIT_DISABLE_COMPOSITING_MODE" in process.env || "WEBKIT_FORCE_COMPOSITING_MODE" in process.env;
  const expected = !userChose && !hasRenderNode();
  const disabled = envs.every((e) => e.includes("WEBKIT_DISABLE_COMPOSITING_MODE=1"));
  t.assert(disabled === expected, `compositing disabled: ${disabled}, expected ${expected}`);
}
