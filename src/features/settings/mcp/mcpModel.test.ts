import { describe, expect, it } from "vitest";
import { oauthClientText } from "./mcpModel";

describe("oauthClientText", () => {
  it("says how Warden signs in as the client an HTTP server's entry names", () => {
    expect(oauthClientText({ url: "https://h/mcp", oauth: { clientId: "ci", grant: "client_credentials" } })).toBe(
      "Signs in by itself as the OAuth client ci (client credentials: no browser, no user)",
    );
    expect(oauthClientText({ url: "https://h/mcp", oauth: { clientId: "warden", grant: "authorization_code" } })).toContain("in your browser");
    expect(oauthClientText({ url: "https://h/mcp" })).toBeNull();
    const documented = { clientMetadataUrl: "https://org.example/warden.json", grant: "authorization_code" } as const;
    expect(oauthClientText({ url: "https://h/mcp", oauth: documented })).toBe(
      "Signs in in your browser, known by the client metadata document https://org.example/warden.json where the server takes one",
    );
    expect(oauthClientText({ url: "https://h/mcp", oauth: { grant: "authorization_code" } })).toBeNull();
    const idp = { issuer: "https://corp.okta.example", tokenEndpoint: "https://corp.okta.example/token", clientId: "w", idToken: "keychain:sso" };
    expect(oauthClientText({ url: "https://h/mcp", oauth: { clientId: "c", grant: "enterprise", idp } })).toBe(
      "Signs in by itself with your ID token from https://corp.okta.example (enterprise-managed: no browser), as the OAuth client c",
    );
    expect(oauthClientText({ command: "npx", oauth: { clientId: "x", grant: "client_credentials" } })).toBeNull();
  });
});
