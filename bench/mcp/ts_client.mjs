// The official TypeScript SDK's client doing what Warden's does in bench/mcp/run.sh: start a stdio
// server, list its tools, then CALLS sequential `echo` calls. Prints one JSON line.
//
//   node ts_client.mjs CALLS [--roots] -- COMMAND [ARGS…]
// The SDK is installed with the test servers (tests/mcp), not here.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(new URL("../../tests/mcp/package.json", import.meta.url));
const load = (spec) => import(pathToFileURL(require.resolve(spec)).href);
const { Client } = await load("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await load("@modelcontextprotocol/sdk/client/stdio.js");

const args = process.argv.slice(2);
// --roots: declare the roots capability and answer roots/list, as Warden's client does (the
// server registers one more tool for such a client, and asks it for its roots).
const roots = args.includes("--roots");
const calls = Number(args[0]);
const [command, ...rest] = args.slice(args.indexOf("--") + 1);

const started = performance.now();
const client = new Client({ name: "bench", version: "1.0.0" }, roots ? { capabilities: { roots: { listChanged: false } } } : {});
if (roots) {
  const { ListRootsRequestSchema } = await load("@modelcontextprotocol/sdk/types.js");
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(process.cwd()).href }] }));
}
await client.connect(new StdioClientTransport({ command, args: rest, stderr: "ignore" }));
const { tools } = await client.listTools();
const startup = performance.now() - started;

const t0 = performance.now();
for (let i = 0; i < calls; i++) {
  const result = await client.callTool({ name: "echo", arguments: { message: "hello from the benchmark" } });
  if (!result.content[0].text.endsWith("benchmark")) throw new Error("unexpected echo");
}
const callsMs = performance.now() - t0;
await client.close();
console.log(JSON.stringify({ startup_ms: startup, tools: tools.length, calls, calls_ms: callsMs }));
