// An MCP server's form (elicitation): the fields of its schema as the window shows them, and the
// values typed in as the server expects them (numbers as numbers, a multiple choice as a list).
import type { JsonValue } from "../../shared/ipc";

export type Choice = { value: string; label: string };

export type Field =
  | { kind: "text"; name: string; label: string; help: string; required: boolean; format: string | null }
  | { kind: "number"; name: string; label: string; help: string; required: boolean; integer: boolean; min: number | null; max: number | null }
  | { kind: "boolean"; name: string; label: string; help: string; required: boolean }
  | { kind: "choice"; name: string; label: string; help: string; required: boolean; choices: Choice[] }
  | { kind: "choices"; name: string; label: string; help: string; required: boolean; choices: Choice[] };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number | null => (typeof v === "number" ? v : null);

/** The choices of an `enum` (with `enumNames` when given) or of `oneOf`/`anyOf` `{const, title}`. */
function choicesOf(schema: Obj): Choice[] | null {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((v, i) => ({ value: String(v), label: str(names[i]) || String(v) }));
  }
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (!options) return null;
  return options.filter(isObj).map((o) => ({ value: String(o.const), label: str(o.title) || String(o.const) }));
}

/**
 * The form's fields: the needed ones first, then the others, each in the order they arrive (the
 * engine's JSON keeps keys sorted, so a server's own order does not survive). Fields of a kind the
 * spec does not allow are left out.
 */
export function fieldsOf(schema: JsonValue): Field[] {
  if (!isObj(schema) || !isObj(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields: Field[] = [];
  for (const [name, raw] of Object.entries(schema.properties)) {
    if (!isObj(raw)) continue;
    const base = { name, label: str(raw.title) || name, help: str(raw.description), required: required.has(name) };
    const choices = choicesOf(raw);
    if (raw.type === "array" && isObj(raw.items)) {
      const items = choicesOf(raw.items);
      if (items) fields.push({ ...base, kind: "choices", choices: items });
    } else if (choices) {
      fields.push({ ...base, kind: "choice", choices });
    } else if (raw.type === "boolean") {
      fields.push({ ...base, kind: "boolean" });
    } else if (raw.type === "number" || raw.type === "integer") {
      fields.push({ ...base, kind: "number", integer: raw.type === "integer", min: num(raw.minimum), max: num(raw.maximum) });
    } else if (raw.type === "string") {
      fields.push({ ...base, kind: "text", format: str(raw.format) || null });
    }
  }
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

/** The values the form starts with: the schema's defaults. */
export function defaultsOf(schema: JsonValue): Record<string, JsonValue> {
  if (!isObj(schema) || !isObj(schema.properties)) return {};
  const values: Record<string, JsonValue> = {};
  for (const [name, raw] of Object.entries(schema.properties)) {
    if (isObj(raw) && raw.default !== undefined) values[name] = raw.default as JsonValue;
  }
  return values;
}

/** What is wrong with the values, field by field (empty when they can be sent). */
export function problemsOf(fields: Field[], values: Record<string, JsonValue>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    const empty = v === undefined || v === "" || (Array.isArray(v) && v.length === 0);
    if (empty) {
      if (f.required) problems[f.name] = "Needed.";
      continue;
    }
    if (f.kind === "number") {
      if (typeof v !== "number" || Number.isNaN(v)) problems[f.name] = "A number.";
      else if (f.integer && !Number.isInteger(v)) problems[f.name] = "A whole number.";
      else if (f.min !== null && v < f.min) problems[f.name] = `At least ${f.min}.`;
      else if (f.max !== null && v > f.max) problems[f.name] = `At most ${f.max}.`;
    }
  }
  return problems;
}

/** The values to send: empty optional fields left out. */
export function contentOf(fields: Field[], values: Record<string, JsonValue>): Record<string, JsonValue> {
  const content: Record<string, JsonValue> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) continue;
    content[f.name] = v;
  }
  return content;
}
