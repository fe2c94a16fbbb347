/** Listing cursors are checked in one place for every service. */
export { afterIdOf, afterTimeIdOf, idPage } from '@finance/shared/db/pagination';
