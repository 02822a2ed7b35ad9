// The official OpenAI SDK's stream helper, end to end: chat.completions.stream() final completion.
import OpenAI from "openai";

const client = new OpenAI({ apiKey: "bench-key", baseURL: process.argv[2], maxRetries: 0 });
const stream = client.chat.completions.stream({
  model: "bench",
  messages: [{ role: "user", content: "go" }],
  stream_options: { include_usage: true },
});
const completion = await stream.finalChatCompletion();
const message = completion.choices[0].message;
const args = JSON.parse(message.tool_calls[0].function.arguments);
console.log(`text_bytes=${Buffer.byteLength(message.content ?? "")} tool_input_keys=${Object.keys(args).length}`);
