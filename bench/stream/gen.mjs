// Generate large streaming bodies: N text deltas, then one tool call with M argument fragments.
// Usage: node gen.mjs <outdir> <textDeltas> <argFragments>
import { writeFileSync, mkdirSync } from "node:fs";

const [outdir, nArg, mArg] = process.argv.slice(2);
const N = Number(nArg), M = Number(mArg);
mkdirSync(outdir, { recursive: true });
const words = ["Zürich ", "weather ", "is ", "mild — ", "café ✓ ", "🌧 ", "and\n", "the ", "river ", "flows "];
const word = (i) => words[i % words.length];
// A long JSON argument string, cut into M fragments that split keys, escapes and UTF-8 characters.
const argsJson = JSON.stringify({ path: "notes/zürich.md", content: "Line \"quoted\" — ü\n".repeat(Math.ceil(M / 2)) });
const step = Math.max(1, Math.floor(argsJson.length / M));
const fragments = [];
for (let i = 0; i < argsJson.length; i += step) fragments.push(argsJson.slice(i, i + step));

function anthropic() {
  const out = [];
  const ev = (type, data) => out.push(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  ev("message_start", { type: "message_start", message: { id: "msg_bench", type: "message", role: "assistant", model: "bench", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  ev("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
  for (let i = 0; i < N; i++) {
    if (i % 5000 === 0) out.push(`event: ping\ndata: {"type": "ping"}\n\n`);
    ev("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: word(i) } });
  }
  ev("content_block_stop", { type: "content_block_stop", index: 0 });
  ev("content_block_start", { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_bench", name: "file_write", input: {} } });
  for (const f of fragments) ev("content_block_delta", { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: f } });
  ev("content_block_stop", { type: "content_block_stop", index: 1 });
  ev("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: N + fragments.length } });
  ev("message_stop", { type: "message_stop" });
  return out.join("");
}

function openai() {
  const out = [];
  const base = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1782321900, model: "bench", system_fingerprint: "fp_bench" };
  const chunk = (delta, finish = null) => out.push(`data: ${JSON.stringify({ ...base, usage: null, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`);
  chunk({ role: "assistant", content: "", refusal: null });
  for (let i = 0; i < N; i++) chunk({ content: word(i) });
  chunk({ tool_calls: [{ index: 0, id: "call_bench", type: "function", function: { name: "file_write", arguments: "" } }] });
  for (const f of fragments) chunk({ tool_calls: [{ index: 0, function: { arguments: f } }] });
  chunk({}, "tool_calls");
  out.push(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: N, total_tokens: N + 10 } })}\n\n`);
  out.push("data: [DONE]\n\n");
  return out.join("");
}

writeFileSync(`${outdir}/anthropic.sse`, anthropic());
writeFileSync(`${outdir}/openai.sse`, openai());
writeFileSync(`${outdir}/expected.json`, JSON.stringify({ text_deltas: N, arg_fragments: fragments.length, args_bytes: Buffer.byteLength(argsJson) }));
