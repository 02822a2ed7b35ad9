// What the user has typed but not sent, per conversation: switching conversations, or closing the
// window, keeps each draft where it was written. Kept in this window's storage (a draft is not a
// message: the engine never sees it); a window without storage keeps drafts until it closes.

const KEY = "warden.drafts";
/** A draft is text someone typed; past this it is not worth keeping across a restart. */
const MAX_CHARS = 100_000;

let drafts: Map<string, string> | null = null;

function all(): Map<string, string> {
  if (drafts) return drafts;
  drafts = new Map();
  try {
    const raw = localStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      for (const [id, text] of Object.entries(parsed)) if (typeof text === "string" && text) drafts.set(id, text);
    }
  } catch {
    // Unreadable or unavailable storage: start without drafts.
  }
  return drafts;
}

function persist(map: Map<string, string>) {
  try {
    if (map.size === 0) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(map)));
  } catch {
    // Storage full or unavailable: the draft stays for this window's life.
  }
}

/** The draft of a conversation ("" when there is none). */
export function draftOf(conversationId: string): string {
  return all().get(conversationId) ?? "";
}

/** Keep (or, with empty text, drop) the draft of a conversation. */
export function keepDraft(conversationId: string, text: string) {
  const map = all();
  if ((map.get(conversationId) ?? "") === text) return;
  if (text && text.length <= MAX_CHARS) map.set(conversationId, text);
  else map.delete(conversationId);
  persist(map);
}

/** Forget every draft read so far (tests start from what storage holds). */
export function resetDraftsForTests() {
  drafts = null;
  attached.clear();
}

// Images attached and not sent yet, per conversation: kept while the window is open (switching
// conversations keeps them), never in storage (they can weigh megabytes).
const attached = new Map<string, readonly AttachedImage[]>();

/** An image in the composer: what is sent, and the file name it came with (for its label). */
export interface AttachedImage {
  id: string;
  name: string;
  mediaType: string;
  data: string;
}

/** The images attached to a conversation's draft (none when there are none). */
export function attachedOf(conversationId: string): readonly AttachedImage[] {
  return attached.get(conversationId) ?? [];
}

/** Keep (or, with none, drop) the images attached to a conversation's draft. */
export function keepAttached(conversationId: string, images: readonly AttachedImage[]) {
  if (images.length) attached.set(conversationId, images);
  else attached.delete(conversationId);
}
