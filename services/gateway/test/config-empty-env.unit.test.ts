import { loadGatewayConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('when a variable is set to the empty string, then it counts as unset (ADMIN_SECRET empty: no dashboard)', () => {
    const config = loadGatewayConfig({ NODE_ENV: 'test', ADMIN_SECRET: '', OTEL_EXPORTER_OTLP_ENDPOINT: '' });
    expect(config.ADMIN_SECRET).toBeUndefined();
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('when a required production secret is empty, then the start is refused naming it', () => {
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', INTERNAL_SECRET: '', KEY_PEPPER: '' })).toThrow(
      /INTERNAL_SECRET.*KEY_PEPPER|KEY_PEPPER.*INTERNAL_SECRET/,
    );
  });
});
