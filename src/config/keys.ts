/** The settings a profile stores besides its token (`foodctl config`). */
export const CONFIG_KEYS = ["api-url", "user", "timeout", "journal", "journal-days", "timezone", "language"] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
