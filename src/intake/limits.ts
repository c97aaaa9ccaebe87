/** Display image size limit: 1 MiB (docs/api.md, display images). */
export const MAX_DISPLAY_IMAGE_BYTES = 1_048_576;
