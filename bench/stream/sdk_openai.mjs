// The official OpenAI SDK building the final assistant message from the benchmark's stream, the
// SDK side of bench/stream/run.sh's parsers row. Two ways a user builds the final message:
//
//   helper: chat.completions.stream(params).finalChatCompletion() — the SDK's
//           ChatCompletionStream accumulates the completion on every chunk.
//   raw:    chat.completions.create({ ...params, stream: true }) and the chunks iterated by hand:
//           content appended, each tool call's argument fragments concatenated and JSON.parse'd
//           once at the end.
//
// Usage: node sdk_openai.mjs <base-url> <helper|raw>
// Prints a summary of the final message, in the format stream_drain prints, and on stderr the time
// from the request to the message built (in_process_ms, start-up left out).
import OpenAI from "openai";

const [baseURL, mode = "raw"] = process.argv.slice(2);
const client = new OpenAI({ apiKey: "bench-key", baseURL, maxRetries: 0 });
const params = {
  model: "bench",
  messages: [{ role: "user", content: "go" }],
  stream_options: { include_usage: true },
};

async function viaHelper() {
  const completion = await client.chat.completions.stream(params).finalChatCompletion();
  const message = completion.choices[0].message;
  const calls = (message.tool_calls ?? []).map((c) => ({ name: c.function.name, input: JSON.parse(c.function.arguments || "{}") }));
  return { text: message.content ?? "", calls };
}

async function viaRawEvents() {
  const stream = await client.chat.completions.create({ ...params, stream: true });
  let text = "";
  const calls = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (!delta) continue;
    if (delta.content) text += delta.content;
    for (const call of delta.tool_calls ?? []) {
      const open = (calls[call.index] ??= { id: call.id, name: "", arguments: "" });
      if (call.function?.name) open.name += call.function.name;
      if (call.function?.arguments) open.arguments += call.function.arguments;
    }
  }
  return { text, calls: calls.map((c) => ({ name: c.name, input: JSON.parse(c.arguments || "{}") })) };
}

const build = mode === "helper" ? viaHelper : mode === "raw" ? viaRawEvents : null;
if (!build) {
  console.error("usage: node sdk_openai.mjs <base-url> <helper|raw>");
  process.exit(2);
}
const started = performance.now();
const { text, calls } = await build();
// The time after start-up (Node, the SDK's import): the request and the message built.
console.error(`in_process_ms=${(performance.now() - started).toFixed(1)}`);
const tool = calls[0];
console.log(
  `text_bytes=${Buffer.byteLength(text)} tool=${tool?.name} ` +
    `input_keys=${Object.keys(tool?.input ?? {}).length} content_chars=${tool?.input?.content?.length}`,
);
