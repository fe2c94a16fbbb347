const MIN_TOKEN_LENGTH = 32;

/**
 * The secret `token` of a configured webhook URL (Pluggy signs nothing: the token in the URL it calls authenticates
 * it); null when it has none long enough. Its own module: the configuration reads it before telemetry patches
 * http, express and pg, so it must import none of them.
 */
export function webhookToken(url: string): string | null {
  const token = new URL(url).searchParams.get('token');
  return token !== null && token.length >= MIN_TOKEN_LENGTH ? token : null;
}
