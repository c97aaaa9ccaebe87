/** This machine for the client's plain http and the sandbox's address: `localhost`, 127.0.0.0/8, ::1 (not `*.localhost`: a resolver may send it anywhere). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  // 127.d.d.d, each part one to three digits up to 255.
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((part) => Number(part) <= 255);
}

/**
 * Whether an image an API names is held to the rule of src/imageAddress.ts (nothing on this
 * machine or its network): when the API is not on this machine and the image not on its own host.
 */
export function isRemoteApisImage(image: URL, api: URL): boolean {
  return !isLoopbackHost(api.hostname) && image.hostname !== api.hostname;
}
