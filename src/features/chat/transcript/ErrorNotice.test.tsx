// The error box under an answer: a failure the engine is retrying by itself is news, not an alarm,
// and says once when the next try goes; a failure that ended the turn says what happened and
// offers one thing to do; what the engine underneath said is there on request.
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ChatError } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { ErrorNotice } from "./ErrorNotice";

const error = (over: Partial<ChatError>): ChatError => ({
  conversationId: "c",
  messageId: "m",
  code: "NETWORK",
  message: "The model's answer was cut off (the connection closed early).",
  retryable: true,
  ...over,
});

describe("ErrorNotice", () => {
  it("while the engine retries a rate limit: a status, not an alert, with one countdown", () => {
    render(
      <ErrorNotice
        error={error({ code: "RATE_LIMITED", message: "Anthropic is rate-limiting requests.", retrying: true, retryAfterSecs: 2 })}
      />,
    );
    expect(screen.queryByRole("alert")).toBeNull();
    const box = screen.getByRole("status");
    expect(box).toHaveAttribute("data-testid", TID.chatError);
    expect(box).toHaveAttribute("data-retrying", "true");
    expect(box.textContent?.match(/retrying/gi)).toHaveLength(1);
    expect(box).toHaveTextContent("Anthropic is rate-limiting requests. Retrying in 2 s…");
  });

  it("counts down a dropped stream the engine sends again, whatever its code", () => {
    render(<ErrorNotice error={error({ code: "INVALID_RESPONSE", retrying: true, retryAfterSecs: 1 })} />);
    const box = screen.getByRole("status");
    expect(box).toHaveTextContent("The model's answer was cut off (the connection closed early). Retrying in 1 s…");
    expect(within(box).queryByRole("button")).toBeNull();
  });

  it("a failure that ended the turn is an alert, with no countdown", () => {
    render(<ErrorNotice error={error({ code: "RATE_LIMITED", message: "Anthropic is rate-limiting requests.", retryAfterSecs: 3 })} />);
    const box = screen.getByRole("alert");
    expect(box).not.toHaveTextContent(/retrying/i);
    expect(box).toHaveAttribute("data-retrying", "false");
    // Retry is offered under the answer (RetryLast), not again here.
    expect(within(box).queryByRole("button")).toBeNull();
  });

  it("a refused key offers to open the settings, once", async () => {
    let opened = 0;
    render(
      <ErrorNotice
        error={error({ code: "AUTH_FAILED", message: "Anthropic rejected the API key (401). Check the key in Settings.", retryable: false })}
        onOpenSettings={() => opened++}
      />,
    );
    const box = screen.getByRole("alert");
    expect(within(box).getAllByRole("button")).toHaveLength(1);
    await userEvent.click(within(box).getByTestId(TID.chatErrorAction));
    expect(opened).toBe(1);
  });

  it("keeps the engine's own words apart, behind Details", async () => {
    const detail = "error sending request: client error (Connect): tcp connect error: Connection refused (os error 111)";
    render(
      <ErrorNotice
        error={error({
          message: "Could not reach the model server at 127.0.0.1:8080 — nothing is listening there. Is the server running?",
          detail,
          retryable: true,
        })}
      />,
    );
    const box = screen.getByRole("alert");
    const message = box.querySelector(".chat-error-message");
    expect(message).toHaveTextContent(/^Could not reach the model server at 127\.0\.0\.1:8080/);
    expect(message).not.toHaveTextContent("os error");
    const disclosure = within(box).getByText("Details").closest("details")!;
    expect(disclosure).not.toHaveAttribute("open");
    await userEvent.click(within(box).getByText("Details"));
    expect(disclosure).toHaveAttribute("open");
    expect(within(disclosure).getByText(detail)).toBeVisible();
  });

  it("shows no Details when the engine said nothing more", () => {
    render(<ErrorNotice error={error({ retryable: true })} />);
    expect(screen.queryByText("Details")).toBeNull();
  });
});
