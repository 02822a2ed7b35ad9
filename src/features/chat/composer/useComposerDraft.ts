import { useEffect, useRef, useState } from "react";
import type { McpResourceText, ToolImage } from "../../../shared/ipc";
import { attachedOf, draftOf, keepAttached, keepDraft, type AttachedImage } from "./drafts";
import { MAX_IMAGES, nextImageId, toImage } from "./imageFiles";

/**
 * What the composer holds for the next message: the text and images typed and not sent (kept with
 * their conversation), the MCP resources attached, why an image was refused, and how many reads of
 * image files are under way. A `draft` given (a message taken back by a rewind) replaces the text
 * and images; `onImages` is told how many images are attached, as that changes.
 */
export function useComposerDraft(
  conversationId: string,
  draft: { text: string; images?: readonly ToolImage[] } | null,
  onImages: ((count: number) => void) | undefined,
) {
  const [text, setTextState] = useState(() => draftOf(conversationId));
  const setText = (next: string) => {
    setTextState(next);
    keepDraft(conversationId, next);
  };
  const [images, setImagesState] = useState<readonly AttachedImage[]>(() => attachedOf(conversationId));
  // The images as they are now, for reads that finish after a render (paste twice quickly).
  const current = useRef(images);
  const setImages = (next: readonly AttachedImage[]) => {
    current.current = next;
    setImagesState(next);
    keepAttached(conversationId, next);
  };
  const [imageError, setImageError] = useState<string | null>(null);
  // MCP resources for the next message (their text goes with it; not kept with the draft).
  const [resources, setResources] = useState<readonly McpResourceText[]>([]);
  const [reading, setReading] = useState(0);
  useEffect(() => {
    if (draft) {
      setTextState(draft.text);
      keepDraft(conversationId, draft.text);
      if (draft.images?.length) {
        const back = draft.images.map((image, i) => {
          return { id: nextImageId(), name: `image ${i + 1}`, mediaType: image.mediaType, data: image.data };
        });
        current.current = back;
        setImagesState(back);
        keepAttached(conversationId, back);
      }
    }
  }, [draft, conversationId]);
  const imageCount = images.length;
  useEffect(() => {
    onImages?.(imageCount);
    // Only the count matters; the callback may be a new function each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [imageCount]);

  /**
   * Attach the images among `files`; say which could not be (not an image, too large, too many),
   * and the `refusals` found before reading (a clipboard that could not be read).
   */
  const attach = async (files: File[], refusals: string[] = []) => {
    if (files.length === 0 && refusals.length === 0) return;
    setReading((n) => n + 1);
    const read = await Promise.all(files.map(toImage));
    setReading((n) => n - 1);
    const problems = [...refusals, ...read.filter((r): r is string => typeof r === "string")];
    const fresh = read.filter((r): r is AttachedImage => typeof r !== "string");
    const room = Math.max(0, MAX_IMAGES - current.current.length);
    if (fresh.length > room) {
      const left = fresh.length - room;
      problems.push(`At most ${MAX_IMAGES} images go with one message: ${left} ${left === 1 ? "was" : "were"} not attached.`);
    }
    if (fresh.length && room) setImages([...current.current, ...fresh.slice(0, room)]);
    setImageError(problems.length ? problems.join(" ") : null);
  };

  const removeImage = (id: string) => {
    setImages(current.current.filter((image) => image.id !== id));
    setImageError(null);
  };

  /** Empty it all once the message is sent. */
  const clear = () => {
    setText("");
    setImages([]);
    setResources([]);
    setImageError(null);
  };

  return { text, setText, images, imageError, resources, setResources, reading, attach, removeImage, clear };
}
