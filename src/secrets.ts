/**
 * The one place that hides tokens in text a server or a user gave us, before anything prints or
 * writes it (errors, JSON errors, batch results, the journal, tables): a server may echo the
 * Authorization header it was sent.
 */
const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
// A shell reference (`Bearer $FOODCTL_TOKEN`, `Bearer $(foodctl auth token)`: a --curl line) names no token: it is left as it is.
const BEARER_VALUE = /\b(bearer\s+)(?!\$)[^\s"',;]+/gi;
/** The user-info part of a URL (`https://user:pass@host`): credentials, whoever typed them there. */
const URL_CREDENTIALS = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#@"']+@/g;
/** Shorter strings than this are not treated as secrets: masking "1" everywhere would garble text. */
const MIN_SECRET_LENGTH = 8;

export const MASK = "****";

/** The tokens this process sends, wherever they came from (FOODCTL_TOKEN or a profile): masked in every text. */
const tokensInUse = new Set<string>();

/** Called where the token to send is settled: from then on every redactSecrets masks it, whoever calls it. */
export function maskTokenInUse(token: string): void {
  tokensInUse.add(token);
}

/** `text` with every given secret, the tokens in use, every JWT-shaped string, every `Bearer <value>` and a URL's credentials masked. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let masked = text;
  for (const secret of [...secrets, ...tokensInUse]) {
    const value = secret?.trim();
    if (value && value.length >= MIN_SECRET_LENGTH) masked = masked.split(value).join(MASK);
  }
  return masked.replace(JWT_SHAPE, MASK).replace(BEARER_VALUE, `$1${MASK}`).replace(URL_CREDENTIALS, `$1${MASK}@`);
}
