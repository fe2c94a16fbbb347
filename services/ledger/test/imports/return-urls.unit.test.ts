import fc from 'fast-check';
import { checkRedirectUri, parseReturnUrls } from '../../src/domain/open-banking/return-urls.ts';

const ALLOWED = 'https://app.example.com/conexoes,https://parceiro.example.com.br/';

const refused = (value: string, allowed = ALLOWED, production = true) => {
  const { urls } = parseReturnUrls(allowed, production);
  try {
    checkRedirectUri(value, urls ?? []);
    return false;
  } catch {
    return true;
  }
};

describe('where a connection may send the customer’s browser (redirect_uri)', () => {
  it('when the address lies under an allowed one, same origin, then it is taken', () => {
    for (const value of [
      'https://app.example.com/conexoes',
      'https://app.example.com/conexoes/fim?x=1#topo',
      'https://APP.example.com:443/conexoes/',
      'https://parceiro.example.com.br/qualquer/caminho',
    ])
      expect([value, refused(value)]).toEqual([value, false]);
  });

  it('when it goes anywhere else or hides something, then 400 (every case measured against the old rule)', () => {
    for (const value of [
      'https://evil.example/cb',
      'http://app.example.com/conexoes',
      'https://app.example.com@evil.example/conexoes',
      'https://app.example.com/conexoes@evil.example',
      'https://user:senha@app.example.com/conexoes',
      'https://app.example.com/conexoes%0d%0aSet-Cookie:%20a=b',
      'https://app.example.com/conexoes/\r\nx',
      'https://app.example.com\\@evil.example/conexoes',
      'https://app.example.com/conexoes-falsas',
      'https://app.example.com/conexoes/../admin',
      'https://app.example.com/conexoes/%2e%2e/admin',
      'https://app.example.com.evil.example/conexoes',
      'https://app.example.com:8443/conexoes',
      'http://127.0.0.1:9/internal',
      'http://[::1]/conexoes',
      'http://10.0.0.1/conexoes',
      'javascript:alert(1)',
      '//evil.example/cb',
      'não é url',
    ])
      expect([value, refused(value)]).toEqual([value, true]);
    expect(refused('https://app.example.com/conexoes', '')).toBe(true);
  });

  it('when a loopback front end is listed (development), then it is taken; production refuses plain http in the list', () => {
    expect(refused('http://localhost:3000/banco/fim', 'http://localhost:3000/banco', false)).toBe(false);
    expect(refused('http://127.0.0.1:9/internal', 'http://localhost:3000/banco', false)).toBe(true);
    expect(parseReturnUrls('http://localhost:3000/banco', true)).toEqual({
      urls: null,
      invalid: 'http://localhost:3000/banco',
    });
    for (const entry of [
      'https://a.example/x?y=1',
      'https://a.example/#f',
      'https://u:p@a.example/',
      'ftp://a.example/',
    ])
      expect(parseReturnUrls(entry, false).invalid).toBe(entry);
  });

  it('when any address is taken, then the browser lands on an allowed origin, under its path', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()), (value) => {
        if (refused(value)) return;
        const url = new URL(value);
        expect(['https://app.example.com', 'https://parceiro.example.com.br']).toContain(url.origin);
        if (url.origin === 'https://app.example.com') expect(url.pathname).toMatch(/^\/conexoes(\/|$)/);
      }),
      { numRuns: 500 },
    );
  });
});
