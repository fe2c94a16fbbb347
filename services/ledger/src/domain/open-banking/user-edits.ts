/**
 * What a re-import leaves alone: the fields a user changed on a transaction. An update records the names of
 * these fields it touched (`transactions.user_edited_fields`); the bank's data then updates only the others.
 * The bank never sends a category or tags, so a re-import touches them on no entry; title and description
 * it does send, and keeps them where the user wrote their own.
 */
export const USER_EDITABLE_FIELDS = ['title', 'description', 'category_id', 'subcategory_id', 'tag_ids'] as const;
export type UserEditableField = (typeof USER_EDITABLE_FIELDS)[number];

/** The bank fields a re-import would rewrite that a user edit protects. */
export const PROTECTED_BANK_FIELDS: readonly UserEditableField[] = ['title', 'description'];

/** The user-editable fields an update sends (category and subcategory follow each other). */
export function userEditedFields(input: Partial<Record<UserEditableField, unknown>>): UserEditableField[] {
  return USER_EDITABLE_FIELDS.filter((field) => input[field] !== undefined);
}
