import { TID } from "../../../shared/testids";
import { imageSrc } from "../../../shared/ui/Images";
import type { AttachedImage } from "./drafts";

/** The images attached to the next message, each shown small and removable. */
export function AttachedImages({
  images,
  onRemove,
}: {
  images: readonly AttachedImage[];
  onRemove: (id: string) => void;
}) {
  if (images.length === 0) return null;
  return (
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
            onClick={() => onRemove(image.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
