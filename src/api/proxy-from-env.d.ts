// proxy-from-env ships no types of its own.
declare module "proxy-from-env" {
  /** The proxy URL the environment names for this URL under NO_PROXY, or "" for a direct connection. */
  export function getProxyForUrl(url: string | URL): string;
}
