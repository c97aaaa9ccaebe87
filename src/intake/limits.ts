/** Display image size limit: 1 MiB (interface §8, api-contract §1). */
export const MAX_DISPLAY_IMAGE_BYTES = 1_048_576;
