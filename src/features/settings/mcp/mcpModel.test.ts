import { describe, expect, it } from "vitest";
import { oauthClientText } from "./mcpModel";

describe("oauthClientText", () => {
  it("says how Warden signs in as the client an HTTP server's entry names", () => {
    expect(oauthClientText({ url: "https://h/mcp", oauth: { clientId: "ci", grant: "client_credentials" } })).toBe(
      "Signs in by itself as the OAuth client ci (client credentials: no browser, no user)",
    );
    expect(oauthClientText({ url: "https://h/mcp", oauth: { clientId: "warden", grant: "authorization_code" } })).toContain("in your browser");
    expect(oauthClientText({ url: "https://h/mcp" })).toBeNull();
    expect(oauthClientText({ command: "npx", oauth: { clientId: "x", grant: "client_credentials" } })).toBeNull();
  });
});
