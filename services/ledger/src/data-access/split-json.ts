/** A part's fields as JSON, in the order of the API's SplitPart (`s` a `transaction_splits` row). */
export const SPLIT_PART_JSON =
  "json_build_object('id', s.id, 'amount', s.amount, 'category_id', s.category_id, 'subcategory_id', s.subcategory_id, " +
  "'description', s.description, 'tag_ids', s.tag_ids, 'contact_id', s.contact_id, 'cost_center_id', s.cost_center_id)";

/**
 * The parts of the transaction `alias` as a JSON array in their order, or null when it is not split: the flag spares
 * every other row the lookup (read beside the rows of events and of the domain's reads).
 */
export const splitsJsonSql = (alias: string) =>
  `case when ${alias}.is_split then (select json_agg(${SPLIT_PART_JSON} order by s.position) ` +
  `from transaction_splits s where s.transaction_id = ${alias}.id) end`;
