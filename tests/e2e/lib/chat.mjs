// What the specs do in a conversation: send a message, wait for the turn to end, read the answer.

/** Type `text` into the message field and send it. */
export async function send(s, text) {
  await (await s.waitForTestId("composer-input")).type(text);
  await (await s.byTestId("composer-send")).click();
}

/** The text of the tool block `selector`, opened to show its result. */
export const openedBlock = (s, selector) =>
  s.execute(`
    const block = document.querySelector(${JSON.stringify(selector)});
    block.querySelector('[data-testid="tool-toggle"]').click();
    return new Promise((r) => requestAnimationFrame(() => r(block.textContent)));`);

/** The text of the last assistant message ("" when there is none). */
export const lastAssistantText = (s) =>
  s.execute(`return [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop()?.textContent ?? ""`);

/** Until the running turn is over (no Stop button). */
export const turnOver = (s) =>
  s.waitFor("the turn is over", async () => (await s.count('[data-testid="composer-stop"]')) === 0, { timeoutMs: 30_000 });

const assistantCount = (s) => s.count('[data-testid="message"][data-role="assistant"]');

/** Send `text` and wait until a new answer has streamed in and its turn is over. */
export async function ask(s, text) {
  const before = await assistantCount(s);
  await send(s, text);
  await s.waitFor("a new answer", async () => (await assistantCount(s)) > before, { timeoutMs: 30_000 });
  await answered(s);
}

/** Until the last answer reads as the stand-in's usual one, and its turn is over. */
export async function answered(s) {
  await s.waitFor("the answer", async () => (await lastAssistantText(s)).includes("change them."), { timeoutMs: 30_000 });
  await turnOver(s);
}
