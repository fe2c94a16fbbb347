import { now } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { PageQuery } from '@finance/shared/contracts/common';
import type { ContactFields } from '@finance/shared/contracts/ledger/business';
import { iso, ownerOf } from '@finance/shared/db/context-scope';
import { afterIdOf, toPage } from '@finance/shared/db/pagination';
import { notFound } from '@finance/shared/errors/app-error';
import { flushKeepingAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Contact, ContactSchema } from '../../data-access/entities/contact.ts';
import { ownWhere, pageById } from '../../data-access/reference-repository.ts';

const NOT_FOUND = 'Contato não encontrado';

export const contactView = (contact: Contact) => ({
  id: contact.id,
  name: contact.name,
  kind: contact.kind,
  document: contact.document ?? null,
  email: contact.email ?? null,
  phone: contact.phone ?? null,
  profile_id: contact.profileId ?? null,
  user_id: contact.userId,
  createdAt: iso(contact.createdAt),
  updatedAt: iso(contact.updatedAt),
});

async function findContact(em: EntityManager, ctx: CallerContext, id: string): Promise<Contact> {
  const contact = await em.findOne(ContactSchema, { id, ...ownWhere(ctx) });
  if (!contact) throw notFound(NOT_FOUND);
  return contact;
}

export async function createContact(em: EntityManager, ctx: CallerContext, input: ContactFields) {
  const contact = em.create(ContactSchema, {
    ...ownerOf(ctx),
    name: input.name as string,
    kind: input.kind ?? 'BOTH',
    document: input.document ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    deletedAt: null,
  });
  return flushKeepingAnswer(em, () => contactView(contact));
}

export async function updateContact(em: EntityManager, ctx: CallerContext, id: string, input: ContactFields) {
  const contact = await findContact(em, ctx, id);
  if (input.name !== undefined) contact.name = input.name;
  if (input.kind !== undefined) contact.kind = input.kind;
  if (input.document !== undefined) contact.document = input.document;
  if (input.email !== undefined) contact.email = input.email;
  if (input.phone !== undefined) contact.phone = input.phone;
  return flushKeepingAnswer(em, () => contactView(contact));
}

export async function deleteContact(em: EntityManager, ctx: CallerContext, id: string) {
  const contact = await findContact(em, ctx, id);
  const view = contactView(contact);
  contact.deletedAt = now();
  return flushKeepingAnswer(em, () => view);
}

export async function getContact(em: EntityManager, ctx: CallerContext, id: string) {
  return contactView(await findContact(em, ctx, id));
}

export async function listContacts(em: EntityManager, ctx: CallerContext, page: PageQuery) {
  const rows = await pageById(em, ContactSchema, ownWhere(ctx), page.limit, afterIdOf(page.cursor));
  return toPage(rows, page.limit, contactView);
}
