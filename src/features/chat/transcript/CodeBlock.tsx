// A fenced code block of model text: its language named, and a button that copies exactly the code.
import type { ReactNode } from "react";
import { TID } from "../../../shared/testids";
import { CopyButton } from "../../../shared/ui/CopyButton";

/** The text of a hast subtree (what a code block holds once highlighted into spans). */
export function hastText(node: unknown): string {
  if (!node || typeof node !== "object") return "";
  const n = node as { type?: string; value?: unknown; children?: unknown[] };
  if (n.type === "text" && typeof n.value === "string") return n.value;
  return Array.isArray(n.children) ? n.children.map(hastText).join("") : "";
}

/** `language-rust` → `rust`, from a hast element's class names. */
export function languageOf(node: unknown): string | null {
  const classes = (node as { properties?: { className?: unknown } } | null)?.properties?.className;
  if (!Array.isArray(classes)) return null;
  const found = classes.find((c): c is string => typeof c === "string" && c.startsWith("language-"));
  return found ? found.slice("language-".length) : null;
}

export function CodeBlock({ language, code, children }: { language: string | null; code: string; children: ReactNode }) {
  return (
    <div className="code-block" data-testid={TID.codeBlock} data-language={language ?? undefined}>
      <div className="code-block-head">
        <span className="code-block-language">{language ?? "text"}</span>
        <CopyButton text={code} testId={TID.codeCopy} />
      </div>
      <pre>{children}</pre>
    </div>
  );
}
