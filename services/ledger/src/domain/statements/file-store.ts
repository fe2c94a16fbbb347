import { now } from '@finance/shared/clock';
import { newId } from '@finance/shared/db/base-entity';
import type { FileStore } from '@finance/shared/http/received-file';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  completeStatementFile,
  deleteAbandonedStatementFiles,
  deleteStatementPieces,
  deleteUnclaimedStatementFile,
  insertStatementFile,
  insertStatementPiece,
  selectStatementPiece,
} from '../../data-access/statement-files.ts';
import { StatementDecoder, type StatementEncoding } from './statement-text.ts';

/** A file no import took this long after it arrived belongs to a request that died: it is deleted. */
const ABANDONED_AFTER_MINUTES = 60;
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Where statement files are kept as they arrive (`statement_files`, `statement_file_pieces`), each piece its own
 * short statement outside any transaction: a slow upload holds no connection between its pieces. A file its
 * request did not import is deleted when the answer leaves; one a dead request left, within the hour after (at most
 * every 10 minutes, on the next upload).
 */
export function statementFileStore(fork: () => EntityManager): FileStore {
  let lastSweep = 0;
  return {
    async open(ctx) {
      const id = newId();
      await insertStatementFile(fork(), id, ctx);
      if (now().getTime() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = now().getTime();
        await deleteAbandonedStatementFiles(fork(), ABANDONED_AFTER_MINUTES, 100);
      }
      return id;
    },
    append: (id, seq, bytes) => insertStatementPiece(fork(), id, seq, bytes),
    close: (id, file) => completeStatementFile(fork(), id, file),
    release: (id) => deleteUnclaimedStatementFile(fork(), id),
  };
}

/** A stored file's text, piece by piece as it is read from PostgreSQL (one piece in memory at a time). */
export async function* statementText(
  em: EntityManager,
  fileId: string,
  encoding: StatementEncoding,
  onPiece?: (seq: number) => void,
): AsyncGenerator<string> {
  const decoder = new StatementDecoder(encoding);
  for (let seq = 0; ; seq++) {
    const piece = await selectStatementPiece(em, fileId, seq);
    if (!piece) break;
    onPiece?.(seq);
    const text = decoder.decode(piece);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** The stored bytes of a file whose import is over. */
export const dropStatementBytes = (em: EntityManager, fileId: string) => deleteStatementPieces(em, fileId);
