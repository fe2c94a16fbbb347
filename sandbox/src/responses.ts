import type { Request, Response } from 'express';
import { dateTime } from './consents.ts';

const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 1000;
/**
 * The most records a page holds whatever `page-size` asks (the documents' default): an institution may serve less
 * than asked and link the next page, so a receiver must follow `links.next` through long lists.
 */
export const SERVED_PAGE_SIZE = 25;

/** The documents' error body: `{errors: [{code, title, detail}], meta}`. */
export function sendError(res: Response, status: number, code: string, detail: string): void {
  res.status(status).json({
    errors: [{ code, title: code.replaceAll('_', ' ').toLowerCase(), detail }],
    meta: { totalRecords: 1, totalPages: 1, requestDateTime: dateTime() },
  });
}

/** The page asked for (`page`, `page-size`, 1-based), or an error answered. */
function pageOf(req: Request, res: Response): { page: number; size: number } | null {
  const page = req.query.page === undefined ? 1 : Number(req.query.page);
  const size = req.query['page-size'] === undefined ? DEFAULT_PAGE_SIZE : Number(req.query['page-size']);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    sendError(res, 422, 'PARAMETRO_INVALIDO', 'page deve ser inteiro ≥ 1 e page-size entre 1 e 1000');
    return null;
  }
  return { page, size };
}

/** `self` with the query of this request and another page. */
function linkTo(base: string, req: Request, page: number, size: number): string {
  const url = new URL(`${base}${req.originalUrl}`);
  url.searchParams.set('page', String(page));
  url.searchParams.set('page-size', String(size));
  return url.toString();
}

export interface PageMeta {
  /** Whether the document's meta of this list carries totals (accounts' transactions do not). */
  totals?: boolean;
}

/** A page of a list with `links` (self, first, prev, next, last) and `meta` (totals and request time). */
export function sendPage<T>(req: Request, res: Response, base: string, items: T[], options: PageMeta = {}): void {
  const asked = pageOf(req, res);
  if (!asked) return;
  asked.size = Math.min(asked.size, SERVED_PAGE_SIZE);
  const totalPages = Math.max(1, Math.ceil(items.length / asked.size));
  const page = Math.min(asked.page, totalPages);
  const data = items.slice((page - 1) * asked.size, page * asked.size);
  const links: Record<string, string> = { self: linkTo(base, req, page, asked.size) };
  if (totalPages > 1) {
    links.first = linkTo(base, req, 1, asked.size);
    links.last = linkTo(base, req, totalPages, asked.size);
  }
  if (page > 1) links.prev = linkTo(base, req, page - 1, asked.size);
  if (page < totalPages) links.next = linkTo(base, req, page + 1, asked.size);
  const meta =
    options.totals === false
      ? { requestDateTime: dateTime() }
      : { totalRecords: items.length, totalPages, requestDateTime: dateTime() };
  res.json({ data, links, meta });
}

/** One record with `links.self` and `meta`. */
export function sendOne(req: Request, res: Response, base: string, data: unknown, options: PageMeta = {}): void {
  const meta =
    options.totals === false
      ? { requestDateTime: dateTime() }
      : { totalRecords: 1, totalPages: 1, requestDateTime: dateTime() };
  res.json({ data, links: { self: `${base}${req.originalUrl}` }, meta });
}
