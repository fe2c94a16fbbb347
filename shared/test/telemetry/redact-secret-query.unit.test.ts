import { redactSecretQuery } from '../../src/telemetry/tracing.ts';

describe('secrets in a span’s URL', () => {
  it('when a URL carries the webhook token, then the span records REDACTED in its place and keeps the rest', () => {
    expect(redactSecretQuery('http://127.0.0.1:8081/v1/open-banking/pluggy/webhook?token=s3cr3t-0123456789')).toBe(
      'http://127.0.0.1:8081/v1/open-banking/pluggy/webhook?token=REDACTED',
    );
    expect(redactSecretQuery('?a=1&token=abc&b=2#frag')).toBe('?a=1&token=REDACTED&b=2#frag');
    expect(redactSecretQuery('/v1/accounts?tokens=1&mytoken=2')).toBe('/v1/accounts?tokens=1&mytoken=2');
  });
});
