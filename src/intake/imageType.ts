/** Display image formats the API accepts, recognised by their first bytes, never by file name. */
export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const at = (i: number) => bytes[i];
  if (bytes.length >= 3 && at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return "image/jpeg";
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => at(i) === b)) return "image/png";
  if (bytes.length >= 6) {
    const head = String.fromCharCode(...bytes.subarray(0, 6));
    if (head === "GIF87a" || head === "GIF89a") return "image/gif";
  }
  if (bytes.length >= 12) {
    const riff = String.fromCharCode(...bytes.subarray(0, 4));
    const webp = String.fromCharCode(...bytes.subarray(8, 12));
    if (riff === "RIFF" && webp === "WEBP") return "image/webp";
  }
  return null;
}

export const IMAGE_EXTENSIONS: Record<ImageType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** What an image's header says: its type by its first bytes, its size, and (a JPEG's EXIF) how it is turned. */
export interface ImageHeader {
  contentType: ImageType;
  width: number;
  height: number;
  /** EXIF orientation, 1 to 8; 1 (upright) when the header tells none. */
  orientation: number;
}

/** The type and dimensions of JPEG, PNG, GIF or WebP bytes from their header, nothing decoded; null when they are none of these or unreadable. */
export async function readImageHeader(bytes: Uint8Array): Promise<ImageHeader | null> {
  const contentType = sniffImageType(bytes);
  if (!contentType) return null;
  const { imageSize } = await import("image-size");
  try {
    const { width, height, orientation } = imageSize(bytes);
    if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) return null;
    const turned = orientation !== undefined && Number.isInteger(orientation) && orientation >= 1 && orientation <= 8;
    return { contentType, width, height, orientation: turned ? orientation : 1 };
  } catch {
    return null;
  }
}
