// MCP resources attached to a message: which ones the connected servers offer, and the message as
// sent with them.
import type { McpResourceText, McpServerStatus } from "../../../shared/ipc";

export type OfferedResource = { server: string; name: string; uri: string };

/** The resources of the connected servers, from their status ("name <uri>", as Settings lists them). */
export function offeredResources(statuses: readonly McpServerStatus[]): OfferedResource[] {
  return statuses
    .filter((status) => status.state === "connected")
    .flatMap((status) =>
      status.resources.flatMap((line) => {
        const [, name = "", uri] = /^(.*) <([^<>]+)>$/.exec(line) ?? [];
        return uri ? [{ server: status.name, name: name || uri, uri }] : [];
      }),
    );
}

/** A fence longer than any run of backticks in `text`, so the text inside cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (run) => run[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/** The message as sent: each attached resource in a fenced block that names its server and address, then what was typed. */
export function withResources(text: string, resources: readonly McpResourceText[]): string {
  const blocks = resources.map((resource) => {
    const fence = fenceFor(resource.text);
    const cut = resource.truncated ? " (cut at 50,000 characters)" : "";
    return `Attached from the MCP server “${resource.server}”: ${resource.uri}${cut}\n${fence}\n${resource.text}\n${fence}`;
  });
  return [...blocks, text].filter((part) => part.length > 0).join("\n\n");
}
