import { hashPassword, type ScryptCost } from '../../src/server/inbox/password';
import type { Store } from '../../src/server/store/store';
import type { AdminRole } from '../../src/shared/admin';

/**
 * The scrypt cost of the accounts tests create (RFC 7914; N = 2^10 uses 1 MiB and takes about a
 * millisecond). The cost travels with the hash, so each sign-in to such an account pays this cost,
 * not the product's (N = 2^16, about 0.2 s of a core): some 250 accounts and as many sign-ins a
 * run. Accounts the product creates (the admin CLI, a password change) keep the product's cost,
 * and their tests check it (scripts/admin.test.ts).
 */
const TEST_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

/** A team member's e-mail address and password. */
export interface TestUser {
  email: string;
  password: string;
}

/**
 * Creates an inbox account in `store` as the admin CLI does, its password hashed at {@link TEST_COST}.
 * @throws UserExistsError when the e-mail (any case) has an account.
 */
export async function createTestUser(store: Pick<Store, 'users'>, user: TestUser, role: AdminRole) {
  return store.users.createUser(user.email, await hashPassword(user.password, TEST_COST), role);
}
