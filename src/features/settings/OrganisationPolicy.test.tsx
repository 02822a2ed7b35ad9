import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TID } from "../../shared/testids";
import { OrganisationPolicy } from "./OrganisationPolicy";

const file = "/etc/warden/managed-settings.json";

describe("OrganisationPolicy", () => {
  it("says what the organisation turned off, one line each", () => {
    render(<OrganisationPolicy managed={{ file, rules: [], problem: null, warnings: [], managedRulesOnly: true, noAlways: true, noAutonomous: true }} />);
    const lines = screen.getAllByTestId(TID.sandboxManagedSwitch);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveTextContent("Only your organisation's allow rules count");
    expect(lines[1]).toHaveTextContent("“Always allow…” is turned off");
    expect(lines[2]).toHaveTextContent("Autonomous trust level is turned off");
  });

  it("shows only the switches that are on, and nothing without any", () => {
    const { unmount } = render(<OrganisationPolicy managed={{ file, rules: [], problem: null, warnings: [], noAlways: true }} />);
    expect(screen.getAllByTestId(TID.sandboxManagedSwitch)).toHaveLength(1);
    unmount();
    render(<OrganisationPolicy managed={{ file, rules: [], problem: null, warnings: [], noAlways: false }} />);
    expect(screen.queryByTestId(TID.sandboxManaged)).toBeNull();
  });
});
