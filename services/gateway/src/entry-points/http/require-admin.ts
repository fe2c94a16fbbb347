import { errorBody } from '@finance/shared/errors/app-error';
import { sameSecret } from '@finance/shared/http/same-secret';
import type { NextFunction, Request, Response } from 'express';

/** The secret given as HTTP Basic (`admin:<secret>`) or as a bearer token, or null. */
function givenSecret(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value = ''] = header.split(' ', 2);
  if (/^bearer$/i.test(scheme)) return value;
  if (!/^basic$/i.test(scheme)) return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(0, colon) !== 'admin') return null;
  return decoded.slice(colon + 1);
}

/** ADMIN_SECRET as HTTP Basic `admin:<secret>` or bearer, else 401 with a Basic challenge: the queue dashboard and the gateway's /metrics. */
export function requireAdmin(secret: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = givenSecret(req.headers.authorization);
    if (given !== null && sameSecret(given, secret)) return next();
    res.setHeader('www-authenticate', 'Basic realm="admin", charset="UTF-8"');
    res.status(401).json(errorBody(401, 'Credenciais de administrador inválidas'));
  };
}
