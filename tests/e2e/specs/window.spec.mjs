// The app starts, shows its window with the right title, loads the bundled UI under the strict
// CSP (no remote content), and can reach its own commands but not a plugin command the webview
// was not granted.

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
}
