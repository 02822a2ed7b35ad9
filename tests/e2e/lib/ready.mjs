// Brings a fresh window to a conversation that can answer, whatever an earlier spec left behind
// in the shared Warden home: the hand-written settings file accepted (so its project permissions
// apply), an Anthropic key for the loopback provider, then a new conversation.

export async function readyToChat(t, key) {
  const { s } = t;
  await s.waitForTestId("app-root", { timeoutMs: 20_000 });
  await s.waitFor("the conversation, the setup screen or settings", async () =>
    (await s.count('[data-testid="setup-screen"], [data-testid="settings-open"]')) > 0,
  );
  if ((await s.count('[data-testid="setup-open-settings"]')) > 0) await (await s.byTestId("setup-open-settings")).click();
  else await (await s.byTestId("settings-open")).click();
  await s.waitForTestId("settings-panel");
  // The integrity check answers after the panel shows: give it a moment before judging.
  await s.afterPaint();
  await new Promise((r) => setTimeout(r, 500));
  if ((await s.count('[data-testid="settings-accept-file"]')) > 0) {
    await (await s.byTestId("settings-accept-file")).click();
    await s.waitFor("the settings file accepted", async () => (await s.count('[data-testid="settings-integrity-notice"]')) === 0);
  }
  const status = await s.waitForTestId("key-status-anthropic");
  if ((await status.attr("data-set")) !== "true") {
    await (await s.waitForTestId("key-input-anthropic")).type(key);
    await (await s.byTestId("key-save-anthropic")).click();
    await s.waitFor("key status: set", async () => (await (await s.byTestId("key-status-anthropic")).attr("data-set")) === "true");
  }
  if ((await s.count('[data-testid="settings-close"]')) > 0) await (await s.byTestId("settings-close")).click();
  if ((await s.count('[data-testid="setup-skip"]')) > 0) await (await s.byTestId("setup-skip")).click();
  await s.waitForTestId("composer-input");
  if ((await s.count('[data-testid="conversation-new"]')) > 0) await (await s.byTestId("conversation-new")).click();
  await s.waitFor("an empty conversation", async () =>
    (await s.execute(`return document.querySelector('[data-testid="conversation-view"]')?.getAttribute("data-message-count")`)) === "0",
  );
}
