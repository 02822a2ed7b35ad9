import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
} from "react";
import type { McpResourceText, ToolImage } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { imageSrc } from "../../shared/ui/Images";
import { attachedOf, draftOf, keepAttached, keepDraft, type AttachedImage } from "./drafts";
import { ACCEPT, MAX_IMAGES, nextImageId, toImage } from "./imageFiles";
import { AttachedResources } from "./AttachedResources";
import { ResourceAttach } from "./ResourceAttach";
import { withResources } from "./resources";

/** The field grows with its text up to this share of the window, then scrolls. */
const MAX_HEIGHT_SHARE = 0.4;
export function Composer({
  conversationId,
  running,
  disabled = false,
  placeholder,
  onSend,
  onStop,
  draft = null,
  takesImages = null,
  onImages,
}: {
  /** Whose draft the field holds: what was typed and not sent stays with its conversation. */
  conversationId: string;
  running: boolean;
  disabled?: boolean;
  /** What the empty field says instead of the usual (why it is disabled). */
  placeholder?: string;
  onSend: (text: string, images: ToolImage[]) => void;
  onStop: () => void;
  /** Text (and images) to put in the composer (a message taken back by a rewind); each new object replaces them. */
  draft?: { text: string; images?: readonly ToolImage[] } | null;
  /** Whether the chosen model reads images (null: not known). */
  takesImages?: boolean | null;
  /** Told how many images are attached, as that changes. */
  onImages?: (count: number) => void;
}) {
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
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const filePicker = useRef<HTMLInputElement>(null);
  // The field grows with what is typed (wrapped lines too, not only newlines), up to a limit.
  useLayoutEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = "auto";
    const max = Math.round(window.innerHeight * MAX_HEIGHT_SHARE);
    if (el.scrollHeight > 0) el.style.height = `${Math.min(el.scrollHeight, max)}px`;
    el.style.overflowY = el.scrollHeight > max ? "auto" : "hidden";
  }, [text]);
  // A conversation shown (at launch, new, switched to, Settings closed) is ready to type into.
  useEffect(() => {
    input.current?.focus();
  }, []);
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
  const canSend =
    !running && !disabled && reading === 0 && (text.trim().length > 0 || images.length > 0 || resources.length > 0);

  const send = () => {
    if (!canSend) return;
    onSend(
      withResources(text.trim(), resources),
      images.map(({ mediaType, data }) => ({ mediaType, data })),
    );
    setText("");
    setImages([]);
    setResources([]);
    setImageError(null);
  };

  /** Attach the images among `files`; say which could not be (not an image, too large, too many). */
  const attach = async (files: File[]) => {
    if (files.length === 0) return;
    setReading((n) => n + 1);
    const read = await Promise.all(files.map(toImage));
    setReading((n) => n - 1);
    const problems = read.filter((r): r is string => typeof r === "string");
    const fresh = read.filter((r): r is AttachedImage => typeof r !== "string");
    const room = Math.max(0, MAX_IMAGES - current.current.length);
    if (fresh.length > room) {
      const left = fresh.length - room;
      problems.push(`At most ${MAX_IMAGES} images go with one message: ${left} ${left === 1 ? "was" : "were"} not attached.`);
    }
    if (fresh.length && room) setImages([...current.current, ...fresh.slice(0, room)]);
    setImageError(problems.length ? problems.join(" ") : null);
  };

  const remove = (id: string) => {
    setImages(current.current.filter((image) => image.id !== id));
    setImageError(null);
    input.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter is a newline; Enter while composing an IME word is neither.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const data = e.clipboardData;
    // Copied text comes with a picture of it from some apps (spreadsheet cells): text is pasted as text.
    if (!data || Array.from(data.types ?? []).includes("text/plain")) return;
    let files = Array.from(data.files ?? []);
    if (files.length === 0) {
      files = Array.from(data.items ?? [])
        .filter((item) => item.kind === "file")
        .map((item) => item.getAsFile())
        .filter((f): f is File => f !== null);
    }
    if (files.length === 0) return;
    e.preventDefault();
    void attach(files);
  };

  const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes("Files");

  return (
    <div
      className={`composer-box${dragging ? " composer-dragging" : ""}`}
      onDragOver={(e) => {
        if (!carriesFiles(e) || disabled) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        setDragging(false);
        if (disabled) return;
        const files = Array.from(e.dataTransfer?.files ?? []);
        if (files.length === 0) return;
        e.preventDefault();
        void attach(files);
      }}
    >
      {images.length > 0 && (
        <ul className="composer-images" aria-label="Attached images" data-testid={TID.composerImages}>
          {images.map((image, i) => (
            <li key={image.id} className="composer-image" data-testid={TID.composerImage} data-name={image.name}>
              <img src={imageSrc(image)} alt={`Attached image ${i + 1}: ${image.name}`} />
              <button
                type="button"
                className="composer-image-remove"
                data-testid={TID.composerImageRemove}
                aria-label={`Remove image ${i + 1} (${image.name})`}
                title="Remove"
                onClick={() => remove(image.id)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <AttachedResources
        resources={resources}
        onRemove={(uri) => {
          setResources(resources.filter((resource) => resource.uri !== uri));
          input.current?.focus();
        }}
      />
      {imageError && (
        <p className="field-error small" role="alert" data-testid={TID.composerImageError}>
          {imageError}
        </p>
      )}
      {images.length > 0 && takesImages === false && (
        <p className="muted small" role="note" data-testid={TID.composerImageHint}>
          This model does not take images; it will be told an image was attached.
        </p>
      )}
      <div className="composer">
        <button
          type="button"
          className="composer-attach"
          data-testid={TID.composerAttach}
          aria-label="Attach images"
          title="Attach images (PNG, JPEG, GIF or WebP; you can also paste or drop them)"
          disabled={disabled || images.length >= MAX_IMAGES}
          onClick={() => filePicker.current?.click()}
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
            <path
              d="M21 11.5l-8.6 8.6a5.5 5.5 0 01-7.8-7.8l8.6-8.6a3.7 3.7 0 015.2 5.2l-8.6 8.6a1.8 1.8 0 01-2.6-2.6l7.9-7.9"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </button>
        <ResourceAttach
          disabled={disabled}
          onAttach={(resource) => {
            setResources([...resources.filter((r) => r.uri !== resource.uri), resource]);
            input.current?.focus();
          }}
        />
        <input
          ref={filePicker}
          type="file"
          accept={ACCEPT}
          multiple
          hidden
          data-testid={TID.composerFileInput}
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            // The same file can be chosen again next time.
            e.target.value = "";
            void attach(files);
            input.current?.focus();
          }}
        />
        <textarea
          ref={input}
          className="composer-input"
          data-testid={TID.composerInput}
          aria-label="Message"
          placeholder={placeholder ?? (running ? "Working… (Stop to interrupt)" : "Ask Warden to do something in your project")}
          rows={2}
          value={text}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {running ? (
          <button
            type="button"
            className="danger"
            data-testid={TID.stop}
            onClick={() => {
              onStop();
              // The Stop button goes away with the turn: the caret goes back to the message field.
              input.current?.focus();
            }}
          >
            Stop
          </button>
        ) : (
          <button type="button" className="primary" data-testid={TID.send} disabled={!canSend} onClick={send}>
            Send
          </button>
        )}
      </div>
    </div>
  );
}
