import { TID } from "../../../shared/testids";

export function JsonView({ value }: { value: unknown }) {
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  } catch {
    text = String(value);
  }
  return (
    <pre className="json" data-testid={TID.jsonView}>
      {text}
    </pre>
  );
}
