import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import { TID } from "../../shared/testids";
import { McpFormHost } from "./McpFormHost";
import { fieldsOf } from "./formModel";

let answers: { requestId: string; answer: { action: string; content?: Record<string, unknown> } }[];

// The form server-everything's trigger-elicitation-request sends, in part.
const SCHEMA = {
  type: "object",
  properties: {
    name: { title: "String", type: "string", description: "Your full, legal name" },
    check: { title: "Boolean", type: "boolean" },
    email: { type: "string", format: "email", title: "Email" },
    integer: { title: "Integer", type: "integer", minimum: 1, maximum: 100, default: 42 },
    friend: { type: "string", title: "Friend", enum: ["Monica", "Rachel"], default: "Monica" },
    hero: { type: "string", title: "Hero", oneOf: [{ const: "hero-1", title: "Superman" }, { const: "hero-2", title: "Green Lantern" }] },
    fish: { type: "array", title: "Fish", items: { anyOf: [{ const: "fish-1", title: "Tuna" }, { const: "fish-2", title: "Salmon" }] }, default: ["fish-1"] },
    pet: { type: "string", title: "Pet", enum: ["pet-1", "pet-2"], enumNames: ["Cats", "Dogs"], default: "pet-1" },
  },
  required: ["name"],
};
// A needed field that comes last among the keys still comes first in the form.
const LATE_NEEDED = { type: "object", properties: { a: { type: "string" }, z: { type: "string" } }, required: ["z"] };

beforeEach(() => {
  answers = [];
  mockIPC(
    (cmd, args) => {
      if (cmd === "mcp_elicit_answer") {
        answers.push(args as (typeof answers)[number]);
        return null;
      }
      return undefined;
    },
    { shouldMockEvents: true },
  );
});

async function ask(requestId = "r1") {
  await emit("mcp:elicit", { requestId, server: "everything", message: "Please provide inputs", schema: SCHEMA });
  return screen.findByTestId(TID.mcpForm);
}

const field = (name: string) => screen.getAllByTestId(TID.mcpFormField).find((f) => f.dataset.field === name)!;

describe("MCP forms", () => {
  it("reads every kind of field the spec allows", () => {
    const fields = fieldsOf(SCHEMA);
    // The needed field first.
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ["name", "text"],
      ["check", "boolean"],
      ["email", "text"],
      ["integer", "number"],
      ["friend", "choice"],
      ["hero", "choice"],
      ["fish", "choices"],
      ["pet", "choice"],
    ]);
    expect(fieldsOf(LATE_NEEDED).map((f) => f.name)).toEqual(["z", "a"]);
    const pet = fields.find((f) => f.name === "pet");
    expect(pet?.kind === "choice" && pet.choices.map((c) => c.label)).toEqual(["Cats", "Dogs"]);
  });

  it("shows the server's form with its defaults, insists on what is needed, and sends typed values", async () => {
    const user = userEvent.setup();
    render(<McpFormHost />);
    const form = await ask();
    expect(form).toHaveTextContent("The MCP server everything asks");
    expect(form).toHaveTextContent("Please provide inputs");
    expect(field("integer")).toHaveValue(42);
    await user.click(screen.getByTestId(TID.mcpFormSubmit));
    expect(within(form).getByText("Needed.")).toBeInTheDocument();
    expect(answers).toEqual([]);
    await user.type(field("name"), "Ada Lovelace");
    await user.click(field("check"));
    await user.clear(field("integer"));
    await user.type(field("integer"), "7");
    await user.selectOptions(field("hero"), "hero-2");
    await user.click(within(field("fish")).getByLabelText("Salmon"));
    await user.click(screen.getByTestId(TID.mcpFormSubmit));
    await waitFor(() => expect(answers).toHaveLength(1));
    expect(answers[0]).toEqual({
      requestId: "r1",
      answer: {
        action: "accept",
        content: { name: "Ada Lovelace", check: true, integer: 7, friend: "Monica", hero: "hero-2", fish: ["fish-1", "fish-2"], pet: "pet-1" },
      },
    });
    await waitFor(() => expect(screen.queryByTestId(TID.mcpForm)).toBeNull());
  });

  it("shows a request for the model in full, with Allow and Decline", async () => {
    const user = userEvent.setup();
    render(<McpFormHost />);
    const request = "It asks claude-x to answer (at most 50 tokens):\n\n[user] name a colour\n";
    await emit("mcp:elicit", {
      requestId: "s1",
      server: "everything",
      message: request,
      schema: { type: "object", properties: {} },
      purpose: "sampling",
    });
    const form = await screen.findByTestId(TID.mcpForm);
    expect(form).toHaveAccessibleName("The MCP server everything asks to use your model");
    expect(form).toHaveTextContent("[user] name a colour");
    expect(screen.queryByTestId(TID.mcpFormField)).toBeNull();
    expect(screen.getByTestId(TID.mcpFormSubmit)).toHaveTextContent("Allow");
    await user.click(screen.getByTestId(TID.mcpFormSubmit));
    await waitFor(() => expect(answers).toEqual([{ requestId: "s1", answer: { action: "accept", content: {} } }]));
  });

  it("asks about a host a server's box wants, in the server's name, with Allow, Always for this project and Deny", async () => {
    const user = userEvent.setup();
    render(<McpFormHost />);
    const hostQuestion = (requestId: string) =>
      emit("mcp:elicit", {
        requestId,
        server: "fetcher",
        message: "The MCP server fetcher wants to reach registry.test:8443 (this machine), which no rule allows.",
        schema: { type: "object", properties: {} },
        purpose: "network",
        network: { host: "registry.test", port: 8443, reach: "this machine" },
      });
    await hostQuestion("h1");
    await hostQuestion("h2");
    await hostQuestion("h3");
    await hostQuestion("h4");
    const question = await screen.findByTestId(TID.mcpHostQuestion);
    expect(question).toHaveAccessibleName("The MCP server fetcher wants to reach registry.test:8443");
    expect(question).toHaveTextContent("It leads to this machine.");
    expect(screen.queryByTestId(TID.mcpForm)).toBeNull();
    await user.click(screen.getByTestId(TID.mcpHostAlways));
    await waitFor(() => expect(answers).toHaveLength(1));
    await user.click(await screen.findByTestId(TID.mcpHostOnce));
    await waitFor(() => expect(answers).toHaveLength(2));
    await user.click(await screen.findByTestId(TID.mcpHostDeny));
    await waitFor(() => expect(answers).toHaveLength(3));
    await screen.findByTestId(TID.mcpHostQuestion);
    await user.keyboard("{Escape}");
    await waitFor(() =>
      expect(answers).toEqual([
        { requestId: "h1", answer: { action: "accept", content: { always: true } } },
        { requestId: "h2", answer: { action: "accept", content: {} } },
        { requestId: "h3", answer: { action: "decline" } },
        { requestId: "h4", answer: { action: "cancel" } },
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId(TID.mcpHostQuestion)).toBeNull());
  });

  it("declines, or cancels with Esc, one form after the other", async () => {
    const user = userEvent.setup();
    render(<McpFormHost />);
    await ask("first");
    await emit("mcp:elicit", { requestId: "second", server: "other", message: "More?", schema: SCHEMA });
    await user.click(screen.getByTestId(TID.mcpFormDecline));
    const second = await screen.findByText("More?");
    expect(second).toBeInTheDocument();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(answers.map((a) => [a.requestId, a.answer.action])).toEqual([["first", "decline"], ["second", "cancel"]]));
    await waitFor(() => expect(screen.queryByTestId(TID.mcpForm)).toBeNull());
  });
});
