import { TID } from "../../../shared/testids";
import { CappedPre } from "./ShowMore";

export function JsonView({ value }: { value: unknown }) {
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  } catch {
    text = String(value);
  }
  return <CappedPre className="json" testId={TID.jsonView} text={text} />;
}
