import { MikroORM } from '@mikro-orm/postgresql';
import { Queue } from 'bullmq';
import { add } from './smoke-helper.ts';

describe('toolchain', () => {
  it('when loading ESM packages, then they resolve', () => {
    expect(typeof MikroORM).toBe('function');
    expect(typeof Queue).toBe('function');
    expect(add(1, 2)).toBe(3);
    expect(process.version.startsWith('v24')).toBe(true);
  });
});
