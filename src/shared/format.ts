// Small formatting helpers shared by features.

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** US dollars: "$0", "$0.0042" (two figures under a cent: one answer often costs less), "$1.25". */
export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.0001) return "<$0.0001";
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(2)}`;
}

export function truncateMiddle(s: string, max: number): string {
  if (s.length <= max) return s;
  const half = Math.floor((max - 1) / 2);
  return `${s.slice(0, half)}…${s.slice(s.length - (max - 1 - half))}`;
}

export function firstLine(s: string, max = 120): string {
  const line = s.split("\n", 1)[0] ?? "";
  const more = line.length < s.length;
  const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line;
  return more && cut === line ? `${cut} …` : cut;
}

/** A size for people: "0 B", "512 B", "3.4 KB", "12 MB" (powers of 1024). */
export function formatBytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function pluralize(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function newId(prefix: string): string {
  const rnd =
    typeof crypto !== "undefined" && "randomUUID" in crypto
      ? crypto.randomUUID()
      : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  return `${prefix}-${rnd}`;
}

/** What went wrong, in words, from whatever a failed call threw or rejected with. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Dates and counts in the user's locale, through formatters made once. Date's and Number's
// toLocale…String make a new formatter on every call (in WebKit an ICU one, about 100 KB that
// stays until the garbage collector finalizes it), and the transcript formats a time under each
// mounted message on every render: a long conversation grew the page by hundreds of MB.
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const clock = once(() => new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit" }));
const day = once(() => new Intl.DateTimeFormat([], { day: "numeric", month: "short" }));
const dayOfYear = once(() => new Intl.DateTimeFormat([], { day: "numeric", month: "short", year: "numeric" }));
// What Date's toLocaleString() shows: the date and the time to the second.
const full = once(
  () =>
    new Intl.DateTimeFormat([], { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" }),
);
const count = once(() => new Intl.NumberFormat());

/** "09:05": the hour and minute (toLocaleTimeString with 2-digit hour and minute). */
export const formatClock = (when: Date): string => clock().format(when);

/** "20 Nov", or "20 Nov 2025" with the year. */
export const formatDay = (when: Date, withYear = false): string => (withYear ? dayOfYear() : day()).format(when);

/** The date and the time, as toLocaleString() gives them. */
export const formatDateTime = (when: Date): string => full().format(when);

/** "12,345": a count with the locale's grouping (Number's toLocaleString()). */
export const formatCount = (n: number): string => count().format(n);
