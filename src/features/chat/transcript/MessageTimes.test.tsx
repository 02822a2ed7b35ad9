// The time under each message is formatted by formatters made once. Date's toLocale…String makes a
// new locale formatter on every call (in WebKit an ICU one of about 100 KB, freed only when the
// garbage collector finalizes it): called under every mounted message on every render, it grew
// the page by hundreds of MB over a 2,000-message conversation (bench/app, "PSS after … messages").
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatStoreProvider, createChatStore, type ChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { C, textTurn } from "../../checkpoints/testEvents";
import { ConversationView } from "./ConversationView";

/** Counts every locale formatter made: by the Intl constructors and by each toLocale…String call. */
function countFormatters() {
  const made = { n: 0 };
  const { DateTimeFormat, NumberFormat } = Intl;
  vi.spyOn(Intl, "DateTimeFormat").mockImplementation(function (...args: ConstructorParameters<typeof DateTimeFormat>) {
    made.n++;
    return new DateTimeFormat(...args);
  } as unknown as typeof DateTimeFormat);
  vi.spyOn(Intl, "NumberFormat").mockImplementation(function (...args: ConstructorParameters<typeof NumberFormat>) {
    made.n++;
    return new NumberFormat(...args);
  } as unknown as typeof NumberFormat);
  for (const name of ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"] as const) {
    const original = Date.prototype[name];
    vi.spyOn(Date.prototype, name).mockImplementation(function (this: Date, ...args) {
      made.n++;
      return original.apply(this, args);
    });
  }
  const numberOriginal = Number.prototype.toLocaleString;
  vi.spyOn(Number.prototype, "toLocaleString").mockImplementation(function (this: number, ...args) {
    made.n++;
    return numberOriginal.apply(this, args);
  });
  return made;
}

let store: ChatStore;
beforeEach(() => {
  store = createChatStore();
  render(
    <ChatStoreProvider store={store}>
      <ConversationView conversationId={C} />
    </ChatStoreProvider>,
  );
});
afterEach(() => vi.restoreAllMocks());

describe("the times under a long conversation's messages", () => {
  it("are formatted without making a formatter per message or per render", () => {
    const made = countFormatters();
    for (let i = 0; i < 100; i++) act(() => store.dispatchMany(textTurn(i, ["Hello", " there", "."])));
    // Every mounted message shows its time (and the formatters gave it).
    const metas = screen.getAllByTestId(TID.messageMeta);
    expect(metas.length).toBeGreaterThan(50);
    for (const meta of metas) expect(meta.querySelector("time")?.textContent).toMatch(/\d/);
    expect(metas[0]?.querySelector("time")?.getAttribute("title")).toMatch(/\d/);
    // The clock, the day, the day with its year, the full date: made once each at most.
    expect(made.n).toBeLessThanOrEqual(4);
  });
});
