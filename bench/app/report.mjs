// Prints the bench table and checks the targets.
// Args: helloMs wardenMs helloPssKiB wardenPssKiB driveJson helloDefaultMs helloDefaultPssKiB
//       helloPaintMs wardenPaintMs helloDefaultPaintMs
// ("hello" draws the way Warden does on this machine; "hello-default" with WebKit's defaults).
const [helloMs, wardenMs, helloPss, wardenPss] = process.argv.slice(2, 6).map(Number);
const drive = JSON.parse(process.argv[6] || "{}");
const [helloDefaultMs, helloDefaultPss, helloPaint, wardenPaint, helloDefaultPaint] = process.argv.slice(7, 12).map(Number);
const mib = (k) => (k / 1024).toFixed(1);
const rows = [];
const check = (name, value, target, ok) => rows.push({ name, value, target, ok });

// BENCH_ONLY=drive measures no start-up: its rows are left out, not missed.
const startUp = process.env.BENCH_ONLY !== "drive";
if (startUp) {
  check("window mapped after launch", `${wardenMs} ms vs ${helloMs} ms (×${(wardenMs / helloMs).toFixed(2)})`, "≤ 2.5× hello", wardenMs <= 2.5 * helloMs);
  check(
    "first paint after launch",
    `${wardenPaint} ms vs ${helloPaint} ms (×${(wardenPaint / helloPaint).toFixed(2)})`,
    "≤ 2.5× hello",
    wardenPaint <= 2.5 * helloPaint,
  );
  check("idle PSS", `${mib(wardenPss)} MiB vs ${mib(helloPss)} MiB (+${mib(wardenPss - helloPss)} MiB)`, "≤ hello + 60 MiB", wardenPss - helloPss <= 60 * 1024);
}
// Measured before the conversation part, so it is reported even when that part fails.
const paste = drive.paste;
if (paste) {
  check(
    "200 KB paste (Ctrl+V)",
    `longest frame ${paste.chipMaxMs.toFixed(0)} ms as a chip vs ${paste.textareaMaxMs.toFixed(0)} ms in a plain textarea (×${(paste.chipMaxMs / paste.textareaMaxMs).toFixed(2)})`,
    "≤ 0.25× the plain textarea",
    paste.chipMaxMs <= 0.25 * paste.textareaMaxMs,
  );
}
if (drive.error) {
  check("conversation / stream", `not measured: ${drive.error}`, "", false);
} else {
  const grow = drive.pssAfterKiB - drive.pssStartKiB;
  const st = drive.streamFrames ?? {};
  const idle = drive.idleFrames ?? {};
  check(
    `PSS after ${drive.messages} messages`,
    `${mib(drive.pssAfterKiB)} MiB (+${mib(grow)} MiB since start; ${drive.conversationSeconds?.toFixed(0)} s)`,
    "+≤ 150 MiB",
    grow <= 150 * 1024,
  );
  check(
    "frame time while streaming",
    `max ${st.maxMs?.toFixed(1)} ms, p95 ${st.p95Ms?.toFixed(1)} ms, median ${st.medianMs?.toFixed(1)} ms, ${st.over50} of ${st.count} over 50 ms (${drive.streamSeconds?.toFixed(1)} s); idle page: median ${idle.medianMs?.toFixed(1)} ms, max ${idle.maxMs?.toFixed(1)} ms`,
    "no frame > 50 ms",
    st.over50 === 0,
  );
}
// Diagnostics of the conversation's memory (INFO, not verdicts): which process holds it, whether
// it goes after 30 s idle (or at a full collection), and the web process's split by mapping.
const info = (name, value) => rows.push({ name, value, target: "-", ok: true, info: true });
const byProcess = (m) => Object.entries(m ?? {}).map(([k, v]) => `${k} ${mib(v)}`).join(", ");
const sum = (m) => Object.values(m ?? {}).reduce((a, b) => a + b, 0);
const web = (w) => `[heap] ${mib(w.heap)}, anon ${mib(w.anon)}, files ${mib(w.file)}, other ${mib(w.other)}`;
const snapshot = (snap) =>
  `${mib(sum(snap.byProcess))} MiB (${byProcess(snap.byProcess)}); web process ${web(snap.web)}; page ${snap.page.elements} elements, ${snap.page.messages} messages`;
if (!drive.error && drive.ipcCalls) {
  const perTurn = (n) => (n / Math.max(1, Math.ceil(drive.messages / 2))).toFixed(1);
  const calls = Object.entries(drive.ipcCalls).map(([k, n]) => `${k.replace(/^fetch ipc:\/\/localhost\//, "")} ${perTurn(n)}`);
  rows.push({ name: "requests per turn", value: calls.join(", "), target: "-", ok: true, info: true });
}
if (!drive.error && drive.pssAfterByProcess) {
  info("PSS by process (MiB)", `start ${byProcess(drive.pssStartByProcess)}; after the stream ${byProcess(drive.pssAfterStreamByProcess)}; at the end ${byProcess(drive.pssAfterByProcess)}`);
  if (drive.growth) {
    const web = drive.growth.map((g) => mib(g.byProcess.WebKitWebProces ?? 0)).join(" ");
    info("web process PSS (MiB)", `every 100 turns: ${web} (a drop is a full collection)`);
  }
  if (drive.atEnd) info("memory at the end", snapshot(drive.atEnd));
  if (drive.afterIdle) info("after 30 s more idle", snapshot(drive.afterIdle));
}
rows.push({
  name: "hello, WebKit defaults",
  value: `window ${helloDefaultMs} ms, first paint ${helloDefaultPaint} ms, idle PSS ${mib(helloDefaultPss)} MiB (reference only)`,
  target: "-",
  ok: true,
  info: true,
});
for (const r of rows) console.log(`${r.info ? "INFO" : r.ok ? "PASS" : "MISS"}  ${r.name.padEnd(28)} ${r.value}   [target ${r.target}]`);
// A target missed, or a part that could not be measured, fails the run: a MISS line is a verdict.
const missed = rows.filter((r) => !r.info && !r.ok);
if (missed.length > 0) {
  console.log(`verdict: FAILED: ${missed.map((r) => r.name).join(", ")}`);
  process.exitCode = 1;
} else {
  console.log("verdict: every target met");
}
console.log(
  JSON.stringify({
    helloMs, wardenMs, helloPaintMs: helloPaint, wardenPaintMs: wardenPaint,
    helloPssKiB: helloPss, wardenPssKiB: wardenPss,
    helloDefaultMs, helloDefaultPaintMs: helloDefaultPaint, helloDefaultPssKiB: helloDefaultPss,
    ...drive,
  }),
);
