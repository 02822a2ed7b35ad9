// Images in the conversation: small thumbnails (a message's attachments, a tool's pictures) that
// open a larger view. Always `<img src="data:…">` built from the base64 data, never markup.
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { ToolImage } from "../ipc";
import { TID } from "../testids";

/** The four kinds the engine sends; anything else is shown as a PNG (the browser sniffs it). */
const SHOWN_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** A `data:` address of an image (the data may already be one). */
export function imageSrc(image: Pick<ToolImage, "mediaType" | "data">): string {
  if (image.data.startsWith("data:")) return image.data;
  const type = SHOWN_TYPES.has(image.mediaType) ? image.mediaType : "image/png";
  return `data:${type};base64,${image.data}`;
}

/** Thumbnails that each open the image larger; `label` names the group ("Images sent"). */
export function ImageThumbnails({
  images,
  label,
  testId,
}: {
  images: readonly ToolImage[];
  label: string;
  testId: string;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const openers = useRef<(HTMLButtonElement | null)[]>([]);
  if (images.length === 0) return null;
  const shown = open === null ? null : images[open];
  return (
    <>
      <ul className="image-thumbs" aria-label={label} data-testid={testId}>
        {images.map((image, i) => (
          <li key={i}>
            <button
              type="button"
              className="image-thumb"
              data-testid={TID.imageThumb}
              ref={(el) => {
                openers.current[i] = el;
              }}
              aria-label={`Open image ${i + 1} of ${images.length}`}
              title="Open larger"
              onClick={() => setOpen(i)}
            >
              <img src={imageSrc(image)} alt="" />
            </button>
          </li>
        ))}
      </ul>
      {shown && open !== null && (
        <ImageViewer
          image={shown}
          label={`Image ${open + 1} of ${images.length}`}
          onClose={() => {
            const opener = openers.current[open];
            setOpen(null);
            opener?.focus();
          }}
        />
      )}
    </>
  );
}

/** One image as large as the window allows; Esc, Close or a click beside it closes it. */
export function ImageViewer({ image, label, onClose }: { image: ToolImage; label: string; onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => closeButton.current?.focus(), []);
  // Esc closes it wherever the focus is (the rest of the window leaves Esc to an open dialog).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      onClose();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [onClose]);
  return createPortal(
    <div
      className="image-viewer"
      role="dialog"
      aria-modal="true"
      aria-label={label}
      data-testid={TID.imageViewer}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <img src={imageSrc(image)} alt={label} />
      <button ref={closeButton} type="button" className="image-viewer-close" data-testid={TID.imageViewerClose} onClick={onClose}>
        Close
      </button>
    </div>,
    document.body,
  );
}
