// A remote project after the app restarts (it runs after window_remote, which left its first
// conversation's id in $RUN_DIR/remote/first_conversation): the project is listed under its
// `host:/path`, not linked; "Link and continue this conversation" links again through ssh (a new
// sshd with a new host key, asked about in the window) and takes the conversation up there with
// what was said in it (and when each message was written), read from the remote machine's store.
// It is listed with the name window_remote gave it.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { readyToChat } from "../lib/ready.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SIDE = path.join(here, "..", "lib", "remote_side.sh");

export default async function (t) {
  const { s } = t;
  const left = path.join(process.env.RUN_DIR, "remote", "first_conversation");
  t.assert(existsSync(left), "window_remote ran before this spec and left its conversation");
  const [first, project] = readFileSync(left, "utf8").trim().split("\n");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));

  t.step("the remote project is listed after the restart, not linked");
  const item = `[data-testid="conversation-item"][data-conversation-id="${first}"]`;
  await s.waitFor("listed", async () => (await s.count(item)) === 1, { timeoutMs: 15_000 });
  const named = await s.execute(`return document.querySelector('${item}').textContent`);
  t.assert(named.includes(`warden-test:${project}`), `under its host:/path: ${named}`);
  t.assert(named.includes("Checked on the other machine"), `with the name window_remote gave it: ${named}`);
  await (await s.find(item)).click();
  const banner = await s.waitForTestId("remote-link-banner", { timeoutMs: 15_000 });
  t.assert((await banner.attr("data-state")) === "closed", "not linked since the start");
  await t.shot("listed");

  t.step("the other machine again, then Link and continue: the host key asked about, the conversation taken up there");
  const bin = path.dirname(t.env("APP"));
  await t.run("bash", [SIDE, "start", bin]);
  try {
    await (await s.byTestId("remote-resume")).click();
    await (await s.waitForTestId("ssh-question-accept", { timeoutMs: 60_000 })).click();
    await s.waitFor("the link is up", async () => (await s.count('[data-testid="remote-link-banner"]')) === 0, { timeoutMs: 60_000 });
    const said = () => s.execute(`return [...document.querySelectorAll('[data-testid="message"][data-role="user"]')].map((m) => m.textContent).join("\\n")`);
    await s.waitFor("what was said, read there", async () => (await said()).includes("please call bash"), { timeoutMs: 30_000 });
    t.assert((await (await s.byTestId("remote-project")).text()).includes(project), "the top bar names the remote project");
    const stamped = await s.execute(`return document.querySelectorAll('[data-testid="message"] [data-testid="message-meta"] time').length`);
    t.assert(stamped > 0, "when each message was written, read there");
    await t.shot("taken-up");
  } finally {
    await t.run("bash", [SIDE, "stop"]);
  }
}
