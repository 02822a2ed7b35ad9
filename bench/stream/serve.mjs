// Loopback server for the benchmark: POST /v1/messages → anthropic.sse, POST …/chat/completions →
// openai.sse, from the directory given. Prints its port on stdout once listening.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

const dir = process.argv[2];
const bodies = { anthropic: readFileSync(`${dir}/anthropic.sse`), openai: readFileSync(`${dir}/openai.sse`) };
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const body = req.url.includes("/messages") ? bodies.anthropic : req.url.includes("/chat/completions") ? bodies.openai : null;
    if (!body) { res.writeHead(404).end(); return; }
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    res.end(body);
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
