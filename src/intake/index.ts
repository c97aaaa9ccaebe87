export * from "./levels.js";
export * from "./limits.js";
export * from "./positions.js";
export * from "./kinds.js";
export * from "./quantity.js";
export * from "./update.js";
export * from "./imageType.js";
