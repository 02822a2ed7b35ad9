// Issue 36: a call nobody approved in time said so with an icon alone (⏱), which reads as nothing
// to most people; it says "Timed out" in words. The other states keep their glyph, named.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TID } from "../../shared/testids";
import { StatusIcon } from "./StatusIcon";

describe("StatusIcon", () => {
  it("says a call that timed out waiting for approval in words", () => {
    render(<StatusIcon status="expired" />);
    const status = screen.getByTestId(TID.toolStatus);
    expect(status).toHaveTextContent("Timed out");
    expect(status).toHaveAttribute("title", "Timed out: nobody approved it in time");
  });

  it("names the glyph of the other states for screen readers", () => {
    render(<StatusIcon status="denied" />);
    expect(screen.getByRole("img", { name: "Not allowed" })).toHaveTextContent("⊘");
  });
});
