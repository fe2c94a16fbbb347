import { errorBody } from '@finance/shared/errors/app-error';
import type { Request, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { type RedisReply, RedisStore } from 'rate-limit-redis';
import { keyOf } from './authenticate.ts';

/** Per-key limit kept in Redis so every gateway replica counts together; fails open when Redis is away. */
export function rateLimitPerKey(redis: Redis, windowMs: number, limit: number) {
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    passOnStoreError: true,
    keyGenerator: (_req: Request, res: Response) => keyOf(res).context.keyId ?? 'anonymous',
    // while Redis is away requests pass at once instead of waiting for a reconnect
    skip: (_req: Request, res: Response) => !res.locals.key || redis.status !== 'ready',
    store: new RedisStore({
      prefix: 'finance:rl:',
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    }),
    handler: (_req: Request, res: Response) => {
      res.status(429).json(errorBody(429, 'Limite de requisições excedido; tente novamente mais tarde'));
    },
  });
}
