declare const __FOODCTL_VERSION__: string | undefined;

/** Injected by the build from package.json; tests run from source see the dev marker. */
export const VERSION: string = typeof __FOODCTL_VERSION__ === "string" ? __FOODCTL_VERSION__ : "0.0.0-dev";
