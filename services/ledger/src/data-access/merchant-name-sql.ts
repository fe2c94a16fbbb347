import { BLANK_CLASS, codePointRanges, MARK_CLASS } from '../domain/rules/normalize.ts';

/** A PostgreSQL regex bracket expression of a one-character class, written with `\u`/`\U` escapes. */
function bracket(oneChar: RegExp): string {
  const codeEscape = (cp: number) =>
    cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;
  const parts = codePointRanges(oneChar).map(([from, to]) =>
    from === to ? codeEscape(from) : `${codeEscape(from)}-${codeEscape(to)}`,
  );
  return `[${parts.join('')}]`;
}

/** `normalize_merchant_name` as SQL, built from the classes of `domain/rules/normalize.ts` (the rule's one home). */
export function merchantNameFunctionSql(): string {
  return `create or replace function normalize_merchant_name(value text) returns text
    language sql immutable parallel safe returns null on null input
    as $fn$ select nullif(btrim(regexp_replace(translate(regexp_replace(normalize(value, NFD),
      '${bracket(MARK_CLASS)}', '', 'g'),
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'),
      '${bracket(BLANK_CLASS)}+', ' ', 'g'), ' '), '') $fn$`;
}
