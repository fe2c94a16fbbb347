import { openApiMismatches } from '../support/openapi-check.ts';

const headers = new Headers({ 'x-request-id': 'req-1' });
const tag = {
  id: '0194b1c2-7d3e-7a01-8f00-0000000000a1',
  name: 'Mercado',
  color: '#64748B',
  profile_id: null,
  user_id: '0194b1c2-7d3e-7a01-8f00-0000000000a2',
  createdAt: '2026-01-15T12:00:00.000Z',
  updatedAt: '2026-01-15T12:00:00.000Z',
};

describe('validating proxy: a request/response pair against the served OpenAPI document', () => {
  it('when the pair is what the document says, then no mismatch', () => {
    expect(
      openApiMismatches({
        method: 'POST',
        url: '/v1/tags',
        body: { name: 'Mercado' },
        status: 201,
        responseBody: tag,
        headers,
      }),
    ).toEqual([]);
    expect(
      openApiMismatches({ method: 'GET', url: `/v1/tags/${tag.id}`, status: 200, responseBody: tag, headers }),
    ).toEqual([]);
  });

  it('when the answer lacks a required field or has an undocumented status, then a mismatch names it', () => {
    const { color: _color, ...withoutColor } = tag;
    expect(
      openApiMismatches({ method: 'GET', url: `/v1/tags/${tag.id}`, status: 200, responseBody: withoutColor, headers }),
    ).toEqual([expect.stringContaining("must have required property 'color'")]);
    expect(openApiMismatches({ method: 'GET', url: '/v1/tags', status: 418, responseBody: {}, headers })).toEqual([
      expect.stringContaining('status not documented'),
    ]);
    const error = { message: 'Credenciais de API inválidas', statusCode: 401, error: 'Unauthorized' };
    expect(
      openApiMismatches({
        method: 'GET',
        url: '/v1/tags',
        status: 401,
        responseBody: error,
        headers: new Headers({ 'x-request-id': 'a', 'retry-after': '5' }),
      }),
    ).toEqual([expect.stringContaining('header retry-after not documented')]);
    expect(
      openApiMismatches({ method: 'GET', url: '/v1/tags', status: 401, responseBody: error, headers: new Headers() }),
    ).toEqual([expect.stringContaining('documented header x-request-id missing')]);
  });

  it('when the server accepted a request the document refuses, then a mismatch names the field', () => {
    expect(
      openApiMismatches({
        method: 'POST',
        url: '/v1/tags',
        body: { name: 'x', color: 'red' },
        status: 201,
        responseBody: tag,
        headers,
      }),
    ).toEqual([expect.stringContaining('request body /color must match pattern')]);
    expect(
      openApiMismatches({
        method: 'GET',
        url: '/v1/tags?limit=9999&other=1',
        status: 200,
        responseBody: { data: [tag], next_cursor: null },
        headers,
      }),
    ).toEqual([
      expect.stringContaining('query parameter limit / must be <= 500'),
      expect.stringContaining('query parameter other not documented'),
    ]);
  });

  it('when the server refused a request, then only the answer is checked', () => {
    const error = { message: 'Dados inválidos', statusCode: 400, error: 'Bad Request', details: [] };
    expect(
      openApiMismatches({
        method: 'POST',
        url: '/v1/tags',
        body: { color: 'red' },
        status: 400,
        responseBody: error,
        headers,
      }),
    ).toEqual([]);
    expect(openApiMismatches({ method: 'GET', url: '/healthz', status: 200, responseBody: {}, headers })).toEqual([]);
  });
});
