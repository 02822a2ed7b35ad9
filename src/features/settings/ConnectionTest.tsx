import { useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type ProviderId } from "../../shared/ipc";
import { TID } from "../../shared/testids";

type Test = { state: "idle" } | { state: "running" } | { state: "ok"; message: string } | { state: "failed"; message: string };

/**
 * A provider's "Test connection", and what the test found. `beforeUse` writes pending edits first;
 * `onTested` is told when the test is over: the test sent the key, and what the provider said of it
 * ("Key set ✓ · accepted", "rejected by the provider") is asked for again.
 */
export function ConnectionTest({
  provider,
  beforeUse,
  onTested,
}: {
  provider: ProviderId;
  beforeUse: () => Promise<void>;
  onTested?: () => void;
}) {
  const [test, setTest] = useState<Test>({ state: "idle" });

  const runTest = async () => {
    setTest({ state: "running" });
    try {
      await beforeUse();
      await api.providerTest(provider);
      setTest({ state: "ok", message: "Connection works" });
    } catch (e) {
      setTest({ state: "failed", message: messageOf(e) });
    }
    onTested?.();
  };

  return (
    <div className="provider-test">
      <button type="button" data-testid={TID.testConnection[provider]} disabled={test.state === "running"} onClick={() => void runTest()}>
        {test.state === "running" ? "Testing…" : "Test connection"}
      </button>
      {(test.state === "ok" || test.state === "failed") && (
        <span className={`test-result test-${test.state}`} data-testid={TID.testResult[provider]} role="status">
          {test.state === "ok" ? "✓ " : "✕ "}
          {test.message}
        </span>
      )}
    </div>
  );
}
