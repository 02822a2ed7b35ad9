// A button that copies text to the clipboard and says, for two seconds, whether it did.
import { useEffect, useRef, useState } from "react";

export function CopyButton({ text, label = "Copy", testId }: { text: string; label?: string; testId?: string }) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = () => {
    // Inside a promise: where the clipboard is missing, the call itself throws.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(text))
      .then(
        () => setCopied("yes"),
        () => setCopied("failed"),
      );
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied("no"), 2000);
  };
  return (
    <button type="button" className="link" data-testid={testId} onClick={copy}>
      {copied === "yes" ? "Copied ✓" : copied === "failed" ? "Could not copy" : label}
    </button>
  );
}
